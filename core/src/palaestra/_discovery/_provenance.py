"""Which plugin, if any, is behind a registry write.

A plugin may register ids through its hook's registrar, or Gymnasium's way: calling
``palaestra.register`` when its module is imported, or later from any of its modules. Both
must meet the same rule (a plugin writes only ids it owns), so a write is attributed:

- to the plugin the host is loading in this thread, whatever module makes the call (a
  hook module importing a helper library that registers is still that plugin);
- otherwise to the code that called: the innermost frame outside palaestra's core that is
  a module's own code, passing over the standard library (a thread's start, an executor, a
  finaliser only carry a call) and code run with made-up globals (``exec(src, {"__name__":
  "__main__"})``, whose frames belong to no module). That module is matched against each
  plugin's package (the package of its entry-point module): a plugin's, or else user code,
  which may override any id (with Gymnasium's warning);
- to no one when no such frame exists (``Thread(target=palaestra.register)`` or an executor's
  ``submit(palaestra.register, ...)``): such a write may add new ids but never replace or
  delete one a plugin owns or declares.

This guards the public APIs against plugins that follow Gymnasium's conventions, make
mistakes or pose as user code through a thread or ``exec``. Code in the same process can
always reach private state (or patch palaestra itself), so it is not a sandbox.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Iterable, Iterator

from palaestra._discovery import PluginRecord

__all__ = ["UNATTRIBUTED", "Provenance"]

_CORE = "palaestra"
#: The writer of a call no module's code can be found behind (see the module's docstring).
UNATTRIBUTED = PluginRecord("", "", "code that cannot be attributed (a thread or exec)", "")
_CONDUITS = frozenset(sys.stdlib_module_names) - {"__main__"}


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
        """The plugin behind the current write, ``None`` for user code, or :data:`UNATTRIBUTED`."""
        stack = self._stack()
        if stack:
            return stack[-1]
        caller = self._caller()
        return UNATTRIBUTED if caller is None else self._plugin_of(caller)

    def _stack(self) -> list[PluginRecord]:
        stack: list[PluginRecord] | None = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        return stack

    @staticmethod
    def _caller() -> str | None:
        """The module whose own code made the call (see the module's docstring), or None."""
        modules = sys.modules
        frame = sys._getframe(1)
        while frame is not None:
            module = frame.f_globals.get("__name__")
            if isinstance(module, str):
                top = module.partition(".")[0]
                if top != _CORE and top not in _CONDUITS:
                    found = modules.get(module)
                    if found is not None and getattr(found, "__dict__", None) is frame.f_globals:
                        return module
            frame = frame.f_back  # type: ignore[assignment]
        return None

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
