"""Which plugin, if any, is behind a registry write.

A plugin may register ids through its hook's registrar, or Gymnasium's way: calling
``palaestra.register`` when its module is imported, or later from any of its modules. Both
must meet the same rule (a plugin writes only ids it owns), so a write is attributed:

- to the plugin the host is loading in this thread, whatever module makes the call (a
  hook module importing a helper library that registers is still that plugin);
- otherwise to the installed plugin whose package holds the calling code: the first frame
  outside palaestra's core, matched against each plugin's package (the package of its
  entry-point module);
- otherwise to nobody: user code, which may override any id (with Gymnasium's warning).

This guards the public APIs against plugins that follow Gymnasium's conventions or make
mistakes; code in the same process can always reach private state, so it is not a sandbox.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Iterable, Iterator

from palaestra._discovery import PluginRecord

__all__ = ["Provenance"]

_CORE = "palaestra"


def _package(module: str) -> str:
    """The package a plugin's entry-point module belongs to (itself when top-level)."""
    parent = module.rpartition(".")[0]
    return parent or module


class Provenance:
    """Attributes registry writes to plugins.

    Args:
        installed: Returns the installed plugins whose code may be recognised by its
            package; called on the first write from outside a plugin load (so creating
            a host discovers nothing).
    """

    def __init__(self, installed: Callable[[], Iterable[PluginRecord]]) -> None:
        self._installed = installed
        self._packages: dict[str, PluginRecord] | None = None
        self._local = threading.local()

    @contextlib.contextmanager
    def acting(self, record: PluginRecord) -> Iterator[None]:
        """Attribute every write in this thread to ``record`` for the duration of the block."""
        stack = self._stack()
        stack.append(record)
        try:
            yield
        finally:
            stack.pop()

    def plugin(self) -> PluginRecord | None:
        """The plugin behind the current write, or ``None`` for user code."""
        stack = self._stack()
        if stack:
            return stack[-1]
        return self._plugin_of(self._caller())

    def _stack(self) -> list[PluginRecord]:
        stack: list[PluginRecord] | None = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        return stack

    @staticmethod
    def _caller() -> str:
        """The module of the innermost frame outside palaestra's core."""
        frame = sys._getframe(1)
        while frame is not None:
            module = frame.f_globals.get("__name__") or ""
            if module.partition(".")[0] != _CORE:
                return str(module)
            frame = frame.f_back  # type: ignore[assignment]
        return ""

    def _plugin_of(self, module: str) -> PluginRecord | None:
        if self._packages is None:
            self._packages = {
                _package(r.module): r for r in self._installed() if r.module and _package(r.module) != _CORE
            }
        while module:
            record = self._packages.get(module)
            if record is not None:
                return record
            module = module.rpartition(".")[0]
        return None
