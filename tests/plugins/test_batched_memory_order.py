"""Natively batched envs return C-ordered observation arrays, terminal observations included.

A stack of single observations is C-ordered; SB3 and torch take the array as it comes, and
a Fortran-ordered batch changes the order of floating-point sums in the first layer (PPO's
weights drifted from Gymnasium's at the 8th digit).
"""

import numpy as np
import pytest

import palaestra

pytestmark = pytest.mark.needs_plugins

IDS = [
    "CartPole-v1",
    "Acrobot-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Pendulum-v1",
    "FrozenLake-v1",
    "CliffWalking-v1",
    "Taxi-v4",
]


def arrays(value):
    if isinstance(value, np.ndarray) and value.dtype != object:
        yield value
    elif isinstance(value, (np.ndarray, tuple, list)):
        for item in value:
            yield from arrays(item)


@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
@pytest.mark.parametrize("env_id", IDS)
def test_observations_and_final_observations_are_c_ordered(env_id, mode):
    envs = palaestra.make_vec(env_id, 5, max_episode_steps=7, autoreset_mode=mode)
    try:
        assert envs.spec.kwargs["vectorization_mode"] == "vector_entry_point"
        obs, _ = envs.reset(seed=3)
        seen_final = 0
        assert obs.flags.c_contiguous
        envs.action_space.seed(3)
        for _ in range(16):
            obs, _, _, _, info = envs.step(envs.action_space.sample())
            assert obs.flags.c_contiguous, env_id
            seen_final += int(np.any(info.get("_final_obs", False)))
            for final in arrays(info.get("final_obs")):
                assert final.ndim == 0 or final.flags.c_contiguous
        assert mode == "NextStep" or seen_final
    finally:
        envs.close()
