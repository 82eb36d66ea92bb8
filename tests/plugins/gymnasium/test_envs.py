"""palaestra envs as Gymnasium envs and back: checkers, round trips, attributes, specs."""

import copy
import os
import pickle
import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from gymnasium.utils.passive_env_checker import env_render_passive_checker

import palaestra
from palaestra.error import SnapshotNotSupported
from palaestra_gymnasium import (
    FromGymnasiumEnv,
    ToGymnasiumEnv,
    from_gymnasium,
    gymnasium_id,
    palaestra_id,
    to_gymnasium,
)
from tests.fixtures.rollouts import actions_for, assert_same_rollouts, palaestra_ids, rollout

pytestmark = pytest.mark.needs_plugins

IDS = palaestra_ids()
# Gymnasium 1.4.0 itself refuses Pusher-v4 under MuJoCo >= 3 (palaestra runs it).
GYMNASIUM_MAKES = [env_id for env_id in IDS if env_id != "Pusher-v4"]
STEPS = {"CarRacing-v3": 30}  # CarRacing draws a frame per step: keep its rollouts short


def on_gymnasium_1_4(ids):
    """``ids`` for parametrize, those only Gymnasium 1.4.0 registers marked (1.2.2 has Taxi-v3)."""
    return [pytest.param(i, marks=pytest.mark.gymnasium_1_4) if i == "Taxi-v4" else i for i in ids]


