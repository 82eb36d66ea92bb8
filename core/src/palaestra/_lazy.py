"""Names a package exports without importing their modules until first use."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

__all__ = ["load_export"]


def load_export(namespace: dict[str, Any], where: Mapping[str, str], name: str) -> Any:
    """``name`` imported from its module ``where[name]`` and kept in ``namespace``.

    ``namespace`` is the exporting package's ``globals()``: once loaded, the name is an
    ordinary attribute and the package's ``__getattr__`` is not asked again.
    """
    value = namespace[name] = getattr(importlib.import_module(where[name]), name)
    return value
