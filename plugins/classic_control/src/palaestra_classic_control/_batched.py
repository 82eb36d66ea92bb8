"""Base class of the natively batched classic-control envs.

Each sub-env keeps its own generator (seeded ``seed + i``) and draws exactly what the
single env draws, so a batched env returns what ``SyncVectorEnv`` of ``make(id)`` envs
returns for the same seeds and actions, in every autoreset mode, with the time limit
applied as ``make`` applies it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra.error import InvalidAction
from palaestra.vector import AutoresetMode, BatchedVectorEnv
from palaestra.vector._info import add_info
from palaestra.vector.utils import batch_space

__all__ = ["BatchedEnv"]


class BatchedEnv(BatchedVectorEnv):
    """Vectorised physics over ``num_envs`` sub-envs with per-env seeding and autoreset.

    Subclasses set ``single_observation_space``/``single_action_space``, implement
    :meth:`_reset_one` (draw one sub-env's initial state from its generator),
    :meth:`_advance` (the physics of all sub-envs at once) and :meth:`_observe`.

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``None`` for no limit).
        render_mode: ``"rgb_array"`` or ``None``.
        autoreset_mode: An :class:`AutoresetMode` or its value.
    """

    snapshot_fields = (*BatchedVectorEnv.snapshot_fields, "state")

    metadata = {"render_modes": ["rgb_array"], "render_fps": 50, "autoreset_mode": AutoresetMode.NEXT_STEP}
    state_size = 0

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.state = np.zeros((num_envs, self.state_size), dtype=np.float64)
        self._canvas: Any = None

    def _reset_one(self, i: int, rng: np.random.Generator, options: dict[str, Any] | None) -> None:
        raise NotImplementedError

    def _advance(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Step every sub-env; return the new states, rewards and terminations."""
        raise NotImplementedError

    def _observe(self, states: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _check_actions(self, actions: Any) -> np.ndarray:
        arr = np.asarray(actions)
        if not self.action_space.contains(arr):
            raise InvalidAction(
                f"{type(self).__name__}.step: actions {actions!r} are not in the action space {self.action_space}"
            )
        return arr

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset all sub-envs, or those selected by ``options["reset_mask"]``."""
        mask, options = self.begin_reset(seed, options)
        for i in np.flatnonzero(mask):
            self._reset_one(int(i), self.rng(int(i)), options)
        return self._observe(self.state), {}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every sub-env; sub-envs whose episode ended are reset per the autoreset mode."""
        self.check_step_allowed()
        arr = self._check_actions(actions)
        resetting = self.resetting_now()
        previous = self.state
        self.state, rewards, terminated = self._advance(arr)
        self.steps += 1
        truncated = self.truncations()
        if resetting.any():
            self.state[resetting] = previous[resetting]
            self._reset_indices(resetting)
            rewards[resetting] = 0.0
            terminated[resetting] = False
            truncated[resetting] = False
        obs = self._observe(self.state)
        done = terminated | truncated
        infos: dict[str, Any] = {}
        if self.autoreset_mode is AutoresetMode.SAME_STEP and done.any():
            for i in np.flatnonzero(done):
                add_info(infos, {"final_obs": obs[i].copy(), "final_info": {}}, int(i), self.num_envs)
            self._reset_indices(done)
            obs[done] = self._observe(self.state[done])
        self.end_step(done)
        return obs, rewards, terminated, truncated, infos

    def _reset_indices(self, mask: np.ndarray) -> None:
        for i in np.flatnonzero(mask):
            self._reset_one(int(i), self.rng(int(i)), None)
        self.steps[mask] = 0

    # -- rendering --------------------------------------------------------------------------

    def _draw(self, canvas: Any, state: np.ndarray) -> None:
        raise NotImplementedError

    def _canvas_size(self) -> tuple[int, int]:
        raise NotImplementedError

    def render(self) -> tuple[np.ndarray, ...] | None:
        """One rgb frame per sub-env (drawn like the single env's)."""
        if self.render_mode is None:
            from palaestra import logger

            logger.warn("You are calling render without a render mode; pass render_mode='rgb_array'.")
            return None
        if self.render_mode != "rgb_array":
            raise ValueError(f"{type(self).__name__} renders only 'rgb_array', got {self.render_mode!r}")
        if self._canvas is None:
            from palaestra_classic_control._render import Canvas

            width, height = self._canvas_size()
            self._canvas = Canvas(
                width, height, "rgb_array", self.metadata["render_fps"], type(self).__name__
            )
        frames = []
        for state in self.state:
            self._draw(self._canvas, state)
            frames.append(self._canvas.present())
        return tuple(frames)

    def close_extras(self, **kwargs: Any) -> None:
        """Release the drawing surface."""
        self._canvas = None
