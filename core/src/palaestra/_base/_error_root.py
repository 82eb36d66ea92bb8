"""The root of palaestra's errors and the pickling they share, in a leaf module.

``palaestra.error`` defines every error class on top of :class:`Error` but one:
``VectorTimeoutError`` (``_timeout_error.py``), whose base needs :mod:`multiprocessing` and
is defined when first asked for. Both build on this module, so neither imports the other's
module back. ``Error.__module__`` is ``palaestra.error``, where users, pickles and
tracebacks find it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Error", "rebuilding_reduce"]


def _rebuild(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> BaseException:
    error = cls.__new__(cls, *args)
    BaseException.__init__(error, *args)
    error.__dict__.update(state)
    return error


def rebuilding_reduce(self: BaseException) -> tuple[Any, ...]:
    """``__reduce__`` that restores an error's message and fields without calling its ``__init__``.

    Python's default calls ``cls(*args)``, which fails for an error whose constructor takes
    required keyword arguments; errors cross processes (multiprocessing, Ray) by pickle.
    """
    return (_rebuild, (type(self), self.args, dict(self.__dict__)))


class Error(Exception):
    """Root of every palaestra error; every one pickles with its message and fields."""

    __reduce__ = rebuilding_reduce


Error.__module__ = "palaestra.error"
