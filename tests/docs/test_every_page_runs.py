"""Every Python block of the README and the user guide runs as written, page by page.

The blocks of one page run in order in one namespace, from an empty folder. Pages whose
blocks are checked elsewhere are left to those tests: the wrapper guides and snapshots
(``test_doc_examples.py``, as modules), the env pages (same file) and the files of the
plugin guide's complete example (``test_plugin_example.py`` builds and installs them). A block may be left out only when it
needs a display or a cluster, said in an HTML comment on the line before it
(``<!-- not run: starts a Ray cluster ... -->``); a block that needs an optional package
which is not installed (Stable-Baselines3, torch) skips, naming it.
"""

import re
import sys
import types
from pathlib import Path

import pytest

from palaestra.error import DependencyNotInstalled

ROOT = Path(__file__).resolve().parents[2]
ELSEWHERE = {"wrappers.md", "writing-wrappers.md", "snapshots.md"}
# The plugin guide's package files, built and installed by test_plugin_example.py.
PACKAGE_SECTION = ("plugins.md", "## A complete example", "## Hooks")
PAGES = [ROOT / "README.md", *(p for p in sorted((ROOT / "docs").glob("*.md")) if p.name not in ELSEWHERE)]
BLOCK = re.compile(r"(?:<!-- not run: (?P<reason>[^>]*?) -->\n)?```python\n(?P<code>.*?)```", re.DOTALL)
OPTIONAL = {"stable_baselines3", "torch", "torchrl", "tianshou", "skrl", "ray"}


def blocks(page: Path) -> list[tuple[str | None, str]]:
    """``(reason left out, or None; code)`` of each Python block of ``page`` this test runs."""
    text = page.read_text()
    skipped = range(0)
    if page.name == PACKAGE_SECTION[0]:
        skipped = range(text.index(PACKAGE_SECTION[1]), text.index(PACKAGE_SECTION[2]))
    return [(m.group("reason"), m.group("code")) for m in BLOCK.finditer(text) if m.start() not in skipped]


# Pages whose blocks need what .ci/run installs after the quick start: run again there.
NEEDS_EXTRAS = {"training-libraries.md"}


@pytest.mark.needs_plugins
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize(
    "page",
    [
        pytest.param(p, id=p.name, marks=[pytest.mark.extras] if p.name in NEEDS_EXTRAS else [])
        for p in PAGES
        if blocks(p)
    ],
)
def test_the_pages_python_runs_as_written(page, tmp_path, monkeypatch, isolated_registry):
    monkeypatch.chdir(tmp_path)
    module = types.ModuleType("doc_page_" + re.sub(r"\W", "_", page.stem))
    monkeypatch.setitem(sys.modules, module.__name__, module)
    for i, (reason, code) in enumerate(blocks(page)):
        if reason is not None:
            assert "display" in reason or "cluster" in reason, f"{page.name} block {i} left out: {reason!r}"
            continue
        try:
            exec(compile(code, f"{page.name}[block {i}]", "exec"), module.__dict__)
        except (ModuleNotFoundError, DependencyNotInstalled) as e:
            missing = getattr(e, "name", None) or str(e)
            if any(name in str(missing) for name in OPTIONAL):
                pytest.skip(f"{page.name} block {i} needs {missing}, which is not installed here")
            raise AssertionError(f"{page.name} block {i} failed: {type(e).__name__}: {e}\n{code}") from e
        except Exception as e:
            raise AssertionError(f"{page.name} block {i} failed: {type(e).__name__}: {e}\n{code}") from e
