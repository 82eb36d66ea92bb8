"""Registration hooks (import-cheap: no numpy, no pygame)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra.plugin import hookimpl

if TYPE_CHECKING:
    from palaestra.plugin import EnvRegistrar

_PKG = "palaestra_toy_text"

# id -> registration fields (entry points within the package); Gymnasium 1.4.0's registrations.
_ENVS: dict[str, dict[str, Any]] = {
    "Blackjack-v1": {
        "entry_point": "blackjack:BlackjackEnv",
        "vector_entry_point": "vector:BlackjackVectorEnv",
        "kwargs": {"sab": True, "natural": False},
    },
    "FrozenLake-v1": {
        "entry_point": "frozen_lake:FrozenLakeEnv",
        "vector_entry_point": "vector:FrozenLakeVectorEnv",
        "kwargs": {"map_name": "4x4"},
        "max_episode_steps": 100,
        "reward_threshold": 0.70,
    },
    "FrozenLake8x8-v1": {
        "entry_point": "frozen_lake:FrozenLakeEnv",
        "vector_entry_point": "vector:FrozenLakeVectorEnv",
        "kwargs": {"map_name": "8x8"},
        "max_episode_steps": 200,
        "reward_threshold": 0.85,
    },
    "CliffWalking-v1": {
        "entry_point": "cliffwalking:CliffWalkingEnv",
        "vector_entry_point": "vector:CliffWalkingVectorEnv",
    },
    "CliffWalkingSlippery-v1": {
        "entry_point": "cliffwalking:CliffWalkingEnv",
        "vector_entry_point": "vector:CliffWalkingVectorEnv",
        "kwargs": {"is_slippery": True},
    },
    "Taxi-v4": {
        "entry_point": "taxi:TaxiEnv",
        "vector_entry_point": "vector:TaxiVectorEnv",
        "reward_threshold": 8,
        "max_episode_steps": 200,
    },
}


@hookimpl
def palaestra_register_envs(registrar: EnvRegistrar) -> None:
    """Register the toy-text suite in the default namespace, as Gymnasium does."""
    registrar.register_table(_PKG, _ENVS, default_namespace=True)
