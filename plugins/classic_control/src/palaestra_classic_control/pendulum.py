"""Pendulum: swing a frictionless pendulum up and keep it upright."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from palaestra import Env, spaces
from palaestra.plugin import CanvasRendering
from palaestra_classic_control._common import INSTALL_HINT, invalid_action, to_float
from palaestra_classic_control._ops import SCALAR, Ops

__all__ = ["PendulumEnv", "angle_normalize", "dynamics", "initial_state"]

DEFAULT_X = np.pi
DEFAULT_Y = 1.0
_TWO_PI = 2 * np.pi


def angle_normalize(x: float) -> float:
    """Map an angle to ``[-pi, pi)``."""
    return ((x + np.pi) % _TWO_PI) - np.pi


def dynamics(th: Any, thdot: Any, torque: Any, k: tuple[Any, ...], ops: Ops) -> tuple[Any, Any, Any]:
    """One 0.05 s step of the pendulum under gravity and a (clipped) torque.

    Works on one pendulum's Python floats (``ops=SCALAR``) and on arrays of every sub-env's
    (``ops=ARRAY``) with the same roundings. The torque terms are evaluated in the action's
    precision (float32 usually), then widened, as Gymnasium 1.4.0 does.

    Args:
        th: The angle.
        thdot: The angular velocity.
        torque: The clipped torque, in the action's dtype.
        k: ``(gravity term 3g/2l, torque term 3/ml^2, dt, max_speed)``.
        ops: The operations for the kind of numbers given.

    Returns:
        The new angle and angular velocity, and the cost (the negative reward).
    """
    k_gravity, k_torque, dt, max_speed = k
    costs = ops.pow2(angle_normalize(th)) + 0.1 * ops.pow2(thdot) + ops.to_float64(0.001 * ops.pow2(torque))
    accel = k_gravity * ops.sin(th) + ops.to_float64(k_torque * torque)
    newthdot = ops.clip(thdot + accel * dt, -max_speed, max_speed)
    return th + newthdot * dt, newthdot, costs


def initial_state(rng: np.random.Generator, options: dict[str, Any] | None) -> list[float]:
    """Angle uniform in ``[-x_init, x_init]``, velocity in ``[-y_init, y_init]`` (default pi and 1)."""
    if options is None:
        high = np.array([DEFAULT_X, DEFAULT_Y])
    else:
        x = to_float(options.get("x_init", DEFAULT_X), "x_init")
        y = to_float(options.get("y_init", DEFAULT_Y), "y_init")
        high = np.array([x, y])
    return rng.uniform(low=-high, high=high).tolist()  # type: ignore[no-any-return]


class PendulumEnv(CanvasRendering, Env[np.ndarray, np.ndarray]):
    """The inverted pendulum swing-up.

    Observation (float32): ``cos(theta)``, ``sin(theta)``, angular velocity.
    Action: torque in ``[-2, 2]`` (larger torques are clipped, as in Gymnasium 1.4.0).
    Reward: ``-(theta^2 + 0.1 * theta_dot^2 + 0.001 * torque^2)`` with theta normalised
    to ``[-pi, pi)``. No termination; ``make`` truncates after 200 steps.

    Args:
        render_mode: ``"human"``, ``"rgb_array"`` or ``None``.
        g: Gravitational acceleration.
    """

    snapshot_fields = ("_s", "last_u")  # last_u: the torque arrow in renders

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 30}
    #: What each observation dimension and action means (``palaestra info`` and the docs show them).
    dimension_meanings = (
        ["cos θ of the pendulum's angle (θ = 0 upright)", "sin θ", "angular velocity θ'"],
        ["torque applied at the free end's pivot (N·m)"],
    )
    render_install_hint = INSTALL_HINT
    canvas_y_up = True  # drawn as Gymnasium draws it, y up
    canvas_size = (500, 500)
    # A unit mass on a massless unit rod, integrated every 0.05 s; only gravity varies.
    m, l, dt = 1.0, 1.0, 0.05  # noqa: E741 (Gymnasium 1.4.0's attribute name)
    max_speed, max_torque = 8, 2.0
    screen_dim = 500

    def __init__(self, render_mode: str | None = None, g: float = 10.0) -> None:
        self.g = g
        self.render_mode = render_mode
        high = np.array([1.0, 1.0, self.max_speed], dtype=np.float32)
        self.action_space = spaces.Box(
            low=-self.max_torque, high=self.max_torque, shape=(1,), dtype=np.float32
        )
        self.observation_space = spaces.Box(low=-high, high=high, dtype=np.float32)
        self._s: tuple[float, float] | None = None
        self.last_u: Any = None
        self._prepare_constants()

    def _prepare_constants(self) -> None:
        self._k = (3 * self.g / (2 * self.l), 3.0 / (self.m * self.l**2), self.dt, self.max_speed)

    @property
    def state(self) -> np.ndarray | None:
        """``[theta, theta_dot]`` as float64 (a copy)."""
        return None if self._s is None else np.array(self._s, dtype=np.float64)

    @state.setter
    def state(self, value: Any) -> None:
        self._s = None if value is None else tuple(float(v) for v in value)  # type: ignore[assignment]

    def _torque(self, u: Any) -> Any:
        """The clipped torque as a numpy scalar of the action's dtype."""
        arr = u if isinstance(u, np.ndarray) else np.asarray(u)
        if arr.shape != (1,) or arr.dtype.kind not in "fiu":
            raise invalid_action(self, u, self.action_space)
        torque = arr[0]
        if not -math.inf < torque < math.inf:  # NaN or infinite: nonsense, not an out-of-range torque
            raise invalid_action(self, u, self.action_space)
        if torque > self.max_torque:
            return arr.dtype.type(self.max_torque) if arr.dtype.kind == "f" else np.clip(arr, -2.0, 2.0)[0]
        if torque < -self.max_torque:
            return arr.dtype.type(-self.max_torque) if arr.dtype.kind == "f" else np.clip(arr, -2.0, 2.0)[0]
        return torque if arr.dtype.kind == "f" else np.clip(arr, -2.0, 2.0)[0]

    def step(self, u: np.ndarray) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """Apply the torque for one 0.05 s step."""
        if self._s is None:
            raise RuntimeError("PendulumEnv.step called before reset; call env.reset() first.")
        torque = self._torque(u)
        self.last_u = torque
        newth, newthdot, costs = dynamics(*self._s, torque, self._k, SCALAR)
        self._s = (newth, float(newthdot))
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), np.float64(-costs), False, False, {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start at an angle uniform in ``[-x_init, x_init]`` and velocity in ``[-y_init, y_init]``."""
        super().reset(seed=seed)
        self._s = tuple(initial_state(self.np_random, options))  # type: ignore[assignment]
        self.last_u = None
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), {}

    def _get_obs(self) -> np.ndarray:
        theta, thetadot = self._s  # type: ignore[misc]
        return np.array((math.cos(theta), math.sin(theta), thetadot), dtype=np.float32)

    def draw(self, canvas: Any) -> bool:
        """The rod and the last torque."""
        if self._s is None:
            return False
        from palaestra_classic_control._drawing import draw_pendulum  # loaded with the first frame

        draw_pendulum(canvas, self._s[0], None if self.last_u is None else float(self.last_u))
        return True
