"""WrapperSpec: how to rebuild one wrapper (a leaf, so that wrappers can record themselves)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from palaestra._base._plain import TwinAttribute

if TYPE_CHECKING:
    from dataclasses import Field

__all__ = ["WrapperSpec"]


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
