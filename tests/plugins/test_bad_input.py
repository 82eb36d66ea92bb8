"""Every bad input to every env family is refused by a named palaestra error saying what was expected.

Actions that are not actions (None, strings, bytes, dicts, objects, complex numbers, booleans
for a continuous space, arrays of strings), a render mode that is not a name, reset options
that are not a dict, a vector step without actions, NaN constructor arguments and an action
too large for the env's arithmetic.
"""

import re
import warnings

import numpy as np
import pytest

import palaestra
from palaestra.error import (
    ActionOverflowError,
    InvalidAction,
    InvalidActionType,
    InvalidEnvArguments,
    InvalidEnvArgumentValue,
    InvalidResetOptions,
)
from tests.fixtures.checker import outcome
from tests.fixtures.rollouts import ATARI_STAND_INS

pytestmark = pytest.mark.needs_plugins

SINGLE_IDS = sorted(
    env_id
    for env_id, spec in palaestra.registry.items()
    if not env_id.startswith("gymnasium/")
    and not str(spec.entry_point).endswith(":retired")  # MuJoCo's v2/v3 only explain what replaced them
    and (not str(spec.entry_point).startswith("palaestra_atari") or env_id in ATARI_STAND_INS)
)
MUJOCO_V5 = [
    env_id
    for env_id in SINGLE_IDS
    if env_id.endswith("-v5") and palaestra.spec(env_id).entry_point.startswith("palaestra_mujoco")
]


