"""Which plugins are installed: entry points read from metadata (no plugin code runs).

The scan itself (:mod:`._scan`, loaded only on a cache miss) and its cache
(:mod:`._cache`) sit below this module; here are the switches that decide what discovery
may see and whom a user prefers.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from palaestra._discovery import GROUP, NAMES_GROUP, Declarations, PluginRecord, _scan
from palaestra._discovery._cache import cached_scan

__all__ = [
    "ALLOW_ENV",
    "DISABLE_ENV",
    "GROUP",
    "NAMES_GROUP",
    "PREFER_ENV",
    "Declarations",
    "PluginRecord",
    "allowed_namespaces",
    "autoload_disabled",
    "discover",
    "preferred_owners",
    "switched_off",
]

DISABLE_ENV = "PALAESTRA_DISABLE_PLUGIN_AUTOLOAD"
ALLOW_ENV = "PALAESTRA_PLUGINS"
PREFER_ENV = "PALAESTRA_PREFER"


def autoload_disabled() -> bool:
    """Whether ``PALAESTRA_DISABLE_PLUGIN_AUTOLOAD`` switches discovery off."""
    return os.environ.get(DISABLE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def allowed_namespaces() -> frozenset[str] | None:
    """The ``PALAESTRA_PLUGINS`` allow-list, or ``None`` when unset."""
    raw = os.environ.get(ALLOW_ENV)
    if raw is None or not raw.strip():
        return None
    return frozenset(part.strip() for part in raw.split(",") if part.strip())


def preferred_owners() -> dict[str, str]:
    """``PALAESTRA_PREFER``: which distribution owns a default-namespace name two declare.

    The value is comma-separated ``Name=distribution`` pairs, e.g.
    ``CartPole=palaestra-classic-control``.
    """
    chosen = {}
    for part in os.environ.get(PREFER_ENV, "").split(","):
        name, sep, distribution = part.partition("=")
        if sep and name.strip() and distribution.strip():
            chosen[name.strip()] = distribution.strip()
    return chosen


def discover(path: Sequence[str] | None = None) -> Declarations:
    """What the distributions on ``path`` declare (``sys.path``, through the cache, by default).

    Args:
        path: Directories to scan instead of ``sys.path`` (tests and sandboxes; not cached).
    """
    if path is None:
        return cached_scan(list(sys.path))
    return _scan.scan(path)  # an explicit path is never cached


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
    records = discover(path).plugins.get(namespace)
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
