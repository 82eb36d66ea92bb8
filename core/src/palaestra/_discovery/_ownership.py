"""Who owns which env ids and default-namespace names, decided from metadata alone.

A plugin that registers un-namespaced ids (``CartPole-v1``) declares their names in the
entry-point group ``palaestra.default_names`` (``CartPole = "classic_control"``). So
``make("CartPole-v1")`` loads only the declaring plugin, and two distributions declaring one
name is a conflict whatever their names' order: the name is refused (naming both) until the
user picks a winner, while every other id of both plugins keeps working.

A plugin lists its ids in the entry-point group ``palaestra.env_ids``
(``"CartPole-v1" = "classic_control"``, ``"phys2d/CartPole-v0" = "phys2d"``); ``"ns/*"``
says the plugin resolves ``ns/...`` ids on demand (the Gymnasium bridge's ``gymnasium/*``).
Listing the registry, membership tests and did-you-mean suggestions read :class:`DeclaredIds`, so
none of them imports a plugin, and a plugin that hangs or aborts at import cannot break them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from palaestra._base._ids import parse_env_id, plugin_namespace
from palaestra._discovery import IDS_GROUP, NAMES_GROUP, PluginRecord, wildcard_prefix
from palaestra.error import Error, PluginConflictError

__all__ = ["DeclaredIds", "NameOwners", "same_distribution"]


_KEYS: dict[str, str] = {}  # a plugin load compares its distribution's name once per id


def _key(distribution: str) -> str:
    key = _KEYS.get(distribution)
    if key is None:
        key = _KEYS[distribution] = distribution.lower().replace("_", "-").replace(".", "-")
    return key


def same_distribution(a: str, b: str) -> bool:
    """Whether two distribution names are one (compared as normalised names)."""
    return _key(a) == _key(b)


class NameOwners:
    """The declared owners of default-namespace env names, and the user's preferences.

    Args:
        declared: Env name -> the plugins declaring it (from discovery).
        prefer: Env name -> the distribution to use where several declare it.
    """

    def __init__(self, declared: Mapping[str, list[PluginRecord]], prefer: Mapping[str, str]) -> None:
        self._declared = {
            name: records if len(records) < 2 else self._distinct(records)
            for name, records in declared.items()
        }
        self._prefer = {name: _key(dist) for name, dist in prefer.items()}

    @staticmethod
    def _distinct(records: list[PluginRecord]) -> list[PluginRecord]:
        seen: dict[str, PluginRecord] = {}
        for record in records:
            seen.setdefault(_key(record.distribution), record)
        return list(seen.values())

    def names(self) -> list[str]:
        """Every declared name."""
        return sorted(self._declared)

    def owner(self, name: str) -> PluginRecord | None:
        """The plugin to load for ``name``; None when no installed plugin declares it.

        Raises:
            PluginConflictError: Several distributions declare it and none is preferred.
            Error: The preferred distribution does not declare it.
        """
        records = self._declared.get(name, [])
        if len(records) <= 1:
            return records[0] if records else None
        chosen = self._prefer.get(name)
        if chosen is None:
            raise self._conflict(name, records)
        for record in records:
            if _key(record.distribution) == chosen:
                return record
        raise Error(
            f"PALAESTRA_PREFER (or prefer=) picks {chosen!r} for {name!r}, but only "
            f"{' and '.join(r.distribution for r in records)} declare it"
        )

    def declaring(self, name: str) -> list[str]:
        """The distributions declaring ``name``."""
        return [r.distribution for r in self._declared.get(name, [])]

    def may_register(self, record: PluginRecord, name: str, env_id: str | None = None) -> bool:
        """Whether ``record``'s plugin may register default-namespace ``name`` (as ``env_id``).

        Raises:
            Error: It registers a name it does not declare (the message says how to declare it).
        """
        records = self._declared.get(name, [])
        mine = any(_key(r.distribution) == _key(record.distribution) for r in records)
        if not mine:
            raise Error(
                f"it registers the default-namespace env {name!r} without declaring it; add its ids "
                f'(`"{env_id or name}" = "{record.namespace}"`) to the entry-point group "{IDS_GROUP}" of its '
                f'pyproject.toml (or the name, `{name} = "{record.namespace}"`, to "{NAMES_GROUP}") so '
                "that palaestra knows the owner without importing every plugin"
            )
        try:
            owner = self.owner(name)
        except (PluginConflictError, Error):
            return False  # refused until the user picks one; the other ids still register
        return owner is not None and _key(owner.distribution) == _key(record.distribution)

    def prefer(self, name: str, distribution: str) -> None:
        """Use ``distribution``'s env for default-namespace ``name``."""
        self._prefer[name] = _key(distribution)

    def conflicts(self) -> dict[str, tuple[str, ...]]:
        """Names several distributions declare with no preference: name -> distributions."""
        return {
            name: tuple(r.distribution for r in records)
            for name, records in sorted(self._declared.items())
            if len(records) > 1 and name not in self._prefer
        }

    @staticmethod
    def _conflict(name: str, records: list[PluginRecord]) -> PluginConflictError:
        dists = tuple(r.distribution for r in records)
        # Recommend no one, unless one of them is the published suite that owns the name.
        from palaestra._discovery._suites import reference_distribution  # a conflict's message only

        reference = [d for d in dists if _key(d) == _key(reference_distribution(name) or "")]
        pick = reference[0] if reference else "<distribution>"
        advice = (
            f"{reference[0]} is palaestra's published suite for it; to use it: "
            if reference
            else "Check which one you trust, then pick it: "
        )
        return PluginConflictError(
            f"The environment name {name!r} is declared by more than one distribution: "
            f"{' and '.join(dists)}. Uninstall one, or pick one. {advice}"
            f"PALAESTRA_PREFER={name}={pick} (or PluginHost(prefer={{{name!r}: {pick!r}}})); "
            "their namespaced ids work either way.",
            namespace=None,
            distributions=dists,
        )


