"""Atari through the bridge: ALE's envs made by palaestra, preprocessed the palaestra way."""

import gymnasium
import numpy as np
import pytest

import palaestra
from tests.fixtures.rollouts import assert_same_rollouts

pytestmark = pytest.mark.needs_plugins
ale_py = pytest.importorskip("ale_py", reason="ale-py comes with the test dependency group")


def play(env, actions, seed):
    seen = [env.reset(seed=seed)]
    for action in actions:
        seen.append(env.step(action))
        if seen[-1][2] or seen[-1][3]:
            break
    return seen


def test_pong_frames_match_gymnasiums_atari_preprocessing():
    ours = palaestra.make("ale_py:gymnasium/ALE/Pong-v5", frameskip=1, wrappers="atari")
    reference = gymnasium.wrappers.FrameStackObservation(
        gymnasium.wrappers.AtariPreprocessing(gymnasium.make("ALE/Pong-v5", frameskip=1)), stack_size=4
    )
    assert ours.observation_space.shape == reference.observation_space.shape == (4, 84, 84)
    actions = np.random.default_rng(0).integers(0, 6, size=150).tolist()
    seen, expected = play(ours, actions, seed=11), play(reference, actions, seed=11)
    assert_same_rollouts(seen, expected)
    moving = [step[0] for step in seen[1:]]
    assert any(not np.array_equal(moving[0], frame) for frame in moving), "the frames never changed"


def test_the_spec_records_the_wrapper_set_and_rebuilds_the_stack():
    env = palaestra.make("ale_py:gymnasium/ALE/Pong-v5", frameskip=1, wrappers="atari")
    names = [w.name for w in env.spec.additional_wrappers]
    assert names == ["AtariPreprocessing", "FrameStackObservation"]
    rebuilt = palaestra.make(env.spec)
    assert rebuilt.observation_space == env.observation_space
    first, again = env.reset(seed=3)[0], rebuilt.reset(seed=3)[0]
    assert np.array_equal(first, again)
