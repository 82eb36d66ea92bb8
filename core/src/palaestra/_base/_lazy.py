"""Importing by name: names a package exports lazily, and the attribute an entry point names."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from palaestra._base._notes import noted
from palaestra.error import RegistrationError

__all__ = ["lazy_exports", "load_env_creator", "load_export"]


def load_export(namespace: dict[str, Any], where: Mapping[str, str], name: str) -> Any:
    """``name`` imported from its module ``where[name]`` and kept in ``namespace``.

    ``namespace`` is the exporting package's ``globals()``: once loaded, the name is an
    ordinary attribute and the package's ``__getattr__`` is not asked again.
    """
    value = namespace[name] = getattr(importlib.import_module(where[name]), name)
    return value


def lazy_exports(namespace: dict[str, Any], where: Mapping[str, str]) -> Callable[[str], Any]:
    """A package's module ``__getattr__`` (PEP 562) that imports each exported name on first use.

    ``__getattr__ = lazy_exports(globals(), {"MyEnv": "my_env"})`` keeps ``import package``
    cheap: ``package.MyEnv`` imports ``package.my_env`` only when it is first asked for.

    Args:
        namespace: The package's ``globals()``; a loaded name is kept there.
        where: Each public name -> the submodule defining it, relative to the package.
    """
    package = namespace["__name__"]
    modules = {name: f"{package}.{module}" for name, module in where.items()}

    def __getattr__(name: str) -> Any:
        if name in modules:
            return load_export(namespace, modules, name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


def load_env_creator(name: str) -> Callable[..., Any]:
    """Import ``"module:attr"`` and return the attribute.

    Raises:
        RegistrationError: The string is not of the form ``module:attr`` (a ``ValueError``,
            in Gymnasium's words, then the form it takes).
        AttributeError: ``name`` is not a string (Gymnasium's words too), or the module lacks
            the attribute.
        ModuleNotFoundError: The module cannot be imported (message names the entry point).
    """
    form = (
        "an entry point is a callable or a 'module.path:AttributeName' string (such as 'my_pkg.envs:MyEnv')"
    )
    if not isinstance(name, str):
        raise noted(
            AttributeError(f"{type(name).__name__!r} object has no attribute 'split'"),
            f"Entry point {name!r:.80}: {form}.",
        )
    if name.count(":") != 1:
        count = name.count(":") + 1
        words = (
            f"not enough values to unpack (expected 2, got {count})"
            if count < 2
            else "too many values to unpack (expected 2)"
        )
        raise noted(RegistrationError(words), f"Entry point {name!r:.80}: {form}.")
    module_name, attr = name.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        noted(
            e,
            f"Could not import module {module_name!r} of entry point {name!r}; is the package that "
            "provides it installed?",
        )
        raise
    try:
        return getattr(module, attr)  # type: ignore[no-any-return]
    except AttributeError as e:
        import difflib  # start-up: an error path (1.2 ms)

        close = difflib.get_close_matches(attr, [n for n in dir(module) if not n.startswith("__")], n=1)
        hint = f" Did you mean {module_name}:{close[0]}?" if close else ""
        noted(e, f"Module {module_name!r} has no attribute {attr!r} (entry point {name!r}).{hint}")
        raise
