"""Python's squares of a column, compiled and plain: the same bits, the same error."""

import math

import numpy as np
import pytest

from palaestra_mujoco import _powers
from palaestra_mujoco._powers import plain_squares, squares

needs_compiled = pytest.mark.skipif(
    _powers.compiled is None, reason="palaestra_mujoco._compiled was not built (no C compiler at install)"
)


def python_squares(values):
    return [value**2 for value in values.tolist()]


def awkward_values():
    """Numbers of every size and sign, the specials, and squares that x * x rounds otherwise."""
    rng = np.random.default_rng(5)
    wide = rng.standard_normal(20_000) * 10.0 ** rng.uniform(-160, 153, 20_000)
    specials = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 5e-324, -5e-324, 1.3e154, -1.3e154]
    return np.concatenate([wide, specials, rng.uniform(-12, 12, 1000)])


@needs_compiled
def test_compiled_squares_are_pythons_power_bit_for_bit():
    values = awkward_values()
    mine, spec = squares(values), plain_squares(values)
    assert mine.dtype == np.float64
    assert np.array_equal(mine.view(np.int64), spec.view(np.int64))  # NaN and -0.0 bits too
    finite = np.isfinite(values)
    assert mine[finite].tolist() == python_squares(values[finite])
    # The reason for pow: x * x rounds some of these squares otherwise.
    assert (mine[finite] != values[finite] * values[finite]).any()


def test_squares_of_a_strided_column_and_of_an_empty_one():
    rows = awkward_values()[:3000].reshape(1000, 3)
    assert np.array_equal(squares(rows[:, 1]), plain_squares(rows[:, 1]), equal_nan=True)
    assert squares(np.empty(0)).shape == (0,)


@pytest.mark.parametrize("fills", ["compiled", "plain"])
def test_a_square_that_overflows_raises_pythons_error(fills, monkeypatch):
    if fills == "plain":
        monkeypatch.setattr(_powers, "compiled", None)
    elif _powers.compiled is None:
        pytest.skip("palaestra_mujoco._compiled was not built (no C compiler at install)")
    with pytest.raises(OverflowError) as caught:
        pow(1e200, 2)
    with pytest.raises(OverflowError, match=str(caught.value.args[1])):
        squares(np.array([3.0, -2.0, 1e200, 4.0]))


@needs_compiled
def test_the_compiled_loop_refuses_what_is_not_a_float64_vector():
    with pytest.raises(TypeError, match="C-contiguous float64 vectors of one length"):
        _powers.compiled.squares(np.zeros(3, dtype=np.float32), np.empty(3))
    with pytest.raises(TypeError, match="C-contiguous float64 vectors of one length"):
        _powers.compiled.squares(np.zeros(3), np.empty(4))
