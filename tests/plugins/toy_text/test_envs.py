"""Toy-text envs against Gymnasium 1.4.0: same numbers, types, specs; errors; rendering."""

import sys
import warnings

import gymnasium
import numpy as np
import pytest

import palaestra
from palaestra.error import DependencyNotInstalled, DeprecatedEnv, InvalidAction
from palaestra.utils.env_checker import check_env

CASES = [
    ("FrozenLake-v1", {}),
    ("FrozenLake-v1", {"is_slippery": False}),
    ("FrozenLake-v1", {"success_rate": 0.6, "reward_schedule": (10, -5, -1)}),
    ("FrozenLake-v1", {"desc": ["SFF", "FHF", "FFG"]}),
    ("FrozenLake8x8-v1", {}),
    ("CliffWalking-v1", {}),
    ("CliffWalkingSlippery-v1", {}),
    ("Taxi-v4", {}),
    ("Taxi-v4", {"is_rainy": True}),
    ("Taxi-v4", {"fickle_passenger": True, "fickle_probability": 0.8}),
    ("Taxi-v4", {"is_rainy": True, "fickle_passenger": True, "rainy_probability": 0.6}),
    ("Blackjack-v1", {}),
    ("Blackjack-v1", {"sab": False, "natural": True}),
    ("Blackjack-v1", {"sab": False, "natural": False}),
]
IDS = [
    "Blackjack-v1",
    "Taxi-v4",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
]


def same(a, b, where):
    if isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and np.array_equal(a, b), where
    elif isinstance(a, tuple) and any(isinstance(x, (dict, np.ndarray)) for x in a):
        assert isinstance(b, tuple) and len(a) == len(b), where
        for x, y in zip(a, b, strict=True):
            same(x, y, where)
    else:
        assert type(a) is type(b) and a == b, f"{where}: {a!r} ({type(a)}) != {b!r} ({type(b)})"


@pytest.mark.parametrize(("env_id", "kwargs"), CASES, ids=[f"{c[0]}{c[1]}" for c in CASES])
def test_rollouts_match_gymnasium_including_types(env_id, kwargs):
    ours, ref = palaestra.make(env_id, **kwargs), gymnasium.make(env_id, **kwargs)
    rng = np.random.default_rng(11)
    n = int(ref.action_space.n)
    for seed in range(25):
        same(ours.reset(seed=seed), ref.reset(seed=seed), f"reset {seed}")
        for t in range(250):
            action = int(rng.integers(0, n))
            a, b = ours.step(action), ref.step(action)
            where = f"{env_id} seed={seed} t={t}"
            for k in range(5):
                same(a[k], b[k], f"{where}[{k}]")
            if a[2] or a[3]:
                break


@pytest.mark.parametrize("env_id", IDS)
def test_spec_spaces_and_tables_match_gymnasium(env_id):
    ours, ref = palaestra.make(env_id), gymnasium.make(env_id)
    for field in ("id", "max_episode_steps", "reward_threshold", "kwargs", "order_enforce"):
        assert getattr(ours.spec, field) == getattr(ref.spec, field), field
    assert repr(ours.observation_space) == repr(ref.observation_space)
    assert repr(ours.action_space) == repr(ref.action_space)
    assert ours.metadata == ref.metadata
    if hasattr(ref.unwrapped, "P"):
        assert ours.unwrapped.P == ref.unwrapped.P
        assert np.array_equal(ours.unwrapped.initial_state_distrib, ref.unwrapped.initial_state_distrib)


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes(env_id):
    check_env(palaestra.make(env_id).unwrapped)


def test_taxi_v3_is_deprecated_in_favour_of_v4():
    with pytest.raises(DeprecatedEnv, match="Please use `Taxi-v4` instead"), pytest.warns(DeprecationWarning):
        palaestra.make("Taxi-v3")
    with pytest.raises(gymnasium.error.DeprecatedEnv), pytest.warns(DeprecationWarning):
        gymnasium.make("Taxi-v3")


@pytest.mark.parametrize(("size", "p", "seed"), [(4, 0.8, 0), (8, 0.8, 3), (6, 0.5, 12), (5, 1.0, 1)])
def test_generate_random_map_matches_gymnasium(size, p, seed):
    from gymnasium.envs.toy_text.frozen_lake import generate_random_map as reference

    from palaestra_toy_text import generate_random_map

    assert generate_random_map(size, p, seed) == reference(size, p, seed)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"map_name": "16x16"}, "Unknown FrozenLake map_name '16x16'"),
        ({"desc": ["SFF", "FH"]}, "equally long rows"),
        ({"desc": ["SFX", "FHG"]}, r"found \['X'\]"),
        ({"desc": ["FFF", "FHG"]}, "needs a start cell"),
        ({"success_rate": 1.5}, "success_rate must be within"),
    ],
)
def test_invalid_frozen_lake_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        palaestra.make("FrozenLake-v1", **kwargs)


def test_generate_random_map_rejects_bad_arguments():
    from palaestra_toy_text import generate_random_map

    with pytest.raises(ValueError, match="p > 0"):
        generate_random_map(4, 0.0)
    with pytest.raises(ValueError, match="size >= 2"):
        generate_random_map(1)


