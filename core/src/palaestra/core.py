"""The environment and wrapper base classes under Gymnasium's module path (``gymnasium.core``).

``from gymnasium.core import Env, ObsType`` ports as ``from palaestra.core import Env, ObsType``.
The public path of :mod:`palaestra._env._core`, which holds the code.
"""

from palaestra._env._core import *  # noqa: F403  (a face: exactly the implementation's __all__)
from palaestra._env._core import __all__ as __all__
