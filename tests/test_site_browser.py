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
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "build" / "site-under-test"
SCREENSHOTS = ROOT / "build" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")

# Raw TeX that must never be visible: delimiters and any LaTeX command (outside code), in the
# whole page -- content, navigation, table of contents, <summary> titles -- and in the title.
_RAW_TEX_SCRIPT = r"""
const skip = new Set(["PRE", "CODE", "SCRIPT", "STYLE", "MATH", "NOSCRIPT", "TEXTAREA"]);
const root = document.body;
const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
const found = [];
const texts = [document.title];
while (walker.nextNode()) {
  const node = walker.currentNode;
  let el = node.parentElement, inside = false;
  while (el && el !== root.parentElement) {
    if (skip.has(el.tagName.toUpperCase())) { inside = true; break; }
    el = el.parentElement;
  }
  if (!inside) texts.push(node.textContent);
}
for (const text of texts) {
  const m = text.match(/\$\$|\\\(|\\\)|\\\[|\\\]|\\[a-zA-Z]{2,}|:(?:py:)?(?:func|class|mod|meth|attr|data|exc|obj|const):/);
  if (m) found.push(text.trim().slice(0, 120));
}
return found;
"""

# A text-style asterisk as a MathML operator (w^* drawn as a raised "*").
_ASTERISK_SCRIPT = """
return Array.from(document.querySelectorAll("mo")).filter(mo => mo.textContent.trim() === "*")
  .map(mo => (mo.closest("math") || mo).textContent.slice(0, 60));
"""

# Maths that is displayed (not inside a collapsed navigation section) must have a size.
_MATH_SIZES_SCRIPT = """
return Array.from(document.querySelectorAll("math")).filter(m => m.checkVisibility()).map(m => {
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
    for page in ("index.html", "tutorial.html", "notes/convergence.html", "notes/pla.html",
                 "reference/cli.html", "reference/api.html", "design.html",
                 "search/search_index.js", "fonts/cjk-quotes.woff"):
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
            problems.append(f"{relative}: raw TeX or role visible: {raw[:3]}")
        asterisks = browser.execute_script(_ASTERISK_SCRIPT)
        if asterisks:
            problems.append(f"{relative}: <mo>*</mo> in maths: {asterisks[:3]}")
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


def test_long_console_lines_wrap(built_site: Path, site_url: str, browser) -> None:
    browser.get(f"{site_url}/runtime-checks.html")
    blocks = browser.execute_script("""
      return Array.from(document.querySelectorAll('.language-console pre code')).map(c =>
        [getComputedStyle(c).whiteSpace, c.scrollWidth - c.clientWidth]);""")
    assert blocks, "no console block on the page"
    assert all(space == "pre-wrap" and overflow <= 1 for space, overflow in blocks), blocks


def test_convergence_page_screenshot(built_site: Path, site_url: str, browser) -> None:
    browser.get(f"{site_url}/notes/convergence.html")
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


# -- the step players (docs/hooks/sitebuild/step_player.py, docs/javascripts/step-player.js) --

_PLAYER_STATE_SCRIPT = """
const player = document.querySelector(arguments[0]);
const data = JSON.parse(player.querySelector("script.pla-player-data").textContent);
const visible = Array.from(player.querySelectorAll(".pla-stage .pla-frame"))
  .filter(g => !g.hasAttribute("hidden")).map(g => Number(g.dataset.frame));
const fields = {};
player.querySelectorAll(".pla-live [data-field]").forEach(el => { fields[el.dataset.field] = el.textContent; });
const bars = Array.from(player.querySelectorAll(".pla-bar-value")).map(b => b.getBoundingClientRect().width);
return {ready: player.dataset.ready, step: Number(player.dataset.step), playing: player.dataset.playing,
        visible: visible, states: data.states.length, state: data.states[Number(player.dataset.step)],
        fields: fields, text: player.querySelector(".pla-state").textContent,
        status: player.querySelector(".pla-status").textContent, bars: bars,
        liveHidden: player.querySelector(".pla-live").hidden};
