"""Classes written out by hand that stand in for generated ones.

``typing.NamedTuple`` and ``@dataclass`` build their classes when their module is imported
(``eval`` of generated methods: 0.1 to 1 ms a class, with ``import dataclasses``), and the
classes every ``make`` imports would pay that on every start. So:

- :class:`Record` is a tuple with named fields: a subclass lists ``_fields`` (annotated
  for type checkers) and defines ``__new__`` with those parameters, and gets a read-only
  property per field and the rest of a named tuple's face (repr, ``_replace``,
  ``_asdict``, pickling). ``EnvId`` and the discovery's
  ``PluginRecord`` are records.
- ``EnvSpec`` and ``WrapperSpec`` are dataclasses in Gymnasium, and code written for it uses
  ``dataclasses.replace``, ``fields`` and ``asdict`` on them. They are plain classes whose
  ``__init__``, ``__repr__`` and ``__eq__`` do what the generated ones do, and whose
  dataclass fields come from a real ``@dataclass`` twin
  (:mod:`palaestra._base._spec_dataclasses`, the specification) through
  :class:`TwinAttribute` the first time anything asks for them.

``tests/core/test_plain_classes.py`` holds each class to its generated twin.
"""

from __future__ import annotations

import importlib
from operator import itemgetter
from typing import Any, ClassVar

__all__ = ["FACTORY", "Record", "TwinAttribute"]


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


_TWINS = "palaestra._base._spec_dataclasses"


class _Factory:
    """The default of a field built by a default factory (shown as dataclasses shows it)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


FACTORY: Any = _Factory()


class TwinAttribute:
    """A class attribute read from the class's dataclass twin the first time it is asked for.

    Set as ``__dataclass_fields__`` and ``__dataclass_params__``: ``dataclasses.fields``,
    ``replace``, ``asdict`` and ``is_dataclass`` read them through ``getattr``/``hasattr``,
    which call this; the twin's value then replaces it on the class.
    """

    def __init__(self, twin: str) -> None:
        self.twin = twin
        self.attribute = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.attribute = name

    def __get__(self, instance: object, owner: type) -> Any:
        value = getattr(getattr(importlib.import_module(_TWINS), self.twin), self.attribute)
        setattr(owner, self.attribute, value)
        return value
