"""PluginHost: owns the registry and loads plugins when something of theirs is needed.

Also the process-wide default host, created on first use (never at import).
"""

from __future__ import annotations

import contextlib
import importlib
import threading
from collections.abc import Iterator, Mapping, Sequence
from types import ModuleType
from typing import Any, NoReturn

from palaestra._base._ids import EnvId, plugin_namespace
from palaestra._base._lazy import load_env_creator
from palaestra._discovery._discovery import (
    Declarations,
    PluginRecord,
    allowed_namespaces,
    autoload_disabled,
    discover,
    preferred_owners,
    switched_off,
)
from palaestra._discovery._ownership import DeclaredIds, NameOwners
from palaestra._discovery._provenance import Provenance
from palaestra._env._spec import EnvSpec, WrapperSpec
from palaestra._plugins._authority import WriteAuthority
from palaestra._plugins._hook_calls import HOOK_ARGUMENTS, PluginHooks
from palaestra._plugins._registrar import EnvRegistrar, VectorizerRegistrar, WrapperSetRegistrar
from palaestra._registry._registry import Registry
from palaestra.error import (
    Error,
    PluginConflictError,
    PluginLoadError,
    RegistrationError,
)

__all__ = ["BUILTIN_NAMESPACE", "PluginHost", "get_host", "use_host"]

