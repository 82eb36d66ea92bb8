"""Acrobot: swing a two-link pendulum, actuated at the elbow, above a height line."""

from __future__ import annotations

from math import cos, pi, sin
from typing import Any

import numpy as np

from palaestra import Env, spaces
from palaestra.plugin import CanvasRendering
from palaestra_classic_control._common import INSTALL_HINT, invalid_action, parse_reset_bounds
from palaestra_classic_control._ops import SCALAR, Ops

__all__ = [
    "GRAVITY",
    "AcrobotEnv",
    "bound",
    "dsdt",
    "initial_state",
    "observation",
    "rk4",
    "step_state",
    "wrap",
]

_INT = (int, np.int64)
GRAVITY = 9.8  # m/s^2, in both links' torques


def wrap(x: Any, m: float, M: float, ops: Ops = SCALAR) -> Any:
    """Wrap ``x`` into ``[m, M]`` by adding or subtracting the range (elementwise for arrays)."""
    span = M - m
    # Whole periods, one at a time: the result rounds as repeated steps do.
    while ops.any(x > M):
        x = ops.where(x > M, x - span, x)
    while ops.any(x < m):
        x = ops.where(x < m, x + span, x)
    return x


def bound(x: Any, m: float, M: float, ops: Ops = SCALAR) -> Any:
    """Clamp ``x`` to ``[m, M]``."""
    return ops.clip(x, m, M)


def rk4(derivs: Any, y0: list[Any], dt: float) -> list[Any]:
    """One classical Runge-Kutta step of size ``dt`` (elementwise: floats or arrays alike)."""
    dt2 = dt / 2.0
    k1 = derivs(y0)
    k2 = derivs([y + dt2 * k for y, k in zip(y0, k1, strict=True)])
    k3 = derivs([y + dt2 * k for y, k in zip(y0, k2, strict=True)])
    k4 = derivs([y + dt * k for y, k in zip(y0, k3, strict=True)])
    sixth = dt / 6.0
    return [y + sixth * (a + 2 * b + 2 * c + d) for y, a, b, c, d in zip(y0, k1, k2, k3, k4, strict=True)]


def dsdt(s_augmented: list[Any], model: Any, ops: Ops) -> list[Any]:
    """Time derivative of ``(theta1, theta2, omega1, omega2, torque)`` (the torque is held).

    Args:
        s_augmented: The state and the torque: Python floats, or arrays of every sub-env's.
        model: An object with the link constants (``LINK_MASS_1``, ..., ``book_or_nips``).
        ops: The operations for the kind of numbers given.
    """
    theta1, theta2, omega1, omega2, torque = s_augmented
    m1, m2, l1 = model.LINK_MASS_1, model.LINK_MASS_2, model.LINK_LENGTH_1
    r1, r2, inertia = model.LINK_COM_POS_1, model.LINK_COM_POS_2, model.LINK_MOI
    cos2, sin2 = ops.cos(theta2), ops.sin(theta2)
    # Every sum and product below is grouped left to right exactly as Gymnasium 1.4.0
    # writes it (both links share one moment of inertia), so each rounding matches.
    mass_11 = m1 * r1**2 + m2 * (l1**2 + r2**2 + 2 * l1 * r2 * cos2) + inertia + inertia
    mass_12 = m2 * (r2**2 + l1 * r2 * cos2) + inertia
    gravity_2 = m2 * r2 * GRAVITY * ops.cos(theta1 + theta2 - pi / 2.0)
    velocity_terms = -m2 * l1 * r2 * ops.pow2(omega2) * sin2 - 2 * m2 * l1 * r2 * omega2 * omega1 * sin2
    gravity_1 = velocity_terms + (m1 * r1 + m2 * l1) * GRAVITY * ops.cos(theta1 - pi / 2) + gravity_2
    drive = torque + mass_12 / mass_11 * gravity_1
    if model.book_or_nips != "nips":  # the book's (and the Java code's) extra term
        drive = drive - m2 * l1 * r2 * ops.pow2(omega1) * sin2
    alpha2 = (drive - gravity_2) / (m2 * r2**2 + inertia - ops.pow2(mass_12) / mass_11)
    alpha1 = -(mass_12 * alpha2 + gravity_1) / mass_11
    return [omega1, omega2, alpha1, alpha2, 0.0]


def step_state(state: list[Any], torque: Any, model: Any, ops: Ops) -> tuple[Any, Any, Any, Any, Any]:
    """Integrate 0.2 s with one RK4 step, wrap the angles and bound the speeds.

    Returns:
        ``(theta1, theta2, omega1, omega2, terminated)``: the tip rose above the height line.
    """
    ns = rk4(lambda s: dsdt(s, model, ops), [*state, torque], model.dt)
    t1 = wrap(ns[0], -pi, pi, ops)
    t2 = wrap(ns[1], -pi, pi, ops)
    v1 = bound(ns[2], -model.MAX_VEL_1, model.MAX_VEL_1, ops)
    v2 = bound(ns[3], -model.MAX_VEL_2, model.MAX_VEL_2, ops)
    return t1, t2, v1, v2, -ops.cos(t1) - ops.cos(t2 + t1) > 1.0


