"""palaestra: reinforcement-learning environments with the Gymnasium API.

``import palaestra`` defines names and nothing else: submodules and classes load on first
access, and no plugin is discovered or imported until an environment is asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from palaestra._lazy import load_export

if TYPE_CHECKING:
    from palaestra import core, envs, error, experimental, hookspecs, logger, spaces, utils, vector, wrappers
    from palaestra._core import ActionWrapper, Env, ObservationWrapper, RewardWrapper, Wrapper
    from palaestra._markers import hookimpl, hookspec
    from palaestra._plugins._default import get_host, use_host
    from palaestra._plugins._host import PluginHost
    from palaestra._registry._api import make, make_vec, pprint_registry, register, register_envs, spec
    from palaestra._registry._make_vec import VectorizeMode
    from palaestra._registry._registry import Registry
    from palaestra._registry._spec import EnvSpec, WrapperSpec
    from palaestra._snapshot import Snapshot
    from palaestra.spaces import Space

    registry: Registry
    __version__: str

__all__ = [
    "ActionWrapper",
    "Env",
    "EnvSpec",
    "ObservationWrapper",
    "PluginHost",
    "RewardWrapper",
    "Snapshot",
    "Space",
    "VectorizeMode",
    "Wrapper",
    "WrapperSpec",
    "__version__",
    "core",
    "envs",
    "error",
    "experimental",
    "get_host",
    "hookimpl",
    "hookspec",
    "hookspecs",
    "logger",
    "make",
    "make_vec",
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

# Public name -> module defining it; resolved on first access (PEP 562).
_LAZY_NAMES = {
    "ActionWrapper": "palaestra._core",
    "Env": "palaestra._core",
    "ObservationWrapper": "palaestra._core",
    "RewardWrapper": "palaestra._core",
    "Snapshot": "palaestra._snapshot",
    "Wrapper": "palaestra._core",
    "EnvSpec": "palaestra._registry._spec",
    "WrapperSpec": "palaestra._registry._spec",
    "PluginHost": "palaestra._plugins._host",
    "get_host": "palaestra._plugins._default",
    "use_host": "palaestra._plugins._default",
    "hookimpl": "palaestra._markers",
    "hookspec": "palaestra._markers",
    "make": "palaestra._registry._api",
    "make_vec": "palaestra._registry._api",
    "VectorizeMode": "palaestra._registry._make_vec",
    "pprint_registry": "palaestra._registry._api",
    "register": "palaestra._registry._api",
    "register_envs": "palaestra._registry._api",
    "spec": "palaestra._registry._api",
    "Space": "palaestra.spaces",
}
_SUBMODULES = frozenset(
    {"core", "envs", "error", "experimental", "hookspecs", "logger", "spaces", "utils", "vector", "wrappers"}
)


def __getattr__(name: str) -> Any:
    if name in _LAZY_NAMES:
        return load_export(globals(), _LAZY_NAMES, name)
    if name in _SUBMODULES:
        return importlib.import_module(f"palaestra.{name}")
    if name == "registry":
        # Not cached: it belongs to whichever host is the default right now.
        from palaestra._plugins._default import get_host

        return get_host().registry
    if name == "__version__":
        from importlib.metadata import version

        return version("palaestra")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(__all__) | set(globals()))
