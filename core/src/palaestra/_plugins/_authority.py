"""The write authority: every registry write is attributed, judged, and (a plugin's batch) stored.

A write is attributed (see :mod:`palaestra._discovery._provenance`) to a plugin, to user
code, or to no one. A plugin may write only ids of its own namespace and the
default-namespace ids it declares (the verdict is the ownership records',
:meth:`~palaestra._discovery._ownership.InstalledPlugins.rival`); a write no code can be
traced to may only add ids.
"""

from __future__ import annotations

from palaestra._base._ids import parse_env_id, plugin_namespace
from palaestra._discovery import PluginRecord
from palaestra._discovery._ownership import LEFT_OUT, InstalledPlugins
from palaestra._discovery._provenance import UNATTRIBUTED, Provenance
from palaestra._env._spec import EnvSpec
from palaestra._registry._store import SpecStore
from palaestra.error import Error, PluginConflictError, RegistrationError

__all__ = ["WriteAuthority"]


class WriteAuthority:
    """Judges every registry write against the ownership records; a plugin's batch it stores itself.

    User code's writes are judged here (:meth:`authorize`) and stored by the registry; a
    plugin's batch of specs is judged whole and stored here (:meth:`admit`), so the loader
    never writes the store.

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

    def admit(self, record: PluginRecord, specs: list[EnvSpec], *, on_demand: bool = False) -> None:
        """Judge a plugin's batch of specs and store it, all or nothing.

        On a load (``on_demand`` false) a default-namespace spec whose name several
        distributions declare, none preferred, is left out (the user picks; the plugin's other
        ids register). On demand (a resolve hook's batch) ids the plugin already registered
        are kept as they are: a resolver may describe the same id again.

        Raises:
            Error: The plugin registers a default-namespace name it does not declare.
            PluginConflictError: It registers an id another distribution owns.
            RegistrationError: It registers outside its namespace or undeclared ids, or mixes
                a versioned and an unversioned env of one name.
        """
        admitted = []
        for spec in specs:
            if on_demand and spec.id in self.store.specs:
                continue
            parts = (spec.namespace, spec.name, spec.version)
            owner = self.declared.rival(
                record, spec.id, parts, self.store.owner(spec.id), loading=not on_demand
            )
            if owner == LEFT_OUT:
                continue
            if owner is not None:
                raise self._taken(record, spec.id, owner)
            admitted.append(spec)
        for spec in admitted:
            self.store.add(spec, record.distribution)

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
        """Raise unless ``record``'s plugin may write ``env_id`` (its own, declared id; ``parts`` parsed).

        Raises:
            PluginConflictError: The id is another distribution's (names both).
            RegistrationError: It is outside the plugin's namespace, or undeclared.
        """
        parts = parse_env_id(env_id) if parts is None else parts
        owner = self.declared.rival(record, env_id, parts, self.store.owner(env_id))
        if owner is not None:
            raise self._taken(record, env_id, owner)

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
