"""The core's modules import in one direction: no cycle, function-local imports included.

Imports under ``if TYPE_CHECKING:`` are left out (they never run).
"""

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "core" / "src" / "palaestra"


def module_names():
    names = {}
    for path in CORE.rglob("*.py"):
        parts = path.relative_to(CORE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        names[name] = path
    return names


def imports_of(path, names):
    """The core modules a file imports at run time (module level and inside functions)."""
    found = set()

    def owner(dotted):
        while dotted and dotted not in names:
            dotted = dotted.rpartition(".")[0]
        return dotted

    def visit(node):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(owner(a.name) for a in node.names if a.name.startswith("palaestra"))
        elif (
            isinstance(node, ast.ImportFrom)
            and not node.level
            and (node.module or "").startswith("palaestra")
        ):
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(owner(full if full in names else node.module))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text()))
    found.discard("")
    return found


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


def test_the_core_has_no_import_cycle():
    names = module_names()
    graph = {name: imports_of(path, names) - {name} for name, path in names.items()}
    assert cycles(graph) == []


def test_the_check_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
