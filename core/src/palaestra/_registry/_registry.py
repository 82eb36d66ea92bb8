"""The registry: a mapping from env id to :class:`EnvSpec` that loads plugins on demand."""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, Mapping, MutableMapping, ValuesView
from typing import TYPE_CHECKING, Protocol

from palaestra import logger
from palaestra._base._ids import EnvId, get_env_id
from palaestra._env._spec import EnvSpec
from palaestra.error import PluginError, RegistrationError, UnregisteredEnv

if TYPE_CHECKING:
    from palaestra._registry._not_found import Hints

__all__ = ["Registry", "SpecLoader"]


class SpecLoader(Protocol):
    """What the registry asks of its owner to fill itself on demand.

    What a failed lookup may ask besides is :class:`palaestra._registry._not_found.Hints`,
    passed in separately.
    """

    def load_namespace(self, namespace: str) -> None:
        """Load the plugin that owns ``namespace``, if any and not yet loaded."""

    def load_owner(self, name: str) -> None:
        """Load the plugin that declares default-namespace env ``name``, if any."""

    def declared_ids(self) -> Mapping[str, str]:
        """Every env id installed plugins declare -> its plugin's namespace (no plugin imported)."""

    def declared(self, env_id: str) -> bool | None:
        """Whether ``env_id`` is declared; ``None`` when only loading its plugin can tell."""

    def authorize(self, env_id: str) -> str | None:
        """Who is writing ``env_id``: a plugin's distribution, or ``None`` for user code.

        Raises when a plugin writes an id that is not its own.
        """

    def resolve(self, env_id: EnvId) -> None:
        """Let the plugin owning ``env_id``'s namespace register it on demand."""


