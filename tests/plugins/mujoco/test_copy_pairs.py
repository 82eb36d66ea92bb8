"""The copies between a gathered batch's arrays and each sub-env's own fields: C and numpy alike."""

import numpy as np
import pytest

from palaestra_mujoco import _gathered_sim
from palaestra_mujoco._gathered_sim import copy_pairs, plain_copy_pairs

compiled = _gathered_sim.compiled
needs_compiled = pytest.mark.skipif(
    compiled is None, reason="palaestra_mujoco._compiled was not built (no C compiler at install)"
)


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
