"""Reading plugin entry points from installed distribution metadata (no plugin code runs)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata

__all__ = [
    "ALLOW_ENV",
    "DISABLE_ENV",
    "GROUP",
    "PluginRecord",
    "allowed_namespaces",
    "autoload_disabled",
    "discover",
    "switched_off",
]

GROUP = "palaestra.plugins"
DISABLE_ENV = "PALAESTRA_DISABLE_PLUGIN_AUTOLOAD"
ALLOW_ENV = "PALAESTRA_PLUGINS"


@dataclass(frozen=True)
class PluginRecord:
    """One declared plugin: its namespace, module and declaring distribution."""

    namespace: str
    module: str
    distribution: str
    version: str


def autoload_disabled() -> bool:
    """Whether ``PALAESTRA_DISABLE_PLUGIN_AUTOLOAD`` switches discovery off."""
    return os.environ.get(DISABLE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def allowed_namespaces() -> frozenset[str] | None:
    """The ``PALAESTRA_PLUGINS`` allow-list, or ``None`` when unset."""
    raw = os.environ.get(ALLOW_ENV)
    if raw is None or not raw.strip():
        return None
    return frozenset(part.strip() for part in raw.split(",") if part.strip())


def discover(path: Sequence[str] | None = None) -> dict[str, list[PluginRecord]]:
    """Map each namespace to the plugins declaring it, in ``sys.path`` order.

    Args:
        path: Directories to scan instead of ``sys.path`` (used by tests and sandboxes).

    Returns:
        Namespace to records; more than one record means a conflict.
    """
    table: dict[str, list[PluginRecord]] = {}
    seen: set[str] = set()
    dists = metadata.distributions() if path is None else metadata.distributions(path=list(path))
    for dist in dists:
        name = dist.metadata["Name"] or "<unknown>"
        key = name.lower().replace("_", "-")
        if key in seen:  # the same distribution found twice on the path
            continue
        seen.add(key)
        for ep in dist.entry_points:
            if ep.group == GROUP:
                record = PluginRecord(ep.name, ep.value, name, dist.version)
                table.setdefault(ep.name, []).append(record)
    return table


def switched_off(
    namespace: str,
    *,
    autoload: bool | None,
    allow: frozenset[str] | None,
    path: Sequence[str] | None = None,
) -> str | None:
    """Why the installed plugin declaring ``namespace`` is not loadable, or None.

    Only for error messages: it reads the installed metadata again.

    Args:
        namespace: The namespace an id asked for.
        autoload: The host's ``autoload`` argument (``None``: follow the environment).
        allow: The host's ``allow`` argument (``None``: follow the environment).
        path: The host's search path.
    """
    records = discover(path).get(namespace)
    if not records:
        return None
    if autoload is False:
        reason = "this PluginHost was created with autoload=False"
    elif autoload is None and autoload_disabled():
        reason = f"{DISABLE_ENV}={os.environ[DISABLE_ENV]} turns plugin discovery off (unset it)"
    elif allow is not None:
        reason = f"this PluginHost was created with allow={sorted(allow)}, which leaves it out"
    else:
        reason = (
            f"{ALLOW_ENV}={os.environ.get(ALLOW_ENV, '')!r} does not list `{namespace}` "
            f"(add it, or unset {ALLOW_ENV})"
        )
    return (
        f"It is provided by the plugin `{namespace}` of the distribution `{records[0].distribution}`, "
        f"which is installed but switched off: {reason}."
    )
