"""Importing what a ``"module:attr"`` entry point names."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from palaestra.error import Error

__all__ = ["load_env_creator"]


def load_env_creator(name: str) -> Callable[..., Any]:
    """Import ``"module:attr"`` and return the attribute.

    Raises:
        Error: The string is not of the form ``module:attr``.
        ModuleNotFoundError: The module cannot be imported (message names the entry point).
        AttributeError: The module lacks the attribute.
    """
    if name.count(":") != 1:
        raise Error(f"Entry point {name!r} must have the form 'module.path:AttributeName'")
    module_name, attr = name.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        raise ModuleNotFoundError(
            f"{e}. Could not import module {module_name!r} of entry point {name!r}; "
            "is the package that provides it installed?",
            name=e.name,
        ) from e
    try:
        return getattr(module, attr)  # type: ignore[no-any-return]
    except AttributeError as e:
        raise AttributeError(
            f"Module {module_name!r} has no attribute {attr!r} (entry point {name!r})"
        ) from e
