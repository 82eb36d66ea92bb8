"""The env ids installed plugins declare, answered from metadata (no plugin imported).

A plugin lists its ids in the entry-point group ``palaestra.env_ids``
(``"CartPole-v1" = "classic_control"``, ``"phys2d/CartPole-v0" = "phys2d"``); ``"ns/*"``
says the plugin resolves ``ns/...`` ids on demand (the Gymnasium bridge's ``gymnasium/*``).
Listing the registry, membership tests and did-you-mean suggestions read this catalog, so
none of them imports a plugin, and a plugin that hangs or aborts at import cannot break them.
"""

from __future__ import annotations

from collections.abc import Iterable

from palaestra._base._ids import parse_env_id, plugin_namespace
from palaestra._discovery._owners import NameOwners, same_distribution
from palaestra._discovery._scan import IDS_GROUP, PluginRecord, wildcard_prefix
from palaestra.error import Error, PluginConflictError

__all__ = ["DeclaredIds"]


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
