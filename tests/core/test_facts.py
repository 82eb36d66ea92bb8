"""Facts written in more than one place agree: where a copy must exist, a test holds it to the source."""

import dataclasses
import inspect
from pathlib import Path

import pytest
import tomllib

import palaestra
from palaestra._plugins._suites import REFERENCE_SUITES

ROOT = Path(__file__).resolve().parents[2]


def declared_suites(folder):
    """Each namespace a plugin's pyproject claims, with the default-namespace names it declares for it."""
    project = tomllib.loads((folder / "pyproject.toml").read_text())["project"]
    entry_points = project.get("entry-points", {})
    names = entry_points.get("palaestra.default_names", {})
    return project["name"], {
        namespace: frozenset(name for name, owner in names.items() if owner == namespace)
        for namespace in entry_points.get("palaestra.plugins", {})
    }


@pytest.mark.parametrize("folder", sorted((ROOT / "plugins").iterdir()), ids=lambda p: p.name)
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
    assert set(inspect.signature(palaestra.register).parameters) == fields


@pytest.mark.needs_plugins
def test_each_suites_declared_names_are_the_names_it_registers():
    registered = {}
    for env_id in palaestra.registry:
        spec = palaestra.registry[env_id]
        owner = palaestra.registry.owner(env_id)
        if spec.namespace is None and owner is not None:
            registered.setdefault(owner, set()).add(spec.name)
    for folder in sorted((ROOT / "plugins").iterdir()):
        distribution, suites = declared_suites(folder)
        names = set().union(*suites.values())
        assert registered.get(distribution, set()) == names, distribution
