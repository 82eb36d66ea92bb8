"""Warnings emitted by palaestra, in Gymnasium's ``logger`` format.

The text is Gymnasium's to the byte (``WARN: `` in yellow, ``ERROR: `` in red, as ANSI
colour codes), so warning filters and log scrapers written for Gymnasium keep matching.
"""

from __future__ import annotations

import re
import warnings

__all__ = ["colorize", "deprecation", "error", "plain_text", "warn"]

# ANSI foreground colour codes; a highlight (background) is the same code plus 10.
_CODES = {
    "gray": 30,
    "red": 31,
    "green": 32,
    "yellow": 33,
    "blue": 34,
    "magenta": 35,
    "cyan": 36,
    "white": 37,
    "crimson": 38,
}


def colorize(string: str, color: str, bold: bool = False, highlight: bool = False) -> str:
    """``string`` wrapped in the ANSI escape codes that print it in ``color``.

    Args:
        string: The text.
        color: One of gray, red, green, yellow, blue, magenta, cyan, white, crimson.
        bold: Also print it bold.
        highlight: Colour the background instead of the text.

    Raises:
        ValueError: ``color`` is not one of the names above.
    """
    try:
        code = _CODES[color]
    except KeyError:
        raise ValueError(f"Unknown color {color!r}; choose one of {', '.join(_CODES)}.") from None
    codes = str(code + 10 if highlight else code) + (";1" if bold else "")
    return f"\x1b[{codes}m{string}\x1b[0m"


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
