"""Calling one plugin's hooks: plain functions directly, anything else through pluggy.

palaestra calls each plugin's hooks on their own (a plugin registers only its own ids, so
no hook call ever combines two plugins). For that one-plugin call, pluggy's
``PluginManager`` does something simple with the usual hook implementation, a module-level
function marked with ``@hookimpl``: it calls the function with the arguments it names
(those without defaults), passed positionally, and ignores the marker's ordering options.
:class:`PluginHooks` does exactly that itself, sparing every process that makes an env the
import of pluggy and the building of a manager. Everything else, hook wrappers, methods,
decorated or non-function implementations, arguments the hook specification does not
offer, goes to a pluggy ``PluginManager`` built for that plugin alone, which is the
specification: pluggy validates it (its ``PluginValidationError``) and calls it.
Only hooks whose specification sets none of pluggy's calling options (:data:`DIRECT_HOOKS`)
are called directly, so an option a specification gains (``firstresult``, ``historic``, a
warning on implementing it) sends its calls through pluggy. ``tests/core/test_plugin_hooks.py``
runs both ways on the same plugins and compares what they registered, and fails the day the
direct call meets an option it does not know.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from typing import Any

from palaestra import hookspecs
from palaestra._base._markers import PROJECT_NAME

__all__ = ["HOOK_ARGUMENTS", "PluginHooks"]

_IMPL = f"{PROJECT_NAME}_impl"


def _arguments(function: Callable[..., Any]) -> tuple[str, ...]:
    """The positional parameters of ``function`` that have no default (what a hook call passes)."""
    code = function.__code__
    names = code.co_varnames[: code.co_argcount]
    defaults = function.__defaults__
    return names[: -len(defaults)] if defaults else names


_SPECS = {
    name: spec
    for name, spec in vars(hookspecs).items()
    if name.startswith(f"{PROJECT_NAME}_") and hasattr(spec, f"{PROJECT_NAME}_spec")
}
# Each hook's arguments, read from its specification in palaestra.hookspecs.
HOOK_ARGUMENTS: Mapping[str, frozenset[str]] = {
    name: frozenset(_arguments(spec)) for name, spec in _SPECS.items()
}

#: The specification options under which calling the one implementation directly is what
#: pluggy does: no first-result cutting, no history replay, no warning on implementing it.
PLAIN_SPEC_OPTIONS = {
    "firstresult": False,
    "historic": False,
    "warn_on_impl": None,
    "warn_on_impl_args": None,
}

#: The hooks whose specifications the direct call honours; any other goes through pluggy,
#: so an option set on a specification can never be ignored by the direct path.
DIRECT_HOOKS = frozenset(
    name for name, spec in _SPECS.items() if getattr(spec, f"{PROJECT_NAME}_spec") == PLAIN_SPEC_OPTIONS
)


def _marked(value: object) -> bool:
    """Whether ``value`` carries a hook implementation mark (read without running user code)."""
    if isinstance(value, (staticmethod, classmethod, types.MethodType)):
        return isinstance(getattr(value, _IMPL, None), dict) or isinstance(
            getattr(value.__func__, _IMPL, None), dict
        )
    return isinstance(value, types.FunctionType) and isinstance(getattr(value, _IMPL, None), dict)


def _plain_calls(module: types.ModuleType) -> dict[str, tuple[Callable[..., Any], tuple[str, ...]]] | None:
    """Hook name -> (function, its arguments) for ``module``, or None if pluggy must call them.

    Plain means: a module-level function, not wrapped by a decorator, marked without
    ``wrapper``/``hookwrapper``, one implementation per hook, asking only for arguments its
    hook's specification offers (or implementing no hook palaestra knows, which pluggy
    accepts and never calls).
    """
    calls: dict[str, tuple[Callable[..., Any], tuple[str, ...]]] = {}
    for attribute, value in vars(module).items():
        if not _marked(value):
            continue
        if not isinstance(value, types.FunctionType) or hasattr(value, "__wrapped__"):
            return None
        options = getattr(value, _IMPL)
        if options.get("wrapper") or options.get("hookwrapper"):
            return None
        qualname = value.__qualname__.rsplit("<locals>.", 1)[-1]
        if "." in qualname:  # a method: pluggy decides whether its first parameter is bound
            return None
        name = options.get("specname") or attribute
        arguments = _arguments(value)
        offered = HOOK_ARGUMENTS.get(name)
        if name in calls or (offered is not None and not offered.issuperset(arguments)):
            return None
        if offered is not None and name not in DIRECT_HOOKS:  # its specification asks more of pluggy
            return None
        calls[name] = (value, arguments)
    return calls


class PluginHooks:
    """The hook implementations of one plugin module, called one hook at a time.

    Args:
        module: The plugin's hook module.
        name: The plugin's name in messages (its namespace).

    Raises:
        pluggy.PluginValidationError: The module's hooks are invalid (pluggy's own checks).
    """

    __slots__ = ("_calls", "_manager", "names")

    def __init__(self, module: types.ModuleType, name: str) -> None:
        calls = _plain_calls(module)
        self._calls = calls
        self._manager: Any = None
        if calls is None:
            self._manager = _pluggy_manager(module, name)
            hook_callers = self._manager.get_hookcallers(module) or []
            self.names = frozenset(caller.name for caller in hook_callers)
        else:
            self.names = frozenset(calls)

    def call(self, hook: str, **arguments: Any) -> None:
        """Call the plugin's implementation of ``hook`` (if it has one) with ``arguments``."""
        if self._calls is None:
            getattr(self._manager.hook, hook)(**arguments)
            return
        found = self._calls.get(hook)
        if found is not None:
            function, wanted = found
            function(*[arguments[argument] for argument in wanted])


def _pluggy_manager(module: types.ModuleType, name: str) -> Any:
    """A pluggy ``PluginManager`` holding palaestra's hook specifications and ``module`` alone."""
    import pluggy  # start-up: only hooks beyond plain functions need it (3.1 ms)

    manager = pluggy.PluginManager(PROJECT_NAME)
    manager.add_hookspecs(hookspecs)
    manager.register(module, name=name)
    return manager
