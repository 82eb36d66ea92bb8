"""Names a package exports without importing their modules until first use."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports", "load_export"]


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
