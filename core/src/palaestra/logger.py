"""Warnings emitted by palaestra, in Gymnasium's ``logger`` format.

The text is Gymnasium's to the byte (``WARN: `` in yellow, ``ERROR: `` in red, as ANSI
colour codes), so warning filters and log scrapers written for Gymnasium keep matching.
"""

from __future__ import annotations

import re
import warnings

from palaestra._base._colorize import colorize

__all__ = ["deprecation", "error", "plain_text", "warn"]

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
        warnings.warn(colorize(f"WARN: {text}", "yellow"), category=category, stacklevel=stacklevel + 1)


def deprecation(msg: str, *args: object) -> None:
    """Emit a ``DeprecationWarning`` prefixed with ``WARN:``."""
    warn(msg, *args, category=DeprecationWarning, stacklevel=2)


def error(msg: str, *args: object) -> None:
    """Emit a warning prefixed with ``ERROR:`` (for problems that do not stop the run)."""
    if min_level <= ERROR:
        text = msg % args if args else msg
        warnings.warn(colorize(f"ERROR: {text}", "red"), stacklevel=3)


_COLOUR_CODE = r"\x1b\[[0-9;]*m"  # compiled (and cached by re) when first used


def plain_text(message: str) -> str:
    """A warning's text without its colour codes and ``WARN: ``/``ERROR: `` prefix."""
    text = re.sub(_COLOUR_CODE, "", message)
    return text.removeprefix("WARN: ").removeprefix("ERROR: ")
