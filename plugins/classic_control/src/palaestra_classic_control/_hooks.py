"""Registration hooks (import-cheap: no numpy, no pygame)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra.plugin import hookimpl

if TYPE_CHECKING:
    from palaestra.plugin import EnvRegistrar

_PKG = "palaestra_classic_control"

# id -> registration fields (entry points within the package); Gymnasium 1.4.0's values.
_ENVS: dict[str, dict[str, Any]] = {
    "CartPole-v0": {
        "entry_point": "cartpole:CartPoleEnv",
        "vector_entry_point": "cartpole_vector:CartPoleVectorEnv",
        "max_episode_steps": 200,
        "reward_threshold": 195.0,
    },
    "CartPole-v1": {
        "entry_point": "cartpole:CartPoleEnv",
        "vector_entry_point": "cartpole_vector:CartPoleVectorEnv",
        "max_episode_steps": 500,
        "reward_threshold": 475.0,
    },
    "MountainCar-v0": {
        "entry_point": "mountain_car:MountainCarEnv",
        "vector_entry_point": "vector:MountainCarVectorEnv",
        "max_episode_steps": 200,
        "reward_threshold": -110.0,
    },
    "MountainCarContinuous-v0": {
        "entry_point": "continuous_mountain_car:Continuous_MountainCarEnv",
        "vector_entry_point": "vector:ContinuousMountainCarVectorEnv",
        "max_episode_steps": 999,
        "reward_threshold": 90.0,
    },
    "Pendulum-v1": {
        "entry_point": "pendulum:PendulumEnv",
        "vector_entry_point": "vector:PendulumVectorEnv",
        "max_episode_steps": 200,
    },
    "Acrobot-v1": {
        "entry_point": "acrobot:AcrobotEnv",
        "vector_entry_point": "vector:AcrobotVectorEnv",
        "reward_threshold": -100.0,
        "max_episode_steps": 500,
    },
}


@hookimpl
def palaestra_register_envs(registrar: EnvRegistrar) -> None:
    """Register the classic-control suite in the default namespace, as Gymnasium does."""
    registrar.register_table(_PKG, _ENVS, default_namespace=True)
