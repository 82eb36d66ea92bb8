"""Every speed claim in the README and the docs names the benchmark that measured it.

A claim is a ratio (``1.3x``, ``3.2-3.4x``) or a "faster than"; the section it sits in (text
between two headings) must name a script in ``benchmarks/`` that exists, or link to a page
that does, and the page must say on what machine ("2-core").
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
CLAIM = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?x(?![\w\d])|\bfaster than\b|\btimes as fast\b")
BENCHMARK = re.compile(r"benchmarks/(bench_\w+\.py)")
LINK = re.compile(r"\{doc\}`(?:[^`<]*<)?([\w./-]+)>?`")


def sections(text):
    return re.split(r"\n#+ ", text)


def names_benchmark(page, section):
    named = BENCHMARK.findall(section)
    if named:
        return all((ROOT / "benchmarks" / name).exists() for name in named)
    for target in LINK.findall(section):
        linked = (page.parent / f"{target}.md").resolve()
        if linked.exists() and BENCHMARK.search(linked.read_text()):
            return True
    return False


def claims():
    for page in PAGES:
        for section in sections(page.read_text()):
            if CLAIM.search(section):
                yield pytest.param(
                    page, section, id=f"{page.relative_to(ROOT)}:{section.splitlines()[0][:40]}"
                )


@pytest.mark.parametrize(("page", "section"), list(claims()))
def test_each_speed_claim_names_its_benchmark_and_machine(page, section):
    assert names_benchmark(page, section), (
        f"{page.name}: a speed claim without its benchmark: {CLAIM.search(section).group(0)!r}"
    )
    text = page.read_text()
    linked = [(page.parent / f"{t}.md").resolve() for t in LINK.findall(section)]
    assert "2-core" in text or any(p.exists() and "2-core" in p.read_text() for p in linked), page.name
