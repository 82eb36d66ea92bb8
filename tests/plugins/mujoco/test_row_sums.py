"""The batches' sums of squares: array operations equal to numpy's own sum of each row."""

import math

import numpy as np
import pytest

from palaestra_mujoco import _row_sums
from palaestra_mujoco._locomotion import norm, row_norms
from palaestra_mujoco._row_sums import (
    _pairwise_holds,
    _pairwise_rows,
    _stacked_dot_holds,
    plain_row_dots,
    plain_square_sums,
    plain_weighted_rows,
    row_dots,
    square_sums,
    weighted_rows,
)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_pairwise_rows_are_numpys_sum_of_each_row_for_every_length_up_to_128(dtype):
    rng = np.random.default_rng(3)
    for n in range(1, 129):
        values = (rng.standard_normal((200, n)) * rng.uniform(1e-4, 1e4, (200, 1))).astype(dtype)
        fast = _pairwise_rows(np.square(values))
        assert fast.dtype == dtype and np.array_equal(fast, plain_square_sums(values)), n


@pytest.mark.parametrize("shape", [(64, 8), (64, 14, 6), (5, 13, 6), (3, 200), (7, 1)])
def test_square_sums_equal_the_plain_sums_whatever_the_shape(shape):
    """Rows of several axes are summed whole, as ``np.square(row).sum()``; long rows the plain way."""
    values = np.random.default_rng(4).standard_normal(shape)
    assert np.array_equal(square_sums(values), plain_square_sums(values))
    assert np.array_equal(
        square_sums(values.astype(np.float32)), plain_square_sums(values.astype(np.float32))
    )


def test_integers_and_the_check_on_this_numpy():
    values = np.arange(-40, 40).reshape(4, 20)
    assert square_sums(values).tolist() == [int(np.square(row).sum()) for row in values]
    assert _pairwise_holds()


def test_a_numpy_that_sums_otherwise_gets_the_plain_sums(monkeypatch):
    """The fast path is taken only on the check's verdict (here: forced false)."""
    monkeypatch.setattr(_row_sums, "_pairwise_holds", lambda: False)
    monkeypatch.setattr(_row_sums, "_pairwise_rows", lambda squares: pytest.fail("fast path taken"))
    values = np.random.default_rng(5).standard_normal((4, 9))
    assert np.array_equal(square_sums(values), plain_square_sums(values))


def test_weighted_rows_are_each_rows_own_contraction():
    """Humanoid's mass centres: one contraction equal to ``einsum("b,bj->j")`` row by row."""
    rng = np.random.default_rng(6)
    weights = rng.uniform(0.1, 10, 14)
    rows = rng.standard_normal((300, 14, 3)) * rng.uniform(1e-2, 1e2, (300, 1, 1))
    expected = np.array([np.einsum("b,bj->j", weights, row) for row in rows])
    assert np.array_equal(weighted_rows(weights, rows), expected)
    assert np.array_equal(plain_weighted_rows(weights, rows), expected)


def test_a_contraction_that_rounds_otherwise_gets_the_rows_own(monkeypatch):
    monkeypatch.setattr(_row_sums, "_sequential_holds", lambda shape, *dtypes: False)
    monkeypatch.setattr(_row_sums, "_contraction_holds", lambda shape, *dtypes: False)
    monkeypatch.setattr(_row_sums.np, "einsum", _only_per_row(np.einsum))
    rows = np.random.default_rng(7).standard_normal((5, 4, 3))
    weights = np.arange(1.0, 5.0)
    assert np.array_equal(weighted_rows(weights, rows), plain_weighted_rows(weights, rows))


def _only_per_row(einsum):
    def guarded(subscripts, *operands, **kwargs):
        assert subscripts == "b,bj->j", "the batched contraction was used"
        return einsum(subscripts, *operands, **kwargs)

    return guarded


def test_row_dots_are_each_rows_own_dot_product_bit_for_bit():
    """The distances (Reacher, Pusher, Swimmer, Humanoid): BLAS's dot of each row, as one env's."""
    rng = np.random.default_rng(8)
    assert _stacked_dot_holds()
    for n in range(1, 40):
        vectors = rng.standard_normal((300, n)) * rng.uniform(1e-5, 1e5, (300, 1))
        assert np.array_equal(row_dots(vectors), plain_row_dots(vectors)), n
        columns = vectors[:, ::2]  # a strided view, as a slice of xpos is
        assert np.array_equal(row_dots(columns), plain_row_dots(columns)), n
        backwards = vectors[:, ::-1]  # numpy's own loop, not BLAS, for one such row
        assert np.array_equal(row_dots(backwards), plain_row_dots(backwards)), n
    gaps = rng.standard_normal((500, 3))
    assert row_norms(gaps).tolist() == [norm(gap) for gap in gaps]
    assert row_norms(gaps).tolist() == [float(np.linalg.norm(gap)) for gap in gaps]
    assert row_norms(gaps[:, :2]).tolist() == [math.sqrt(gap[:2].dot(gap[:2])) for gap in gaps]


def test_a_numpy_whose_stacked_product_rounds_otherwise_gets_the_rows_own(monkeypatch):
    monkeypatch.setattr(_row_sums, "_stacked_dot_holds", lambda: False)
    monkeypatch.setattr(_row_sums.np, "matmul", lambda *args: pytest.fail("stacked product used"))
    vectors = np.random.default_rng(9).standard_normal((6, 3))
    assert row_dots(vectors).tolist() == [row.dot(row) for row in vectors]


