"""Acrobot: swing a two-link pendulum, actuated at the elbow, above a height line."""

from __future__ import annotations

from math import cos, pi, sin
from typing import Any

import numpy as np

from palaestra import Env, spaces
from palaestra_classic_control._common import invalid_action, parse_reset_bounds, warn_no_render_mode

__all__ = ["AcrobotEnv", "bound", "rk4", "wrap"]

_INT = (int, np.int64)
_GRAVITY = 9.8


def wrap(x: float, m: float, M: float) -> float:
    """Wrap ``x`` into ``[m, M]`` by adding or subtracting the range."""
    span = M - m
    while x > M or x < m:
        # Whole periods, one at a time: the result rounds as repeated steps do.
        x = x - span if x > M else x + span
    return x


def bound(x: float, m: float, M: float) -> float:
    """Clamp ``x`` to ``[m, M]``."""
    return min(max(x, m), M)


def rk4(derivs: Any, y0: list[float], dt: float) -> list[float]:
    """One classical Runge-Kutta step of size ``dt`` (elementwise, in float64)."""
    dt2 = dt / 2.0
    k1 = derivs(y0)
    k2 = derivs([y + dt2 * k for y, k in zip(y0, k1, strict=True)])
    k3 = derivs([y + dt2 * k for y, k in zip(y0, k2, strict=True)])
    k4 = derivs([y + dt * k for y, k in zip(y0, k3, strict=True)])
    sixth = dt / 6.0
    return [y + sixth * (a + 2 * b + 2 * c + d) for y, a, b, c, d in zip(y0, k1, k2, k3, k4, strict=True)]


class AcrobotEnv(Env[np.ndarray, int]):
    """The acrobot of Sutton (1996), with the book's dynamics.

    Observation (float32): cos and sin of both joint angles and both angular velocities.
    Actions: torque -1, 0 or +1 on the elbow joint. Reward -1 per step until the free end
    rises more than one link length above the pivot, which terminates the episode.

    Args:
        render_mode: ``"human"``, ``"rgb_array"`` or ``None``.
    """

    snapshot_fields = ("state",)

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 15}

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
        self._canvas: Any = None
        high = np.array([1.0, 1.0, 1.0, 1.0, self.MAX_VEL_1, self.MAX_VEL_2], dtype=np.float32)
        self.observation_space = spaces.Box(low=-high, high=high, dtype=np.float32)
        self.action_space = spaces.Discrete(3)
        self.state: np.ndarray | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start with all four state variables uniform in ``[low, high]`` (default ±0.1), in float32."""
        super().reset(seed=seed)
        low, high = parse_reset_bounds(options, -0.1, 0.1)
        self.state = self.np_random.uniform(low=low, high=high, size=(4,)).astype(np.float32)
        if self.render_mode == "human":
            self.render()
        s = self.state
        # float32 trigonometry on the float32 reset state, as Gymnasium 1.4.0 computes it.
        return np.array(
            [np.cos(s[0]), np.sin(s[0]), np.cos(s[1]), np.sin(s[1]), s[2], s[3]], dtype=np.float32
        ), {}

    def step(self, a: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the torque and integrate 0.2 s with one RK4 step."""
        if not (a.__class__ in _INT and 0 <= a <= 2) and not self.action_space.contains(a):
            raise invalid_action(self, a, self.action_space)
        if self.state is None:
            raise RuntimeError("AcrobotEnv.step called before reset; call env.reset() first.")
        torque = float(self.AVAIL_TORQUE[int(a)])
        if self.torque_noise_max > 0:
            torque += self.np_random.uniform(-self.torque_noise_max, self.torque_noise_max)
        s0, s1, s2, s3 = self.state.tolist()
        ns = rk4(self._dsdt, [s0, s1, s2, s3, torque], self.dt)
        t1 = wrap(ns[0], -pi, pi)
        t2 = wrap(ns[1], -pi, pi)
        v1 = bound(ns[2], -self.MAX_VEL_1, self.MAX_VEL_1)
        v2 = bound(ns[3], -self.MAX_VEL_2, self.MAX_VEL_2)
        self.state = np.array((t1, t2, v1, v2), dtype=np.float64)
        terminated = -cos(t1) - cos(t2 + t1) > 1.0
        reward = 0.0 if terminated else -1.0
        if self.render_mode == "human":
            self.render()
        obs = np.array((cos(t1), sin(t1), cos(t2), sin(t2), v1, v2), dtype=np.float32)
        return obs, reward, terminated, False, {}

    def _dsdt(self, s_augmented: list[float]) -> list[float]:
        """Time derivative of ``(theta1, theta2, omega1, omega2, torque)`` (torque is held)."""
        theta1, theta2, omega1, omega2, torque = s_augmented
        m1, m2, l1 = self.LINK_MASS_1, self.LINK_MASS_2, self.LINK_LENGTH_1
        r1, r2, inertia = self.LINK_COM_POS_1, self.LINK_COM_POS_2, self.LINK_MOI
        cos2, sin2 = cos(theta2), sin(theta2)
        # Every sum and product below is grouped left to right exactly as Gymnasium 1.4.0
        # writes it (both links share one moment of inertia), so each rounding matches.
        mass_11 = m1 * r1**2 + m2 * (l1**2 + r2**2 + 2 * l1 * r2 * cos2) + inertia + inertia
        mass_12 = m2 * (r2**2 + l1 * r2 * cos2) + inertia
        gravity_2 = m2 * r2 * _GRAVITY * cos(theta1 + theta2 - pi / 2.0)
        velocity_terms = -m2 * l1 * r2 * omega2**2 * sin2 - 2 * m2 * l1 * r2 * omega2 * omega1 * sin2
        gravity_1 = velocity_terms + (m1 * r1 + m2 * l1) * _GRAVITY * cos(theta1 - pi / 2) + gravity_2
        drive = torque + mass_12 / mass_11 * gravity_1
        if self.book_or_nips != "nips":  # the book's (and the Java code's) extra term
            drive = drive - m2 * l1 * r2 * omega1**2 * sin2
        alpha2 = (drive - gravity_2) / (m2 * r2**2 + inertia - mass_12**2 / mass_11)
        alpha1 = -(mass_12 * alpha2 + gravity_1) / mass_11
        return [omega1, omega2, alpha1, alpha2, 0.0]

    def render(self) -> np.ndarray | None:
        """Draw both links and the goal height."""
        if self.render_mode is None:
            warn_no_render_mode(self)
            return None
        if self._canvas is None:
            from palaestra_classic_control._render import Canvas

            self._canvas = Canvas(
                self.SCREEN_DIM, self.SCREEN_DIM, self.render_mode, self.metadata["render_fps"], "Acrobot"
            )
        if self.state is None:
            return None
        from palaestra_classic_control._drawing import draw_acrobot

        draw_acrobot(self._canvas, float(self.state[0]), float(self.state[1]), self.LINK_LENGTH_1)
        return self._canvas.present()

    def close(self) -> None:
        """Close the render window."""
        if self._canvas is not None:
            self._canvas.close()
            self._canvas = None
