"""Adoption end to end: pla-verify installed from this working tree into a *fresh* virtual
environment (no network beyond the package index), used by a throwaway project through the
pytest plugin, the mkdocs plugin and the pre-commit hook's command.

The environment is the session's one adopter environment (tests/adopter.py), shared with the
notebook, Sphinx and cluster adoption tests.  If it cannot be built the tests fail, saying
why; they never skip.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.adopter import run as _run

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


@pytest.fixture(scope="session")
def fresh_venv(adopter_venv) -> Path:
    return adopter_venv


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