"""


def _click(browser, player: str, action: str) -> None:
    browser.execute_script(
        "document.querySelector(arguments[0] + ' [data-action=\"' + arguments[1] + '\"]').click()",
        player, action)


def _shown_number(value) -> str:
    """What the player must show for one JSON field (the rule of step-player.js, restated)."""
    if isinstance(value, (str, int)):
        return str(value)
    if "text" in value:
        return value["text"]
    if "exact" in value and "decimal" in value:
        return f"{value['exact']} ≈ {value['decimal']}" if "/" in value["exact"] else value["exact"]
    if "exact" in value:
        return value["exact"]
    return f"≈ {value['decimal']}"


def _assert_shows(state: dict, fields: dict) -> None:
    for name, shown in fields.items():
        assert shown == _shown_number(state[name]), (name, shown, state[name])


@pytest.mark.parametrize("page, player, first_line", [
    ("notes/pla.html", "#player-textbook-first", "w_0 = (0, 0, 0)"),
    ("notes/convergence.html", "#player-walk", "w_0 = (0, 0, 0)"),
    ("notes/pocket.html", "#player-pocket-noisy", "w_0 = (0, 0, 0)"),
])
def test_step_player_is_driven_in_chromium(built_site: Path, page: str, player: str,
                                           first_line: str, browser) -> None:
    # Opened from disk: the data are embedded in the page, nothing is fetched.
    browser.get((built_site / page).as_uri())
    state = browser.execute_script(_PLAYER_STATE_SCRIPT, player)
    assert state["ready"] == "true" and not state["liveHidden"]
    assert state["step"] == 0 and state["visible"] == [0] and first_line in state["text"]
    assert state["states"] >= 3
    _assert_shows(state["state"], state["fields"])

    _click(browser, player, "forward")
    _click(browser, player, "forward")
    state = browser.execute_script(_PLAYER_STATE_SCRIPT, player)
    assert state["step"] == 2 and state["visible"] == [2] and "w_2 = " in state["text"]
    assert state["status"] == f"step 2 / {state['states'] - 1}"
    _assert_shows(state["state"], state["fields"])
    if "pocket_mistakes" in state["fields"]:  # Pocket: the walk and the pocket side by side
        assert state["fields"]["w_name"] == "w_2"
        # the pocket is the best w_s (s <= t) so far: never worse than the current w_t
        assert int(state["fields"]["pocket_mistakes"]) <= int(state["fields"]["walk_mistakes"])
    if "inner" in state["fields"]:  # PLA: the proof's gauges, exact values and a drawn bar
        assert state["fields"]["inner_bound"] == state["state"]["inner_bound"]["exact"]
        # the bars grow with a 0.2 s CSS transition: read their drawn width once it has settled
        deadline = time.monotonic() + 5
        while not all(width > 0 for width in state["bars"]) and time.monotonic() < deadline:
            time.sleep(0.1)
            state = browser.execute_script(_PLAYER_STATE_SCRIPT, player)
        assert all(width > 0 for width in state["bars"])

    _click(browser, player, "back")
    assert browser.execute_script(_PLAYER_STATE_SCRIPT, player)["step"] == 1

    _click(browser, player, "last")
    state = browser.execute_script(_PLAYER_STATE_SCRIPT, player)
    assert state["step"] == state["states"] - 1 and state["visible"] == [state["step"]]
    _assert_shows(state["state"], state["fields"])
    if "inner" in state["fields"]:
        assert "No mistake left" in state["text"]

    # every state drawn once, through the scrub bar (playing them all took 25 s on Pocket)
    shown = browser.execute_script(
        "const p = document.querySelector(arguments[0]), s = p.querySelector('.pla-scrub');"
        "const steps = [];"
        "for (let k = 0; k <= Number(s.max); k++) {"
        "  s.value = String(k); s.dispatchEvent(new Event('input'));"
        "  steps.push(Number(p.getAttribute('data-step'))); }"
        "return steps;", player)
    assert shown == list(range(state["states"]))
    _click(browser, player, "last")
    for _ in range(3):  # play the last three steps: it plays on and stops at the end
        _click(browser, player, "back")
    browser.execute_script(
        "const s = document.querySelector(arguments[0] + ' [data-action=speed]');"
        "s.value = '120'; s.dispatchEvent(new Event('change'));", player)
    _click(browser, player, "play")
    assert browser.execute_script(_PLAYER_STATE_SCRIPT, player)["playing"] == "true"
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 60).until(
        lambda b: b.execute_script(_PLAYER_STATE_SCRIPT, player)["playing"] == "false")
    state = browser.execute_script(_PLAYER_STATE_SCRIPT, player)
    assert state["step"] == state["states"] - 1  # played to the end and stopped there

    _click(browser, player, "play")  # from the end, play starts again at the first state
    _click(browser, player, "play")  # ... and pauses
    paused = browser.execute_script(_PLAYER_STATE_SCRIPT, player)
    assert paused["playing"] == "false" and paused["step"] <= 1
    for entry in browser.get_log("browser"):
        assert entry.get("level") != "SEVERE", entry


def test_a_notebook_output_saved_as_html_plays_offline(browser, tmp_path: Path) -> None:
    """The step player of a pla.Result in Jupyter (issue 30), as a saved notebook's HTML export
    embeds it (the output's text/html as is, no site around it): it plays from disk."""
    import pla

    result = pla.run(pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1]), order="first")
    output = result._repr_html_()
    page = tmp_path / "notebook.html"
    page.write_text("<!DOCTYPE html><html><head><meta charset='utf-8'><title>nb</title></head>"
                    f"<body><div class='output_html'>{output}</div></body></html>",
                    encoding="utf-8")
    browser.get(page.as_uri())
    player = "#" + browser.execute_script("return document.querySelector('.pla-player').id")
    state = browser.execute_script(_PLAYER_STATE_SCRIPT, player)
    assert state["ready"] == "true" and not state["liveHidden"] and state["states"] == 8
    assert state["step"] == 0 and "w_0 = (0, 0, 0)" in state["text"]
    _click(browser, player, "forward")
    _click(browser, player, "forward")
    state = browser.execute_script(_PLAYER_STATE_SCRIPT, player)
    assert state["step"] == 2 and state["visible"] == [2]
    _assert_shows(state["state"], state["fields"])
    _click(browser, player, "last")
    state = browser.execute_script(_PLAYER_STATE_SCRIPT, player)
    assert state["step"] == 7 and "No mistake left" in state["text"]
    for entry in browser.get_log("browser"):
        assert entry.get("level") != "SEVERE", entry


