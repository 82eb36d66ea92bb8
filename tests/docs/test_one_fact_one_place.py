"""Facts about the project stated once: the suite's duration in the README, CI's steps in .ci/run.

The README states how long the full suite takes and which nox sessions CI runs after the
quick start; CONTRIBUTING points there instead of repeating them, and the sessions the
README names are exactly those `.ci/run` runs, in its order.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def ci_sessions() -> list[str]:
    """The nox sessions `.ci/run` runs, in order."""
    sessions = []
    for line in (ROOT / ".ci" / "run").read_text().splitlines():
        if line.lstrip().startswith('"${NOX[@]}" -s '):
            sessions += line.split(" -s ", 1)[1].split()
    return sessions


def test_the_readme_names_cis_sessions_as_ci_runs_them():
    readme = (ROOT / "README.md").read_text()
    sentence = re.search(
        r"CI \(`\.ci/run`\) runs these three commands as written, then the(.*?)sessions\.", readme, re.S
    )
    assert sentence, "README: the sentence that lists CI's steps"
    named = re.findall(r"`(\w+)`", sentence.group(1))
    assert named == ci_sessions() == ["lint", "typecheck", "box2d_plain", "extras", "rllib", "docs"]


def test_the_suites_duration_is_stated_once():
    readme = (ROOT / "README.md").read_text()
    assert len(re.findall(r"runs the test suite \(\d+(?:\.\d+)? minutes on an otherwise idle", readme)) == 1
    contributing = (ROOT / "CONTRIBUTING.md").read_text()
    full_suite_rows = [line for line in contributing.splitlines() if line.startswith("| the full suite")]
    assert full_suite_rows and not re.search(r"\d+(?:\.\d+)? ?min", full_suite_rows[0])
    assert "README" in full_suite_rows[0]
