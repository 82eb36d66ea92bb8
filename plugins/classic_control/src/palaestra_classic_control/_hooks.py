"""Registration hooks (import-cheap: no numpy, no pygame)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra import hookimpl

if TYPE_CHECKING:
    from palaestra.plugin import EnvRegistrar

_PKG = "palaestra_classic_control"

# id -> (single entry point, vector entry point, registration fields); Gymnasium 1.4.0's values.
_ENVS: dict[str, tuple[Any, ...]] = {
    "CartPole-v0": (
        "cartpole:CartPoleEnv",
        "cartpole_vector:CartPoleVectorEnv",
        {"max_episode_steps": 200, "reward_threshold": 195.0},
    ),
    "CartPole-v1": (
        "cartpole:CartPoleEnv",
        "cartpole_vector:CartPoleVectorEnv",
        {"max_episode_steps": 500, "reward_threshold": 475.0},
    ),
    "MountainCar-v0": (
        "mountain_car:MountainCarEnv",
        "vector:MountainCarVectorEnv",
        {"max_episode_steps": 200, "reward_threshold": -110.0},
    ),
    "MountainCarContinuous-v0": (
        "continuous_mountain_car:Continuous_MountainCarEnv",
        "vector:ContinuousMountainCarVectorEnv",
        {"max_episode_steps": 999, "reward_threshold": 90.0},
    ),
    "Pendulum-v1": ("pendulum:PendulumEnv", "vector:PendulumVectorEnv", {"max_episode_steps": 200}),
    "Acrobot-v1": (
        "acrobot:AcrobotEnv",
        "vector:AcrobotVectorEnv",
        {"reward_threshold": -100.0, "max_episode_steps": 500},
    ),
}


@hookimpl
def palaestra_register_envs(registrar: EnvRegistrar) -> None:
    """Register the classic-control suite in the default namespace, as Gymnasium does."""
    for env_id, (entry_point, vector_entry_point, fields) in _ENVS.items():
        registrar.register(
            env_id,
            f"{_PKG}.{entry_point}",
            vector_entry_point=f"{_PKG}.{vector_entry_point}",
            default_namespace=True,
            **fields,
        )
