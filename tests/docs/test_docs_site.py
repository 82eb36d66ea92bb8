"""The built docs: every env animated, galleries that load in a real browser, no broken link.

Needs the docs dependency group (``uvx nox -s docs`` installs it and runs this module) and,
for the browser test, Chromium (Debian's ``chromium`` package; ``.ci/run`` installs it).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

pytest.importorskip(
    "sphinx", reason="the docs group is not installed; `uvx nox -s docs` builds and tests the docs"
)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("docs")]

DOCS = Path(__file__).resolve().parents[2] / "docs"
sys.path.insert(0, str(DOCS / "_ext"))
from gallery import SCENES, picture_name  # noqa: E402


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The HTML docs, built with warnings as errors (the gallery renders, or reuses, its GIFs).

    ``PALAESTRA_DOCS_SITE`` names a site just built so (the docs session's), to test instead.
    """
    built = os.environ.get("PALAESTRA_DOCS_SITE")
    if built:
        return Path(built).resolve()
    out = tmp_path_factory.mktemp("html")
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-W", "-b", "html", str(DOCS), str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return out


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and (tag, name) in {("a", "href"), ("img", "src"), ("link", "href"), ("script", "src")}:
                self.targets.append(value)


def _gif_size(path):
    width, height = (
        int.from_bytes(path.read_bytes()[6:8], "little"),
        int.from_bytes(path.read_bytes()[8:10], "little"),
    )
    return width, height


def test_every_env_page_shows_its_animation_at_the_envs_own_size(site):
    gallery = site / "_static" / "gallery"
    for env_id in SCENES:
        thumb, full = gallery / f"{picture_name(env_id)}.gif", gallery / f"{picture_name(env_id)}-full.gif"
        assert thumb.read_bytes()[:6] == full.read_bytes()[:6] == b"GIF89a", env_id
        assert _gif_size(thumb)[0] == 240
    assert _gif_size(gallery / "CartPole-full.gif") == (600, 400)  # CartPole renders 600x400
    assert _gif_size(gallery / "Hopper-full.gif") == (480, 480)  # MuJoCo's default frame
    for name, page in (("CartPole", "cartpole"), ("Taxi", "taxi"), ("Hopper", "hopper")):
        html = (site / "envs" / f"{page}.html").read_text()
        assert re.search(rf'<img [^>]*src="[^"]*{name}-full\.gif"', html), page
        assert "Version history" in html, page
    jax = (site / "envs" / "jax.html").read_text()
    assert "phys2d-CartPole.gif" in jax


def test_the_front_page_the_index_and_each_suite_page_show_a_thumbnail_grid(site):
    index = (site / "envs" / "index.html").read_text()
    thumbnails = re.findall(r'<a class="gallery-item" href="([a-z_0-9]+)\.html"><img src="([^"]+)"', index)
    assert {Path(src).stem for _, src in thumbnails} == {picture_name(i) for i in SCENES}
    for suite, count in (("classic_control", 5), ("toy_text", 5), ("box2d", 4), ("mujoco", 11), ("jax", 4)):
        html = (site / "envs" / f"{suite}.html").read_text()
        assert html.count('class="gallery-item"') == count, suite
    assert "toy_text.html" in index and "frozen_lake.html" in index
    front = (site / "index.html").read_text()
    cells = re.findall(
        r'<a class="gallery-item" href="envs/([a-z_0-9]+)\.html"><img src="_static/gallery/([^"]+)\.gif"',
        front,
    )
    assert {name for _, name in cells} == {picture_name(i) for i in SCENES}
    text = re.sub(r"<[^>]+>", "", front)  # code is highlighted span by span
    for words in ("Five lines", "import palaestra as gym", "pip install", "Where to go next"):
        assert words in text, words
    for page in ("migrating.html", "training-libraries.html", "plugins.html"):
        assert f'href="{page}"' in front, page


