"""A tuple with named fields, written out by hand in place of ``typing.NamedTuple``.

:class:`Record` is a tuple with named fields: a subclass lists ``_fields`` (annotated for
type checkers) and defines ``__new__`` with those parameters, and gets a read-only property
per field and the rest of a named tuple's face (repr, ``_replace``, ``_asdict``, pickling).
``EnvId`` and the discovery's ``PluginRecord`` are records: they are made by the hundred on
every start, where a NamedTuple's per-class generation would show.
``tests/core/test_plain_classes.py`` holds each record to a NamedTuple twin.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, ClassVar

__all__ = ["Record"]


class Record(tuple):  # type: ignore[type-arg]
    """A tuple whose items have names (see the module docstring)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for index, name in enumerate(cls._fields):  # as a named tuple reads its fields
            setattr(cls, name, property(itemgetter(index), doc=f"Alias for field number {index}"))

    def __repr__(self) -> str:
        items = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self, strict=True))
        return f"{type(self).__name__}({items})"

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)

    def _replace(self, **changes: Any) -> Any:
        """A copy with some fields changed."""
        values = [changes.pop(name, value) for name, value in zip(self._fields, self, strict=True)]
        if changes:
            raise ValueError(f"Got unexpected field names: {list(changes)!r}")
        return type(self)(*values)

    def _asdict(self) -> dict[str, Any]:
        """The fields as a dict."""
        return dict(zip(self._fields, self, strict=True))
