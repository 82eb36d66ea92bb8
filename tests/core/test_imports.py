"""What importing palaestra and making envs imports, checked in fresh processes."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from tests.fixtures.fake_dists import GOOD_ENV, hooks_source, make_dist


def run_python(code, extra_path=None):
    env = dict(os.environ)
    if extra_path:
        env["PYTHONPATH"] = os.pathsep.join([str(extra_path), env.get("PYTHONPATH", "")])
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_import_palaestra_imports_no_plugin_and_no_heavy_dependency():
    out = run_python("""
        import json, sys
        import palaestra
        mods = sorted(sys.modules)
        print(json.dumps(mods))
    """)
    modules = json.loads(out)
    assert not [m for m in modules if m.startswith("palaestra_")]
    for heavy in ("pygame", "gymnasium", "Box2D", "mujoco", "torch", "jax"):
        assert heavy not in modules


def test_import_has_no_side_effects_on_environment():
    out = run_python("""
        import os, json
        before = dict(os.environ)
        import palaestra
        print(json.dumps(dict(os.environ) == before))
    """)
    assert json.loads(out) is True


def test_make_namespaced_id_imports_only_its_plugin(tmp_path):
    make_dist(
        tmp_path,
        "grid-envs",
        {"grid": "grid_envs._hooks"},
        {
            "grid_envs._hooks": hooks_source(
                'registrar.register("Counter-v0", entry_point="grid_envs.counter:CounterEnv")'
            ),
            "grid_envs.counter": GOOD_ENV,
        },
    )
    make_dist(tmp_path, "spy-envs", {"spy": "spy_envs._hooks"}, {"spy_envs._hooks": hooks_source("")})
    out = run_python(
        """
        import json, sys
        import palaestra
        palaestra.make("grid/Counter-v0").reset(seed=0)
        print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in
              ("grid_envs", "spy_envs", "palaestra_classic_control", "pygame"))))
    """,
        extra_path=tmp_path,
    )
    assert json.loads(out) == ["grid_envs", "grid_envs._hooks", "grid_envs.counter"]


@pytest.mark.needs_plugins
def test_make_cartpole_imports_neither_pygame_nor_other_env_modules():
    out = run_python("""
        import json, sys
        import palaestra
        env = palaestra.make("CartPole-v1")
        env.reset(seed=0); env.step(0)
        print(json.dumps(sorted(m for m in sys.modules if m.startswith(("palaestra_", "pygame")))))
    """)
    modules = json.loads(out)
    assert "pygame" not in modules
    assert "palaestra_classic_control.cartpole" in modules
    assert "palaestra_classic_control.acrobot" not in modules


@pytest.mark.needs_plugins
def test_spawned_process_finds_plugin_envs_by_id(tmp_path):
    script = tmp_path / "spawn_check.py"
    script.write_text(
        textwrap.dedent("""
        import multiprocessing as mp

        def work(q):
            import palaestra
            q.put(palaestra.make("CartPole-v1").reset(seed=5)[0].tolist())

        if __name__ == "__main__":
            for method in ("spawn", "forkserver"):
                ctx = mp.get_context(method)
                q = ctx.Queue()
                p = ctx.Process(target=work, args=(q,))
                p.start()
                print(method, q.get(timeout=60))
                p.join(timeout=60)
    """)
    )
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert [line.split()[0] for line in lines] == ["spawn", "forkserver"]
    assert lines[0].split(" ", 1)[1] == lines[1].split(" ", 1)[1]


def test_importing_every_wrapper_leaves_optional_frameworks_unimported():
    out = run_python("""
        import json, sys
        import palaestra.wrappers, palaestra.wrappers.vector, palaestra.wrappers.array_conversion
        from palaestra.wrappers import NumpyToTorch, JaxToNumpy, AtariPreprocessing, RecordVideo
        from palaestra.utils import play, performance, env_match
        print(json.dumps(sorted(sys.modules)))
    """)
    modules = set(json.loads(out))
    for optional in ("torch", "jax", "cv2", "imageio", "pygame", "matplotlib", "gymnasium"):
        assert optional not in modules, optional


@pytest.mark.needs_plugins
def test_make_loads_no_vector_or_process_machinery():
    """``make`` is what every worker and script pays for: no vector package, no worker machinery.

    ``multiprocessing`` itself is imported (``palaestra.error`` defines VectorTimeoutError, a
    ``multiprocessing.TimeoutError``, at import: about 5 ms), but none of what starts workers.
    """
    code = (
        "import sys, palaestra\n"
        "palaestra.make('CartPole-v1').reset(seed=0)\n"
        "shown = ('multiprocessing.connection', 'multiprocessing.shared_memory', 'palaestra.vector', 'pathlib')\n"
        "print(sorted(m for m in shown if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
