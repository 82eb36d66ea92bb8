"""Each registry seen from the other: ids, versions, errors, and what gets imported when."""

import json
import os
import subprocess
import sys
import warnings

import gymnasium
import pytest

import palaestra
from palaestra.error import (
    DependencyNotInstalled,
    DeprecatedEnv,
    Error,
    NameNotFound,
    NamespaceNotFound,
    VersionNotFound,
)
from palaestra.utils.env_checker import check_env
from palaestra_gymnasium import _registries as registries
from palaestra_gymnasium import from_gymnasium

pytestmark = pytest.mark.needs_plugins


def run_python(code, env=None):
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=180,
        env=env or os.environ.copy(),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_an_unknown_gymnasium_name_suggests_the_closest():
    with pytest.raises(
        NameNotFound, match=r"Gymnasium has no environment 'CartPol'\. Did you mean `gymnasium/CartPole`\?"
    ):
        palaestra.make("gymnasium/CartPol-v1")


def test_an_unknown_gymnasium_namespace_says_how_packages_register():
    with pytest.raises(
        NamespaceNotFound,
        match=r"Gymnasium has no namespace 'NoSuchSuite'.*palaestra\.make\('<module>:gymnasium/NoSuchSuite/Task-v0'\)",
    ):
        palaestra.make("gymnasium/NoSuchSuite/Task-v0")


def test_a_missing_provider_package_is_named_with_its_install_command(monkeypatch):
    monkeypatch.setitem(registries.PROVIDERS, "FakeSuite", ("no_such_module_here", "fake-suite-dist"))
    with pytest.raises(
        DependencyNotInstalled,
        match=r"by the package fake-suite-dist, which is not installed\. Install it with: pip install fake-suite-dist",
    ):
        palaestra.make("gymnasium/FakeSuite/Task-v0")


@pytest.mark.gymnasium_1_4  # Taxi-v4 retires Taxi-v3 there
def test_versions_resolve_with_gymnasiums_rules():
    with pytest.warns(UserWarning, match="Using the latest versioned environment `gymnasium/CartPole-v1`"):
        env = palaestra.make("gymnasium/CartPole")
    assert env.spec.id == "gymnasium/CartPole-v1"
    with pytest.raises(VersionNotFound, match="`v9`"):
        palaestra.make("gymnasium/CartPole-v9")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert palaestra.make("gymnasium/CartPole-v0").spec.max_episode_steps == 200
    with (
        pytest.warns(DeprecationWarning, match="out of date"),
        pytest.raises(DeprecatedEnv, match="Please use `gymnasium/Taxi-v4`"),
    ):
        palaestra.make("gymnasium/Taxi-v3")  # Gymnasium warns and raises the same way for Taxi-v3


def test_palaestras_own_ids_seen_through_gymnasium_are_refused_with_the_way_out():
    with pytest.raises(
        Error, match="palaestra's own env seen through Gymnasium; make it by its palaestra id"
    ):
        palaestra.make("gymnasium/palaestra/CartPole-v1")


def test_a_gymnasium_spec_becomes_a_palaestra_spec_with_its_fields():
    spec = palaestra.spec("gymnasium/FrozenLake8x8-v1")
    assert (spec.max_episode_steps, spec.reward_threshold, spec.kwargs) == (200, 0.85, {"map_name": "8x8"})
    assert palaestra.registry.owner("gymnasium/FrozenLake8x8-v1") == "palaestra-gymnasium"


