"""Warnings emitted by palaestra, in Gymnasium's ``logger`` style."""

from __future__ import annotations

import warnings

__all__ = ["deprecation", "error", "warn"]

WARN = 30
ERROR = 40
min_level = WARN


def warn(msg: str, *args: object, category: type[Warning] | None = None, stacklevel: int = 1) -> None:
    """Emit a warning prefixed with ``WARN:``.

    Args:
        msg: The message, %-formatted with ``args``.
        *args: Values for ``msg``.
        category: Warning class; ``UserWarning`` when ``None``.
        stacklevel: How many frames above the caller to attribute the warning to.
    """
    if min_level <= WARN:
        text = msg % args if args else msg
        warnings.warn(f"WARN: {text}", category=category, stacklevel=stacklevel + 1)


def deprecation(msg: str, *args: object) -> None:
    """Emit a ``DeprecationWarning`` prefixed with ``WARN:``."""
    warn(msg, *args, category=DeprecationWarning, stacklevel=2)


def error(msg: str, *args: object) -> None:
    """Emit a warning prefixed with ``ERROR:`` (for problems that do not stop the run)."""
    if min_level <= ERROR:
        text = msg % args if args else msg
        warnings.warn(f"ERROR: {text}", stacklevel=3)
