"""The registry's seams: a passive store, a three-method provider, and a write judge.

The registry asks for ids it lacks only through ``Provider`` (``provide``, ``declared_ids``,
``declared``) and has every write from outside a plugin's loading judged by the
``authorize`` callable it was handed; the store below it asks no one.
"""

import ast
import inspect
import textwrap
import warnings
from pathlib import Path

import pytest

from palaestra import EnvSpec
from palaestra._base._ids import EnvId
from palaestra._registry import _registry, _store
from palaestra._registry._registry import Provider, Registry
from palaestra._registry._store import SpecStore
from palaestra.error import RegistrationError


class RecordingProvider:
    """Provides ``ns/Made-v0`` on demand; declares ``ns/Made-v0`` and ``Listed-v1``; records each call."""

    def __init__(self, store):
        self.store = store
        self.calls = []

    def provide(self, env_id):
        self.calls.append(("provide", env_id))
        if env_id.text == "ns/Made-v0":
            self.store.add(EnvSpec("ns/Made-v0", entry_point="m:E"), "made-dist")

    def declared_ids(self):
        self.calls.append(("declared_ids",))
        return {"ns/Made-v0": "ns", "Listed-v1": "listed"}

    def declared(self, env_id):
        self.calls.append(("declared", env_id))
        return {"ns/Made-v0": True, "Nope-v0": False}.get(env_id)


@pytest.fixture
def wired():
    store = SpecStore()
    provider = RecordingProvider(store)
    judged = []

    def authorize(env_id):
        judged.append(env_id)
        if env_id.startswith("theirs/"):
            raise RegistrationError(f"{env_id!r} is not yours")
        return None

    return Registry(store, provider, authorize), store, provider, judged


def test_the_provider_protocol_has_three_methods():
    methods = [
        name for name, _ in inspect.getmembers(Provider, inspect.isfunction) if not name.startswith("_")
    ]
    assert sorted(methods) == ["declared", "declared_ids", "provide"]


def test_a_missing_id_is_asked_of_the_provider_once_with_its_parts(wired):
    registry, store, provider, _ = wired
    spec = registry.find_spec("ns/Made-v0")
    assert spec is store.specs["ns/Made-v0"]
    assert provider.calls == [("provide", EnvId("ns/Made-v0", "ns", "Made", 0))]
    provider.calls.clear()
    assert registry["ns/Made-v0"] is spec  # stored now: the provider is not asked again
    assert provider.calls == []


def test_getitem_of_an_id_nobody_provides_raises_keyerror_after_asking(wired):
    registry, _, provider, _ = wired
    with pytest.raises(KeyError, match="ns/Other-v0"):
        registry["ns/Other-v0"]
    assert provider.calls == [("provide", EnvId("ns/Other-v0", "ns", "Other", 0))]


def test_a_malformed_id_is_never_asked_of_the_provider(wired):
    registry, _, provider, _ = wired
    with pytest.raises(KeyError):
        registry["not an id!"]
    assert provider.calls == []


def test_listing_and_membership_ask_the_declarations_not_provide(wired):
    registry, _, provider, _ = wired
    assert list(registry) == ["ns/Made-v0", "Listed-v1"]
    assert "ns/Made-v0" in registry
    assert "Nope-v0" not in registry
    assert all(call[0] != "provide" for call in provider.calls)
    assert registry.groups() == {"ns/Made-v0": "ns", "Listed-v1": "listed"}


def test_user_writes_are_judged_and_a_refused_write_changes_nothing(wired):
    registry, store, _, judged = wired
    registry.add(EnvSpec("Mine-v0", entry_point="m:E"))
    registry["Other-v0"] = EnvSpec("Other-v0", entry_point="m:E")
    del registry["Other-v0"]
    assert judged == ["Mine-v0", "Other-v0", "Other-v0"]
    assert list(store.specs) == ["Mine-v0"]
    with pytest.raises(RegistrationError, match="'theirs/X-v0' is not yours"):
        registry.add(EnvSpec("theirs/X-v0", entry_point="m:E"))
    assert "theirs/X-v0" not in store.specs


def test_a_registry_without_a_provider_is_a_plain_mapping():
    registry = Registry()
    registry["A-v0"] = EnvSpec("A-v0", entry_point="m:E")
    assert dict(registry) == {"A-v0": registry.store.specs["A-v0"]}
    assert "B-v0" not in registry
    with pytest.raises(KeyError):
        registry["B-v0"]


def test_the_store_keeps_owners_and_versions_and_refuses_mixing_them():
    store = SpecStore()
    store.add(EnvSpec("ns/W-v1", entry_point="m:E"), "dist-a")
    store.add(EnvSpec("ns/W-v3", entry_point="m:E"), None)
    assert store.owner("ns/W-v1") == "dist-a"
    assert store.owner("ns/W-v3") is None
    assert store.highest_version("ns", "W") == 3
    with pytest.raises(RegistrationError, match="Can't register the unversioned environment `ns/W`"):
        store.add(EnvSpec("ns/W", entry_point="m:E"), None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        store.add(EnvSpec("ns/W-v3", entry_point="m:F"), "dist-b")
    assert "Overriding environment ns/W-v3 already in registry." in str(caught[0].message)
    assert store.owner("ns/W-v3") == "dist-b"
    store.remove("ns/W-v3")
    assert store.highest_version("ns", "W") == 1
    assert store.owner("ns/W-v3") is None


@pytest.mark.parametrize("module", [_store, _registry])
def test_the_store_and_the_registry_import_nothing_of_the_plugin_machinery(module):
    tree = ast.parse(Path(module.__file__).read_text())
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module is not None
    } | {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not {name for name in imported if name.startswith(("palaestra._plugins", "palaestra._discovery"))}


# -- the plugin side of the walk: the loader loads, the authority judges and stores -------

PLUGINS = Path(_registry.__file__).resolve().parents[1] / "_plugins"


def _store_writes(path):
    """Calls of the store's writing methods (``add``, ``put``, ``remove``) on a ``store`` attribute."""
    return [
        ast.unparse(node)
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in {"add", "put", "remove"}
        and "store" in ast.unparse(node.func.value)
    ]


def test_the_loader_never_writes_the_store_the_authority_does():
    assert _store_writes(PLUGINS / "_loading.py") == []
    assert _store_writes(PLUGINS / "_authority.py") == ["self.store.add(spec, record.distribution)"]


def _forwards(cls):
    """Methods and properties of ``cls`` whose whole body hands the call to one of its parts."""
    found = []
    for name, member in vars(cls).items():
        function = member.fget if isinstance(member, property) else member
        if not inspect.isfunction(function):
            continue
        body = ast.parse(textwrap.dedent(inspect.getsource(function))).body[0].body
        body = [n for n in body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
        if len(body) == 1 and isinstance(body[0], (ast.Return, ast.Expr)) and body[0].value is not None:
            text = ast.unparse(body[0].value)
            if text.startswith("self.") and text.count("self.") == 1:
                found.append(name)
    return found


def test_the_host_has_no_pass_throughs_and_hands_out_its_parts():
    import palaestra
    from palaestra._plugins._hints import LookupHints

    assert _forwards(palaestra.PluginHost) == []
    host = palaestra.PluginHost(autoload=False)
    assert isinstance(host.hints, LookupHints)
    assert host.registry._hints is host.hints and host.registry._provider is host.loader


def test_the_forwarding_check_finds_a_forward():
    class Host:
        def table(self):
            """A forward."""
            return self.installed.table

        def own(self):
            return {k: v for k, v in self.installed.table.items() if self.loader.loaded}

    assert _forwards(Host) == ["table"]
