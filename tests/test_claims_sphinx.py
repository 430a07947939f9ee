"""The Sphinx extension ``verify.claims.sphinx`` in a throwaway Sphinx + MyST project, with
pla-verify installed into the session's fresh adopter environment (tests/adopter.py) as a
user would: ``extensions = ["myst_parser", "verify.claims.sphinx"]`` is the whole set-up."""

from __future__ import annotations

from pathlib import Path

from tests.adopter import run

CONF = 'extensions = ["myst_parser", "verify.claims.sphinx"]\n'
INDEX = """# My notes

```{toctree}
more
```

```{claim}
id: amgm
assume: a > 0, b > 0
a/b + b/a >= 2
```

A claim as a plain code block:

```claim
uses: amgm
assume: x >= 0
x**3 - 3*x + 2 >= 0
```
"""
MORE = """# More

```{claim}
expect: refuted
x**2 >= x
```
"""
FALSE = """
```{claim}
uses: amgm
x**2 >= x
```
"""


def _project(root: Path, more: str, conf: str = CONF) -> Path:
    docs = root / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(conf)
    (docs / "index.md").write_text(INDEX)
    (docs / "more.md").write_text(more)
    return docs


def test_a_sphinx_site_with_true_claims_builds_with_badges_and_no_status_page(adopter_venv,
                                                                              tmp_path):
    docs = _project(tmp_path, MORE)
    built = run([adopter_venv / "bin" / "sphinx-build", "-W", "-q", "-b", "html", docs,
                 tmp_path / "out"], tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    index = (tmp_path / "out" / "index.html").read_text()
    assert index.count("pla-claim-badge pla-claim-proved") == 2 and 'id="claim-amgm"' in index
    assert "certificate and domain" in index and "a/b + b/a &gt;= 2" in index
    assert "pla-claim-refuted" in (tmp_path / "out" / "more.html").read_text()
    assert not (tmp_path / "out" / "claims-status.html").exists()


def test_a_refuted_claim_fails_sphinx_build_w_at_every_build_and_the_status_page_says_so(
        adopter_venv, tmp_path):
    docs = _project(tmp_path, MORE + FALSE,
                    CONF + 'pla_claims_status_page = "claims-status"\n')
    argv = [adopter_venv / "bin" / "sphinx-build", "-W", "-q", "-b", "html", docs,
            tmp_path / "out"]
    for _ in range(2):  # an unchanged site fails again: the failing page is read again
        built = run(argv, tmp_path)
        assert built.returncode != 0
        assert f"{docs / 'more.md'}:8: WARNING: claim refuted: x**2 >= x, at x = 1/2" in \
            built.stderr, built.stderr
    status = (tmp_path / "out" / "claims-status.html").read_text()
    assert "<td>more.md:8</td><td></td><td>refuted</td><td>amgm</td><td>no</td>" in status
    assert "<td>more.md:3</td><td></td><td>refuted</td><td></td><td>as expected</td>" in status
