"""WrapperSpec: how to rebuild one wrapper (a leaf, so that wrappers can record themselves)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["WrapperSpec"]


@dataclass
class WrapperSpec:
    """How to rebuild one wrapper.

    Attributes:
        name: The wrapper's class name.
        entry_point: ``"module:Class"`` of the wrapper.
        kwargs: Constructor arguments, or ``None`` when the wrapper does not record them.
    """

    name: str
    entry_point: str
    kwargs: dict[str, Any] | None
