"""Registration of the ``phys2d`` namespace (import-cheap: no jax, no numpy)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra import hookimpl

if TYPE_CHECKING:
    from palaestra.plugin import EnvRegistrar

_PKG = "palaestra_jax"

# id -> (module:class, vector module:class, registration fields); Gymnasium 1.4.0's values.
_ENVS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "phys2d/CartPole-v0": (
        "cartpole:CartPoleJaxEnv",
        "cartpole:CartPoleJaxVectorEnv",
        {"max_episode_steps": 200, "reward_threshold": 195.0},
    ),
    "phys2d/CartPole-v1": (
        "cartpole:CartPoleJaxEnv",
        "cartpole:CartPoleJaxVectorEnv",
        {"max_episode_steps": 500, "reward_threshold": 475.0},
    ),
    "phys2d/Pendulum-v0": (
        "pendulum:PendulumJaxEnv",
        "pendulum:PendulumJaxVectorEnv",
        {"max_episode_steps": 200},
    ),
}


@hookimpl
def palaestra_register_envs(registrar: EnvRegistrar) -> None:
    """Register the JAX physics envs under ``phys2d/``, as Gymnasium does."""
    for env_id, (entry_point, vector_entry_point, fields) in _ENVS.items():
        registrar.register(
            env_id,
            f"{_PKG}.{entry_point}",
            vector_entry_point=f"{_PKG}.{vector_entry_point}",
            disable_env_checker=True,
            **fields,
        )
