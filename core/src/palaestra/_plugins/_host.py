"""PluginHost: the plugin machinery put together, and the process-wide default host.

The host builds the parts and hands them out as attributes: what installed plugins declare
(``installed``, :mod:`._authority`), the write authority (``authority``), the plugin loader
(``loader``, :mod:`._loading`), the not-found hints (``hints``, :mod:`._hints`) and the
registry over its passive store (``registry``). Of its own it does only what takes several
parts: named lookups of vectorizers and wrapper sets, preferring a name's owner, adding a
plugin module by hand, listing the plugins nothing lists otherwise, the namespace of user
registrations. The default host is created on first use (never at import).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Mapping, Sequence
from types import ModuleType
from typing import Any

from palaestra._base._ids import plugin_namespace
from palaestra._base._lazy import load_env_creator
from palaestra._discovery._discovery import PluginRecord
from palaestra._discovery._ownership import BUILTIN_NAMESPACE, InstalledPlugins
from palaestra._discovery._provenance import Provenance
from palaestra._env._spec import WrapperSpec
from palaestra._plugins._authority import WriteAuthority
from palaestra._plugins._hints import LookupHints
from palaestra._plugins._loading import PluginLoader
from palaestra._registry._registry import Registry
from palaestra._registry._store import SpecStore
from palaestra.error import Error, VectorizerNotFound, WrapperSetNotFound

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

    Attributes:
        installed: What installed plugins declare (``table``, ``declarations``, ``owners``,
            ``catalog``), read from metadata once, on first need.
        loader: Loads plugins on first use; its ``loaded``, ``failures``, ``vectorizers`` and
            ``wrapper_sets`` say what came of it.
        registry: The env ids and their specs.
        hints: What a failed lookup is told (a suite to install, a broken plugin, ...).
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
        self.hints = LookupHints(self.installed, self.loader)
        self.registry = Registry(store, self.loader, self.authority.authorize, self.hints)
        self.current_namespace: str | None = None

    # -- what the host does itself --------------------------------------------------

    def undeclared_plugins(self) -> dict[str, PluginRecord]:
        """Installed plugins that declare no env ids and are not loaded: namespace -> record.

        Listing cannot show their ids without importing them (which it never does).
        """
        installed = self.installed
        vectorizing = {record.namespace for record in installed.declarations.vectorizers.values()}
        return {
            ns: records[0]
            for ns, records in installed.table.items()
            if ns not in installed.local_namespaces
            and ns not in self.loader.loaded
            and not installed.catalog.declares_ids(ns)
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
        error: type[Error],
        also_known: tuple[str, ...] = (),
    ) -> Any:
        """``table[name]``, loading plugin ``ns`` for ``ns/...`` names; a did-you-mean error if unknown.

        ``error`` is the class to raise; ``also_known`` are names the caller handles itself,
        listed in the error.
        """
        if not isinstance(name, str):
            raise TypeError(f"{kind} names are strings, got {name!r}")
        if "/" in name:
            self.loader.load_namespace(plugin_namespace(name))
        entry = table.get(name)
        if entry is None:
            import difflib  # start-up: an error path (1.2 ms)

            from palaestra._discovery._suites import (  # start-up: an error path (1.7 ms)
                REFERENCE_SUITES,
                install_command,
            )

            namespace = plugin_namespace(name) if "/" in name else None
            if namespace in REFERENCE_SUITES and namespace not in self.installed.table:
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
            "vectorizer", self.loader.vectorizers, name, VectorizerNotFound, ("vector_entry_point",)
        )
        return load_env_creator(factory)

    def wrapper_set(self, name: str) -> tuple[WrapperSpec, ...]:
        """The wrapper specs of set ``name`` (``"atari"`` or ``"ns/name"``), innermost first.

        Loads only the plugin owning ``ns``.

        Raises:
            WrapperSetNotFound: No such set; the message lists the known ones.
            PluginLoadError: The owning plugin is broken.
        """
        return self._lookup("wrapper set", self.loader.wrapper_sets, name, WrapperSetNotFound)  # type: ignore[no-any-return]

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
