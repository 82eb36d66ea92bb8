"""The plugin kit is what plugins build on: first-party plugins use no private core name."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import palaestra
from palaestra import plugin

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "plugins").glob("*/src/**/*.py"))


def private_core_imports(path):
    """Imports of a private core module, or of a private name from the core, in one file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "palaestra":
            if any(part.startswith("_") for part in node.module.split(".")):
                found.append(node.module)
            found += [f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "palaestra" and "._" in a.name]
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT / "plugins")))
def test_first_party_plugins_import_only_public_core_names(path):
    assert private_core_imports(path) == [], "import it from palaestra.plugin (add it there if missing)"


def test_the_check_notices_a_private_import(tmp_path):
    source = tmp_path / "bad.py"
    source.write_text("from palaestra.vector._info import add_info\nfrom palaestra.vector import _secret\n")
    assert private_core_imports(source) == ["palaestra.vector._info", "palaestra.vector._secret"]


def test_every_kit_name_resolves_and_is_documented():
    for name in plugin.__all__:
        value = getattr(plugin, name)
        assert value is not None, name
        assert name in plugin.__doc__, f"{name} is not named in the kit's docstring"
    assert plugin.EnvRegistrar is palaestra.plugin.EnvRegistrar
    assert set(dir(plugin)) >= set(plugin.__all__)
    with pytest.raises(AttributeError):
        plugin.no_such_name  # noqa: B018


def test_importing_the_kit_for_annotations_is_cheap():
    code = "import sys, palaestra.plugin; print(sorted(m for m in ('numpy', 'pygame', 'pluggy') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "[]", result.stderr


def test_hook_implementations_are_typed():
    for path in sorted((ROOT / "plugins").glob("*/src/**/*hooks*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("palaestra_"):
                assert node.returns is not None and all(a.annotation is not None for a in node.args.args), (
                    f"{path.name}:{node.name} is not fully typed"
                )


def test_lazy_exports_import_a_name_s_module_on_first_use_and_keep_it():
    namespace = {"__name__": "palaestra.spaces"}
    module_getattr = plugin.lazy_exports(namespace, {"Box": "_box"})
    assert "Box" not in namespace
    box = module_getattr("Box")
    assert box is sys.modules["palaestra.spaces._box"].Box
    assert namespace["Box"] is box  # later lookups never reach __getattr__ again
    with pytest.raises(AttributeError, match="module 'palaestra.spaces' has no attribute 'Bogus'"):
        module_getattr("Bogus")
