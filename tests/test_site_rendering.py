"""Site rendering outside the content: maths in TOC/nav/titles, docstring roles, the CJK web
font, search from disk (docs/hooks/sitebuild/). The browser half is tests/test_site_browser.py."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitebuild.cjk_font import cjk_characters, write_subset
from sitebuild.docstring_roles import link_sphinx_roles
from sitebuild.mathml import latex_to_mathml, render_math_in_page


@pytest.mark.parametrize("name", ["sitebuild.step_player", "sitebuild.mathml",
                                  "sitebuild.docstring_roles", "sitebuild.cjk_font",
                                  "sitebuild.offline_search"])
def test_docstring_examples_of_the_rendering_modules(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


_FORMULAS = st.sampled_from([r"T = 0", r"\operatorname{sign}(0)", r"w_0", r"\eta",
                             r"\lVert \mathbf{w} \rVert^{2}", r"t \rho"])
_WORDS = st.text(alphabet="abc xyz?-", max_size=8)


@settings(max_examples=50, deadline=None)
@given(parts=st.lists(st.tuples(_WORDS, _FORMULAS), min_size=1, max_size=3), code=_FORMULAS)
def test_tex_in_navigation_and_titles_is_rendered_and_code_is_kept(parts, code) -> None:
    heading = "".join(f"{words}\\({formula}\\)" for words, formula in parts)
    page = (f"<title>{heading} - site</title><nav><a href='#a'>{heading}</a></nav>"
            f"<summary>{heading}</summary><pre><code>\\({code}\\)</code></pre>")
    out = render_math_in_page(page)
    title = re.search(r"<title>(.*)</title>", out).group(1)
    assert "<" not in title and "\\(" not in title
    outside_code = out.split("<pre>")[0]
    assert "\\(" not in outside_code and "\\)" not in outside_code
    assert outside_code.count("<math") == 2 * len(parts)
    assert out.endswith(f"<pre><code>\\({code}\\)</code></pre>")


def test_unrenderable_tex_in_a_heading_fails_the_build() -> None:
    from sitebuild.mathml import MathRenderError

    with pytest.raises(MathRenderError):
        render_math_in_page(r"<a>see \(\nosuchcommand x\)</a>")


def test_asterisk_operator_is_the_mathematical_asterisk() -> None:
    assert "&#x0002A;" not in latex_to_mathml(r"w^* = \operatorname*{arg\,min}_{w} f(w)")


def test_roles_become_references_resolved_in_the_enclosing_scope() -> None:
    page = ('<h2 id="pla.pocket" class="doc"></h2><p>:func:<code>pocket</code>, '
            ':class:<code>~pla.runs.Step</code>, :meth:<code>Dataset.from_rows()</code></p>'
            '<h3 id="pla.pocket.pocket"></h3><h3 id="pla.runs.Step"></h3>')
    out = link_sphinx_roles(page)
    assert ":func:" not in out and ":class:" not in out and ":meth:" not in out
    assert '<autoref identifier="pla.pocket.pocket" optional><code>pocket</code></autoref>' in out
    assert '<autoref identifier="pla.runs.Step" optional><code>Step</code></autoref>' in out
    assert "<code>Dataset.from_rows()</code>" in out


def test_cjk_subset_holds_exactly_the_characters_asked_for(tmp_path: Path) -> None:
    from fontTools.ttLib import TTFont

    text = "感知器學習演算法「口袋」，收斂。PLA w_t"
    wanted = cjk_characters(text)
    assert "P" not in wanted and "，" in wanted
    target = tmp_path / "q.woff"
    assert write_subset(wanted, target) == []
    cmap = TTFont(str(target)).getBestCmap()
    assert {chr(code) for code in cmap} == wanted


def test_proof_numbers_are_unique_and_the_nav_shows_them() -> None:
    import yaml  # noqa: F401  (mkdocs depends on PyYAML)

    from verify.present.render import proof_pages

    root = Path(__file__).resolve().parent.parent
    nav = (root / "mkdocs.yml").read_text(encoding="utf-8")
    titles = {}
    for path, page in proof_pages().items():
        if path.endswith("index.md"):
            continue
        title = page.splitlines()[0].removeprefix("# ")
        titles[path] = title
        assert f'- "{title}": {path}' in nav, title
    numbers = [t.split(" ", 1)[0] for t in titles.values()]
    assert len(numbers) == len(set(numbers)) == 18


def test_proofs_index_states_every_theorem() -> None:
    from verify.present.render import proof_pages

    pages = proof_pages()
    rows = [line for line in pages["proofs/index.md"].splitlines() if "](" in line and ".md)" in line]
    theorem_rows = [r for r in rows if "../" not in r]
    assert len(theorem_rows) == 18
    assert all(re.search(r"\| \$[^$]+\$ \|", row) for row in theorem_rows)
