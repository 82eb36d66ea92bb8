"""Parsing and composing environment ids: ``[namespace/]name[-vN]``.

Only the Gymnasium bridge's namespace nests: ``gymnasium/ALE/Pong-v5`` (namespace
``gymnasium/ALE``) is Gymnasium's ``ALE/Pong-v5`` resolved on demand. Any other id with two
namespaces is malformed, as in Gymnasium. A namespace's first segment names the plugin that
owns the id.
"""

from __future__ import annotations

from palaestra._base._plain import Record
from palaestra.error import Error, InvalidEnvId

__all__ = [
    "ENV_ID_PATTERN",
    "EnvId",
    "NESTING_NAMESPACES",
    "get_env_id",
    "namespace_of",
    "parse_env_id",
    "plugin_namespace",
    "without_namespace",
]

# Namespaces whose ids carry another registry's namespace inside (the Gymnasium bridge's).
NESTING_NAMESPACES = frozenset({"gymnasium"})

# Gymnasium's id pattern: the specification of split_env_id, which follows it without a
# regex (compiling this one cost every process a third of a millisecond). Names may hold
# word characters, ":", "." and "-"; namespaces word characters, ":" and "-".
ENV_ID_PATTERN = r"^(?:(?P<namespace>[\w:-]+(?:/[\w:-]+)*)/)?(?:(?P<name>[\w:.-]+?))(?:-v(?P<version>\d+))?$"


def _made_of(text: str, punctuation: str) -> bool:
    """Whether ``text`` has only word characters (alphanumerics and ``_``) and ``punctuation``."""
    for mark in punctuation:
        text = text.replace(mark, "")
    return not text or text.isalnum()


def split_env_id(env_id: str) -> tuple[str | None, str, int | None] | None:
    """``(namespace, name, version)`` as :data:`ENV_ID_PATTERN` matches them, or None if it does not.

    The namespace is everything before the last "/" (a name holds none). The name is as
    short as the pattern lets it be, so a trailing ``-v<digits>`` (decimal digits, at least
    one, after a name of at least one character) is the version.
    """
    namespace, slash, rest = env_id.rpartition("/")
    if slash and not all(part and _made_of(part, "_:-") for part in namespace.split("/")):
        return None
    version = None
    at = rest.rfind("-v")
    if at >= 1 and rest[at + 2 :].isdecimal():
        rest, version = rest[:at], int(rest[at + 2 :])
    if not rest or not _made_of(rest, "_:.-"):
        return None
    return (namespace if slash else None), rest, version


def parse_env_id(env_id: str) -> tuple[str | None, str, int | None]:
    """Split an id into ``(namespace, name, version)``; absent parts are ``None``.

    Raises:
        Error: The id does not have the form ``[namespace/]name[-vN]``.
        InvalidEnvId: The id is not a string.
    """
    if not isinstance(env_id, str):
        raise InvalidEnvId(
            f"Environment id must be a string of the form [namespace/](env-name)-v(version), got "
            f"{env_id!r:.80} ({type(env_id).__name__})"
        )
    parts = split_env_id(env_id)
    if parts is None or (
        parts[0] is not None and "/" in parts[0] and plugin_namespace(parts[0]) not in NESTING_NAMESPACES
    ):
        raise Error(
            f"Malformed environment ID: {env_id}. (Currently all IDs must be of the form "
            "[namespace/](env-name)-v(version). (namespace is optional))"
        )
    return parts


def get_env_id(ns: str | None, name: str, version: int | None) -> str:
    """Compose an id from its parts (the inverse of :func:`parse_env_id`)."""
    full = name if ns is None else f"{ns}/{name}"
    return full if version is None else f"{full}-v{version}"


def plugin_namespace(namespace: str) -> str:
    """The plugin owning a (possibly nested) namespace, or a qualified ``ns/name``: its first segment."""
    return namespace.split("/", 1)[0]


def namespace_of(env_id: str) -> str | None:
    """The namespace of an id (everything before its last ``/``); None in the default namespace."""
    namespace, slash, _ = env_id.rpartition("/")
    return namespace if slash else None


def without_namespace(env_id: str) -> str:
    """The id without its namespace: ``ALE/Pong-v5`` -> ``Pong-v5``."""
    return env_id.rpartition("/")[2]


class EnvId(Record):
    """An id parsed once, carried through a lookup instead of its text being parsed again.

    A named tuple ``(text, namespace, name, version)``:

    Attributes:
        text: The id as given.
        namespace: Its namespace (``None`` for the default namespace).
        name: Its name.
        version: Its version (``None`` when unversioned).
    """

    __slots__ = ()
    _fields = ("text", "namespace", "name", "version")
    text: str
    namespace: str | None
    name: str
    version: int | None

    def __new__(cls, text: str, namespace: str | None, name: str, version: int | None) -> EnvId:
        return tuple.__new__(cls, (text, namespace, name, version))

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
