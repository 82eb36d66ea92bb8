"""Natively batched classic-control envs against their references, in every autoreset mode.

CartPole against Gymnasium's CartPoleVectorEnv; the others against SyncVectorEnv of the
single envs.
"""

import warnings

import gymnasium
import numpy as np
import pytest

import palaestra
from palaestra.error import InvalidAction, ResetNeeded
from palaestra.vector import AutoresetMode, SyncVectorEnv


def assert_tree(a, b, where, rtol=0.0):
    if isinstance(a, dict):
        assert sorted(a) == sorted(b), where
        for key in a:
            assert_tree(a[key], b[key], f"{where}.{key}", rtol)
    elif isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b), where
        for x, y in zip(a, b, strict=True):
            assert_tree(x, y, where, rtol)
    elif isinstance(a, np.ndarray) and a.dtype == object:
        for x, y in zip(a, b, strict=True):
            assert_tree(x, y, where, rtol)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape, where
        if rtol:
            np.testing.assert_allclose(a, b, rtol=rtol, atol=0, err_msg=where)
        else:
            assert np.array_equal(a, b), f"{where}: {a} != {b}"
    else:
        assert a == b, where


@pytest.mark.parametrize("n", [1, 3, 16, 64, 200])
@pytest.mark.parametrize("kwargs", [{}, {"sutton_barto_reward": True}])
def test_cartpole_vector_matches_gymnasium(n, kwargs):
    ours = palaestra.make_vec("CartPole-v1", n, **kwargs)
    ref = gymnasium.make_vec("CartPole-v1", n, **kwargs)
    assert type(ours.unwrapped).__name__ == "CartPoleVectorEnv"
    rng = np.random.default_rng(n)
    for seed, options in ((5, None), (6, {"low": -0.2, "high": 0.2})):
        assert_tree(ours.reset(seed=seed, options=options), ref.reset(seed=seed, options=options), "reset")
        for t in range(700):
            actions = rng.integers(0, 2, n)
            a, b = ours.step(actions), ref.step(actions)
            for k, name in enumerate(("obs", "reward", "terminated", "truncated", "info")):
                assert_tree(a[k], b[k], f"n={n} t={t} {name}")
            assert a[1].tobytes() == b[1].tobytes(), f"t={t}: rewards differ in sign bits"  # -0.0
            if t % 50 == 0:
                for name in ("state", "steps", "prev_done"):
                    mine, theirs = getattr(ours.unwrapped, name), getattr(ref.unwrapped, name)
                    assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs), (t, name)


@pytest.mark.parametrize("n", [5, 100])
def test_cartpole_vector_semi_implicit_truncation_and_edited_counters_match(n):
    ours = palaestra.make_vec("CartPole-v1", n, max_episode_steps=25)
    ref = gymnasium.make_vec("CartPole-v1", n, max_episode_steps=25)
    for env in (ours.unwrapped, ref.unwrapped):
        env.kinematics_integrator = "semi-implicit euler"
    assert_tree(ours.reset(seed=9), ref.reset(seed=9), "reset")
    truncations = 0
    for t in range(200):
        if t == 100:  # counters written from outside are honoured
            for env in (ours.unwrapped, ref.unwrapped):
                env.steps = np.full(n, 20, dtype=np.int32)
                env.prev_done = np.arange(n) % 2 == 0
        actions = np.full(n, t % 2)
        a, b = ours.step(actions), ref.step(actions)
        for k, name in enumerate(("obs", "reward", "terminated", "truncated")):
            assert_tree(a[k], b[k], f"n={n} t={t} {name}")
        truncations += int(b[3].sum())
    assert truncations > 0
    assert np.array_equal(ours.unwrapped.steps, ref.unwrapped.steps)


def sync_of(env_id, n, mode, **kwargs):
    return SyncVectorEnv([lambda: palaestra.make(env_id, **kwargs)] * n, autoreset_mode=mode)


CASES = [
    ("MountainCar-v0", {}, 0.0),
    ("MountainCar-v0", {"goal_velocity": 0.01}, 0.0),
    ("Acrobot-v1", {}, 0.0),
    ("MountainCarContinuous-v0", {}, 0.0),
    ("Pendulum-v1", {"g": 9.0}, 0.0),
]


