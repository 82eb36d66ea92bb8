"""The few operations whose spelling differs between Python floats and numpy arrays.

Each env's dynamics are written once, as a function of its state variables and an ``ops``
argument: :data:`SCALAR` when the single env steps one state of Python floats, :data:`ARRAY`
when a batched env steps every sub-env's state at once. Everything else (``+``, ``*``,
comparisons, ``&``) is spelled the same for both, so both give the same roundings.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["ARRAY", "SCALAR", "Ops"]


def _where(condition: Any, if_true: Any, if_false: Any) -> Any:
    return if_true if condition else if_false


def _clip(value: Any, low: Any, high: Any) -> Any:
    # Two comparisons cost a third of min(max(...)) on Python floats.
    return low if value < low else (high if value > high else value)


def _clip_each(values: np.ndarray, low: Any, high: Any) -> np.ndarray:
    clipped: np.ndarray = np.minimum(np.maximum(values, low), high)
    return clipped


def _square_each(values: np.ndarray) -> np.ndarray:
    # libm's pow(x, 2) (what ``x ** 2`` calls for a float or a numpy scalar) is not always
    # x*x in the last bit, and numpy turns ``array ** 2`` into x*x: square each element
    # with pow instead, in the array's precision.
    if values.dtype == np.float64:
        return np.array([v**2 for v in values.tolist()])
    return np.array([v**2 for v in values], dtype=values.dtype)


def _float64(value: Any) -> Any:
    return value.astype(np.float64)


class Ops:
    """cos/sin, clipping to an interval, a select, a pow-exact square, any, and widening to float64."""

    def __init__(
        self,
        cos: Any,
        sin: Any,
        clip: Any,
        where: Any,
        pow2: Any,
        any_: Any,
        to_float64: Any,
    ) -> None:
        self.cos, self.sin, self.clip = cos, sin, clip
        self.where, self.pow2, self.any, self.to_float64 = where, pow2, any_, to_float64


SCALAR = Ops(math.cos, math.sin, _clip, _where, lambda value: value**2, bool, float)
ARRAY = Ops(np.cos, np.sin, _clip_each, np.where, _square_each, np.any, _float64)
