"""The core's folders are its layers, and every import goes to the same layer or below.

The table is written here once; docs/architecture.md shows it (a test below holds the page
to it). Imports under ``if TYPE_CHECKING:`` count too: a type an upper layer defines is a
dependency on that layer all the same.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core" / "src" / "palaestra"

# Lowest first. Each entry is a folder (a package, with everything in it) or a single module;
# "palaestra" is the package face alone (palaestra/__init__.py).
LAYERS = [
    ("leaves", ["palaestra.error", "palaestra.logger", "palaestra._base"]),
    ("installed", ["palaestra._discovery"]),
    ("spaces", ["palaestra.spaces"]),
    ("env", ["palaestra._env", "palaestra.experimental"]),
    ("vector", ["palaestra.vector"]),
    ("wrappers", ["palaestra.wrappers"]),
    ("tools", ["palaestra._tools"]),
    ("registry", ["palaestra._registry"]),
    ("plugins", ["palaestra._plugins", "palaestra.hookspecs"]),
    (
        "api",
        [
            "palaestra._api",
            "palaestra",
            "palaestra.plugin",
            "palaestra.core",
            "palaestra.utils",
            "palaestra.envs",
            "palaestra.cli",
        ],
    ),
]


def module_names():
    names = {}
    for path in CORE.rglob("*.py"):
        parts = path.relative_to(CORE.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def layer_of(module):
    """The index in LAYERS of the entry that holds ``module`` (the longest match), or None."""
    best, best_length = None, -1
    for index, (_, entries) in enumerate(LAYERS):
        for entry in entries:
            holds = module == entry or (entry != "palaestra" and module.startswith(entry + "."))
            if holds and len(entry) > best_length:
                best, best_length = index, len(entry)
    return best


def imports_of(path, names, type_checking=True):
    """Every core module a file imports: module level, in functions, and (unless told not to) for type checkers."""
    found = set()

    def owner(dotted):
        while dotted and dotted not in names:
            dotted = dotted.rpartition(".")[0]
        return dotted

    def visit(node):
        if not type_checking and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(owner(a.name) for a in node.names if a.name.split(".")[0] == "palaestra")
        elif (
            isinstance(node, ast.ImportFrom)
            and not node.level
            and (node.module or "").split(".")[0] == "palaestra"
        ):
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(owner(full if full in names else node.module))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text()))
    found.discard("")
    return found


def upward_imports():
    names = module_names()
    found = []
    for module, path in sorted(names.items()):
        mine = layer_of(module)
        for imported in sorted(imports_of(path, names) - {module}):
            theirs = layer_of(imported)
            if theirs > mine:
                found.append(f"{module} ({LAYERS[mine][0]}) imports {imported} ({LAYERS[theirs][0]})")
    return found


def test_every_core_module_belongs_to_a_layer():
    assert sorted(m for m in module_names() if layer_of(m) is None) == []


def test_no_import_goes_to_a_higher_layer():
    assert upward_imports() == []


def test_the_folders_are_the_layers():
    """Each folder of the core sits in one layer: none holds modules of two."""
    names = module_names()
    for module in names:
        package = module.rpartition(".")[0]
        if package and package != "palaestra":
            assert layer_of(module) == layer_of(package), f"{module} is not in its folder's layer"


def test_the_check_sees_type_checking_and_function_local_imports(tmp_path, monkeypatch):
    source = tmp_path / "spec.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from palaestra._registry._make import make_env\n"
        "def build():\n    import palaestra._plugins._host\n"
    )
    names = {"palaestra._registry._make": None, "palaestra._plugins._host": None}
    assert imports_of(source, names) == set(names)
    assert layer_of("palaestra._env._spec") < layer_of("palaestra._registry._make")
    assert layer_of("palaestra") == len(LAYERS) - 1 and layer_of("palaestra._env._core") == 3


def test_the_architecture_page_shows_this_table():
    page = (ROOT / "docs" / "architecture.md").read_text()
    rows = re.findall(r"^\| (\d+) \| ([a-z]+) \| ([^|]+) \|", page, re.M)
    shown = [(name, [entry.strip().strip("`") for entry in where.split(",")]) for _, name, where in rows]
    assert shown == [(name, entries) for name, entries in LAYERS]
    assert [int(n) for n, _, _ in rows] == list(range(1, len(LAYERS) + 1))


@pytest.mark.parametrize("layer", [name for name, _ in LAYERS])
def test_each_layer_is_named_once(layer):
    assert [name for name, _ in LAYERS].count(layer) == 1


def cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def connect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            connect(v)
    return found


def test_the_core_has_no_import_cycle_at_run_time():
    """Within a layer too: imports that run (type-only ones left out) form no circle."""
    names = module_names()
    graph = {name: imports_of(path, names, type_checking=False) - {name} for name, path in names.items()}
    assert cycles(graph) == []


def test_the_check_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


#: Type-only imports that name each other by design: an env carries the spec it was made
#: from, and a spec's ``make`` returns an env. Neither imports the other at run time.
TYPE_PAIRS = [["palaestra._env._core", "palaestra._env._spec"]]


def test_the_core_has_no_import_cycle_type_imports_included():
    """Splitting a file must not make a circle, even one only a type checker follows."""
    names = module_names()
    graph = {name: imports_of(path, names) - {name} for name, path in names.items()}
    assert cycles(graph) == TYPE_PAIRS
