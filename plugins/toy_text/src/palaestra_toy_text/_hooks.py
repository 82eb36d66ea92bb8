"""Registration hooks (import-cheap: no numpy, no pygame)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra import hookimpl

if TYPE_CHECKING:
    from palaestra.plugin import EnvRegistrar

_PKG = "palaestra_toy_text"

# id -> (entry point, vector entry point, fields); Gymnasium 1.4.0's registrations.
_ENVS: dict[str, tuple[Any, ...]] = {
    "Blackjack-v1": (
        "blackjack:BlackjackEnv",
        "vector:BlackjackVectorEnv",
        {"kwargs": {"sab": True, "natural": False}},
    ),
    "FrozenLake-v1": (
        "frozen_lake:FrozenLakeEnv",
        "vector:FrozenLakeVectorEnv",
        {"kwargs": {"map_name": "4x4"}, "max_episode_steps": 100, "reward_threshold": 0.70},
    ),
    "FrozenLake8x8-v1": (
        "frozen_lake:FrozenLakeEnv",
        "vector:FrozenLakeVectorEnv",
        {"kwargs": {"map_name": "8x8"}, "max_episode_steps": 200, "reward_threshold": 0.85},
    ),
    "CliffWalking-v1": ("cliffwalking:CliffWalkingEnv", "vector:CliffWalkingVectorEnv", {}),
    "CliffWalkingSlippery-v1": (
        "cliffwalking:CliffWalkingEnv",
        "vector:CliffWalkingVectorEnv",
        {"kwargs": {"is_slippery": True}},
    ),
    "Taxi-v4": ("taxi:TaxiEnv", "vector:TaxiVectorEnv", {"reward_threshold": 8, "max_episode_steps": 200}),
}


@hookimpl
def palaestra_register_envs(registrar: EnvRegistrar) -> None:
    """Register the toy-text suite in the default namespace, as Gymnasium does."""
    for env_id, (entry_point, vector_entry_point, fields) in _ENVS.items():
        registrar.register(
            env_id,
            f"{_PKG}.{entry_point}",
            vector_entry_point=f"{_PKG}.{vector_entry_point}",
            default_namespace=True,
            **fields,
        )
