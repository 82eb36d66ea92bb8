"""Fixtures for plugin-host tests: a sandbox directory of fake distributions."""

from __future__ import annotations

import importlib
import sys

import pytest

from palaestra import PluginHost, use_host
from tests.fixtures.fake_dists import GOOD_ENV, hooks_source, make_dist


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A fresh site directory on sys.path; modules imported from it are forgotten afterwards."""
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    before = set(sys.modules)
    yield root
    for name in set(sys.modules) - before:
        module = sys.modules.get(name)
        if module is not None and str(getattr(module, "__file__", "") or "").startswith(str(root)):
            del sys.modules[name]
    importlib.invalidate_caches()


@pytest.fixture
def sandbox(site, monkeypatch):
    """Return a factory for hosts that discover only the fake distributions in ``site``."""
    monkeypatch.delenv("PALAESTRA_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    monkeypatch.delenv("PALAESTRA_PLUGINS", raising=False)

    def factory(**kwargs):
        return PluginHost(search_path=[str(site)], **kwargs)

    return factory


@pytest.fixture
def grid_dist(site):
    """A well-behaved third-party plugin with namespace ``grid``."""
    make_dist(
        site,
        "grid-envs",
        {"grid": "grid_envs._hooks"},
        {
            "grid_envs._hooks": hooks_source(
                'registrar.register("Counter-v0", entry_point="grid_envs.counter:CounterEnv",'
                " max_episode_steps=20)\n"
                'registrar.register("Bounded-v1", entry_point="grid_envs.counter:CounterEnv",'
                ' kwargs={"limit": 8})'
            ),
            "grid_envs.counter": GOOD_ENV,
        },
    )
    return site


@pytest.fixture
def isolated(sandbox):
    """A sandboxed host installed as the default host for the test."""
    host = sandbox()
    with use_host(host):
        yield host
