"""Box2D environments for palaestra (registered in the default namespace)."""

from typing import Any

__all__ = ["BipedalWalker", "CarRacing", "LunarLander"]

_WHERE = {"BipedalWalker": "bipedal_walker", "CarRacing": "car_racing", "LunarLander": "lunar_lander"}


def __getattr__(name: str) -> Any:
    # Import env modules on access so `import palaestra_box2d` does not load Box2D.
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
