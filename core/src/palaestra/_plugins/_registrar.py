"""The callback object handed to a plugin's registration hook."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from palaestra._base._ids import get_env_id, parse_env_id, plugin_namespace
from palaestra._env._spec import REGISTRATION_FIELDS, EnvSpec, WrapperSpec
from palaestra.error import RegistrationError

__all__ = ["EnvRegistrar", "VectorizerRegistrar", "WrapperSetRegistrar"]

_SPEC_FIELDS = frozenset(REGISTRATION_FIELDS)


class _Registrar:
    """What every registrar knows: whose registrations it collects.

    Attributes:
        namespace: The plugin's namespace (its entry-point name).
        distribution: The distribution that declared the plugin.
    """

    def __init__(self, namespace: str, distribution: str) -> None:
        self.namespace = namespace
        self.distribution = distribution


class EnvRegistrar(_Registrar):
    """Collects a plugin's env registrations; the host validates and commits them."""

    def __init__(self, namespace: str, distribution: str) -> None:
        super().__init__(namespace, distribution)
        self.specs: list[EnvSpec] = []

    def register(
        self,
        id: str,
        entry_point: Any = None,
        *,
        default_namespace: bool = False,
        **fields: Any,
    ) -> None:
        """Describe one environment.

        Args:
            id: ``Name-vN`` (placed in the plugin's namespace), ``ns/Name-vN`` with the
                plugin's own namespace, or ``ns/sub/Name-vN`` in a namespace nested under it.
            entry_point: ``"module:Class"`` of the env; imported only by ``make``.
            default_namespace: Register the id without a namespace.
            **fields: Other :func:`palaestra.register` fields.

        Raises:
            RegistrationError: Unknown fields, a malformed id, or another plugin's namespace.
        """
        unknown = set(fields) - _SPEC_FIELDS
        if unknown:
            raise RegistrationError(
                f"Plugin {self.namespace!r} ({self.distribution}) registered {id!r} with unknown "
                f"fields {sorted(unknown)}; allowed: {sorted(_SPEC_FIELDS)}"
            )
        if entry_point is None and fields.get("vector_entry_point") is None:
            raise RegistrationError(
                f"Plugin {self.namespace!r} ({self.distribution}) registered {id!r} without an "
                "entry_point or vector_entry_point"
            )
        ns, name, version = parse_env_id(id)
        if ns is not None and plugin_namespace(ns) != self.namespace:
            raise RegistrationError(
                f"Plugin {self.namespace!r} ({self.distribution}) may only register ids in its "
                f"own namespace (or one nested under it), not {id!r}"
            )
        if ns is not None and default_namespace:
            raise RegistrationError(
                f"Plugin {self.namespace!r} registered {id!r} with default_namespace=True; "
                "give the id without a namespace"
            )
        full_ns = None if default_namespace else (ns or self.namespace)
        full_id = get_env_id(full_ns, name, version)
        self.specs.append(EnvSpec(id=full_id, entry_point=entry_point, **fields))

    def register_table(
        self, package: str, table: Mapping[str, Mapping[str, Any]], *, default_namespace: bool = False
    ) -> None:
        """Describe a suite's envs from one table, entry points written relative to ``package``.

        ``register_table("my_suite", {"Ball-v0": {"entry_point": "ball:BallEnv",
        "max_episode_steps": 200}})`` registers ``Ball-v0`` with ``my_suite.ball:BallEnv``.

        Args:
            package: The package the entry points are relative to.
            table: id -> its registration fields; ``entry_point`` and ``vector_entry_point``
                are ``"module:Class"`` within ``package``.
            default_namespace: Register every id without a namespace.

        Raises:
            RegistrationError: As :meth:`register`, naming the id.
        """
        for env_id, given in table.items():
            fields = dict(given)
            for key in ("entry_point", "vector_entry_point"):
                if isinstance(fields.get(key), str):
                    fields[key] = f"{package}.{fields[key]}"
            self.register(
                env_id, fields.pop("entry_point", None), default_namespace=default_namespace, **fields
            )


