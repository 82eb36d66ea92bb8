"""CartPole as a JAX functional env (``phys2d/CartPole-v0``, ``-v1``).

The dynamics are Gymnasium 1.4.0's phys2d CartPole, which differs from classic-control's
CartPole in three places, kept for the same numbers: the state is float32 throughout, the
pole's "mass times length" is ``masspole + length`` (0.6, not 0.05), and the reward is
decided by the state *before* the step (so the step that fails pays 1 and the next, if
stepped, 0 under ``sutton_barto_reward``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from palaestra import spaces
from palaestra.plugin import AutoresetMode, FuncEnv
from palaestra_jax._jax import import_jax
from palaestra_jax._render import ClassicFrames, DrawnByEnv
from palaestra_jax.functional_jax_env import CompiledJaxEnv, CompiledJaxVectorEnv, KeywordParams

__all__ = ["CartPoleFunctional", "CartPoleJaxEnv", "CartPoleJaxVectorEnv", "CartPoleParams"]

jax = import_jax()
jnp = jax.numpy


class CartPoleParams(NamedTuple):
    """The physical constants (Gymnasium's phys2d values)."""

    gravity: float = 9.8
    masscart: float = 1.0
    masspole: float = 0.1
    total_mass: float = 0.1 + 1.0
    length: float = 0.5
    polemass_length: float = 0.1 + 0.5
    force_mag: float = 10.0
    tau: float = 0.02
    theta_threshold_radians: float = 12 * 2 * np.pi / 360
    x_threshold: float = 2.4
    x_init: float = 0.05
    sutton_barto_reward: bool = False
    screen_width: int = 600
    screen_height: int = 400


def _failed(state: Any, p: CartPoleParams) -> Any:
    x, _, theta, _ = state
    return (
        (x < -p.x_threshold)
        | (x > p.x_threshold)
        | (theta < -p.theta_threshold_radians)
        | (theta > p.theta_threshold_radians)
    )


class CartPoleFunctional(DrawnByEnv, KeywordParams, FuncEnv[Any, Any, Any, Any, Any, Any, CartPoleParams]):
    """A pole on a cart, as pure functions of a float32 state ``(x, x_dot, theta, theta_dot)``."""

    drawn_by = ("palaestra_classic_control.cartpole", "CartPoleEnv")
    params_type = CartPoleParams

    default_params: CartPoleParams
    observation_space = spaces.Box(-np.inf, np.inf, shape=(4,), dtype=np.float32)
    action_space = spaces.Discrete(2)

    def initial(self, rng: Any, params: CartPoleParams | None = None) -> Any:
        """Each state variable uniform in ``[-x_init, x_init]``."""
        p = params or self.default_params
        return jax.random.uniform(key=rng, minval=-p.x_init, maxval=p.x_init, shape=(4,))

    def transition(
        self, state: Any, action: Any, rng: Any = None, params: CartPoleParams | None = None
    ) -> Any:
        """One Euler step of ``tau`` seconds under a push of ``force_mag`` left or right."""
        p = params or self.default_params
        x, x_dot, theta, theta_dot = state
        force = jnp.sign(action - 0.5) * p.force_mag
        cos, sin = jnp.cos(theta), jnp.sin(theta)
        temp = (force + p.polemass_length * theta_dot**2 * sin) / p.total_mass
        theta_acc = (p.gravity * sin - cos * temp) / (
            p.length * (4.0 / 3.0 - p.masspole * cos**2 / p.total_mass)
        )
        x_acc = temp - p.polemass_length * theta_acc * cos / p.total_mass
        x = x + p.tau * x_dot
        x_dot = x_dot + p.tau * x_acc
        theta = theta + p.tau * theta_dot
        theta_dot = theta_dot + p.tau * theta_acc
        return jnp.array((x, x_dot, theta, theta_dot), dtype=jnp.float32)

    def observation(self, state: Any, rng: Any, params: CartPoleParams | None = None) -> Any:
        """The state itself."""
        return state

    def terminal(self, state: Any, rng: Any, params: CartPoleParams | None = None) -> Any:
        """The cart left the track or the pole fell past 12 degrees."""
        return _failed(state, params or self.default_params)

    def reward(
        self, state: Any, action: Any, next_state: Any, rng: Any, params: CartPoleParams | None = None
    ) -> Any:
        """1 per step; with ``sutton_barto_reward``, 0 per step and -1 from a failed state."""
        p = params or self.default_params
        failed = _failed(state, p)
        # Selects, not lax.cond: the same numbers with no control flow in a compiled step (a
        # parameter-only predicate still lowered to a conditional; benchmarks/bench_jax.py --cost).
        return jnp.where(p.sutton_barto_reward, jnp.where(failed, -1.0, 0.0), 1.0)

    def render_image(
        self, state: Any, render_state: ClassicFrames, params: CartPoleParams | None = None
    ) -> tuple[ClassicFrames, np.ndarray]:
        """The frame of ``state``, drawn as classic-control CartPole draws its state."""
        return render_state, render_state.frame(state=np.asarray(state, dtype=np.float64))


class CartPoleJaxEnv(CompiledJaxEnv):
    """``phys2d/CartPole``: :class:`CartPoleFunctional` jit-compiled; keywords set :class:`CartPoleParams`."""

    functional = CartPoleFunctional
    metadata = {"render_modes": ["rgb_array"], "render_fps": 50, "jax": True}


class CartPoleJaxVectorEnv(CompiledJaxVectorEnv):
    """``phys2d/CartPole`` for ``num_envs`` sub-envs, jit-compiled and ``vmap``-ped."""

    functional = CartPoleFunctional
    metadata = {
        "render_modes": ["rgb_array"],
        "render_fps": 50,
        "jax": True,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }
