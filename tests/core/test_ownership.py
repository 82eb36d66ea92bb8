"""Default-namespace names belong to the plugin that declares them, whatever the install order."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

import palaestra
from palaestra import use_host
from palaestra.error import PluginConflictError, PluginLoadError
from tests.fixtures.fake_dists import GOOD_ENV, hooks_source, make_dist


def suite(site, dist, namespace, names, extra=""):
    """A plugin registering ``names`` (each ``Name-v0``) in the default namespace."""
    module = dist.replace("-", "_")
    registrations = "\n".join(
        f'registrar.register("{name}-v0", entry_point="{module}.env:CounterEnv", default_namespace=True)'
        for name in names
    )
    make_dist(
        site,
        dist,
        {namespace: f"{module}._hooks"},
        {f"{module}._hooks": hooks_source(registrations + extra), f"{module}.env": GOOD_ENV},
        ids={f"{name}-v0": namespace for name in names},
    )


@pytest.mark.parametrize("impostor", ["aaa-impostor", "zzz-impostor"])
def test_a_name_two_distributions_declare_is_refused_naming_both_whatever_their_order(
    site, isolated, impostor
):
    suite(site, "real-suite", "real", ["Cart", "Car"])
    suite(site, impostor, impostor.split("-")[0], ["Cart", "Bogus"])
    with pytest.raises(PluginConflictError) as info:
        palaestra.make("Cart-v0")
    assert set(info.value.distributions) == {"real-suite", impostor}
    assert "PALAESTRA_PREFER=Cart=" in str(info.value)
    # Everything else of both plugins works, namespaced or not.
    assert palaestra.make("Car-v0").spec.id == "Car-v0"
    assert palaestra.make("Bogus-v0").spec.id == "Bogus-v0"
    assert list(isolated.installed.owners.conflicts()) == ["Cart"]
    assert set(isolated.installed.owners.conflicts()["Cart"]) == {"real-suite", impostor}


def test_the_user_picks_the_owner_with_an_environment_variable(site, sandbox, monkeypatch):
    suite(site, "real-suite", "real", ["Cart"])
    suite(site, "aaa-impostor", "aaa", ["Cart"])
    monkeypatch.setenv("PALAESTRA_PREFER", "Cart=real-suite")
    host = sandbox()
    with palaestra.use_host(host):
        palaestra.make("Cart-v0")
    assert host.registry.owner("Cart-v0") == "real-suite"
    assert host.installed.owners.conflicts() == {}


def test_the_user_picks_the_owner_on_the_host(site, sandbox):
    suite(site, "real-suite", "real", ["Cart"])
    suite(site, "aaa-impostor", "aaa", ["Cart"])
    host = sandbox(prefer={"Cart": "aaa-impostor"})
    with palaestra.use_host(host):
        palaestra.make("Cart-v0")
    assert host.registry.owner("Cart-v0") == "aaa-impostor"
    other = sandbox()
    other.prefer("Cart", "real_suite")  # names compare as normalised distribution names
    with palaestra.use_host(other):
        palaestra.make("Cart-v0")
        with pytest.raises(palaestra.error.Error, match="already registered from real-suite"):
            other.prefer("Cart", "aaa-impostor")


def test_preferring_a_distribution_that_does_not_declare_the_name_is_an_error(site, sandbox):
    suite(site, "real-suite", "real", ["Cart"])
    suite(site, "aaa-impostor", "aaa", ["Cart"])
    with (
        palaestra.use_host(sandbox(prefer={"Cart": "nobody"})),
        pytest.raises(palaestra.error.Error, match="picks 'nobody' for 'Cart', but only"),
    ):
        palaestra.make("Cart-v0")


def test_an_undeclared_default_name_fails_the_plugin_with_the_fix(site, isolated):
    make_dist(
        site,
        "sloppy-envs",
        {"sloppy": "sloppy_envs._hooks"},
        {
            "sloppy_envs._hooks": hooks_source(
                'registrar.register("Hidden-v0", entry_point="x:Y", default_namespace=True)\n'
                'registrar.register("Fine-v0", entry_point="x:Y")'
            )
        },
    )
    with pytest.raises(
        PluginLoadError,
        match='add its ids \\(`"Hidden-v0" = "sloppy"`\\) to the entry-point group "palaestra.env_ids"',
    ):
        palaestra.make("sloppy/Fine-v0")


def test_a_plugin_that_exits_at_import_is_contained(site, isolated):
    make_dist(
        site,
        "exiting-envs",
        {"exiting": "exiting_envs._hooks"},
        {"exiting_envs._hooks": "raise SystemExit(3)\n"},
    )
    suite(site, "real-suite", "real", ["Cart"])
    with pytest.raises(PluginLoadError, match="failed to import: SystemExit: 3"):
        palaestra.make("exiting/Any-v0")
    assert palaestra.make("Cart-v0").spec.id == "Cart-v0"  # the process and the other plugins go on


def test_two_claims_of_one_namespace_name_both_for_un_namespaced_ids(site, isolated):
    suite(site, "classic-one", "shared", ["Lever"])
    suite(site, "classic-two", "shared", ["Lever"])
    with pytest.raises(PluginConflictError) as info:
        palaestra.make("Lever-v0")
    assert set(info.value.distributions) == {"classic-one", "classic-two"}
    assert "does not provide it in this version" not in str(info.value)


def test_an_unknown_name_suggests_a_declared_one_without_loading_it(site, isolated):
    suite(site, "real-suite", "real", ["Cartwheel"])
    with pytest.raises(palaestra.error.NameNotFound, match="Did you mean: `Cartwheel`"):
        palaestra.make("Cartwhel-v0")
    assert "real_suite._hooks" not in sys.modules


def run(code, site, cache):
    env = {**os.environ, "PYTHONPATH": str(site), "PALAESTRA_CACHE_DIR": str(cache)}
    env.pop("PALAESTRA_DISCOVERY_CACHE", None)
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


LIST = "import json, palaestra; print(json.dumps(sorted(palaestra.get_host().installed.table)))"


def test_the_discovery_cache_sees_distributions_added_and_removed_between_processes(tmp_path):
    site, cache = tmp_path / "site", tmp_path / "cache"
    site.mkdir()
    suite(site, "first-suite", "first", ["Alpha"])
    assert "first" in run(LIST, site, cache)
    assert list(cache.glob("discovery-*.marshal")), "no cache was written"
    assert "first" in run(LIST, site, cache)  # from the cache
    suite(site, "second-suite", "second", ["Beta"])
    assert {"first", "second"} <= set(run(LIST, site, cache))
    shutil.rmtree(site / "first_suite-1.0.0.dist-info")
    listed = run(LIST, site, cache)
    assert "second" in listed and "first" not in listed


def test_the_discovery_cache_sees_a_plugin_upgraded_in_place(tmp_path):
    site, cache = tmp_path / "site", tmp_path / "cache"
    site.mkdir()
    info = make_dist(
        site, "edit-suite", {"old": "edit_suite._hooks"}, {"edit_suite._hooks": hooks_source("")}
    )
    assert "old" in run(LIST, site, cache)
    entry_points = info / "entry_points.txt"
    entry_points.write_text("[palaestra.plugins]\nnew = edit_suite._hooks\n")
    stat = entry_points.stat()
    os.utime(entry_points, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    listed = run(LIST, site, cache)
    assert "new" in listed and "old" not in listed


@pytest.mark.needs_plugins
def test_make_of_an_un_namespaced_id_imports_only_its_owner():
    code = (
        "import json, sys, palaestra\n"
        "palaestra.make('CartPole-v1').reset(seed=0)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('palaestra_', 'palaestra.wrappers')))))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    suites = [m for m in loaded if m.startswith("palaestra_")]
    assert all(m.startswith("palaestra_classic_control") for m in suites), suites
    assert "palaestra_classic_control._hooks" in suites
    # Only the wrappers make() applies, not the whole wrappers package.
    assert [m for m in loaded if m.startswith("palaestra.wrappers")] == [
        "palaestra.wrappers",
        "palaestra.wrappers._common",
        "palaestra.wrappers.compatibility",  # a plain import of make's (0.3 ms; bench_lazy_seams.py)
    ]


def test_palaestra_list_shows_conflicts(site, isolated, capsys):
    from palaestra.cli import main

    suite(site, "real-suite", "real", ["Cart", "Car"])
    suite(site, "aaa-impostor", "aaa", ["Cart"])
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert (
        "Cart  [CONFLICT] declared by aaa-impostor and real-suite; pick one with PALAESTRA_PREFER=Cart=<distribution>"
        in out
    )
    assert "  Car-v0" in out and "  Cart-v0" not in out


def installed_core(site, version):
    """A palaestra dist-info in the sandbox, so discovery sees that core version installed."""
    (site / f"palaestra-{version}.dist-info").mkdir()
    (site / f"palaestra-{version}.dist-info" / "METADATA").write_text(
        f"Name: palaestra\nVersion: {version}\n"
    )


def pinned_plugin(site, requires="palaestra>=0.2,<0.3"):
    """Core 0.1.0 installed, and a plugin stating the core versions it needs (by default, later ones)."""
    installed_core(site, "0.1.0")
    make_dist(
        site,
        "pinned-envs",
        {"pinned": "pinned_envs._hooks"},
        {
            "pinned_envs._hooks": hooks_source(
                'registrar.register("Env-v0", entry_point="pinned_envs.env:CounterEnv")'
            ),
            "pinned_envs.env": GOOD_ENV,
        },
        requires=requires,
    )


@pytest.mark.parametrize(
    ("requires", "loads"),
    [
        ("palaestra>=0.1,<0.2", True),
        ("palaestra (>=0.1)", True),
        ("palaestra>=0.2,<0.3", False),
        ("palaestra==0.0.*", False),
    ],
)
def test_a_plugin_built_for_another_core_is_refused_naming_both_versions(site, isolated, requires, loads):
    pinned_plugin(site, requires)
    if loads:
        assert palaestra.make("pinned/Env-v0").spec.id == "pinned/Env-v0"
        return
    specifier = requires.removeprefix("palaestra").strip()
    with pytest.raises(
        PluginLoadError, match=rf"it needs palaestra {re.escape(specifier)}, and palaestra 0.1.0 is installed"
    ):
        palaestra.make("pinned/Env-v0")
    assert "pinned_envs._hooks" not in sys.modules


def test_a_host_allowing_chosen_plugins_still_checks_their_core_version(site, sandbox):
    pinned_plugin(site)
    host = sandbox(allow=["pinned"])
    with (
        use_host(host),
        pytest.raises(PluginLoadError, match=r"it needs palaestra >=0.2,<0.3, and palaestra 0.1.0"),
    ):
        palaestra.make("pinned/Env-v0")


def test_a_process_reading_the_discovery_cache_refuses_the_plugin_too(tmp_path):
    site, cache = tmp_path / "site", tmp_path / "cache"
    site.mkdir()
    pinned_plugin(site)
    code = (
        "import json, palaestra\n"
        "try:\n"
        "    palaestra.make('pinned/Env-v0')\n"
        "except palaestra.error.PluginLoadError as e:\n"
        "    print(json.dumps(str(e)))\n"
    )
    first, second = run(code, site, cache), run(code, site, cache)  # the second reads the cache
    assert list(cache.glob("discovery-*.marshal"))
    assert first == second
    assert "it needs palaestra >=0.2,<0.3, and palaestra 0.1.0 is installed" in second


def test_the_version_comparison_follows_pep_440_for_release_numbers():
    from palaestra._discovery._compat import incompatibility, palaestra_requirement

    assert (
        palaestra_requirement("palaestra[render] (>=0.1, <0.2) ; python_version >= '3.10'") == ">=0.1, <0.2"
    )
    assert palaestra_requirement("palaestra-toy-text>=1") is None
    for spec, version, ok in [
        (">=0.1,<0.2", "0.1.5", True),
        (">=0.1,<0.2", "0.2.0", False),
        ("~=0.1.2", "0.1.9", True),
        ("~=0.1.2", "0.2.0", False),
        ("==0.1.*", "0.1.7", True),
        ("!=0.1.0", "0.1.0", False),
        (">0.1", "0.1.0", False),
        ("<=1.0", "1.0.0", True),
    ]:
        assert (incompatibility(spec, version) is None) is ok, (spec, version)


def test_a_cached_scan_reads_back_exactly_what_the_scan_found(tmp_path, monkeypatch):
    from palaestra._discovery._cache import cached_scan
    from palaestra._discovery._scan import scan

    site = tmp_path / "site"
    site.mkdir()
    suite(site, "first-suite", "first", ["Alpha", "Beta"])
    suite(site, "second-suite", "second", ["Alpha"])  # a shared name: two records for it
    pinned_plugin(site)
    monkeypatch.setenv("PALAESTRA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PALAESTRA_DISCOVERY_CACHE", raising=False)
    fresh = scan([str(site)])
    written, read = cached_scan([str(site)]), cached_scan([str(site)])
    assert list((tmp_path / "cache").glob("discovery-*.marshal"))
    assert vars(written) == vars(fresh) == vars(read)
    assert read.incompatible == {
        ">=0.2,<0.3": "it needs palaestra >=0.2,<0.3, and palaestra 0.1.0 is installed"
    }
    assert len(read.names["Alpha"]) == 2


def test_a_script_folder_that_gains_files_keeps_the_cache_and_a_new_distribution_does_not(
    tmp_path, monkeypatch
):
    from palaestra._discovery import _cache, _scan

    site = tmp_path / "site"
    site.mkdir()
    suite(site, "first-suite", "first", ["Alpha"])
    monkeypatch.setenv("PALAESTRA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PALAESTRA_DISCOVERY_CACHE", raising=False)
    scans = []
    real_scan = _scan.scan
    monkeypatch.setattr(_scan, "scan", lambda entries: scans.append(1) or real_scan(entries))

    def touched(name):
        (site / name).write_text("x")  # a new file: the folder's time moves
        stat = site.stat()
        os.utime(site, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))

    first = _cache.cached_scan([str(site)])
    assert len(scans) == 1
    touched("checkpoint.pt")
    kept = _cache.cached_scan([str(site)])
    assert len(scans) == 1, "a new plain file should not cost a scan"
    assert vars(kept) == vars(first)
    cache_file = _cache.cache_file([str(site)])
    stored = _cache._read(cache_file)
    assert stored["stamps"][1] == [[str(site), site.stat().st_mtime_ns]]  # the new time written back
    suite(site, "second-suite", "second", ["Beta"])
    touched("log.txt")
    grown = _cache.cached_scan([str(site)])
    assert len(scans) == 2
    assert "second" in grown.plugins and "first" in grown.plugins


def test_a_distribution_reinstalled_at_the_same_version_is_scanned_again(tmp_path, monkeypatch):
    from palaestra._discovery import _cache

    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.setenv("PALAESTRA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PALAESTRA_DISCOVERY_CACHE", raising=False)
    info = site / "dev_envs-0.1.0.dist-info"  # a plugin in the making, not yet declaring its hooks
    info.mkdir()
    (info / "METADATA").write_text("Name: dev-envs\nVersion: 0.1.0\n")
    assert "dev" not in _cache.cached_scan([str(site)]).plugins
    shutil.rmtree(info)  # `pip install -e .` again, same version, now with an entry point
    make_dist(
        site, "dev-envs", {"dev": "dev_envs._hooks"}, {"dev_envs._hooks": hooks_source("")}, version="0.1.0"
    )
    for path in (info, site):  # the same second as the first install on a coarse clock: move the times on
        stat = path.stat()
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert "dev" in _cache.cached_scan([str(site)]).plugins
