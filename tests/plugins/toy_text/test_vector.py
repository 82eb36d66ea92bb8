"""Batched toy-text envs return what SyncVectorEnv of the single envs returns, in every mode."""

import numpy as np
import pytest

import palaestra
from palaestra.error import InvalidAction
from palaestra.vector import AutoresetMode, SyncVectorEnv


def assert_tree(a, b, where):
    if isinstance(a, dict):
        assert list(a) == list(b), f"{where}: key order {list(a)} != {list(b)}"
        for key in a:
            assert_tree(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b), where
        for x, y in zip(a, b, strict=True):
            assert_tree(x, y, where)
    elif isinstance(a, np.ndarray) and a.dtype == object:
        assert b.dtype == object and a.shape == b.shape, where
        for x, y in zip(a, b, strict=True):
            assert_tree(x, y, where)
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape, (
            f"{where}: {a.dtype} {b.dtype}"
        )
        assert np.array_equal(a, b), f"{where}: {a} != {b}"
    else:
        assert type(a) is type(b) and a == b, f"{where}: {a!r} != {b!r}"


CASES = [
    ("FrozenLake-v1", {}),
    ("FrozenLake-v1", {"is_slippery": False}),
    ("FrozenLake8x8-v1", {"success_rate": 0.5, "reward_schedule": (5, -1, 0)}),
    ("CliffWalking-v1", {}),
    ("CliffWalkingSlippery-v1", {}),
    ("Taxi-v4", {}),
    ("Taxi-v4", {"is_rainy": True, "fickle_passenger": True, "fickle_probability": 0.9}),
    ("Blackjack-v1", {}),
    ("Blackjack-v1", {"sab": False, "natural": True}),
    ("Blackjack-v1", {"sab": False, "natural": False}),
]


@pytest.mark.parametrize(("env_id", "kwargs"), CASES, ids=[f"{c[0]}{c[1]}" for c in CASES])
@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
def test_batched_toy_text_matches_sync_vector_env(env_id, kwargs, mode):
    n = 5
    limit = {"max_episode_steps": 25} if "CliffWalking" in env_id else {}
    ours = palaestra.make_vec(env_id, n, autoreset_mode=mode, **limit, **kwargs)
    assert type(ours).__name__.endswith("VectorEnv") and not isinstance(ours, SyncVectorEnv)
    ref = SyncVectorEnv([lambda: palaestra.make(env_id, **limit, **kwargs)] * n, autoreset_mode=mode)
    rng = np.random.default_rng(7)
    assert_tree(ours.reset(seed=3), ref.reset(seed=3), "reset")
    n_actions = int(ref.single_action_space.n)
    for t in range(400):
        actions = rng.integers(0, n_actions, n)
        a, b = ours.step(actions), ref.step(actions)
        for k, name in enumerate(("obs", "reward", "terminated", "truncated", "info")):
            assert_tree(a[k], b[k], f"t={t} {name}")
        if mode is AutoresetMode.DISABLED:
            done = a[2] | a[3]
            if done.any():
                assert_tree(
                    ours.reset(options={"reset_mask": done}),
                    ref.reset(options={"reset_mask": done}),
                    f"t={t} mask",
                )


@pytest.mark.parametrize("env_id", ["FrozenLake-v1", "Taxi-v4", "Blackjack-v1", "CliffWalking-v1"])
def test_batched_bad_actions_and_render(env_id):
    render_mode = "ansi" if env_id != "Blackjack-v1" else "rgb_array"
    env = palaestra.make_vec(env_id, 3, render_mode=render_mode)
    env.reset(seed=0)
    with pytest.raises(InvalidAction, match="not in the action space"):
        env.step(np.array([0, 1, 99]))
    frames = env.render()
    assert len(frames) == 3
    if render_mode == "ansi":
        assert all(isinstance(f, str) and f for f in frames)
    else:
        assert all(f.shape == (376, 384, 3) for f in frames)


@pytest.fixture(params=["lists", "arrays", "compiled"])
def blackjack_tables(request, monkeypatch):
    """Play batched Blackjack's tables in C, or in Python one by one (lists) or as arrays."""
    from palaestra_toy_text import _blackjack_tables

    if request.param == "compiled":
        if _blackjack_tables.kernel is None:
            pytest.skip("the compiled Blackjack tables are not built (no C compiler)")
    else:
        monkeypatch.setattr(_blackjack_tables, "kernel", None)
        monkeypatch.setattr(_blackjack_tables, "ARRAY_TABLES", 10**9 if request.param == "lists" else 1)
    return request.param


