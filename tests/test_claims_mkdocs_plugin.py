"""The mkdocs plugin ``pla-claims`` in a throwaway site (installed entry point, strict build)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

MKDOCS = Path(sys.executable).with_name("mkdocs")


def _site(tmp_path: Path, pages: dict, options: str = "") -> Path:
    docs = tmp_path / "docs"
    for name, text in pages.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(text)
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nplugins:\n  - pla-claims" + (":\n" + options if options else "") + "\n")
    return tmp_path


def _build(site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(MKDOCS), "build", "--strict"], cwd=site, capture_output=True,
                          text=True, timeout=300)


PAGE = ("# Notes\n\n```claim\nid: amgm\nassume: a > 0, b > 0\na/b + b/a >= 2\n```\n\n"
        "- a list item\n\n    ```{.claim}\n    uses: amgm\n    x**2 + 1 >= 2*x\n    ```\n\n"
        "```claim title=\"shown on purpose\"\nexpect: refuted\nx**2 >= x\n```\n")


def test_true_claims_build_strictly_with_badges_certificates_and_a_status_page(tmp_path):
    site = _site(tmp_path, {"index.md": PAGE, "more/other.md": "```claim\n2**64 > 10**19\n```\n"})
    result = _build(site)
    assert result.returncode == 0, result.stderr
    page = (site / "site" / "index.html").read_text()
    assert page.count("pla-claim-badge pla-claim-proved") == 2
    assert "pla-claim-badge pla-claim-refuted" in page and "at x = 1/2" in page
    assert "x&#42;&#42;2 &gt;= x" in page  # the claim's text, not Markdown emphasis
    assert "<details class=\"pla-claim-certificate\">" in page
    assert "a &gt; 0 proved from the assumptions" in page  # the domain conditions are shown
    status = (site / "site" / "claims" / "index.html").read_text()
    assert "4 claims; 4 as expected" in status and "other.md:1" in status
    # nothing of pla-verify's own site is injected
    assert not (site / "site" / "proofs").exists()
    assert sorted(p.name for p in (site / "site").iterdir() if p.suffix == ".html") == \
        ["404.html", "index.html"]


def test_a_false_claim_fails_the_strict_build_naming_it(tmp_path):
    site = _site(tmp_path, {"index.md": PAGE.replace("a/b + b/a >= 2", "a/b + b/a >= 3")})
    result = _build(site)
    assert result.returncode != 0
    assert "index.md:3: claim refuted: a/b + b/a >= 3, at a = 1, b = 1" in result.stderr
    assert "index.md:11: claim uses 'amgm'" in result.stderr  # the claim resting on it fails too


def test_an_unclosed_claim_fence_fails_instead_of_vanishing(tmp_path):
    site = _site(tmp_path, {"index.md": "# t\n\n~~~claim\nx >= x\n"})
    result = _build(site)
    assert result.returncode != 0 and "never closed" in result.stderr


def test_the_status_page_can_be_renamed_or_disabled(tmp_path):
    site = _site(tmp_path, {"index.md": "```claim\nx**2 >= 0\n```\n"},
                 "      status_page: ''")
    assert _build(site).returncode == 0
    assert not (site / "site" / "claims").exists()