def initial_state(rng: np.random.Generator, options: dict[str, Any] | None) -> np.ndarray:
    """All four state variables uniform in ``[low, high]`` (default ±0.1), in float32."""
    low, high = parse_reset_bounds(options, -0.1, 0.1)
    return rng.uniform(low=low, high=high, size=(4,)).astype(np.float32)


def observation(theta1: Any, theta2: Any, omega1: Any, omega2: Any, cos: Any, sin: Any) -> np.ndarray:
    """Cos and sin of both angles and both speeds, as float32 (one row per state given)."""
    return np.array([cos(theta1), sin(theta1), cos(theta2), sin(theta2), omega1, omega2], dtype=np.float32)


class AcrobotEnv(CanvasRendering, Env[np.ndarray, Any]):
    """The acrobot of Sutton (1996), with the book's dynamics.

    Observation (float32): cos and sin of both joint angles and both angular velocities.
    Actions: torque -1, 0 or +1 on the elbow joint. Reward -1 per step until the free end
    rises more than one link length above the pivot, which terminates the episode.

    Args:
        render_mode: ``"human"``, ``"rgb_array"`` or ``None``.
    """

    snapshot_fields = ("state",)

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 15}
    #: What each observation dimension and action means (``palaestra info`` and the docs show them).
    dimension_meanings = (
        ["cos θ1 (first link, θ1 = 0 hanging down)", "sin θ1", "cos θ2 (second link, relative to the first)",
         "sin θ2", "angular velocity θ1'", "angular velocity θ2'"],
        ["torque -1 on the joint between the links", "torque 0", "torque +1"],
    )  # fmt: skip
    render_install_hint = INSTALL_HINT
    canvas_y_up = True  # drawn as Gymnasium draws it, y up
    canvas_size = (500, 500)

    # The physical model (class attributes, as in Gymnasium 1.4.0, so they can be changed).
    LINK_MASS_1 = LINK_MASS_2 = 1.0
    LINK_LENGTH_1 = LINK_LENGTH_2 = 1.0
    LINK_COM_POS_1 = LINK_COM_POS_2 = 0.5  # centre of mass along each link
    LINK_MOI = 1.0  # moment of inertia of each link
    MAX_VEL_1, MAX_VEL_2 = 4 * pi, 9 * pi
    dt = 0.2
    # The three actions, their optional noise, and which dynamics (book or NIPS paper).
    AVAIL_TORQUE = (-1.0, 0.0, +1)
    actions_num = 3
    torque_noise_max = 0.0
    book_or_nips = "book"
    SCREEN_DIM = 500

    def __init__(self, render_mode: str | None = None) -> None:
        self.render_mode = render_mode
        high = np.array([1.0, 1.0, 1.0, 1.0, self.MAX_VEL_1, self.MAX_VEL_2], dtype=np.float32)
        self.observation_space = spaces.Box(low=-high, high=high, dtype=np.float32)
        self.action_space = spaces.Discrete(3)
        self.state: np.ndarray | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start with all four state variables uniform in ``[low, high]`` (default ±0.1), in float32."""
        super().reset(seed=seed)
        self.state = initial_state(self.np_random, options)
        if self.render_mode == "human":
            self.render()
        # float32 trigonometry on the float32 reset state, as Gymnasium 1.4.0 computes it.
        s = self.state
        return observation(s[0], s[1], s[2], s[3], np.cos, np.sin), {}

    def step(self, a: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the torque and integrate 0.2 s with one RK4 step."""
        if not (a.__class__ in _INT and 0 <= a <= 2) and not self.action_space.contains(a):
            raise invalid_action(self, a, self.action_space)
        if self.state is None:
            raise RuntimeError("AcrobotEnv.step called before reset; call env.reset() first.")
        torque = float(self.AVAIL_TORQUE[int(a)])
        if self.torque_noise_max > 0:
            torque += self.np_random.uniform(-self.torque_noise_max, self.torque_noise_max)
        t1, t2, v1, v2, terminated = step_state(self.state.tolist(), torque, self, SCALAR)
        self.state = np.array((t1, t2, v1, v2), dtype=np.float64)
        reward = 0.0 if terminated else -1.0
        if self.render_mode == "human":
            self.render()
        return observation(t1, t2, v1, v2, cos, sin), reward, terminated, False, {}

    def draw(self, canvas: Any) -> bool:
        """Both links and the goal height."""
        if self.state is None:
            return False
        from palaestra_classic_control._drawing import draw_acrobot  # loaded with the first frame

        draw_acrobot(canvas, self.state[0], self.state[1], self.LINK_LENGTH_1)  # float32 when fresh
        return True
