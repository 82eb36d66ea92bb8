"""Who owns which env ids and default-namespace names, decided from metadata alone.

:class:`InstalledPlugins` holds what installed distributions declare (read once, on first
need; no plugin code runs) and gives the verdict on a plugin's write (:meth:`~InstalledPlugins.rival`);
:class:`NameOwners` and :class:`DeclaredIds` are its records of names and ids.

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

from collections.abc import Iterable, Mapping, Sequence

from palaestra._base._ids import parse_env_id, plugin_namespace
from palaestra._discovery import IDS_GROUP, NAMES_GROUP, Declarations, PluginRecord, wildcard_prefix
from palaestra._discovery._discovery import (
    allowed_namespaces,
    autoload_disabled,
    discover,
    preferred_owners,
    switched_off,
)
from palaestra.error import Error, PluginConflictError, RegistrationError

__all__ = [
    "BUILTIN_NAMESPACE",
    "LEFT_OUT",
    "DeclaredIds",
    "InstalledPlugins",
    "NameOwners",
    "same_distribution",
]

BUILTIN_NAMESPACE = "palaestra"  # the core's own plugin (see palaestra._plugins._builtin)
#: :meth:`InstalledPlugins.rival`'s word for an id a loading plugin leaves out, unregistered.
LEFT_OUT = ""


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

    def taken_by(self, record: PluginRecord, name: str, env_id: str) -> str | None:
        """Who else owns default-namespace ``name``, or ``None`` when ``record``'s plugin may write ``env_id``.

        Raises:
            Error: It registers a name nobody declares (the message says how to declare it).
        """
        rivals = [d for d in self.declaring(name) if _key(d) != _key(record.distribution)]
        try:
            mine = self.may_register(record, name, env_id)
        except Error:
            if rivals:  # another distribution's name, not merely an undeclared one
                return " and ".join(rivals)
            raise
        return None if mine else (" and ".join(rivals) or "another distribution")

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
        # start-up: a conflict's message (1.7 ms)
        from palaestra._discovery._suites import reference_distribution

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
        self.search_path = search_path
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

    def switched_off(self, namespace: str) -> str | None:
        """Why the installed plugin ``namespace`` was left out of discovery, if it was."""
        return switched_off(namespace, autoload=self._autoload, allow=self._allow, path=self.search_path)

    def rival(
        self,
        record: PluginRecord,
        env_id: str,
        parts: tuple[str | None, str, int | None],
        current: str | None,
        *,
        loading: bool = False,
    ) -> str | None:
        """Who owns ``env_id`` rather than ``record``'s plugin; ``None`` when the plugin may write it.

        Args:
            record: The plugin writing.
            env_id: The id it writes.
            parts: ``env_id`` parsed: namespace, name, version.
            current: The distribution that wrote the id so far (``None``: nobody, or user code).
            loading: The plugin is being loaded: a default-namespace name it declares but may
                not take now (several declare it and none is preferred, or another is
                preferred) is :data:`LEFT_OUT` (the user picks; its other ids register).

        Raises:
            Error: On a load, the plugin registers a default-namespace name it does not declare.
            RegistrationError: The id is outside the plugin's namespace and nobody's, or the
                plugin does not declare it (the message says what to declare).
        """
        ns, name, _ = parts
        local = record.namespace in self.local_namespaces
        if loading and ns is None and not local and not self.owners.may_register(record, name, env_id):
            return LEFT_OUT
        if current is not None and not same_distribution(current, record.distribution):
            return current
        if ns is not None:
            namespace = plugin_namespace(ns)
            if namespace not in self._namespaces_of(record):
                others = self.table.get(namespace)
                if others:
                    return others[0].distribution
                raise RegistrationError(
                    f"Plugin {record.namespace!r} ({record.distribution}) may only register ids in "
                    f"its own namespace (or one nested under it), not {env_id!r}"
                )
        elif not local:
            try:
                owner = self.owners.taken_by(record, name, env_id)
            except Error as e:
                raise RegistrationError(f"Plugin {record.namespace!r} ({record.distribution}): {e}") from None
            if owner is not None:
                return owner
        if not local:
            try:
                self.catalog.check_declared(record, env_id)
            except Error as e:
                raise RegistrationError(f"Plugin {record.namespace!r} ({record.distribution}): {e}") from None
        return None

    def _namespaces_of(self, record: PluginRecord) -> set[str]:
        """The plugin namespaces of ``record``'s distribution."""
        found = {record.namespace}
        for namespace, records in self.table.items():
            if any(same_distribution(r.distribution, record.distribution) for r in records):
                found.add(namespace)
        return found

    def _discover(self) -> Declarations:
        autoload = (not autoload_disabled()) if self._autoload is None else self._autoload
        if not autoload:
            return Declarations()
        allow = allowed_namespaces() if self._allow is None else self._allow
        found = discover(self.search_path)
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
