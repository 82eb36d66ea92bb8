"""The Python examples of the wrapper guides run, in order, as one module per page."""

import re
import sys
import types
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = ["wrappers.md", "writing-wrappers.md", "snapshots.md"]


def python_blocks(page):
    return re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(), flags=re.DOTALL)


@pytest.mark.needs_plugins
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("page", PAGES)
def test_page_examples_run(page, tmp_path, monkeypatch, isolated_registry):
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks(page)
    assert len(blocks) >= 2, f"{page} has too few examples"
    # A real module, so classes defined in the examples have an importable entry point.
    module = types.ModuleType("doc_examples_" + re.sub(r"\W", "_", Path(page).stem))
    monkeypatch.setitem(sys.modules, module.__name__, module)
    for i, block in enumerate(blocks):
        try:
            exec(compile(block, f"{page}[block {i}]", "exec"), module.__dict__)
        except Exception as e:
            raise AssertionError(f"{page} example {i} failed: {type(e).__name__}: {e}\n{block}") from e


ENV_PAGES = sorted(p.name for p in (DOCS / "envs").glob("*.md") if "```python" in p.read_text())


@pytest.mark.needs_plugins
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("page", ENV_PAGES)
def test_env_page_examples_run(page, tmp_path, monkeypatch, isolated_registry):
    if page == "jax.md":
        pytest.importorskip(
            "jax", reason="the JAX suite's page runs its envs, which need jax (palaestra[jax])"
        )
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for i, block in enumerate(python_blocks(f"envs/{page}")):
        exec(compile(block, f"envs/{page}[block {i}]", "exec"), namespace)
