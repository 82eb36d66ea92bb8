"""The errors of space arguments and space utilities, defined when first used.

``palaestra.error`` serves them (see :mod:`palaestra._base._vector_errors` for why they
live apart); each class's ``__module__`` is ``palaestra.error``.
"""

from __future__ import annotations

from palaestra.error import Error

__all__ = [
    "CustomSpaceError",
    "DynamicSpaceError",
    "InvalidBound",
    "InvalidProbability",
    "InvalidSampleArgument",
    "InvalidSampleArgumentType",
    "InvalidSpaceArgument",
    "MissingArgument",
]


class MissingArgument(Error):
    """A required argument is missing."""


class InvalidProbability(Error):
    """A probability is outside ``[0, 1]``."""


class InvalidBound(Error):
    """A lower bound exceeds the upper bound."""


class InvalidSampleArgument(Error, ValueError, AssertionError):
    """A ``sample`` mask, probability or size argument is malformed.

    An ``AssertionError`` too: Gymnasium checks these with ``assert``, and code written for it
    may catch that.
    """


class InvalidSampleArgumentType(InvalidSampleArgument, TypeError):
    """A ``sample`` mask or probability is of the wrong type or dtype (also a ``TypeError``)."""


class InvalidSpaceArgument(Error, TypeError, ValueError):
    """A space constructor's argument is of the wrong type or value.

    Both a ``TypeError`` and a ``ValueError``: Gymnasium raises one or the other (or lets NumPy
    raise), and code written for it may catch either.
    """


class CustomSpaceError(Exception):
    """A custom space lacks an implementation of a space utility."""


class DynamicSpaceError(CustomSpaceError, TypeError):
    """A space of dynamic shape (Graph, Sequence) was asked for a fixed-size buffer.

    A ``TypeError`` too, as Gymnasium raises there.
    """


for _cls in (
    MissingArgument,
    InvalidProbability,
    InvalidBound,
    InvalidSampleArgument,
    InvalidSampleArgumentType,
    InvalidSpaceArgument,
    CustomSpaceError,
    DynamicSpaceError,
):
    _cls.__module__ = "palaestra.error"
