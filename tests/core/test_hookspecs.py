"""Every hook is documented, prefixed and registered under the project's name."""

import inspect

import pluggy

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


def test_markers_use_the_project_name():
    assert isinstance(palaestra.hookimpl, pluggy.HookimplMarker)
    assert palaestra.hookimpl.project_name == "palaestra"
    assert palaestra.hookspec.project_name == "palaestra"


def test_hooks_are_documented_in_the_plugin_guide():
    from pathlib import Path

    guide = (Path(__file__).parents[2] / "docs" / "plugins.md").read_text()
    for fn in hook_functions():
        assert fn.__name__ in guide