def _check_name(kind: str, namespace: str, distribution: str, name: str) -> None:
    if not name or "/" in name or not name.replace("_", "").replace("-", "").isalnum():
        raise RegistrationError(
            f"Plugin {namespace!r} ({distribution}) registered an invalid {kind} name {name!r}; "
            "use letters, digits, '-' and '_'"
        )


def _is_entry_point(value: Any) -> bool:
    return isinstance(value, str) and value.count(":") == 1 and all(value.split(":"))


class VectorizerRegistrar(_Registrar):
    """Collects a plugin's vectorizer registrations: name -> ``"module:callable"``."""

    def __init__(self, namespace: str, distribution: str) -> None:
        super().__init__(namespace, distribution)
        self.factories: dict[str, str] = {}

    def register(self, name: str, factory: str, *, default_namespace: bool = False) -> None:
        """Describe one vectorizer.

        Args:
            name: Its name; placed in the plugin's namespace unless ``default_namespace``.
            factory: ``"module:callable"`` called as ``factory(env_fns, **vector_kwargs)``.
            default_namespace: Register the bare name (reserved for the built-in plugin).

        Raises:
            RegistrationError: A malformed name or factory, or a duplicate within the plugin.
        """
        _check_name("vectorizer", self.namespace, self.distribution, name)
        if not _is_entry_point(factory):
            raise RegistrationError(
                f"Plugin {self.namespace!r} ({self.distribution}) registered vectorizer {name!r} with "
                f"factory {factory!r}; give a 'module:callable' string"
            )
        full = name if default_namespace else f"{self.namespace}/{name}"
        if full in self.factories:
            raise RegistrationError(f"Plugin {self.namespace!r} registered vectorizer {full!r} twice")
        self.factories[full] = factory


class WrapperSetRegistrar(_Registrar):
    """Collects a plugin's wrapper sets: name -> ordered wrapper specs (innermost first)."""

    def __init__(self, namespace: str, distribution: str) -> None:
        super().__init__(namespace, distribution)
        self.sets: dict[str, tuple[WrapperSpec, ...]] = {}

    def register(self, name: str, wrappers: Any, *, default_namespace: bool = False) -> None:
        """Describe one wrapper set.

        Args:
            name: Its name; placed in the plugin's namespace unless ``default_namespace``.
            wrappers: The wrappers, innermost first. Each is a :class:`WrapperSpec`, a
                ``("module:Class", {kwargs})`` pair or a bare ``"module:Class"`` string.
            default_namespace: Register the bare name (reserved for the built-in plugin).

        Raises:
            RegistrationError: A malformed name or wrapper, an empty set, or a duplicate.
        """
        _check_name("wrapper set", self.namespace, self.distribution, name)
        where = f"Plugin {self.namespace!r} ({self.distribution}) wrapper set {name!r}"
        if isinstance(wrappers, str | WrapperSpec) or not wrappers:
            raise RegistrationError(f"{where}: give a non-empty list of wrappers, got {wrappers!r}")
        specs = tuple(self._spec(item, where) for item in wrappers)
        full = name if default_namespace else f"{self.namespace}/{name}"
        if full in self.sets:
            raise RegistrationError(f"{where} is registered twice")
        self.sets[full] = specs

    @staticmethod
    def _spec(item: Any, where: str) -> WrapperSpec:
        if isinstance(item, WrapperSpec):
            entry_point, kwargs = item.entry_point, item.kwargs
        elif isinstance(item, str):
            entry_point, kwargs = item, {}
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], dict):
            entry_point, kwargs = item
        else:
            raise RegistrationError(
                f"{where}: cannot read wrapper {item!r}; give a WrapperSpec, ('module:Class', kwargs) "
                "or 'module:Class'"
            )
        if not _is_entry_point(entry_point):
            raise RegistrationError(f"{where}: wrapper entry point {entry_point!r} is not 'module:Class'")
        if kwargs is None:
            raise RegistrationError(
                f"{where}: wrapper {entry_point!r} needs recorded kwargs (use {{}} for none)"
            )
        return WrapperSpec(entry_point.split(":")[1].split(".")[-1], entry_point, dict(kwargs))
