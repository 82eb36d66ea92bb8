"""Gymnasium's MuJoCo rendering classes and state helpers under palaestra names: same frames, same states.

Each frame is rendered headless (EGL or OSMesa) by Gymnasium 1.4.0's class and by ours from
the same model and data, and compared pixel for pixel.
"""

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import palaestra
from palaestra.error import EnvCheckError, UnsupportedMode

mujoco = pytest.importorskip("mujoco")
from gymnasium.envs.mujoco import mujoco_rendering as theirs  # noqa: E402
from gymnasium.envs.mujoco import utils as their_utils  # noqa: E402

from palaestra_mujoco import rendering as ours  # noqa: E402
from palaestra_mujoco import utils as our_utils  # noqa: E402


@pytest.fixture
def walker():
    env = palaestra.make("Walker2d-v5")
    env.reset(seed=3)
    for _ in range(5):
        env.step(env.action_space.sample())
    yield env.unwrapped
    env.close()


def _render_both(env, cls, *args, **kwargs):
    """(theirs, ours) frames of ``cls`` for the env's model and data; ``args`` go to ``render``."""
    theirs_viewer = getattr(theirs, cls)(env.model, env.data, 96, 64, **kwargs)
    ours_viewer = getattr(ours, cls)(env.model, env.data, 96, 64, **kwargs)
    try:
        for viewer in (theirs_viewer, ours_viewer):
            viewer.add_marker(
                pos=np.array([0.0, 0.0, 1.0]), size=np.array([0.1, 0.1, 0.1]), rgba=(1, 0, 0, 1)
            )
            viewer.add_overlay(mujoco.mjtGridPos.mjGRID_TOPLEFT, "hello", "42")
        theirs_viewer.make_context_current()  # Gymnasium's render uses whatever context is current
        expected = theirs_viewer.render(*args)
        got = ours_viewer.render(*args)
    finally:
        theirs_viewer.close()
        ours_viewer.close()
    return expected, got


@pytest.mark.parametrize(
    "args",
    [("rgb_array",), ("depth_array",), ("rgbd_tuple",), ("rgb_array", 0)],
    ids=["rgb", "depth", "rgbd", "fixed-camera"],
)
def test_offscreen_viewer_frames_equal_gymnasiums(walker, args):
    expected, got = _render_both(walker, "OffScreenViewer", *args)
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    for a, b in zip(expected, got, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b)


def test_segmentation_gives_object_type_and_id_per_pixel(walker):
    # Gymnasium 1.4.0's segmentation overflows uint8 under numpy 2 (OverflowError), so the
    # oracle here is MuJoCo's own Renderer, which gives (id, type) per pixel from the same camera.
    viewer = ours.OffScreenViewer(walker.model, walker.data, 96, 64)
    got = viewer.render("rgb_array", segmentation=True)
    oracle = mujoco.Renderer(walker.model, 64, 96)
    oracle.enable_segmentation_rendering()
    oracle.update_scene(walker.data, camera=viewer.cam, scene_option=viewer.vopt)
    expected = oracle.render()[..., ::-1]
    oracle.close()
    viewer.close()
    assert got.dtype == np.int32 and got.shape == (64, 96, 2)
    assert np.array_equal(got, expected)
    assert (got[..., 0] == mujoco.mjtObj.mjOBJ_GEOM).all() and len(
        np.unique(got[..., 1])
    ) > 2  # floor, body parts


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"default_cam_config": {"distance": 4.0, "elevation": -20.0, "lookat": np.array([0.0, 0.0, 1.0])}},
        {"camera_name": "track"},
        {"camera_id": 0, "visual_options": {mujoco.mjtVisFlag.mjVIS_CONTACTPOINT: True}},
    ],
    ids=["default", "camera-config", "camera-name", "camera-id"],
)
def test_mujoco_renderer_frames_equal_gymnasiums(walker, kwargs):
    theirs_renderer = theirs.MujocoRenderer(walker.model, walker.data, width=80, height=60, **kwargs)
    ours_renderer = ours.MujocoRenderer(walker.model, walker.data, width=80, height=60, **kwargs)
    try:
        assert ours_renderer.camera_id == theirs_renderer.camera_id
        for mode in ("rgb_array", "depth_array"):
            theirs_renderer._get_viewer(mode).make_context_current()
            expected = theirs_renderer.render(mode)
            got = ours_renderer.render(mode)
            assert np.array_equal(expected, got), mode
        assert isinstance(ours_renderer.viewer, ours.OffScreenViewer)
    finally:
        theirs_renderer.close()
        ours_renderer.close()


def test_renderer_errors_name_the_problem(walker):
    with pytest.raises(ValueError, match="Both `camera_id` and `camera_name`"):
        ours.MujocoRenderer(walker.model, walker.data, camera_id=0, camera_name="track")
    with pytest.raises(ValueError, match="cannot be `None` when the render_mode is not `human`"):
        ours.MujocoRenderer(walker.model, walker.data).render("rgb_array")
    with pytest.raises(UnsupportedMode, match="expected modes: human, rgb_array"):
        ours.MujocoRenderer(walker.model, walker.data, width=8, height=8).render("ansi")
    with pytest.raises(ValueError, match=r"does not fit the model's offscreen buffer.*offwidth"):
        ours.OffScreenViewer(walker.model, walker.data, 5000, 10)
    viewer = ours.OffScreenViewer(walker.model, walker.data, 16, 16)
    viewer.add_marker(pos=(0, 0, 0), colour=(1, 1, 1, 1))
    with pytest.raises(ValueError, match=r"unknown keywords \['colour'\]"):
        viewer.render("rgb_array")
    viewer.close()


