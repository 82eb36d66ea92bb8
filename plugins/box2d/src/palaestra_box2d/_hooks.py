"""Registration hooks (import-cheap: no Box2D, no numpy, no pygame)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra.plugin import hookimpl

if TYPE_CHECKING:
    from palaestra.plugin import EnvRegistrar

_PKG = "palaestra_box2d"

# id -> registration fields (entry points within the package); Gymnasium 1.4.0's values.
_ENVS: dict[str, dict[str, Any]] = {
    "LunarLander-v3": {
        "entry_point": "lunar_lander:LunarLander",
        "vector_entry_point": "vector:LunarLanderVectorEnv",
        "max_episode_steps": 1000,
        "reward_threshold": 200,
    },
    "LunarLanderContinuous-v3": {
        "entry_point": "lunar_lander:LunarLander",
        "vector_entry_point": "vector:LunarLanderVectorEnv",
        "max_episode_steps": 1000,
        "reward_threshold": 200,
        "kwargs": {"continuous": True},
    },
    "BipedalWalker-v3": {
        "entry_point": "bipedal_walker:BipedalWalker",
        "vector_entry_point": "vector:BipedalWalkerVectorEnv",
        "max_episode_steps": 1600,
        "reward_threshold": 300,
    },
    "BipedalWalkerHardcore-v3": {
        "entry_point": "bipedal_walker:BipedalWalker",
        "vector_entry_point": "vector:BipedalWalkerVectorEnv",
        "max_episode_steps": 2000,
        "reward_threshold": 300,
        "kwargs": {"hardcore": True},
    },
    "CarRacing-v3": {
        "entry_point": "car_racing:CarRacing",
        "vector_entry_point": "vector:CarRacingVectorEnv",
        "max_episode_steps": 1000,
        "reward_threshold": 900,
    },
}


@hookimpl
def palaestra_register_envs(registrar: EnvRegistrar) -> None:
    """Register the Box2D suite in the default namespace, as Gymnasium does."""
    registrar.register_table(_PKG, _ENVS, default_namespace=True)
