"""Every hook is documented, prefixed and registered under the project's name."""

import inspect
import types

import pluggy
import pytest

import palaestra
from palaestra import hookspecs


def hook_functions():
    return [
        fn for name, fn in inspect.getmembers(hookspecs, inspect.isfunction) if name.startswith("palaestra_")
    ]


def test_every_hook_is_documented_with_args_and_returns():
    hooks = hook_functions()
    assert hooks, "no hooks found"
    for fn in hooks:
        doc = inspect.getdoc(fn) or ""
        assert len(doc) > 200, f"{fn.__name__} is not documented"
        for param in inspect.signature(fn).parameters:
            assert f"{param}:" in doc, f"{fn.__name__} does not document parameter {param!r}"
        assert "Returns:" in doc, f"{fn.__name__} does not say what it returns"
        assert "historic" in doc.lower() or "first-result" in doc.lower(), fn.__name__


def test_every_public_hook_function_is_a_hookspec():
    for name in dir(hookspecs):
        obj = getattr(hookspecs, name)
        if callable(obj) and name.startswith("palaestra_"):
            assert hasattr(obj, "palaestra_spec"), name
    assert set(hookspecs.__all__) == {fn.__name__ for fn in hook_functions()}


IMPL_OPTIONS = [
    {},
    {"tryfirst": True},
    {"trylast": True, "optionalhook": True},
    {"specname": "palaestra_register_envs"},
    {"wrapper": True},
    {"hookwrapper": True},
]
SPEC_OPTIONS = [{}, {"firstresult": True}, {"historic": True}, {"warn_on_impl": DeprecationWarning("old")}]


def test_markers_use_the_project_name():
    assert palaestra.hookimpl.project_name == "palaestra"
    assert palaestra.hookspec.project_name == "palaestra"


@pytest.mark.parametrize("options", IMPL_OPTIONS)
def test_hookimpl_marks_what_pluggys_marker_marks(options):
    def ours():
        pass

    def theirs():
        pass

    palaestra.hookimpl(**options)(ours)
    pluggy.HookimplMarker("palaestra")(**options)(theirs)
    assert ours.palaestra_impl == theirs.palaestra_impl
    bare = palaestra.hookimpl(lambda: None)  # the undecorated-call form
    assert bare.palaestra_impl == pluggy.HookimplMarker("palaestra")(lambda: None).palaestra_impl


@pytest.mark.parametrize("options", SPEC_OPTIONS)
def test_hookspec_marks_what_pluggys_marker_marks(options):
    def ours():
        pass

    def theirs():
        pass

    palaestra.hookspec(**options)(ours)
    pluggy.HookspecMarker("palaestra")(**options)(theirs)
    assert ours.palaestra_spec == theirs.palaestra_spec


def test_historic_firstresult_spec_is_refused_as_pluggy_refuses_it():
    with pytest.raises(ValueError, match="cannot have a historic firstresult hook"):
        palaestra.hookspec(historic=True, firstresult=True)(lambda: None)


def test_pluggy_reads_palaestras_specs_and_marks():
    calls = []
    plugin = types.ModuleType("marked_plugin")

    @palaestra.hookimpl
    def palaestra_register_envs(registrar):
        calls.append(registrar)

    plugin.palaestra_register_envs = palaestra_register_envs
    manager = pluggy.PluginManager("palaestra")
    manager.add_hookspecs(hookspecs)
    manager.register(plugin)
    manager.check_pending()
    manager.hook.palaestra_register_envs(registrar="r")
    assert calls == ["r"]
    assert {"palaestra_register_envs", "palaestra_resolve_env"} <= set(vars(manager.hook))


def test_hooks_are_documented_in_the_plugin_guide():
    from pathlib import Path

    guide = (Path(__file__).parents[2] / "docs" / "plugins.md").read_text()
    for fn in hook_functions():
        assert fn.__name__ in guide
