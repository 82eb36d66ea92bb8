"""SB3's SubprocVecEnv over the bridge's ids: the forms that work in its worker processes.

Each case is a script run as ``__main__`` in a fresh interpreter, as a user runs it, with
SB3's default start method on Linux (``forkserver``).
"""

import os
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.needs_plugins, pytest.mark.extras]
pytest.importorskip(
    "stable_baselines3", reason="Stable-Baselines3 (and torch) install with pip outside uv; see .ci/run"
)

MAKE = 'make_vec_env({env_id!r}, n_envs=2, vec_env_cls=SubprocVecEnv, vec_env_kwargs={{"start_method": "forkserver"}})'

# A training script's shape: {top} at module level, {inner} inside main().
SCRIPT = """
{top}
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import SubprocVecEnv

def main():
    {inner}
    try:
        venv = {make}
    except Exception as e:
        print("failed", type(e).__name__, e)
    else:
        print("obs", venv.reset().shape)
        venv.close()

if __name__ == "__main__":
    main()
"""
# case -> (module-level import, import inside main(), env id)
SCRIPTS = {
    "import at the top": ("import palaestra_gymnasium", "pass", "palaestra/CartPole-v1"),
    "module form": ("", "pass", "palaestra_gymnasium:palaestra/CartPole-v1"),
    # The parent only: the workers never run main()'s import.
    "import in a function": ("", "import palaestra_gymnasium", "palaestra/CartPole-v1"),
}


@pytest.mark.parametrize("case", list(SCRIPTS))
def test_subproc_vec_env_forms(case, tmp_path):
    top, inner, env_id = SCRIPTS[case]
    script = tmp_path / "train.py"
    script.write_text(SCRIPT.format(top=top, inner=inner, make=MAKE.format(env_id=env_id)))
    out = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=os.environ.copy(),
    )
    if case == "import in a function":
        assert "Namespace palaestra not found" in out.stdout + out.stderr, out.stderr[-2000:]
    else:
        assert out.returncode == 0 and "obs (2, 4)" in out.stdout, out.stderr[-2000:]
