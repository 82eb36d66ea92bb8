"""State snapshots of the suites' envs through make(): exact continuation, renders, limits."""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest

import palaestra as ps
from palaestra import error, spaces
from palaestra.cli._checking import _plugin_ids as plugin_ids

# Every env of the installed suites: all but Box2D's take snapshots.
# The retired MuJoCo v2/v3 ids only explain what replaced them: there is no env to snapshot.
SNAPSHOT_IDS = [
    env_id
    for suite in ("classic_control", "toy_text", "mujoco")
    for env_id in plugin_ids(suite)
    if not str(ps.spec(env_id).entry_point).endswith(":retired")
]
BOX2D_IDS = plugin_ids("box2d")


def make(env_id, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # CartPole-v0 is out of date
        return ps.make(env_id, **kwargs)


def actions_for(env, count, seed=5):
    env.action_space.seed(seed)
    return [env.action_space.sample() for _ in range(count)]


def play(env, actions):
    """Every result of stepping through ``actions`` (resetting, unseeded, when an episode ends)."""
    results = []
    for action in actions:
        obs, reward, terminated, truncated, info = env.step(action)
        results.append((np.asarray(obs).tolist(), float(reward), terminated, truncated, repr(info)))
        if terminated or truncated:
            results.append(np.asarray(env.reset()[0]).tolist())
    return results


@pytest.mark.parametrize("env_id", SNAPSHOT_IDS)
def test_restored_env_goes_on_exactly_as_after_the_snapshot(env_id):
    env = make(env_id, max_episode_steps=25)  # crosses truncation and the unseeded resets after it
    env.reset(seed=3)
    actions = actions_for(env, 40)
    play(env, actions[:10])
    snapshot = env.snapshot()
    expected = play(env, actions)
    env.restore(snapshot)
    assert play(env, actions) == expected
    # Into a fresh env made the same way, after a pickle round trip (as to another process).
    fresh = make(env_id, max_episode_steps=25)
    fresh.reset(seed=99)
    fresh.restore(pickle.loads(pickle.dumps(snapshot)))
    assert play(fresh, actions) == expected


@pytest.mark.parametrize("env_id", ["CartPole-v1", "Taxi-v4", "Pendulum-v1", "HalfCheetah-v5"])
def test_rendering_after_a_restore_shows_the_saved_state(env_id):
    env = make(env_id, render_mode="rgb_array")
    env.reset(seed=0)
    for action in actions_for(env, 5):
        env.step(action)
    snapshot = env.snapshot()
    before = env.render()
    for action in actions_for(env, 50, seed=9):  # until the picture changes (walls can block a move)
        if env.step(action)[2]:
            env.reset()
        if not np.array_equal(env.render(), before):
            break
    else:
        pytest.fail("50 steps left the picture unchanged")
    env.restore(snapshot)
    np.testing.assert_array_equal(env.render(), before)
    env.close()


@pytest.mark.parametrize("env_id", BOX2D_IDS)
def test_box2d_envs_say_why_they_cannot_take_snapshots(env_id):
    env = make(env_id)
    env.reset(seed=0)
    with pytest.raises(error.SnapshotNotSupported, match=rf"{env_id}.*cannot take snapshots: a Box2D world"):
        env.snapshot()
    env.close()


def test_a_mujoco_snapshot_does_not_go_into_a_model_of_other_sizes():
    from palaestra_mujoco import MujocoEnv

    class Ball(MujocoEnv):
        def __init__(self, joint):
            body = f'<body><joint type="{joint}"/><geom size="0.1" mass="1"/></body>'
            super().__init__(
                f"<mujoco><worldbody>{body}</worldbody></mujoco>",
                frame_skip=1,
                observation_space=spaces.Box(-1.0, 1.0, shape=(1,)),
            )

    free, hinge = Ball("free"), Ball("hinge")
    with pytest.raises(error.SnapshotError, match=r"MuJoCo model differs in size .*\(1, 1, 0"):
        hinge.restore(free.snapshot())
    hinge.restore(Ball("hinge").snapshot())  # the same model is fine


def innermost(snapshot):
    while snapshot.inner is not None:
        snapshot = snapshot.inner
    return snapshot


def test_mujoco_snapshots_reuse_the_copies_of_dropped_ones_without_mixing_states():
    env = ps.make("HalfCheetah-v5")
    env.reset(seed=0)
    actions = actions_for(env, 20)
    play(env, actions[:3])
    first = env.snapshot()
    reused = innermost(first).state["data"].data
    del first  # its MjData goes back to the env's spares
    play(env, actions[:5])
    second = env.snapshot()
    assert innermost(second).state["data"].data is reused
    expected = play(env, actions)
    env.restore(second)
    assert play(env, actions) == expected
    env.restore(copy.deepcopy(second))  # a deep copy holds its own MjData
    assert play(env, actions) == expected
