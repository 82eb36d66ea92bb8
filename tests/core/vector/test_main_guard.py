"""A script that makes spawned workers from unguarded top-level code gets a named error, not dead workers."""

import ast
import subprocess
import sys
import textwrap

import pytest

from palaestra.vector._main_guard import _is_main_guard

# Each test runs a script in a fresh interpreter; the reference suites make its envs.
pytestmark = [pytest.mark.slow, pytest.mark.needs_plugins]

SCRIPT = """
import functools
import numpy as np
import palaestra
from palaestra.vector import AsyncVectorEnv

def run():
    envs = AsyncVectorEnv([functools.partial(palaestra.make, "CartPole-v1")] * 2, context={context!r}, num_workers=2)
    envs.reset(seed=0)
    print("rewards", envs.step(np.array([1, 0]))[1].tolist())
    envs.close()

{body}
"""


def run_script(tmp_path, context, body):
    path = tmp_path / "train.py"
    path.write_text(SCRIPT.format(context=context, body=textwrap.dedent(body)))
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("context", ["spawn", "forkserver"])
def test_an_unguarded_top_level_call_names_the_script_the_line_and_the_fix(tmp_path, context):
    done = run_script(tmp_path, context, "run()\n")
    assert done.returncode == 1
    assert "palaestra.error.UnguardedMainError" in done.stderr
    assert f"with the {context!r} start method" in done.stderr
    assert f"({tmp_path / 'train.py'}) again in every worker, and line 13 runs at import" in done.stderr
    assert 'if __name__ == "__main__":' in done.stderr and "'context': 'fork'" in done.stderr
    assert "bootstrapping phase" not in done.stderr  # no worker was started


@pytest.mark.parametrize(
    ("context", "body"),
    [
        ("spawn", 'if __name__ == "__main__":\n    run()\n'),
        ("spawn", "if '__main__' == __name__:\n    run()\n"),
        ("fork", "run()\n"),
    ],
    ids=["guarded", "guarded-reversed", "fork-needs-no-guard"],
)
def test_guarded_scripts_and_forked_workers_run(tmp_path, context, body):
    done = run_script(tmp_path, context, body)
    assert done.returncode == 0, done.stderr
    assert "rewards [1.0, 1.0]" in done.stdout


def test_only_a_comparison_of_name_with_main_is_a_guard():
    def first(code):
        return ast.parse(code).body[0]

    assert _is_main_guard(first('if __name__ == "__main__":\n    pass'))
    assert _is_main_guard(first('if "__main__" == __name__:\n    pass'))
    assert not _is_main_guard(first('if __name__ != "__main__":\n    pass'))
    assert not _is_main_guard(first("if True:\n    pass"))
    assert not _is_main_guard(first('while __name__ == "__main__":\n    break'))


def test_the_error_pickles_with_its_fields():
    import pickle

    from palaestra.error import Error, UnguardedMainError

    raised = UnguardedMainError("message", script="/tmp/train.py", line=7)
    copy = pickle.loads(pickle.dumps(raised))
    assert isinstance(copy, UnguardedMainError) and isinstance(copy, Error) and isinstance(copy, RuntimeError)
    assert (str(copy), copy.script, copy.line) == ("message", "/tmp/train.py", 7)


@pytest.mark.parametrize("context", ["spawn", "forkserver", "jax"])
def test_a_script_read_from_stdin_starts_spawned_workers(context):
    """``python - < script.py`` names ``__main__.__file__`` "<stdin>", which workers cannot run again."""
    if context == "jax":
        pytest.importorskip(
            "jax", reason="JAX makes forkserver the default start method; it is not installed"
        )
        script = "import jax\n" + SCRIPT.format(context=None, body="run()")
    else:
        script = SCRIPT.format(context=context, body="run()")
    done = subprocess.run([sys.executable, "-"], input=script, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "rewards [1.0, 1.0]" in done.stdout
