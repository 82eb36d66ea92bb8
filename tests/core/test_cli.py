"""The palaestra command line, run as a real console script."""

import os
import subprocess
import sys

import pytest

from palaestra.cli import main

pytestmark = pytest.mark.needs_plugins


def run(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "palaestra.cli", *args], capture_output=True, text=True, timeout=120, env=env
    )


def test_list_groups_ids_with_their_distribution():
    result = run("list")
    assert result.returncode == 0
    assert "(default namespace)  [palaestra-classic-control]" in result.stdout
    assert "  CartPole-v1" in result.stdout


def test_info_shows_spec_spaces_and_render_modes():
    result = run("info", "Pendulum-v1")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "id=Pendulum-v1" in out and "max_episode_steps=200" in out
    assert "action_space=Box(-2.0, 2.0, (1,), float32)" in out
    assert "render_modes=['human', 'rgb_array']" in out


def test_run_reports_returns_and_summary(capsys):
    assert main(["run", "CartPole-v1", "--episodes", "2", "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.count("episode ") == 2
    assert "CartPole-v1: 2 episodes, mean return" in out


def test_run_is_reproducible_with_a_seed(capsys):
    main(["run", "Acrobot-v1", "--episodes", "1", "--seed", "4", "--max-steps", "30", "--no-progress"])
    first = capsys.readouterr().out.splitlines()[0]
    main(["run", "Acrobot-v1", "--episodes", "1", "--seed", "4", "--max-steps", "30", "--no-progress"])
    assert capsys.readouterr().out.splitlines()[0] == first == "episode 0: return=-30.000 length=30"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "CartPol-v1"], "Did you mean: `CartPole`?"),
        (["run", "Humanoid-v5"], 'pip install "palaestra[mujoco]"'),
        (["info", "nope/Thing-v0"], "Namespace nope not found"),
        (["run", "CartPole-v1", "--episodes", "0"], "--episodes must be positive"),
        (["run", "CartPole-v1", "--seed", "-3"], "--seed must be a non-negative integer"),
    ],
)
def test_errors_are_one_line_with_nonzero_exit(args, message):
    # Every reference suite is installed here; load only one so the others count as missing.
    result = run(*args, env={**os.environ, "PALAESTRA_PLUGINS": "classic_control"})
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("palaestra: error:")
    assert message in lines[0]
