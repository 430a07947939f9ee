"""Attacks on the front ends of the claims (issue 24, findings 3, 4, 5): what `pla claims`,
`pytest --claims` and the mkdocs plugin check is exactly what a Markdown renderer shows.

Each attack got a false claim (or a claim resting on a visibly refuted lemma) through with
exit 0 before the shared reading of :mod:`verify.claims.documents`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy  # noqa: F401  (pytester runs in process: import the C extensions once)
import pytest
import scipy.optimize  # noqa: F401
import sympy  # noqa: F401
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cli_runner import pla_cli
from verify.claims import check_claim_text, check_markdown_text, find_claim_blocks

pytest_plugins = ["pytester"]

MKDOCS = Path(sys.executable).with_name("mkdocs")


# -- finding 3: a hidden assumption behind `#` ---------------------------------------------------
def test_a_comment_after_an_assumption_is_an_error_naming_the_line():
    verdict = check_claim_text("assume: x >= 0    # , x >= 1\nx >= 1")
    assert verdict.status == "invalid"
    assert "line 1" in verdict.reason and "#" in verdict.reason


@pytest.mark.parametrize("body", ["x**2 >= 0  # always", "id: a # b\nx**2 >= 0",
                                  "assume: x >= 0 # note\nx >= 0"])
def test_a_comment_inside_any_claim_line_is_refused(body):
    assert check_claim_text(body).status == "invalid"


def test_a_whole_line_comment_is_still_allowed():
    assert check_claim_text("# the square is nonnegative\nx**2 >= 0").status == "proved"


# -- finding 4: duplicate ids and a lemma refuted in the same file --------------------------------
DUPLICATE = """# Notes

```claim
id: lemma
x**2 >= 0
```

```claim
id: lemma
x**2 >= x
```

```claim
uses: lemma
x**2 + 1 > 0
```
"""


def test_pla_claims_refuses_both_blocks_of_a_duplicate_id_and_the_claim_using_it(tmp_path):
    page = tmp_path / "notes.md"
    page.write_text(DUPLICATE)
    result = pla_cli("claims", str(page))
    assert result.code == 1
    assert "notes.md:3: id 'lemma' is given twice (lines 3 and 8)" in result.err
    assert "notes.md:8: id 'lemma' is given twice (lines 3 and 8)" in result.err
    assert "uses 'lemma'" in result.out


def test_pytest_fails_the_claim_that_uses_a_lemma_refuted_in_the_same_file(pytester):
    pytester.makefile(".md", notes=DUPLICATE)
    result = pytester.runpytest("notes.md", "-v")
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(["*id 'lemma' is given twice (lines 3 and 8)*",
                                 "*uses 'lemma'*not fully verified*"])


def test_the_mkdocs_plugin_fails_the_claim_that_uses_a_duplicate_lemma(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(DUPLICATE)
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - pla-claims\n")
    result = subprocess.run([str(MKDOCS), "build", "--strict"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode != 0
    assert "index.md:13: claim uses 'lemma'" in result.stderr


# -- finding 5: blockquotes, nested lists, HTML comments -----------------------------------------
def test_a_claim_in_a_blockquote_is_checked():
    (claim,) = check_markdown_text("> ```claim\n> x**2 >= x\n> ```\n")
    assert claim.verdict.status == "refuted" and claim.line == 1


def test_a_claim_in_a_nested_list_is_checked():
    text = "- a\n  - b\n\n    ```claim\n    x**2 >= x\n    ```\n"
    (claim,) = check_markdown_text(text)
    assert claim.verdict.status == "refuted" and claim.line == 4


def test_a_claim_in_a_list_inside_a_blockquote_is_checked():
    (block,) = find_claim_blocks("> - item\n>   ```claim\n>   x >= x\n>   ```\n")
    assert (block.line, block.body, block.error) == (2, "x >= x", "")


def test_a_claim_whose_body_leaves_its_list_item_is_refused_as_a_renderer_shows_it(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("- item\n\n    ```claim\nx**2 >= x\n    ```\n")
    result = pla_cli("claims", str(page))
    assert result.code == 2 and "p.md:3: the claim fence opened at line 3 is never closed" \
        in result.err


def test_a_claim_in_an_html_comment_is_refused_naming_its_line(tmp_path):
    page = tmp_path / "notes.md"
    page.write_text("<!--\n```claim\nid: lemma\nx**2 >= 0\n```\n-->\n\n"
                    "```claim\nid: lemma\nx**2 >= x\n```\n")
    result = pla_cli("claims", str(page))
    assert result.code != 0
    assert "notes.md:2: a claim block inside an HTML comment or raw HTML block" in result.err


def test_a_claim_in_a_raw_html_block_is_refused():
    (block,) = find_claim_blocks("<div>\n```claim\nx >= x\n```\n</div>\n")
    assert block.line == 2 and "HTML" in block.error


def test_a_claim_after_an_html_block_that_a_blank_line_ends_is_checked():
    (block,) = find_claim_blocks("<details>\n\n```claim\nx >= x\n```\n\n</details>\n")
    assert (block.line, block.error) == (3, "")


def test_the_mkdocs_plugin_renders_a_quoted_claim_inside_the_quote(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("> ```claim\n> x**2 >= 0\n> ```\n")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - pla-claims\n")
    result = subprocess.run([str(MKDOCS), "build", "--strict"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site" / "index.html").read_text()
    quote = html[html.index("<blockquote>"):html.index("</blockquote>")]
    assert "pla-claim-proved" in quote


# -- a renderer's view, generated ----------------------------------------------------------------
_WRAPPERS = {  # how a piece is placed in the document, and whether a renderer shows it
    "plain": (lambda lines: lines, True),
    "quote": (lambda lines: ["> " + line for line in lines], True),
    "list": (lambda lines: ["- item", ""] + ["  " + line for line in lines], True),
    "quoted list": (lambda lines: ["> - item", ">"] + [">   " + line for line in lines], True),
    "comment": (lambda lines: ["<!--"] + lines + ["-->"], False),
    "html": (lambda lines: ["<div>"] + lines + ["</div>"], False),
}


@st.composite
def documents(draw):
    """(Markdown text, expected {line: (body, shown)}, ids): pieces separated by paragraphs."""
    lines: list[str] = []
    expected: dict[int, tuple[str, bool, str]] = {}
    for k in range(draw(st.integers(1, 5))):
        ident = draw(st.sampled_from(["a", "b", "c", ""]))
        wrapper = draw(st.sampled_from(sorted(_WRAPPERS)))
        wrap, shown = _WRAPPERS[wrapper]
        body = ([f"id: {ident}"] if ident else []) + [f"x{k} >= x{k}"]
        piece = wrap(["```claim", *body, "```"])
        opening = len(lines) + next(i for i, line in enumerate(piece) if "```claim" in line) + 1
        expected[opening] = ("\n".join(body), shown, ident)
        lines += piece + ["", f"Paragraph {k}.", ""]
    return "\n".join(lines) + "\n", expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_every_block_a_renderer_shows_is_extracted_and_every_hidden_or_duplicate_is_refused(doc):
    text, expected = doc
    from verify.claims.documents import find_file_claims

    found = {c.line: c for c in find_file_claims(text, "page.md")}
    assert sorted(found) == sorted(expected)
    ids = [ident for body, shown, ident in expected.values() if ident]
    for line, (body, shown, ident) in expected.items():
        claim = found[line]
        assert claim.block.body == body
        if not shown:
            assert "HTML" in claim.error
        elif ident and ids.count(ident) > 1:
            assert f"id {ident!r} is given twice" in claim.error
        else:
            assert claim.error == ""