needs_compiled = pytest.mark.skipif(
    _row_sums.compiled is None, reason="palaestra_mujoco._compiled was not built (no C compiler at install)"
)


@needs_compiled
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_c_sums_are_the_pairwise_rows_bit_for_bit(dtype):
    rng = np.random.default_rng(8)
    for n in range(1, 129):
        wide = (rng.standard_normal((40, n + 3)) * rng.uniform(1e-4, 1e4, (40, 1))).astype(dtype)
        wide[::7, 1] = [0.0, -0.0, 1e-45, -1e-300, 1e18, -3e15][: len(wide[::7])]
        rows = wide[:, 1 : n + 1]  # rows that lie apart, as a batch's do
        sums = np.empty(40, dtype=dtype)
        assert _row_sums.compiled.square_sums(rows, sums), n
        assert sums.tobytes() == _pairwise_rows(np.square(rows)).tobytes(), n
        assert np.array_equal(square_sums(rows), plain_square_sums(rows)), n


@needs_compiled
@pytest.mark.parametrize("special", [math.inf, math.nan, 1e200])
def test_a_sum_that_is_not_finite_is_left_to_numpy_and_its_warnings(special):
    values = np.ones((3, 9))
    values[1, 4] = special
    assert not _row_sums.compiled.square_sums(values, np.empty(3))
    with np.errstate(over="raise"):  # numpy's own overflow, as a single env's cost meets it
        if special == 1e200:
            with pytest.raises(FloatingPointError, match="overflow"):
                square_sums(values)
        else:
            assert np.array_equal(square_sums(values), plain_square_sums(values), equal_nan=True)


@needs_compiled
def test_the_c_loop_leaves_other_rows_to_numpy():
    loop = _row_sums.compiled.square_sums
    assert not loop(np.ones((4, 8), dtype=np.int64), np.empty(4, dtype=np.int64))
    assert not loop(np.ones((4, 129)), np.empty(4))
    assert not loop(np.ones((4, 16))[:, ::2], np.empty(4))  # numbers not side by side
    assert not loop(np.ones((4, 8)), np.empty(4, dtype=np.float32))
    assert not loop(np.ones((4, 8)), np.empty(5))
    with pytest.raises(TypeError, match=r"square_sums\(values, out\)"):
        loop(np.ones((4, 8)))
    values = np.arange(-40, 40).reshape(4, 20)  # ints: numpy's arrays give them
    assert square_sums(values).tolist() == [int(np.square(row).sum()) for row in values]


def test_without_the_compiled_module_the_array_sums_run(monkeypatch):
    monkeypatch.setattr(_row_sums, "compiled", None)
    values = np.random.default_rng(9).standard_normal((6, 84))
    assert np.array_equal(square_sums(values), plain_square_sums(values))


@needs_compiled
@pytest.mark.parametrize("shape", [(14, 3), (5, 2), (1, 3), (30, 1)])
def test_weighted_rows_are_each_rows_own_contraction_in_c_where_the_check_holds(shape):
    """The C loop sums left to right from zero: used only where einsum does so here for that shape."""
    rng = np.random.default_rng(10)
    weights = rng.uniform(0.1, 10, shape[0])
    weights[0] = 0.0  # the world body's mass
    rows = rng.standard_normal((100, *shape)) * 10.0 ** rng.integers(-3, 4, (100, 1, 1))
    rows[0], rows[1, ::2], rows[2, 0, 0] = -0.0, -0.0, math.inf
    expected = plain_weighted_rows(weights, rows).tobytes()
    assert weighted_rows(weights, rows).tobytes() == expected
    if _row_sums._sequential_holds(shape, weights.dtype, rows.dtype):
        sums = np.full((100, shape[1]), 7.0)
        assert _row_sums.compiled.weighted_sums(weights, rows, sums)
        assert sums.tobytes() == expected


@needs_compiled
def test_humanoids_mass_centres_take_the_c_loop_on_this_numpy():
    """Humanoid's rows (14 bodies, x-y-z): einsum's order here is the loop's (a single vector's sum is not)."""
    assert _row_sums._sequential_holds((14, 3), np.dtype(np.float64), np.dtype(np.float64))


@needs_compiled
def test_the_c_weighted_sums_leave_other_arrays_to_numpy():
    weights, rows, sums = np.ones(4), np.ones((3, 4, 2)), np.full((3, 2), 7.0)
    weighted_sums = _row_sums.compiled.weighted_sums
    assert not weighted_sums(weights.astype(np.float32), rows, sums)
    assert not weighted_sums(weights, rows[:, :3], sums)  # a weight per body
    assert not weighted_sums(weights, np.ones((3, 4, 4))[:, :, ::2], sums)  # a row's numbers apart
    assert not weighted_sums(weights, rows, np.zeros((3, 3)))
    assert (sums == 7.0).all()
    assert not _row_sums._sequential_holds((4, 2), np.dtype(np.float32), np.dtype(np.float64))


def test_without_the_compiled_module_the_mass_centres_are_einsums(monkeypatch):
    monkeypatch.setattr(_row_sums, "compiled", None)
    rows = np.random.default_rng(11).standard_normal((6, 14, 3))
    weights = np.arange(14.0)
    assert weighted_rows(weights, rows).tobytes() == plain_weighted_rows(weights, rows).tobytes()
