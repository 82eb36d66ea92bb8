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


def example_files():
    """Each file of the example: the code block after the paragraph that names its path."""
    text = GUIDE.read_text()
    section = text[text.index("## A complete example") : text.index("## Hooks")]
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


@pytest.mark.slow
def test_the_example_installs_from_a_checkout_and_runs(tmp_path):
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv builds the fresh environment (pip install uv)")
    project = tmp_path / "grid-envs"
    for name, body in example_files().items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(body)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PALAESTRA_", "UV_"))}
    venv = tmp_path / "venv"
    subprocess.run(
        [uv, "venv", "--quiet", "--python", sys.executable, str(venv)], check=True, env=env, timeout=300
    )
    python = venv / "bin" / "python"
    install = [uv, "pip", "install", "--quiet", "--python", str(python), str(ROOT / "core"), str(project)]
    result = subprocess.run(install, capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    run = subprocess.run(
        [str(python), "-c", USE], capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path
    )
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-3000:]
    listed = subprocess.run(
        [str(python), "-m", "palaestra.cli", "list"], capture_output=True, text=True, env=env, timeout=120
    )
    assert "grid  [grid-envs]" in listed.stdout and "  grid/Walk-v0" in listed.stdout
