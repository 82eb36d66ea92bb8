"""Why an id is not in the registry, said as helpfully as Gymnasium's words allow.

Only a ``make``/``spec`` that fails runs this (with ``difflib`` for did-you-mean), so a
process whose ids all exist never loads it. It is handed what it reads: a :class:`Catalogue`
of the registry's specs and ids, and the :class:`Hints` of whoever fills the registry
(install commands, names known without loading, ids another library provides).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from palaestra import error
from palaestra._base._ids import EnvId, get_env_id, namespace_of, without_namespace

if TYPE_CHECKING:
    from palaestra._env._spec import EnvSpec

__all__ = ["Catalogue", "Hints", "explain_missing"]


class Hints(Protocol):
    """What the owner of a registry (the plugin host) can say about an id nothing registered."""

    def missing_hint(self, namespace: str | None, name: str) -> str | None:
        """Text telling the user how to get ``name`` when nothing provides it."""

    def known_names(self) -> set[str]:
        """Default-namespace env names known without loading anything (declared or published)."""

    def declares(self, name: str) -> bool:
        """Whether an installed plugin declares the default-namespace env name ``name``."""

    def provided_elsewhere(self, env_id: str) -> str | None:
        """``ns/env_id`` where a plugin resolving ``ns/...`` on demand provides it."""


class Catalogue:
    """The registry as the explainer sees it: the specs registered so far, and every known id.

    Args:
        specs: Id -> spec of what is registered in this process.
        ids: Every id, declared by installed plugins or registered here.
    """

    def __init__(self, specs: Mapping[str, EnvSpec], ids: list[str]) -> None:
        self.specs = specs
        self.ids = ids

    def named(self, ns: str | None, name: str) -> list[EnvSpec]:
        """The registered specs of ``ns/name``, every version."""
        return [s for s in self.specs.values() if s.namespace == ns and s.name == name]


def explain_missing(
    registry: Catalogue, hints: Hints | None, ns: str | None, name: str, version: int | None
) -> None:
    """Raise the most helpful error for ``ns/name-vN``, which is not registered as given.

    Returns without raising only when the name exists and nothing more specific applies (the
    caller then raises its generic ``UnregisteredEnv``).
    """
    _check_name(registry, hints, ns, name, version)
    if version is None:
        return
    message = (
        f"Environment version `v{version}` for environment `{get_env_id(ns, name, None)}` doesn't exist."
    )
    specs = sorted(registry.named(ns, name), key=lambda s: s.version if s.version is not None else -1)
    unversioned = [s for s in specs if s.version is None]
    if unversioned:
        message += f" It provides the default version `{unversioned[0].id}`."
        if len(specs) == 1:
            raise error.DeprecatedEnv(message)
    versioned = [s for s in specs if s.version is not None]
    if not versioned:
        return
    latest = max(versioned, key=lambda s: s.version or 0)
    assert latest.version is not None
    if version > latest.version:
        listed = ", ".join(f"`v{s.version}`" for s in specs)
        raise error.VersionNotFound(
            f"{message} It provides versioned environments: [ {listed} ].{_in_a_namespace(registry, ns, name, version)}"
        )
    if version < latest.version:
        raise error.DeprecatedEnv(
            f"Environment version v{version} for `{get_env_id(ns, name, None)}` is deprecated. "
            f"Please use `{latest.id}` instead."
        )


def _in_a_namespace(registry: Catalogue, ns: str | None, name: str, version: int) -> str:
    """A namespaced id of this exact name and version (``ALE/Pong-v5`` for ``Pong-v5``), as advice."""
    if ns is not None:
        return ""
    wanted = get_env_id(None, name, version)
    found = sorted(
        env_id
        for env_id in registry.ids
        if namespace_of(env_id) is not None and without_namespace(env_id) == wanted
    )
    return f" Did you mean: `{found[0]}`? (ids of plugins carry their namespace)" if found else ""


def _closest(word: str, candidates: set[str]) -> list[str]:
    return difflib.get_close_matches(word, candidates, n=1)


def _name(env_id: str) -> str | None:
    """The name part of ``env_id`` (None if malformed)."""
    parsed = EnvId.parse_or_none(env_id)
    return None if parsed is None else parsed.name


def _check_namespace(registry: Catalogue, hints: Hints | None, ns: str | None) -> None:
    """Raise a helpful :class:`NamespaceNotFound` when ``ns`` has no envs."""
    if ns is None:
        return
    namespaces = {s.namespace for s in registry.specs.values() if s.namespace is not None}
    namespaces |= {ns for ns in map(namespace_of, registry.ids) if ns is not None}
    if ns in namespaces:
        return
    hint = hints.missing_hint(ns, "") if hints else None
    close = _closest(ns, namespaces)
    if hint:
        suggestion = hint
    elif close:
        suggestion = f"Did you mean: `{close[0]}`?"
    else:
        suggestion = f"Have you installed the proper package for {ns}?"
    raise error.NamespaceNotFound(f"Namespace {ns} not found. {suggestion}")


def _check_name(
    registry: Catalogue, hints: Hints | None, ns: str | None, name: str, version: int | None = None
) -> None:
    """Raise a helpful :class:`NameNotFound` when ``ns/name`` has no envs."""
    _check_namespace(registry, hints, ns)
    names = {s.name for s in registry.specs.values() if s.namespace == ns}
    if name in names:
        return
    namespace_msg = f" in namespace {ns}" if ns else ""
    hint = hints.missing_hint(ns, name) if hints else None
    if hint and ns is not None and not any(s.namespace == ns for s in registry.specs.values()):
        # Declared, yet nothing of it registered (a plugin with no working hook): the namespace
        # is what is missing, as it is for a plugin that declares no ids.
        raise error.NamespaceNotFound(f"Namespace {ns} not found. {hint}")
    if hint:
        raise error.MissingSuiteError(f"Environment `{name}` doesn't exist{namespace_msg}. {hint}")
    suggestion = _suggest(registry, hints, ns, name, names)
    if not suggestion and ns is None and hints is not None:
        # The exact id in a namespace resolved on demand (the Gymnasium bridge's): asked only
        # when nothing here comes close, as asking may import the library behind it.
        elsewhere = hints.provided_elsewhere(get_env_id(None, name, version))
        if elsewhere is not None:
            suggestion = (
                f" Did you mean: `{elsewhere}`? (another library registers "
                f"`{get_env_id(None, name, version)}`; palaestra runs it under that id)"
            )
    raise error.NameNotFound(f"Environment `{name}` doesn't exist{namespace_msg}.{suggestion}")


def _suggest(registry: Catalogue, hints: Hints | None, ns: str | None, name: str, names: set[str]) -> str:
    """The closest known name (with how to get it if not installed), or the namespaced id."""
    registered = set(names)
    if ns is None and hints is not None:
        names = names | hints.known_names()
    close = _closest(name, names)
    if close:
        hint = None
        # How to get the close name, unless an installed plugin provides it already.
        provided = close[0] in registered or (ns is None and hints is not None and hints.declares(close[0]))
        if hints is not None and not provided:
            hint = hints.missing_hint(ns, close[0])
        return f" Did you mean: `{close[0]}`?" + (f" {hint}" if hint else "")
    if ns is None:
        elsewhere = sorted(env_id for env_id in registry.ids if "/" in env_id and _name(env_id) == name)
        if elsewhere:
            return f" Did you mean: `{elsewhere[0]}`? (ids of plugins carry their namespace)"
    return ""
