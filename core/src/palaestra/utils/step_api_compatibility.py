"""Converting between the done and terminated/truncated step APIs (Gymnasium's ``gymnasium.utils.step_api_compatibility``).

The public path of :mod:`palaestra._env._step_api`, which holds the code (see docs/architecture.md: ``utils``
is a face at the API layer, its implementations sit in their layers).
"""

from palaestra._env._step_api import *  # noqa: F403  (a face: exactly the implementation's __all__)
from palaestra._env._step_api import __all__ as __all__
