"""Started episodes' rows of a batch's fields zeroed: C and numpy alike."""

import numpy as np
import pytest

from palaestra_mujoco import _batch_sim
from palaestra_mujoco._batch_sim import plain_zero_rows, zero_rows

compiled = _batch_sim.compiled
needs_compiled = pytest.mark.skipif(
    compiled is None, reason="palaestra_mujoco._compiled was not built (no C compiler at install)"
)


def batch_fields(seed):
    """Fields as a batch binds them: rows that lie apart, each row's numbers in one piece."""
    rng = np.random.default_rng(seed)
    memory = rng.standard_normal((6, 40))
    return [memory[:, 0], memory[:, 3:9], memory[:, 12:36].reshape(6, 4, 6)]


@pytest.mark.parametrize("rows", [[], [3], [5, 0, 2], [1, 1]])
def test_zeroed_rows_are_numpys_and_only_those(rows):
    fields, spec = batch_fields(1), batch_fields(1)
    zero_rows(fields, rows)
    plain_zero_rows(spec, rows)
    for field, expected in zip(fields, spec, strict=True):
        assert np.array_equal(field, expected)
        assert not field[rows].any() and np.signbit(field[rows]).sum() == 0  # +0.0, not -0.0
        kept = [i for i in range(6) if i not in rows]
        assert field[kept].all()


@needs_compiled
def test_the_c_loop_leaves_other_fields_and_rows_to_numpy():
    fields = batch_fields(2)
    before = [field.copy() for field in fields]
    assert not compiled.zero_rows([*fields, np.ones((6, 3), dtype=np.float32)], [0])
    assert not compiled.zero_rows([*fields, np.ones((6, 6))[:, ::2]], [0])  # a row in pieces
    assert not compiled.zero_rows([*fields, np.ones((5, 3))], [0])  # another number of rows
    assert not compiled.zero_rows(fields, [0, 6])
    assert not compiled.zero_rows(fields, [-1])
    assert all(
        np.array_equal(field, kept) for field, kept in zip(fields, before, strict=True)
    )  # nothing written
    with pytest.raises(TypeError, match=r"zero_rows\(arrays: list, rows: list\)"):
        compiled.zero_rows(tuple(fields), [0])
    with pytest.raises(IndexError):
        zero_rows(fields, [6])  # numpy names the index


def test_without_the_compiled_module_numpy_zeroes_them(monkeypatch):
    monkeypatch.setattr(_batch_sim, "compiled", None)
    fields = batch_fields(3)
    zero_rows(fields, [4])
    assert not any(field[4].any() for field in fields)
