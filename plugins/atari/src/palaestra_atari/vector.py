"""Natively batched Atari on ALE's C++ vector interface: one call steps every game on threads.

The standard preprocessing (Machado et al., 2018; Mnih et al., 2015) runs inside ALE: frame
skipping with max-pooling of the last two frames, resizing (84x84 by default, grayscale or
RGB), frame stacking, no-op starts, pressing FIRE at reset in games that need it, episodic
life, reward clipping and sticky actions. With ``batch_size`` below ``num_envs`` the env is
asynchronous in EnvPool's way: each ``step`` returns the first ``batch_size`` games that are
ready (``info["env_id"]`` names them) and takes actions for the games it returned last.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra import spaces
from palaestra.error import ClosedEnvironmentError, Error, InvalidResetOptions
from palaestra.plugin import (
    AutoresetMode,
    VectorEnv,
    batch_space,
    check_num_envs,
    invalid_actions,
    resolve_autoreset_mode,
    step_before_reset,
)
from palaestra_atari._joystick import joystick_action, joystick_space
from palaestra_atari._recv import AtariEngine
from palaestra_atari.env import ale, rom_path

__all__ = ["AtariVectorEnv"]

# ALE's vector interface runs these two modes itself; DISABLED runs on NEXT_STEP, refusing a
# step while a finished game waits for its reset.
_ALE_MODES = {AutoresetMode.NEXT_STEP: "NextStep", AutoresetMode.SAME_STEP: "SameStep"}
_MAX_SEED = 2**31 - 1  # ALE's vector interface takes each game's seed as a C int


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _check_settings(**settings: tuple[Any, int | float, int | float | None, str]) -> None:
    """Refuse a setting ALE would accept and then hang, crash or misbehave on.

    Each value is ``(value, lowest, highest or None, what it means)``; ints are required
    where ``lowest`` is an int, real numbers where it is a float.
    """
    for name, (value, lowest, highest, meaning) in settings.items():
        wants_int = isinstance(lowest, int)
        ok_type = (
            _is_int(value)
            if wants_int
            else isinstance(value, (int, float, np.number)) and not isinstance(value, bool)
        )
        bounds = f"in [{lowest}, {highest}]" if highest is not None else f">= {lowest}"
        if not ok_type or not (lowest <= value and (highest is None or value <= highest)):
            kind = "an integer" if wants_int else "a number"
            raise ValueError(f"{name} must be {kind} {bounds} ({meaning}), got {value!r}")


def _check_seed(first: int, last: int) -> None:
    if first < 0:
        raise Error(f"Seed must be greater or equal to zero, actual value: {first}")
    if last > _MAX_SEED:
        raise Error(
            f"Seed must be at most 2**31 - 1 = {_MAX_SEED} for ALE's vector interface (each game's "
            f"seed is a C int), got a game seed of {last}; pick a smaller seed."
        )


class AtariVectorEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` games of one ROM, stepped together by ALE's threads.

    Args:
        game: The ROM, in snake_case (``"pong"``).
        num_envs: Games.
        batch_size: Games per ``recv`` (0: all). Fewer makes the env asynchronous (ALE's
            vector interface): ``async_reset``/``recv``/``send`` then, not ``step``/``reset``.
        num_threads: Threads stepping the games (0: one per core).
        thread_affinity_offset: First core to pin threads to (-1: no pinning).
        max_num_frames_per_episode: Truncate episodes after this many frames.
        repeat_action_probability: Sticky-action probability per frame.
        full_action_space: All 18 joystick actions instead of the game's minimal set.
        continuous: Actions are ``(radius, angle, fire)`` float32 rows, as for :class:`AtariEnv`.
        continuous_action_threshold: Where a continuous action's components count as pressed.
        autoreset_mode: ``NEXT_STEP``, ``SAME_STEP`` or ``DISABLED``.
        img_height, img_width: Observation frame size.
        grayscale: Grayscale frames (else RGB).
        stack_num: Frames stacked per observation.
        frameskip: Emulator frames per step (the last two max-pooled when ``maxpool``).
        maxpool: Max-pool the last two frames of a step.
        noop_max: Up to this many no-op steps at reset (drawn per episode).
        episodic_life: End an episode on every life lost.
        life_loss_info: Report a life lost as termination, without resetting the game.
        reward_clipping: Clip rewards to their sign.
        use_fire_reset: Press FIRE at reset in games that wait for it.
        render_mode: Only ``None``: the batched games do not render.
    """

    metadata: dict[str, Any] = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}
    recv_engine = AtariEngine
    #: make_vec passes ``vector_kwargs["batch_size"]`` to the constructor: ALE fixes it there.
    takes_batch_size = True

    @property
    def batch_size(self) -> int:
        """Games per ``recv`` (ALE's batch size; ``num_envs`` unless made with ``batch_size``)."""
        return self._ale_batch

    @batch_size.setter
    def batch_size(self, value: int) -> None:
        if value != self._ale_batch:
            raise Error(
                f"AtariVectorEnv's batch_size is ALE's, fixed when the env is made (it is {self._ale_batch}): "
                "make_vec(id, num_envs, batch_size=k) for another"
            )

    def __init__(
        self,
        game: str,
        num_envs: int,
        *,
        batch_size: int = 0,
        num_threads: int = 0,
        thread_affinity_offset: int = -1,
        max_num_frames_per_episode: int = 108_000,
        repeat_action_probability: float = 0.0,
        full_action_space: bool = False,
        continuous: bool = False,
        continuous_action_threshold: float = 0.5,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        img_height: int = 84,
        img_width: int = 84,
        grayscale: bool = True,
        stack_num: int = 4,
        frameskip: int = 4,
        maxpool: bool = True,
        noop_max: int = 30,
        episodic_life: bool = False,
        life_loss_info: bool = False,
        reward_clipping: bool = True,
        use_fire_reset: bool = True,
        render_mode: str | None = None,
    ) -> None:
        if type(frameskip) is not int:  # Gymnasium's (ale-py's) words
            raise Error(f"Invalid frameskip type: {type(frameskip)}.")
        if frameskip <= 0:
            raise Error(f"Invalid frameskip of {frameskip}, frameskip must be positive.")
        num_envs = check_num_envs(num_envs)
        _check_settings(
            batch_size=(batch_size, 0, num_envs, f"games per step, 0: all {num_envs}"),
            num_threads=(num_threads, 0, None, "0: one per core"),
            thread_affinity_offset=(thread_affinity_offset, -1, None, "-1: no pinning"),
            max_num_frames_per_episode=(max_num_frames_per_episode, 0, None, "0: no limit"),
            repeat_action_probability=(repeat_action_probability, 0.0, 1.0, "a probability"),
            continuous_action_threshold=(continuous_action_threshold, 0.0, 1.0, "a share of full strength"),
            img_height=(img_height, 1, None, "pixels"),
            img_width=(img_width, 1, None, "pixels"),
            stack_num=(stack_num, 1, None, "frames stacked per observation"),
            noop_max=(noop_max, 0, None, "most no-op steps at reset"),
        )
        if render_mode is not None:
            raise Error(
                f"AtariVectorEnv does not render (render_mode={render_mode!r}); make single envs to watch"
            )
        mode = resolve_autoreset_mode(autoreset_mode)
        if mode is AutoresetMode.DISABLED and 0 < batch_size < num_envs:
            raise ValueError(
                "autoreset_mode=DISABLED needs batch_size == num_envs: a finished game is then reset "
                "with reset(options={'reset_mask': mask}), which ALE's vector interface allows only "
                "when it steps every game together"
            )
        self.ale = ale().ALEVectorInterface(
            rom_path=rom_path(game),
            num_envs=num_envs,
            frame_skip=frameskip,
            stack_num=stack_num,
            img_height=img_height,
            img_width=img_width,
            grayscale=grayscale,
            maxpool=maxpool,
            noop_max=noop_max,
            use_fire_reset=use_fire_reset,
            episodic_life=episodic_life,
            life_loss_info=life_loss_info,
            reward_clipping=reward_clipping,
            max_episode_steps=max_num_frames_per_episode,
            repeat_action_probability=repeat_action_probability,
            full_action_space=full_action_space or continuous,
            batch_size=batch_size,
            num_threads=num_threads,
            thread_affinity_offset=thread_affinity_offset,
            autoreset_mode=_ALE_MODES.get(mode, "NextStep"),
        )
        self.game = game
        self.num_envs = num_envs
        self._ale_batch = batch_size or num_envs
        self.continuous = continuous
        self.continuous_action_threshold = continuous_action_threshold
        self.autoreset_mode = mode
        self.render_mode = None
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        shape = (stack_num, img_height, img_width) + (() if grayscale else (3,))
        self.single_observation_space = spaces.Box(0, 255, shape, np.uint8)
        self._action_set = self.ale.get_action_set()
        self.single_action_space: spaces.Space[Any] = (
            joystick_space() if continuous else spaces.Discrete(len(self._action_set))
        )
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._strength = np.ones(self.batch_size, dtype=np.float32)
        self._waiting = np.zeros(num_envs, dtype=bool)  # DISABLED: finished, not yet reset
        self._ids = np.arange(num_envs)  # the games the next actions are for, in ALE's order
        self._has_reset = False  # a step before reset is refused here: ALE's own error names its internals

    # -- reset ------------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | list[int | None] | np.ndarray | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every game, or those of ``options["reset_mask"]``.

        Args:
            seed: An int seeds the reset games with consecutive values from it; a sequence
                gives one seed (or None) per reset game.
            options: ``{"reset_mask": bool array of shape (num_envs,)}`` resets only those.
        """
        if self.ale is None:
            raise self._closed()
        self._check_whole_batches("reset")
        self._check_no_results_outstanding("reset")
        indices = self._reset_indices(options)
        seeds = self._reset_seeds(seed, len(indices))
        obs, info = self.ale.reset(indices, seeds)
        self._has_reset = True
        self._waiting[indices] = False
        self._ids = np.asarray(info["env_id"])
        return obs, dict(info)

    def _reset_indices(self, options: dict[str, Any] | None) -> np.ndarray:
        if options is not None and not isinstance(options, dict):
            raise InvalidResetOptions(f"reset options must be a dict or None, got {type(options).__name__}")
        mask = (options or {}).get("reset_mask")
        if mask is None:
            return np.arange(self.num_envs)
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise InvalidResetOptions(
                f"options['reset_mask'] must be a bool array of shape ({self.num_envs},), got {mask!r:.80}"
            )
        if self.batch_size != self.num_envs:
            raise InvalidResetOptions("partial resets need batch_size == num_envs (ALE's vector interface)")
        return np.flatnonzero(mask)

    @staticmethod
    def _reset_seeds(seed: Any, count: int) -> np.ndarray:
        if seed is None:
            return np.full(count, -1)  # ALE: draw from the game's own generator
        if _is_int(seed):
            _check_seed(int(seed), int(seed) + count - 1)
            return np.arange(int(seed), int(seed) + count)
        if not isinstance(seed, (list, tuple, np.ndarray)) or getattr(seed, "ndim", 1) != 1:
            raise Error(
                f"Seed must be a python integer, actual type: {type(seed)}. Pass an int (game i gets "
                "seed + i), a list of one int or None per reset game, or None."
            )
        seeds = list(seed)
        if len(seeds) != count:
            raise ValueError(
                f"If seeds are passed as a list the length must match num_envs={count} but got "
                f"length={len(seeds)}. Give one seed (or None) per game being reset."
            )
        for s in seeds:
            if s is not None and not _is_int(s):
                raise Error(f"Seed must be a python integer, actual type: {type(s)}. Seeds: {seeds!r:.120}")
            if s is not None:
                _check_seed(int(s), int(s))
        return np.array([-1 if s is None else int(s) for s in seeds])

    # -- step -------------------------------------------------------------------------

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Act in the games the last result named (all of them unless asynchronous)."""
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions: Any) -> None:
        """Send actions for the games of the last result; :meth:`step_wait` collects the next."""
        if self.ale is None:
            raise self._closed()
        self._check_whole_batches("step")
        self._check_no_results_outstanding("step_async")
        if not self._has_reset:
            raise step_before_reset(self)
        if self.autoreset_mode is AutoresetMode.DISABLED and self._waiting[self._ids].any():
            waiting = [int(i) for i in self._ids[self._waiting[self._ids]]]
            raise Error(
                f"sub-envs {waiting} finished and were not reset (autoreset_mode=DISABLED): reset them "
                "with reset(options={'reset_mask': mask}) before the next step"
            )
        if self.continuous:
            ids, strength = self._continuous(actions)
        else:
            ids, strength = self._discrete(actions), self._strength
        self.ale.send(ids, strength)

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The next batch of results."""
        if self.ale is None:
            raise self._closed()
        self._check_whole_batches("step")
        return self._finish(*self.ale.recv())

    def _finish(
        self, obs: Any, rewards: Any, terminated: Any, truncated: Any, ale_info: Any
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """ALE's batch as palaestra's: Gymnasium's final_obs form, float64 rewards."""
        info = dict(ale_info)
        self._ids = np.asarray(info["env_id"])
        done = terminated | truncated
        if done.any():
            if self.autoreset_mode is AutoresetMode.SAME_STEP:
                final = np.empty(len(done), dtype=object)
                for row in np.flatnonzero(done):
                    final[row] = info["final_obs"][row]
                info["final_obs"], info["_final_obs"] = final, done.copy()
                # ALE reports the new episode's info: the finished one's last info is not kept.
                info["final_info"], info["_final_info"] = {}, done.copy()
            elif self.autoreset_mode is AutoresetMode.DISABLED:
                self._waiting[self._ids[done]] = True
        return obs, rewards.astype(np.float64), terminated, truncated, info

    def _discrete(self, actions: Any) -> np.ndarray:
        arr = actions if actions.__class__ is np.ndarray else np.asarray(actions)
        n = len(self._action_set)
        if (
            arr.shape != (self.batch_size,)
            or arr.dtype.kind not in "iu"
            or (arr < 0).any()
            or (arr >= n).any()
        ):
            raise invalid_actions(self, actions)
        return arr if arr.dtype == np.int64 else arr.astype(np.int64)

    def _continuous(self, actions: Any) -> tuple[np.ndarray, np.ndarray]:
        arr = np.asarray(actions)
        if arr.shape != (self.batch_size, 3) or arr.dtype != np.float32 or not np.isfinite(arr).all():
            raise invalid_actions(self, actions)
        threshold = self.continuous_action_threshold
        ids = np.array([joystick_action(row, threshold) for row in arr], dtype=np.int64)
        return ids, arr[:, 0].copy()

    def _check_whole_batches(self, call: str) -> None:
        if self.batch_size < self.num_envs:
            raise Error(
                f"AtariVectorEnv.{call}: with batch_size={self.batch_size} < num_envs={self.num_envs} its "
                "games run asynchronously on ALE's threads: use async_reset(), recv() (the first "
                f"{self.batch_size} ready) and send(actions, env_ids); {call} needs batch_size == num_envs"
            )

    @staticmethod
    def _closed() -> ClosedEnvironmentError:
        return ClosedEnvironmentError(
            "Trying to operate on `AtariVectorEnv`, after a call to `close()`. Make a new one "
            "(palaestra.make_vec(...)) to go on."
        )

    def close_extras(self, **kwargs: Any) -> None:
        """Stop ALE's threads."""
        self.ale = None
