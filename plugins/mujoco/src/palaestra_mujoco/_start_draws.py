"""Start noise for many sub-envs as arrays: each drawn from its own generator, the same numbers.

A suite env starts from its initial state plus ``rng.uniform(-scale, scale, n)`` (and, for
some envs, ``scale * rng.standard_normal(nv)``). numpy's ``uniform`` is ``low + (high - low)
* u`` of the generator's next doubles ``u``, one rounding per operation, and ``random``
gives those doubles. So :func:`uniform_rows` takes each sub-env's doubles by one call of its
own generator and scales all rows at once, where :func:`uniform_rows_hold` finds that it
equals ``uniform`` on this numpy (a build that fuses the multiply-add would not).
"""

from __future__ import annotations

import functools

import numpy as np

__all__ = ["uniform_rows", "uniform_rows_hold"]


def uniform_rows(half_widths: np.ndarray, doubles: np.ndarray) -> np.ndarray:
    """``rng.uniform(-h, h, n)`` of each row from that row's ``rng.random(n)`` (``h`` per row)."""
    low = -half_widths.reshape(-1, 1)
    result: np.ndarray = low + (half_widths.reshape(-1, 1) - low) * doubles
    return result


@functools.cache
def uniform_rows_hold() -> bool:
    """Whether :func:`uniform_rows` equals numpy's ``uniform`` on this numpy (checked once)."""
    half_widths = np.array([0.0, 5e-3, 0.01, 0.1, 0.3, 1.0, 3.7, 1e-9, 123.456])
    expected = np.array([np.random.default_rng(i).uniform(-h, h, 200) for i, h in enumerate(half_widths)])
    doubles = np.array([np.random.default_rng(i).random(200) for i in range(len(half_widths))])
    return bool(np.array_equal(uniform_rows(half_widths, doubles), expected))
