"""Facts written in more than one place agree: where a copy must exist, a test holds it to the source."""

import dataclasses
import inspect
from pathlib import Path

import pytest
import tomllib

import palaestra
from palaestra._discovery._suites import REFERENCE_SUITES

ROOT = Path(__file__).resolve().parents[2]


def declared_suites(folder):
    """Each namespace a plugin's pyproject claims, with the default-namespace names it declares for it."""
    project = tomllib.loads((folder / "pyproject.toml").read_text())["project"]
    entry_points = project.get("entry-points", {})
    ids = entry_points.get("palaestra.env_ids", {})
    return project["name"], {
        namespace: frozenset(
            palaestra.envs.registration.parse_env_id(env_id)[1]
            for env_id, owner in ids.items()
            if owner.partition(":")[0] == namespace and "/" not in env_id
        )
        for namespace in entry_points.get("palaestra.plugins", {})
    }


def declared_ids(folder):
    """The env ids a plugin's pyproject declares (wildcards ``ns/*`` included)."""
    project = tomllib.loads((folder / "pyproject.toml").read_text())["project"]
    return set(project.get("entry-points", {}).get("palaestra.env_ids", {}))


# Packages under plugins/ that add no plugin: EnvPool's interface is a client of the user API.
CLIENT_LAYERS = {"envpool"}


def test_only_the_client_layers_declare_no_plugin():
    without = {folder.name for folder in (ROOT / "plugins").iterdir() if not declared_suites(folder)[1]}
    assert without == CLIENT_LAYERS


@pytest.mark.parametrize(
    "folder",
    sorted(folder for folder in (ROOT / "plugins").iterdir() if folder.name not in CLIENT_LAYERS),
    ids=lambda p: p.name,
)
def test_the_published_suites_table_matches_each_plugins_declarations(folder):
    distribution, suites = declared_suites(folder)
    assert suites, f"{folder.name} declares no palaestra.plugins entry point"
    core = tomllib.loads((ROOT / "core" / "pyproject.toml").read_text())["project"]
    for namespace, names in suites.items():
        assert namespace in REFERENCE_SUITES, (
            f"{namespace} is missing from _suites.REFERENCE_SUITES (install hints)"
        )
        extra, listed_distribution, listed_names = REFERENCE_SUITES[namespace]
        assert listed_distribution == distribution
        assert listed_names == names
        assert any(dep.startswith(distribution) for dep in core["optional-dependencies"][extra])


def test_register_takes_every_field_of_envspec():
    # The order is Gymnasium's register() signature, which puts kwargs after the wrappers.
    fields = {f.name for f in dataclasses.fields(palaestra.EnvSpec) if f.init}
    parameters = inspect.signature(palaestra.register).parameters.values()
    # Besides them, **unknown: a misspelt field is named with the fields register takes.
    assert {p.name for p in parameters if p.kind is not p.VAR_KEYWORD} == fields


@pytest.mark.needs_plugins
@pytest.mark.parametrize("folder", sorted((ROOT / "plugins").iterdir()), ids=lambda p: p.name)
def test_each_suite_declares_exactly_the_ids_it_registers(folder):
    host = palaestra.PluginHost()
    distribution, suites = declared_suites(folder)
    for namespace in suites:
        host.loader.load_namespace(namespace)
    registered = {env_id for env_id in host.registry.loaded() if host.registry.owner(env_id) == distribution}
    declared = declared_ids(folder)
    wildcards = {env_id for env_id in declared if env_id.endswith("/*")}
    assert registered == declared - wildcards, distribution
    # What is declared is what the registry lists without importing the plugin.
    listed = {env_id for env_id, ns in palaestra.PluginHost().registry.groups().items() if ns in suites}
    assert listed == declared - wildcards


def test_ids_are_split_and_built_only_by_the_id_module():
    """How an id divides into namespace, name and version is written once: ``_base/_ids.py``.

    The core splits ids with its functions; plugins with the kit's ``parse_env_id``,
    ``get_env_id`` and ``namespace_of``, never by hand (``split("/")``, ``f"...-v{version}"``).
    """
    import re

    by_hand = re.compile(r"""(r?partition|split)\(\s*["']/["']|-v\{""")
    sources = [
        path
        for folder in ("core/src/palaestra", *(f"plugins/{p.name}/src" for p in (ROOT / "plugins").iterdir()))
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path.name != "_ids.py" and "build" not in path.relative_to(ROOT).parts
    ]
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sources
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if by_hand.search(line)
    ]
    assert found == [], "split and build ids with the kit's parse_env_id, get_env_id, namespace_of"


def test_no_source_file_is_over_600_lines():
    """Small, cohesive modules (CONTRIBUTING.md's house rules)."""
    long = [
        f"{path.relative_to(ROOT)}: {count}"
        for folder in ("core/src", *(f"plugins/{p.name}/src" for p in (ROOT / "plugins").iterdir()))
        for path in sorted((ROOT / folder).rglob("*.py"))
        if (count := len(path.read_text().splitlines())) > 600
    ]
    assert long == []
