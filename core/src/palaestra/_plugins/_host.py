"""PluginHost: the front of the plugin machinery, and the process-wide default host.

The host puts three parts together and is what the rest of palaestra talks to: the
ownership records and the write authority (:mod:`._authority`), the plugin loader
(:mod:`._loading`), and the registry over its passive store. Of its own it has the
discovery views the CLI lists, named lookups of vectorizers and wrapper sets, and the
hints a failed lookup gives. The default host is created on first use (never at import).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Mapping, Sequence
from types import ModuleType
from typing import Any

from palaestra._base._ids import EnvId, plugin_namespace
from palaestra._base._lazy import load_env_creator
from palaestra._discovery._discovery import Declarations, PluginRecord
from palaestra._discovery._ownership import DeclaredIds, NameOwners
from palaestra._discovery._provenance import Provenance
from palaestra._env._spec import WrapperSpec
from palaestra._plugins._authority import BUILTIN_NAMESPACE, InstalledPlugins, WriteAuthority
from palaestra._plugins._loading import PluginLoader
from palaestra._registry._registry import Registry
from palaestra._registry._store import SpecStore
from palaestra.error import Error, PluginConflictError, PluginLoadError

__all__ = ["BUILTIN_NAMESPACE", "PluginHost", "get_host", "use_host"]


class PluginHost:
    """Discovers plugins from entry points and loads each one on first use.

    Args:
        autoload: Discover installed plugins. ``None`` follows
            ``PALAESTRA_DISABLE_PLUGIN_AUTOLOAD``.
        allow: Namespaces that may be loaded. ``None`` follows ``PALAESTRA_PLUGINS``
            (unset means all).
        search_path: Directories to discover distributions in instead of ``sys.path``.
        prefer: Default-namespace env name -> the distribution to take it from where several
            declare it. ``None`` follows ``PALAESTRA_PREFER`` (``CartPole=dist,...``).
    """

    def __init__(
        self,
        *,
        autoload: bool | None = None,
        allow: Sequence[str] | None = None,
        search_path: Sequence[str] | None = None,
        prefer: Mapping[str, str] | None = None,
    ) -> None:
        self.installed = InstalledPlugins(autoload, allow, search_path, prefer)
        store = SpecStore()
        self.provenance = Provenance(self.installed.installed_records)
        self.authority = WriteAuthority(self.provenance, store, self.installed)
        self.loader = PluginLoader(self.installed, store, self.authority, self.provenance)
        self.registry = Registry(store, self.loader, self.authority.authorize, hints=self)
        self.current_namespace: str | None = None

    # -- discovery views --------------------------------------------------------------

    @property
    def declarations(self) -> Declarations:
        """What installed distributions declare, read from metadata once (no plugin code runs)."""
        return self.installed.declarations

    @property
    def table(self) -> dict[str, list[PluginRecord]]:
        """Declared plugins by namespace."""
        return self.installed.table

    @property
    def owners(self) -> NameOwners:
        """The declared owners of default-namespace env names."""
        return self.installed.owners

    @property
    def catalog(self) -> DeclaredIds:
        """The env ids installed plugins declare (read from metadata; no plugin imported)."""
        return self.installed.catalog

    @property
    def local_namespaces(self) -> set[str]:
        """Namespaces of plugins added in this process with :meth:`add_plugin` (and the core's own)."""
        return self.installed.local_namespaces

    @property
    def vectorizers(self) -> dict[str, tuple[str, str]]:
        """Registered vectorizers: name -> (``"module:callable"``, the distribution registering it)."""
        return self.loader.vectorizers

    @property
    def wrapper_sets(self) -> dict[str, tuple[tuple[WrapperSpec, ...], str]]:
        """Registered wrapper sets: name -> (their wrapper specs, the distribution registering it)."""
        return self.loader.wrapper_sets

    def plugins(self) -> dict[str, list[PluginRecord]]:
        """Every discovered plugin, by namespace (conflicting claims included)."""
        return dict(self.table)

    def failures(self) -> dict[str, PluginLoadError | PluginConflictError]:
        """Plugins that failed to load so far, by namespace."""
        return dict(self.loader.failures)

    def conflicts(self) -> dict[str, tuple[str, ...]]:
        """Default-namespace env names declared by several distributions, none preferred."""
        return self.owners.conflicts()

    def declared_ids(self) -> dict[str, str]:
        """Every env id installed plugins declare -> its plugin's namespace (no plugin imported)."""
        return self.installed.declared_ids()

    def undeclared_plugins(self) -> dict[str, PluginRecord]:
        """Installed plugins that declare no env ids and are not loaded: namespace -> record.

        Listing cannot show their ids without importing them (which it never does).
        """
        vectorizing = {record.namespace for record in self.declarations.vectorizers.values()}
        return {
            ns: records[0]
            for ns, records in self.table.items()
            if ns not in self.local_namespaces
            and ns not in self.loader.loaded
            and not self.catalog.declares_ids(ns)
            and ns not in vectorizing  # it declares what it provides
        }

    def prefer(self, name: str, distribution: str) -> None:
        """Take default-namespace env ``name`` from ``distribution`` where several declare it.

        Call it before the name is first made.

        Raises:
            Error: The name was already registered by another distribution.
        """
        store = self.registry.store
        owners = {store.owner(s.id) for s in store.named(None, name)}
        owners.discard(None)
        if owners and owners != {distribution}:
            raise Error(
                f"{name!r} is already registered from {owners.pop()}; call prefer() before its first make"
            )
        self.installed.prefer(name, distribution)

    # -- loading ----------------------------------------------------------------------

    def load_namespace(self, namespace: str) -> None:
        """Load the plugin owning ``namespace`` (see :meth:`PluginLoader.load_namespace`)."""
        self.loader.load_namespace(namespace)

    def load_owner(self, name: str) -> None:
        """Load the plugin declaring default-namespace env ``name`` (see :meth:`PluginLoader.load_owner`)."""
        self.loader.load_owner(name)

    def add_plugin(self, module: ModuleType | str, namespace: str, distribution: str = "<local>") -> None:
        """Load a plugin module directly, without an entry point (tests, notebooks).

        Args:
            module: The module object or its import name.
            namespace: The namespace it gets.
            distribution: A label used in messages and conflict checks.
        """
        name = module if isinstance(module, str) else module.__name__
        record = PluginRecord(namespace, name, distribution, "")
        self.loader.add_module(record, None if isinstance(module, str) else module)

    # -- named lookups ----------------------------------------------------------------

    def _lookup(
        self,
        kind: str,
        table: dict[str, tuple[Any, str]],
        name: str,
        error_class: str,
        also_known: tuple[str, ...] = (),
    ) -> Any:
        """``table[name]``, loading plugin ``ns`` for ``ns/...`` names; a did-you-mean error if unknown.

        ``error_class`` names the ``palaestra.error`` class to raise (defined only when raised);
        ``also_known`` are names the caller handles itself, listed in the error.
        """
        if not isinstance(name, str):
            raise TypeError(f"{kind} names are strings, got {name!r}")
        if "/" in name:
            self.loader.load_namespace(plugin_namespace(name))
        entry = table.get(name)
        if entry is None:
            import difflib  # an error path: loaded only to suggest a name

            from palaestra import error as errors
            from palaestra._discovery._suites import REFERENCE_SUITES, install_command

            error = getattr(errors, error_class)
            namespace = plugin_namespace(name) if "/" in name else None
            if namespace in REFERENCE_SUITES and namespace not in self.table:
                raise error(
                    f"The {kind} {name!r} comes with the {REFERENCE_SUITES[namespace][1]} plugin, which "
                    f"is not installed. Install it with: {install_command(namespace)}"
                )
            known = sorted([*table, *also_known])
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            if kind == "vectorizer":  # Gymnasium's words first
                lead = f"Invalid vectorization mode: {name!r}, valid modes: {known}."
            else:
                lead = f"Unknown {kind} {name!r}. Known: {known}."
            raise error(f"{lead}{hint} Plugin {kind}s are named 'namespace/name'.")
        return entry[0]

    def vectorizer(self, name: str) -> Any:
        """The factory callable of vectorizer ``name`` (``"sync"``, ``"async"`` or ``"ns/name"``).

        Loads only the plugin owning ``ns``.

        Raises:
            VectorizerNotFound: No such vectorizer; the message lists the known ones.
            PluginLoadError: The owning plugin is broken.
        """
        factory = self._lookup(
            "vectorizer", self.vectorizers, name, "VectorizerNotFound", ("vector_entry_point",)
        )
        return load_env_creator(factory)

    def wrapper_set(self, name: str) -> tuple[WrapperSpec, ...]:
        """The wrapper specs of set ``name`` (``"atari"`` or ``"ns/name"``), innermost first.

        Loads only the plugin owning ``ns``.

        Raises:
            WrapperSetNotFound: No such set; the message lists the known ones.
            PluginLoadError: The owning plugin is broken.
        """
        return self._lookup("wrapper set", self.wrapper_sets, name, "WrapperSetNotFound")  # type: ignore[no-any-return]

    # -- hints for a failed lookup (the not-found explainer's Hints) ------------------

    def known_names(self) -> set[str]:
        """Default-namespace env names declared by installed plugins or published suites."""
        from palaestra._discovery._suites import published_names

        return set(self.owners.names()) | published_names()

    def declares(self, name: str) -> bool:
        """Whether an installed plugin declares the default-namespace env name ``name``."""
        return name in self.owners.names()

    def provided_elsewhere(self, env_id: str) -> str | None:
        """``ns/env_id`` where a plugin resolving ``ns/...`` on demand (the bridge's ``gymnasium/``) has it.

        For the not-found message only: asking may import the plugin and what it bridges.
        """
        for prefix in sorted(self.catalog.wildcards):
            candidate = f"{prefix}{env_id}"
            try:
                self.loader.resolve(EnvId.parse(candidate))
            except Exception:  # a broken or unwilling plugin: no suggestion from it
                continue
            if candidate in self.registry.store.specs:
                return candidate
        return None

    def missing_hint(self, namespace: str | None, name: str) -> str | None:
        """Why nothing provides the id: a plugin switched off, a suite to install, a failed plugin."""
        from palaestra._discovery._suites import install_hint, suite_of

        owner = suite_of(namespace, name)
        if owner is not None and owner not in self.table:
            reason = self.installed.switched_off(owner)
            if reason is not None:
                return reason
        hint = install_hint(namespace, name, set(self.table))
        if hint is not None:
            return hint
        if namespace is not None and plugin_namespace(namespace) in self.loader.hookless:
            return self.hookless_hint(plugin_namespace(namespace))
        relevant = [f for ns, f in self.loader.failures.items() if namespace in (None, ns)]
        if relevant:
            broken = "; ".join(str(f) for f in relevant)
            return f"It may be provided by a plugin that failed to load: {broken}"
        return None

    def hookless_hint(self, namespace: str) -> str | None:
        """Why the installed plugin ``namespace`` provides nothing (None if it implements hooks)."""
        reason = self.loader.hookless.get(namespace)
        if reason is None:
            return None
        record = self.loader.loaded.get(namespace)
        owner = f" ({record.distribution})" if record else ""
        end = "" if reason.endswith(("?", ".")) else "."
        return f"The plugin {namespace!r}{owner} is installed but implements no palaestra hook: {reason}{end}"

    # -- user registrations -----------------------------------------------------------

    @contextlib.contextmanager
    def namespace(self, ns: str) -> Iterator[None]:
        """Within the block, :func:`palaestra.register` places ids in namespace ``ns``."""
        previous = self.current_namespace
        self.current_namespace = ns
        try:
            yield
        finally:
            self.current_namespace = previous


# -- the process-wide default host ---------------------------------------------------

_lock = threading.Lock()
_host: PluginHost | None = None


def get_host() -> PluginHost:
    """The default :class:`PluginHost`, created on first call."""
    global _host
    if _host is None:
        with _lock:
            if _host is None:
                _host = PluginHost()
    return _host


@contextlib.contextmanager
def use_host(host: PluginHost) -> Iterator[PluginHost]:
    """Make ``host`` the default for the duration of the block (tests, sandboxes)."""
    global _host
    previous = _host
    _host = host
    try:
        yield host
    finally:
        _host = previous