@pytest.mark.parametrize(("env_id", "kwargs", "reward_rtol"), CASES, ids=[c[0] + str(c[1]) for c in CASES])
@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
def test_batched_envs_match_sync_vector_env_of_single_envs(env_id, kwargs, reward_rtol, mode):
    n = 4
    ours = palaestra.make_vec(
        env_id,
        n,
        vectorization_mode="vector_entry_point",
        autoreset_mode=mode,
        max_episode_steps=60,
        **kwargs,
    )
    ref = sync_of(env_id, n, mode, max_episode_steps=60, **kwargs)
    rng = np.random.default_rng(1)
    assert_tree(ours.reset(seed=11), ref.reset(seed=11), "reset")
    space = ref.single_action_space
    for t in range(500):
        if isinstance(space, palaestra.spaces.Discrete):
            actions = rng.integers(0, space.n, n)
        else:
            actions = rng.uniform(-2.5, 2.5, (n, 1)).astype(np.float32)
        a, b = ours.step(actions), ref.step(actions)
        assert_tree(a[0], b[0], f"t={t} obs")
        assert_tree(a[1], b[1], f"t={t} reward", reward_rtol)
        for k, name in ((2, "terminated"), (3, "truncated"), (4, "info")):
            assert_tree(a[k], b[k], f"t={t} {name}")
        if mode is AutoresetMode.DISABLED:
            done = a[2] | a[3]
            if done.any():
                assert_tree(
                    ours.reset(options={"reset_mask": done}), ref.reset(options={"reset_mask": done}), "mask"
                )


def test_make_vec_uses_the_vector_entry_point_and_time_limit():
    env = palaestra.make_vec("MountainCar-v0", 3)
    assert type(env.unwrapped).__name__ == "MountainCarVectorEnv"
    assert env.unwrapped.max_episode_steps == 200
    assert env.spec.kwargs["vectorization_mode"] == "vector_entry_point"


def test_batched_rgb_frames_follow_each_sub_env():
    env = palaestra.make_vec("CartPole-v1", 3, render_mode="rgb_array")
    env.reset(seed=0)
    env.unwrapped.state[:, 0] = [-1.5, -1.0, 0.0, 1.0]  # (4, num_envs) layout, as in Gymnasium
    frames = env.render()
    assert len(frames) == 3 and all(f.shape == (400, 600, 3) and f.dtype == np.uint8 for f in frames)
    assert not np.array_equal(frames[0], frames[1])
    pend = palaestra.make_vec("Pendulum-v1", 2, render_mode="rgb_array")
    pend.reset(seed=0)
    assert [f.shape for f in pend.render()] == [(500, 500, 3)] * 2


@pytest.mark.parametrize(
    ("env_id", "bad"),
    [
        ("CartPole-v1", np.array([0, 2])),
        ("CartPole-v1", np.array([0.0, 1.0])),
        ("CartPole-v1", [1]),
        ("MountainCar-v0", np.array([3, 0])),
        ("Pendulum-v1", np.zeros(2)),
        ("Acrobot-v1", np.array([-1, 0])),
    ],
)
def test_batched_bad_actions(env_id, bad):
    env = palaestra.make_vec(env_id, 2)
    env.reset(seed=0)
    # A batch of the wrong size says so; the others name the action space.
    with pytest.raises(InvalidAction, match="not in|got 1 actions for 2 sub-environments"):
        env.step(bad)


def test_step_before_reset_is_a_clear_error():
    with pytest.raises(
        ResetNeeded, match=r"^Cannot call env.step\(\) before calling env.reset\(\) \(AcrobotVectorEnv"
    ):
        palaestra.make_vec("Acrobot-v1", 2).step(np.zeros(2, dtype=np.int64))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_cartpole_v0_vector_matches_gymnasium():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, ref = palaestra.make_vec("CartPole-v0", 4), gymnasium.make_vec("CartPole-v0", 4)
    assert_tree(ours.reset(seed=1), ref.reset(seed=1), "reset")
    for _ in range(300):
        actions = np.array([1, 0, 1, 1])
        assert_tree(ours.step(actions)[:4], ref.step(actions)[:4], "step")
