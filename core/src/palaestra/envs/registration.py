"""Specs, ids, registration and ``make`` (Gymnasium's ``envs.registration`` names)."""

from typing import Any

from palaestra._api import (
    find_highest_version,
    make,
    make_vec,
    namespace,
    pprint_registry,
    register,
    register_envs,
    spec,
)
from palaestra._base._ids import get_env_id, parse_env_id
from palaestra._base._lazy import load_env_creator
from palaestra._env._spec import EnvSpec, WrapperSpec
from palaestra._plugins._host import get_host
from palaestra._registry._make_vec import VectorizeMode
from palaestra._registry._registry import Registry

__all__ = [
    "EnvSpec",
    "Registry",
    "VectorizeMode",
    "WrapperSpec",
    "find_highest_version",
    "get_env_id",
    "load_env_creator",
    "make",
    "make_vec",
    "namespace",
    "parse_env_id",
    "pprint_registry",
    "register",
    "register_envs",
    "registry",
    "spec",
]


# Not a start-up seam: ``registry`` and ``current_namespace`` are the default host's,
# whichever host is the default now.
def __getattr__(name: str) -> Any:
    # The registry belongs to the default host, which is created on first use.
    if name == "registry":
        return get_host().registry
    if name == "current_namespace":
        return get_host().current_namespace
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
