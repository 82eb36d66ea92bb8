"""Who may write which env id into the registry: the ownership rules, applied to each write.

A write is attributed (see :mod:`palaestra._discovery._provenance`) to a plugin, to user
code, or to no one; a plugin may write only ids of its own namespace and the
default-namespace ids it declares, and a write no code can be traced to may only add ids.
The records it judges by (who declares which namespace, name and id) come from the host's
discovery, read through :class:`Declared`.
"""

from __future__ import annotations

from typing import Protocol

from palaestra._base._ids import parse_env_id, plugin_namespace
from palaestra._discovery import PluginRecord
from palaestra._discovery._ownership import DeclaredIds, NameOwners, same_distribution
from palaestra._discovery._provenance import UNATTRIBUTED, Provenance
from palaestra._registry._registry import Registry
from palaestra.error import Error, PluginConflictError, RegistrationError

__all__ = ["Declared", "WriteAuthority"]


class Declared(Protocol):
    """What installed plugins declare, as the host has read it."""

    @property
    def table(self) -> dict[str, list[PluginRecord]]:
        """Plugin namespace -> the plugins declaring it."""

    @property
    def owners(self) -> NameOwners:
        """The owners of default-namespace names."""

    @property
    def catalog(self) -> DeclaredIds:
        """The declared env ids."""

    @property
    def local_namespaces(self) -> set[str]:
        """Namespaces of plugins added in this process (no metadata declares their names)."""


class WriteAuthority:
    """Judges every registry write against the ownership records.

    Args:
        provenance: Attributes a write to a plugin, user code or no one.
        registry: Whose recorded owners an id already has.
        declared: What installed plugins declare.
    """

    def __init__(self, provenance: Provenance, registry: Registry, declared: Declared) -> None:
        self.provenance = provenance
        self.registry = registry
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
        owner = self.registry.owner(env_id)
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
        current = self.registry.owner(env_id)
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
