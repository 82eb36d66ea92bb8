"""Sync and Async vector envs give Gymnasium's SyncVectorEnv numbers, in every autoreset mode."""

import functools
import warnings

import gymnasium
import numpy as np
import pytest

import palaestra
from palaestra.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv
from tests.fixtures.compare import assert_same_tree
from tests.fixtures.info_env import make_info_env_class

# Uses the reference suites' envs (CartPole-v1, ...): needs the plugins installed.
pytestmark = pytest.mark.needs_plugins

PalInfo = make_info_env_class(palaestra)
GymInfo = make_info_env_class(gymnasium)


VECTORIZERS = {
    "sync": lambda fns, mode: SyncVectorEnv(fns, autoreset_mode=mode),
    "async": lambda fns, mode: AsyncVectorEnv(fns, autoreset_mode=mode, num_workers=2),
    "async-pipes": lambda fns, mode: AsyncVectorEnv(
        fns, autoreset_mode=mode, shared_memory=False, num_workers=3
    ),
    # The parent steps the last block itself (with a worker, alone, and without shared memory).
    "async-in-parent": lambda fns, mode: AsyncVectorEnv(
        fns, autoreset_mode=mode, num_workers=2, in_parent=True
    ),
    "parent-only": lambda fns, mode: AsyncVectorEnv(fns, autoreset_mode=mode, num_workers=1, in_parent=True),
    "async-pipes-in-parent": lambda fns, mode: AsyncVectorEnv(
        fns, autoreset_mode=mode, shared_memory=False, num_workers=2, in_parent=True
    ),
}


def run_pair(ours, ref, mode, steps, action_fn):
    obs1, info1 = ours.reset(seed=7)
    obs2, info2 = ref.reset(seed=7)
    assert_same_tree(obs1, obs2, "reset obs")
    assert_same_tree(info1, info2, "reset info")
    rng = np.random.default_rng(0)
    for t in range(steps):
        actions = action_fn(rng)
        a, b = ours.step(actions), ref.step(actions)
        for k, name in enumerate(("obs", "rewards", "terminations", "truncations", "infos")):
            assert_same_tree(a[k], b[k], f"t={t} {name}")
        if mode is AutoresetMode.DISABLED:
            done = np.logical_or(a[2], a[3])
            if done.any():
                r1 = ours.reset(options={"reset_mask": done})
                r2 = ref.reset(options={"reset_mask": done})
                assert_same_tree(r1[0], r2[0], f"t={t} masked reset obs")
                assert_same_tree(r1[1], r2[1], f"t={t} masked reset info")


@pytest.mark.parametrize("vectorizer", sorted(VECTORIZERS))
@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
def test_info_batching_and_autoreset_match_gymnasium(vectorizer, mode):
    ours = VECTORIZERS[vectorizer]([functools.partial(PalInfo, index=i) for i in range(4)], mode)
    ref = gymnasium.vector.SyncVectorEnv(
        [functools.partial(GymInfo, index=i) for i in range(4)],
        autoreset_mode=gymnasium.vector.AutoresetMode(mode.value),
    )
    try:
        run_pair(ours, ref, mode, 40, lambda rng: rng.integers(0, 3, size=4))
    finally:
        ours.close()
        ref.close()


@pytest.mark.parametrize("vectorizer", sorted(VECTORIZERS))
@pytest.mark.parametrize(
    ("env_id", "n"), [("CartPole-v1", 5), ("Pendulum-v1", 3), ("MountainCarContinuous-v0", 2)]
)
def test_classic_control_vectors_match_gymnasium(vectorizer, env_id, n):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = VECTORIZERS[vectorizer]([lambda: palaestra.make(env_id)] * n, AutoresetMode.NEXT_STEP)
        ref = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make(env_id)] * n)
    space = ref.action_space
    if isinstance(space, gymnasium.spaces.MultiDiscrete):
        action_fn = lambda rng: rng.integers(0, 2, size=n)  # noqa: E731
    else:
        action_fn = lambda rng: rng.uniform(-1, 1, size=space.shape).astype(np.float32)  # noqa: E731
    try:
        run_pair(ours, ref, AutoresetMode.NEXT_STEP, 250, action_fn)
    finally:
        ours.close()
        ref.close()


@pytest.mark.parametrize("vectorizer", ["sync", "async"])
def test_seed_lists_and_spaces_match(vectorizer):
    ours = VECTORIZERS[vectorizer](
        [functools.partial(PalInfo, index=i) for i in range(3)], AutoresetMode.NEXT_STEP
    )
    ref = gymnasium.vector.SyncVectorEnv([functools.partial(GymInfo, index=i) for i in range(3)])
    try:
        assert repr(ours.observation_space) == repr(ref.observation_space)
        assert repr(ours.action_space) == repr(ref.action_space)
        assert_same_tree(ours.reset(seed=[3, None, 5])[1]["_start"], np.array([True] * 3), "mask")
        o1, _ = ours.reset(seed=[4, 9, 1])
        o2, _ = ref.reset(seed=[4, 9, 1])
        assert np.array_equal(o1, o2)
        ours.action_space.seed(3)
        ref.action_space.seed(3)
        assert np.array_equal(ours.action_space.sample(), ref.action_space.sample())
    finally:
        ours.close()
        ref.close()


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@pytest.mark.parametrize("kind", ["SyncVectorEnv", "AsyncVectorEnv"])
def test_info_keys_come_in_the_order_gymnasiums_same_class_gives(kind, mode):
    # Gymnasium's two vector envs order SAME_STEP's keys differently (Sync: final_obs first,
    # Async: final_info first); code that reads list(info) sees the same list here.
    ours_cls, ref_cls = getattr(palaestra.vector, kind), getattr(gymnasium.vector, kind)
    ours = ours_cls([functools.partial(PalInfo, index=i) for i in range(3)], autoreset_mode=mode)
    ref = ref_cls(
        [functools.partial(GymInfo, index=i) for i in range(3)],
        autoreset_mode=gymnasium.vector.AutoresetMode(mode.value),
    )
    try:
        assert list(ours.reset(seed=3)[1]) == list(ref.reset(seed=3)[1])
        rng = np.random.default_rng(1)
        seen_final = False
        for t in range(30):
            actions = rng.integers(0, 3, size=3)
            (*_, terminated, truncated, ours_info), (*_, ref_info) = ours.step(actions), ref.step(actions)
            assert list(ours_info) == list(ref_info), f"t={t}"
            seen_final |= "final_obs" in ref_info
            done = terminated | truncated
            if mode is AutoresetMode.DISABLED and done.any():
                ours.reset(options={"reset_mask": done})
                ref.reset(options={"reset_mask": done})
        assert seen_final is (mode is AutoresetMode.SAME_STEP)
    finally:
        ours.close()
        ref.close()