def test_palaestra_cli_runs_gymnasium_ids():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "palaestra.cli",
            "run",
            "gymnasium/CartPole-v1",
            "--episodes",
            "2",
            "--seed",
            "0",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    reference = subprocess.run(
        [sys.executable, "-m", "palaestra.cli", "run", "CartPole-v1", "--episodes", "2", "--seed", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )

    def returns(stdout):  # the episode lines without their speed
        return [line.split(" steps,")[0] for line in stdout.replace("gymnasium/", "").splitlines()]

    assert returns(result.stdout) == returns(reference.stdout)
    assert "episode 1" in result.stdout


def test_a_palaestra_env_declared_with_gymnasium_spaces():
    class Mixed(palaestra.Env):
        """A palaestra env whose author wrote its spaces with gymnasium.spaces."""

        def __init__(self):
            self.observation_space = from_gymnasium(
                gymnasium.spaces.Dict(
                    {"pos": gymnasium.spaces.Box(0, 1, (2,)), "tag": gymnasium.spaces.Text(3)}
                )
            )
            self.action_space = from_gymnasium(gymnasium.spaces.MultiDiscrete([2, 3]))

        def observe(self):
            return {"pos": self.np_random.random(2).astype("float32"), "tag": "ab"}

        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            return self.observe(), {}

        def step(self, action):
            return self.observe(), 0.0, False, False, {}

    env = Mixed()
    assert isinstance(env.observation_space, palaestra.spaces.Dict)
    check_env(env, skip_render_check=True)


def test_make_of_a_plain_id_imports_neither_gymnasium_nor_the_bridge():
    out = run_python(
        "import json, sys, palaestra\n"
        "palaestra.make('CartPole-v1').reset(seed=0)\n"
        "print(json.dumps(sorted(m for m in ('gymnasium', 'palaestra_gymnasium') if m in sys.modules)))"
    )
    assert json.loads(out) == []


def test_a_gymnasium_id_loads_the_bridge_and_a_known_provider_on_demand():
    pytest.importorskip("ale_py", reason="the Atari ids come from ale-py (in the test dependency group)")
    out = run_python(
        "import sys, palaestra\n"
        "env = palaestra.make('gymnasium/ALE/Pong-v5')\n"  # ale_py is imported by the bridge
        "print(env.reset(seed=0)[0].shape, 'ale_py' in sys.modules, 'palaestra_gymnasium' in sys.modules)"
    )
    assert out.split() == ["(210,", "160,", "3)", "True", "True"]


SUITE_HOOKS = "sorted(m for m in sys.modules if m.startswith('palaestra_') and m.endswith('_hooks'))"


@pytest.mark.gymnasium_1_4  # counts every suite's ids
def test_importing_the_bridge_registers_every_id_with_gymnasium_and_imports_no_suite():
    out = run_python(
        "import json, sys, gymnasium, palaestra_gymnasium\n"
        f"before = {SUITE_HOOKS}\n"
        "ids = sorted(i for i in gymnasium.registry if i.startswith('palaestra/'))\n"
        "gymnasium.pprint_registry(disable_print=True)\n"
        "env = gymnasium.make('palaestra/CartPole-v1')\n"
        f"after = {SUITE_HOOKS}\n"
        "print(json.dumps([before, len(ids), 'palaestra/HalfCheetah-v5' in ids, after, env.spec.max_episode_steps]))"
    )
    before, count, has_mujoco, after, steps = json.loads(out)
    assert before == []
    assert count >= 61 and has_mujoco
    assert after == ["palaestra_classic_control._hooks"]
    assert steps == 500


def test_a_gymnasium_id_imports_no_palaestra_suite():
    out = run_python(
        "import json, sys, palaestra\n"
        "palaestra.make('gymnasium/CartPole-v1').reset(seed=0)\n"
        f"print(json.dumps({SUITE_HOOKS}))"
    )
    assert json.loads(out) == ["palaestra_gymnasium_hooks"]


def test_deferred_gymnasium_specs_equal_converted_ones_and_copy_and_pickle():
    import copy
    import pickle

    from palaestra_gymnasium._specs import DeferredGymnasiumSpec, to_gymnasium_spec

    deferred = DeferredGymnasiumSpec("Pendulum-v1")
    assert (deferred.namespace, deferred.name, deferred.version) == ("palaestra", "Pendulum", 1)
    converted = to_gymnasium_spec(palaestra.spec("Pendulum-v1"))
    assert deferred == converted and copy.deepcopy(deferred) == converted
    assert pickle.loads(pickle.dumps(DeferredGymnasiumSpec("Acrobot-v1"))).max_episode_steps == 500
    import dataclasses

    assert dataclasses.replace(deferred, max_episode_steps=3).max_episode_steps == 3
    assert deferred.max_episode_steps == 200


def test_gymnasium_module_id_form_makes_palaestra_envs_in_a_fresh_process():
    out = run_python(
        "import gymnasium\n"
        "env = gymnasium.make('palaestra_gymnasium:palaestra/MountainCar-v0')\n"
        "print(type(env.unwrapped).__name__, env.spec.max_episode_steps)"
    )
    assert out.split() == ["ToGymnasiumEnv", "200"]


def test_without_gymnasium_the_bridge_names_the_extra():
    out = run_python(
        "import sys\n"
        "sys.modules['gymnasium'] = None  # as if not installed\n"
        "import palaestra\n"
        "try:\n"
        "    palaestra.make('gymnasium/CartPole-v1')\n"
        "except palaestra.error.DependencyNotInstalled as e:\n"
        "    print(e)\n"
    )
    assert "Gymnasium is not installed" in out and 'pip install "palaestra[gymnasium]"' in out


def test_without_the_bridge_the_id_names_the_distribution(tmp_path):
    nothing_installed = palaestra.PluginHost(search_path=[str(tmp_path)])
    with palaestra.use_host(nothing_installed), pytest.raises(NamespaceNotFound) as info:
        palaestra.make("gymnasium/ALE/Pong-v5")
    assert "palaestra-gymnasium" in str(info.value) and 'pip install "palaestra[gymnasium]"' in str(
        info.value
    )


def test_an_id_only_gymnasium_registers_is_suggested_under_the_bridge():
    gymnasium.register("OnlyInGymnasium-v3", entry_point="gymnasium.envs.classic_control:CartPoleEnv")
    try:
        with pytest.raises(NameNotFound) as raised:
            palaestra.make("OnlyInGymnasium-v3")
        assert str(raised.value) == (
            "Environment `OnlyInGymnasium` doesn't exist. Did you mean: `gymnasium/OnlyInGymnasium-v3`? "
            "(another library registers `OnlyInGymnasium-v3`; palaestra runs it under that id)"
        )
        env = palaestra.make("gymnasium/OnlyInGymnasium-v3")  # the suggestion works
        assert env.reset(seed=0)[0].shape == (4,)
    finally:
        del gymnasium.registry["OnlyInGymnasium-v3"]
    with pytest.raises(NameNotFound, match=r"Did you mean: `CartPole`\?$"):
        palaestra.make("CartPol-v1")  # a close palaestra name comes first
