"""palaestra: reinforcement-learning environments with the Gymnasium API.

``import palaestra`` defines names and nothing else: no plugin is discovered or imported
until an environment is asked for.
"""

from typing import Any

from palaestra import envs, error, logger, spaces, utils, vector, wrappers
from palaestra._core import ActionWrapper, Env, ObservationWrapper, RewardWrapper, Wrapper
from palaestra._markers import hookimpl, hookspec
from palaestra._plugins._default import get_host, use_host
from palaestra._plugins._host import PluginHost
from palaestra._registry._api import make, pprint_registry, register, register_envs, spec
from palaestra._registry._spec import EnvSpec, WrapperSpec
from palaestra.spaces import Space

__all__ = [
    "ActionWrapper",
    "Env",
    "EnvSpec",
    "ObservationWrapper",
    "PluginHost",
    "RewardWrapper",
    "Space",
    "Wrapper",
    "WrapperSpec",
    "__version__",
    "envs",
    "error",
    "get_host",
    "hookimpl",
    "hookspec",
    "logger",
    "make",
    "pprint_registry",
    "register",
    "register_envs",
    "registry",
    "spaces",
    "spec",
    "use_host",
    "utils",
    "vector",
    "wrappers",
]


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import version

        return version("palaestra")
    if name == "registry":
        from palaestra._plugins._default import get_host

        return get_host().registry
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
