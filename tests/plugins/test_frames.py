"""Frames identical to Gymnasium 1.4.0's, byte for byte: classic control and Box2D.

Each test runs Gymnasium beside palaestra on the same seeds and actions and compares every
frame: through resets and terminal states, for every constructor option that changes the
picture, in ``rgb_array`` and ``rgb_array_list``, through ``AddRenderObservation``, from
vector envs, and in a ``human`` window. Pendulum's torque arrow is the one residual:
Gymnasium blits an image file there, which we do not copy, so its frames are compared
outside the arrow's box (and whole where there is no arrow).
"""

import warnings

import gymnasium
import numpy as np
import pytest

import palaestra

pytest.importorskip("pygame", reason="frames need pygame (pip install pygame-ce)")

CASES = {
    "cartpole": ("CartPole-v1", {}),
    "cartpole-v0": ("CartPole-v0", {}),
    "mountain-car": ("MountainCar-v0", {}),
    "mountain-car-goal": ("MountainCar-v0", {"goal_velocity": 0.01}),
    "mountain-car-continuous": ("MountainCarContinuous-v0", {}),
    "mountain-car-continuous-goal": ("MountainCarContinuous-v0", {"goal_velocity": 0.02}),
    "pendulum": ("Pendulum-v1", {}),
    "pendulum-g": ("Pendulum-v1", {"g": 9.81}),
    "acrobot": ("Acrobot-v1", {}),
    "lander": ("LunarLander-v3", {}),
    "lander-continuous": ("LunarLander-v3", {"continuous": True}),
    "lander-wind": ("LunarLander-v3", {"enable_wind": True, "wind_power": 20.0, "turbulence_power": 2.0}),
    "lander-gravity": ("LunarLander-v3", {"gravity": -5.0}),
    "walker": ("BipedalWalker-v3", {}),
    "walker-hardcore": ("BipedalWalker-v3", {"hardcore": True}),
}
STEPS = {"CartPole": 120, "Acrobot": 120, "LunarLander": 160, "BipedalWalker": 120}


