"""The callback object handed to a plugin's registration hook."""

from __future__ import annotations

from typing import Any

from palaestra._registry._ids import get_env_id, parse_env_id
from palaestra._registry._spec import EnvSpec
from palaestra.error import RegistrationError

__all__ = ["EnvRegistrar", "VectorizerRegistrar"]

_SPEC_FIELDS = frozenset(
    {
        "reward_threshold",
        "nondeterministic",
        "max_episode_steps",
        "order_enforce",
        "disable_env_checker",
        "kwargs",
        "additional_wrappers",
        "vector_entry_point",
    }
)


class EnvRegistrar:
    """Collects a plugin's env registrations; the host validates and commits them.

    Attributes:
        namespace: The plugin's namespace (its entry-point name).
        distribution: The distribution that declared the plugin.
    """

    def __init__(self, namespace: str, distribution: str) -> None:
        self.namespace = namespace
        self.distribution = distribution
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
            id: ``Name-vN`` (placed in the plugin's namespace) or ``ns/Name-vN`` with the
                plugin's own namespace.
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
        if ns is not None and ns != self.namespace:
            raise RegistrationError(
                f"Plugin {self.namespace!r} ({self.distribution}) may only register ids in its "
                f"own namespace, not {id!r}"
            )
        if ns is not None and default_namespace:
            raise RegistrationError(
                f"Plugin {self.namespace!r} registered {id!r} with default_namespace=True; "
                "give the id without a namespace"
            )
        full_ns = None if default_namespace else self.namespace
        full_id = get_env_id(full_ns, name, version)
        self.specs.append(EnvSpec(id=full_id, entry_point=entry_point, **fields))


class VectorizerRegistrar:
    """Collects a plugin's vectorizer registrations: name -> ``"module:callable"``.

    Attributes:
        namespace: The plugin's namespace.
        distribution: The distribution that declared the plugin.
    """

    def __init__(self, namespace: str, distribution: str) -> None:
        self.namespace = namespace
        self.distribution = distribution
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
        if not name or "/" in name or not name.replace("_", "").replace("-", "").isalnum():
            raise RegistrationError(
                f"Plugin {self.namespace!r} ({self.distribution}) registered an invalid vectorizer "
                f"name {name!r}; use letters, digits, '-' and '_'"
            )
        if not isinstance(factory, str) or factory.count(":") != 1:
            raise RegistrationError(
                f"Plugin {self.namespace!r} ({self.distribution}) registered vectorizer {name!r} with "
                f"factory {factory!r}; give a 'module:callable' string"
            )
        full = name if default_namespace else f"{self.namespace}/{name}"
        if full in self.factories:
            raise RegistrationError(f"Plugin {self.namespace!r} registered vectorizer {full!r} twice")
        self.factories[full] = factory