def quiet_make(maker, env_id, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # CartPole-v0 is out of date, by design
        return maker(env_id, **kwargs)


@pytest.mark.gymnasium_1_4
def test_every_reference_suite_id_is_bridged():
    assert {"CartPole-v1", "Taxi-v4", "LunarLander-v3", "HalfCheetah-v5"} <= set(IDS)


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasiums_check_env_passes(env_id):
    env = to_gymnasium(quiet_make(palaestra.make, env_id))
    assert isinstance(env, gymnasium.Env)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # "human" needs a display (none here); every other render mode is checked below.
        gymnasium_check_env(env, skip_render_check=True)
        gymnasium_check_env(env.unwrapped, skip_render_check=True)
        for mode in env.metadata["render_modes"]:
            if mode != "human":
                rendering = env.spec.make(render_mode=mode)
                rendering.reset(seed=0)
                env_render_passive_checker(rendering)
                rendering.close()
    # The only advice: the wrapped env differs from its unwrapped one (as for gymnasium.make's envs).
    advice = {
        str(w.message) for w in caught if "is different from the unwrapped version" not in str(w.message)
    }
    assert not {a for a in advice if "palaestra" in a or "Error" in a}, advice
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_round_trip_gives_the_same_rollouts(env_id):
    actions = actions_for(env_id, STEPS.get(env_id, 120))
    original = quiet_make(palaestra.make, env_id)
    there_and_back = FromGymnasiumEnv(ToGymnasiumEnv(quiet_make(palaestra.make, env_id)))
    assert_same_rollouts(rollout(original, actions), rollout(there_and_back, actions))


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_makes_palaestra_ids_with_gymnasiums_wrappers(env_id):
    actions = actions_for(env_id, STEPS.get(env_id, 120))
    ours = quiet_make(palaestra.make, env_id)
    seen_by_gymnasium = quiet_make(gymnasium.make, gymnasium_id(env_id))
    assert seen_by_gymnasium.spec.id == gymnasium_id(env_id)
    assert seen_by_gymnasium.spec.max_episode_steps == ours.spec.max_episode_steps
    assert_same_rollouts(rollout(ours, actions), rollout(seen_by_gymnasium, actions))


def wrapper_names(env):
    names = []
    while hasattr(env, "env"):
        names.append(type(env).__name__)
        env = env.env
    return names


def test_a_gymnasium_made_palaestra_env_is_stacked_like_gymnasiums_own():
    ours = gymnasium.make("palaestra/CartPole-v1")
    reference = gymnasium.make("CartPole-v1")
    assert (
        wrapper_names(ours)
        == wrapper_names(reference)
        == ["TimeLimit", "OrderEnforcing", "PassiveEnvChecker"]
    )
    assert isinstance(ours.unwrapped, ToGymnasiumEnv)
    assert ours.unwrapped.spec.id == "palaestra/CartPole-v1"
    assert_same_rollouts(rollout(ours, [0, 1] * 60), rollout(reference, [0, 1] * 60))


@pytest.mark.parametrize(
    "env_id", on_gymnasium_1_4(["CartPole-v1", "Taxi-v4", "Pendulum-v1", "FrozenLake-v1"])
)
def test_gymnasium_envs_made_through_palaestra_match_gymnasium(env_id):
    actions = actions_for(env_id, 150)
    through_palaestra = palaestra.make(f"gymnasium/{env_id}")
    reference = gymnasium.make(env_id)
    assert through_palaestra.spec.id == f"gymnasium/{env_id}"
    assert wrapper_names(through_palaestra) == wrapper_names(reference)
    assert isinstance(through_palaestra.unwrapped, FromGymnasiumEnv)
    assert isinstance(through_palaestra, palaestra.Env)
    assert_same_rollouts(rollout(through_palaestra, actions), rollout(reference, actions))


@pytest.mark.parametrize("env_id", on_gymnasium_1_4(GYMNASIUM_MAKES))
def test_gymnasium_round_trip_gives_the_same_rollouts(env_id):
    reference = quiet_make(gymnasium.make, env_id)
    there_and_back = ToGymnasiumEnv(FromGymnasiumEnv(quiet_make(gymnasium.make, env_id)))
    actions = actions_for(env_id, STEPS.get(env_id, 120))
    assert_same_rollouts(rollout(reference, actions), rollout(there_and_back, actions))


def test_the_conversion_functions_unwrap_their_own_adapters():
    env = palaestra.make("CartPole-v1")
    assert from_gymnasium(to_gymnasium(env)) is env
    gym_env = gymnasium.make("CartPole-v1")
    assert to_gymnasium(from_gymnasium(gym_env)) is gym_env
    assert to_gymnasium(gym_env) is gym_env and from_gymnasium(env) is env


def test_attributes_reach_the_bare_env_through_unwrapped():
    env = to_gymnasium(palaestra.make("CartPole-v1"))
    env.reset(seed=0)
    bare = env.palaestra_env.unwrapped
    assert isinstance(env.unwrapped, ToGymnasiumEnv) and env.unwrapped.palaestra_env is bare
    assert env.unwrapped.x_threshold == bare.x_threshold == 2.4
    env.unwrapped.state = np.array([0.0, 0.0, 0.3, 0.0])  # set on the palaestra env, as tests do
    assert bare.state[2] == 0.3
    assert env.get_wrapper_attr("gravity") == 9.8
    assert env.has_wrapper_attr("gravity") and not env.has_wrapper_attr("no_such_attribute")
    env.set_wrapper_attr("gravity", 3.0)
    assert bare.gravity == 3.0
    with pytest.raises(AttributeError):
        env.no_such_attribute  # noqa: B018


def test_generator_metadata_render_and_close_are_the_palaestra_envs():
    inner = palaestra.make("CartPole-v1", render_mode="rgb_array")
    env = to_gymnasium(inner)
    env.reset(seed=5)
    assert env.np_random is inner.np_random and env.np_random_seed == 5
    assert env.unwrapped._np_random is inner.unwrapped._np_random
    assert env.metadata is inner.metadata and env.render_mode == "rgb_array"
    assert np.array_equal(env.render(), inner.render())
    closed = []
    inner.unwrapped.close = lambda: closed.append(True)
    env.close()
    assert closed == [True]


def test_spaces_share_the_palaestra_spaces_generators():
    inner = palaestra.make("Pendulum-v1")
    inner.action_space.seed(7)
    env = to_gymnasium(inner)
    assert isinstance(env.action_space, gymnasium.spaces.Box)
    first = env.action_space.sample()  # one stream: the Gymnasium view draws where palaestra left off
    second = inner.action_space.sample()
    reference = gymnasium.spaces.Box(-2.0, 2.0, (1,), np.float32, seed=7)
    assert np.array_equal(first, reference.sample()) and np.array_equal(second, reference.sample())


def test_spec_converts_and_rebuilds_the_env_through_gymnasium():
    env = to_gymnasium(palaestra.make("CartPole-v1", max_episode_steps=50))
    spec = env.spec
    assert isinstance(spec, gymnasium.envs.registration.EnvSpec)
    assert (spec.id, spec.max_episode_steps, spec.reward_threshold) == ("palaestra/CartPole-v1", 50, 475.0)
    rebuilt = gymnasium.make(spec)
    assert isinstance(rebuilt.unwrapped, ToGymnasiumEnv)
    assert rebuilt.spec.max_episode_steps == 50
    assert pickle.loads(pickle.dumps(spec)) == spec


def test_wrapper_sets_carry_over_to_gymnasium_specs_as_gymnasiums_wrappers():
    env = to_gymnasium(palaestra.make("CartPole-v1", wrappers="normalize"))
    wrappers = [(w.name, w.entry_point) for w in env.spec.additional_wrappers]
    assert wrappers == [
        ("NormalizeObservation", "gymnasium.wrappers:NormalizeObservation"),
        ("NormalizeReward", "gymnasium.wrappers:NormalizeReward"),
    ]
    rebuilt = gymnasium.make(env.spec)
    assert wrapper_names(rebuilt)[:2] == ["NormalizeReward", "NormalizeObservation"]


def test_ids_map_both_ways():
    pairs = [
        ("CartPole-v1", "palaestra/CartPole-v1"),
        ("grid/Walk-v0", "palaestra/grid.Walk-v0"),
        ("gymnasium/ALE/Pong-v5", "ALE/Pong-v5"),
        ("gymnasium/CartPole-v1", "CartPole-v1"),
    ]
    for ours, theirs in pairs:
        assert gymnasium_id(ours) == theirs
        assert palaestra_id(theirs) == ours


def test_a_users_namespaced_palaestra_env_reaches_gymnasium(isolated_registration):
    from palaestra_gymnasium import register_in_gymnasium

    palaestra.register(
        "bridgetest/Counter-v0", entry_point="tests.fixtures.bridge_envs:GridWorld", max_episode_steps=9
    )
    assert register_in_gymnasium(["bridgetest/Counter-v0"]) == ["palaestra/bridgetest.Counter-v0"]
    env = gymnasium.make("palaestra/bridgetest.Counter-v0")
    assert env.spec.max_episode_steps == 9
    env.reset(seed=0)
    assert palaestra.make("bridgetest/Counter-v0").observation_space == from_gymnasium(env.observation_space)


@pytest.fixture
def isolated_registration():
    yield
    gymnasium.registry.pop("palaestra/bridgetest.Counter-v0", None)
    palaestra.registry.pop("bridgetest/Counter-v0", None)


def test_palaestra_wrappers_and_vector_envs_run_gymnasium_envs():
    def from_gym():
        return from_gymnasium(gymnasium.make("CartPole-v1"))

    wrapped = palaestra.wrappers.NormalizeObservation(from_gym())
    native = palaestra.wrappers.NormalizeObservation(palaestra.make("CartPole-v1"))
    actions = actions_for("CartPole-v1", 100)
    assert_same_rollouts(rollout(wrapped, actions), rollout(native, actions))
    envs = palaestra.vector.SyncVectorEnv([from_gym] * 3)
    reference = palaestra.make_vec("CartPole-v1", 3, vectorization_mode="sync")
    batch = [np.array([a, 1 - a, a]) for a in actions]
    assert_same_rollouts(rollout(envs, batch), rollout(reference, batch))


def test_snapshots_of_a_gymnasium_env_restore_its_state_and_generator():
    env = palaestra.make("gymnasium/FrozenLake-v1", is_slippery=True)
    env.reset(seed=1)
    snapshot = env.snapshot()
    first = [env.step(a) for a in [1, 2, 2, 1, 2]]
    env.restore(snapshot)
    again = [env.step(a) for a in [1, 2, 2, 1, 2]]
    assert_same_rollouts(first, again)
    env.restore(pickle.loads(pickle.dumps(snapshot)))
    assert_same_rollouts(first, [env.step(a) for a in [1, 2, 2, 1, 2]])


class Uncopyable(gymnasium.Env):
    observation_space = gymnasium.spaces.Discrete(2)
    action_space = gymnasium.spaces.Discrete(2)

    def __deepcopy__(self, memo):
        raise TypeError("holds a simulator handle")


def test_a_gymnasium_env_that_cannot_be_copied_says_so():
    env = FromGymnasiumEnv(Uncopyable())
    with pytest.raises(SnapshotNotSupported, match="cannot be deep-copied .*holds a simulator handle"):
        env.snapshot()


def test_adapters_refuse_the_wrong_library():
    with pytest.raises(TypeError, match="ToGymnasiumEnv takes a palaestra.Env, got CartPoleEnv"):
        ToGymnasiumEnv(gymnasium.make("CartPole-v1").unwrapped)
    with pytest.raises(TypeError, match="FromGymnasiumEnv takes a gymnasium.Env"):
        FromGymnasiumEnv(palaestra.make("CartPole-v1"))
    with pytest.raises(
        TypeError, match="to_gymnasium takes a palaestra env, vector env, space or EnvSpec, got int"
    ):
        to_gymnasium(3)
    with pytest.raises(TypeError, match="from_gymnasium takes a Gymnasium env"):
        from_gymnasium("CartPole-v1")


def test_adapters_pickle_and_copy_with_their_state():
    env = to_gymnasium(palaestra.make("CartPole-v1"))
    env.reset(seed=3)
    clones = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    steps = [env.step(1) for _ in range(5)]
    for clone in clones:
        assert clone.palaestra_env is not env.palaestra_env
        assert_same_rollouts(steps, [clone.step(1) for _ in range(5)])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SDL asks for XDG_RUNTIME_DIR on Linux only")
def test_rendering_a_gymnasium_env_without_a_runtime_dir_prints_nothing_from_sdl():
    """SDL's "XDG_RUNTIME_DIR is invalid or not set" (containers, CI, ssh) does not reach the user."""
    code = (
        "import palaestra\n"
        "env = palaestra.make('gymnasium/CartPole-v1', render_mode='rgb_array')\n"
        "env.reset(seed=0)\n"
        "print(env.render().shape)\n"
    )
    environment = {k: v for k, v in os.environ.items() if k not in ("XDG_RUNTIME_DIR", "SDL_VIDEODRIVER")}
    result = subprocess.run(
        [sys.executable, "-c", code], env=environment, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "(400, 600, 3)"
    assert "XDG_RUNTIME_DIR" not in result.stderr
