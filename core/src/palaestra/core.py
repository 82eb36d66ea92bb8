"""The environment and wrapper base classes under Gymnasium's module path (``gymnasium.core``).

``from gymnasium.core import Env, ObsType`` ports as ``from palaestra.core import Env, ObsType``.
The public path of :mod:`palaestra._env._core` and :mod:`palaestra._env._wrapper_kinds`,
which hold the code.
"""

from palaestra._env._core import *  # noqa: F403  (a face: exactly the implementations' __all__)
from palaestra._env._core import __all__ as _CORE_NAMES
from palaestra._env._wrapper_kinds import *  # noqa: F403
from palaestra._env._wrapper_kinds import __all__ as _KIND_NAMES

__all__ = sorted([*_CORE_NAMES, *_KIND_NAMES])
