"""What each dimension of an env's observation and action means, with its bounds.

An env may say what its dimensions mean with a ``dimension_meanings`` attribute (a class
attribute, or a property where the meanings depend on its arguments):
``(observation rows, action rows)``, one row per dimension, or ``(count, text)`` for
``count`` dimensions at once; for a ``Discrete`` action, one row per value. The bounds come
from the space itself. ``palaestra info`` prints these tables, and the docs' env pages are
built from them, so each meaning is written once, beside its env.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from palaestra.spaces import Box, Discrete, Tuple

__all__ = ["Rows", "dimension_tables", "format_bound", "space_rows"]

#: A meaning per dimension; ``(count, text)`` covers ``count`` dimensions at once.
Rows = list[Any]


def format_bound(values: Any) -> str:
    """The bound of a range of dimensions: one number, or "low to high" (never "-0")."""
    low, high = float(np.min(values)) + 0.0, float(np.max(values)) + 0.0  # + 0.0 turns -0.0 into 0.0
    text = [f"{v:g}" if math.isfinite(v) else ("-inf" if v < 0 else "inf") for v in (low, high)]
    return text[0] if low == high else f"{text[0]} to {text[1]}"


def _box_rows(space: Any, rows: Rows, what: str) -> list[list[str]]:
    low, high = space.low.reshape(-1), space.high.reshape(-1)
    out, start = [], 0
    for row in rows:
        count, text = row if isinstance(row, tuple) else (1, row)
        stop = start + count
        index = str(start) if count == 1 else f"{start}-{stop - 1}"
        out.append([index, text, format_bound(low[start:stop]), format_bound(high[start:stop])])
        start = stop
    if start != low.size:
        raise ValueError(f"the {what} has {low.size} dimensions; the meanings cover {start}")
    return out


def space_rows(space: Any, rows: Rows, what: str) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the table of ``space`` (``what``: "observation" or "action").

    Raises:
        ValueError: The meanings do not cover the space exactly (named in the message).
    """
    if isinstance(space, Box):
        return ["Index", "Meaning", "Min", "Max"], _box_rows(space, rows, what)
    if isinstance(space, Discrete) and what == "action":
        if len(rows) != int(space.n):
            raise ValueError(f"the action has {space.n} values; {len(rows)} meanings")
        return ["Value", "Meaning"], [[str(int(space.start) + i), text] for i, text in enumerate(rows)]
    parts = list(space.spaces) if isinstance(space, Tuple) else [space]
    counted = [part for part in parts if isinstance(part, Discrete)]  # integers: from start, n of them
    if len(counted) != len(parts) or len(parts) != len(rows):
        raise ValueError(f"the {what} has {len(parts)} parts; {len(rows)} meanings")
    return ["Index", "Meaning", "Min", "Max"], [
        [str(i), text, str(int(part.start)), str(int(part.start) + int(part.n) - 1)]
        for i, (part, text) in enumerate(zip(counted, rows, strict=True))
    ]


def dimension_tables(env: Any) -> list[tuple[str, list[str], list[list[str]]]]:
    """``(what, header, rows)`` for the observation and the action of ``env``, where it says.

    Empty when the env states no meanings; raises ValueError when they do not cover its spaces.
    """
    meanings = getattr(env.unwrapped, "dimension_meanings", None)
    if meanings is None:
        return []
    observation_rows, action_rows = meanings
    return [
        (what, *space_rows(space, rows, what))
        for what, space, rows in (
            ("observation", env.observation_space, observation_rows),
            ("action", env.action_space, action_rows),
        )
    ]
