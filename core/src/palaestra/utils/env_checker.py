"""``check_env`` and its checks (Gymnasium's ``gymnasium.utils.env_checker``).

The public path of :mod:`palaestra._tools._env_checker`, which holds the code (see docs/architecture.md: ``utils``
is a face at the API layer, its implementations sit in their layers).
"""

from palaestra._tools._env_checker import *  # noqa: F403  (a face: exactly the implementation's __all__)
from palaestra._tools._env_checker import __all__ as __all__
