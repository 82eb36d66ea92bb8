"""MountainCar: drive an underpowered car out of a valley by rocking back and forth."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra import Env, spaces
from palaestra.plugin import CanvasRendering
from palaestra_classic_control._common import (
    INSTALL_HINT,
    Constant,
    asserted_invalid,
    invalid_action,
    parse_reset_bounds,
)
from palaestra_classic_control._ops import SCALAR, Ops
from palaestra_classic_control._valley import GRAVITY

__all__ = ["MountainCarEnv", "dynamics", "initial_position"]

_INT = (int, np.int64)
RESET_BOUNDS = (-0.6, -0.4)
# The valley, the car's limits and its engine.
VALLEY = {
    "min_position": -1.2,
    "max_position": 0.6,
    "goal_position": 0.5,
    "max_speed": 0.07,
    "force": 0.001,
    "gravity": GRAVITY,
}


def dynamics(position: Any, velocity: Any, push: Any, k: tuple[Any, ...], ops: Ops) -> tuple[Any, Any, Any]:
    """One step of the car in the valley (Moore 1990): engine push, gravity, speed limit, walls.

    Works on one car's Python floats (``ops=SCALAR``) and on arrays of every sub-env's
    (``ops=ARRAY``) with the same roundings.

    Args:
        position: The car's position.
        velocity: The car's velocity.
        push: -1, 0 or +1 (left, coast, right).
        k: ``(force, gravity, max_speed, min_position, max_position, goal_position, goal_velocity)``.
        ops: The operations for the kind of numbers given.

    Returns:
        The new position, velocity, and whether the goal was reached.
    """
    force, gravity, max_speed, min_position, max_position, goal_position, goal_velocity = k
    velocity = ops.clip(velocity + (push * force + ops.cos(3 * position) * -gravity), -max_speed, max_speed)
    position = ops.clip(position + velocity, min_position, max_position)
    velocity = ops.where((position == min_position) & (velocity < 0), 0.0, velocity)  # the wall stops it
    return position, velocity, (position >= goal_position) & (velocity >= goal_velocity)


def initial_position(rng: np.random.Generator, options: dict[str, Any] | None) -> float:
    """The car's start: at rest, somewhere uniform in ``[low, high]`` (default ``[-0.6, -0.4]``)."""
    low, high = parse_reset_bounds(options, *RESET_BOUNDS)
    return float(rng.uniform(low=low, high=high))


def constants(env: Any) -> tuple[Any, ...]:
    """:func:`dynamics`' constants, read from an env's attributes."""
    return (
        env.force,
        env.gravity,
        env.max_speed,
        env.min_position,
        env.max_position,
        env.goal_position,
        env.goal_velocity,
    )


class MountainCarEnv(CanvasRendering, Env[np.ndarray, Any]):
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
    #: What each observation dimension and action means (``palaestra info`` and the docs show them).
    dimension_meanings = (
        ["car position along the valley", "car velocity"],
        ["accelerate left", "do not accelerate", "accelerate right"],
    )
    render_install_hint = INSTALL_HINT
    canvas_y_up = True  # drawn as Gymnasium draws it, y up
    screen_width, screen_height = 600, 400
    # The valley, the car's limits and its engine (an env's own values can be changed).
    min_position = Constant()
    max_position = Constant()
    goal_position = Constant()
    max_speed = Constant()
    force = Constant()
    gravity = Constant()
    goal_velocity = Constant()

    def __init__(self, render_mode: str | None = None, goal_velocity: float = 0) -> None:
        for name, value in VALLEY.items():
            setattr(self, name, value)
        self.goal_velocity = goal_velocity
        self.render_mode = render_mode
        self.low = np.array([self.min_position, -self.max_speed], dtype=np.float32)
        self.high = np.array([self.max_position, self.max_speed], dtype=np.float32)
        self.action_space = spaces.Discrete(3)
        self.observation_space = spaces.Box(self.low, self.high, dtype=np.float32)
        self._s: tuple[float, float] | None = None

    def _constants_changed(self) -> tuple[Any, ...]:
        self._k = constants(self) if "_goal_velocity" in self.__dict__ else None
        return self._k  # type: ignore[return-value]

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
            raise invalid_action(self, action, self.action_space, asserted_invalid(action))
        if self._s is None:
            raise RuntimeError("MountainCarEnv.step called before reset; call env.reset() first.")
        position, velocity, terminated = dynamics(
            *self._s, push, self._k or self._constants_changed(), SCALAR
        )
        self._s = (position, velocity)
        if self.render_mode == "human":
            self.render()
        return np.array(self._s, dtype=np.float32), -1.0, bool(terminated), False, {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start at rest at a position uniform in ``[low, high]`` (default ``[-0.6, -0.4]``)."""
        super().reset(seed=seed)
        self._s = (initial_position(self.np_random, options), 0.0)
        if self.render_mode == "human":
            self.render()
        return np.array(self._s, dtype=np.float32), {}

    def draw(self, canvas: Any) -> bool:
        """The valley, the car and the flag."""
        if self._s is None:
            return False
        from palaestra_classic_control._drawing import draw_mountain_car  # loaded with the first frame

        draw_mountain_car(canvas, self._s[0], self.min_position, self.max_position, self.goal_position)
        return True
