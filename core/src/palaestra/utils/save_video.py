"""Saving rendered frames as videos (Gymnasium's ``gymnasium.utils.save_video``).

The public path of :mod:`palaestra._base._save_video`, which holds the code (see docs/architecture.md: ``utils``
is a face at the API layer, its implementations sit in their layers).
"""

from palaestra._base._save_video import *  # noqa: F403  (a face: exactly the implementation's __all__)
from palaestra._base._save_video import __all__ as __all__
