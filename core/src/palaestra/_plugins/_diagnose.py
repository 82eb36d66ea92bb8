"""Why an installed plugin provides nothing: the traps plugin authors fall into."""

from __future__ import annotations

import inspect
from types import ModuleType

from palaestra._plugins._hook_calls import HOOK_ARGUMENTS

__all__ = ["HOOK_NAMES", "hookless_reason"]

# The hooks a plugin implements, each with @hookimpl: those palaestra.hookspecs specifies.
HOOK_NAMES = tuple(sorted(HOOK_ARGUMENTS))


def hookless_reason(module: ModuleType) -> str:
    """What ``module`` (a plugin's hook module that implements no hook) got wrong, and the fix."""
    found = []
    for name, value in vars(module).items():
        if not (name.startswith("palaestra") and inspect.isfunction(value)):
            continue
        if name in HOOK_NAMES:
            found.append(f"{name} is not decorated with @hookimpl (from palaestra.plugin import hookimpl)")
        else:
            import difflib  # start-up: an error path (1.2 ms)

            close = difflib.get_close_matches(name, HOOK_NAMES, n=1)
            better = f"; did you mean {close[0]}?" if close else ""
            found.append(f"{name} is not a hook name{better}")
    if not found:
        found.append(
            f"{module.__name__} defines no hook; implement palaestra_register_envs (with @hookimpl) "
            "there, or point the palaestra.plugins entry point at the module that does"
        )
    return "; ".join(found)
