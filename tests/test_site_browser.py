"""The documentation site: `mkdocs build --strict` passes, and every built page works in a browser.

The browser half opens every page in headless Chromium (Debian packages ``chromium`` and
``chromium-driver``, which ``make test`` installs when missing) over a local HTTP server and
asserts that the maths rendered (no raw ``$$``, ``\\(``, ``\\[`` or LaTeX command left in the
visible text, and every ``<math>`` element has a size), that every image loaded, and that the
console has no errors.  It saves a screenshot of the convergence-proof page to
``build/screenshots/convergence-proof.png``.

If Chromium is not installed the browser test FAILS with the reason (it never skips silently).
"""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "build" / "site-under-test"
SCREENSHOTS = ROOT / "build" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")

# Raw TeX that must never be visible: delimiters and any LaTeX command (outside code).
_RAW_TEX_SCRIPT = r"""
const skip = new Set(["PRE", "CODE", "SCRIPT", "STYLE", "MATH", "NOSCRIPT", "TEXTAREA"]);
const root = document.querySelector("article") || document.body;
const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
const found = [];
while (walker.nextNode()) {
  const node = walker.currentNode;
  let el = node.parentElement, inside = false;
  while (el && el !== root.parentElement) {
    if (skip.has(el.tagName.toUpperCase())) { inside = true; break; }
    el = el.parentElement;
  }
  if (inside) continue;
  const text = node.textContent;
  const m = text.match(/\$\$|\\\(|\\\)|\\\[|\\\]|\\[a-zA-Z]{2,}/);
  if (m) found.push(text.trim().slice(0, 120));
}
return found;
"""

_MATH_SIZES_SCRIPT = """
return Array.from(document.querySelectorAll("math")).map(m => {
  const r = m.getBoundingClientRect(); return [r.width, r.height, m.textContent.slice(0, 60)];
});
"""

_IMAGES_SCRIPT = """
return Array.from(document.images).map(i => [i.getAttribute("src"), i.complete, i.naturalWidth]);
"""


@pytest.fixture(scope="module")
def built_site() -> Path:
    """Build the site strictly into build/site-under-test (fails the test if the build fails)."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    completed = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(SITE)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    if completed.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{completed.stdout}\n{completed.stderr}")
    return SITE


def test_strict_build_produces_every_nav_page(built_site: Path) -> None:
    for page in ("index.html", "tutorial/index.html", "notes/convergence/index.html",
                 "notes/pla/index.html", "reference/cli/index.html", "reference/api/index.html",
                 "design/index.html"):
        assert (built_site / page).is_file(), page
    for figure in ("pla-walk.png", "growth-bounds.png", "cosine-bound.png", "update-counts.png",
                   "pocket-errors.png"):
        data = (built_site / "figures" / figure).read_bytes()
        assert data.startswith(b"\x89PNG"), figure


def test_built_pages_contain_no_unexpanded_machinery(built_site: Path) -> None:
    pages = list(built_site.rglob("*.html"))
    assert pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        # An unexpanded ```pla-run / ```pla-file block would be rendered as code of that language.
        assert "language-pla-run" not in text and "language-pla-file" not in text, page
        assert "<!-- pla: " not in text, page
        # Maths left for the browser would still sit between arithmatex delimiters.
        assert 'class="arithmatex">\\(' not in text and 'class="arithmatex">\\[' not in text, page


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        pass


@pytest.fixture(scope="module")
def site_url(built_site: Path):
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory):
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.fail(
            "BROWSER CHECK NOT RUN: /usr/bin/chromium or /usr/bin/chromedriver is missing. "
            "Install the Debian packages `chromium` and `chromium-driver` "
            "(`make test` does this with apt-get when it can)."
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1280,1000",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def _pages(site: Path) -> list[str]:
    pages = []
    for page in sorted(site.rglob("*.html")):
        relative = page.relative_to(site).as_posix()
        if relative == "404.html":
            continue
        pages.append(relative)
    return pages


def test_every_page_renders_in_chromium(built_site: Path, site_url: str, browser) -> None:
    pages = _pages(built_site)
    assert len(pages) >= 12, pages
    problems: list[str] = []
    math_pages = 0
    for relative in pages:
        browser.get(f"{site_url}/{relative}")
        browser.execute_script("return document.readyState")
        raw = browser.execute_script(_RAW_TEX_SCRIPT)
        if raw:
            problems.append(f"{relative}: raw TeX visible: {raw[:3]}")
        sizes = browser.execute_script(_MATH_SIZES_SCRIPT)
        if sizes:
            math_pages += 1
        for width, height, text in sizes:
            if width <= 0 or height <= 0:
                problems.append(f"{relative}: <math> not laid out ({text!r})")
                break
        for src, complete, natural_width in browser.execute_script(_IMAGES_SCRIPT):
            if not complete or natural_width <= 0:
                problems.append(f"{relative}: image did not load: {src}")
        for entry in browser.get_log("browser"):
            if entry.get("level") == "SEVERE":
                problems.append(f"{relative}: console error: {entry.get('message')}")
    assert not problems, "\n".join(problems)
    assert math_pages >= 8, f"only {math_pages} pages contain rendered maths"


def test_convergence_page_screenshot(built_site: Path, site_url: str, browser) -> None:
    browser.get(f"{site_url}/notes/convergence/")
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1280, min(int(height) + 100, 12000))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    target = SCREENSHOTS / "convergence-proof.png"
    assert browser.save_screenshot(str(target))
    assert target.stat().st_size > 50_000
    maths = browser.execute_script("return document.querySelectorAll('math').length")
    assert maths >= 20
    images = browser.execute_script(_IMAGES_SCRIPT)
    assert len(images) >= 3 and all(w > 0 for _, _, w in images)
    browser.set_window_size(1280, 1000)
