"""The checks ``make`` runs on an env's first calls (Gymnasium's ``gymnasium.utils.passive_env_checker``).

The public path of :mod:`palaestra._env._passive_checks`, which holds the code (see docs/architecture.md: ``utils``
is a face at the API layer, its implementations sit in their layers).
"""

from palaestra._env._passive_checks import *  # noqa: F403  (a face: exactly the implementation's __all__)
from palaestra._env._passive_checks import __all__ as __all__
