"""BatchedVectorEnv: the template of natively batched envs that give SyncVectorEnv's numbers.

A natively batched env steps all its sub-envs with array operations instead of one env
object each. To return exactly what ``SyncVectorEnv`` of ``make(id)`` envs returns, it needs
the bookkeeping that the single envs, ``TimeLimit`` and the vectorizer do: a generator per
sub-env seeded ``seed + i``, step counts and truncation, the three autoreset modes, and
infos batched with ``_key`` masks in SyncVectorEnv's key order. This template does that once;
an env supplies the physics as hooks (see :class:`BatchedVectorEnv`).
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import numpy as np

from palaestra import logger
from palaestra._base import _seeding as seeding
from palaestra._base._arguments import check_max_episode_steps, check_num_envs
from palaestra._env._canvas import Canvas
from palaestra._env._suite import invalid_actions, render_before_reset, step_before_reset
from palaestra.error import InvalidAction
from palaestra.vector._autoreset import reset_arguments, resolve_autoreset_mode
from palaestra.vector._info import add_info
from palaestra.vector._spaces import wrong_action_count
from palaestra.vector._vector_env import AutoresetMode, VectorEnv
from palaestra.vector.utils import batch_space

__all__ = ["BatchedVectorEnv"]

_SUB_ENV_METHODS = frozenset({"call", "get_attr", "set_attr", "call_async", "call_wait"})
# The template's own per-sub-env state (see BatchedVectorEnv.row_axes).
_TEMPLATE_ROWS: dict[str, int | None] = {"generators": None, "steps": 0, "_needs_reset": 0}
_NOTHING = object()  # an attribute that held no rows yet (None before a first step)


class BatchedVectorEnv(VectorEnv[Any, Any, np.ndarray]):
    """The template of a natively batched env; a subclass supplies the env's hooks.

    Hooks (all but :meth:`reset_envs`, :meth:`advance` and :meth:`observe` have defaults):

    - ``single_observation_space`` / ``single_action_space``: set as class attributes or
      before ``super().__init__``; the batched spaces are derived.
    - :meth:`check_actions`: validate a batch of actions (``action_space.contains``).
    - :meth:`reset_envs`: draw the initial state of the sub-envs in a mask, sub-env ``i``
      from :meth:`rng` ``(i)``, exactly what the single env draws.
    - :meth:`advance`: step the sub-envs that are stepping (the others are being reset this
      step; what happens to them is overwritten); return rewards and terminations.
    - :meth:`observe`: the batched observation of all sub-envs.
    - :meth:`info`: the batched info of some sub-envs (default: none).
    - :meth:`final_observation`: one sub-env's observation as the single env returns it.
    - :meth:`tally_step`: the step counts, truncations and done flags after a step (override
      only to do the same faster).
    - :meth:`draw`: draw one sub-env on a :class:`palaestra._env._canvas.Canvas` (for
      ``render_mode="rgb_array"``; set ``canvas_size``).

    Set ``shared_generator = True`` for an env whose sub-envs all draw from the vector env's
    own ``np_random`` (Gymnasium's ``CartPoleVectorEnv``), seeded with ``seed`` itself.

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``None`` for no limit), as ``TimeLimit``.
        render_mode: ``"rgb_array"`` or ``None``.
        autoreset_mode: An :class:`AutoresetMode` or its value.
    """

    #: The template's bookkeeping; subclasses add the attributes holding their state.
    snapshot_fields: ClassVar[tuple[str, ...]] = ("generators", "steps", "_needs_reset", "_has_reset")
    metadata: dict[str, Any] = {
        "render_modes": ["rgb_array"],
        "render_fps": 30,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }
    #: All sub-envs draw from the vector env's ``np_random`` (seeded ``seed``), not one each.
    shared_generator: ClassVar[bool] = False
    #: ``(width, height)`` of one rendered sub-env.
    canvas_size: ClassVar[tuple[int, int]] = (600, 400)
    #: The command that installs pygame, named when it is missing.
    render_install_hint: ClassVar[str] = "pip install pygame-ce"
    canvas_y_up: ClassVar[bool] = False  # True: draw() draws y-up; each frame is flipped when shown
    #: Threads stepping the sub-envs: the template steps them all in the calling thread (an
    #: env that runs threads takes ``num_workers`` in ``__init__`` and sets it).
    num_workers: int = 1
    #: Where each attribute of ``snapshot_fields`` keeps the sub-envs' state, so that some
    #: sub-envs can step while the others hold still (``send``/``recv`` of some of them): an
    #: int is the axis of the sub-envs in an array, ``None`` a list of one item per sub-env.
    #: Attributes not named are settings a step does not change. ``None`` (the default): the
    #: sub-envs step together only. The template's own (generators, step counts) are added.
    row_axes: ClassVar[dict[str, int | None] | None] = None
    #: The dtype of the per-sub-env step counts (``steps``).
    step_count_dtype: ClassVar[Any] = np.int64

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
    ) -> None:
        num_envs = check_num_envs(num_envs)
        self.num_envs = num_envs
        self.max_episode_steps = check_max_episode_steps(max_episode_steps)
        self.render_mode = render_mode
        self.autoreset_mode = resolve_autoreset_mode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.generators: list[np.random.Generator | None] = [None] * num_envs
        self.steps = np.zeros(num_envs, dtype=self.step_count_dtype)
        self._needs_reset = np.zeros(num_envs, dtype=np.bool_)
        self._pending = 0  # how many sub-envs _needs_reset marks: skips the mask when none
        self._has_reset = False
        self._canvas: Any = None
        # Masks handed to info(), made once: every sub-env, and none of them.
        self._everyone = np.ones(num_envs, dtype=np.bool_)
        self._nobody = np.zeros(num_envs, dtype=np.bool_)
        if hasattr(self, "single_action_space"):
            self.action_space = batch_space(self.single_action_space, num_envs)
        if hasattr(self, "single_observation_space"):
            self.observation_space = batch_space(self.single_observation_space, num_envs)

    # -- hooks ---------------------------------------------------------------------------

    def check_actions(self, actions: Any) -> Any:
        """The batch of actions, checked (raise :class:`InvalidAction` naming them)."""
        arr = np.asarray(actions)
        if not self.action_space.contains(arr):
            raise invalid_actions(self, actions)
        return arr

    def reset_envs(self, mask: np.ndarray, options: dict[str, Any] | None) -> None:
        """Draw the initial state of the sub-envs in ``mask`` (``options`` as given to ``reset``)."""
        raise NotImplementedError

    def advance(self, actions: Any, stepping: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Step the sub-envs; return ``(rewards, terminated)`` arrays for all of them.

        Args:
            actions: The checked actions.
            stepping: The sub-envs that step; ``None`` when all do. The others are reset
                in this step (NEXT_STEP autoreset) and their results are discarded.
        """
        raise NotImplementedError

    def observe(self) -> Any:
        """The batched observation of every sub-env."""
        raise NotImplementedError

    def info(self, reported: np.ndarray, reset: np.ndarray) -> dict[str, Any]:
        """The batched info of the sub-envs in ``reported`` (with ``_key`` masks).

        Args:
            reported: The sub-envs whose info is asked for.
            reset: Those of them whose info is a reset's (the others' is their last step's).
        """
        return {}

    def final_observation(self, observation: Any, i: int) -> Any:
        """Sub-env ``i``'s part of a batched observation, as its single env returns it."""
        return observation[i].copy()

    def draw(self, canvas: Any, i: int) -> None:
        """Draw sub-env ``i`` on ``canvas`` (needed for ``render_mode="rgb_array"``)."""
        raise NotImplementedError

    # -- generators ------------------------------------------------------------------------

    def rng(self, i: int) -> np.random.Generator:
        """Sub-env ``i``'s generator (created from OS entropy if it was never seeded)."""
        if self.shared_generator:
            return self.np_random
        generator = self.generators[i]
        if generator is None:
            generator, _ = seeding.np_random()
            self.generators[i] = generator
        return generator

    # -- the skeleton ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset all sub-envs, or those selected by ``options["reset_mask"]``."""
        self._check_no_results_outstanding("reset")
        mask, options = self.begin_reset(seed, options)
        self.reset_envs(mask, options)
        return self.observe(), self.info(mask, mask)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every sub-env; those whose episode ended are reset per the autoreset mode."""
        self._check_no_results_outstanding("step")
        return self._step(actions, None)

    @property
    def steps_some(self) -> bool:
        """Whether some sub-envs can step while the others hold still (:attr:`row_axes` is set)."""
        return self.row_axes is not None

    def step_some(
        self, actions: Any, stepping: np.ndarray
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step the sub-envs in mask ``stepping``; the others hold still, exactly as they were.

        The batch is stepped whole (``actions`` holds an action for every sub-env; those of
        the held ones are any valid action) and the held sub-envs' rows of state are put
        back afterwards, generators included. The results' rows of held sub-envs mean
        nothing. Needs :attr:`row_axes`.
        """
        if self.row_axes is None:
            raise NotImplementedError(f"{type(self).__name__} steps its sub-envs together only (no row_axes)")
        held = ~np.asarray(stepping, dtype=np.bool_)
        rows = {**_TEMPLATE_ROWS, **self.row_axes}
        saved = {name: _take_rows(getattr(self, name), held, axis) for name, axis in rows.items()}
        try:
            return self._step(actions, held)
        finally:
            for name, axis in rows.items():
                setattr(self, name, _put_rows(getattr(self, name), saved[name], held, axis))
            self._pending = int(np.count_nonzero(self._needs_reset))

    def _step(
        self, actions: Any, held: np.ndarray | None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """A step of every sub-env; with ``held``, those sub-envs neither reset nor end (step_some)."""
        self.check_step_allowed(held)
        try:
            actions = self.check_actions(actions)
        except InvalidAction:
            count = len(actions) if hasattr(actions, "__len__") else None
            if count is not None and count != self.num_envs:
                raise InvalidAction(
                    str(wrong_action_count(count, self.num_envs, type(self).__name__))
                ) from None
            raise
        resetting = (
            self._needs_reset if self._pending and self.autoreset_mode is AutoresetMode.NEXT_STEP else None
        )
        if resetting is not None and held is not None:
            resetting = resetting & ~held
        rewards, terminated = self.advance(actions, None if resetting is None else ~resetting)
        if resetting is not None:
            self.reset_envs(resetting, None)
        truncated, done, self._pending = self.tally_step(rewards, terminated, resetting, held)
        self._needs_reset = done
        if self._pending and self.autoreset_mode is AutoresetMode.SAME_STEP:
            return self._step_same_step(rewards, terminated, truncated, done)
        observations = self.observe()
        reset = self._nobody if resetting is None else resetting
        return observations, rewards, terminated, truncated, self.info(self._everyone, reset)

    def tally_step(
        self,
        rewards: np.ndarray,
        terminated: np.ndarray,
        resetting: np.ndarray | None,
        held: np.ndarray | None,
    ) -> tuple[np.ndarray, np.ndarray, int]:
        """Count a step: step counts, truncations, the reset sub-envs' results, who is done.

        Every sub-env's step count goes up by one and :meth:`truncations` says who reached
        the limit; the sub-envs in ``resetting`` (reset in this step, NEXT_STEP mode) count
        from zero and get reward 0 and no termination or truncation (``rewards`` and
        ``terminated`` are changed in place). An env may do this faster (in C, say) where
        it gives the same arrays; this is the specification.

        Args:
            rewards: The rewards :meth:`advance` returned.
            terminated: The terminations :meth:`advance` returned.
            resetting: The sub-envs reset in this step, or ``None``.
            held: Sub-envs that hold still (``step_some``): never done.

        Returns:
            ``(truncated, done, count)``: the truncations, ``terminated | truncated`` (but
            for held sub-envs) and how many are done.
        """
        self.steps += 1
        truncated = self.truncations()
        if resetting is not None:
            self.steps[resetting] = 0
            rewards[resetting] = 0
            terminated[resetting] = False
            truncated[resetting] = False
        done = terminated | truncated
        if held is not None:  # a held sub-env's flags are not its own: it did not step
            done &= ~held
        return truncated, done, int(np.count_nonzero(done))

    def _step_same_step(
        self, rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray, done: np.ndarray
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """SAME_STEP with episodes ending: keep their final step aside, reset them now."""
        final_obs = self.observe()
        final_info = self.info(done, self._nobody)
        finals: dict[str, Any] = {}
        for i in done.nonzero()[0].tolist():
            add_info(finals, {"final_obs": self.final_observation(final_obs, i)}, i, self.num_envs)
        finals["final_info"], finals["_final_info"] = final_info, done.copy()
        self.reset_envs(done, None)
        self.steps[done] = 0
        self._needs_reset = np.zeros(self.num_envs, dtype=np.bool_)
        self._pending = 0
        current = self.info(self._everyone, done)
        # SyncVectorEnv adds keys sub-env by sub-env: the first sub-env's own keys come first.
        infos = {**finals, **current} if done[0] else {**current, **finals}
        return self.observe(), rewards, terminated, truncated, infos

    # -- bookkeeping -----------------------------------------------------------------------

    def begin_reset(
        self, seed: int | list[int | None] | None, options: dict[str, Any] | None
    ) -> tuple[np.ndarray, dict[str, Any] | None]:
        """Seed and mark the sub-envs a ``reset`` call resets.

        Returns:
            The reset mask (all True unless ``options["reset_mask"]`` is given) and the
            options without ``reset_mask`` (the caller's dict is not modified).
        """
        seeds, options, given_mask = reset_arguments(seed, options, self.num_envs)
        mask = np.ones(self.num_envs, dtype=np.bool_) if given_mask is None else given_mask
        if self.shared_generator:
            if isinstance(seed, int):
                self._reseed(seed)
        else:
            for i in np.flatnonzero(mask):
                if seeds[i] is not None:
                    self.generators[i], _ = seeding.np_random(seeds[i])
        self.steps[mask] = 0
        self._needs_reset[mask] = False
        self._pending = int(np.count_nonzero(self._needs_reset))
        self._has_reset = True
        return mask, options

    def check_step_allowed(self, held: np.ndarray | None = None) -> None:
        """Raise unless ``reset`` was called and (DISABLED mode) ended sub-envs were reset.

        Args:
            held: Sub-envs that hold still in this step (their ended episodes do not count).
        """
        if not self._has_reset:
            raise step_before_reset(self)
        ended = self._needs_reset if held is None else self._needs_reset & ~held
        if self._pending and self.autoreset_mode is AutoresetMode.DISABLED and ended.any():
            raise RuntimeError(
                f"Sub-envs {np.flatnonzero(ended).tolist()} ended their episode and autoreset_mode "
                "is DISABLED; reset them with reset(options={'reset_mask': mask}) before stepping again"
            )

    def truncations(self) -> np.ndarray:
        """Which sub-envs reached ``max_episode_steps`` (count the step first)."""
        if self.max_episode_steps is None:
            return np.zeros(self.num_envs, dtype=np.bool_)
        return self.steps >= self.max_episode_steps

    def end_step(self, done: np.ndarray) -> None:
        """Remember which sub-envs ended, for the next step's autoreset."""
        self._needs_reset = done
        self._pending = int(np.count_nonzero(done))

    def restore(self, snapshot: Any) -> None:
        """Return every sub-env to the state saved by :meth:`snapshot`."""
        super().restore(snapshot)
        self._pending = int(np.count_nonzero(self._needs_reset))

    def __getattr__(self, name: str) -> Any:
        # Gymnasium's make_vec gives a SyncVectorEnv for most ids, and code written for it
        # calls into the sub-envs; a natively batched env has none to call.
        if name in _SUB_ENV_METHODS:
            raise AttributeError(
                f"{type(self).__name__} has no {name}(): its sub-envs are rows of arrays, not env objects. "
                "For SyncVectorEnv's call/get_attr/set_attr, make it with "
                "make_vec(id, num_envs, vectorization_mode='sync')"
            )
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # -- rendering -------------------------------------------------------------------------

    def render(self) -> tuple[Any, ...] | None:
        """One rgb frame per sub-env, drawn by :meth:`draw`."""
        if self.render_mode is None:
            logger.warn("You are calling render without a render mode; pass render_mode='rgb_array'.")
            return None
        if self.render_mode != "rgb_array":
            raise ValueError(f"{type(self).__name__} renders only 'rgb_array', got {self.render_mode!r}")
        if not self._has_reset:
            raise render_before_reset(self)
        if self._canvas is None:
            width, height = self.canvas_size
            fps = self.metadata.get("render_fps", 30)
            self._canvas = Canvas(
                width,
                height,
                "rgb_array",
                fps,
                type(self).__name__,
                self.render_install_hint,
                self.canvas_y_up,
            )
        frames = []
        for i in range(self.num_envs):
            self.draw(self._canvas, i)
            frames.append(self._canvas.present())
        return tuple(frames)

    def close_extras(self, **kwargs: Any) -> None:
        """Release the drawing surface."""
        self._canvas = None


def _take_rows(value: Any, held: np.ndarray, axis: int | None) -> Any:
    """Copies of the held sub-envs' part of one state attribute (see ``row_axes``)."""
    if value is None:
        return _NOTHING
    indices = np.flatnonzero(held)
    if axis is not None:
        return np.take(value, indices, axis=axis)
    return [_item_state(value[i]) for i in indices.tolist()]


def _item_state(item: Any) -> tuple[str, Any]:
    if isinstance(item, np.random.Generator):  # restored in place: others may hold it
        return "generator", copy.deepcopy(item.bit_generator.state)
    if hasattr(item, "snapshot") and hasattr(item, "restore"):  # an env object
        return "env", item.snapshot()
    return "value", copy.deepcopy(item)


def _put_rows(value: Any, saved: Any, held: np.ndarray, axis: int | None) -> Any:
    """``value`` with the held sub-envs' part put back from ``saved``."""
    if saved is _NOTHING:
        return value
    indices = np.flatnonzero(held)
    if axis is not None:
        index: list[Any] = [slice(None)] * value.ndim
        index[axis] = indices
        value[tuple(index)] = saved
        return value
    items = value if isinstance(value, list) else list(value)  # a list in place: others may hold it
    for i, (kind, state) in zip(indices.tolist(), saved, strict=True):
        if kind == "generator":
            items[i].bit_generator.state = state
        elif kind == "env":
            items[i].restore(state)
        else:
            items[i] = state
    return items
