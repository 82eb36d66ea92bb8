"""A sub-env whose reset raises leaves none of the others un-reset (sync and async alike)."""

import functools

import numpy as np
import pytest

import palaestra
from palaestra.vector import AsyncVectorEnv, SyncVectorEnv
from tests.fixtures.vector_envs import SUB_ENV_ERRORS_LOGGED, cart_pole_failing_reset

pytestmark = [pytest.mark.needs_plugins, SUB_ENV_ERRORS_LOGGED]

KINDS = {
    "sync": lambda fns: SyncVectorEnv(fns),
    "async, two per worker": lambda fns: AsyncVectorEnv(fns, num_workers=2),
    "async, one per worker": lambda fns: AsyncVectorEnv(fns),
    "async, in parent": lambda fns: AsyncVectorEnv(fns, num_workers=2, in_parent=True),
}


def fresh_run(seed, actions):
    env = palaestra.make("CartPole-v1")
    obs, _ = env.reset(seed=seed)
    out = [obs]
    for action in actions:
        out.append(env.step(action)[0])
    return np.array(out)


@pytest.mark.parametrize("crash_index", [0, 2])
@pytest.mark.parametrize("kind", KINDS.values(), ids=KINDS)
def test_the_sub_envs_beside_a_failing_reset_are_all_reset(kind, crash_index):
    fns = [functools.partial(cart_pole_failing_reset, index=i, crash_index=crash_index) for i in range(4)]
    envs = kind(fns)
    try:
        envs.reset(seed=50)
        for _ in range(5):  # every sub-env mid-episode, far from a fresh start
            envs.step(np.ones(4, dtype=np.int64))
        seeds = [10, 11, 12, 13]
        seeds[crash_index] = 99
        with pytest.raises(KeyError, match=f"bad reset seed in env {crash_index}") as raised:
            envs.reset(seed=seeds)
        assert raised.value.sub_env_index == crash_index
        actions = [1, 0, 1, 1, 0]
        runs = [[] for _ in range(4)]
        for action in actions:
            obs = envs.step(np.full(4, action, dtype=np.int64))[0]
            for i in range(4):
                runs[i].append(obs[i])
        for i in range(4):
            if i != crash_index:
                np.testing.assert_array_equal(np.array(runs[i]), fresh_run(seeds[i], actions)[1:])
    finally:
        envs.close()
