"""The examples of docs/ray.md run, in order, on the test Ray instance."""

import re
import sys
import types
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[3] / "docs" / "ray.md"


@pytest.mark.usefixtures("ray_cluster")
def test_ray_page_examples_run(monkeypatch):
    import ray.cloudpickle

    # ```python blocks run; ```py blocks (joining a real cluster) are illustrations.
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.DOTALL)
    assert len(blocks) == 3
    module = types.ModuleType("doc_examples_ray")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    # Classes the examples define travel to the actors by value, as from a script.
    ray.cloudpickle.register_pickle_by_value(module)
    try:
        for i, block in enumerate(blocks):
            exec(compile(block, f"ray.md[block {i}]", "exec"), module.__dict__)
    finally:
        ray.cloudpickle.unregister_pickle_by_value(module)
