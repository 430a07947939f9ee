"""docs/hooks/proofs.py: generated proof pages in a strict mkdocs build (claims: the plugin,
tests/test_claims_mkdocs_plugin.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _site(tmp_path: Path, page: str) -> Path:
    docs = tmp_path / "docs"
    (docs / "hooks").mkdir(parents=True)
    shutil.copy(ROOT / "docs" / "hooks" / "proofs.py", docs / "hooks" / "proofs.py")
    (docs / "index.md").write_text(page)
    (docs / "trusted-base.md").write_text("# trusted base\n")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nstrict: true\nexclude_docs: |\n  hooks/\n"
        "markdown_extensions:\n  - admonition\n  - pymdownx.arithmatex:\n      generic: true\n"
        "plugins:\n  - pla-claims:\n      renderer: latex\n"
        "hooks:\n  - docs/hooks/proofs.py\n"
        "validation:\n  nav:\n    omitted_files: info\n")
    return tmp_path


def _build(site: Path) -> subprocess.CompletedProcess:
    mkdocs = Path(sys.executable).with_name("mkdocs")
    return subprocess.run([str(mkdocs), "build", "--strict", "-q"], cwd=site,
                          capture_output=True, text=True, timeout=300)


def test_build_generates_proof_pages_and_renders_proved_claims(tmp_path):
    site = _site(tmp_path, "# t\n\n```claim\nassume: x > 0\nx + 1/x >= 2\n```\n")
    result = _build(site)
    assert result.returncode == 0, result.stderr
    html = (site / "site" / "index.html").read_text()
    assert "Claim proved" in html
    novikoff = (site / "site" / "proofs" / "novikoff" / "index.html").read_text()
    assert "Checked by the kernel" in novikoff


def test_strict_build_fails_on_a_refuted_claim(tmp_path):
    site = _site(tmp_path, "# t\n\n```claim\nx**2 >= x\n```\n")
    result = _build(site)
    assert result.returncode != 0
    assert "index.md:3: claim refuted: x**2 >= x, at x = 1/2" in result.stderr
