"""Pendulum as a JAX functional env (``phys2d/Pendulum-v0``).

Gymnasium 1.4.0's phys2d Pendulum: float32 state ``(theta, theta_dot)``, the initial state
uniform in ``[-pi, pi] x [-1, 1]``, and the cost of the state *before* the step.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from palaestra import spaces
from palaestra.plugin import AutoresetMode, FuncEnv
from palaestra_jax._jax import import_jax
from palaestra_jax._render import ClassicFrames, DrawnByEnv
from palaestra_jax.functional_jax_env import CompiledJaxEnv, CompiledJaxVectorEnv, KeywordParams

__all__ = ["PendulumFunctional", "PendulumJaxEnv", "PendulumJaxVectorEnv", "PendulumParams"]

jax = import_jax()
jnp = jax.numpy

MAX_TORQUE = 2.0


class PendulumParams(NamedTuple):
    """The physical constants (Gymnasium's phys2d values)."""

    max_speed: float = 8.0
    dt: float = 0.05
    g: float = 10.0
    m: float = 1.0
    l: float = 1.0  # noqa: E741 - the pendulum's length, named as in the equations
    high_x: float = float(np.pi)
    high_y: float = 1.0
    screen_dim: int = 500


class PendulumFunctional(DrawnByEnv, KeywordParams, FuncEnv[Any, Any, Any, Any, Any, Any, PendulumParams]):
    """A torque-driven pendulum as pure functions of a float32 state ``(theta, theta_dot)``."""

    drawn_by = ("palaestra_classic_control.pendulum", "PendulumEnv")
    params_type = PendulumParams

    default_params: PendulumParams
    max_torque = MAX_TORQUE
    observation_space = spaces.Box(-np.inf, np.inf, shape=(3,), dtype=np.float32)
    action_space = spaces.Box(-MAX_TORQUE, MAX_TORQUE, shape=(1,), dtype=np.float32)

    def initial(self, rng: Any, params: PendulumParams | None = None) -> Any:
        """Angle uniform in ``[-high_x, high_x]``, speed in ``[-high_y, high_y]``."""
        p = params or self.default_params
        high = jnp.array([p.high_x, p.high_y])
        return jax.random.uniform(key=rng, minval=-high, maxval=high, shape=high.shape)

    def transition(
        self, state: Any, action: Any, rng: Any = None, params: PendulumParams | None = None
    ) -> Any:
        """One step of ``dt`` seconds under the clipped torque; the speed clipped to ``max_speed``."""
        p = params or self.default_params
        theta, speed = state
        torque = jnp.clip(action, -self.max_torque, self.max_torque)[0]
        new_speed = speed + (3 * p.g / (2 * p.l) * jnp.sin(theta) + 3.0 / (p.m * p.l**2) * torque) * p.dt
        new_speed = jnp.clip(new_speed, -p.max_speed, p.max_speed)
        return jnp.array([theta + new_speed * p.dt, new_speed])

    def observation(self, state: Any, rng: Any, params: PendulumParams | None = None) -> Any:
        """``(cos theta, sin theta, theta_dot)``."""
        theta, speed = state
        return jnp.array([jnp.cos(theta), jnp.sin(theta), speed])

    def reward(
        self, state: Any, action: Any, next_state: Any, rng: Any, params: PendulumParams | None = None
    ) -> Any:
        """Minus the cost of the angle from upright, the speed and the torque, before the step."""
        theta, speed = state
        torque = jnp.clip(action, -self.max_torque, self.max_torque)[0]
        upright = ((theta + jnp.pi) % (2 * jnp.pi)) - jnp.pi
        return -(upright**2 + 0.1 * speed**2 + 0.001 * (torque**2))

    def terminal(self, state: Any, rng: Any, params: PendulumParams | None = None) -> Any:
        """Never: episodes end by the time limit."""
        return False

    def render_image(
        self, state: Any, render_state: ClassicFrames, params: PendulumParams | None = None
    ) -> tuple[ClassicFrames, np.ndarray]:
        """The frame of ``state``, drawn as classic-control Pendulum draws its state."""
        return render_state, render_state.frame(state=np.asarray(state, dtype=np.float64), last_u=None)


class PendulumJaxEnv(CompiledJaxEnv):
    """``phys2d/Pendulum-v0``: :class:`PendulumFunctional` jit-compiled; keywords set :class:`PendulumParams`."""

    functional = PendulumFunctional
    metadata = {
        "render_modes": ["rgb_array"],
        "render_fps": 30,
        "jax": True,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }


class PendulumJaxVectorEnv(CompiledJaxVectorEnv):
    """``phys2d/Pendulum-v0`` for ``num_envs`` sub-envs, jit-compiled and ``vmap``-ped.

    (Gymnasium leaves ``autoreset_mode`` out of this metadata; vector wrappers read it.)
    """

    functional = PendulumFunctional
    metadata = {
        "render_modes": ["rgb_array"],
        "render_fps": 50,
        "jax": True,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }
