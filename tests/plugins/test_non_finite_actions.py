"""One rule for every continuous env: NaN and infinite actions are refused before anything moves.

Finite values beyond the bounds are clipped as Gymnasium clips them (its numbers are kept);
NaN and +-inf are never an intended action (a diverged policy), so every continuous env, single
and batched, raises InvalidAction naming the env, the action and the reason.
"""

import warnings

import numpy as np
import pytest

import palaestra
from palaestra.error import InvalidAction
from palaestra.utils.env_checker import data_equivalence

CONTINUOUS = [
    ("Pendulum-v1", {}),
    ("MountainCarContinuous-v0", {}),
    ("LunarLander-v3", {"continuous": True}),
    ("BipedalWalker-v3", {}),
    ("BipedalWalkerHardcore-v3", {}),
    ("CarRacing-v3", {}),
    ("HalfCheetah-v5", {}),
    ("Reacher-v5", {}),
]


def _make(env_id, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return palaestra.make(env_id, **kwargs)
        except palaestra.error.DependencyNotInstalled as e:
            pytest.skip(f"{env_id} needs an optional dependency: {e}")


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan], ids=["+inf", "-inf", "nan"])
@pytest.mark.parametrize(("env_id", "kwargs"), CONTINUOUS, ids=[c[0] for c in CONTINUOUS])
def test_non_finite_actions_are_refused_with_the_reason(env_id, kwargs, bad):
    env, twin = _make(env_id, **kwargs), _make(env_id, **kwargs)
    env.reset(seed=0)
    twin.reset(seed=0)
    action = np.zeros(env.action_space.shape, np.float32)
    action[0] = bad
    with pytest.raises(
        InvalidAction, match=r"(?s)is not in the action space Box.*NaN and infinite values are not actions"
    ):
        env.step(action)
    # Nothing moved: the next step equals a twin's first step.
    good = np.clip(
        np.full(env.action_space.shape, 0.5, np.float32), env.action_space.low, env.action_space.high
    )
    assert data_equivalence(env.step(good)[:4], twin.step(good)[:4], exact=True)
    env.close()
    twin.close()


@pytest.mark.parametrize(
    ("env_id", "kwargs"), CONTINUOUS[:2], ids=["Pendulum-v1", "MountainCarContinuous-v0"]
)
def test_finite_actions_beyond_the_bounds_are_still_clipped(env_id, kwargs):
    far, edge = _make(env_id), _make(env_id)
    far.reset(seed=1)
    edge.reset(seed=1)
    high = edge.action_space.high
    # The same motion (the reward prices the unclipped action, as in Gymnasium).
    assert data_equivalence(far.step(high * 1e30)[0], edge.step(high.copy())[0], exact=True)


@pytest.mark.parametrize("env_id", ["Pendulum-v1", "MountainCarContinuous-v0"])
def test_batched_envs_refuse_them_too(env_id):
    envs = palaestra.make_vec(env_id, 3)
    envs.reset(seed=0)
    actions = np.zeros((3, 1), np.float32)
    actions[1, 0] = np.inf
    with pytest.raises(
        InvalidAction, match=r"(?s)are not in the action space Box.*NaN and infinite values are not actions"
    ):
        envs.step(actions)
    envs.close()