def test_step_players_have_a_static_fallback(built_site: Path) -> None:
    import re

    for page in ("notes/pla.html", "notes/convergence.html", "notes/pocket.html"):
        text = (built_site / page).read_text(encoding="utf-8")
        fallback = re.search(r"<noscript><div class=\"pla-stills\">(.*?)</noscript>", text, re.S)
        assert fallback, page
        stills = re.findall(r'<figure class="pla-still"><svg .*?</svg><figcaption>t = \d+: ',
                            fallback.group(1), re.S)
        assert len(stills) >= 3, page


# -- the site opened from disk -----------------------------------------------------------------

def test_search_works_from_disk(built_site: Path, browser) -> None:
    """The README says: open site/index.html. Search must work over file:// too."""
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get((built_site / "index.html").as_uri())
    field = browser.find_element("css selector", "input.md-search__input")
    field.click()
    field.send_keys("pocket")
    WebDriverWait(browser, 30).until(lambda b: b.execute_script(
        "return document.querySelectorAll('.md-search-result__item').length") > 0)
    first = browser.execute_script(
        "return document.querySelector('.md-search-result__item a').getAttribute('href')")
    assert ".html" in first
    # A link from disk opens a page, not a directory listing.
    browser.get((built_site / "index.html").as_uri())
    href = browser.execute_script(
        "return document.querySelector('a.md-tabs__link[href*=tutorial]').href")
    assert href.startswith("file://") and href.endswith("tutorial.html")


# -- the Chinese quotations ------------------------------------------------------------------------

_CJK_GLYPHS_SCRIPT = r"""
const done = arguments[arguments.length - 1];
const article = document.querySelector("article");
const chars = Array.from(new Set(Array.from(article.innerText)
  .filter(c => /[\u2e80-\u2fdf\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/.test(c))));
document.fonts.load('32px "pla-cjk"', chars.join("")).then(() => {
  const faces = Array.from(document.fonts).filter(f => f.family.replace(/"/g, "") === "pla-cjk");
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 40;
  const ctx = canvas.getContext("2d");
  function bitmap(ch, family) {
    ctx.clearRect(0, 0, 40, 40);
    ctx.font = '32px ' + family;
    ctx.fillText(ch, 2, 32);
    return Array.from(ctx.getImageData(0, 0, 40, 40).data).join(",");
  }
  const tofu = bitmap("\u{10FFFD}", '"pla-cjk"');
  const blank = bitmap(" ", '"pla-cjk"');
  const boxes = chars.filter(c => { const b = bitmap(c, '"pla-cjk"'); return b === tofu || b === blank; });
  done({count: chars.length, faces: faces.map(f => f.status), check: document.fonts.check('32px "pla-cjk"', chars.join("")),
        boxes: boxes, bodyFont: getComputedStyle(article).fontFamily});
});
"""


