"""palaestra: reinforcement-learning environments with the Gymnasium API.

``import palaestra`` defines names and nothing else: submodules and classes load on first
access, and no plugin is discovered or imported until an environment is asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from palaestra._base._lazy import load_export

if TYPE_CHECKING:
    from palaestra import core as core
    from palaestra import envs as envs
    from palaestra import error as error
    from palaestra import experimental as experimental
    from palaestra import hookspecs as hookspecs
    from palaestra import logger as logger
    from palaestra import spaces as spaces
    from palaestra import utils as utils
    from palaestra import vector as vector
    from palaestra import wrappers as wrappers
    from palaestra._api import make as make
    from palaestra._api import make_vec as make_vec
    from palaestra._api import pprint_registry as pprint_registry
    from palaestra._api import register as register
    from palaestra._api import register_envs as register_envs
    from palaestra._api import spec as spec
    from palaestra._base._markers import hookimpl as hookimpl
    from palaestra._base._markers import hookspec as hookspec
    from palaestra._env._core import Env as Env
    from palaestra._env._core import Wrapper as Wrapper
    from palaestra._env._snapshot import Snapshot as Snapshot
    from palaestra._env._spec import EnvSpec as EnvSpec
    from palaestra._env._spec import WrapperSpec as WrapperSpec
    from palaestra._env._wrapper_kinds import ActionWrapper as ActionWrapper
    from palaestra._env._wrapper_kinds import ObservationWrapper as ObservationWrapper
    from palaestra._env._wrapper_kinds import RewardWrapper as RewardWrapper
    from palaestra._plugins._host import PluginHost as PluginHost
    from palaestra._plugins._host import get_host as get_host
    from palaestra._plugins._host import use_host as use_host
    from palaestra._registry._make_vec import VectorizeMode as VectorizeMode
    from palaestra._registry._registry import Registry  # the type of `registry`, not a name of its own
    from palaestra.spaces import Space as Space

    registry: Registry
    __version__: str


# Public name -> module defining it, resolved on first access (PEP 562). Written once: the
# imports above (for type checkers) are held to this table by tests/core/test_public_names.py.
_LAZY_NAMES = {
    "ActionWrapper": "palaestra._env._wrapper_kinds",
    "Env": "palaestra._env._core",
    "ObservationWrapper": "palaestra._env._wrapper_kinds",
    "RewardWrapper": "palaestra._env._wrapper_kinds",
    "Snapshot": "palaestra._env._snapshot",
    "Wrapper": "palaestra._env._core",
    "EnvSpec": "palaestra._env._spec",
    "WrapperSpec": "palaestra._env._spec",
    "PluginHost": "palaestra._plugins._host",
    "get_host": "palaestra._plugins._host",
    "use_host": "palaestra._plugins._host",
    "hookimpl": "palaestra._base._markers",
    "hookspec": "palaestra._base._markers",
    "make": "palaestra._api",
    "make_vec": "palaestra._api",
    "VectorizeMode": "palaestra._registry._make_vec",
    "pprint_registry": "palaestra._api",
    "register": "palaestra._api",
    "register_envs": "palaestra._api",
    "spec": "palaestra._api",
    "Space": "palaestra.spaces",
}
_SUBMODULES = (
    "core",
    "envs",
    "error",
    "experimental",
    "hookspecs",
    "logger",
    "spaces",
    "utils",
    "vector",
    "wrappers",
)
__all__ = sorted([*_LAZY_NAMES, *_SUBMODULES, "registry", "__version__"])


# start-up: names load on first access; the wrappers (68 ms), the vector package (38 ms) and
# the kit are no first step's cost (benchmarks/bench_lazy_seams.py).
def __getattr__(name: str) -> Any:
    if name in _LAZY_NAMES:
        return load_export(globals(), _LAZY_NAMES, name)
    if name in _SUBMODULES:
        return importlib.import_module(f"palaestra.{name}")
    if name == "registry":
        # Not cached: it belongs to whichever host is the default right now.
        # start-up: the plugin host loads with the first make, not with `import palaestra` (2.3 ms)
        from palaestra._plugins._host import get_host

        return get_host().registry
    if name == "__version__":
        from importlib.metadata import version  # start-up: importlib.metadata (26 ms)

        return version("palaestra")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(__all__) | set(globals()))