def test_window_viewer_without_a_display_says_what_to_do(walker, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.raises(UnsupportedMode, match='render_mode="rgb_array" instead'):
        ours.WindowViewer(walker.model, walker.data)


WINDOW = """
import numpy as np
import mujoco
import palaestra
from palaestra_mujoco.rendering import MujocoRenderer, WindowViewer
env = palaestra.make("Hopper-v5").unwrapped
env.reset(seed=0)
renderer = MujocoRenderer(env.model, env.data, default_cam_config={"distance": 3.0})
for _ in range(5):
    env.step(np.zeros(3, np.float32))
    renderer._get_viewer("human").add_marker(pos=np.zeros(3), size=np.full(3, 0.05))
    renderer._get_viewer("human").add_overlay(mujoco.mjtGridPos.mjGRID_TOPRIGHT, "t", "1")
    renderer.render("human")
viewer = renderer.viewer
print(isinstance(viewer, WindowViewer), viewer.is_running(), viewer.cam.distance)
renderer.close()
print(viewer.is_running())
"""


@pytest.mark.extras
@pytest.mark.skipif(
    shutil.which("xvfb-run") is None, reason="needs xvfb-run (.ci/run installs Debian's xvfb)"
)
def test_window_viewer_shows_markers_and_overlays_on_a_display():
    env = {k: v for k, v in os.environ.items() if k not in ("MUJOCO_GL", "PYOPENGL_PLATFORM", "DISPLAY")}
    result = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 800x600x24", sys.executable, "-c", WINDOW],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == ["True", "True", "3.0", "False"]


def test_state_helpers_equal_gymnasiums(walker):
    for spec in (mujoco.mjtState.mjSTATE_FULLPHYSICS, mujoco.mjtState.mjSTATE_INTEGRATION):
        state = our_utils.get_state(walker, spec)
        assert np.array_equal(state, their_utils.get_state(walker, spec))
    saved = our_utils.get_state(walker)
    walker.step(np.ones(6, np.float32))
    assert not np.array_equal(our_utils.get_state(walker), saved)
    assert our_utils.set_state(walker, saved) is saved
    assert np.array_equal(our_utils.get_state(walker), saved)
    with pytest.raises(ValueError, match=r"the state has 3 entries.*get_state\(env, state_type\)"):
        our_utils.set_state(walker, np.zeros(3))


@pytest.mark.parametrize("env_id", ["Ant-v5", "Hopper-v5", "Reacher-v5"])
def test_reset_state_check_passes_for_the_suite(env_id):
    env = palaestra.make(env_id)
    our_utils.check_mujoco_reset_state(env)
    env.close()


class _ForgetfulReset(palaestra.Env):
    """Wraps a MuJoCo env whose reset leaves the velocities of the last episode."""

    def __init__(self):
        self.inner = palaestra.make("InvertedPendulum-v5").unwrapped
        self.action_space, self.observation_space = self.inner.action_space, self.inner.observation_space
        self.model, self.data = self.inner.model, self.inner.data

    def reset(self, *, seed=None, options=None):
        qvel = self.data.qvel.copy()
        obs, info = self.inner.reset(seed=seed)
        self.data.qvel[:] = qvel
        return obs, info

    def step(self, action):
        return self.inner.step(action)


def test_reset_state_check_names_a_nondeterministic_reset():
    with pytest.raises(EnvCheckError, match=r"reset is not deterministic.*reset every part") as caught:
        our_utils.check_mujoco_reset_state(_ForgetfulReset())
    assert isinstance(caught.value, AssertionError)


PENDULUM_XML = """
<mujoco model="my_pendulum">
  <option timestep="0.01"/>
  <worldbody>
    <body name="pole" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0" damping="0.05"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.6" size="0.04" mass="1"/>
    </body>
  </worldbody>
  <actuator><motor joint="hinge" ctrlrange="-2 2" ctrllimited="true"/></actuator>
</mujoco>
"""


def _my_pendulum_class():
    from palaestra import spaces
    from palaestra_mujoco import MujocoEnv

    class MyPendulum(MujocoEnv):
        metadata = {"render_modes": ["rgb_array"]}

        def __init__(self, model_path, **kwargs):
            obs_space = spaces.Box(-np.inf, np.inf, (2,), np.float64)
            super().__init__(model_path, 2, observation_space=obs_space, **kwargs)

        def step(self, action):
            self.do_simulation(action, self.frame_skip)
            obs = np.concatenate([self.data.qpos, self.data.qvel])
            return obs, -float(obs[0] ** 2), False, False, {}

        def reset_model(self):
            self.set_state(self.init_qpos + 0.1, self.init_qvel)
            return np.concatenate([self.data.qpos, self.data.qvel])

    return MyPendulum


@pytest.mark.parametrize("source", ["file", "text"])
def test_a_mujoco_env_from_the_users_own_model(tmp_path, source):
    path = tmp_path / "my_pendulum.xml"
    path.write_text(PENDULUM_XML)
    env = _my_pendulum_class()(
        str(path) if source == "file" else PENDULUM_XML, render_mode="rgb_array", width=64, height=48
    )
    obs, _ = env.reset(seed=0)
    assert obs.tolist() == [0.1, 0.0]
    obs, reward, *_ = env.step(np.array([1.0], np.float32))
    assert obs[1] != 0.0 and reward == -(obs[0] ** 2)
    assert env.dt == pytest.approx(0.02) and env.render().shape == (48, 64, 3)
    assert env.fullpath == (str(path) if source == "file" else None)
    env.close()