def test_the_sidebar_lists_each_env_page_once(site):
    html = (site / "envs" / "index.html").read_text()
    sidebar = html.split('class="sidebar-tree"', 1)[1].split("</div>", 1)[0]
    for page in ("blackjack", "taxi", "cliff_walking", "frozen_lake", "cartpole", "jax"):
        assert sidebar.count(f'href="{page}.html"') == 1, page


def test_no_local_link_or_image_is_broken(site):
    broken = []
    for page in site.rglob("*.html"):
        parser = _Links()
        parser.feed(page.read_text())
        for target in parser.targets:
            parts = urlsplit(target)
            if parts.scheme or target.startswith(("#", "//")) or not parts.path:
                continue
            if not (page.parent / unquote(parts.path)).resolve().exists():
                broken.append(f"{page.relative_to(site)} -> {target}")
    assert not broken, broken[:20]


def test_footer_names_the_copyright_holder_and_code_blocks_wrap(site):
    html = (site / "index.html").read_text()
    assert "the palaestra developers" in html
    css = (site / "_static" / "custom.css").read_text()
    assert "white-space: pre-wrap" in css and "overflow-x: auto" in css


_REPORT_OVERFLOW = """<script>
window.addEventListener("load", () => {
  const wide = [...document.querySelectorAll(".highlight pre")]
    .filter((pre) => pre.scrollWidth > pre.clientWidth + 1)
    .map((pre) => pre.textContent.slice(0, 60));
  document.body.setAttribute("data-overflow", JSON.stringify(wide));
});
</script>"""


@pytest.mark.parametrize("page", ["index.html", "ray.html", "async.html", "getting-started.html"])
def test_no_code_block_hides_the_end_of_its_lines_in_chromium(site, tmp_path, page):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("Chromium is not installed (apt-get install chromium; .ci/run installs it)")
    original = site / page
    probe = original.with_name(f"{original.stem}-overflow-probe.html")
    probe.write_text(original.read_text().replace("</body>", _REPORT_OVERFLOW + "</body>"))
    try:
        run = _dump_dom(browser, probe, tmp_path)
    finally:
        probe.unlink()
    found = re.search(r'data-overflow="([^"]*)"', run.stdout)
    assert found, "the page never finished loading"
    assert json.loads(found.group(1).replace("&quot;", '"')) == []


def test_linkcheck_reports_nothing_broken(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "linkcheck", str(DOCS), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PALAESTRA_DOCS_SKIP_GALLERY": "1"},
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    results = [json.loads(line) for line in (tmp_path / "output.json").read_text().splitlines() if line]
    assert not [r for r in results if r["status"] == "broken"]


_REPORT_IMAGES = """<script>
window.addEventListener("load", () => {
  const images = [...document.images].map((i) => [i.getAttribute("src"), i.complete && i.naturalWidth > 0]);
  document.body.setAttribute("data-images", JSON.stringify(images));
});
</script>"""


def test_the_index_page_loads_every_image_in_chromium(site, tmp_path):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("Chromium is not installed (apt-get install chromium; .ci/run installs it)")
    page = site / "envs" / "index.html"
    probe = page.with_name("index-probe.html")
    html = page.read_text().replace('loading="lazy"', "")  # a headless viewport would defer them
    probe.write_text(html.replace("</body>", _REPORT_IMAGES + "</body>"))
    try:
        run = _dump_dom(browser, probe, tmp_path)
    finally:
        probe.unlink()  # the site may be the user's docs/_build/html
    assert run.returncode == 0, run.stderr[-2000:]
    found = re.search(r'data-images="([^"]*)"', run.stdout)
    assert found, "the page never finished loading"
    images = json.loads(found.group(1).replace("&quot;", '"'))
    assert len(images) >= len(SCENES)
    assert [src for src, loaded in images if not loaded] == []


def _dump_dom(browser, page, tmp_path):
    """Chromium's DOM of ``page`` once its images have loaded."""
    return subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--allow-file-access-from-files",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=15000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
