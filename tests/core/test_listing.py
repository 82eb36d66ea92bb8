"""Listing, membership and unknown ids answer from declarations: no plugin is imported.

So a plugin that aborts or hangs at import cannot take `palaestra list`, `len(registry)`,
`"X" in registry`, `pprint_registry()` or an unknown id's error down with it.
"""

import json
import os
import subprocess
import sys

import pytest

import palaestra
from tests.fixtures.fake_dists import GOOD_ENV, hooks_source, make_dist

HOOK_MODULES = "sorted(m for m in sys.modules if m.endswith('_hooks') and not m.startswith('pluggy'))"


def declared_suite(site):
    make_dist(
        site,
        "grid-envs",
        {"grid": "grid_envs._hooks"},
        {
            "grid_envs._hooks": hooks_source(
                'registrar.register("Hike-v0", entry_point="grid_envs.env:CounterEnv")\n'
                'registrar.register("Hike-v1", entry_point="grid_envs.env:CounterEnv")\n'
                'registrar.register("Stroll-v0", entry_point="grid_envs.env:CounterEnv", default_namespace=True)'
            ),
            "grid_envs.env": GOOD_ENV,
        },
        ids={"grid/Hike-v0": "grid", "grid/Hike-v1": "grid", "Stroll-v0": "grid"},
    )


def broken_suites(site):
    """Two plugins that declare ids and must never be imported: one aborts, one hangs."""
    make_dist(
        site,
        "abort-envs",
        {"abort": "abort_envs._hooks"},
        {"abort_envs._hooks": "import os\nos.abort()\n"},
        ids={"abort/Crash-v0": "abort", "Crash-v0": "abort"},
    )
    make_dist(
        site,
        "hang-envs",
        {"hang": "hang_envs._hooks"},
        {"hang_envs._hooks": "import time\ntime.sleep(3600)\n"},
        ids={"hang/Sleep-v0": "hang"},
    )


def run(site, tmp_path, code):
    env = {**os.environ, "PYTHONPATH": str(site), "PALAESTRA_CACHE_DIR": str(tmp_path / "cache")}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_listing_and_membership_import_no_plugin(site, isolated):
    declared_suite(site)
    broken_suites(site)
    ids = list(palaestra.registry)
    assert {
        "grid/Hike-v0",
        "grid/Hike-v1",
        "Stroll-v0",
        "abort/Crash-v0",
        "Crash-v0",
        "hang/Sleep-v0",
    } <= set(ids)
    assert len(palaestra.registry) == len(ids)
    assert "grid/Hike-v1" in palaestra.registry
    assert "Crash-v0" in palaestra.registry  # declared, though its plugin would abort
    assert "grid/Hike-v7" not in palaestra.registry
    assert "Nowhere-v0" not in palaestra.registry
    assert "abort/Other-v0" not in palaestra.registry
    text = palaestra.pprint_registry(disable_print=True)
    assert "===== grid =====" in text and "Stroll-v0" in text and "hang/Sleep-v0" in text
    assert not [m for m in sys.modules if m.startswith(("grid_envs", "abort_envs", "hang_envs"))]


def test_the_whole_registry_commands_survive_plugins_that_abort_or_hang(site, tmp_path):
    declared_suite(site)
    broken_suites(site)
    code = (
        "import json, sys, palaestra\n"
        "from palaestra.cli import main\n"
        "main(['list'])\n"
        "out = {'len': len(palaestra.registry), 'in': 'Crash-v0' in palaestra.registry}\n"
        "out['pprint'] = palaestra.pprint_registry(disable_print=True)\n"
        "try:\n"
        "    palaestra.make('Xyzzy-v0')\n"
        "except palaestra.error.NameNotFound as e:\n"
        "    out['error'] = str(e)\n"
        f"out['hooks'] = {HOOK_MODULES}\n"
        "print(json.dumps(out))\n"
    )
    listing, _, last = run(site, tmp_path, code).rstrip().rpartition("\n")
    out = json.loads(last)
    assert "grid  [grid-envs]\n  grid/Hike-v0\n  grid/Hike-v1" in listing
    assert "  Crash-v0" in listing and "hang/Sleep-v0" in listing
    assert out["len"] >= 6 and out["in"] is True
    assert "Stroll-v0" in out["pprint"]
    assert "Environment `Xyzzy` doesn't exist" in out["error"]
    # An unknown id loads no plugin, except one that resolves a namespace on demand (the
    # Gymnasium bridge, when installed), asked whether it has that exact id.
    assert set(out["hooks"]) <= {"palaestra_gymnasium_hooks"}
    assert not {"abort_envs._hooks", "hang_envs._hooks", "grid_envs._hooks"} & set(out["hooks"])


