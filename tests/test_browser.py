"""The committed HTML reports and the documentation site, opened in a real browser.

Each page is served on localhost and loaded in headless Chromium (driven through
ChromeDriver, one browser for all pages): a report at a desktop and at a phone
width, a page of the site at a phone width.  A page passes when every image
on it has loaded, the browser logged no error (a failed request, a script error),
the page does not scroll sideways, and every table either fits its box or sits in
a box that scrolls sideways.

Chromium and ChromeDriver come from the system's packages (Debian:
``apt-get install chromium chromium-driver``), which ``.ci/run`` installs.  Where
they are missing the tests skip, unless ``OHHELL_REQUIRE_BROWSER=1`` (set by
``.ci/run``) makes that a failure.  The documentation site is built here with
``mkdocs build --strict`` (the ``docs`` extra).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REPORTS = sorted(p.parent for p in (ROOT / "reports").glob("*/report.html"))
#: The site's address of each page under ``docs/`` (directory URLs, as MkDocs writes them).
DOC_PAGES = sorted(
    "" if p.name == "index.md" else p.relative_to(ROOT / "docs").with_suffix("").as_posix() + "/"
    for p in (ROOT / "docs").rglob("*.md")
)
#: Window widths, in CSS pixels: a desktop and a phone.
DESKTOP, PHONE = 1280, 390
#: The flags without which headless Chromium reaches out of a closed network (and is refused).
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
INSTALL = "apt-get install chromium chromium-driver (Debian; .ci/run installs them)"

#: What a page shows, read in the browser: images that did not load, sideways
#: overflow of the page, and tables that overflow a box that does not scroll.
PAGE_CHECK = r"""
const problems = [];
const images = Array.from(document.images);
for (const img of images) {
  if (!img.complete || img.naturalWidth === 0) {
    problems.push('image not loaded: ' + (img.alt || img.src).slice(0, 80));
  }
}
const root = document.documentElement;
if (root.scrollWidth > root.clientWidth) {
  problems.push(`page scrolls sideways: ${root.scrollWidth} px wide in ${root.clientWidth} px`);
}
const tables = document.querySelectorAll('table');
const scrolls = (box) => ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
tables.forEach((table, i) => {
  const name = `table ${i + 1} (${table.textContent.trim().slice(0, 40)})`;
  const box = table.parentElement;
  if (table.scrollWidth > table.clientWidth && !scrolls(table)) {
    problems.push(`${name} is cut: ${table.scrollWidth} px shown in ${table.clientWidth} px`);
  }
  // Wider than its box, it must sit in a box that scrolls and that is on the screen.
  if (table.getBoundingClientRect().right > box.getBoundingClientRect().right + 0.5) {
    let scroller = table;
    while (scroller && scroller !== document.body && !scrolls(scroller)) {
      scroller = scroller.parentElement;
    }
    const edge = scroller && scroller.getBoundingClientRect();
    if (scroller === document.body || !scroller) {
      problems.push(`${name} overflows <${box.tagName.toLowerCase()} class="${box.className}">`
        + ` and nothing around it scrolls`);
    } else if (edge.left < 0 || edge.right > root.clientWidth + 0.5) {
      problems.push(`${name} scrolls in a box wider than the window`);
    }
  }
});
return {problems: problems, images: images.length, tables: tables.length};
"""


class _Handler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass

    def do_GET(self):
        # A browser asks every host for /favicon.ico; a report opened from disk does not.
        if self.path == "/favicon.ico":
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on localhost in a thread; yields its address, ending in ``/``."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=folder))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _missing(reason: str):
    if os.environ.get("OHHELL_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (OHHELL_REQUIRE_BROWSER=1)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for every page of this file, its console log kept."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not (chromium and driver_path):
        _missing(f"headless Chromium and ChromeDriver not found: {INSTALL}")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing('selenium is not installed: pip install -e ".[dev]"')
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    with tempfile.TemporaryDirectory() as profile:
        options.add_argument(f"--user-data-dir={profile}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(options=options, service=Service(driver_path))
        try:
            yield driver
        finally:
            driver.quit()


def page_problems(driver, url: str, widths: tuple[int, ...]) -> tuple[list[str], int]:
    """What is wrong with the page at ``url`` at each window width, and its image count.

    The page loads once, at the first width, and is laid out again at each other one.
    """
    problems = []
    for k, width in enumerate(widths):
        driver.set_window_size(width, 900)
        if k == 0:
            driver.get(url)  # returns once the page and its images have loaded
        seen = driver.execute_script(PAGE_CHECK)
        problems += [f"{width} px: {p}" for p in seen["problems"]]
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    problems += [f"console error: {e}" for e in errors]
    return problems, seen["images"]


@pytest.fixture(scope="module")
def reports_address():
    with serve(ROOT / "reports") as address:
        yield address


@pytest.fixture(scope="module")
def site_address(tmp_path_factory):
    """The documentation site, built now as CI builds it, served on localhost."""
    if importlib.util.find_spec("mkdocs") is None:
        _missing('mkdocs is not installed: pip install -e ".[docs]"')
    site = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=True,
    )
    with serve(site) as address:
        yield address


@pytest.mark.parametrize("folder", REPORTS, ids=lambda p: p.name)
def test_report_page_shows_every_figure_and_table(browser, reports_address, folder):
    url = f"{reports_address}{folder.name}/report.html"
    problems, images = page_problems(browser, url, (DESKTOP, PHONE))
    assert problems == []
    # Every figure the report writes beside its Markdown is on the page.
    assert images == len(list(folder.glob("*.png"))) > 0


@pytest.mark.parametrize("page", DOC_PAGES, ids=lambda p: p or "index")
def test_docs_page_shows_every_image_and_table(browser, site_address, page):
    # The phone's column is where a table or a long line overflows first; the site's
    # stylesheet is the theme's, one for both widths (a desktop pass would double the time).
    problems, _ = page_problems(browser, site_address + page, (PHONE,))
    assert problems == []


BROKEN_PAGE = """<!doctype html><html><head><meta charset='utf-8'>
<meta name='viewport' content='width=device-width, initial-scale=1'></head><body>
<img alt='missing figure' src='missing.png'>
<div style='overflow-x:hidden'><table><tr><td>cut</td><td style='min-width:2000px'>x</td></tr>
</table></div>
<div style='overflow-x:auto'><table><tr><td style='min-width:2000px'>scrolls</td></tr></table></div>
<script>console.error('boom')</script>
<p style='width:1500px'>wide</p></body></html>"""


def test_the_check_finds_a_broken_page(browser, tmp_path):
    (tmp_path / "index.html").write_text(BROKEN_PAGE, encoding="utf-8")
    with serve(tmp_path) as address:
        problems, images = page_problems(browser, address, (PHONE,))
    assert images == 1
    assert len(problems) == 5, problems
    expected = ["image not loaded: missing figure", "page scrolls sideways", "table 1 (cutx)"]
    for part in expected:
        assert any(part in p for p in problems), (part, problems)
    assert sum("console error" in p for p in problems) == 2  # the image's 404 and the script
