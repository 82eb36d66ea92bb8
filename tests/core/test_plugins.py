"""Plugin discovery and loading, sandboxed with fake installed distributions."""

import re
import sys

import pytest

import palaestra
from palaestra import use_host
from palaestra.error import (
    MissingSuiteError,
    NameNotFound,
    NamespaceNotFound,
    PluginConflictError,
    PluginLoadError,
    RegistrationError,
    VectorizerNotFound,
)
from tests.fixtures.fake_dists import GOOD_ENV, hooks_source, make_dist


def test_third_party_namespace_is_loaded_on_demand(grid_dist, isolated):
    assert "grid_envs._hooks" not in sys.modules
    env = palaestra.make("grid/Counter-v0")
    assert "grid_envs._hooks" in sys.modules
    assert env.spec.id == "grid/Counter-v0"
    assert env.spec.max_episode_steps == 20
    obs, _ = env.reset(seed=0)
    assert obs.shape == (1,)
    assert isolated.registry.owner("grid/Counter-v0") == "grid-envs"


def test_unqualified_ids_land_in_the_plugin_namespace(grid_dist, isolated):
    with pytest.raises(palaestra.error.NameNotFound):
        palaestra.make("Counter-v0")
    assert palaestra.spec("grid/Bounded-v1").kwargs == {"limit": 8}


def test_unversioned_id_resolves_to_latest_with_warning(grid_dist, isolated):
    with pytest.warns(UserWarning, match="Using the latest versioned environment `grid/Bounded-v1`"):
        env = palaestra.make("grid/Bounded")
    assert env.spec.id == "grid/Bounded-v1"


def test_default_namespace_ids(site, isolated):
    make_dist(
        site,
        "defaults",
        {"dflt": "dflt_pkg._hooks"},
        {
            "dflt_pkg._hooks": hooks_source(
                'registrar.register("Tally-v3", entry_point="dflt_pkg.env:CounterEnv",'
                " default_namespace=True)"
            ),
            "dflt_pkg.env": GOOD_ENV,
        },
        names={"Tally": "dflt"},
    )
    assert "dflt_pkg.env" not in sys.modules
    env = palaestra.make("Tally-v3")
    assert env.spec.id == "Tally-v3"


def test_make_namespaced_id_imports_only_that_plugin(grid_dist, site, isolated):
    make_dist(
        site,
        "other-envs",
        {"other": "other_envs._hooks"},
        {
            "other_envs._hooks": hooks_source('registrar.register("X-v0", entry_point="other_envs.x:X")'),
        },
    )
    palaestra.make("grid/Counter-v0")
    assert "other_envs._hooks" not in sys.modules


def test_broken_plugin_import_is_isolated(grid_dist, site, isolated):
    make_dist(
        site,
        "broken-envs",
        {"broken": "broken_envs._hooks"},
        {
            "broken_envs._hooks": "raise RuntimeError('boom at import')\n",
        },
    )
    with pytest.raises(PluginLoadError) as info:
        palaestra.make("broken/Anything-v0")
    err = info.value
    assert err.namespace == "broken" and err.distribution == "broken-envs"
    message = str(err)
    assert "'broken'" in message and "broken-envs" in message and "boom at import" in message
    assert isinstance(err.__cause__, RuntimeError)
    # Everything else keeps working, including bulk listing.
    assert palaestra.make("grid/Counter-v0").spec.id == "grid/Counter-v0"
    assert "grid/Counter-v0" in list(isolated.registry)
    assert "broken" in isolated.loader.failures


def test_hook_that_raises_registers_nothing(site, isolated):
    make_dist(
        site,
        "half-envs",
        {"half": "half_envs._hooks"},
        {
            "half_envs._hooks": hooks_source(
                'registrar.register("Ok-v0", entry_point="half_envs.x:X")\nraise ValueError("hook failed")'
            ),
        },
    )
    with pytest.raises(PluginLoadError, match="palaestra_register_envs hook raised: ValueError: hook failed"):
        palaestra.make("half/Ok-v0")
    assert "half/Ok-v0" not in isolated.registry.loaded()


