"""Classic-control envs: spec fields, spaces, actions, options, rendering."""

import copy
import sys
import warnings

import gymnasium
import numpy as np
import pytest

import palaestra
from palaestra.error import DependencyNotInstalled, InvalidAction
from palaestra.utils.env_checker import check_env

IDS = [
    "CartPole-v0",
    "CartPole-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Pendulum-v1",
    "Acrobot-v1",
]
SIZES = {
    "CartPole": (400, 600),
    "MountainCar": (400, 600),
    "MountainCarContinuous": (400, 600),
    "Pendulum": (500, 500),
    "Acrobot": (500, 500),
}


def quiet_make(lib, env_id, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return lib.make(env_id, **kwargs)


@pytest.mark.parametrize("env_id", IDS)
def test_spec_and_spaces_match_gymnasium(env_id):
    ours, ref = quiet_make(palaestra, env_id), quiet_make(gymnasium, env_id)
    for field in (
        "id",
        "max_episode_steps",
        "reward_threshold",
        "nondeterministic",
        "order_enforce",
        "kwargs",
    ):
        assert getattr(ours.spec, field) == getattr(ref.spec, field), field
    assert repr(ours.observation_space) == repr(ref.observation_space)
    assert repr(ours.action_space) == repr(ref.action_space)
    assert ours.metadata == ref.metadata


@pytest.mark.filterwarnings("ignore:.*WARN. A Box observation space m:UserWarning")  # as in Gymnasium
@pytest.mark.filterwarnings("ignore:.*symmetric and normalized space:UserWarning")
@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes(env_id):
    check_env(quiet_make(palaestra, env_id).unwrapped)  # the render checks too


@pytest.mark.parametrize(
    ("env_id", "bad"),
    [
        ("CartPole-v1", 2),
        ("CartPole-v1", 1.0),
        ("CartPole-v1", "left"),
        ("MountainCar-v0", -1),
        ("Acrobot-v1", 3),
        ("Pendulum-v1", np.array([0.1, 0.2])),
        ("Pendulum-v1", np.array([np.nan])),
        ("MountainCarContinuous-v0", np.array(["a"])),
        ("MountainCarContinuous-v0", [[0.1]]),
    ],
)
def test_bad_actions_name_env_and_space(env_id, bad):
    env = quiet_make(palaestra, env_id, disable_env_checker=True)
    env.reset(seed=0)
    with pytest.raises(InvalidAction) as info:
        env.step(bad)
    message = str(info.value)
    assert type(env.unwrapped).__name__ in message
    assert repr(env.action_space) in message
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("env_id", ["CartPole-v1", "MountainCar-v0", "Acrobot-v1"])
def test_numpy_and_bool_actions_are_accepted_like_gymnasium(env_id):
    ours, theirs = quiet_make(palaestra, env_id), quiet_make(gymnasium, env_id)
    assert np.array_equal(ours.reset(seed=0)[0], theirs.reset(seed=0)[0])
    for action in (np.int64(1), np.int32(0), np.array(1), True, np.uint8(1), False):
        mine, reference = ours.step(action), theirs.step(action)
        assert np.array_equal(mine[0], reference[0]) and mine[0].dtype == reference[0].dtype, action
        assert mine[1:4] == reference[1:4], action


def test_bad_reset_options():
    env = palaestra.make("CartPole-v1")
    with pytest.raises(ValueError, match="Lower bound"):
        env.reset(options={"low": 1.0, "high": 0.0})
    with pytest.raises(ValueError, match=r"\(low='x'\) could not be converted"):
        env.reset(options={"low": "x"})


@pytest.mark.filterwarnings("ignore:.*already returned terminated")
@pytest.mark.parametrize("env_id", IDS)
def test_rgb_array_frames_have_reference_size_and_change_with_state(env_id):
    env = quiet_make(palaestra, env_id, render_mode="rgb_array")
    env.reset(seed=0)
    first = env.render()
    assert first.dtype == np.uint8 and first.shape == (*SIZES[env_id.split("-")[0]], 3)
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 2, "frame is blank"
    action = env.action_space.sample()
    for _ in range(15):
        env.step(action)
    later = env.render()
    assert later.shape == first.shape
    assert np.count_nonzero(np.any(first != later, axis=2)) > 50, "picture did not change with the state"
    env.close()


def test_cartpole_frame_shows_cart_position():
    env = palaestra.make("CartPole-v1", render_mode="rgb_array").unwrapped
    env.reset(seed=0)

    def cart_column(x):
        env.state = [x, 0.0, 0.0, 0.0]
        frame = env.render()
        dark = np.where(frame[290:310].mean(axis=2) < 100)[1]  # the cart body's rows
        return dark.mean()

    assert cart_column(-1.5) < cart_column(0.0) < cart_column(1.5)


def test_pendulum_frame_shows_angle():
    env = palaestra.make("Pendulum-v1", render_mode="rgb_array").unwrapped
    env.reset(seed=0)
    env.state = [0.0, 0.0]
    upright = env.render()
    env.state = [np.pi, 0.0]
    hanging = env.render()
    red = lambda f: np.argwhere((f[..., 0] > 150) & (f[..., 1] < 120))[:, 0].mean()  # noqa: E731
    assert red(upright) < 250 < red(hanging)


def test_human_mode_opens_a_window_and_keeps_pumping(monkeypatch):
    env = palaestra.make("CartPole-v1", render_mode="human")
    env.metadata["render_fps"] = 1000
    env.reset(seed=0)
    for _ in range(3):
        env.step(0)
    assert env.render() is None
    import pygame

    assert pygame.display.get_init()
    env.close()
    env.metadata["render_fps"] = 50


def test_render_without_mode_warns():
    env = palaestra.make("Acrobot-v1", disable_env_checker=True)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match='render_mode="rgb_array"'):
        assert env.render() is None


def test_missing_pygame_gives_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygame", None)
    env = palaestra.make("MountainCar-v0", render_mode="rgb_array")
    env.reset(seed=0)
    with pytest.raises(DependencyNotInstalled, match=r'pip install "palaestra\[render\]"'):
        env.render()


def test_deepcopy_keeps_state_and_rng():
    env = palaestra.make("Pendulum-v1")
    env.reset(seed=3)
    clone = copy.deepcopy(env)
    a = np.array([0.5], np.float32)
    assert np.array_equal(env.step(a)[0], clone.step(a)[0])


@pytest.mark.parametrize(
    ("env_id", "kwargs", "attr", "value"),
    [
        ("Pendulum-v1", {"g": 3.0}, "g", 3.0),
        ("MountainCar-v0", {"goal_velocity": 0.1}, "goal_velocity", 0.1),
        ("CartPole-v1", {"sutton_barto_reward": True}, "_sutton_barto_reward", True),
    ],
)
def test_kwargs_take_effect(env_id, kwargs, attr, value):
    assert getattr(palaestra.make(env_id, **kwargs).unwrapped, attr) == value


def test_sutton_barto_reward_values():
    env = palaestra.make("CartPole-v1", sutton_barto_reward=True)
    env.reset(seed=0)
    rewards = []
    while True:
        _, r, terminated, truncated, _ = env.step(1)
        rewards.append(r)
        if terminated or truncated:
            break
    assert set(rewards[:-1]) == {0.0} and rewards[-1] == -1.0
