"""A batch step's count (step counts, truncations, done flags) and its actions' finite check: C and numpy alike."""

import numpy as np
import pytest

import palaestra
from palaestra.plugin import BatchedVectorEnv
from palaestra_mujoco import vector

compiled = vector.compiled
needs_compiled = pytest.mark.skipif(
    compiled is None, reason="palaestra_mujoco._compiled was not built (no C compiler at install)"
)


def tallied(env, tally, steps, rewards, terminated, resetting, held=None):
    """``tally`` of ``env`` from that state: its results and the arrays it changed in place."""
    env.steps = steps.copy()
    rewards, terminated = rewards.copy(), terminated.copy()
    truncated, done, count = tally(
        env, rewards, terminated, None if resetting is None else resetting.copy(), held
    )
    return truncated, done, count, env.steps, rewards, terminated


def random_state(seed, n, limit):
    rng = np.random.default_rng(seed)
    steps = rng.integers(0, limit + 2, n)
    rewards = rng.standard_normal(n)
    rewards[rng.random(n) < 0.2] = np.nan
    rewards[rng.random(n) < 0.1] = -0.0
    return steps, rewards, rng.random(n) < 0.3, rng.random(n) < 0.25


@pytest.mark.parametrize("limit", [None, 1, 5, 1000])
@pytest.mark.parametrize("seed", range(4))
def test_the_c_tally_is_the_templates(seed, limit):
    env = palaestra.make_vec("InvertedPendulum-v5", 16, max_episode_steps=limit)
    steps, rewards, terminated, resetting = random_state(seed, 16, limit or 3)
    for resets in (resetting, None, np.ones(16, dtype=np.bool_)):
        mine = tallied(env, vector.MujocoVectorEnv.tally_step, steps, rewards, terminated, resets)
        spec = tallied(env, BatchedVectorEnv.tally_step, steps, rewards, terminated, resets)
        assert mine[2] == spec[2] and type(mine[2]) is int
        for got, expected in zip(mine[:2] + mine[3:], spec[:2] + spec[3:], strict=True):
            assert got.dtype == expected.dtype and got.tobytes() == expected.tobytes()
    env.close()


@needs_compiled
def test_the_c_tally_leaves_what_numpy_reads_otherwise_to_it():
    n = 4
    steps, rewards, terminated = np.zeros(n, dtype=np.int64), np.ones(n), np.zeros(n, dtype=np.bool_)
    out = np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.bool_)
    buffers = (steps, rewards, terminated, *out)
    assert compiled.tally_step(buffers, 2**70, None) is None  # beyond int64
    assert compiled.tally_step(buffers, 3.0, None) is None
    assert compiled.tally_step((steps.astype(np.int32), *buffers[1:]), 3, None) is None
    assert compiled.tally_step((steps, rewards.astype(np.float32), *buffers[2:]), 3, None) is None
    assert compiled.tally_step(buffers, 3, np.zeros(n + 1, dtype=np.bool_)) is None
    assert compiled.tally_step(buffers, 3, np.zeros(n, dtype=np.int8)) is None
    assert not steps.any() and (rewards == 1).all()  # nothing written
    assert compiled.tally_step(buffers, 1, None) == n and (steps == 1).all() and out[0].all() and out[1].all()


@needs_compiled
def test_step_counts_wrap_as_numpys_do():
    top = np.iinfo(np.int64).max
    steps = np.array([top, top - 1])
    truncated, done = np.empty(2, dtype=np.bool_), np.empty(2, dtype=np.bool_)
    buffers = (steps, np.zeros(2), np.zeros(2, dtype=np.bool_), truncated, done)
    assert compiled.tally_step(buffers, top, None) == 1
    with np.errstate(over="ignore"):
        assert steps.tolist() == (np.array([top, top - 1]) + 1).tolist()
    assert truncated.tolist() == [False, True]


def test_a_subclass_that_counts_its_own_truncations_keeps_them():
    class Early(vector.InvertedPendulumVectorEnv):
        def truncations(self):
            return self.steps >= 2

    env = Early(3)
    env.reset(seed=0)
    env.step(np.zeros((3, 1)))
    assert env.step(np.zeros((3, 1)))[3].tolist() == [True, True, True]
    env.close()


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int32])
def test_the_actions_finite_check_is_numpys(dtype):
    rng = np.random.default_rng(0)
    for bad in (None, np.nan, np.inf, -np.inf):
        actions = rng.uniform(-1, 1, (6, 3)).astype(dtype)
        if bad is not None and actions.dtype.kind == "f":
            actions[4, 2] = bad
        assert vector.all_finite(actions) is bool(np.isfinite(actions).all())
        assert vector.all_finite(actions[:, ::2]) is bool(np.isfinite(actions[:, ::2]).all())  # numbers apart


@needs_compiled
def test_the_c_finite_check_leaves_other_arrays_to_numpy():
    assert compiled.all_finite(np.zeros(4, dtype=np.float16)) is None
    assert compiled.all_finite(np.zeros((4, 4))[:, ::2]) is None
    assert compiled.all_finite(np.array([1.0, np.nan])) is False
    assert compiled.all_finite(np.array([], dtype=np.float32)) is True