@pytest.mark.parametrize(
    ("env_id", "bad"),
    [
        ("FrozenLake-v1", 4),
        ("FrozenLake-v1", 1.5),
        ("FrozenLake-v1", np.float32(4.0)),
        ("Taxi-v4", np.array(1.0)),
        ("Taxi-v4", 6),
        ("Taxi-v4", -1),
        ("Blackjack-v1", 2),
        ("CliffWalking-v1", "up"),
    ],
)
def test_bad_actions_name_env_and_space(env_id, bad):
    env = palaestra.make(env_id, disable_env_checker=True)
    env.reset(seed=0)
    with pytest.raises(InvalidAction) as info:
        env.step(bad)
    assert type(env.unwrapped).__name__ in str(info.value) and repr(env.action_space) in str(info.value)


@pytest.mark.parametrize("env_id", ["FrozenLake-v1", "CliffWalking-v1", "Taxi-v4"])
def test_exactly_integral_float_actions_act_as_in_gymnasium(env_id):
    """Gymnasium looks actions up in a dict, so 2.0 is 2; Tianshou's random policy sends such floats."""
    ours, ref = palaestra.make(env_id), gymnasium.make(env_id)
    assert ours.reset(seed=5)[0] == ref.reset(seed=5)[0]
    for action in (np.float32(1.0), 2.0, np.float64(0.0), np.float32(3.0), 1.0, 2.0):
        mine, theirs = ours.step(action), ref.step(action)
        assert mine[:4] == theirs[:4]
        assert mine[4].keys() == theirs[4].keys()
        assert all(np.array_equal(mine[4][k], theirs[4][k]) for k in theirs[4])
    batched = palaestra.make_vec(env_id, 2)
    batched.reset(seed=5)
    obs = batched.step(np.array([1.0, 2.0], dtype=np.float32))[0]
    assert obs.dtype == np.int64 and obs.shape == (2,)
    with pytest.raises(InvalidAction):
        batched.step(np.array([1.0, 2.5]))


def test_ansi_rendering_matches_gymnasium():
    for env_id in ("FrozenLake-v1", "CliffWalking-v1", "Taxi-v4"):
        ours = palaestra.make(env_id, render_mode="ansi")
        ref = gymnasium.make(env_id, render_mode="ansi")
        ours.reset(seed=4)
        ref.reset(seed=4)
        assert ours.render() == ref.render()
        for action in (1, 2, 2, 0):
            ours.step(action)
            ref.step(action)
            assert ours.render() == ref.render(), env_id


def test_frozen_lake_ansi_marks_the_agent_and_last_action():
    env = palaestra.make("FrozenLake-v1", render_mode="ansi", is_slippery=False)
    env.reset(seed=0)
    text = env.render()
    assert text.startswith("\n\x1b[41mS\x1b[0mFFF\nFHFH")
    env.step(2)
    assert env.render().startswith("  (Right)\nS\x1b[41mF\x1b[0mFF")


SIZES = {
    "Blackjack-v1": (376, 384),
    "Taxi-v4": (456, 536),
    "CliffWalking-v1": (256, 768),
    "FrozenLake-v1": (256, 256),
    "FrozenLake8x8-v1": (512, 512),
}


@pytest.mark.parametrize("env_id", sorted(SIZES))
def test_rgb_frames_have_reference_size_and_follow_the_state(env_id):
    env = palaestra.make(env_id, render_mode="rgb_array")
    env.reset(seed=5)
    first = env.render()
    assert first.shape == (*SIZES[env_id], 3) and first.dtype == np.uint8
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 3
    changed = False
    for action in (1, 2, 1, 2, 0, 1):
        _, _, terminated, truncated, _ = env.step(action % int(env.action_space.n))
        frame = env.render()
        changed |= bool(np.any(frame != first))
        if terminated or truncated:
            break
    assert changed or env_id == "Blackjack-v1"


def test_blackjack_frame_shows_the_player_sum():
    env = palaestra.make("Blackjack-v1", render_mode="rgb_array").unwrapped
    env.reset(seed=0)
    env.player = [10, 10]
    twenty = env.render()
    env.player = [2, 3]
    five = env.render()
    assert np.any(twenty[250:330] != five[250:330])


def test_missing_pygame_gives_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygame", None)
    env = palaestra.make("Taxi-v4", render_mode="rgb_array")
    env.reset(seed=0)
    with pytest.raises(DependencyNotInstalled, match=r"palaestra\[render\]"):
        env.render()


def test_reset_infos_have_reference_types():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, info = palaestra.make("FrozenLake-v1").reset(seed=0)
    assert info == {"prob": 1} and type(info["prob"]) is int
    _, info = palaestra.make("Taxi-v4").reset(seed=0)
    assert type(info["prob"]) is float and info["action_mask"].dtype == np.int8


@pytest.mark.parametrize("env_id", ["Taxi-v4", "FrozenLake-v1", "Blackjack-v1", "CliffWalking-v1"])
def test_human_mode_draws_into_a_window(env_id):
    import pygame

    env = palaestra.make(env_id, render_mode="human")
    env.unwrapped.metadata = {**env.unwrapped.metadata, "render_fps": 1000}
    env.reset(seed=0)
    env.step(0)
    assert env.render() is None
    assert pygame.display.get_init() and pygame.display.get_surface() is not None
    env.close()
