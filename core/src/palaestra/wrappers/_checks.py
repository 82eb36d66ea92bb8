"""Argument checks shared by the wrappers' constructors.

The messages are Gymnasium's, word for word (its wording differs a little from wrapper to
wrapper, hence ``quoted``), followed by the wrapper's name.
"""

from __future__ import annotations

from palaestra.error import InvalidBound

__all__ = ["require_fraction", "require_positive"]


def require_positive(owner: str, name: str, value: float) -> None:
    """Raise :class:`InvalidBound` unless ``value > 0`` (NaN fails)."""
    if not value > 0:
        raise InvalidBound(f"`{name}` should be strictly positive. Received {value} ({owner})")


def require_fraction(
    owner: str,
    name: str,
    value: float,
    *,
    one_allowed: bool,
    error: type[Exception] = InvalidBound,
    quoted: bool = True,
) -> None:
    """Raise ``error`` unless ``value`` lies in ``[0, 1]`` (``[0, 1)`` without ``one_allowed``).

    ``quoted``: Gymnasium puts the argument's name in backticks (most wrappers) or not.
    """
    inside = 0 <= value <= 1 if one_allowed else 0 <= value < 1
    if not inside:
        interval = "[0, 1]" if one_allowed else "[0,1)"
        shown = f"`{name}`" if quoted else name
        raise error(f"{shown} should be in the interval {interval}. Received {value} ({owner})")
