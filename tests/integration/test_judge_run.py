"""benchmarks/judge_run.sh, the prepared 16-core and GPU run: it parses and says how it is used.

It runs for real only on a lent machine (see its header); these checks keep a broken script
from reaching one.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "judge_run.sh"
pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="judge_run.sh is a bash script")


def run(*args, **env):
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, env=env, timeout=60)


def test_the_script_parses():
    assert subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, timeout=60).returncode == 0


def test_without_a_verb_it_names_both():
    result = run(PATH="/usr/bin:/bin")
    assert result.returncode == 2
    assert "usage: bash benchmarks/judge_run.sh fetch|run" in result.stderr


def test_run_refuses_outside_the_device_machine():
    """``run`` writes under $OUT, which only the device machine sets."""
    result = run("run", PATH="/usr/bin:/bin")
    assert result.returncode != 0
    assert "OUT" in result.stderr and "device machine" in result.stderr


def test_the_run_measures_issue_52s_twelve_ids_closest_calls_first():
    text = SCRIPT.read_text()
    ids = text.split('SCALING_IDS="${SCALING_IDS:-', 1)[1].split("}", 1)[0].split(",")
    assert ids[:3] == ["InvertedPendulum-v5", "Hopper-v5", "Humanoid-v5"]
    assert len(ids) == len(set(ids)) == 12
