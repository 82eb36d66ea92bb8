"""Doc examples register ids: give each test a fresh host with the installed plugins."""

import pytest

from palaestra import PluginHost, use_host


@pytest.fixture
def isolated_registry():
    with use_host(PluginHost()):
        yield
