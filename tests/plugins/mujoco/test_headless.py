"""Rendering works headless without configuration; MuJoCo loads only when needed.

Each case runs in a fresh interpreter, because MuJoCo fixes its OpenGL backend when it is
first imported.
"""

import os
import shutil
import subprocess
import sys

import pytest


def run(code, **env_changes):
    env = {k: v for k, v in os.environ.items() if k not in ("MUJOCO_GL", "PYOPENGL_PLATFORM", "DISPLAY")}
    env.update(env_changes)
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=180, env=env
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout.strip().splitlines()


def test_without_a_display_an_offscreen_backend_is_chosen():
    code = """
import os, sys
import palaestra, palaestra_mujoco
print("mujoco" in sys.modules)
env = palaestra.make("Reacher-v5", render_mode="rgb_array", width=64, height=64)
env.reset(seed=0)
frame = env.render()
print(os.environ["MUJOCO_GL"], frame.shape, int(frame.std() > 5))
"""
    assert run(code) == ["False", "egl (64, 64, 3) 1"]


def test_an_explicit_backend_and_a_display_are_left_alone():
    code = """
import os
from palaestra_mujoco._gl import import_mujoco
import_mujoco()
print(os.environ.get("MUJOCO_GL", "unset"))
"""
    assert run(code, DISPLAY=":99") == ["unset"]
    assert run(code, MUJOCO_GL="egl") == ["egl"]


def test_a_broken_backend_still_simulates_and_rendering_says_what_to_install():
    code = """
import warnings
import palaestra
from palaestra.error import DependencyNotInstalled
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    env = palaestra.make("Reacher-v5", render_mode="rgb_array")
print(any("simulating without rendering" in str(w.message) for w in caught))
print(env.reset(seed=0)[0].shape)
try:
    print(env.render().shape)
except DependencyNotInstalled as exc:
    print(str(exc))
"""
    warned, shape, rendered = run(code, MUJOCO_GL="osmesa")
    assert shape == "(10,)"
    if warned == "True":  # no libOSMesa here (this project's CI machine)
        assert "MUJOCO_GL='osmesa' failed to load" in rendered
        assert "apt-get install libosmesa6" in rendered
    else:  # a machine with OSMesa renders through it
        assert rendered == "(480, 480, 3)"


def test_missing_mujoco_names_the_install_command():
    code = """
import sys
sys.modules["mujoco"] = None  # as if the package were not installed
import palaestra
from palaestra.error import DependencyNotInstalled
try:
    palaestra.make("Hopper-v5")
except DependencyNotInstalled as exc:
    print(exc)
"""
    (message,) = run(code)
    assert message == (
        "The MuJoCo environments need the `mujoco` package; install it with: "
        'pip install "palaestra[mujoco]"  (or: pip install mujoco)'
    )


def test_other_suites_do_not_load_mujoco():
    code = """
import sys
import palaestra
palaestra.make("CartPole-v1").reset(seed=0)
print(sorted(m for m in ("mujoco", "palaestra_mujoco.mujoco_env") if m in sys.modules))
"""
    assert run(code) == ["[]"]


HUMAN = """
import time
import numpy as np
import palaestra
env = palaestra.make("Reacher-v5", render_mode="human")
start = time.perf_counter()
env.reset(seed=0)
for _ in range(20):
    env.step(np.zeros(2, np.float32))
elapsed = time.perf_counter() - start
renderer = env.unwrapped.mujoco_renderer
print(renderer._window.is_running(), env.metadata["render_fps"], elapsed >= 20 / 50)
if CLOSE:
    env.close()
    print(renderer._window is None)
"""


@pytest.mark.extras
@pytest.mark.skipif(
    shutil.which("xvfb-run") is None, reason="needs xvfb-run (.ci/run installs Debian's xvfb)"
)
@pytest.mark.parametrize("close", [True, False])
def test_human_mode_opens_the_mujoco_viewer_on_a_display(close):
    """A real viewer window on a virtual X display, paced at render_fps.

    The process exits cleanly whether or not the env was closed.
    """
    env = {k: v for k, v in os.environ.items() if k not in ("MUJOCO_GL", "PYOPENGL_PLATFORM", "DISPLAY")}
    result = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 800x600x24", sys.executable, "-c", f"CLOSE = {close}\n{HUMAN}"],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    expected = ["True 50 True", "True"] if close else ["True 50 True"]
    assert result.stdout.strip().splitlines() == expected