def test_chinese_quotations_render_as_glyphs(built_site: Path, browser) -> None:
    browser.set_script_timeout(30)
    browser.get((built_site / "audit.html").as_uri())
    result = browser.execute_async_script(_CJK_GLYPHS_SCRIPT)
    assert result["count"] >= 50, result["count"]
    assert "pla-cjk" in result["bodyFont"]
    assert result["faces"] == ["loaded"], result["faces"]
    assert result["check"] is True
    assert result["boxes"] == [], f"drawn as boxes: {''.join(result['boxes'][:20])}"


def test_the_shipped_cjk_font_covers_every_character_of_the_site(built_site: Path) -> None:
    """The web font itself (not a system font) has a glyph for every CJK character shown."""
    from fontTools.ttLib import TTFont

    from sitebuild.cjk_font import cjk_characters

    shown: set[str] = set()
    for page in built_site.rglob("*.html"):
        shown |= cjk_characters(page.read_text(encoding="utf-8"))
    font = TTFont(str(built_site / "fonts" / "cjk-quotes.woff"))
    cmap = font.getBestCmap()
    assert len(shown) >= 50
    assert sorted(c for c in shown if ord(c) not in cmap) == []
    assert (built_site / "fonts" / "cjk-quotes.woff").stat().st_size < 400_000


_AUDIT_TABLES_SCRIPT = """
function tableAfter(id) {
  let el = document.getElementById(id).nextElementSibling;
  while (el) {
    if (el.tagName === "TABLE") return el;
    const inner = el.querySelector("table");
    if (inner) return inner;
    el = el.nextElementSibling;
  }
  return null;
}
function visible(el) { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; }
const summary = tableAfter("summary");
const rows = Array.from(summary.querySelectorAll("tbody tr")).map(tr => {
  const cells = Array.from(tr.cells);
  const link = cells[0].querySelector("a");
  const target = link && document.getElementById(link.getAttribute("href").slice(1));
  return {id: cells[0].textContent.trim(), grade: cells[2].textContent.trim(),
          severity: cells[3].textContent.trim(), target: !!target,
          targetIsFinding: !!target && target.tagName === "H4" && target.textContent.trim().startsWith(cells[0].textContent.trim()),
          fixVisible: visible(cells[4])};
});
const summaryTop = summary.getBoundingClientRect().top + window.scrollY;
const notationTop = document.getElementById("notation-side-by-side").getBoundingClientRect().top + window.scrollY;
const derivation = tableAfter("derivation-001");
const head = Array.from(derivation.querySelectorAll("thead th")).map(th => th.textContent.trim());
const drows = Array.from(derivation.querySelectorAll("tbody tr")).map(tr => {
  const c = Array.from(tr.cells);
  const m = c[2].querySelector("math");
  const r = m ? m.getBoundingClientRect() : null;
  const a = c[1].getBoundingClientRect(), b = c[2].getBoundingClientRect();
  return {written: c[1].querySelector("code") ? c[1].querySelector("code").textContent : "",
          math: !!m && r.width > 0 && r.height > 0, sideBySide: Math.abs(a.top - b.top) < 2 && a.right <= b.left + 1,
          why: c[3].textContent.trim(), link: !!c[3].querySelector("a[href^='#finding-']")};
});
return {rows, summaryFirst: summaryTop < notationTop, head, drows};
"""


def test_audit_summary_table_and_side_by_side_derivation_in_chromium(built_site: Path, site_url: str,
                                                                     browser) -> None:
    """The audit opens with its summary (every row links to its finding) and shows 001's
    derivation as written and corrected side by side, the corrected column as real maths."""
    browser.get(f"{site_url}/audit.html")
    found = browser.execute_script(_AUDIT_TABLES_SCRIPT)
    rows = found["rows"]
    assert found["summaryFirst"]
    assert len(rows) >= 55, len(rows)
    assert {r["grade"] for r in rows} <= {"Wrong", "Gap", "Ambiguous", "Typo", "Withdrawn"}
    assert {r["severity"] for r in rows} <= {"theorem", "algorithm", "notation", "—"}
    assert [r["id"] for r in rows if not (r["target"] and r["targetIsFinding"])] == []
    assert all(r["fixVisible"] for r in rows)
    assert found["head"] == ["line", "as written", "corrected", "why"]
    drows = found["drows"]
    assert len(drows) >= 10
    assert all(r["written"] and r["math"] and r["sideBySide"] for r in drows), drows
    assert any("\\frac" in r["written"] for r in drows)
    assert all(r["link"] or "right as printed" in r["why"] for r in drows)