def test_two_distributions_claiming_one_namespace(site, isolated):
    for dist in ("alpha-envs", "beta-envs"):
        module = dist.replace("-", "_")
        make_dist(site, dist, {"shared": f"{module}._hooks"}, {f"{module}._hooks": hooks_source("")})
    with pytest.raises(PluginConflictError) as info:
        palaestra.make("shared/Env-v0")
    assert set(info.value.distributions) == {"alpha-envs", "beta-envs"}
    assert "alpha-envs" in str(info.value) and "beta-envs" in str(info.value)


def test_plugin_may_not_register_in_another_namespace(site, isolated):
    make_dist(
        site,
        "rogue-envs",
        {"rogue": "rogue_envs._hooks"},
        {
            "rogue_envs._hooks": hooks_source('registrar.register("grid/Steal-v0", entry_point="x:Y")'),
        },
    )
    with pytest.raises(PluginLoadError, match="only register ids in its own namespace") as info:
        palaestra.make("rogue/Steal-v0")
    assert isinstance(info.value.__cause__, RegistrationError)


def test_disable_autoload_switch(grid_dist, sandbox, monkeypatch):
    monkeypatch.setenv("PALAESTRA_DISABLE_PLUGIN_AUTOLOAD", "1")
    host = sandbox()
    switched_off = (
        "It is provided by the plugin `grid` of the distribution `grid-envs`, which is installed but "
        "switched off: PALAESTRA_DISABLE_PLUGIN_AUTOLOAD=1 turns plugin discovery off (unset it)."
    )
    with palaestra.use_host(host), pytest.raises(NamespaceNotFound) as info:
        palaestra.make("grid/Counter-v0")
    assert str(info.value) == f"Namespace grid not found. {switched_off}"
    assert host.installed.table == {}


def test_allow_list_switch(grid_dist, site, sandbox, monkeypatch):
    make_dist(
        site,
        "other-envs",
        {"other": "other_envs._hooks"},
        {
            "other_envs._hooks": hooks_source('registrar.register("X-v0", entry_point="other_envs.x:X")'),
        },
    )
    monkeypatch.setenv("PALAESTRA_PLUGINS", "other")
    host = sandbox()
    assert set(host.installed.table) == {"other"}
    with palaestra.use_host(host), pytest.raises(NamespaceNotFound) as info:
        palaestra.make("grid/Counter-v0")
    assert str(info.value).endswith(
        "which is installed but switched off: PALAESTRA_PLUGINS='other' does not list `grid` "
        "(add it, or unset PALAESTRA_PLUGINS)."
    )
    with palaestra.use_host(host), pytest.raises(NamespaceNotFound) as info:
        palaestra.make("nowhere/Counter-v0")
    assert "switched off" not in str(info.value)  # not installed at all: no claim about switches


def test_explicit_host_arguments_override_environment(grid_dist, sandbox, monkeypatch):
    monkeypatch.setenv("PALAESTRA_DISABLE_PLUGIN_AUTOLOAD", "1")
    assert set(sandbox(autoload=True).installed.table) == {"grid"}
    host = sandbox(autoload=True, allow=["nothing"])
    assert host.installed.table == {}
    with (
        palaestra.use_host(host),
        pytest.raises(NamespaceNotFound, match=r"created with allow=\['nothing'\]"),
    ):
        palaestra.make("grid/Counter-v0")
    with (
        palaestra.use_host(sandbox(autoload=False)),
        pytest.raises(NamespaceNotFound, match="autoload=False"),
    ):
        palaestra.make("grid/Counter-v0")


@pytest.mark.needs_plugins
def test_a_switched_off_reference_suite_is_not_called_missing(monkeypatch):
    monkeypatch.setenv("PALAESTRA_PLUGINS", "toy_text")
    with palaestra.use_host(palaestra.PluginHost()), pytest.raises(MissingSuiteError) as info:
        palaestra.make("CartPole-v1")
    message = str(info.value)
    assert "`palaestra-classic-control`, which is installed but switched off" in message
    assert "PALAESTRA_PLUGINS='toy_text' does not list `classic_control`" in message
    assert "pip install" not in message


