"""Every lazy seam of the core says why it is lazy: an optional dependency, or a measured start-up cost.

An import inside a function, or a module ``__getattr__``, makes code harder to follow; it is
kept only where it defers an optional dependency or spares a first step a cost that
``benchmarks/bench_lazy_seams.py`` measures (docs/architecture.md, "Lazy seams"), and a
comment on the import (or on the line before it) says which.
"""

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "core" / "src" / "palaestra"
MARKS = ("# optional dependency", "# start-up", "# Not a start-up seam")


def _said(lines, first, last):
    """Whether lines ``first..last`` (1-based) of an import, or the comment just above, carry a mark."""
    if any(mark in line for line in lines[first - 1 : last] for mark in MARKS):
        return True
    above = first - 2
    while above >= 0 and lines[above].strip().startswith(("import ", "from ")):
        above -= 1  # one comment may head a group of imports
    while above >= 0 and lines[above].strip().startswith("#"):
        if any(mark in lines[above] for mark in MARKS):
            return True
        above -= 1
    return False


def unexplained(path):
    """The function-local imports and module ``__getattr__`` of ``path`` that do not say why."""
    source = path.read_text()
    lines = source.splitlines()
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if node in tree.body and node.name == "__getattr__" and not _said(lines, node.lineno, node.lineno):
            found.append(f"{path.name}:{node.lineno}: module __getattr__")
        for inner in ast.walk(node):
            if isinstance(inner, (ast.Import, ast.ImportFrom)) and not _said(
                lines, inner.lineno, inner.end_lineno
            ):
                found.append(f"{path.name}:{inner.lineno}: {lines[inner.lineno - 1].strip()}")
    return found


@pytest.mark.parametrize("path", sorted(CORE.rglob("*.py")), ids=lambda p: str(p.relative_to(CORE)))
def test_every_lazy_seam_says_why(path):
    assert unexplained(path) == []


def test_the_check_finds_an_unexplained_seam(tmp_path):
    source = tmp_path / "module.py"
    source.write_text(
        "def f():\n    import json\n\n"
        "def g():\n    import pygame  # optional dependency: pygame\n\n"
        "def h():\n    # start-up: the vector package (38 ms)\n    import a\n    import b\n\n"
        "def __getattr__(name):\n    raise AttributeError(name)\n"
    )
    assert unexplained(source) == ["module.py:2: import json", "module.py:12: module __getattr__"]


def test_the_timeout_error_is_no_seam():
    """``palaestra.error`` defines every class at import, VectorTimeoutError too."""
    import palaestra.error

    assert "__getattr__" not in vars(palaestra.error)
