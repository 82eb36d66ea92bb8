"""Loading plugins: import one when something of its is first needed, run its hooks, hand on what they describe.

:class:`PluginLoader` is the registry's :class:`~palaestra._registry._registry.Provider`. It
imports a plugin's hook module and calls its registration hooks with fresh registrars, all
as that plugin (one :meth:`Provenance.acting` block), and hands the plugin's batch of env
specs to the write authority, which judges and stores it: the loader reads the store but
never writes it. A plugin that fails is remembered and its error raised again on every later
use, so one broken plugin never breaks the others.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, NoReturn

from palaestra._base._ids import EnvId, plugin_namespace
from palaestra._discovery._cache import why_missing
from palaestra._discovery._discovery import PluginRecord
from palaestra._discovery._ownership import BUILTIN_NAMESPACE, InstalledPlugins
from palaestra._discovery._provenance import Provenance
from palaestra._env._spec import EnvSpec, WrapperSpec
from palaestra._plugins import _builtin
from palaestra._plugins._authority import WriteAuthority
from palaestra._plugins._diagnose import hookless_reason
from palaestra._plugins._hook_calls import HOOK_ARGUMENTS, PluginHooks
from palaestra._plugins._registrar import EnvRegistrar, VectorizerRegistrar, WrapperSetRegistrar
from palaestra._registry._store import SpecStore
from palaestra.error import Error, PluginConflictError, PluginLoadError

__all__ = ["PluginLoader"]


class PluginLoader:
    """Loads each installed plugin on first use and commits its registrations.

    Args:
        installed: What installed plugins declare.
        store: The specs registered so far (read only: whether an id still needs resolving).
        authority: Judges a plugin's batch of specs and stores it.
        provenance: Attributes writes made while a plugin runs to that plugin.
    """

    def __init__(
        self, installed: InstalledPlugins, store: SpecStore, authority: WriteAuthority, provenance: Provenance
    ) -> None:
        self.installed = installed
        self.store = store
        self.authority = authority
        self.provenance = provenance
        self.loaded: dict[str, PluginRecord] = {}
        self.failures: dict[str, PluginLoadError | PluginConflictError] = {}
        self.hookless: dict[str, str] = {}  # namespace -> why its plugin implements no hook
        self._hooks: dict[str, PluginHooks] = {}  # namespace -> its loaded plugin's hooks
        self._loading: set[str] = set()  # its own register() calls must not load it again
        self._vectorizers: dict[str, tuple[str, str]] = {}
        self._wrapper_sets: dict[str, tuple[tuple[WrapperSpec, ...], str]] = {}
        self._builtin_loaded = False

    # -- the registry's Provider ------------------------------------------------------

    def provide(self, env_id: EnvId) -> None:
        """Load the plugin owning ``env_id``; for a namespaced id still missing, ask its resolve hook.

        Raises:
            PluginLoadError: The owning plugin is broken.
            PluginConflictError: Several distributions claim the namespace or the name.
            Exception: Whatever a resolve hook raises to say why the id cannot exist.
        """
        if env_id.namespace is None:
            self.load_owner(env_id.name)
            return
        self.load_namespace(env_id.namespace)
        if env_id.text not in self.store.specs:
            self.resolve(env_id)

    def declared_ids(self) -> dict[str, str]:
        """Every env id installed plugins declare -> its plugin's namespace (no plugin imported)."""
        return self.installed.declared_ids()

    def declared(self, env_id: str) -> bool | None:
        """Whether an installed plugin declares ``env_id``; ``None`` when only loading can tell."""
        return self.installed.declared(env_id)

    # -- loading ----------------------------------------------------------------------

    def load_namespace(self, namespace: str) -> None:
        """Load the plugin owning ``namespace``; a no-op if none or already loaded.

        A nested namespace (``ns/sub``) is owned by the plugin of its first segment.

        Raises:
            PluginLoadError: Its module failed to import or its hook raised.
            PluginConflictError: Two distributions declare the namespace.
        """
        namespace = plugin_namespace(namespace)
        if namespace in self.loaded or namespace in self._loading:
            return
        if namespace in self.failures:
            raise self.failures[namespace]
        records = self.installed.table.get(namespace)
        if records:
            self._loading.add(namespace)
            try:
                self._load(records)
            finally:
                self._loading.discard(namespace)

    def load_owner(self, name: str) -> None:
        """Load the plugin that declares default-namespace env ``name`` (none if nobody does).

        Raises:
            PluginConflictError: Several distributions declare the name and none is preferred.
            PluginLoadError: The owner is broken.
        """
        owner = self.installed.owners.owner(name)
        if owner is not None:
            self.load_namespace(owner.namespace)

    def resolve(self, env_id: EnvId) -> None:
        """Ask the plugin owning ``env_id``'s namespace to register the id (its resolve hook).

        Raises:
            PluginLoadError: The plugin is broken.
            RegistrationError: It registered something invalid.
            Exception: Whatever the plugin raises to say why the id cannot exist.
        """
        ns = env_id.namespace
        if ns is None:
            return
        self.load_namespace(ns)
        record = self.loaded.get(plugin_namespace(ns))
        hooks = None if record is None else self._hooks.get(record.namespace)
        if record is None or hooks is None:
            return
        registrar = EnvRegistrar(record.namespace, record.distribution)
        with self.provenance.acting(record):  # a write, warning or error names the plugin
            hooks.call("palaestra_resolve_env", env_id=env_id.text, registrar=registrar)
            self._admit(record, registrar.specs, on_demand=True)

    def add_module(self, record: PluginRecord, module: ModuleType | None = None) -> None:
        """Load a plugin without an entry point (tests, notebooks): ``module``, or ``record.module`` imported."""
        self.installed.table.setdefault(record.namespace, [record])
        self.installed.local_namespaces.add(record.namespace)
        with self.provenance.acting(record):
            self._activate(record, importlib.import_module(record.module) if module is None else module)

    @property
    def vectorizers(self) -> dict[str, tuple[str, str]]:
        """Registered vectorizers: name -> (``"module:callable"``, the distribution registering it)."""
        self._load_builtin()
        return self._vectorizers

    @property
    def wrapper_sets(self) -> dict[str, tuple[tuple[WrapperSpec, ...], str]]:
        """Registered wrapper sets: name -> (their wrapper specs, the distribution registering it)."""
        self._load_builtin()
        return self._wrapper_sets

    def _load_builtin(self) -> None:
        """Load the core's own plugin (``sync``/``async``, the core's wrapper sets) on first need.

        Not at construction: making an env needs neither, and every process would pay for it.
        """
        if self._builtin_loaded:
            return
        self._builtin_loaded = True
        record = PluginRecord(BUILTIN_NAMESPACE, _builtin.__name__, _builtin.DISTRIBUTION, "")
        with self.provenance.acting(record):
            self._activate(record, _builtin)

    def _load(self, records: list[PluginRecord]) -> None:
        namespace = records[0].namespace
        if len(records) > 1:
            dists = tuple(r.distribution for r in records)
            error = PluginConflictError(
                f"Namespace {namespace!r} is claimed by more than one distribution: "
                f"{' and '.join(dists)}. Uninstall one of them.",
                namespace=namespace,
                distributions=dists,
            )
            self.failures[namespace] = error
            raise error
        record = records[0]
        declarations = self.installed.declarations
        reason = declarations.incompatible.get(record.requires) if record.requires else None
        if reason is not None:
            core = declarations.core_version
            self._fail(
                record,
                "it was built for another palaestra",
                Error(f"{reason}; install a version of {record.distribution} made for palaestra {core}"),
            )
        with self.provenance.acting(record):  # register() at import time is the plugin's, and so on
            try:
                module = importlib.import_module(record.module)
            except KeyboardInterrupt:
                raise
            except BaseException as e:  # SystemExit too: a plugin must not end the process
                what = f"its module {record.module!r} failed to import"
                if isinstance(e, ModuleNotFoundError) and e.name and record.module.startswith(e.name):
                    what = why_missing(
                        record, self.installed.search_path
                    )  # not there at all: say why, and mend
                self._fail(record, what, e)
            self._activate(record, module)

    def _fail(self, record: PluginRecord, what: str, cause: BaseException) -> NoReturn:
        error = PluginLoadError(
            f"Plugin {record.namespace!r} from distribution {record.distribution} "
            f"{record.version}: {what}: {type(cause).__name__}: {cause}",
            namespace=record.namespace,
            distribution=record.distribution,
        )
        self.failures[record.namespace] = error
        raise error from cause

    def _activate(self, record: PluginRecord, module: ModuleType) -> None:
        """Collect the module's hooks and hand on what its registration hooks describe.

        Called inside the plugin's :meth:`Provenance.acting` block.
        """
        envs = EnvRegistrar(record.namespace, record.distribution)
        vectorizers = VectorizerRegistrar(record.namespace, record.distribution)
        wrapper_sets = WrapperSetRegistrar(record.namespace, record.distribution)
        try:
            hooks = PluginHooks(module, record.namespace)
        except Exception as e:
            self._fail(record, "its hook implementations are invalid", e)
        if hooks.names.isdisjoint(HOOK_ARGUMENTS):  # unknown names are accepted (pluggy's rule), never called
            self.hookless[record.namespace] = hookless_reason(module)
        for hook, registrar in (
            ("palaestra_register_envs", envs),
            ("palaestra_register_vectorizers", vectorizers),
            ("palaestra_register_wrapper_sets", wrapper_sets),
        ):
            try:
                hooks.call(hook, registrar=registrar)
            except KeyboardInterrupt:
                raise
            except BaseException as e:
                self._fail(record, f"its {hook} hook raised", e)
        try:
            self._admit(record, envs.specs)
        except PluginConflictError:
            raise
        except Error as e:
            self._fail(record, "it registered badly", e)
        self.commit_named("Vectorizer", self._vectorizers, record, vectorizers.factories)
        self.commit_named("Wrapper set", self._wrapper_sets, record, wrapper_sets.sets)
        self._hooks[record.namespace] = hooks
        self.loaded[record.namespace] = record

    def _admit(self, record: PluginRecord, specs: list[EnvSpec], *, on_demand: bool = False) -> None:
        """Have the authority judge and store ``specs``; a plugin in conflict is remembered as failed."""
        try:
            self.authority.admit(record, specs, on_demand=on_demand)
        except PluginConflictError as error:
            self.failures[record.namespace] = error
            raise

    @staticmethod
    def commit_named(
        kind: str, table: dict[str, tuple[Any, str]], record: PluginRecord, items: dict[str, Any]
    ) -> None:
        """Add a plugin's named vectorizers or wrapper sets, refusing names another distribution owns."""
        for name in items:
            owner = table.get(name)
            if owner is not None and owner[1] != record.distribution:
                raise PluginConflictError(
                    f"{kind} {name!r} is registered by both {owner[1]} and {record.distribution}.",
                    namespace=record.namespace,
                    distributions=(owner[1], record.distribution),
                )
        for name, item in items.items():
            table[name] = (item, record.distribution)
