"""The registry: the mapping users see, from env id to :class:`EnvSpec`, filled on demand.

It keeps nothing itself: the specs are in a passive :class:`SpecStore`. A lookup of an id
the store lacks asks a :class:`Provider` (the plugin loader) to provide it, and a write from
user code is judged by an ``authorize`` callable (the write authority) before it is stored.
So a lookup walks one way: registry -> provider -> plugin -> authority -> store.
"""

from __future__ import annotations

from collections.abc import Callable, ItemsView, Iterator, Mapping, MutableMapping, ValuesView
from typing import TYPE_CHECKING, Protocol

from palaestra import logger
from palaestra._base._ids import EnvId, get_env_id
from palaestra._env._spec import EnvSpec
from palaestra._registry._store import SpecStore
from palaestra.error import PluginError, UnregisteredEnv

if TYPE_CHECKING:
    from palaestra._registry._not_found import Hints

__all__ = ["Provider", "Registry"]


class Provider(Protocol):
    """What the registry asks of whoever provides ids it has not got (the plugin loader).

    What a failed lookup may ask besides is :class:`palaestra._registry._not_found.Hints`,
    passed in separately.
    """

    def provide(self, env_id: EnvId) -> None:
        """Store ``env_id``'s spec if a plugin provides it.

        Loads the plugin owning the id (by namespace, or the declared owner of a
        default-namespace name) and, for a namespaced id still missing, asks that plugin
        to register it on demand.
        """

    def declared_ids(self) -> Mapping[str, str]:
        """Every env id installed plugins declare -> its plugin's namespace (no plugin imported)."""

    def declared(self, env_id: str) -> bool | None:
        """Whether ``env_id`` is declared; ``None`` when only loading its plugin can tell."""