class DeclaredIds:
    """Declared env ids and their owners.

    Args:
        declared: Each declaring plugin with its ids (from discovery).
        owners: Who owns each default-namespace name (a name several distributions declare
            and nobody picked is left out: it cannot be made until the user picks).
    """

    def __init__(self, declared: Iterable[tuple[PluginRecord, tuple[str, ...]]], owners: NameOwners) -> None:
        self._declared = list(declared)
        self._owners = owners
        # plugin namespace -> the ids it declares: all a plugin's own load needs (cheap)
        self._claimed: dict[str, set[str]] = {}
        for record, ids in self._declared:
            self._claimed.setdefault(record.namespace, set()).update(ids)
        self._ids: dict[str, PluginRecord] | None = None
        self._wildcards: dict[str, PluginRecord] = {}

    @property
    def ids(self) -> dict[str, PluginRecord]:
        """Every declared id -> the plugin owning it (built on first use: listing needs it)."""
        if self._ids is None:
            self._ids = {}
            for record, ids in self._declared:
                for env_id in ids:
                    self._add(record, env_id, self._owners)
        return self._ids

    @property
    def wildcards(self) -> dict[str, PluginRecord]:
        """``"ns/"`` prefixes whose ids a plugin resolves on demand -> that plugin."""
        self.ids  # noqa: B018  # builds both tables
        return self._wildcards

    def _add(self, record: PluginRecord, env_id: str, owners: NameOwners) -> None:
        prefix = wildcard_prefix(env_id)
        if prefix is not None:
            if plugin_namespace(prefix) == record.namespace:
                self._wildcards[prefix] = record
            return
        try:
            ns, name, _ = parse_env_id(env_id)
        except Error:
            return  # a malformed declaration lists nothing; registering it fails by name
        if ns is not None:
            if plugin_namespace(ns) == record.namespace:  # no claims on another's namespace
                self._ids.setdefault(env_id, record)  # type: ignore[union-attr]
            return
        try:
            owner = owners.owner(name)
        except (PluginConflictError, Error):
            return
        if owner is not None and same_distribution(owner.distribution, record.distribution):
            self._ids.setdefault(env_id, owner)  # type: ignore[union-attr]

    def declares_ids(self, namespace: str) -> bool:
        """Whether plugin ``namespace`` declares its ids (a wildcard counts)."""
        return namespace in self._claimed

    def declared(self, env_id: str, owners: NameOwners, installed: Iterable[str]) -> bool | None:
        """Whether ``env_id`` is declared; ``None`` when only loading its plugin can tell.

        Args:
            env_id: The id asked about.
            owners: Default-namespace name owners.
            installed: Namespaces of installed plugins.
        """
        if env_id in self.ids:
            return True
        try:
            ns, name, _ = parse_env_id(env_id)
        except Error:
            return False
        if ns is None:
            try:
                owner = owners.owner(name)
            except (PluginConflictError, Error):
                return None  # making it says why
            if owner is None:
                return False
            return False if owner.namespace in self._claimed else None
        if plugin_namespace(ns) not in set(installed):
            return False
        if any(env_id.startswith(prefix) for prefix in self.wildcards):
            return None
        return False if plugin_namespace(ns) in self._claimed else None

    def check_declared(self, record: PluginRecord, env_id: str) -> None:
        """Refuse an id in ``record``'s namespace that the plugin's declarations leave out.

        Raises:
            Error: The plugin declares its ids, and not this one (says what to add).
        """
        claimed = self._claimed.get(record.namespace)
        if claimed is None or env_id in claimed:
            return
        if any(env_id.startswith(prefix) for c in claimed if (prefix := wildcard_prefix(c)) is not None):
            return
        ns = parse_env_id(env_id)[0]
        namespace = record.namespace if ns is None else plugin_namespace(ns)
        raise Error(
            f'it registers {env_id!r} without declaring it; add `"{env_id}" = "{record.namespace}"` '
            f'to the entry-point group "{IDS_GROUP}" of its pyproject.toml (or `"{namespace}/*"` '
            "for ids it resolves on demand), so that listing the registry needs no plugin import"
        )
