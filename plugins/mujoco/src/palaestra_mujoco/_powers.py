"""Squares of a column of numbers as Python's ``**`` gives them, for InvertedDoublePendulum's scores.

A single env squares Python floats (``x**2``: CPython calls libm's ``pow``), and Gymnasium
numpy scalars (``pow`` too). ``x * x`` and numpy's array power may round some squares
differently, so a batch squares each number with ``pow`` as well. :func:`plain_squares`
does it number by number in Python: the specification. :func:`squares` does the same in
one C loop where the optional ``_compiled`` module was built (tests check the two equal);
the loop leaves a square that overflows to the plain version, which raises Python's
``OverflowError`` there.
"""

from __future__ import annotations

from itertools import repeat

import numpy as np

from palaestra_mujoco._native import compiled

__all__ = ["plain_squares", "squares"]


def plain_squares(values: np.ndarray) -> np.ndarray:
    """Each number of ``values`` to the power 2 as Python's ``**`` gives it, as float64."""
    return np.fromiter(map(pow, values.tolist(), repeat(2)), dtype=np.float64, count=len(values))


def squares(values: np.ndarray) -> np.ndarray:
    """:func:`plain_squares`, in C where it can (``values``: a float64 vector)."""
    if compiled is None:
        return plain_squares(values)
    column = np.ascontiguousarray(values, dtype=np.float64)
    out = np.empty(len(column))
    done = compiled.squares(column, out)
    if done < len(column):  # an overflow: Python's own error
        out[done:] = plain_squares(column[done:])
    return out
