"""The site machinery (sitebuild): maths, command blocks, macros, examples, doctest blocks."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitebuild.commands import (
    CommandFailed,
    PageBlockError,
    expand_command_blocks,
    parse_block_options,
)
from sitebuild.doctest_blocks import wrap_doctest_blocks
from sitebuild.examples import (
    DATA,
    RUNS,
    ExampleBook,
    ExampleMismatch,
    UnknownExample,
    check_page_examples,
    separator_facts,
)
from sitebuild.macros import MacroError, expand_macros, expand_macros_in_markdown, format_value
from sitebuild.mathml import MathRenderError, latex_to_mathml, render_math_in_html

DOCS = Path(__file__).resolve().parent.parent / "docs"

# What sympy's LaTeX printer and the pages write; each must come out as real MathML.
SYMPY_LATEX = {
    r"\left( \frac{a}{b} \right)": ["<mfrac>", "&#x00028;"],
    r"x \cdot y": ["<mo>&#x000B7;</mo>"],
    r"t \leq \frac{R^{2}}{\rho^{2}}": ["&#x02264;", "<msup>"],
    r"\lVert \mathbf{w} \rVert^{2}": ["&#x02016;", "&#x1D430;"],
    r"\operatorname{sign}(x)": [">sign<"],
    r"\sqrt{t}": ["<msqrt>"],
    r"\geq \neq \implies": ["&#x02265;", "&#x02260;"],
    r"\begin{aligned} a &= b \\ &\leq c \end{aligned}": ["<mtable", "<mtr>"],
    r"\sum_{n=1}^{N} \lambda_n y_n \mathbf{x}_n": ["&#x02211;"],
    r"\mathbb{R}^{d}": ["&#x0211D;"],
}


@pytest.mark.parametrize("latex", sorted(SYMPY_LATEX))
def test_sympy_style_latex_becomes_mathml(latex: str) -> None:
    mathml = latex_to_mathml(latex, display=True)
    assert mathml.startswith("<math") and 'display="block"' in mathml
    for piece in SYMPY_LATEX[latex]:
        assert piece in mathml, (latex, piece, mathml)
    assert "\\" not in re.sub(r"<mtext>.*?</mtext>", "", mathml)


def test_closing_norm_bar_carries_the_exponent_with_its_content() -> None:
    mathml = latex_to_mathml(r"\lVert \mathbf{w} \rVert^{2}")
    assert "<msup><mrow><mo" in mathml  # the whole ‖w‖ is the base, not the closing bar alone


@pytest.mark.parametrize("latex", [r"\nosuchmacro{x}", r"a & b"])
def test_unrenderable_maths_is_an_error_not_raw_tex(latex: str) -> None:
    with pytest.raises(MathRenderError):
        latex_to_mathml(latex)


def test_render_math_in_html_replaces_inline_and_display() -> None:
    page = ('<p>Let <span class="arithmatex">\\(x &lt; y\\)</span>.</p>\n'
            '<div class="arithmatex">\\[\n\\frac{1}{2}\n\\]</div>')
    out = render_math_in_html(page)
    assert out.count("<math") == 2
    assert 'display="block"' in out and 'display="inline"' in out
    assert "\\(" not in out and "\\[" not in out


def test_block_options() -> None:
    assert parse_block_options("expect=3 lines=4").expect == 3
    for bad in ("expect=x", "lines", "colour=1"):
        with pytest.raises(PageBlockError):
            parse_block_options(bad)


def test_command_block_shows_real_output_and_checks_the_exit_status(tmp_path: Path) -> None:
    page = "```pla-file a.txt\none\ntwo\nthree\n```\n\n```pla-run lines=2\n$ cat a.txt\n```\n"
    out = expand_command_blocks(page, tmp_path)
    assert "$ cat a.txt\none\ntwo\n[... 1 more lines not shown ...]" in out
    with pytest.raises(CommandFailed) as failure:
        expand_command_blocks("```pla-run\n$ cat missing.txt\n```\n", tmp_path)
    assert failure.value.status != 0 and failure.value.expected == 0
    expected_failure = expand_command_blocks("```pla-run expect=1\n$ cat missing.txt\n```\n", tmp_path)
    assert "*exit status 1*" in expected_failure


def test_command_blocks_refuse_other_programs_and_escaping_paths(tmp_path: Path) -> None:
    with pytest.raises(PageBlockError):
        expand_command_blocks("```pla-run\n$ rm -rf x\n```\n", tmp_path)
    with pytest.raises(PageBlockError):
        expand_command_blocks("```pla-file ../evil.txt\nx\n```\n", tmp_path)
    assert not (tmp_path.parent / "evil.txt").exists()


def test_blocks_nested_in_another_fence_are_documentation(tmp_path: Path) -> None:
    page = "````markdown\n```pla-run\n$ rm -rf /\n```\n````\n"
    assert expand_command_blocks(page, tmp_path) == page


class _Book:
    def run(self, name: str):
        if name != "walk":
            raise UnknownExample(name)
        from types import SimpleNamespace

        return SimpleNamespace(updates=9, w=(Fraction(-3), Fraction(1, 2)), halted=True)


def test_macros_fill_numbers_and_reject_what_does_not_exist() -> None:
    assert expand_macros("T = {{ run('walk').updates }}", _Book()) == "T = 9"
    assert expand_macros("{{ run('walk').w.1 | tex }}", _Book()) == r"\frac{1}{2}"
    assert expand_macros("{{ run('walk').halted }}", _Book()) == "yes"
    for bad in ("{{ run('walk').nothing }}", "{{ eval('x').y }}", "{{ run('walk').w.7 }}",
                "{{ run('walk')._secret }}", "{{ run('walk').updates | shout }}", "{{ 1 + 1 }}"):
        with pytest.raises(MacroError):
            expand_macros(bad, _Book())
    with pytest.raises(UnknownExample):
        expand_macros("{{ run('nope').updates }}", _Book())


def test_macros_leave_code_alone() -> None:
    text = "`{{ run('walk').updates }}` and {{ run('walk').updates }}\n```\n{{ x }}\n```\n"
    assert expand_macros_in_markdown(text, _Book()) == (
        "`{{ run('walk').updates }}` and 9\n```\n{{ x }}\n```\n")


@settings(max_examples=60, deadline=None)
@given(st.fractions(max_denominator=10**6))
def test_format_value_shows_the_exact_number(value: Fraction) -> None:
    assert Fraction(format_value(value)) == value
    tex = format_value(value, "tex")
    match = re.fullmatch(r"(-?)\\frac\{(\d+)\}\{(\d+)\}", tex)
    if value.denominator == 1:
        assert int(tex) == value
    else:
        assert match is not None
        sign = -1 if match.group(1) else 1
        assert Fraction(sign * int(match.group(2)), int(match.group(3))) == value


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([">>> f()", "1", "", "text", "```", "... g()"]), max_size=20))
def test_doctest_wrapping_keeps_every_line_in_order(lines: list[str]) -> None:
    wrapped = wrap_doctest_blocks(lines)
    kept = [line for line in wrapped if line and line != "```pycon"]
    original = [line for line in lines if line]
    # Only fences are added; the page's own lines survive unchanged and in order.
    assert [line for line in kept if line != "```"] == [line for line in original if line != "```"]


def test_pages_that_make_example_data_must_use_the_example_arguments() -> None:
    quotes = "{{ run('walk').updates }} {{ run('textbook').updates }}\n"
    check_page_examples(quotes + "$ pla make-data --n 16 --d 2 --margin 1/20 --seed 4 walk.dat\n")
    with pytest.raises(ExampleMismatch):
        check_page_examples(quotes + "$ pla make-data --n 17 --d 2 --margin 1/20 --seed 4 walk.dat\n")
    with pytest.raises(ExampleMismatch):
        check_page_examples(quotes + "```pla-file textbook.dat\n3 3 +1\n```\n")
    # A page that quotes no number of the example may make its own file of that name.
    check_page_examples("```pla-file textbook.dat\n3 3 +1\n```\n")


@pytest.mark.parametrize("page", sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")))
def test_every_page_is_consistent_with_the_examples(page: str) -> None:
    check_page_examples((DOCS / page).read_text(encoding="utf-8"))


def test_separator_facts_refuse_a_non_separator() -> None:
    X = [(Fraction(1), Fraction(1)), (Fraction(1), Fraction(-1))]
    with pytest.raises(ValueError):
        separator_facts((Fraction(0), Fraction(1)), X, [1, 1], "given")


def test_textbook_example_is_the_classic_walk_through(tmp_path: Path) -> None:
    book = ExampleBook(tmp_path)
    facts = book.run("textbook-first")
    assert facts.updates == 7 and facts.w == (Fraction(-3), Fraction(1), Fraction(1))
    assert [s.index + 1 for s in facts.result.steps] == [1, 3, 3, 3, 1, 3, 3]
    assert facts.still_wrong_after_update == 3
    assert (facts.longest_streak, facts.longest_streak_point) == (3, 3)
    assert facts.score_gain_is_eta_norm2 and facts.misclassified == 0
    proof = book.proof("textbook-first")
    assert proof.inner_holds and proof.norm_holds and proof.bound_holds
    assert proof.updates <= proof.separator.bound


def test_every_named_run_uses_a_defined_data_set() -> None:
    assert all(spec.data in DATA for spec in RUNS.values())


def test_the_pre_commit_form_of_check_your_notes_is_usable_as_written() -> None:
    """A local hook (no placeholder URL) with the fields of the repository's own hook."""
    import yaml

    page = (DOCS / "check-your-notes.md").read_text(encoding="utf-8")
    assert "example.org" not in page
    block = re.search(r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", page, re.S).group(1)
    (repo,) = yaml.safe_load(block)["repos"]
    assert repo["repo"] == "local" and "rev" not in repo
    (hook,) = repo["hooks"]
    (shipped,) = yaml.safe_load((DOCS.parent / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    for field in ("id", "entry", "language", "types_or"):
        assert hook[field] == shipped[field], field
    assert hook["language"] == "python" and len(hook["additional_dependencies"]) == 1


def test_separate_signatures_have_a_formatter() -> None:
    """mkdocstrings formats separate signatures with Ruff or Black and otherwise prints
    "Formatting signatures requires either Black or Ruff" on every build (`make run`)."""
    import importlib.util

    config = (DOCS.parent / "mkdocs.yml").read_text(encoding="utf-8")
    if "separate_signature: true" in config:
        assert any(importlib.util.find_spec(name) for name in ("ruff", "black")), \
            "pyproject.toml's dev extras must install ruff (or black)"
        assert re.search(r'"ruff>=', (DOCS.parent / "pyproject.toml").read_text(encoding="utf-8"))
