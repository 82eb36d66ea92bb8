"""MountainCarContinuous: the mountain car with a continuous engine force."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from palaestra import Env, spaces
from palaestra_classic_control._common import invalid_action, parse_reset_bounds, warn_no_render_mode

__all__ = ["Continuous_MountainCarEnv"]


class Continuous_MountainCarEnv(Env[np.ndarray, np.ndarray]):
    """The mountain car with a force in ``[-1, 1]``.

    Reward: +100 on reaching the flag (position >= 0.45 with velocity >= ``goal_velocity``)
    minus ``0.1 * action**2`` each step. Forces outside ``[-1, 1]`` are clipped, as in
    the reference; actions of the wrong shape, non-numeric or NaN raise ``InvalidAction``.

    After the first step the state is stored in float32, exactly as the reference does,
    so later arithmetic happens in float32 too.

    Args:
        render_mode: ``"human"``, ``"rgb_array"`` or ``None``.
        goal_velocity: Minimum velocity at the goal.
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 30}

    def __init__(self, render_mode: str | None = None, goal_velocity: float = 0) -> None:
        self.min_action = -1.0
        self.max_action = 1.0
        self.min_position = -1.2
        self.max_position = 0.6
        self.max_speed = 0.07
        self.goal_position = 0.45
        self.goal_velocity = goal_velocity
        self.power = 0.0015
        self.low_state = np.array([self.min_position, -self.max_speed], dtype=np.float32)
        self.high_state = np.array([self.max_position, self.max_speed], dtype=np.float32)
        self.render_mode = render_mode
        self.screen_width = 600
        self.screen_height = 400
        self._canvas: Any = None
        self.action_space = spaces.Box(
            low=self.min_action, high=self.max_action, shape=(1,), dtype=np.float32
        )
        self.observation_space = spaces.Box(low=self.low_state, high=self.high_state, dtype=np.float32)
        self.state: np.ndarray | None = None

    def _checked(self, action: Any) -> Any:
        arr = action if action.__class__ is np.ndarray else np.asarray(action)
        if arr.shape != (1,) or arr.dtype.kind not in "fiu":
            raise invalid_action(self, action, self.action_space)
        first = arr[0]
        if first != first:  # NaN
            raise invalid_action(self, action, self.action_space)
        return arr

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the (clipped) force and gravity for one step."""
        action = self._checked(action)
        if self.state is None:
            raise RuntimeError("Continuous_MountainCarEnv.step called before reset; call env.reset() first.")
        # numpy float32 scalars throughout, as in the reference: its rounding is part of the dynamics.
        state = self.state
        position, velocity = state[0], state[1]  # indexing: cheaper than unpacking an array
        push = min(max(action[0], self.min_action), self.max_action) * self.power
        velocity = velocity + (push - 0.0025 * math.cos(3 * position))
        top = self.max_speed  # conditional expressions: cheaper than min/max on numpy scalars
        velocity = top if velocity > top else (-top if velocity < -top else velocity)
        position = position + velocity
        left, right = self.min_position, self.max_position
        position = right if position > right else (left if position < left else position)
        if position == self.min_position and velocity < 0:
            velocity = 0  # the left wall stops the car dead
        terminated = bool(position >= self.goal_position and velocity >= self.goal_velocity)
        reward = 100.0 if terminated else 0
        reward -= math.pow(action[0], 2) * 0.1
        # A new array every step; like the reference, the returned observation is the state.
        self.state = np.array([position, velocity], dtype=np.float32)
        if self.render_mode == "human":
            self.render()
        return self.state, reward, terminated, False, {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start at rest at a position uniform in ``[low, high]`` (default ``[-0.6, -0.4]``)."""
        super().reset(seed=seed)
        low, high = parse_reset_bounds(options, -0.6, -0.4)
        self.state = np.array([self.np_random.uniform(low=low, high=high), 0])
        if self.render_mode == "human":
            self.render()
        return np.array(self.state, dtype=np.float32), {}

    def _height(self, xs: Any) -> Any:
        return np.sin(3 * xs) * 0.45 + 0.55

    def render(self) -> np.ndarray | None:
        """Draw the valley, the car and the flag."""
        if self.render_mode is None:
            warn_no_render_mode(self)
            return None
        if self._canvas is None:
            from palaestra_classic_control._render import Canvas

            self._canvas = Canvas(
                self.screen_width,
                self.screen_height,
                self.render_mode,
                self.metadata["render_fps"],
                "MountainCarContinuous",
            )
        if self.state is None:
            return None
        from palaestra_classic_control._drawing import draw_mountain_car

        draw_mountain_car(
            self._canvas, float(self.state[0]), self.min_position, self.max_position, self.goal_position
        )
        return self._canvas.present()

    def close(self) -> None:
        """Close the render window."""
        if self._canvas is not None:
            self._canvas.close()
            self._canvas = None
