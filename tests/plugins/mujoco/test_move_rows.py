"""The copies between a gathered batch's arrays and each sub-env's own fields: C and numpy alike."""

import numpy as np
import pytest

from palaestra_mujoco import _gathered_sim
from palaestra_mujoco._gathered_sim import copy_pairs, move_rows, plain_copy_pairs, plain_move_rows

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


def one_sub_envs_pairs(seed):
    """A sub-env's (row, field) pairs as GatheredSimulation holds them: rows of stacked arrays, its own fields."""
    rng = np.random.default_rng(seed)
    stacked = [rng.standard_normal((4, 3)), rng.standard_normal((4, 14, 6)), rng.standard_normal((4, 1))]
    fields = [rng.standard_normal(rows.shape[1:]) for rows in stacked]
    return stacked, tuple((rows[2], field) for rows, field in zip(stacked, fields, strict=True))


def test_copied_pairs_are_the_plain_copies_and_touch_no_other_row():
    stacked, pairs = one_sub_envs_pairs(3)
    spec_stacked, spec_pairs = one_sub_envs_pairs(3)
    copy_pairs(pairs)
    plain_copy_pairs(spec_pairs)
    for rows, spec in zip(stacked, spec_stacked, strict=True):
        assert np.array_equal(rows, spec)
    for rows, (_, field) in zip(stacked, pairs, strict=True):
        assert np.array_equal(rows[2], field)


@needs_compiled
def test_the_c_copy_refuses_what_is_not_float64_of_one_size():
    destination = np.zeros(3)
    assert not compiled.copy_pairs(((destination, np.ones(4)),))
    assert not compiled.copy_pairs(((destination, np.ones(3, dtype=np.float32)),))
    assert not compiled.copy_pairs(((np.zeros(6)[::2], np.ones(3)),))  # not in one piece
    assert not compiled.copy_pairs(((destination,),))
    assert not destination.any()
    assert compiled.copy_pairs(((destination, np.arange(3.0)),)) and destination.tolist() == [0.0, 1.0, 2.0]


def test_without_the_compiled_module_numpy_copies_every_pair(monkeypatch):
    monkeypatch.setattr(_gathered_sim, "compiled", None)
    _, pairs = one_sub_envs_pairs(5)
    copy_pairs(pairs)
    assert all(np.array_equal(row, field) for row, field in pairs)
