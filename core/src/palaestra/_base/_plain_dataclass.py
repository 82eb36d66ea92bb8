"""Classes written out by hand that are dataclasses to anyone who asks.

``EnvSpec`` and ``WrapperSpec`` are dataclasses in Gymnasium, and code written for it uses
``dataclasses.replace``, ``fields`` and ``asdict`` on them. Building a class with
``@dataclass`` compiles its methods when the module is imported, and together with
``import dataclasses`` that cost every process that makes an env about 2.5 ms (a fifth of
palaestra's start-up). So the two classes are written as plain classes whose ``__init__``,
``__repr__`` and ``__eq__`` do what the generated ones do, and whose dataclass fields come
from a real ``@dataclass`` twin (:mod:`palaestra._base._spec_dataclasses`, the
specification) the first time anything asks for them. ``tests/core/test_plain_dataclass.py``
holds each class to its twin: signature, repr, equality, fields, ``replace``, ``asdict``.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["FACTORY", "TwinAttribute"]

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
