"""Parsing and composing environment ids: ``[namespace/]name[-vN]``.

A namespace may itself hold ``/`` (``gymnasium/ALE/Pong-v5`` has namespace
``gymnasium/ALE``): its first segment names the plugin that owns the id.
"""

from __future__ import annotations

import re

from palaestra.error import Error

__all__ = ["ENV_ID_RE", "get_env_id", "parse_env_id", "plugin_namespace"]

ENV_ID_RE = re.compile(
    r"^(?:(?P<namespace>[\w:-]+(?:/[\w:-]+)*)/)?(?:(?P<name>[\w:.-]+?))(?:-v(?P<version>\d+))?$"
)


def parse_env_id(env_id: str) -> tuple[str | None, str, int | None]:
    """Split an id into ``(namespace, name, version)``; absent parts are ``None``.

    Raises:
        Error: The id does not have the form ``[namespace/]name[-vN]``.
    """
    match = ENV_ID_RE.fullmatch(env_id)
    if not match:
        raise Error(
            f"Malformed environment ID: {env_id}. (Currently all IDs must be of the form "
            "[namespace/](env-name)-v(version). (namespace is optional))"
        )
    ns, name, version = match.group("namespace", "name", "version")
    return ns, name, None if version is None else int(version)


def get_env_id(ns: str | None, name: str, version: int | None) -> str:
    """Compose an id from its parts (the inverse of :func:`parse_env_id`)."""
    full = name if ns is None else f"{ns}/{name}"
    return full if version is None else f"{full}-v{version}"


def plugin_namespace(namespace: str) -> str:
    """The plugin owning a (possibly nested) namespace: its first segment."""
    return namespace.split("/", 1)[0]
