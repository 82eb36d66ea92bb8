"""Box2D environments for palaestra (registered in the default namespace)."""

from palaestra.plugin import lazy_exports

__all__ = ["BipedalWalker", "CarRacing", "LunarLander"]

# Env modules import Box2D: `import palaestra_box2d` loads them only when asked for.
_WHERE = {"BipedalWalker": "bipedal_walker", "CarRacing": "car_racing", "LunarLander": "lunar_lander"}


__getattr__ = lazy_exports(globals(), _WHERE)
