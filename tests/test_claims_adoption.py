"""Adoption end to end: pla-verify installed from this working tree into a *fresh* virtual
environment (no network beyond the package index), used by a throwaway project through the
pytest plugin, the mkdocs plugin and the pre-commit hook's command.

The environment is built once per session (~40-60 s with a warm pip cache).  If it cannot be
built the tests fail, saying why; they never skip.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TRUE_PAGE = """# My notes

```claim
id: amgm
assume: a > 0, b > 0
a/b + b/a >= 2
```

!!! note
    ```{.claim}
    uses: amgm
    assume: x >= 0
    x**3 - 3*x + 2 >= 0
    ```

```claim
sqrt(2) < 1.4143
```
"""
FALSE_CLAIM = "\n```claim\nx**2 >= x\n```\n"


def _run(args: list, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "PYTHON"))}
    env["NO_MKDOCS_2_WARNING"] = "1"
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)


@pytest.fixture(scope="session")
def fresh_venv(tmp_path_factory) -> Path:
    venv = tmp_path_factory.mktemp("adopter") / "venv"
    made = _run([sys.executable, "-m", "venv", venv], ROOT)
    assert made.returncode == 0, f"cannot create a virtual environment: {made.stderr}"
    source = tmp_path_factory.mktemp("source") / "pla-verify"  # a clean copy: no .venv, site/
    copied = _run(["git", "-C", ROOT, "ls-files", "-z"], ROOT)
    assert copied.returncode == 0, copied.stderr
    for name in filter(None, copied.stdout.split("\0")):
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_file():
            target.write_bytes((ROOT / name).read_bytes())
    installed = _run([venv / "bin" / "pip", "install", "--quiet", "--disable-pip-version-check",
                      source, "pytest", "mkdocs"], ROOT, timeout=600)
    assert installed.returncode == 0, f"pip install failed:\n{installed.stderr[-3000:]}"
    return venv


def _project(tmp_path: Path, page: str) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(page)
    (tmp_path / "mkdocs.yml").write_text("site_name: my notes\nmarkdown_extensions:\n"
                                         "  - admonition\nplugins:\n  - pla-claims\n")
    (tmp_path / "pytest.ini").write_text("[pytest]\ntestpaths = docs\n")
    return tmp_path


def test_true_claims_pass_pytest_mkdocs_and_the_hook_command(fresh_venv, tmp_path):
    project = _project(tmp_path, TRUE_PAGE)
    bin_ = fresh_venv / "bin"
    result = _run([bin_ / "pytest", "--claims", "docs", "-v"], project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "index.md:3:amgm PASSED" in result.stdout and "3 passed" in result.stdout
    result = _run([bin_ / "pytest", "-p", "pla_claims"], project)  # testpaths
    assert result.returncode == 0 and "3 passed" in result.stdout, result.stdout
    result = _run([bin_ / "mkdocs", "build", "--strict"], project)
    assert result.returncode == 0, result.stderr
    assert "pla-claim-proved" in (project / "site" / "index.html").read_text()
    assert (project / "site" / "claims" / "index.html").exists()
    assert not (project / "site" / "proofs").exists()
    result = _run([bin_ / "pla", "claims", "docs/index.md"], project)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_false_claim_fails_pytest_mkdocs_and_the_hook_command(fresh_venv, tmp_path):
    project = _project(tmp_path, TRUE_PAGE + FALSE_CLAIM)
    bin_ = fresh_venv / "bin"
    result = _run([bin_ / "pytest", "--claims", "docs"], project)
    assert result.returncode == 1 and "at x = 1/2: x**2 = 1/4 < x = 1/2" in result.stdout, result.stdout
    result = _run([bin_ / "mkdocs", "build", "--strict"], project)
    assert result.returncode != 0 and "index.md:20: claim refuted" in result.stderr, \
        result.stderr
    result = _run([bin_ / "pla", "claims", "docs/index.md"], project)
    assert result.returncode == 1 and "refuted" in result.stdout
