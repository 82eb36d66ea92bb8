"""Seeded random number generators (Gymnasium's ``gymnasium.utils.seeding``).

The public path of :mod:`palaestra._base._seeding`, which holds the code (see docs/architecture.md: ``utils``
is a face at the API layer, its implementations sit in their layers).
"""

from palaestra._base._seeding import *  # noqa: F403  (a face: exactly the implementation's __all__)
from palaestra._base._seeding import __all__ as __all__
