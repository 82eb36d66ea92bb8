"""Record: a tuple with named fields, written out rather than generated.

``typing.NamedTuple`` builds each class with ``eval`` when its module is imported, 0.1 to
0.3 ms a class; the records every ``make`` imports (:class:`~palaestra._base._ids.EnvId`,
the discovery's ``PluginRecord``) subclass this instead. A subclass lists ``_fields``,
defines ``__new__`` with those parameters and a property per field; this base gives the
rest of a named tuple's face: repr, ``_replace``, ``_asdict`` and pickling.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = ["Record"]


class Record(tuple):  # type: ignore[type-arg]
    """A tuple whose items have names (see the module docstring)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

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
