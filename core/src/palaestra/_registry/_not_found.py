"""Why an id is not in the registry, said as helpfully as Gymnasium's words allow.

Only a ``make``/``spec`` that fails runs this (with ``difflib`` for did-you-mean), so a
process whose ids all exist never loads it. It reads the registry's own tables: it is the
registry's error path, kept apart.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from palaestra import error
from palaestra._base._ids import EnvId, get_env_id, namespace_of, without_namespace

if TYPE_CHECKING:
    from palaestra._registry._registry import Registry

__all__ = ["explain_missing"]


def explain_missing(registry: Registry, ns: str | None, name: str, version: int | None) -> None:
    """Raise the most helpful error for ``ns/name-v{version}``, which is not registered as given.

    Returns without raising only when the name exists and nothing more specific applies (the
    caller then raises its generic ``UnregisteredEnv``).
    """
    _check_name(registry, ns, name, version)
    if version is None:
        return
    message = (
        f"Environment version `v{version}` for environment `{get_env_id(ns, name, None)}` doesn't exist."
    )
    specs = sorted(registry._specs_named(ns, name), key=lambda s: s.version if s.version is not None else -1)
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


def _in_a_namespace(registry: Registry, ns: str | None, name: str, version: int) -> str:
    """A namespaced id of this exact name and version (``ALE/Pong-v5`` for ``Pong-v5``), as advice."""
    if ns is not None:
        return ""
    wanted = get_env_id(None, name, version)
    found = sorted(
        env_id
        for env_id in registry._ids()
        if namespace_of(env_id) is not None and without_namespace(env_id) == wanted
    )
    return f" Did you mean: `{found[0]}`? (ids of plugins carry their namespace)" if found else ""


def _closest(word: str, candidates: set[str]) -> list[str]:
    return difflib.get_close_matches(word, candidates, n=1)


def _name(env_id: str) -> str | None:
    """The name part of ``env_id`` (None if malformed)."""
    parsed = EnvId.parse_or_none(env_id)
    return None if parsed is None else parsed.name


def _check_namespace(registry: Registry, ns: str | None) -> None:
    """Raise a helpful :class:`NamespaceNotFound` when ``ns`` has no envs."""
    if ns is None:
        return
    namespaces = {s.namespace for s in registry._specs.values() if s.namespace is not None}
    namespaces |= {ns for ns in map(namespace_of, registry._ids()) if ns is not None}
    if ns in namespaces:
        return
    loader = registry._loader
    hint = loader.missing_hint(ns, "") if loader else None
    close = _closest(ns, namespaces)
    if hint:
        suggestion = hint
    elif close:
        suggestion = f"Did you mean: `{close[0]}`?"
    else:
        suggestion = f"Have you installed the proper package for {ns}?"
    raise error.NamespaceNotFound(f"Namespace {ns} not found. {suggestion}")


def _check_name(registry: Registry, ns: str | None, name: str, version: int | None = None) -> None:
    """Raise a helpful :class:`NameNotFound` when ``ns/name`` has no envs."""
    _check_namespace(registry, ns)
    names = {s.name for s in registry._specs.values() if s.namespace == ns}
    if name in names:
        return
    namespace_msg = f" in namespace {ns}" if ns else ""
    loader = registry._loader
    hint = loader.missing_hint(ns, name) if loader else None
    if hint and ns is not None and not any(s.namespace == ns for s in registry._specs.values()):
        # Declared, yet nothing of it registered (a plugin with no working hook): the namespace
        # is what is missing, as it is for a plugin that declares no ids.
        raise error.NamespaceNotFound(f"Namespace {ns} not found. {hint}")
    if hint:
        raise error.MissingSuiteError(f"Environment `{name}` doesn't exist{namespace_msg}. {hint}")
    suggestion = _suggest(registry, ns, name, names)
    if not suggestion and ns is None and loader is not None:
        # The exact id in a namespace resolved on demand (the Gymnasium bridge's): asked only
        # when nothing here comes close, as asking may import the library behind it.
        elsewhere = loader.provided_elsewhere(get_env_id(None, name, version))
        if elsewhere is not None:
            suggestion = (
                f" Did you mean: `{elsewhere}`? (another library registers "
                f"`{get_env_id(None, name, version)}`; palaestra runs it under that id)"
            )
    raise error.NameNotFound(f"Environment `{name}` doesn't exist{namespace_msg}.{suggestion}")


def _suggest(registry: Registry, ns: str | None, name: str, names: set[str]) -> str:
    """The closest known name (with how to get it if not installed), or the namespaced id."""
    registered = set(names)
    loader = registry._loader
    if ns is None and loader is not None:
        names = names | loader.known_names()
    close = _closest(name, names)
    if close:
        hint = None
        # How to get the close name, unless an installed plugin provides it already.
        provided = close[0] in registered or (ns is None and loader is not None and loader.declares(close[0]))
        if loader is not None and not provided:
            hint = loader.missing_hint(ns, close[0])
        return f" Did you mean: `{close[0]}`?" + (f" {hint}" if hint else "")
    if ns is None:
        elsewhere = sorted(env_id for env_id in registry._ids() if "/" in env_id and _name(env_id) == name)
        if elsewhere:
            return f" Did you mean: `{elsewhere[0]}`? (ids of plugins carry their namespace)"
    return ""
