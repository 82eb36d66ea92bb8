"""Throughput measurements (Gymnasium's ``gymnasium.utils.performance``).

The public path of :mod:`palaestra._tools._performance`, which holds the code (see docs/architecture.md: ``utils``
is a face at the API layer, its implementations sit in their layers).
"""

from palaestra._tools._performance import *  # noqa: F403  (a face: exactly the implementation's __all__)
from palaestra._tools._performance import __all__ as __all__
