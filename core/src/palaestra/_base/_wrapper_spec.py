"""How a wrapper is rebuilt: the arguments it records (RecordConstructorArgs) and the record (WrapperSpec).

A leaf, so that wrappers can record themselves.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, replace
from typing import Any

__all__ = ["RecordConstructorArgs", "WrapperSpec"]


@dataclass
class WrapperSpec:
    """How to rebuild one wrapper (a dataclass, as Gymnasium's).

    Attributes:
        name: The wrapper's class name.
        entry_point: ``"module:Class"`` of the wrapper.
        kwargs: Constructor arguments, or ``None`` when the wrapper does not record them.
    """

    name: str
    entry_point: str
    kwargs: dict[str, Any] | None

    def __replace__(self, **changes: Any) -> WrapperSpec:
        """``copy.replace(spec, **changes)`` (Python 3.13), as on every dataclass."""
        return replace(self, **changes)


class RecordConstructorArgs:
    """Mixin that stores the keyword arguments a wrapper was built with.

    ``Wrapper.spec`` turns them into a :class:`WrapperSpec`, which lets
    ``make(env.spec)`` rebuild the whole wrapper stack.
    """

    def __init__(self, *, _disable_deepcopy: bool = False, **kwargs: Any) -> None:
        # The first (outermost) call wins, so subclasses can record their own arguments.
        if not hasattr(self, "_saved_kwargs"):
            self._saved_kwargs: dict[str, Any] = kwargs if _disable_deepcopy else deepcopy(kwargs)
