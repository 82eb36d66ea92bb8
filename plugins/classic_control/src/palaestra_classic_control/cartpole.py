"""CartPole: balance a pole on a cart by pushing the cart left or right."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from palaestra import Env, spaces
from palaestra.plugin import CanvasRendering, logger
from palaestra_classic_control._common import (
    INSTALL_HINT,
    Constant,
    asserted_invalid,
    invalid_action,
    parse_reset_bounds,
)

__all__ = ["PHYSICS", "CartPoleEnv", "failed", "integrate", "observation_bounds"]

_INT = (int, np.int64)
_FLOAT32 = np.dtype(np.float32)


_MASSCART, _MASSPOLE, _HALF_LENGTH = 1.0, 0.1, 0.5
# The cart-pole's constants, shared by the single and the batched env. Each env has its own
# copy: changing one on an env (``env.unwrapped.gravity = ...``) affects only that env.
PHYSICS: dict[str, Any] = {
    "gravity": 9.8,
    "masscart": _MASSCART,
    "masspole": _MASSPOLE,
    "total_mass": _MASSPOLE + _MASSCART,
    "length": _HALF_LENGTH,
    "polemass_length": _MASSPOLE * _HALF_LENGTH,
    "force_mag": 10.0,
    "tau": 0.02,  # seconds between state updates
    "kinematics_integrator": "euler",
    # The episode ends beyond 12 degrees of tilt or 2.4 m from the centre.
    "theta_threshold_radians": 12 * 2 * math.pi / 360,
    "x_threshold": 2.4,
}


def integrate(
    x: Any, x_dot: Any, theta: Any, theta_dot: Any, force: Any, k: tuple[Any, ...], cos: Any, sin: Any
) -> tuple[Any, Any, Any, Any]:
    """One time step of the cart-pole's equations of motion (Barto, Sutton and Anderson).

    Works on Python floats (the single env, ``math.cos``/``math.sin``) and on arrays of
    every sub-env (the batched env, ``np.cos``/``np.sin``) with the same roundings.

    Args:
        x: Cart position.
        x_dot: Cart velocity.
        theta: Pole angle.
        theta_dot: Pole angular velocity.
        force: The push on the cart.
        k: ``(polemass_length, total_mass, gravity, length, masspole, tau, euler)``.
        cos: The cosine for the kind of numbers given.
        sin: The sine for the kind of numbers given.

    Returns:
        The new ``(x, x_dot, theta, theta_dot)``.
    """
    polemass_length, total_mass, gravity, length, masspole, tau, euler = k
    costheta = cos(theta)
    sintheta = sin(theta)
    temp = (force + polemass_length * (theta_dot * theta_dot) * sintheta) / total_mass
    thetaacc = (gravity * sintheta - costheta * temp) / (
        length * (4.0 / 3.0 - masspole * (costheta * costheta) / total_mass)
    )
    xacc = temp - polemass_length * thetaacc * costheta / total_mass
    if euler:
        return x + tau * x_dot, x_dot + tau * xacc, theta + tau * theta_dot, theta_dot + tau * thetaacc
    x_dot = x_dot + tau * xacc  # semi-implicit Euler: positions move with the new velocities
    theta_dot = theta_dot + tau * thetaacc
    return x + tau * x_dot, x_dot, theta + tau * theta_dot, theta_dot


def failed(x: Any, theta: Any, x_threshold: float, theta_threshold: float) -> Any:
    """Whether the cart left the track or the pole fell (elementwise for arrays)."""
    return (x < -x_threshold) | (x > x_threshold) | (theta < -theta_threshold) | (theta > theta_threshold)


def observation_bounds() -> spaces.Box:
    """Twice the failure thresholds; unbounded speeds."""
    x_limit, angle_limit = PHYSICS["x_threshold"], PHYSICS["theta_threshold_radians"]
    high = np.array([x_limit * 2, np.inf, angle_limit * 2, np.inf], dtype=np.float32)
    return spaces.Box(-high, high, dtype=np.float32)


def dynamics_constants(env: Any) -> tuple[Any, ...]:
    """The constants :func:`integrate` takes, read from an env's attributes."""
    return (
        env.polemass_length,
        env.total_mass,
        env.gravity,
        env.length,
        env.masspole,
        env.tau,
        env.kinematics_integrator == "euler",
    )


