"""The plugin guide's complete example builds, installs into a fresh environment and works."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "plugins.md"

USE = r"""
import numpy as np
import palaestra
from palaestra.vector import AutoresetMode, SyncVectorEnv

env = palaestra.make("grid/Walk-v0")
assert env.spec.max_episode_steps == 20 and env.reset(seed=0)[0] in range(8)
for mode in AutoresetMode:
    batched = palaestra.make_vec("grid/Walk-v0", 4, autoreset_mode=mode)
    assert type(batched.unwrapped).__name__ == "WalkVectorEnv"
    sync = SyncVectorEnv([lambda: palaestra.make("grid/Walk-v0")] * 4, autoreset_mode=mode)
    rng = np.random.default_rng(0)
    a, b = batched.reset(seed=3), sync.reset(seed=3)
    assert np.array_equal(a[0], b[0])
    for t in range(60):
        actions = rng.integers(0, 2, 4)
        a, b = batched.step(actions), sync.step(actions)
        for x, y in zip(a[:4], b[:4]):
            assert x.dtype == y.dtype and np.array_equal(x, y), (mode, t, x, y)
        assert sorted(a[4]) == sorted(b[4]), (a[4], b[4])
        if mode is AutoresetMode.DISABLED and (a[2] | a[3]).any():
            done = a[2] | a[3]
            assert np.array_equal(batched.reset(options={"reset_mask": done})[0], sync.reset(options={"reset_mask": done})[0])
print("ok")
"""


def example_files(start="## A complete example", end="## Hooks"):
    """Each file of an example: the code block after the paragraph that names its path."""
    text = GUIDE.read_text()
    section = text[text.index(start) : text.index(end)]
    files = {}
    for match in re.finditer(r"((?:[^\n]+\n)+)\n```(\w+)\n(.*?)```", section, flags=re.DOTALL):
        paragraph, _, body = match.groups()
        named = re.findall(r"`([\w/]+\.(?:py|toml))`", paragraph)
        if named:
            files[named[0]] = body
    return files


def test_the_example_names_every_file_of_its_tree():
    assert set(example_files()) == {
        "pyproject.toml",
        "src/grid_envs/__init__.py",
        "src/grid_envs/_hooks.py",
        "src/grid_envs/walk.py",
        "src/grid_envs/walk_vector.py",
    }


def install_example(tmp_path, name, files):
    """A fresh virtual environment with the core (from this checkout) and the example installed."""
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv builds the fresh environment (pip install uv)")
    project = tmp_path / name
    for path, body in files.items():
        (project / path).parent.mkdir(parents=True, exist_ok=True)
        (project / path).write_text(body)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PALAESTRA_", "UV_"))}
    venv = tmp_path / "venv"
    subprocess.run(
        [uv, "venv", "--quiet", "--python", sys.executable, str(venv)], check=True, env=env, timeout=300
    )
    python = venv / "bin" / "python"
    install = [uv, "pip", "install", "--quiet", "--python", str(python), str(ROOT / "core"), str(project)]
    result = subprocess.run(install, capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return python, env


def test_the_smallest_plugin_names_its_three_files():
    assert set(example_files("## The smallest plugin", "## A complete example")) == {
        "pyproject.toml",
        "src/coin_envs/__init__.py",
        "src/coin_envs/_hooks.py",
    }


@pytest.mark.slow
def test_the_smallest_plugin_installs_and_passes_the_checker(tmp_path):
    files = example_files("## The smallest plugin", "## A complete example")
    python, env = install_example(tmp_path, "coin-envs", files)
    use = (
        "import palaestra\nenv = palaestra.make('coin/Guess-v0')\nenv.reset(seed=0)\nprint(env.step(1)[2])\n"
    )
    made = subprocess.run([str(python), "-c", use], capture_output=True, text=True, env=env, timeout=120)
    assert made.returncode == 0 and made.stdout.strip() == "True", made.stderr[-2000:]
    checked = subprocess.run(
        [str(python), "-m", "palaestra.cli", "check", "--plugin", "coin"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert checked.returncode == 0 and "coin/Guess-v0: passed check_env" in checked.stdout, checked.stderr[
        -2000:
    ]


@pytest.mark.slow
def test_the_example_installs_from_a_checkout_and_runs(tmp_path):
    python, env = install_example(tmp_path, "grid-envs", example_files())
    run = subprocess.run(
        [str(python), "-c", USE], capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path
    )
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-3000:]
    listed = subprocess.run(
        [str(python), "-m", "palaestra.cli", "list"], capture_output=True, text=True, env=env, timeout=120
    )
    assert "grid  [grid-envs]" in listed.stdout and "  grid/Walk-v0" in listed.stdout
    for command, expected in (
        (["info", "grid/Walk-v0"], "snapshots=yes"),
        (["check", "--plugin", "grid"], "passed"),
    ):
        shown = subprocess.run(
            [str(python), "-m", "palaestra.cli", *command],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert shown.returncode == 0 and expected in shown.stdout, (
            command,
            shown.stdout,
            shown.stderr[-2000:],
        )