class Registry(MutableMapping[str, EnvSpec]):
    """All environment specs, keyed by id.

    Looking up an id loads the plugin owning it first. Listing (``iter``, ``len``, ``in``)
    answers from what installed plugins declare in their metadata, so it imports no plugin;
    :meth:`values` and :meth:`items` load the plugins whose specs they hand out. So the
    registry behaves like Gymnasium's dict while importing only what is asked for.
    """

    def __init__(self, loader: SpecLoader | None = None, hints: Hints | None = None) -> None:
        self._specs: dict[str, EnvSpec] = {}
        self._owners: dict[str, str] = {}
        # (namespace, name) -> {id: spec}: version lookups without scanning every spec.
        self._named: dict[tuple[str | None, str], dict[str, EnvSpec]] = {}
        self._loader = loader
        self._hints = hints  # what the not-found explainer may ask (see _not_found.Hints)

    # -- mapping protocol -------------------------------------------------------------

    def __getitem__(self, env_id: str) -> EnvSpec:
        spec = self._specs.get(env_id)
        if spec is None:
            parsed = EnvId.parse_or_none(env_id) if isinstance(env_id, str) else None
            self._load_for(parsed)
            spec = self._specs.get(env_id)
            if spec is None and self._resolve(parsed):
                spec = self._specs.get(env_id)
        if spec is None:
            raise KeyError(env_id)
        return spec

    def __setitem__(self, env_id: str, spec: EnvSpec) -> None:
        self._store(env_id, spec, self._authorize(env_id))

    def __delitem__(self, env_id: str) -> None:
        self._authorize(env_id)
        spec = self._specs.pop(env_id)
        self._owners.pop(env_id, None)
        same_name = self._named.get((spec.namespace, spec.name), {})
        same_name.pop(env_id, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids())

    def __len__(self) -> int:
        return len(self._ids())

    def __contains__(self, env_id: object) -> bool:
        if not isinstance(env_id, str):
            return False
        if env_id in self._specs:
            return True
        known = None if self._loader is None else self._loader.declared(env_id)
        if known is not None:
            return known
        return self._loadable(env_id) is not None

    def __repr__(self) -> str:
        return f"Registry({len(self._specs)} loaded specs)"

    def values(self) -> ValuesView[EnvSpec]:
        """The specs of every id; loads the plugins owning them (broken plugins are skipped)."""
        return _LoadableValues(self)

    def items(self) -> ItemsView[str, EnvSpec]:
        """``(id, spec)`` of every id; loads the plugins owning them (broken plugins are skipped)."""
        return _LoadableItems(self)

    def _ids(self) -> list[str]:
        """Declared ids (no plugin imported), then those registered in this process."""
        if self._loader is None:
            return list(self._specs)
        return list(dict.fromkeys([*self._loader.declared_ids(), *self._specs]))

    def _loadable(self, env_id: str) -> EnvSpec | None:
        """The spec of ``env_id``, or None when it is unknown or its plugin cannot load."""
        try:
            return self[env_id]
        except (KeyError, UnregisteredEnv, PluginError):
            return None

    def groups(self) -> dict[str, str]:
        """Every id -> the plugin namespace it comes from (``""`` for user registrations).

        Answered from declarations and loaded specs; no plugin is imported.
        """
        declared = {} if self._loader is None else self._loader.declared_ids()
        found = dict(declared)
        for env_id in self._specs:
            found.setdefault(env_id, "")
        return found

    def loaded(self) -> dict[str, EnvSpec]:
        """The specs registered so far, without loading any plugin."""
        return dict(self._specs)

    def owner(self, env_id: str) -> str | None:
        """Who registered ``env_id`` (a distribution name, or ``None`` for user code)."""
        return self._owners.get(env_id)

    # -- loading ----------------------------------------------------------------------

    def _load_for(self, env_id: EnvId | None) -> None:
        """Load the plugin owning a (well-formed) id, if any."""
        if self._loader is None or env_id is None:
            return
        if env_id.namespace is None:
            self._loader.load_owner(env_id.name)
        else:
            self._loader.load_namespace(env_id.namespace)

    def _resolve(self, env_id: EnvId | None) -> bool:
        """Ask the plugin owning a namespaced ``env_id`` to register it; whether it was asked."""
        if self._loader is None or env_id is None or env_id.namespace is None:
            return False
        self._loader.resolve(env_id)
        return True

    def _specs_named(self, ns: str | None, name: str) -> list[EnvSpec]:
        return list(self._named.get((ns, name), {}).values())

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
        self.add_authorized(spec, self._authorize(spec.id))

    def add_authorized(self, spec: EnvSpec, owner: str | None) -> None:
        """:meth:`add` for a writer already checked: ``owner``'s right to the id is not asked again.

        The plugin host checks a plugin's whole batch of specs before adding any of them.
        """
        self._check_versioning(spec)
        if spec.id in self._specs:
            logger.warn(f"Overriding environment {spec.id} already in registry.")
        self._store(spec.id, spec, owner)

    def _authorize(self, env_id: str) -> str | None:
        return None if self._loader is None else self._loader.authorize(env_id)

    def _store(self, env_id: str, spec: EnvSpec, owner: str | None) -> None:
        previous = self._specs.get(env_id)
        if previous is not None:
            self._named.get((previous.namespace, previous.name), {}).pop(env_id, None)
        self._specs[env_id] = spec
        self._named.setdefault((spec.namespace, spec.name), {})[env_id] = spec
        if owner is None:
            self._owners.pop(env_id, None)
        else:
            self._owners[env_id] = owner

    def _check_versioning(self, spec: EnvSpec) -> None:
        same_name = [s for s in self._specs_named(spec.namespace, spec.name) if s.id != spec.id]
        unversioned = next((s for s in same_name if s.version is None), None)
        versioned = [s for s in same_name if s.version is not None]
        if unversioned is not None and spec.version is not None:
            raise RegistrationError(
                f"Can't register the versioned environment `{spec.id}` when the unversioned "
                f"environment `{unversioned.id}` of the same name already exists."
            )
        if versioned and spec.version is None:
            latest = max(versioned, key=lambda s: s.version or 0)
            raise RegistrationError(
                f"Can't register the unversioned environment `{spec.id}` when the versioned "
                f"environment `{latest.id}` of the same name already exists. Note: the default "
                "behavior is that `gym.make` with the unversioned environment will return the latest "
                "versioned environment"
            )

    # -- resolution -------------------------------------------------------------------

    def find_highest_version(self, ns: str | None, name: str) -> int | None:
        """The highest registered version of ``ns/name``, or ``None``."""
        versions = [s.version for s in self._specs_named(ns, name) if s.version is not None]
        return max(versions, default=None)

    def find_spec(self, env_id: str) -> EnvSpec:
        """Resolve ``env_id`` with Gymnasium's rules.

        An unversioned id resolves to the latest version (with a warning); an outdated
        version works with a deprecation warning.

        Raises:
            NamespaceNotFound, NameNotFound, VersionNotFound: Nothing matches.
            DeprecatedEnv: The version is older than every registered one, or retired.
        """
        parsed = EnvId.parse(env_id)  # once: the loading and resolving below take the parts
        ns, name, version = parsed.namespace, parsed.name, parsed.version
        spec = self._specs.get(env_id)
        if spec is None:
            self._load_for(parsed)
            spec = self._specs.get(env_id)
        if spec is None and self._resolve(parsed):
            spec = self._specs.get(env_id)
        latest = self.find_highest_version(ns, name)
        if version is not None and latest is not None and latest > version:
            logger.deprecation(
                f"The environment {env_id} is out of date. You should consider upgrading to "
                f"version `v{latest}`."
            )
        if version is None and latest is not None:
            new_id = get_env_id(ns, name, latest)
            spec = self._specs.get(new_id)
            logger.warn(
                f"Using the latest versioned environment `{new_id}` instead of the unversioned "
                f"environment `{env_id}`."
            )
            version = latest
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
        if get_env_id(ns, name, version) in self._specs:
            return
        from palaestra._registry._not_found import Catalogue, explain_missing  # an error path

        explain_missing(Catalogue(self._specs, self._ids()), self._hints, ns, name, version)


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
