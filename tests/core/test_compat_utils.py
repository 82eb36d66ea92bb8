"""Small Gymnasium utilities: step API conversion, colours, MPI variables, FuncEnv."""

import copy
import os

import gymnasium.utils.step_api_compatibility as reference
import numpy as np
import pytest
from gymnasium.utils import colorize as reference_colorize

import palaestra
from palaestra.experimental.functional import FuncEnv
from palaestra.utils import colorize
from palaestra.utils import step_api_compatibility as ours
from palaestra.vector import AsyncVectorEnv
from palaestra.vector.utils import clear_mpi_env_vars
from tests.fixtures.vector_envs import info_env

OBS = np.zeros(2)
DONE_CASES = [
    ((OBS, 1.0, False, {}), False),
    ((OBS, 1.0, True, {}), False),
    ((OBS, 1.0, True, {"TimeLimit.truncated": True}), False),
    ((OBS, 1.0, True, {"TimeLimit.truncated": False, "x": 1}), False),
    ((OBS, 1.0, np.False_, {}), False),
    ((OBS, np.ones(3), np.array([True, False, True]), [{"TimeLimit.truncated": True}, {}, {}]), True),
    (
        (
            OBS,
            np.ones(3),
            np.array([True, False, True]),
            {"TimeLimit.truncated": np.array([False, False, True])},
        ),
        True,
    ),
    ((OBS, np.ones(2), np.array([False, True]), {}), True),
]
NEW_CASES = [
    ((OBS, 1.0, False, False, {}), False),
    ((OBS, 1.0, True, False, {}), False),
    ((OBS, 1.0, False, True, {}), False),
    ((OBS, 1.0, True, True, {"y": 2}), False),
    ((OBS, np.ones(3), np.array([True, False, False]), np.array([True, True, False]), [{}, {}, {}]), True),
    ((OBS, np.ones(3), np.array([True, False, False]), np.array([False, True, False]), {}), True),
    ((OBS, np.ones(2), np.array([False, False]), np.array([False, False]), {}), True),
]


def same(a, b):
    assert type(a) is type(b), (a, b)
    if isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            same(x, y)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            same(a[k], b[k])
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    else:
        assert a == b


@pytest.mark.parametrize(("step", "vector"), DONE_CASES + NEW_CASES)
@pytest.mark.parametrize("new_api", [True, False])
def test_step_api_conversion_matches_gymnasium(step, vector, new_api):
    expected = reference.step_api_compatibility(copy.deepcopy(step), new_api, vector)
    got = ours.step_api_compatibility(copy.deepcopy(step), new_api, vector)
    same(got, expected)
    assert len(got) == (5 if new_api else 4)


def test_round_trip_keeps_terminated_and_truncated_apart():
    step = (OBS, 0.0, False, True, {})
    back = ours.convert_to_terminated_truncated_step_api(ours.convert_to_done_step_api(step))
    assert back[2:] == (False, True, {})


def test_step_api_bad_input():
    with pytest.raises(ValueError, match="4 \\(done API\\) or 5 .* got 3"):
        ours.convert_to_done_step_api((OBS, 0.0, False))
    with pytest.raises(
        TypeError,
        match=r"actual type: <class .str.>. A vector env.s infos are a list of dicts or a dict of arrays",
    ):
        ours.convert_to_terminated_truncated_step_api(
            (OBS, 0.0, np.array([True]), "info"), is_vector_env=True
        )


def test_step_api_on_a_real_env():
    env = palaestra.make("CartPole-v1", max_episode_steps=2)
    env.reset(seed=0)
    assert ours.step_api_compatibility(env.step(0), False)[2:] == (False, {})
    assert ours.step_api_compatibility(env.step(0), False)[2:] == (True, {"TimeLimit.truncated": True})


@pytest.mark.parametrize(
    "color", ["gray", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "crimson"]
)
@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("highlight", [False, True])
def test_colorize_matches_gymnasium(color, bold, highlight):
    assert colorize("text", color, bold, highlight) == reference_colorize("text", color, bold, highlight)


def test_colorize_unknown_color():
    with pytest.raises(ValueError, match="Unknown color 'pink'; choose one of gray, red"):
        colorize("x", "pink")


