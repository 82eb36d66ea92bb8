"""The process-wide default host, created on first use (never at import)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from palaestra._plugins._host import PluginHost

__all__ = ["get_host", "use_host"]

_lock = threading.Lock()
_host: PluginHost | None = None


def get_host() -> PluginHost:
    """The default :class:`PluginHost`, created on first call."""
    global _host
    if _host is None:
        with _lock:
            if _host is None:
                _host = PluginHost()
    return _host


@contextlib.contextmanager
def use_host(host: PluginHost) -> Iterator[PluginHost]:
    """Make ``host`` the default for the duration of the block (tests, sandboxes)."""
    global _host
    previous = _host
    _host = host
    try:
        yield host
    finally:
        _host = previous