def make(env_id, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return palaestra.make(env_id, **kwargs)
        except palaestra.error.DependencyNotInstalled as e:
            pytest.skip(f"{env_id} needs an optional dependency: {str(e).splitlines()[0]}")


def not_actions(space):
    """Inputs that are not actions of ``space``, by label."""
    shape = space.shape or (1,)
    bad = {
        "None": None,
        "str": "x",
        "bytes": b"x",
        "dict": {"a": 1},
        "object array": np.array([object()], dtype=object),
        "complex": np.full(shape, 1 + 1j),
        "string array": np.full(shape, "1"),
        "list of strings": ["1"] * shape[0],
        "wrong shape": np.zeros((*shape, 3)),
    }
    if isinstance(space, palaestra.spaces.Box) and space.dtype.kind == "f":
        bad["bool array"] = np.ones(shape, dtype=bool)
    if isinstance(space, palaestra.spaces.Discrete):
        bad["float"] = 0.5
    return bad


@pytest.mark.parametrize("env_id", SINGLE_IDS)
def test_every_env_refuses_what_is_not_an_action_and_says_what_it_expected(env_id):
    env = make(env_id)
    name = type(env.unwrapped).__name__
    for label, action in not_actions(env.action_space).items():
        if label == "None" and env_id.startswith("CarRacing"):
            continue  # Gymnasium's CarRacing takes None as "no action" (its reset steps with it)
        env.reset(seed=0)
        with pytest.raises(InvalidAction) as info:
            env.step(action)
        message = str(info.value)
        assert "expected" in message, (env_id, label, message)
        assert name in message or "Env" in message, (env_id, label, message)
    env.close()


@pytest.mark.parametrize(
    "env_id", ["CartPole-v1", "Taxi-v4", "LunarLander-v3", "Hopper-v5", "phys2d/Pendulum-v0"]
)
def test_a_render_mode_that_is_not_a_name_is_refused(env_id):
    with pytest.raises(
        InvalidEnvArguments, match=r"render_mode must be None or the name of a render mode.*got 5 \(int\)"
    ):
        make(env_id, render_mode=5)


@pytest.mark.parametrize("env_id", SINGLE_IDS)
def test_reset_options_that_are_not_a_dict_are_refused(env_id):
    env = make(env_id)
    with pytest.raises(InvalidResetOptions, match=r"options must be a dict \(or None\), got 'x' \(str\)"):
        env.reset(options="x")
    env.reset(seed=0, options={})  # an empty dict is fine
    env.close()


def test_classic_control_bounds_parsing_refuses_non_dict_options_on_the_bare_env():
    env = make("CartPole-v1").unwrapped
    with pytest.raises(InvalidResetOptions, match="options must be a dict"):
        env.reset(options=[("low", -0.1)])


@pytest.mark.parametrize("mode", ["sync", "async", "vector_entry_point"])
def test_a_vector_step_without_actions_names_the_batch_it_expected(mode):
    envs = palaestra.make_vec("CartPole-v1", 2, vectorization_mode=mode)
    envs.reset(seed=0)
    with pytest.raises(InvalidAction, match="actions None are not"):
        envs.step(None)
    envs.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_vector_step_of_none_keeps_gymnasiums_type_error_and_words(mode):
    envs = palaestra.make_vec("CartPole-v1", 2, vectorization_mode=mode)
    envs.reset(seed=0)
    with pytest.raises(TypeError, match="^Unable to iterate over the following elements: None") as info:
        envs.step(None)
    assert isinstance(info.value, InvalidActionType)
    envs.close()


def a_float_argument(env_id):
    """The first constructor argument of ``env_id`` whose default is a number (not a flag or a size)."""
    import inspect

    creator = palaestra.envs.registration.load_env_creator(palaestra.spec(env_id).entry_point)
    return next(
        name
        for name, p in inspect.signature(creator).parameters.items()
        if isinstance(p.default, (int, float)) and not isinstance(p.default, bool) and name != "frame_skip"
    )


@pytest.mark.parametrize("env_id", MUJOCO_V5)
def test_mujoco_arguments_that_are_nan_are_named(env_id):
    name = a_float_argument(env_id)
    with pytest.raises(InvalidEnvArgumentValue, match=rf"{name}=nan is not a usable number"):
        make(env_id, **{name: float("nan")})


def test_an_open_range_is_still_a_range():
    env = make("Hopper-v5", healthy_z_range=(0.7, float("inf")))
    env.reset(seed=0)
    with pytest.raises(InvalidEnvArgumentValue, match="healthy_z_range"):
        make("Hopper-v5", healthy_z_range=(0.7, float("nan")))


def test_an_action_too_large_for_the_reward_is_named_and_keeps_gymnasiums_overflow_error():
    env = make("MountainCarContinuous-v0")
    env.reset(seed=0)
    with pytest.raises(ActionOverflowError, match="too large") as info:
        env.step(np.array([1e300]))
    assert isinstance(info.value, OverflowError) and isinstance(info.value, InvalidAction)
    observation, *_ = env.step(np.array([0.5]))  # nothing moved: the env goes on
    assert np.isfinite(observation).all()


def test_unknown_mujoco_arguments_use_pythons_words():
    # TorchRL probes `frameskip` and looks for Python's own message.
    with pytest.raises(TypeError, match="unexpected keyword argument 'frameskip'"):
        make("HalfCheetah-v5", frameskip=4)


ASSERTED = [
    ("CartPole-v1", {}, 2),
    ("CartPole-v1", {}, "left"),
    ("MountainCar-v0", {}, 3),
    ("LunarLander-v3", {}, 4),
    ("LunarLander-v3", {}, 1.5),
    ("Blackjack-v1", {}, 2),
    ("CarRacing-v3", {"continuous": False}, 5),
]


@pytest.mark.parametrize(("env_id", "kwargs", "action"), ASSERTED)
def test_an_invalid_action_is_what_gymnasium_raises_in_its_words_first(env_id, kwargs, action):
    import gymnasium

    def refusal(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env = lib.make(env_id, disable_env_checker=True, **kwargs)
            env.reset(seed=0)
            error, _ = outcome(lambda: env.step(action))
            env.close()
        assert error is not None
        return error

    ours, theirs = refusal(palaestra), refusal(gymnasium)
    assert isinstance(ours, InvalidAction)
    assert isinstance(ours, AssertionError if isinstance(theirs, AssertionError) else ValueError)
    assert str(ours).startswith(str(theirs).rstrip()), (str(ours), str(theirs))


def test_an_invalid_batch_for_the_cartpole_vector_env_begins_with_gymnasiums_words():
    import gymnasium

    actions = np.array([0, 2])
    ours, theirs = (
        lib.make_vec("CartPole-v1", 2, vectorization_mode="vector_entry_point")
        for lib in (palaestra, gymnasium)
    )
    for env in (ours, theirs):
        env.reset(seed=0)
    with pytest.raises(AssertionError) as their_error:
        theirs.step(actions)
    with pytest.raises(InvalidAction, match=f"^{re.escape(str(their_error.value))} CartPoleVectorEnv.step"):
        ours.step(actions)