def test_missing_reference_suite_names_the_extra(isolated):
    with pytest.raises(MissingSuiteError, match=r'pip install "palaestra\[box2d\]"') as info:
        palaestra.make("LunarLander-v3")
    assert isinstance(info.value, KeyError)
    assert "palaestra-box2d" in str(info.value)
    with pytest.raises(NamespaceNotFound, match=r"palaestra\[mujoco\]"):
        palaestra.make("mujoco/Ant-v5")


def test_add_plugin_without_entry_point(site, isolated):
    make_dist(
        site,
        "local-envs",
        {},
        {
            "local_envs.hooks": hooks_source(
                'registrar.register("Local-v0", entry_point="local_envs.env:CounterEnv")'
            ),
            "local_envs.env": GOOD_ENV,
        },
    )
    isolated.add_plugin("local_envs.hooks", namespace="local")
    assert palaestra.make("local/Local-v0").spec.id == "local/Local-v0"


def test_registrar_rejects_unknown_fields(site, isolated):
    make_dist(
        site,
        "typo-envs",
        {"typo": "typo_envs._hooks"},
        {
            "typo_envs._hooks": hooks_source('registrar.register("T-v0", entry_point="x:Y", max_steps=3)'),
        },
    )
    with pytest.raises(PluginLoadError, match=r"unknown fields \['max_steps'\]"):
        palaestra.make("typo/T-v0")


def test_install_hint_for_a_suite_that_is_installed_but_lacks_the_env():
    from palaestra._discovery._suites import install_hint

    hint = install_hint(None, "CarRacing", {"box2d"})
    assert hint is not None and "`palaestra-box2d` suite, which is installed but does not provide it" in hint
    assert 'pip install "palaestra[box2d]"' in install_hint(None, "CarRacing", set())
    assert install_hint(None, "NoSuchEnv", set()) is None


def test_a_typo_with_no_suite_installed_suggests_the_id_and_the_suite(isolated):
    with pytest.raises(
        NameNotFound, match=r"Did you mean: `CartPole`\?.*palaestra-classic-control.*pip install"
    ):
        palaestra.make("CartPol-v1")


@pytest.mark.needs_plugins
def test_a_typo_of_an_installed_env_suggests_it_without_an_install_hint():
    with pytest.raises(NameNotFound) as info:
        palaestra.make("CartPol-v1")
    assert str(info.value) == "Environment `CartPol` doesn't exist. Did you mean: `CartPole`?"


def test_a_bare_name_suggests_the_namespaced_id_that_exists(isolated):
    palaestra.register("myns/MyEnv-v0", entry_point="tests.fixtures.vector_envs:InfoEnv")
    with pytest.raises(NameNotFound, match=r"Did you mean: `myns/MyEnv-v0`\?"):
        palaestra.make("MyEnv-v0")


def test_a_published_vectorizer_that_is_not_installed_names_its_extra(isolated):
    palaestra.register("Local-v0", entry_point="tests.fixtures.vector_envs:InfoEnv")
    with pytest.raises(
        VectorizerNotFound, match=r'comes with the palaestra-ray plugin.*pip install "palaestra\[ray\]"'
    ):
        palaestra.make_vec("Local-v0", 2, vectorization_mode="ray/actors")


def test_install_hints_name_the_checkout_route_when_run_from_one():
    from palaestra._discovery._suites import install_command

    command = install_command("box2d")
    # These tests run from the repository: the command that works in it leads, the extra follows.
    assert command.startswith("uv pip install -e plugins/box2d  (in this checkout;")
    assert 'pip install --find-links dist/wheels "palaestra[box2d]"' in command
    assert command.endswith('from a package index: pip install "palaestra[box2d]")')


