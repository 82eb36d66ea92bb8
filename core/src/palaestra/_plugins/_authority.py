"""Who may write which env id: the ownership records discovery read, and the rules applied to each write.

:class:`InstalledPlugins` holds what installed distributions declare (read from metadata
once, on first need; no plugin code runs): plugin namespaces, who owns each
default-namespace name, the declared ids. :class:`WriteAuthority` judges every write
against them. A write is attributed (see :mod:`palaestra._discovery._provenance`) to a
plugin, to user code, or to no one; a plugin may write only ids of its own namespace and the
default-namespace ids it declares, and a write no code can be traced to may only add ids.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

from palaestra._base._ids import parse_env_id, plugin_namespace
from palaestra._discovery._cache import still_declared
from palaestra._discovery._discovery import (
    Declarations,
    PluginRecord,
    allowed_namespaces,
    autoload_disabled,
    discover,
    preferred_owners,
    switched_off,
)
from palaestra._discovery._ownership import DeclaredIds, NameOwners, same_distribution
from palaestra._discovery._provenance import UNATTRIBUTED, Provenance
from palaestra._registry._store import SpecStore
from palaestra.error import Error, PluginConflictError, RegistrationError

__all__ = ["BUILTIN_NAMESPACE", "InstalledPlugins", "WriteAuthority"]

BUILTIN_NAMESPACE = "palaestra"  # the core's own plugin (see palaestra._plugins._builtin)


class InstalledPlugins:
    """What installed plugins declare, read from their metadata on first need.

    Takes the discovery settings :class:`~palaestra.PluginHost` documents and hands on
    (``None`` for each follows its environment variable).
    """

    def __init__(
        self,
        autoload: bool | None = None,
        allow: Sequence[str] | None = None,
        search_path: Sequence[str] | None = None,
        prefer: Mapping[str, str] | None = None,
    ) -> None:
        self._autoload = autoload
        self._allow = None if allow is None else frozenset(allow)
        self._search_path = search_path
        self._prefer = None if prefer is None else dict(prefer)
        self._declared: Declarations | None = None
        self._owners: NameOwners | None = None
        self._catalog: DeclaredIds | None = None
        # Namespaces of plugins added in this process (no metadata declares their names).
        self.local_namespaces: set[str] = {BUILTIN_NAMESPACE}

    @property
    def declarations(self) -> Declarations:
        """What installed distributions declare (read once)."""
        if self._declared is None:
            self._declared = self._discover()
        return self._declared

    @property
    def table(self) -> dict[str, list[PluginRecord]]:
        """Declared plugins by namespace."""
        return self.declarations.plugins

    @property
    def owners(self) -> NameOwners:
        """The declared owners of default-namespace env names."""
        if self._owners is None:
            prefer = preferred_owners() if self._prefer is None else self._prefer
            self._owners = NameOwners(self.declarations.names, prefer)
        return self._owners

    @property
    def catalog(self) -> DeclaredIds:
        """The env ids installed plugins declare."""
        if self._catalog is None:
            self._catalog = DeclaredIds(self.declarations.ids, self.owners)
        return self._catalog

    def installed_records(self) -> list[PluginRecord]:
        """The discovered plugins (not those added in this process)."""
        return [r for ns, rs in self.table.items() if ns not in self.local_namespaces for r in rs]

    def prefer(self, name: str, distribution: str) -> None:
        """Take default-namespace env ``name`` from ``distribution`` where several declare it."""
        self.owners.prefer(name, distribution)
        self._catalog = None  # the name's ids now have an owner to list them under

    def declared_ids(self) -> dict[str, str]:
        """Every env id installed plugins declare -> its plugin's namespace."""
        return {env_id: record.namespace for env_id, record in self.catalog.ids.items()}

    def declared(self, env_id: str) -> bool | None:
        """Whether an installed plugin declares ``env_id``; ``None`` when only loading can tell."""
        return self.catalog.declared(env_id, self.owners, self.table)

    def missing_module(self, record: PluginRecord) -> str:
        """Why ``record``'s module cannot be found, checked against a fresh scan (see :func:`still_declared`)."""
        if self._search_path is not None:  # an explicit path is never cached
            return f"distribution {record.distribution} is declared but its module {record.module!r} is not installed"
        declared, cache = still_declared(list(sys.path), record)
        if not declared:
            return (
                f"the discovery cache ({cache}) named module {record.module!r} of distribution "
                f"{record.distribution}, which is no longer installed; the stale cache was removed, "
                "so the next process reads the installed plugins afresh"
            )
        return (
            f"distribution {record.distribution}'s metadata is installed but not its module "
            f"{record.module!r}: reinstall or uninstall {record.distribution}"
        )

    def switched_off(self, namespace: str) -> str | None:
        """Why the installed plugin ``namespace`` was left out of discovery, if it was."""
        return switched_off(namespace, autoload=self._autoload, allow=self._allow, path=self._search_path)

    def _discover(self) -> Declarations:
        autoload = (not autoload_disabled()) if self._autoload is None else self._autoload
        if not autoload:
            return Declarations()
        allow = allowed_namespaces() if self._allow is None else self._allow
        found = discover(self._search_path)
        if allow is not None:
            found = Declarations(
                {ns: records for ns, records in found.plugins.items() if ns in allow},
                {
                    name: kept
                    for name, records in found.names.items()
                    if (kept := [r for r in records if r.namespace in allow])
                },
                [(record, ids) for record, ids in found.ids if record.namespace in allow],
                found.files,
                found.core_version,
                found.retired,
                {name: r for name, r in found.vectorizers.items() if r.namespace in allow},
                found.incompatible,
            )
        return found