TABLE_KINDS = {"lists": "ListTables", "arrays": "ArrayTables", "compiled": "CompiledTables"}


@pytest.mark.parametrize("kwargs", [{}, {"sab": False, "natural": True}, {"sab": False}], ids=str)
@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
def test_both_kinds_of_blackjack_tables_match_sync_vector_env(blackjack_tables, kwargs, mode):
    n = 7
    ours = palaestra.make_vec("Blackjack-v1", n, autoreset_mode=mode, **kwargs)
    assert type(ours.unwrapped.tables).__name__ == TABLE_KINDS[blackjack_tables]
    ref = SyncVectorEnv([lambda: palaestra.make("Blackjack-v1", **kwargs)] * n, autoreset_mode=mode)
    rng = np.random.default_rng(9)
    assert_tree(ours.reset(seed=5), ref.reset(seed=5), "reset")
    for t in range(600):
        actions = rng.integers(0, 2, n)
        a, b = ours.step(actions), ref.step(actions)
        for k, name in enumerate(("obs", "reward", "terminated", "truncated", "info")):
            assert_tree(a[k], b[k], f"t={t} {name}")
        if mode is AutoresetMode.DISABLED and (a[2] | a[3]).any():
            done = a[2] | a[3]
            assert_tree(
                ours.reset(options={"reset_mask": done}), ref.reset(options={"reset_mask": done}), "mask"
            )


def test_batched_blackjack_tables_reseeded_midway_keep_sync_vector_envs_numbers(blackjack_tables):
    """A reseed drops the buffered draws of the tables given a new generator."""
    n = 24
    ours = palaestra.make_vec("Blackjack-v1", n)
    ref = SyncVectorEnv([lambda: palaestra.make("Blackjack-v1")] * n)
    rng = np.random.default_rng(3)
    assert_tree(ours.reset(seed=1), ref.reset(seed=1), "reset")
    seeds = [None if i % 3 else 100 + i for i in range(n)]
    for t in range(300):
        if t == 120:
            assert_tree(ours.reset(seed=seeds), ref.reset(seed=seeds), "reseed")
        actions = rng.integers(0, 2, n)
        for k, (a, b) in enumerate(zip(ours.step(actions), ref.step(actions), strict=True)):
            assert_tree(a, b, f"t={t} field {k}")


def test_batched_blackjack_restored_from_a_snapshot_plays_the_same_hands_again(blackjack_tables):
    env = palaestra.make_vec("Blackjack-v1", 16)
    env.reset(seed=2)
    rng = np.random.default_rng(4)
    for _ in range(50):
        env.step(rng.integers(0, 2, 16))
    snapshot = env.unwrapped.snapshot()
    actions = rng.integers(0, 2, (40, 16))
    first = [env.step(a)[:4] for a in actions]
    env.unwrapped.restore(snapshot)
    again = [env.step(a)[:4] for a in actions]
    for t, (a, b) in enumerate(zip(first, again, strict=True)):
        assert_tree(a, b, f"t={t}")


def test_batched_blackjack_frames_show_each_tables_hand(blackjack_tables):
    """The batched tables' rgb frames equal the single envs' frames in the same state."""
    ours = palaestra.make_vec("Blackjack-v1", 3, render_mode="rgb_array")
    ref = SyncVectorEnv([lambda: palaestra.make("Blackjack-v1", render_mode="rgb_array")] * 3)
    ours.reset(seed=12)
    ref.reset(seed=12)
    for actions in ([1, 0, 1], [1, 1, 0]):
        ours.step(np.array(actions))
        ref.step(np.array(actions))
        for a, b in zip(ours.render(), ref.render(), strict=True):
            assert np.array_equal(a, b)


def test_batched_blackjack_deals_without_a_seed(blackjack_tables):
    env = palaestra.make_vec("Blackjack-v1", 4)
    sums, showing, aces = env.reset()[0]
    assert ((sums >= 4) & (sums <= 21)).all() and ((showing >= 1) & (showing <= 10)).all()
    assert set(aces.tolist()) <= {0, 1}
    assert env.step(np.zeros(4, dtype=np.int64))[2].all()  # sticking ends every hand
