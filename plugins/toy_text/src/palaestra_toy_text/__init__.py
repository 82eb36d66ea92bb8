"""Toy text environments for palaestra (registered in the default namespace)."""

from typing import Any

__all__ = ["BlackjackEnv", "CliffWalkingEnv", "FrozenLakeEnv", "TaxiEnv", "generate_random_map"]

_WHERE = {
    "BlackjackEnv": "blackjack",
    "CliffWalkingEnv": "cliffwalking",
    "FrozenLakeEnv": "frozen_lake",
    "TaxiEnv": "taxi",
    "generate_random_map": "frozen_lake",
}


def __getattr__(name: str) -> Any:
    # Import env modules on access so `import palaestra_toy_text` stays cheap.
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
