"""Start noise of many sub-envs drawn as arrays: each sub-env's own generator, numpy's numbers."""

import numpy as np
import pytest

import palaestra
from palaestra_mujoco._start_draws import uniform_rows, uniform_rows_hold
from palaestra_mujoco.mujoco_env import MujocoEnv


def test_uniform_rows_are_numpys_uniform_of_each_rows_doubles():
    assert uniform_rows_hold()
    rng = np.random.default_rng(3)
    half_widths = np.concatenate([[0.0, 1, 5e-3, 0.1], rng.uniform(0, 10, 60), rng.uniform(0, 1e-6, 20)])
    expected = np.array([np.random.default_rng(i).uniform(-h, h, 300) for i, h in enumerate(half_widths)])
    doubles = np.array([np.random.default_rng(i).random(300) for i in range(len(half_widths))])
    assert np.array_equal(uniform_rows(half_widths, doubles), expected)


def sub_envs(env_id, count, **kwargs):
    """``count`` sub-envs of ``env_id`` and a twin of each, with generators seeded alike.

    At least eight starts at once take the array draws (fewer are drawn sub-env by sub-env).
    """
    made = [palaestra.make(env_id, **kwargs).unwrapped for _ in range(2 * count)]
    for k, env in enumerate(made):
        env.np_random = np.random.default_rng(k % count)
    return made[:count], made[count:]


def drawn(envs, plain):
    rows = np.arange(len(envs))
    qpos, qvel = (
        np.full((len(envs), envs[0].model.nq), np.nan),
        np.full((len(envs), envs[0].model.nv), np.nan),
    )
    if plain:
        MujocoEnv.start_states(envs[0], envs, rows, qpos, qvel)
    else:
        envs[0].start_states(envs, rows, qpos, qvel)
    return qpos, qvel


@pytest.mark.parametrize("env_id", ["Hopper-v5", "HalfCheetah-v5", "InvertedDoublePendulum-v5", "Swimmer-v5"])
def test_array_starts_are_each_sub_envs_own_start_state(env_id, monkeypatch):
    """Uniform and normal velocity noise; sub-envs with their own scales and initial states."""
    calls = []
    monkeypatch.setattr(
        "palaestra_mujoco._locomotion.uniform_rows", lambda *args: calls.append(1) or uniform_rows(*args)
    )
    fast, plain = sub_envs(env_id, 9)
    for group in (fast, plain):
        group[1]._reset_noise_scale, group[2]._reset_noise_scale = 0.5, 3  # set_attr, say
        group[3].init_qpos = group[3].init_qpos + 0.25
    for _ in range(3):  # the generators move on alike
        mine, theirs = drawn(fast, plain=False), drawn(plain, plain=True)
        assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1])
    assert not np.isnan(mine[0]).any() and len({tuple(row) for row in mine[0]}) == 9
    assert len(calls) == 3  # the array draws, each time


@pytest.mark.parametrize(
    ("scale", "error", "words"),
    [
        (-0.1, ValueError, "high - low < 0"),
        (1e308, OverflowError, "high - low range exceeds valid bounds"),
        (float("nan"), OverflowError, "high - low range exceeds valid bounds"),
        ("wide", TypeError, "bad operand type for unary -"),
    ],
)
def test_a_scale_numpy_refuses_is_refused_in_numpys_words(scale, error, words):
    envs, _ = sub_envs("Hopper-v5", 8)
    envs[2]._reset_noise_scale = scale
    with pytest.raises(error, match=words):
        drawn(envs, plain=False)


def test_unusual_scales_and_a_numpy_that_rounds_otherwise_take_the_plain_draws(monkeypatch):
    fast, plain = sub_envs("Walker2d-v5", 8)
    for group in (fast, plain):
        group[1]._reset_noise_scale = np.float32(0.3)
    mine, theirs = drawn(fast, plain=False), drawn(plain, plain=True)
    assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1])
    monkeypatch.setattr("palaestra_mujoco._locomotion.uniform_rows_hold", lambda: False)
    monkeypatch.setattr(
        "palaestra_mujoco._locomotion.uniform_rows", lambda *args: pytest.fail("array draws used")
    )
    mine, theirs = drawn(fast, plain=False), drawn(plain, plain=True)
    assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1])


def test_a_class_with_its_own_start_state_draws_its_own_way():
    """Reacher draws its target by rejection: its own start_state, sub-env by sub-env."""
    fast, plain = sub_envs("Reacher-v5", 8)
    mine, theirs = drawn(fast, plain=False), drawn(plain, plain=True)
    assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1])
    assert [tuple(env.goal) for env in fast] == [tuple(env.goal) for env in plain]


def test_few_starts_at_once_are_drawn_sub_env_by_sub_env(monkeypatch):
    monkeypatch.setattr(
        "palaestra_mujoco._locomotion.uniform_rows", lambda *args: pytest.fail("array draws used")
    )
    fast, plain = sub_envs("Hopper-v5", 7)
    mine, theirs = drawn(fast, plain=False), drawn(plain, plain=True)
    assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1])
