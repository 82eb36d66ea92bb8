"""Classic control environments for palaestra (registered in the default namespace)."""

from typing import Any

__all__ = ["AcrobotEnv", "CartPoleEnv", "Continuous_MountainCarEnv", "MountainCarEnv", "PendulumEnv"]

_WHERE = {
    "AcrobotEnv": "acrobot",
    "CartPoleEnv": "cartpole",
    "Continuous_MountainCarEnv": "continuous_mountain_car",
    "MountainCarEnv": "mountain_car",
    "PendulumEnv": "pendulum",
}


def __getattr__(name: str) -> Any:
    # Import env modules on access so `import palaestra_classic_control` stays cheap.
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