class WriteAuthority:
    """Judges every registry write against the ownership records.

    Args:
        provenance: Attributes a write to a plugin, user code or no one.
        store: Whose recorded owners an id already has.
        declared: What installed plugins declare.
    """

    def __init__(self, provenance: Provenance, store: SpecStore, declared: InstalledPlugins) -> None:
        self.provenance = provenance
        self.store = store
        self.declared = declared

    def authorize(self, env_id: str) -> str | None:
        """Who is writing ``env_id`` into the registry: a plugin's distribution, or None (user code).

        See :mod:`palaestra._discovery._provenance` for how a write is attributed.

        Raises:
            PluginConflictError: A plugin writes an id another distribution owns (names both).
            RegistrationError: A plugin writes an id outside its namespace, or one it does not
                declare.
        """
        record = self.provenance.plugin()
        if record is None:
            return None
        if record is UNATTRIBUTED:
            self.check_unattributed(env_id)
            return None
        self.check_write(record, env_id)
        return record.distribution

    def check_unattributed(self, env_id: str) -> None:
        """Raise if ``env_id`` is a plugin's: a write no code can be traced to may only add ids."""
        owner = self.store.owner(env_id)
        if owner is None:
            try:
                ns, name, _ = parse_env_id(env_id)
            except Error:
                return  # malformed: the registry's own checks name it
            if ns is not None:
                owner = next(
                    (r.distribution for r in self.declared.table.get(plugin_namespace(ns), [])), None
                )
            else:
                owner = " and ".join(self.declared.owners.declaring(name)) or None
        if owner is not None:
            raise RegistrationError(
                f"A write of {env_id!r} came from code that cannot be attributed to a module (a "
                "thread or executor started on palaestra's own function, or exec'd code), and "
                f"{env_id!r} belongs to {owner}, so its env stays in place. To override it from your "
                "own code, call palaestra.register from a function of your script or module (a "
                "thread may run that function)."
            )

    def check_write(
        self, record: PluginRecord, env_id: str, parts: tuple[str | None, str, int | None] | None = None
    ) -> None:
        """Raise unless ``record``'s plugin may write ``env_id`` (its own, declared id; ``parts`` parsed)."""
        ns, name, _ = parse_env_id(env_id) if parts is None else parts
        current = self.store.owner(env_id)
        if current is not None and not same_distribution(current, record.distribution):
            raise self._taken(record, env_id, current)
        if ns is not None:
            namespace = plugin_namespace(ns)
            if namespace not in self._namespaces_of(record):
                others = self.declared.table.get(namespace)
                if others:
                    raise self._taken(record, env_id, others[0].distribution)
                raise RegistrationError(
                    f"Plugin {record.namespace!r} ({record.distribution}) may only register ids in "
                    f"its own namespace (or one nested under it), not {env_id!r}"
                )
        elif record.namespace not in self.declared.local_namespaces:
            rivals = [
                d
                for d in self.declared.owners.declaring(name)
                if not same_distribution(d, record.distribution)
            ]
            try:
                mine = self.declared.owners.may_register(record, name, env_id)
            except Error as e:
                if rivals:  # another distribution's name, not merely an undeclared one
                    raise self._taken(record, env_id, " and ".join(rivals)) from None
                raise RegistrationError(f"Plugin {record.namespace!r} ({record.distribution}): {e}") from None
            if not mine:
                raise self._taken(record, env_id, " and ".join(rivals) or "another distribution")
        if record.namespace not in self.declared.local_namespaces:
            try:
                self.declared.catalog.check_declared(record, env_id)
            except Error as e:
                raise RegistrationError(f"Plugin {record.namespace!r} ({record.distribution}): {e}") from None

    def _namespaces_of(self, record: PluginRecord) -> set[str]:
        """The plugin namespaces of ``record``'s distribution."""
        found = {record.namespace}
        for namespace, records in self.declared.table.items():
            if any(same_distribution(r.distribution, record.distribution) for r in records):
                found.add(namespace)
        return found

    @staticmethod
    def _taken(record: PluginRecord, env_id: str, owner: str) -> PluginConflictError:
        return PluginConflictError(
            f"Plugin {record.namespace!r} ({record.distribution}) tried to register {env_id!r}, which "
            f"belongs to {owner}. A plugin may register only ids of its own namespace and the "
            f"default-namespace ids it declares; {owner}'s env stays in place. If {record.distribution} "
            "is meant to replace it, uninstall one of them (or, for a name both declare, pick one "
            "with PALAESTRA_PREFER).",
            namespace=record.namespace,
            distributions=(owner, record.distribution),
        )