class Registry(MutableMapping[str, EnvSpec]):
    """All environment specs, keyed by id.

    Looking up an id loads the plugin owning it first. Listing (``iter``, ``len``, ``in``)
    answers from what installed plugins declare in their metadata, so it imports no plugin;
    :meth:`values` and :meth:`items` load the plugins whose specs they hand out. So the
    registry behaves like Gymnasium's dict while importing only what is asked for.

    Args:
        store: Where the specs are kept (a new, empty one if not given).
        provider: Provides ids the store lacks; ``None`` for a plain mapping.
        authorize: Judges a write from outside a plugin's loading: returns who is writing
            the id (a distribution, or ``None`` for user code), or raises.
        hints: What the not-found explainer may ask (see :class:`._not_found.Hints`).
    """

    def __init__(
        self,
        store: SpecStore | None = None,
        provider: Provider | None = None,
        authorize: Callable[[str], str | None] | None = None,
        hints: Hints | None = None,
    ) -> None:
        self.store = SpecStore() if store is None else store
        self._provider = provider
        self._authorize = authorize
        self._hints = hints

    # -- mapping protocol -------------------------------------------------------------

    def __getitem__(self, env_id: str) -> EnvSpec:
        spec = self.store.specs.get(env_id)
        if spec is None:
            parsed = EnvId.parse_or_none(env_id) if isinstance(env_id, str) else None
            spec = self._provided(parsed)
        if spec is None:
            raise KeyError(env_id)
        return spec

    def __setitem__(self, env_id: str, spec: EnvSpec) -> None:
        self.store.put(env_id, spec, self._writer(env_id))

    def __delitem__(self, env_id: str) -> None:
        self._writer(env_id)
        self.store.remove(env_id)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids())

    def __len__(self) -> int:
        return len(self._ids())

    def __contains__(self, env_id: object) -> bool:
        if not isinstance(env_id, str):
            return False
        if env_id in self.store.specs:
            return True
        known = None if self._provider is None else self._provider.declared(env_id)
        if known is not None:
            return known
        return self._loadable(env_id) is not None

    def __repr__(self) -> str:
        return f"Registry({len(self.store.specs)} loaded specs)"

    def values(self) -> ValuesView[EnvSpec]:
        """The specs of every id; loads the plugins owning them (broken plugins are skipped)."""
        return _LoadableValues(self)

    def items(self) -> ItemsView[str, EnvSpec]:
        """``(id, spec)`` of every id; loads the plugins owning them (broken plugins are skipped)."""
        return _LoadableItems(self)

    def _ids(self) -> list[str]:
        """Declared ids (no plugin imported), then those registered in this process."""
        if self._provider is None:
            return list(self.store.specs)
        return list(dict.fromkeys([*self._provider.declared_ids(), *self.store.specs]))

    def _loadable(self, env_id: str) -> EnvSpec | None:
        """The spec of ``env_id``, or None when it is unknown or its plugin cannot load."""
        try:
            return self[env_id]
        except (KeyError, UnregisteredEnv, PluginError):
            return None

    def _provided(self, env_id: EnvId | None) -> EnvSpec | None:
        """Ask the provider for a (well-formed) id the store lacks; its spec, if it came."""
        if self._provider is None or env_id is None:
            return None
        self._provider.provide(env_id)
        return self.store.specs.get(env_id.text)

    def groups(self) -> dict[str, str]:
        """Every id -> the plugin namespace it comes from (``""`` for user registrations).

        Answered from declarations and loaded specs; no plugin is imported.
        """
        found = {} if self._provider is None else dict(self._provider.declared_ids())
        for env_id in self.store.specs:
            found.setdefault(env_id, "")
        return found

    def loaded(self) -> dict[str, EnvSpec]:
        """The specs registered so far, without loading any plugin."""
        return dict(self.store.specs)

    def owner(self, env_id: str) -> str | None:
        """Who registered ``env_id`` (a distribution name, or ``None`` for user code)."""
        return self.store.owner(env_id)

    # -- registration -----------------------------------------------------------------

    def add(self, spec: EnvSpec) -> None:
        """Register ``spec``, overriding (with a warning) an earlier one of the same id.

        Called from user code, the spec is the user's; called while a plugin runs (its hook
        module, its hooks, its env modules), it is that plugin's, and must be an id the
        plugin declares.

        Raises:
            RegistrationError: A versioned and an unversioned env of one name would mix, or
                a plugin registers an id it does not declare.
            PluginConflictError: A plugin registers an id another distribution owns.
        """
        self.store.add(spec, self._writer(spec.id))

    def _writer(self, env_id: str) -> str | None:
        """Who is writing ``env_id`` (judged by ``authorize``; raises for a refused write)."""
        return None if self._authorize is None else self._authorize(env_id)

    # -- resolution -------------------------------------------------------------------

    def find_highest_version(self, ns: str | None, name: str) -> int | None:
        """The highest registered version of ``ns/name``, or ``None``."""
        return self.store.highest_version(ns, name)

    def find_spec(self, env_id: str) -> EnvSpec:
        """Resolve ``env_id`` with Gymnasium's rules.

        An unversioned id resolves to the latest version (with a warning); an outdated
        version works with a deprecation warning.

        Raises:
            NamespaceNotFound, NameNotFound, VersionNotFound: Nothing matches.
            DeprecatedEnv: The version is older than every registered one, or retired.
        """
        parsed = EnvId.parse(env_id)  # once: the provider takes the parts
        ns, name, version = parsed.namespace, parsed.name, parsed.version
        spec = self.store.specs.get(env_id)
        if spec is None:
            spec = self._provided(parsed)
        latest = self.store.latest(ns, name)
        if version is not None and latest is not None and (latest.version or 0) > version:
            logger.deprecation(
                f"The environment {env_id} is out of date. You should consider upgrading to "
                f"version `v{latest.version}`."
            )
        if version is None and latest is not None:
            spec = latest
            logger.warn(
                f"Using the latest versioned environment `{latest.id}` instead of the unversioned "
                f"environment `{env_id}`."
            )
            version = latest.version
        if spec is None:
            self.check_version_exists(ns, name, version)
            raise UnregisteredEnv(
                f"No registered env with id: {env_id}. Did you register it, or install the "
                "plugin that provides it? Run `palaestra list` to see every registered id."
            )
        return spec

    def check_version_exists(self, ns: str | None, name: str, version: int | None) -> None:
        """Raise the most helpful error for an id that is not registered as given.

        Raises:
            NamespaceNotFound, NameNotFound, VersionNotFound, DeprecatedEnv, MissingSuiteError:
                Whichever says best what is wrong (with a did-you-mean or an install hint).
        """
        if get_env_id(ns, name, version) in self.store.specs:
            return
        # start-up: an error path (1.7 ms)
        from palaestra._registry._not_found import Catalogue, explain_missing

        explain_missing(Catalogue(self.store.specs, self._ids()), self._hints, ns, name, version)


class _LoadableValues(ValuesView[EnvSpec]):
    """The specs of a registry's ids, skipping those whose plugin cannot load."""

    _mapping: Registry

    def __iter__(self) -> Iterator[EnvSpec]:
        for env_id in self._mapping:
            spec = self._mapping._loadable(env_id)
            if spec is not None:
                yield spec


class _LoadableItems(ItemsView[str, EnvSpec]):
    """``(id, spec)`` pairs of a registry, skipping ids whose plugin cannot load."""

    _mapping: Registry

    def __iter__(self) -> Iterator[tuple[str, EnvSpec]]:
        for env_id in self._mapping:
            spec = self._mapping._loadable(env_id)
            if spec is not None:
                yield env_id, spec