def test_clear_mpi_env_vars_hides_and_restores(monkeypatch):
    monkeypatch.setenv("OMPI_COMM_WORLD_RANK", "3")
    monkeypatch.setenv("PMI_RANK", "3")
    monkeypatch.setenv("OTHER_VAR", "kept")
    seen = {}

    def fail_inside():
        with clear_mpi_env_vars():
            seen.update(os.environ)
            raise RuntimeError("inside")

    with pytest.raises(RuntimeError, match="inside"):
        fail_inside()
    assert "OMPI_COMM_WORLD_RANK" not in seen and "PMI_RANK" not in seen and seen["OTHER_VAR"] == "kept"
    assert os.environ["OMPI_COMM_WORLD_RANK"] == "3" and os.environ["PMI_RANK"] == "3"


def test_async_workers_start_without_the_mpi_variables(monkeypatch):
    monkeypatch.setenv("OMPI_COMM_WORLD_RANK", "3")
    envs = AsyncVectorEnv([info_env, info_env], num_workers=2, context="spawn")
    try:
        assert envs.call("environ", "OMPI_COMM_WORLD_RANK") == (None, None)
        assert envs.call("environ", "PATH") == (os.environ["PATH"],) * 2
    finally:
        envs.close()
    assert os.environ["OMPI_COMM_WORLD_RANK"] == "3"


class Walk(FuncEnv):
    """A 1-D walk to +-limit: the smallest useful functional env."""

    limit = 2

    def initial(self, rng, params=None):
        return 0

    def transition(self, state, action, rng, params=None):
        return state + (1 if action else -1)

    def observation(self, state, rng, params=None):
        return np.array([state])

    def reward(self, state, action, next_state, rng, params=None):
        return float(abs(next_state) >= self.limit)

    def terminal(self, state, rng, params=None):
        return abs(state) >= self.limit


def test_func_env_is_driven_by_explicit_state():
    env = Walk(options={"limit": 1})
    assert env.limit == 1 and Walk.limit == 2 and env.default_params is None
    state = env.initial(None)
    after = env.transition(state, 1, None)
    assert (after, env.reward(state, 1, after, None), env.terminal(after, None)) == (1, 1.0, True)
    assert env.state_info(after) == {} and env.transition_info(state, 1, after) == {}


def test_func_env_transform_wraps_every_state_function():
    env = Walk()
    calls = []

    def traced(fn):
        def run(*args, **kwargs):
            calls.append(fn.__name__)
            return fn(*args, **kwargs)

        return run

    env.transform(traced)
    state = env.initial(None)
    env.observation(env.transition(state, 0, None), None)
    env.transition_info(state, 0, -1)
    assert calls == ["initial", "transition", "observation", "transition_info"]
    assert type(Walk().initial) is not type(env.initial)  # the class is untouched


def test_func_env_unimplemented_functions_say_what_to_write():
    with pytest.raises(
        NotImplementedError, match=r"FuncEnv must implement `transition\(state, action, rng, params\)`"
    ):
        FuncEnv().transition(0, 0, None)
    with pytest.raises(NotImplementedError, match="Walk does not render"):
        Walk().render_init()


def test_experimental_is_a_lazy_top_level_name():
    assert palaestra.experimental.functional.FuncEnv is FuncEnv


def test_call_async_passes_a_name_keyword_through():
    envs = AsyncVectorEnv([lambda: info_env(0), lambda: info_env(1)], num_workers=1)
    try:
        envs.call_async("label_with", name="x")
        assert envs.call_wait() == ("x-0", "x-1")
    finally:
        envs.close()


def test_vector_episode_statistics_reset_takes_a_positional_seed():
    from palaestra.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(palaestra.make_vec("CartPole-v1", 2, vectorization_mode="sync"))
    positional, _ = envs.reset(3)
    keyword, _ = envs.reset(seed=3)
    assert np.array_equal(positional, keyword)


def test_space_checks_take_gymnasiums_keywords():
    from palaestra.spaces import Box
    from palaestra.utils.passive_env_checker import check_action_space, check_observation_space

    with pytest.warns(UserWarning, match="A Box steering space maximum and minimum values are equal"):
        check_action_space(Box(0, 0, (1,)), space_type="steering")
    seen = []
    check_observation_space(
        palaestra.spaces.Tuple([Box(0, 0, (1,))]),
        check_box_space_fn=lambda box, kind: seen.append((box.shape, kind)),
    )
    assert seen == [((1,), "observation")]
