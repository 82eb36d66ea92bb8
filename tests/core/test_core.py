"""Env and Wrapper semantics (Gymnasium 1.x forwarding rules)."""

import pickle

import numpy as np
import pytest

import palaestra
from palaestra import ActionWrapper, Env, ObservationWrapper, RewardWrapper, Wrapper, spaces
from palaestra.error import InvalidSeed
from palaestra.utils import EzPickle, RecordConstructorArgs


class Physics(Env):
    metadata = {"render_modes": ["rgb_array"], "render_fps": 10}

    def __init__(self, gravity=9.8):
        self.gravity = gravity
        self.observation_space = spaces.Box(-10, 10, (2,), np.float32)
        self.action_space = spaces.Discrete(2)
        self.closed = 0

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        return self.np_random.uniform(-1, 1, 2).astype(np.float32), {"seeded": seed}

    def step(self, action):
        return np.zeros(2, np.float32), 1.0, False, False, {}

    def close(self):
        self.closed += 1


class Tagged(Wrapper, RecordConstructorArgs):
    def __init__(self, env, tag="x"):
        RecordConstructorArgs.__init__(self, tag=tag)
        Wrapper.__init__(self, env)
        self.tag = tag


def test_seeding_matches_seeding_util_and_validates():
    env = Physics()
    obs, _info = env.reset(seed=3)
    rng, seed = palaestra.utils.seeding.np_random(3)
    assert seed == 3 and env.np_random_seed == 3
    assert np.array_equal(obs, rng.uniform(-1, 1, 2).astype(np.float32))
    for bad in (-1, 1.0, np.int64(2)):
        with pytest.raises(InvalidSeed):
            env.reset(seed=bad)


def test_assigning_a_generator_sets_seed_to_minus_one():
    env = Physics()
    env.np_random = np.random.default_rng(0)
    assert env.np_random_seed == -1


def test_wrappers_do_not_forward_arbitrary_attributes():
    wrapped = Tagged(Physics(gravity=1.5))
    with pytest.raises(AttributeError):
        _ = wrapped.gravity
    assert wrapped.get_wrapper_attr("gravity") == 1.5
    assert wrapped.has_wrapper_attr("gravity") and not wrapped.has_wrapper_attr("nothing")
    with pytest.raises(AttributeError, match="wrapper Tagged has no attribute 'nothing'"):
        wrapped.get_wrapper_attr("nothing")
    wrapped.set_wrapper_attr("gravity", 2.0)
    assert wrapped.unwrapped.gravity == 2.0 and "gravity" not in vars(wrapped)
    assert wrapped.set_wrapper_attr("fresh", 1, force=False) is False
    wrapped.set_wrapper_attr("fresh", 1)
    assert vars(wrapped)["fresh"] == 1


def test_wrapper_private_rng_access_is_refused():
    wrapped = Tagged(Physics())
    with pytest.raises(AttributeError, match="Can't access `_np_random` of a wrapper"):
        _ = wrapped._np_random
    wrapped.reset(seed=1)
    assert wrapped.np_random is wrapped.unwrapped.np_random
    assert wrapped.np_random_seed == 1


def test_wrapper_spaces_and_metadata_default_to_inner():
    env = Physics()
    wrapped = Tagged(env)
    assert wrapped.observation_space is env.observation_space
    wrapped.observation_space = spaces.Discrete(3)
    assert wrapped.observation_space == spaces.Discrete(3) and env.observation_space.shape == (2,)
    assert wrapped.metadata is env.metadata
    assert wrapped.render_mode is None
    assert str(wrapped) == "<Tagged<Physics instance>>" == repr(wrapped)


def test_wrapper_spec_records_constructor_args():
    env = palaestra.wrappers.TimeLimit(Physics(), 5)
    env.unwrapped.spec = palaestra.EnvSpec("Physics-v0", entry_point=Physics)
    wrapped = Tagged(env, tag="y")
    spec = wrapped.spec
    assert spec.max_episode_steps == 5
    assert [(w.name, w.kwargs) for w in spec.additional_wrappers] == [("Tagged", {"tag": "y"})]
    assert spec.additional_wrappers[0].entry_point.endswith(":Tagged")


def test_observation_action_reward_wrappers():
    class Obs(ObservationWrapper):
        def observation(self, observation):
            return observation + 1

    class Act(ActionWrapper):
        def action(self, action):
            self.seen = action
            return 1 - action

    class Rew(RewardWrapper):
        def reward(self, reward):
            return reward * 10

    env = Rew(Act(Obs(Physics())))
    obs, _ = env.reset(seed=0)
    assert np.all(obs >= 0)
    obs, reward, *_ = env.step(1)
    assert reward == 10.0 and np.array_equal(obs, np.ones(2, np.float32))
    assert env.env.seen == 1


def test_context_manager_closes():
    with Physics() as env:
        pass
    assert env.closed == 1


def test_wrapper_rejects_non_env():
    with pytest.raises(
        TypeError, match=r"^Expected env to be a `gymnasium.Env` but got .*; in palaestra, a palaestra.Env"
    ):
        Wrapper(object())


def test_ezpickle_rebuilds_from_constructor_args():
    class Picklable(Physics, EzPickle):
        def __init__(self, gravity=9.8):
            Physics.__init__(self, gravity)
            EzPickle.__init__(self, gravity)

    import tests.core.test_core as here

    here.Picklable = Picklable
    Picklable.__qualname__ = "Picklable"
    clone = pickle.loads(pickle.dumps(Picklable(gravity=3.0)))
    assert clone.gravity == 3.0 and clone.closed == 0


def test_record_constructor_args_first_call_wins():
    class Inner(RecordConstructorArgs):
        def __init__(self):
            RecordConstructorArgs.__init__(self, a=1)
            RecordConstructorArgs.__init__(self, a=2)

    assert Inner()._saved_kwargs == {"a": 1}
