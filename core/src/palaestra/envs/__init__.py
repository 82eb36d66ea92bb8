"""Registration API under Gymnasium's path (``palaestra.envs.registration``).

palaestra ships no environments in its core; suites are installable plugins.
"""

from typing import Any

from palaestra.envs import registration
from palaestra.envs.registration import (
    EnvSpec,
    WrapperSpec,
    make,
    pprint_registry,
    register,
    spec,
)

__all__ = [
    "EnvSpec",
    "WrapperSpec",
    "make",
    "pprint_registry",
    "register",
    "registration",
    "registry",
    "spec",
]


# Not a start-up seam: ``registry`` is the default host's, whichever host is the default now.
def __getattr__(name: str) -> Any:
    if name == "registry":
        return registration.__getattr__(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
