"""MuJoCo frames identical to Gymnasium 1.4.0's, byte for byte, from our own model files.

The models carry Gymnasium's visual facts (colours, materials, textures, lights, sky) and
the envs its camera placement (a free camera, set from ``default_camera_config``, which
does not follow ``trackbodyid``), so every ``rgb_array`` frame of a seeded run is
Gymnasium's. Both render headless in this one process: Gymnasium's offscreen viewer draws
into whichever OpenGL context is current, so its own is made current before each of its
frames (ours switches to its context itself).
"""

import warnings

import numpy as np
import pytest

import palaestra

mujoco = pytest.importorskip("mujoco")
gymnasium = pytest.importorskip("gymnasium")

V5 = [
    "Ant-v5",
    "HalfCheetah-v5",
    "Hopper-v5",
    "Humanoid-v5",
    "HumanoidStandup-v5",
    "InvertedDoublePendulum-v5",
    "InvertedPendulum-v5",
    "Pusher-v5",
    "Reacher-v5",
    "Swimmer-v5",
    "Walker2d-v5",
]
# Pusher-v4 is left out: Gymnasium 1.4.0 refuses to make it with MuJoCo 3.
V4 = [env_id.replace("-v5", "-v4") for env_id in V5 if env_id != "Pusher-v5"]


def make_pair(env_id, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return palaestra.make(env_id, **kwargs), gymnasium.make(env_id, **kwargs)


def their_frame(env):
    """Gymnasium's frame, drawn in its own OpenGL context."""
    renderer = env.unwrapped.mujoco_renderer
    viewer = renderer._viewers.get(env.unwrapped.render_mode)
    if viewer is not None:
        viewer.make_context_current()
    return env.render()


def assert_same_frame(ours, theirs, where):
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype, where
    if not np.array_equal(ours, theirs):
        share = np.any(np.atleast_3d(ours != theirs), axis=2).mean()
        raise AssertionError(f"{where}: {share:.3%} of the pixels differ")


@pytest.mark.parametrize("env_id", V5 + V4)
def test_every_frame_of_a_seeded_run_is_gymnasiums(env_id):
    ours, theirs = make_pair(env_id, render_mode="rgb_array")
    ours.reset(seed=5)
    theirs.reset(seed=5)
    theirs.action_space.seed(5)
    for t in range(5 if env_id.endswith("v5") else 3):
        assert_same_frame(ours.render(), their_frame(theirs), f"{env_id} step {t}")
        action = theirs.action_space.sample()
        ours.step(action)
        theirs.step(action)
    ours.close()
    theirs.close()


@pytest.mark.parametrize("tracking", [False, True])
def test_the_camera_follows_only_when_asked_to(tracking):
    """A ``trackbodyid`` alone leaves the camera put, as in Gymnasium; a tracking type follows.

    With ``"type": mjCAMERA_TRACKING`` the robot stays in the picture.
    """
    config = {"trackbodyid": 1, "distance": 4.0}
    if tracking:
        config["type"] = mujoco.mjtCamera.mjCAMERA_TRACKING
    env = palaestra.make(
        "HalfCheetah-v5", render_mode="rgb_array", width=64, height=48, default_camera_config=config
    )
    env.reset(seed=0)
    env.render()
    camera = env.unwrapped.mujoco_renderer._camera
    start = camera.lookat.copy()
    env.unwrapped.data.qpos[0] += 5.0  # five metres on
    mujoco.mj_forward(env.unwrapped.model, env.unwrapped.data)
    env.render()
    moved = camera.lookat[0] - start[0]
    assert moved == pytest.approx(5.0, abs=0.1) if tracking else moved == 0.0
    env.close()


def test_vector_render_returns_gymnasiums_frames():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = palaestra.make_vec("InvertedPendulum-v5", 2, render_mode="rgb_array")
        theirs = [gymnasium.make("InvertedPendulum-v5", render_mode="rgb_array") for _ in range(2)]
    ours.reset(seed=[3, 4])
    for env, seed in zip(theirs, (3, 4), strict=True):
        env.reset(seed=seed)
    for i, (mine, env) in enumerate(zip(ours.render(), theirs, strict=True)):
        assert_same_frame(mine, their_frame(env), f"sub-env {i}")
    ours.close()


def test_add_render_observation_sees_gymnasiums_pixels():
    """Both wrappers' frames, from a camera that names its ``lookat``.

    Both wrappers draw a frame after an unseeded reset when they are built, which would place
    the free camera at a random middle; a camera config naming ``lookat`` keeps it put.
    """
    camera = {"lookat": np.array([0.0, 0.0, 0.0]), "distance": 1.0, "elevation": -60.0}
    ours, theirs = make_pair(
        "Reacher-v5", render_mode="rgb_array", width=120, height=90, default_camera_config=camera
    )
    theirs = gymnasium.wrappers.AddRenderObservation(theirs, render_only=True)
    ours = palaestra.wrappers.AddRenderObservation(ours, render_only=True)
    viewer = theirs.unwrapped.mujoco_renderer._viewers["rgb_array"]
    a, _ = ours.reset(seed=2)
    viewer.make_context_current()
    b, _ = theirs.reset(seed=2)
    assert_same_frame(a, b, "reset")
    for t in range(5):
        action = theirs.action_space.sample()
        a = ours.step(action)[0]
        viewer.make_context_current()
        b = theirs.step(action)[0]
        assert_same_frame(a, b, f"step {t}")


def test_rgb_array_list_holds_gymnasiums_frames():
    ours, theirs = make_pair("Hopper-v5", render_mode="rgb_array_list", width=96, height=64)
    ours.reset(seed=7)
    theirs.reset(seed=7)
    theirs.action_space.seed(7)
    for _ in range(4):
        action = theirs.action_space.sample()
        ours.step(action)
        # rgb_array_list draws a frame inside each step: Gymnasium's, in its own context.
        viewer = theirs.unwrapped.mujoco_renderer._viewers.get("rgb_array")
        if viewer is not None:
            viewer.make_context_current()
        theirs.step(action)
    mine, reference = ours.render(), theirs.render()
    assert len(mine) == len(reference) == 5
    for t, (a, b) in enumerate(zip(mine, reference, strict=True)):
        assert_same_frame(a, b, f"frame {t}")
