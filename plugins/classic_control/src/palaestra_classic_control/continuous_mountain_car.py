"""MountainCarContinuous: the mountain car with a continuous engine force."""

from __future__ import annotations

import math
from array import array
from typing import Any

import numpy as np

from palaestra import Env, spaces
from palaestra.error import ActionOverflowError
from palaestra.plugin import CanvasRendering
from palaestra_classic_control import _kernels
from palaestra_classic_control._common import (
    INSTALL_HINT,
    Constant,
    invalid_action,
    parse_reset_bounds,
)
from palaestra_classic_control._valley import GRAVITY

__all__ = ["Continuous_MountainCarEnv"]


_FLOAT32 = np.dtype(np.float32)
_ONE = (1,)
_PAIR = np.zeros(2, dtype=np.float32)
_CONSTANTS = (
    "min_action",
    "max_action",
    "min_position",
    "max_position",
    "max_speed",
    "goal_position",
    "goal_velocity",
    "power",
)


class Continuous_MountainCarEnv(CanvasRendering, Env[np.ndarray, np.ndarray]):
    """The mountain car with a force in ``[-1, 1]``.

    Reward: +100 on reaching the flag (position >= 0.45 with velocity >= ``goal_velocity``)
    minus ``0.1 * action**2`` each step. Forces outside ``[-1, 1]`` are clipped, as in
    Gymnasium 1.4.0; actions of the wrong shape, non-numeric or NaN raise ``InvalidAction``.

    After the first step the state is stored in float32, exactly as Gymnasium 1.4.0 does,
    so later arithmetic happens in float32 too.

    Args:
        render_mode: ``"human"``, ``"rgb_array"`` or ``None``.
        goal_velocity: Minimum velocity at the goal.
    """

    snapshot_fields = ("state", "_own_state")

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 30}
    #: What each observation dimension and action means (``palaestra info`` and the docs show them).
    dimension_meanings = (
        ["car position along the valley", "car velocity"],
        ["engine force (scaled by the power, 0.0015; clipped to the bounds)"],
    )
    render_install_hint = INSTALL_HINT
    canvas_y_up = True  # drawn as Gymnasium draws it, y up

    min_action = Constant()
    max_action = Constant()
    min_position = Constant()
    max_position = Constant()
    max_speed = Constant()
    goal_position = Constant()
    goal_velocity = Constant()
    power = Constant()

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
        self.action_space = spaces.Box(
            low=self.min_action, high=self.max_action, shape=(1,), dtype=np.float32
        )
        self.observation_space = spaces.Box(low=self.low_state, high=self.high_state, dtype=np.float32)
        self.state: np.ndarray | None = None
        self._own_state: np.ndarray | None = None

    def _constants_changed(self) -> None:
        """Float32 copies of the constants, for the step that emulates numpy's float32 scalars."""
        values: list[Any] = [self.__dict__.get("_" + name) for name in _CONSTANTS]
        # Only plain Python numbers mix with float32 scalars the way the fast step assumes,
        # and its clamping assumes ordered bounds.
        self._float32_step = all(type(v) in (int, float) for v in values) and (
            values[4] >= 0 and values[2] <= values[3]
        )
        if self._float32_step:
            # The compiled step's constants: float32 values, then the valley's double gravity.
            self._constants32 = (*array("f", values), GRAVITY)
        else:
            self._own_state = None  # steps go through numpy scalars from now on

    def _checked(self, action: Any) -> Any:
        arr = action if action.__class__ is np.ndarray else np.asarray(action)
        if arr.shape != (1,) or arr.dtype.kind not in "fiu":
            raise invalid_action(self, action, self.action_space)
        if not math.isfinite(arr[0]):  # NaN or infinite: nonsense, not an out-of-range force
            raise invalid_action(self, action, self.action_space)
        return arr

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the (clipped) force and gravity for one step.

        The rule is :meth:`_step_scalars` (numpy float32 scalars, as Gymnasium 1.4.0). The
        common step (a float32 action, the float32 state of the previous step, a force in
        range, no bound reached) runs in the compiled kernel when the package was built with
        it: the same arithmetic in doubles rounded to float32 after every operation, which
        gives the same bits (float64 has more than twice float32's precision, so rounding a
        sum or product of two float32 numbers twice equals rounding it once).
        """
        state, kernel = self.state, _kernels.compiled_move
        if not (
            kernel is not None
            and state is self._own_state  # float32, two entries, made by a step (values may change)
            and action.__class__ is np.ndarray
            and action.dtype is _FLOAT32
            and action.shape == _ONE
        ):
            return self._step_scalars(action)
        position, velocity = state.tolist()  # type: ignore[union-attr]
        moved = kernel(position, velocity, action.item(0), self._constants32)
        if moved is None:  # a clipped force, a bound reached, or NaN: the plain step decides
            return self._step_scalars(action)
        position, velocity, terminated, reward = moved
        observation = _PAIR.copy()  # a new array every step, as np.array([...]) in Gymnasium 1.4.0
        observation[0] = position
        observation[1] = velocity
        self.state = self._own_state = observation
        if self.render_mode == "human":
            self.render()
        return observation, reward, terminated, False, {}

    def _step_scalars(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Any other step (float64 or integer actions, a float64 state after reset) with numpy scalars."""
        action = self._checked(action)
        if self.state is None:
            raise RuntimeError("Continuous_MountainCarEnv.step called before reset; call env.reset() first.")
        # numpy scalars throughout, as in Gymnasium 1.4.0: its rounding is part of the dynamics.
        state = self.state
        position, velocity = state[0], state[1]  # indexing: cheaper than unpacking an array
        push = min(max(action[0], self.min_action), self.max_action) * self.power
        velocity = velocity + (push - GRAVITY * math.cos(3 * position))
        top = self.max_speed  # conditional expressions: cheaper than min/max on numpy scalars
        velocity = top if velocity > top else (-top if velocity < -top else velocity)
        position = position + velocity
        left, right = self.min_position, self.max_position
        position = right if position > right else (left if position < left else position)
        if position == self.min_position and velocity < 0:
            velocity = 0  # the left wall stops the car dead
        terminated = bool(position >= self.goal_position and velocity >= self.goal_velocity)
        reward = 100.0 if terminated else 0
        try:
            reward -= math.pow(action[0], 2) * 0.1  # the unclipped action is priced, as in Gymnasium
        except OverflowError:
            raise ActionOverflowError(
                f"Continuous_MountainCarEnv.step: action {action!r} is too large: the reward prices the "
                "square of the unclipped action, which overflows a double beyond about 1.3e154 (Gymnasium "
                "raises OverflowError: math range error); the force itself is clipped to [-1, 1], so "
                "give actions in that range"
            ) from None
        # A new array every step; like Gymnasium 1.4.0, the returned observation is the state.
        self.state = np.array([position, velocity], dtype=np.float32)
        self._own_state = self.state if self._float32_step else None
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

    def draw(self, canvas: Any) -> bool:
        """The valley, the car and the flag."""
        if self.state is None:
            return False
        from palaestra_classic_control._drawing import draw_mountain_car  # loaded with the first frame

        # The position as the env keeps it: float32 after a step, and drawn with float32 rounding.
        draw_mountain_car(canvas, self.state[0], self.min_position, self.max_position, self.goal_position)
        return True
