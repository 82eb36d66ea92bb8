"""Playing an env with the keyboard (Gymnasium's ``gymnasium.utils.play``).

The public path of :mod:`palaestra._tools._play`, which holds the code (see docs/architecture.md: ``utils``
is a face at the API layer, its implementations sit in their layers).
"""

from palaestra._tools._play import *  # noqa: F403  (a face: exactly the implementation's __all__)
from palaestra._tools._play import __all__ as __all__
