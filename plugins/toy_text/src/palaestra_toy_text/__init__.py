"""Toy text environments for palaestra (registered in the default namespace)."""

from palaestra.plugin import lazy_exports

__all__ = ["BlackjackEnv", "CliffWalkingEnv", "FrozenLakeEnv", "TaxiEnv", "generate_random_map"]

# Env modules load on first access, so `import palaestra_toy_text` stays cheap.
_WHERE = {
    "BlackjackEnv": "blackjack",
    "CliffWalkingEnv": "cliffwalking",
    "FrozenLakeEnv": "frozen_lake",
    "TaxiEnv": "taxi",
    "generate_random_map": "frozen_lake",
}


__getattr__ = lazy_exports(globals(), _WHERE)
