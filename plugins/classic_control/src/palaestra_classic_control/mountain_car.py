"""MountainCar: drive an underpowered car out of a valley by rocking back and forth."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from palaestra import Env, spaces
from palaestra_classic_control._common import invalid_action, parse_reset_bounds, warn_no_render_mode

__all__ = ["MountainCarEnv"]

_INT = (int, np.int64)


class MountainCarEnv(Env[np.ndarray, int]):
    """The mountain car of Moore (1990), with discrete actions.

    Observation (float32): position in ``[-1.2, 0.6]`` and velocity in ``[-0.07, 0.07]``.
    Actions: 0 accelerate left, 1 coast, 2 accelerate right. Reward -1 per step; the
    episode terminates at position >= 0.5 with velocity >= ``goal_velocity``.

    Args:
        render_mode: ``"human"``, ``"rgb_array"`` or ``None``.
        goal_velocity: Minimum velocity at the goal.
    """

    snapshot_fields = ("_s",)

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 30}
    # The valley, the car's limits and its engine: the same for every instance.
    min_position, max_position, goal_position = -1.2, 0.6, 0.5
    max_speed = 0.07
    force, gravity = 0.001, 0.0025
    screen_width, screen_height = 600, 400

    def __init__(self, render_mode: str | None = None, goal_velocity: float = 0) -> None:
        self.goal_velocity = goal_velocity
        self.render_mode = render_mode
        self.low = np.array([self.min_position, -self.max_speed], dtype=np.float32)
        self.high = np.array([self.max_position, self.max_speed], dtype=np.float32)
        self._canvas: Any = None
        self.action_space = spaces.Discrete(3)
        self.observation_space = spaces.Box(self.low, self.high, dtype=np.float32)
        self._s: tuple[float, float] | None = None

    @property
    def state(self) -> np.ndarray | None:
        """``[position, velocity]`` as float64 (a copy)."""
        return None if self._s is None else np.array(self._s, dtype=np.float64)

    @state.setter
    def state(self, value: Any) -> None:
        self._s = None if value is None else tuple(float(v) for v in value)  # type: ignore[assignment]

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the action's force and gravity for one step."""
        if (action.__class__ in _INT and 0 <= action <= 2) or self.action_space.contains(action):
            push = int(action) - 1
        else:
            raise invalid_action(self, action, self.action_space)
        if self._s is None:
            raise RuntimeError("MountainCarEnv.step called before reset; call env.reset() first.")
        position, velocity = self._s
        velocity += push * self.force + math.cos(3 * position) * -self.gravity
        velocity = min(max(velocity, -self.max_speed), self.max_speed)
        position += velocity
        position = min(max(position, self.min_position), self.max_position)
        if position == self.min_position and velocity < 0:
            velocity = 0.0
        terminated = position >= self.goal_position and velocity >= self.goal_velocity
        self._s = (position, velocity)
        if self.render_mode == "human":
            self.render()
        return np.array(self._s, dtype=np.float32), -1.0, bool(terminated), False, {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start at rest at a position uniform in ``[low, high]`` (default ``[-0.6, -0.4]``)."""
        super().reset(seed=seed)
        low, high = parse_reset_bounds(options, -0.6, -0.4)
        self._s = (float(self.np_random.uniform(low=low, high=high)), 0.0)
        if self.render_mode == "human":
            self.render()
        return np.array(self._s, dtype=np.float32), {}

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
                "MountainCar",
            )
        if self._s is None:
            return None
        from palaestra_classic_control._drawing import draw_mountain_car

        draw_mountain_car(self._canvas, self._s[0], self.min_position, self.max_position, self.goal_position)
        return self._canvas.present()

    def close(self) -> None:
        """Close the render window."""
        if self._canvas is not None:
            self._canvas.close()
            self._canvas = None