def test_a_bare_name_finds_its_namespaced_id_among_declarations(site, isolated):
    declared_suite(site)
    with pytest.raises(palaestra.error.NameNotFound, match="Did you mean: `grid/Hike-v0`"):
        palaestra.make("Hike-v1")
    assert "grid_envs._hooks" not in sys.modules


def test_a_plugin_without_declared_ids_is_listed_as_such(site, isolated, capsys):
    from palaestra.cli import main

    make_dist(site, "old-envs", {"old": "old_envs._hooks"}, {"old_envs._hooks": hooks_source("")})
    assert main(["list"]) == 0
    assert "old  [old-envs]  declares no env ids" in capsys.readouterr().out
    assert "old_envs._hooks" not in sys.modules


def test_values_load_each_owner_and_skip_a_broken_one(site, isolated):
    declared_suite(site)
    make_dist(
        site,
        "raise-envs",
        {"bad": "raise_envs._hooks"},
        {"raise_envs._hooks": "raise ImportError('nope')\n"},
        ids={"bad/Oops-v0": "bad"},
    )
    specs = {spec.id for spec in palaestra.registry.values()}
    assert {"grid/Hike-v0", "grid/Hike-v1", "Stroll-v0"} <= specs
    assert "bad/Oops-v0" not in specs
    assert "bad" in isolated.loader.failures
    assert dict(palaestra.registry.items())["Stroll-v0"].id == "Stroll-v0"


def test_many_versions_of_one_name_resolve_through_the_index(site, isolated):
    lines = "\n".join(
        f'registrar.register("Big-v{i}", entry_point="many_envs.env:CounterEnv")' for i in range(300)
    )
    make_dist(
        site,
        "many-envs",
        {"many": "many_envs._hooks"},
        {"many_envs._hooks": hooks_source(lines), "many_envs.env": GOOD_ENV},
        ids={f"many/Big-v{i}": "many" for i in range(300)},
    )
    with pytest.warns(UserWarning, match="Using the latest versioned environment `many/Big-v299`"):
        assert palaestra.make("many/Big").spec.id == "many/Big-v299"
    with pytest.raises(palaestra.error.VersionNotFound, match="v300"):
        palaestra.make("many/Big-v300")
    del palaestra.registry["many/Big-v299"]
    assert palaestra.envs.registration.find_highest_version("many", "Big") == 298


def test_list_shows_the_ids_a_plugin_resolves_on_demand(site, isolated, capsys):
    from palaestra.cli import main

    make_dist(
        site,
        "bridge-envs",
        {"other": "bridge_envs._hooks"},
        {"bridge_envs._hooks": hooks_source("")},
        ids={"other/*": "other"},
    )
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "other/*  [bridge-envs]  ids resolved on demand: make('other/<Env-vN>')" in out
    assert "declares no env ids" not in out
    assert "bridge_envs._hooks" not in sys.modules


def test_retired_ids_and_declared_vectorizers_are_listed_apart_without_importing(site, isolated, capsys):
    from palaestra.cli import main

    make_dist(
        site,
        "old-envs",
        {"old": "old_envs._hooks"},
        {"old_envs._hooks": hooks_source("")},
        ids={"old/Walk-v1": "old:retired", "old/Walk-v2": "old"},
        vectorizers={"old/threads": "old"},
    )
    make_dist(
        site,
        "fan-envs",
        {"fan": "fan_envs._hooks"},
        {"fan_envs._hooks": "raise SystemExit"},
        vectorizers={"fan/many": "fan"},
    )
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "old  [old-envs]\n  old/Walk-v2\n" in out and "  old/Walk-v1" not in out
    assert "retired, not makeable here (make() names the version to use): old/Walk-v1" in out
    assert "old/threads  [old-envs]  vectorizer: make_vec(id, n, vectorization_mode='old/threads')" in out
    assert "fan/many  [fan-envs]  vectorizer" in out and "declares no env ids" not in out
    assert "old_envs._hooks" not in sys.modules and "fan_envs._hooks" not in sys.modules