def make_pair(env_id, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return palaestra.make(env_id, **kwargs), gymnasium.make(env_id, **kwargs)


def arrow_box(env):
    """Pendulum's arrow: a square of side scale * |u| / 2 at the centre (None when there is none)."""
    u = env.unwrapped.last_u
    if u is None:
        return None
    side = 500 / 4.4 * abs(float(u)) / 2
    half = int(side / 2) + 2
    return slice(250 - half, 250 + half + 1)


def assert_same_frame(ours, theirs, where, env=None):
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype == np.uint8, where
    box = arrow_box(env) if env is not None and env.spec.id.startswith("Pendulum") else None
    if box is not None:
        ours, theirs = ours.copy(), theirs.copy()
        ours[box, box] = theirs[box, box] = 0
    if not np.array_equal(ours, theirs):
        share = np.any(ours != theirs, axis=2).mean()
        raise AssertionError(f"{where}: {share:.3%} of the pixels differ")


def actions(env_id, space, rng, count):
    space.seed(int(rng.integers(2**31)))
    for _ in range(count):
        action = space.sample()
        if env_id.startswith("BipedalWalker"):  # lean forward, so the view scrolls
            action = np.clip(action + np.array([0.6, 0.0, 0.6, 0.0], np.float32), -1, 1).astype(np.float32)
        yield action


@pytest.mark.parametrize("case", list(CASES))
def test_every_frame_of_a_seeded_run_is_gymnasiums(case):
    """Reset, steps, terminal states and further resets: every rgb_array frame is Gymnasium's."""
    env_id, kwargs = CASES[case]
    ours, theirs = make_pair(env_id, render_mode="rgb_array", **kwargs)
    steps = STEPS.get(env_id.split("-")[0], 90)
    rng = np.random.default_rng(3)
    ours.reset(seed=11)
    theirs.reset(seed=11)
    resets = 0
    for t, action in enumerate(actions(env_id, theirs.action_space, rng, steps)):
        assert_same_frame(ours.render(), theirs.render(), f"{case} step {t}", ours)
        a, b = ours.step(action), theirs.step(action)
        assert np.array_equal(a[0], b[0]), f"{case} step {t}: observations differ"
        if b[2] or b[3]:
            assert_same_frame(ours.render(), theirs.render(), f"{case} step {t}: the terminal frame", ours)
            ours.reset()
            theirs.reset()
            resets += 1
    if env_id.startswith(("LunarLander", "CartPole", "BipedalWalker")):
        assert resets, "the run meant to cross an episode's end never did"


@pytest.mark.parametrize("case", ["cartpole", "acrobot", "lander", "walker"])
def test_rgb_array_list_holds_gymnasiums_frames(case):
    env_id, kwargs = CASES[case]
    ours, theirs = make_pair(env_id, render_mode="rgb_array_list", **kwargs)
    ours.reset(seed=4)
    theirs.reset(seed=4)
    for action in actions(env_id, theirs.action_space, np.random.default_rng(1), 25):
        ours.step(action)
        if theirs.step(action)[2]:
            break
    mine, reference = ours.render(), theirs.render()
    assert len(mine) == len(reference) > 5
    for t, (a, b) in enumerate(zip(mine, reference, strict=True)):
        assert_same_frame(a, b, f"{case} frame {t}")


@pytest.mark.parametrize("case", ["cartpole", "mountain-car", "lander"])
def test_add_render_observation_sees_gymnasiums_pixels(case):
    env_id, kwargs = CASES[case]
    ours, theirs = make_pair(env_id, render_mode="rgb_array", **kwargs)
    ours = palaestra.wrappers.AddRenderObservation(ours, render_only=True)
    theirs = gymnasium.wrappers.AddRenderObservation(theirs, render_only=True)
    a, _ = ours.reset(seed=2)
    b, _ = theirs.reset(seed=2)
    assert_same_frame(a, b, f"{case} reset")
    for t, action in enumerate(actions(env_id, theirs.action_space, np.random.default_rng(5), 30)):
        a, b = ours.step(action), theirs.step(action)
        assert_same_frame(a[0], b[0], f"{case} step {t}")
        if b[2]:
            break


VECTOR_IDS = ["CartPole-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1", "Acrobot-v1"]


@pytest.mark.parametrize("env_id", [*VECTOR_IDS, "LunarLander-v3"])
def test_vector_render_returns_gymnasiums_frames(env_id):
    """Natively batched envs draw each sub-env as Gymnasium's vector env (or its sub-envs) does."""
    # Gymnasium's CartPole has its own vector env, which draws every start from one generator.
    mode = "vector_entry_point" if env_id.startswith("CartPole") else "sync"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = gymnasium.make_vec(env_id, 3, vectorization_mode=mode, render_mode="rgb_array")
        ours = palaestra.make_vec(env_id, 3, render_mode="rgb_array")
    theirs.reset(seed=8)
    ours.reset(seed=8)
    theirs.action_space.seed(8)
    for t in range(40):
        action = theirs.action_space.sample()
        if env_id.startswith("Pendulum"):
            action = np.zeros_like(action)  # no torque: no arrow to leave out
        for i, (a, b) in enumerate(zip(ours.render(), theirs.render(), strict=True)):
            assert_same_frame(a, b, f"{env_id} step {t} sub-env {i}")
        ours.step(action)
        theirs.step(action)
    ours.close()
    theirs.close()


@pytest.mark.parametrize("hardcore", [False, True])
def test_walker_frames_match_all_along_the_course(hardcore):
    """Views from before the start to past the finish: the far view draws on a surface of its own."""
    ours, theirs = make_pair("BipedalWalker-v3", render_mode="rgb_array", hardcore=hardcore)
    ours.reset(seed=6)
    theirs.reset(seed=6)
    for scroll in np.linspace(-2.0, 95.0, 60):
        ours.unwrapped.scroll = theirs.unwrapped.scroll = float(scroll)
        assert_same_frame(ours.render(), theirs.render(), f"scroll {scroll:.2f}")


def test_lander_exhaust_cools_per_frame_drawn_as_gymnasiums_does():
    """Puffs age when a frame is drawn, not when a step is taken: sparse renders match too."""
    ours, theirs = make_pair("LunarLander-v3", render_mode="rgb_array")
    ours.reset(seed=1)
    theirs.reset(seed=1)
    for t in range(60):
        action = 2 if t % 3 else 1  # the main engine mostly, a side engine now and then
        ours.step(action)
        theirs.step(action)
        if t % 7 == 0:
            assert_same_frame(ours.render(), theirs.render(), f"step {t}")
    assert len(ours.unwrapped.particles) == len(theirs.unwrapped.particles) > 0


def test_pendulum_frames_are_whole_gymnasiums_until_a_torque_is_drawn():
    ours, theirs = make_pair("Pendulum-v1", render_mode="rgb_array")
    ours.reset(seed=0)
    theirs.reset(seed=0)
    assert np.array_equal(ours.render(), theirs.render())
    torque = np.array([1.5], np.float32)
    ours.step(torque)
    theirs.step(torque)
    mine, reference = ours.render(), theirs.render()
    box = arrow_box(ours)
    outside = np.ones(mine.shape[:2], bool)
    outside[box, box] = False
    assert np.array_equal(mine[outside], reference[outside])
    assert (mine[box, box] != 255).any(), "our own arrow is drawn where Gymnasium's image goes"


@pytest.mark.parametrize("case", ["cartpole", "pendulum", "lander", "walker"])
def test_human_window_shows_gymnasiums_picture(case):
    """In ``human`` mode (offscreen SDL driver) our window shows what Gymnasium's shows."""
    import pygame

    env_id, kwargs = CASES[case]
    ours, theirs = make_pair(env_id, render_mode="human", **kwargs)
    ours.reset(seed=3)
    theirs.reset(seed=3)
    windows = []
    for action in actions(env_id, theirs.action_space, np.random.default_rng(2), 6):
        if case == "pendulum":
            action = np.zeros_like(action)  # no arrow
        theirs.step(action)  # each step draws into the one display of the process
        windows = [pygame.surfarray.array3d(pygame.display.get_surface())]
        ours.step(action)
        windows.append(pygame.surfarray.array3d(pygame.display.get_surface()))
        assert_same_frame(windows[0], windows[1], case)
    ours.close()
    theirs.close()