BUILTIN_NAMESPACE = "palaestra"  # the core's own plugin (see palaestra._plugins._builtin)


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
        self._hooks: dict[str, PluginHooks] = {}  # namespace -> its loaded plugin's hooks
        self.registry = Registry(loader=self, hints=self)
        self._autoload = autoload
        self._allow = None if allow is None else frozenset(allow)
        self._search_path = search_path
        self._prefer = None if prefer is None else dict(prefer)
        self._declared: Declarations | None = None
        self._owners: NameOwners | None = None
        self._catalog: DeclaredIds | None = None
        self.provenance = Provenance(self._installed_records)
        self.authority = WriteAuthority(self.provenance, self.registry, self)
        self._local: set[str] = set()  # namespaces added by add_plugin: no metadata to declare names
        self._loaded: dict[str, PluginRecord] = {}
        self._loading: set[str] = set()  # its own register() calls must not load it again
        self._failures: dict[str, PluginLoadError | PluginConflictError] = {}
        self._hookless: dict[str, str] = {}  # namespace -> why its plugin implements no hook
        self.current_namespace: str | None = None
        self._vectorizers: dict[str, tuple[str, str]] = {}
        self._wrapper_sets: dict[str, tuple[tuple[WrapperSpec, ...], str]] = {}
        self._local.add(BUILTIN_NAMESPACE)
        self._builtin_loaded = False

    def _load_builtin(self) -> None:
        """Load the core's own plugin (``sync``/``async``, the core's wrapper sets) on first need.

        Not at construction: making an env needs neither, and every process would pay for it.
        """
        if self._builtin_loaded:
            return
        self._builtin_loaded = True
        from palaestra._plugins import _builtin

        record = PluginRecord(BUILTIN_NAMESPACE, _builtin.__name__, _builtin.DISTRIBUTION, "")
        self._activate(record, _builtin)

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

    # -- discovery --------------------------------------------------------------------

    @property
    def declarations(self) -> Declarations:
        """What installed distributions declare, read from metadata once (no plugin code runs)."""
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
    def local_namespaces(self) -> set[str]:
        """Namespaces of plugins added in this process with :meth:`add_plugin` (and the core's own)."""
        return self._local

    @property
    def catalog(self) -> DeclaredIds:
        """The env ids installed plugins declare (read from metadata; no plugin imported)."""
        if self._catalog is None:
            self._catalog = DeclaredIds(self.declarations.ids, self.owners)
        return self._catalog

    def _installed_records(self) -> list[PluginRecord]:
        """The discovered plugins (not those added in-process by :meth:`add_plugin`)."""
        return [r for ns, rs in self.table.items() if ns not in self._local for r in rs]

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

    def prefer(self, name: str, distribution: str) -> None:
        """Take default-namespace env ``name`` from ``distribution`` where several declare it.

        Call it before the name is first made.

        Raises:
            Error: The name was already registered by another distribution.
        """
        loaded = self.registry.loaded().values()
        owners = {self.registry.owner(s.id) for s in loaded if s.namespace is None and s.name == name}
        owners.discard(None)
        if owners and owners != {distribution}:
            raise Error(
                f"{name!r} is already registered from {owners.pop()}; call prefer() before its first make"
            )
        self.owners.prefer(name, distribution)
        self._catalog = None  # the name's ids now have an owner to list them under

    def conflicts(self) -> dict[str, tuple[str, ...]]:
        """Default-namespace env names declared by several distributions, none preferred."""
        return self.owners.conflicts()

    def plugins(self) -> dict[str, list[PluginRecord]]:
        """Every discovered plugin, by namespace (conflicting claims included)."""
        return dict(self.table)

    def failures(self) -> dict[str, PluginLoadError | PluginConflictError]:
        """Plugins that failed to load so far, by namespace."""
        return dict(self._failures)

    # -- loading (the registry's SpecLoader protocol) ---------------------------------

    def load_namespace(self, namespace: str) -> None:
        """Load the plugin owning ``namespace``; a no-op if none or already loaded.

        A nested namespace (``ns/sub``) is owned by the plugin of its first segment.

        Raises:
            PluginLoadError: Its module failed to import or its hook raised.
            PluginConflictError: Two distributions declare the namespace.
        """
        namespace = plugin_namespace(namespace)
        if namespace in self._loaded or namespace in self._loading:
            return
        if namespace in self._failures:
            raise self._failures[namespace]
        records = self.table.get(namespace)
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
        owner = self.owners.owner(name)
        if owner is not None:
            self.load_namespace(owner.namespace)

    def known_names(self) -> set[str]:
        """Default-namespace env names declared by installed plugins or published suites."""
        from palaestra._discovery._suites import published_names

        return set(self.owners.names()) | published_names()

    def declares(self, name: str) -> bool:
        """Whether an installed plugin declares the default-namespace env name ``name``."""
        return name in self.owners.names()

    def declared_ids(self) -> dict[str, str]:
        """Every env id installed plugins declare -> its plugin's namespace (no plugin imported)."""
        return {env_id: record.namespace for env_id, record in self.catalog.ids.items()}

    def undeclared_plugins(self) -> dict[str, PluginRecord]:
        """Installed plugins that declare no env ids and are not loaded: namespace -> record.

        Listing cannot show their ids without importing them (which it never does).
        """
        vectorizing = {record.namespace for record in self.declarations.vectorizers.values()}
        return {
            ns: records[0]
            for ns, records in self.table.items()
            if ns not in self._local
            and ns not in self._loaded
            and not self.catalog.declares_ids(ns)
            and ns not in vectorizing  # it declares what it provides
        }

    def declared(self, env_id: str) -> bool | None:
        """Whether an installed plugin declares ``env_id``; ``None`` when only loading can tell."""
        return self.catalog.declared(env_id, self.owners, self.table)

    def authorize(self, env_id: str) -> str | None:
        """Who is writing ``env_id``: a plugin's distribution, or None (user code); see :mod:`._authority`."""
        return self.authority.authorize(env_id)

    def _check_write(self, record: PluginRecord, env_id: str, parts: Any = None) -> None:
        self.authority.check_write(record, env_id, parts)

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
        record = self._loaded.get(plugin_namespace(ns))
        hooks = None if record is None else self._hooks.get(record.namespace)
        if record is None or hooks is None:
            return
        registrar = EnvRegistrar(record.namespace, record.distribution)
        with self.provenance.acting(record):
            hooks.call("palaestra_resolve_env", env_id=env_id.text, registrar=registrar)
        self._commit(record, registrar.specs, quiet=True)

    def provided_elsewhere(self, env_id: str) -> str | None:
        """``ns/env_id`` where a plugin resolving ``ns/...`` on demand (the bridge's ``gymnasium/``) has it.

        For the not-found message only: asking may import the plugin and what it bridges.
        """
        for prefix in sorted(self.catalog.wildcards):
            candidate = f"{prefix}{env_id}"
            try:
                self.resolve(EnvId.parse(candidate))
            except Exception:  # a broken or unwilling plugin: no suggestion from it
                continue
            if candidate in self.registry.loaded():
                return candidate
        return None

    def missing_hint(self, namespace: str | None, name: str) -> str | None:
        """Why nothing provides the id: a plugin switched off, a suite to install, a failed plugin."""
        from palaestra._discovery._suites import install_hint, suite_of

        owner = suite_of(namespace, name)
        if owner is not None and owner not in self.table:
            reason = switched_off(owner, autoload=self._autoload, allow=self._allow, path=self._search_path)
            if reason is not None:
                return reason
        hint = install_hint(namespace, name, set(self.table))
        if hint is not None:
            return hint
        if namespace is not None and plugin_namespace(namespace) in self._hookless:
            return self.hookless_hint(plugin_namespace(namespace))
        relevant = [f for ns, f in self._failures.items() if namespace in (None, ns)]
        if relevant:
            broken = "; ".join(str(f) for f in relevant)
            return f"It may be provided by a plugin that failed to load: {broken}"
        return None

    def hookless_hint(self, namespace: str) -> str | None:
        """Why the installed plugin ``namespace`` provides nothing (None if it implements hooks)."""
        reason = self._hookless.get(namespace)
        if reason is None:
            return None
        record = self._loaded.get(namespace)
        owner = f" ({record.distribution})" if record else ""
        end = "" if reason.endswith(("?", ".")) else "."
        return f"The plugin {namespace!r}{owner} is installed but implements no palaestra hook: {reason}{end}"

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
            self._failures[namespace] = error
            raise error
        record = records[0]
        reason = self.declarations.incompatible.get(record.requires) if record.requires else None
        if reason is not None:
            core = self.declarations.core_version
            self._fail(
                record,
                "it was built for another palaestra",
                Error(f"{reason}; install a version of {record.distribution} made for palaestra {core}"),
            )
        try:
            with self.provenance.acting(record):  # register() at import time is the plugin's
                module = importlib.import_module(record.module)
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # SystemExit too: a plugin must not end the process
            self._fail(record, f"its module {record.module!r} failed to import", e)
        self._activate(record, module)

    def _fail(self, record: PluginRecord, what: str, cause: BaseException) -> NoReturn:
        error = PluginLoadError(
            f"Plugin {record.namespace!r} from distribution {record.distribution} "
            f"{record.version}: {what}: {type(cause).__name__}: {cause}",
            namespace=record.namespace,
            distribution=record.distribution,
        )
        self._failures[record.namespace] = error
        raise error from cause

    def _activate(self, record: PluginRecord, module: ModuleType) -> None:
        """Collect the module's hooks and commit what its registration hooks describe."""
        try:
            hooks = PluginHooks(module, record.namespace)
        except Exception as e:
            self._fail(record, "its hook implementations are invalid", e)
        if hooks.names.isdisjoint(HOOK_ARGUMENTS):  # unknown names are accepted (pluggy's rule), never called
            from palaestra._plugins._diagnose import hookless_reason

            self._hookless[record.namespace] = hookless_reason(module)
        envs = EnvRegistrar(record.namespace, record.distribution)
        vectorizers = VectorizerRegistrar(record.namespace, record.distribution)
        wrapper_sets = WrapperSetRegistrar(record.namespace, record.distribution)
        for hook, registrar in (
            ("palaestra_register_envs", envs),
            ("palaestra_register_vectorizers", vectorizers),
            ("palaestra_register_wrapper_sets", wrapper_sets),
        ):
            try:
                with self.provenance.acting(record):
                    hooks.call(hook, registrar=registrar)
            except KeyboardInterrupt:
                raise
            except BaseException as e:
                self._fail(record, f"its {hook} hook raised", e)
        try:
            specs = [s for s in envs.specs if s.namespace is not None or self._may_register(record, s)]
        except Error as e:
            self._fail(record, "it registered badly", e)
        try:
            self._commit(record, specs)
        except RegistrationError as e:
            self._fail(record, "it registered badly", e)
        self._commit_named("Vectorizer", self._vectorizers, record, vectorizers.factories)
        self._commit_named("Wrapper set", self._wrapper_sets, record, wrapper_sets.sets)
        self._hooks[record.namespace] = hooks
        self._loaded[record.namespace] = record

    def _commit(self, record: PluginRecord, specs: list[EnvSpec], *, quiet: bool = False) -> None:
        """Add a plugin's specs, refusing ids another distribution owns.

        With ``quiet``, ids the plugin already registered are kept as they are (a resolver
        may describe the same id again).
        """
        if quiet:
            loaded = self.registry.loaded()
            specs = [s for s in specs if s.id not in loaded]
        try:
            for spec in specs:
                self._check_write(record, spec.id, (spec.namespace, spec.name, spec.version))
        except PluginConflictError as error:
            self._failures[record.namespace] = error
            raise
        with self.provenance.acting(record):  # a warning or error names the plugin
            for spec in specs:
                self.registry.add_authorized(spec, record.distribution)  # checked just above

    def _may_register(self, record: PluginRecord, spec: EnvSpec) -> bool:
        """Whether the plugin may register default-namespace ``spec`` (declared, and its to own).

        Raises:
            Error: It registers a name it did not declare.
        """
        return record.namespace in self._local or self.owners.may_register(record, spec.name, spec.id)

    def _commit_named(
        self, kind: str, table: dict[str, tuple[Any, str]], record: PluginRecord, items: dict[str, Any]
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
            self.load_namespace(plugin_namespace(name))
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

    def add_plugin(self, module: ModuleType | str, namespace: str, distribution: str = "<local>") -> None:
        """Load a plugin module directly, without an entry point (tests, notebooks).

        Args:
            module: The module object or its import name.
            namespace: The namespace it gets.
            distribution: A label used in messages and conflict checks.
        """
        name = module if isinstance(module, str) else module.__name__
        record = PluginRecord(namespace, name, distribution, "")
        self.table.setdefault(namespace, [record])
        self._local.add(namespace)
        loaded = importlib.import_module(name) if isinstance(module, str) else module
        self._activate(record, loaded)

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
