"""The specs registered in this process: a passive store that loads nothing and asks no one.

Whoever writes to it has already been judged (the registry for user code, the plugin
loader for a plugin's batch); the store keeps the specs, who wrote each one, and an index
by name for version lookups, and refuses only what no writer may do: mixing a versioned
and an unversioned env of one name.
"""

from __future__ import annotations

from palaestra import logger
from palaestra._env._spec import EnvSpec
from palaestra.error import RegistrationError

__all__ = ["SpecStore"]


class SpecStore:
    """Env id -> spec, with each id's writer and the versions of each name."""

    def __init__(self) -> None:
        self.specs: dict[str, EnvSpec] = {}
        self._owners: dict[str, str] = {}
        # (namespace, name) -> {id: spec}: version lookups without scanning every spec.
        self._named: dict[tuple[str | None, str], dict[str, EnvSpec]] = {}

    def owner(self, env_id: str) -> str | None:
        """Who wrote ``env_id`` (a distribution name, or ``None`` for user code)."""
        return self._owners.get(env_id)

    def named(self, ns: str | None, name: str) -> list[EnvSpec]:
        """The specs of ``ns/name``, every version."""
        return list(self._named.get((ns, name), {}).values())

    def latest(self, ns: str | None, name: str) -> EnvSpec | None:
        """The spec of ``ns/name``'s highest version stored, or ``None``."""
        versioned = [s for s in self.named(ns, name) if s.version is not None]
        return max(versioned, key=lambda s: s.version or 0, default=None)

    def highest_version(self, ns: str | None, name: str) -> int | None:
        """The highest version of ``ns/name`` stored, or ``None``."""
        latest = self.latest(ns, name)
        return None if latest is None else latest.version

    def add(self, spec: EnvSpec, owner: str | None) -> None:
        """Store ``spec`` as written by ``owner``, overriding (with a warning) an earlier one.

        Raises:
            RegistrationError: A versioned and an unversioned env of one name would mix.
        """
        self._check_versioning(spec)
        if spec.id in self.specs:
            logger.warn(f"Overriding environment {spec.id} already in registry.")
        self.put(spec.id, spec, owner)

    def put(self, env_id: str, spec: EnvSpec, owner: str | None) -> None:
        """Store ``spec`` under ``env_id`` as it is (``registry[env_id] = spec``: no checks, no warning)."""
        previous = self.specs.get(env_id)
        if previous is not None:
            self._named.get((previous.namespace, previous.name), {}).pop(env_id, None)
        self.specs[env_id] = spec
        self._named.setdefault((spec.namespace, spec.name), {})[env_id] = spec
        if owner is None:
            self._owners.pop(env_id, None)
        else:
            self._owners[env_id] = owner

    def remove(self, env_id: str) -> None:
        """Forget ``env_id``.

        Raises:
            KeyError: It is not stored.
        """
        spec = self.specs.pop(env_id)
        self._owners.pop(env_id, None)
        self._named.get((spec.namespace, spec.name), {}).pop(env_id, None)

    def _check_versioning(self, spec: EnvSpec) -> None:
        same_name = [s for s in self.named(spec.namespace, spec.name) if s.id != spec.id]
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
