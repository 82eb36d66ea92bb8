"""Checking that two envs give the same data (Gymnasium's ``gymnasium.utils.env_match``).

The public path of :mod:`palaestra._tools._env_match`, which holds the code (see docs/architecture.md: ``utils``
is a face at the API layer, its implementations sit in their layers).
"""

from palaestra._tools._env_match import *  # noqa: F403  (a face: exactly the implementation's __all__)
from palaestra._tools._env_match import __all__ as __all__
