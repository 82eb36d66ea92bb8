"""ANSI colours for terminal messages."""

from __future__ import annotations

__all__ = ["colorize"]

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
