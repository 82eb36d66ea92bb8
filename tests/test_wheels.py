"""Installing from a checkout with pip: wheels of every distribution, then extras from that folder.

This is the route the README documents besides the uv workspace (nothing is on an index yet):
``nox -s build`` (``uv build --all-packages --wheel``), then
``pip install --find-links dist/wheels "palaestra[classic-control]"``.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import importlib.util, sys
import palaestra
env = palaestra.make("CartPole-v1")
obs, _ = env.reset(seed=0)
total = sum(env.step(i % 2)[1] for i in range(10))  # alternating: upright for all ten
missing = [m for m in ("Box2D", "mujoco", "pygame", "palaestra_box2d", "palaestra_mujoco") if importlib.util.find_spec(m) is None]
print(obs.shape, total, " ".join(missing))
try:
    palaestra.make("CartPole-v1", render_mode="rgb_array").reset(seed=0)[0]
    frame = palaestra.make("CartPole-v1", render_mode="rgb_array")
    frame.reset(seed=0)
    print(frame.render().shape)
except palaestra.error.DependencyNotInstalled as e:
    print("no pygame:", "palaestra[render]" in str(e))
try:
    palaestra.make("LunarLander-v3")
except palaestra.error.MissingSuiteError as e:
    print("box2d hint:", 'pip install "palaestra[box2d]"' in str(e))
"""


def _run(command, env, timeout=600):
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout)
    assert result.returncode == 0, f"{command}\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
    return result.stdout


@pytest.mark.slow
def test_wheels_install_an_extra_with_pip_and_nothing_more(tmp_path):
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv builds the wheels and the fresh environment (pip install uv)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PALAESTRA_", "UV_"))}
    wheels = tmp_path / "wheels"
    _run([uv, "build", "--quiet", "--all-packages", "--wheel", "--out-dir", str(wheels), str(ROOT)], env)
    names = sorted(p.name.split("-")[0] for p in wheels.glob("*.whl"))
    suites = ["atari", "box2d", "classic_control", "envpool", "gymnasium", "jax", "mujoco", "ray", "toy_text"]
    assert names == ["palaestra"] + [f"palaestra_{suite}" for suite in suites]
    venv = tmp_path / "venv"
    _run([uv, "venv", "--quiet", "--seed", "--python", sys.executable, str(venv)], env)
    python = str(venv / "bin" / "python")
    pip = [
        python,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--find-links",
        str(wheels),
    ]
    _run([*pip, "palaestra[classic-control]"], env)
    lines = _run([python, "-c", PROBE], env).splitlines()
    assert lines[0] == "(4,) 10.0 Box2D mujoco pygame palaestra_box2d palaestra_mujoco"
    assert lines[1:] == ["no pygame: True", "box2d hint: True"]
    # pygame comes with the render extra, and then frames are drawn.
    _run([*pip, "palaestra[classic-control,render]"], env)
    lines = _run([python, "-c", PROBE], env).splitlines()
    assert lines[0].endswith("Box2D mujoco palaestra_box2d palaestra_mujoco") and lines[1] == "(400, 600, 3)"