class CartPoleEnv(CanvasRendering, Env[np.ndarray, Any]):
    """The cart-pole system of Barto, Sutton and Anderson (1983).

    Observation (float32): cart position, cart velocity, pole angle, pole angular velocity.
    Action: 0 pushes the cart left, 1 right, with a force of 10 N. Reward: +1 every step
    (with ``sutton_barto_reward``: 0 per step and -1 on failure). The episode terminates
    when the pole leans more than 12 degrees or the cart leaves ``[-2.4, 2.4]``.

    The state is kept in float64 Python floats and integrated with explicit Euler steps
    of 0.02 s, giving exactly Gymnasium's numbers.

    Args:
        sutton_barto_reward: Use the original paper's reward.
        render_mode: ``"human"``, ``"rgb_array"`` or ``None``.
    """

    snapshot_fields = ("_s", "steps_beyond_terminated")

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 50}
    #: What each observation dimension and action means (``palaestra info`` and the docs show them).
    dimension_meanings = (
        [
            "cart position (m)",
            "cart velocity (m/s)",
            "pole angle (rad, 0 is upright)",
            "pole angular velocity (rad/s)",
        ],
        ["push the cart left", "push the cart right"],
    )
    render_install_hint = INSTALL_HINT
    canvas_y_up = True  # drawn as Gymnasium draws it, y up

    gravity = Constant()
    masscart = Constant()
    masspole = Constant()
    total_mass = Constant()
    length = Constant()
    polemass_length = Constant()
    force_mag = Constant()
    tau = Constant()
    kinematics_integrator = Constant()
    theta_threshold_radians = Constant()
    x_threshold = Constant()

    def __init__(self, sutton_barto_reward: bool = False, render_mode: str | None = None) -> None:
        self._sutton_barto_reward = sutton_barto_reward
        for name, value in PHYSICS.items():
            setattr(self, name, value)
        self.action_space = spaces.Discrete(2)
        self.observation_space = observation_bounds()
        self.render_mode = render_mode
        self.screen_width = 600
        self.screen_height = 400
        self._s: tuple[float, float, float, float] | None = None
        self.steps_beyond_terminated: int | None = None

    @property
    def state(self) -> np.ndarray | None:
        """The float64 state ``[x, x_dot, theta, theta_dot]`` (a copy)."""
        return None if self._s is None else np.array(self._s, dtype=np.float64)

    @state.setter
    def state(self, value: Any) -> None:
        self._s = None if value is None else tuple(float(v) for v in np.asarray(value, dtype=np.float64))  # type: ignore[assignment]

    def _constants_changed(self) -> None:
        self._constants: tuple[Any, ...] | None = None  # gathered again by the next step

    def _gather_constants(self) -> tuple[Any, ...]:
        self._constants = (
            self.force_mag,
            dynamics_constants(self),
            self.x_threshold,
            self.theta_threshold_radians,
        )
        return self._constants

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Push the cart and integrate one time step."""
        if action.__class__ in _INT and (action == 0 or action == 1):
            push_right = action == 1
        elif self.action_space.contains(action):
            push_right = int(action) == 1
        else:
            raise invalid_action(self, action, self.action_space, asserted_invalid(action))
        if self._s is None:
            raise RuntimeError("CartPoleEnv.step called before reset; call env.reset() first.")
        force_mag, k, limit, angle = self._constants or self._gather_constants()
        x, x_dot, theta, theta_dot = self._s
        self._s = state = integrate(
            x, x_dot, theta, theta_dot, force_mag if push_right else -force_mag, k, math.cos, math.sin
        )
        x, theta = state[0], state[2]
        terminated = x < -limit or x > limit or theta < -angle or theta > angle  # failed(), short-circuited
        reward = self._reward_at_end() if terminated else (0.0 if self._sutton_barto_reward else 1.0)
        if self.render_mode == "human":
            self.render()
        return np.array(state, _FLOAT32), reward, terminated, False, {}

    def _reward_at_end(self) -> float:
        if self.steps_beyond_terminated is None:
            self.steps_beyond_terminated = 0
            return -1.0 if self._sutton_barto_reward else 1.0
        if self.steps_beyond_terminated == 0:
            logger.warn(
                "You are calling 'step()' even though this environment has already returned "
                "terminated = True. You should always call 'reset()' once you receive "
                "'terminated = True' -- any further steps are undefined behavior."
            )
        self.steps_beyond_terminated += 1
        return -1.0 if self._sutton_barto_reward else 0.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start with every state variable uniform in ``[low, high]`` (default ±0.05)."""
        super().reset(seed=seed)
        low, high = parse_reset_bounds(options, -0.05, 0.05)
        self._s = tuple(self.np_random.uniform(low=low, high=high, size=(4,)).tolist())
        self.steps_beyond_terminated = None
        if self.render_mode == "human":
            self.render()
        return np.array(self._s, dtype=np.float32), {}

    @property
    def canvas_size(self) -> tuple[int, int]:  # type: ignore[override]
        """The frame's size (``screen_width`` x ``screen_height``)."""
        return self.screen_width, self.screen_height

    def draw(self, canvas: Any) -> bool:
        """The track, the cart and the pole."""
        if self._s is None:
            return False
        from palaestra_classic_control._drawing import draw_cartpole  # loaded with the first frame

        draw_cartpole(canvas, self._s[0], self._s[2], self.x_threshold, self.length)
        return True
