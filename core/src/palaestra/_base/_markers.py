"""Hook markers for the ``palaestra`` hook namespace, written the way pluggy reads them.

A marked function carries its options in the attribute ``palaestra_spec`` or
``palaestra_impl``, a dict with exactly the keys pluggy's ``HookspecMarker`` and
``HookimplMarker`` write. pluggy's plugin manager therefore reads palaestra's marks, and
palaestra reads marks made with ``pluggy.HookimplMarker("palaestra")``;
``tests/core/test_hookspecs.py`` holds the two to the same dicts. They are defined here,
not taken from pluggy, because importing pluggy costs every process that makes an env
about 3 ms, and a plugin's hook module is imported on that path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar, overload

__all__ = ["PROJECT_NAME", "HookimplMarker", "HookspecMarker", "hookimpl", "hookspec"]

PROJECT_NAME = "palaestra"

_F = TypeVar("_F", bound=Callable[..., Any])


class _Marker:
    """A decorator factory for one project's hooks (its attribute prefix: ``project_name``)."""

    __slots__ = ("project_name",)

    def __init__(self, project_name: str) -> None:
        self.project_name = project_name


class HookspecMarker(_Marker):
    """Decorator marking a function as a hook specification of project ``project_name``."""

    __slots__ = ()

    @overload
    def __call__(
        self,
        function: _F,
        *,
        firstresult: bool = ...,
        historic: bool = ...,
        warn_on_impl: Warning | None = ...,
        warn_on_impl_args: Mapping[str, Warning] | None = ...,
    ) -> _F: ...

    @overload
    def __call__(
        self,
        function: None = ...,
        *,
        firstresult: bool = ...,
        historic: bool = ...,
        warn_on_impl: Warning | None = ...,
        warn_on_impl_args: Mapping[str, Warning] | None = ...,
    ) -> Callable[[_F], _F]: ...

    def __call__(
        self,
        function: _F | None = None,
        *,
        firstresult: bool = False,
        historic: bool = False,
        warn_on_impl: Warning | None = None,
        warn_on_impl_args: Mapping[str, Warning] | None = None,
    ) -> _F | Callable[[_F], _F]:
        if historic and firstresult:
            raise ValueError("cannot have a historic firstresult hook")
        options = {
            "firstresult": firstresult,
            "historic": historic,
            "warn_on_impl": warn_on_impl,
            "warn_on_impl_args": warn_on_impl_args,
        }
        return _marking(f"{self.project_name}_spec", options, function)


class HookimplMarker(_Marker):
    """Decorator marking a function as an implementation of a hook of project ``project_name``."""

    __slots__ = ()

    @overload
    def __call__(
        self,
        function: _F,
        *,
        hookwrapper: bool = ...,
        optionalhook: bool = ...,
        tryfirst: bool = ...,
        trylast: bool = ...,
        specname: str | None = ...,
        wrapper: bool = ...,
    ) -> _F: ...

    @overload
    def __call__(
        self,
        function: None = ...,
        *,
        hookwrapper: bool = ...,
        optionalhook: bool = ...,
        tryfirst: bool = ...,
        trylast: bool = ...,
        specname: str | None = ...,
        wrapper: bool = ...,
    ) -> Callable[[_F], _F]: ...

    def __call__(
        self,
        function: _F | None = None,
        *,
        hookwrapper: bool = False,
        optionalhook: bool = False,
        tryfirst: bool = False,
        trylast: bool = False,
        specname: str | None = None,
        wrapper: bool = False,
    ) -> _F | Callable[[_F], _F]:
        options = {
            "wrapper": wrapper,
            "hookwrapper": hookwrapper,
            "optionalhook": optionalhook,
            "tryfirst": tryfirst,
            "trylast": trylast,
            "specname": specname,
        }
        return _marking(f"{self.project_name}_impl", options, function)


def _marking(attribute: str, options: dict[str, Any], function: _F | None) -> _F | Callable[[_F], _F]:
    """Mark ``function`` now, or return the decorator that will (``@marker(...)`` form)."""

    def mark(func: _F) -> _F:
        setattr(func, attribute, dict(options))
        return func

    return mark if function is None else mark(function)


hookspec = HookspecMarker(PROJECT_NAME)
hookimpl = HookimplMarker(PROJECT_NAME)
