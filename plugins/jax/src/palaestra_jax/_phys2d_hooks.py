"""Registration of the ``phys2d`` namespace (import-cheap: no jax, no numpy)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra.plugin import hookimpl

if TYPE_CHECKING:
    from palaestra.plugin import EnvRegistrar

_PKG = "palaestra_jax"

# id -> registration fields (entry points within the package); Gymnasium 1.4.0's values.
_ENVS: dict[str, dict[str, Any]] = {
    "phys2d/CartPole-v0": {
        "entry_point": "cartpole:CartPoleJaxEnv",
        "vector_entry_point": "cartpole:CartPoleJaxVectorEnv",
        "max_episode_steps": 200,
        "reward_threshold": 195.0,
        "disable_env_checker": True,
    },
    "phys2d/CartPole-v1": {
        "entry_point": "cartpole:CartPoleJaxEnv",
        "vector_entry_point": "cartpole:CartPoleJaxVectorEnv",
        "max_episode_steps": 500,
        "reward_threshold": 475.0,
        "disable_env_checker": True,
    },
    "phys2d/Pendulum-v0": {
        "entry_point": "pendulum:PendulumJaxEnv",
        "vector_entry_point": "pendulum:PendulumJaxVectorEnv",
        "max_episode_steps": 200,
        "disable_env_checker": True,
    },
}


@hookimpl
def palaestra_register_envs(registrar: EnvRegistrar) -> None:
    """Register the JAX physics envs under ``phys2d/``, as Gymnasium does."""
    registrar.register_table(_PKG, _ENVS)
