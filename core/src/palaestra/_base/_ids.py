"""Parsing and composing environment ids: ``[namespace/]name[-vN]``.

Only the Gymnasium bridge's namespace nests: ``gymnasium/ALE/Pong-v5`` (namespace
``gymnasium/ALE``) is Gymnasium's ``ALE/Pong-v5`` resolved on demand. Any other id with two
namespaces is malformed, as in Gymnasium. A namespace's first segment names the plugin that
owns the id.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from palaestra.error import Error

__all__ = ["ENV_ID_RE", "NESTING_NAMESPACES", "EnvId", "get_env_id", "parse_env_id", "plugin_namespace"]

# Namespaces whose ids carry another registry's namespace inside (the Gymnasium bridge's).
NESTING_NAMESPACES = frozenset({"gymnasium"})

ENV_ID_RE = re.compile(
    r"^(?:(?P<namespace>[\w:-]+(?:/[\w:-]+)*)/)?(?:(?P<name>[\w:.-]+?))(?:-v(?P<version>\d+))?$"
)


def parse_env_id(env_id: str) -> tuple[str | None, str, int | None]:
    """Split an id into ``(namespace, name, version)``; absent parts are ``None``.

    Raises:
        Error: The id does not have the form ``[namespace/]name[-vN]``.
    """
    match = ENV_ID_RE.fullmatch(env_id)
    ns = match.group("namespace") if match else None
    if not match or (ns is not None and "/" in ns and plugin_namespace(ns) not in NESTING_NAMESPACES):
        raise Error(
            f"Malformed environment ID: {env_id}. (Currently all IDs must be of the form "
            "[namespace/](env-name)-v(version). (namespace is optional))"
        )
    name, version = match.group("name", "version")
    return ns, name, None if version is None else int(version)


def get_env_id(ns: str | None, name: str, version: int | None) -> str:
    """Compose an id from its parts (the inverse of :func:`parse_env_id`)."""
    full = name if ns is None else f"{ns}/{name}"
    return full if version is None else f"{full}-v{version}"


def plugin_namespace(namespace: str) -> str:
    """The plugin owning a (possibly nested) namespace: its first segment."""
    return namespace.split("/", 1)[0]


class EnvId(NamedTuple):
    """An id parsed once, carried through a lookup instead of its text being parsed again.

    Attributes:
        text: The id as given.
        namespace: Its namespace (``None`` for the default namespace).
        name: Its name.
        version: Its version (``None`` when unversioned).
    """

    text: str
    namespace: str | None
    name: str
    version: int | None

    @classmethod
    def parse(cls, text: str) -> EnvId:
        """Parse ``text`` (see :func:`parse_env_id`; raises its ``Error`` for a malformed id)."""
        return cls(text, *parse_env_id(text))

    @classmethod
    def parse_or_none(cls, text: str) -> EnvId | None:
        """:meth:`parse`, or ``None`` for a malformed id (lookups that only load plugins)."""
        try:
            return cls.parse(text)
        except Error:
            return None