def test_install_hints_name_the_suites_folder_when_the_core_was_installed_from_a_checkout(
    monkeypatch, tmp_path
):
    """After the plugin guide's `pip install /path/to/palaestra/core`, the hint names the suite's folder."""
    import importlib.metadata
    import json
    from pathlib import Path

    from palaestra._discovery import _suites

    root = Path(_suites.__file__).resolve().parents[4]
    record = json.dumps({"url": (root / "core").as_uri(), "dir_info": {}})

    class Installed:
        def read_text(self, name):
            return record if name == "direct_url.json" else None

    monkeypatch.setattr(_suites, "_checkout_folder", lambda distribution: None)  # as from site-packages
    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: Installed())
    command = _suites.install_command("box2d")
    assert command == (
        f"pip install {root / 'plugins' / 'box2d'}  (palaestra was installed from the checkout {root}; "
        'from a package index: pip install "palaestra[box2d]")'
    )
    monkeypatch.setattr(
        importlib.metadata,
        "distribution",
        lambda name: (_ for _ in ()).throw(importlib.metadata.PackageNotFoundError()),
    )
    assert _suites.install_command("box2d") == 'pip install "palaestra[box2d]"'


@pytest.mark.parametrize("suite_wheel_there", [True, False])
def test_install_hints_name_the_wheel_folder_the_core_was_installed_from(
    monkeypatch, tmp_path, suite_wheel_there
):
    """After `pip install dist/wheels/palaestra-*.whl`, the hint leads with that folder (if the suite's wheel is in it)."""
    import importlib.metadata
    import json

    from palaestra._discovery import _suites

    (tmp_path / "palaestra-1.0.0-py3-none-any.whl").write_bytes(b"")
    if suite_wheel_there:
        (tmp_path / "palaestra_box2d-1.0.0-cp311-cp311-linux_x86_64.whl").write_bytes(b"")
    record = json.dumps({"url": (tmp_path / "palaestra-1.0.0-py3-none-any.whl").as_uri(), "archive_info": {}})

    class Installed:
        def read_text(self, name):
            return record if name == "direct_url.json" else None

    monkeypatch.setattr(_suites, "_checkout_folder", lambda distribution: None)
    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: Installed())
    expected = (
        f'pip install --find-links {tmp_path} "palaestra[box2d]"  (the wheels palaestra came from; '
        'from a package index: pip install "palaestra[box2d]")'
        if suite_wheel_there
        else 'pip install "palaestra[box2d]"'
    )
    assert _suites.install_command("box2d") == expected


HOOKLESS = {
    "no @hookimpl": (
        "def palaestra_register_envs(registrar):\n    registrar.register('X-v0', entry_point='m:X')\n",
        "palaestra_register_envs is not decorated with @hookimpl",
    ),
    "misspelt hook": (
        "from palaestra import hookimpl\n\n\n@hookimpl\ndef palaestra_register_env(registrar):\n    pass\n",
        "palaestra_register_env is not a hook name; did you mean palaestra_register_envs?",
    ),
    "no hook at all": ("VALUE = 1\n", "brk_envs._hooks defines no hook"),
}


@pytest.mark.parametrize("declared", [False, True], ids=["no ids declared", "ids declared"])
@pytest.mark.parametrize("case", sorted(HOOKLESS))
def test_a_plugin_that_implements_no_hook_is_named_with_the_likely_cause(case, declared, site, sandbox):
    source, cause = HOOKLESS[case]
    ids = {"brk/X-v0": "brk"} if declared else None  # the plugin guide declares its ids
    make_dist(site, "brk-envs", {"brk": "brk_envs._hooks"}, {"brk_envs._hooks": source}, ids=ids)
    host = sandbox()
    with use_host(host), pytest.raises(NamespaceNotFound) as info:
        palaestra.make("brk/X-v0")
    message = str(info.value)
    assert message.startswith(
        "Namespace brk not found. The plugin 'brk' (brk-envs) is installed but implements"
    )
    assert cause in message
    assert not message.endswith("?.")
    from palaestra.cli._checking import _plugin_ids

    with use_host(host), pytest.raises(ValueError, match=re.escape(cause)):
        _plugin_ids("brk")
