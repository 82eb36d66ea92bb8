"""The copies between a gathered batch's arrays and each sub-env's own fields: C and numpy alike."""

import numpy as np
import pytest

from palaestra_mujoco import _gathered_sim
from palaestra_mujoco._gathered_sim import move_rows, plain_move_rows

compiled = _gathered_sim.compiled
needs_compiled = pytest.mark.skipif(
    compiled is None, reason="palaestra_mujoco._compiled was not built (no C compiler at install)"
)


def fields(count, shape, seed):
    """``count`` separate arrays of ``shape`` (as each sub-env's MjData field is its own) and a batch of rows."""
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape) for _ in range(count)], rng.standard_normal((count, *shape))


@pytest.mark.parametrize("shape", [(3,), (14, 6)])
@pytest.mark.parametrize("indices", [None, [4, 0, 2]])
@pytest.mark.parametrize("into_views", [True, False])
def test_moved_rows_are_the_plain_copies(shape, indices, into_views):
    views, rows = fields(6, shape, seed=1)
    spec_views, spec_rows = [view.copy() for view in views], rows.copy()
    move_rows(rows, views, indices, into_views)
    plain_move_rows(spec_rows, spec_views, indices, into_views)
    assert np.array_equal(rows, spec_rows)
    assert all(np.array_equal(view, spec) for view, spec in zip(views, spec_views, strict=True))
    moved = range(6) if indices is None else indices
    assert all(np.array_equal(views[k], rows[k]) for k in moved)
    untouched = sorted(set(range(6)) - set(moved))
    assert all(not np.array_equal(views[k], rows[k]) for k in untouched)


@needs_compiled
def test_the_c_loop_leaves_what_is_not_float64_of_a_rows_size_to_numpy():
    views, rows = fields(3, (4,), seed=2)
    assert compiled.move_rows(rows, views, None, True)
    assert not compiled.move_rows(rows, [*views[:2], views[2].astype(np.float32)], None, True)
    assert not compiled.move_rows(rows, [*views[:2], np.zeros(5)], None, False)
    assert not compiled.move_rows(rows, views, [0, 3], True)  # no sub-env 3
    assert not compiled.move_rows(rows[:, ::2], [view[:2] for view in views], None, True)  # rows apart
    assert not compiled.move_rows(rows, views[:2], None, True)  # a view per row
    with pytest.raises(TypeError, match=r"move_rows\(rows, views: list, indices: list \| None, into_views\)"):
        compiled.move_rows(rows, tuple(views), None, True)


def test_where_the_c_loop_refuses_numpy_moves_every_row(monkeypatch):
    views, rows = fields(3, (4,), seed=3)
    views[1] = views[1].astype(np.float32)  # numpy casts it, the loop does not
    move_rows(rows, views, None, into_views=False)
    assert np.array_equal(rows[1], views[1].astype(np.float64))
    monkeypatch.setattr(_gathered_sim, "compiled", None)
    move_rows(rows * 0, views, [2], into_views=True)
    assert not views[2].any()
