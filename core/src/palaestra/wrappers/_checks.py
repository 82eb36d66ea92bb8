"""Argument checks shared by the wrappers' constructors (one wording for each kind of bound)."""

from __future__ import annotations

from palaestra.error import InvalidBound

__all__ = ["require_fraction", "require_positive"]


def require_positive(owner: str, name: str, value: float) -> None:
    """Raise :class:`InvalidBound` unless ``value > 0`` (NaN fails)."""
    if not value > 0:
        raise InvalidBound(f"{owner}: {name} must be greater than 0, got {value!r}")


def require_fraction(
    owner: str, name: str, value: float, *, one_allowed: bool, error: type[Exception] = InvalidBound
) -> None:
    """Raise ``error`` unless ``value`` lies in ``[0, 1]`` (``[0, 1)`` without ``one_allowed``)."""
    inside = 0 <= value <= 1 if one_allowed else 0 <= value < 1
    if not inside:
        interval = "[0, 1]" if one_allowed else "[0, 1)"
        raise error(f"{owner}: {name} must lie in {interval}, got {value!r}")
