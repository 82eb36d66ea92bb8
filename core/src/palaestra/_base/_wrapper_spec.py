"""How a wrapper is rebuilt: the arguments it records (RecordConstructorArgs) and the record (WrapperSpec).

A leaf, so that wrappers can record themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from palaestra._base._plain import TwinAttribute

if TYPE_CHECKING:
    from dataclasses import Field

__all__ = ["RecordConstructorArgs", "WrapperSpec", "deep_copied"]


class WrapperSpec:
    """How to rebuild one wrapper (a dataclass, as Gymnasium's: see ``_plain``).

    Attributes:
        name: The wrapper's class name.
        entry_point: ``"module:Class"`` of the wrapper.
        kwargs: Constructor arguments, or ``None`` when the wrapper does not record them.
    """

    name: str
    entry_point: str
    kwargs: dict[str, Any] | None

    if TYPE_CHECKING:  # what type checkers expect of a dataclass (dataclasses.replace etc.)
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    else:
        __dataclass_fields__ = TwinAttribute("WrapperSpec")
        __dataclass_params__ = TwinAttribute("WrapperSpec")
    __match_args__ = ("name", "entry_point", "kwargs")
    __hash__ = None  # type: ignore[assignment]  # mutable and compared by value, as a dataclass

    def __init__(self, name: str, entry_point: str, kwargs: dict[str, Any] | None) -> None:
        self.name = name
        self.entry_point = entry_point
        self.kwargs = kwargs

    def __repr__(self) -> str:
        return (
            f"{type(self).__qualname__}(name={self.name!r}, entry_point={self.entry_point!r}, "
            f"kwargs={self.kwargs!r})"
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.entry_point, self.kwargs) == (
            other.name,
            other.entry_point,
            other.kwargs,
        )


# The types copy.deepcopy returns as they are (immutable, holding nothing to copy).
_SHARED = frozenset({int, float, bool, str, bytes, type(None)})


def deep_copied(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``copy.deepcopy(kwargs)``, without importing :mod:`copy` for a dict of plain values.

    deepcopy shares ints, floats, strings and the like rather than copying them, so a new
    dict of the same items is its exact result; anything else goes through deepcopy.
    """
    if type(kwargs) is dict and all(type(k) is str and type(v) in _SHARED for k, v in kwargs.items()):
        return dict(kwargs)
    from copy import deepcopy  # the first make of most envs never gets here

    return deepcopy(kwargs)


class RecordConstructorArgs:
    """Mixin that stores the keyword arguments a wrapper was built with.

    ``Wrapper.spec`` turns them into a :class:`WrapperSpec`, which lets
    ``make(env.spec)`` rebuild the whole wrapper stack.
    """

    def __init__(self, *, _disable_deepcopy: bool = False, **kwargs: Any) -> None:
        # The first (outermost) call wins, so subclasses can record their own arguments.
        if not hasattr(self, "_saved_kwargs"):
            self._saved_kwargs: dict[str, Any] = kwargs if _disable_deepcopy else deep_copied(kwargs)
