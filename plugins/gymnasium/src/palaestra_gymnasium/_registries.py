"""Each library's registry seen from the other.

Gymnasium gets every palaestra id under ``palaestra/`` (registered when this package is
imported, so ``gymnasium.make("palaestra_gymnasium:palaestra/CartPole-v1")`` works in any
process; the specs are deferred, so no suite is imported until one is made). palaestra gets
Gymnasium's ids under ``gymnasium/`` on demand, through the plugin's
``palaestra_resolve_env`` hook: nothing is listed up front, and Gymnasium is imported only
when such an id is asked for.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Iterable
from typing import Any

import gymnasium
from gymnasium.envs import registration as gym_registration

import palaestra
from palaestra.error import DependencyNotInstalled, Error, NameNotFound, NamespaceNotFound
from palaestra.plugin import REGISTRATION_FIELDS, namespace_of
from palaestra_gymnasium._specs import (
    GYMNASIUM_NAMESPACE,
    PALAESTRA_NAMESPACE,
    DeferredGymnasiumSpec,
    from_gymnasium_spec,
)

__all__ = ["PROVIDERS", "register_in_gymnasium", "resolve"]

#: Gymnasium ids registered by importing a package: their namespace (``ALE``) or, for ids
#: without one, their name's first word (``MiniGrid-Empty-5x5-v0``) -> (module, distribution).
PROVIDERS = {
    "ALE": ("ale_py", "ale-py"),
    "MiniGrid": ("minigrid", "minigrid"),
    "BabyAI": ("minigrid", "minigrid"),
}


def _provider_key(ns: str | None, name: str) -> str | None:
    """The :data:`PROVIDERS` key of an id: its namespace, else its name's first word."""
    if ns is not None:
        return ns if ns in PROVIDERS else None
    first = name.split("-", 1)[0]
    return first if first in PROVIDERS and first != name else None


def register_in_gymnasium(ids: Iterable[str] | None = None) -> list[str]:
    """Register palaestra ids in Gymnasium's registry, under Gymnasium's ``palaestra/`` namespace.

    Called when :mod:`palaestra_gymnasium` is imported, for every id then known (those
    installed plugins declare, and those registered in this process); call it again after
    registering your own palaestra envs. Registering an id again replaces it. No plugin is
    imported: each Gymnasium spec reads palaestra's on first use
    (:class:`DeferredGymnasiumSpec`), loading only the plugin that owns it.

    Args:
        ids: palaestra ids; every declared or registered id when ``None``.

    Returns:
        The Gymnasium ids registered (``CartPole-v1`` becomes ``palaestra/CartPole-v1``,
        ``ns/Grid-v0`` becomes ``palaestra/ns.Grid-v0``).
    """
    registered = []
    for env_id in palaestra.registry if ids is None else ids:
        namespace = namespace_of(env_id) or ""
        if namespace == GYMNASIUM_NAMESPACE or namespace.startswith(f"{GYMNASIUM_NAMESPACE}/"):
            continue  # Gymnasium's own envs seen through palaestra: Gymnasium has them already
        gym_spec = DeferredGymnasiumSpec(env_id)
        gymnasium.registry[gym_spec.id] = gym_spec
        registered.append(gym_spec.id)
    return registered


def resolve(env_id: str, registrar: Any) -> None:
    """Register ``gymnasium/<Gymnasium id>`` (all versions of its name) with palaestra.

    Raises:
        NamespaceNotFound: Gymnasium knows no env in that namespace (names the package).
        NameNotFound: Gymnasium knows no env of that name (suggests the closest).
        DependencyNotInstalled: The package that registers the namespace is missing.
    """
    gym_id = env_id.removeprefix(f"{GYMNASIUM_NAMESPACE}/")
    ns, name, _ = gym_registration.parse_env_id(gym_id)
    if ns == PALAESTRA_NAMESPACE:
        raise Error(f"{env_id!r} is palaestra's own env seen through Gymnasium; make it by its palaestra id")
    _import_provider(ns, name, env_id)
    matches = [s for s in gymnasium.registry.values() if s.namespace == ns and s.name == name]
    if not matches:
        raise _unknown(env_id, ns, name)
    for gym_spec in matches:
        spec = from_gymnasium_spec(gym_spec)
        fields = {
            field: getattr(spec, field) for field in REGISTRATION_FIELDS if field != "apply_api_compatibility"
        }
        registrar.register(spec.id, spec.entry_point, **fields)


def _import_provider(ns: str | None, name: str, env_id: str) -> None:
    """Import the package that registers the id with Gymnasium, if one is known and not imported."""
    key = _provider_key(ns, name)
    if key is None or any(s.namespace == ns and s.name == name for s in gymnasium.registry.values()):
        return
    module, distribution = PROVIDERS[key]
    try:
        importlib.import_module(module)
    except ImportError as e:
        raise DependencyNotInstalled(
            f"{env_id!r} is registered with Gymnasium by the package {distribution}, which is not "
            f"installed. Install it with: pip install {distribution}"
        ) from e


def _unknown(env_id: str, ns: str | None, name: str) -> Exception:
    """The error for a Gymnasium id that Gymnasium does not know."""
    specs = gymnasium.registry.values()
    if ns is not None and not any(s.namespace == ns for s in specs):
        return NamespaceNotFound(
            f"{env_id!r}: Gymnasium has no namespace {ns!r}. Packages register their envs with "
            f"Gymnasium when imported: name the module in the id, as in "
            f"palaestra.make('<module>:{env_id}'), after installing the package."
        )
    names = sorted({s.name for s in specs if s.namespace == ns})
    close = difflib.get_close_matches(name, names, n=1)
    prefix = f"{GYMNASIUM_NAMESPACE}/{ns}/" if ns else f"{GYMNASIUM_NAMESPACE}/"
    hint = f" Did you mean `{prefix}{close[0]}`?" if close else ""
    if not close and ns is None:  # most likely a package that has not been imported
        hint = (
            " Packages register their envs with Gymnasium when imported: name the module in the "
            f"id, as in palaestra.make('<module>:{env_id}') (e.g. 'minigrid:{GYMNASIUM_NAMESPACE}/"
            "MiniGrid-Empty-5x5-v0'), after installing the package."
        )
    where = f" in namespace {ns!r}" if ns else ""
    return NameNotFound(f"{env_id!r}: Gymnasium has no environment {name!r}{where}.{hint}")
