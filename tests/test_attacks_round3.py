"""Review round 3: a lying user and a lying proposer against the merged claims path.

Each test is one attack that got (or tried to get) a false claim reported proved, or a proved
statement that differs from the written one.  The kernel's check compares texts printed by its
canonical printer (``content_text``), so any two *different* expressions with the *same* text
are a hole: a proposer can prove one and have it counted as the other.
"""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from verify import kernel
from verify.claims.elaborate import elaborate
from verify.claims.parser import parse_claim
from verify.kernel import (Certificate, Chain, ClaimProof, Derivation, DerivationError, Fact,
                           Hyp, Link, Term, Theorem)

a, b, c, x = sp.symbols("a b c x", real=True)


def _statement(text: str):
    return elaborate(parse_claim(text))[0]


def _one_chain(hyps, start, rel, end, certificate, conclusion=None):
    """A claim theorem with one chain ``start rel end`` concluding ``conclusion``."""
    conclusion = conclusion or Fact(start, rel, end)
    return Theorem("claim", "claim", (), (), tuple(hyps), (conclusion,),
                   Derivation((Chain("c", start, (Link(rel, end, certificate),)),)))


# --- the canonical printer must be injective on what the kernel accepts -------------------------
def test_a_symbol_named_like_a_sum_does_not_prove_a_false_product_claim():
    """False: a = -1, b = 1, c = 0 gives a + b >= 0, c >= 0 and a + b*c = -1.  A proposer's
    symbol named "a + b" prints its product with c as "a + b*c", the goal's text."""
    statement = _statement("assume: a + b >= 0, c >= 0\na + b*c >= 0")
    q = sp.Symbol("a + b", real=True)
    theorem = _one_chain((Hyp("h1", Fact(q, ">=", 0)), Hyp("h2", Fact(c, ">=", 0))),
                         sp.Integer(0), "<=", q * c, Certificate((Term(1, ("h1", "h2")),)),
                         Fact(q * c, ">=", 0))
    with pytest.raises(DerivationError):
        kernel.check_claim(statement, ClaimProof((), theorem))


@pytest.mark.parametrize("name", ["a + b", "2", "x**2", "-1", "a*b", "S[t]", "Dot(u, v)", "",
                                  "x y", "\u03c1"])
def test_the_kernel_refuses_a_symbol_whose_name_is_not_an_identifier(name):
    s = sp.Symbol(name, real=True)
    with pytest.raises(DerivationError):
        kernel.check_theorem(_one_chain((), s ** 2, ">=", sp.Integer(0),
                                        Certificate((Term(1, (kernel.Square(s),)),))))


def test_an_unevaluated_power_of_a_negative_integer_does_not_prove_minus_two_squared_positive():
    """False: -2**2 is -(2**2) = -4.  The proposer's (-2)**2, built unevaluated, printed as
    "-2**2" too."""
    statement = _statement("-2**2 >= 1")
    lhs = sp.Pow(sp.Integer(-2), sp.Integer(2), evaluate=False)
    theorem = _one_chain((), sp.Integer(1), "<=", lhs, Certificate((Term(3, ()),)),
                         Fact(lhs, ">=", 1))
    with pytest.raises(DerivationError):
        kernel.check_claim(statement, ClaimProof((), theorem))


def test_the_printer_tells_a_negative_base_from_a_negated_power():
    from verify.kernel.statements import expression_text

    negative_base = sp.Pow(sp.Integer(-2), sp.Integer(2), evaluate=False)
    negated = sp.Mul(-1, sp.Pow(sp.Integer(2), sp.Integer(2), evaluate=False), evaluate=False)
    assert expression_text(negative_base) != expression_text(negated)


def _trees():
    leaves = st.one_of(st.sampled_from([a, b, c]), st.integers(-4, 4).map(sp.Integer),
                       st.tuples(st.integers(-4, 4), st.integers(1, 4)).map(
                           lambda p: sp.Rational(*p)))

    def extend(children):
        parts = st.tuples(st.lists(children, min_size=2, max_size=3), st.booleans())
        return st.one_of(parts.map(lambda p: sp.Add(*p[0], evaluate=p[1])),
                         parts.map(lambda p: sp.Mul(*p[0], evaluate=p[1])),
                         st.tuples(children, st.integers(-2, 3), st.booleans()).map(
                             lambda p: sp.Pow(p[0], p[1], evaluate=p[2])))
    return st.recursive(leaves, extend, max_leaves=6)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(_trees())
@example(sp.Add(a, sp.Pow(sp.Integer(-1), sp.Integer(0), evaluate=False), evaluate=False))
@example(sp.Pow(sp.Integer(-2), sp.Integer(2), evaluate=False))
def test_the_canonical_text_of_an_expression_reads_back_as_the_same_value(e):
    """Whatever a proposer builds (evaluated or not), reading the kernel's text back gives the
    same value: two expressions with one text have one value."""
    from verify.kernel.inputs import expression
    from verify.kernel.statements import expression_text

    try:
        expression(e, frozenset())
    except DerivationError:
        return
    if e.has(sp.zoo, sp.nan, sp.oo):
        return
    back = sp.parse_expr(expression_text(e), local_dict={"a": a, "b": b, "c": c})  # test text
    difference = sp.cancel(back - e)
    assert difference == 0 or difference.has(sp.zoo, sp.nan), expression_text(e)


# --- which lines a renderer shows: Python's splitlines is not Markdown's ------------------------
_NOT_MARKDOWN_LINE_ENDS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("sep", _NOT_MARKDOWN_LINE_ENDS)
def test_a_visible_claim_after_a_character_splitlines_breaks_at_is_checked(sep):
    """str.splitlines() ends a line at these characters, CommonMark does not: every line
    number after one was off by one and the claim fence was taken for the inside of another
    fence, so a visible false claim was never checked ("0 of 0 claims", exit 0)."""
    from verify.claims.documents import check_markdown_text

    claims = check_markdown_text(f"a{sep}b\n\n```claim\nx >= 1\n```\n")
    assert [(c.line, c.verdict.status, c.passed) for c in claims] == [(3, "refuted", False)]


@pytest.mark.parametrize("sep", _NOT_MARKDOWN_LINE_ENDS)
def test_a_comment_line_does_not_hide_an_assumption_behind_such_a_character(sep):
    """The reader sees one comment line '# why...assume: x >= 5'; the parser split it in two
    and read a hidden assumption that made the false x >= 3 true."""
    from verify.claims.documents import check_markdown_text

    body = f"# why it holds{sep}assume: x >= 5\nx >= 3"
    assert parse_claim(body).assumptions == ()
    (claim,) = check_markdown_text(f"```claim\n{body}\n```\n")
    assert claim.verdict.status == "refuted" and not claim.passed


@pytest.mark.parametrize("info", ["cl&#97;im", "&#x63;laim", "{.cl&#97;im}"])
def test_a_claim_fence_whose_info_string_spells_claim_with_an_entity_is_checked(info):
    """CommonMark decodes entities in an info string: the renderer shows a ``claim`` block
    (class language-claim) that was never checked."""
    from verify.claims.documents import check_markdown_text

    claims = check_markdown_text(f"```{info}\nx >= 1\n```\n")
    assert [(c.verdict.status, c.passed) for c in claims] == [("refuted", False)]


def test_the_mkdocs_plugin_replaces_the_lines_the_claim_is_on():
    """The plugin numbered lines with splitlines too: after a \\x1c it replaced the wrong
    lines, leaving the claim's own text on the page under another block's badge."""
    from types import SimpleNamespace

    from verify.claims.mkdocs_plugin import ClaimsPlugin

    plugin = ClaimsPlugin()
    plugin.load_config({})
    page = SimpleNamespace(file=SimpleNamespace(src_uri="p.md"))
    out = plugin.on_page_markdown("a\x1cb\n\n```claim\nx**2 >= 0\n```\ntail\n", page, {}, None)
    assert "```" not in out and out.startswith("a\x1cb\n") and out.endswith("tail\n")
    assert "pla-claim-proved" in out


# --- Coq: the statement Coq checks is the claim's, and names never collide ----------------------
def test_coq_keeps_the_domain_of_a_square_root_of_an_irrational_constant():
    """Coq's sqrt and / are total (sqrt(-1) = 0, 1/0 = 0): a domain condition dropped because
    its expression has no variables let Coq prove sqrt(sqrt(2) - 2) == 0, which is undefined."""
    from verify.coq.claim_files import coq_statement

    assert "(0 <= ((sqrt 2) - 2))" in coq_statement(parse_claim("sqrt(sqrt(2) - 2) == 0"), "c")
    assert "<> 0" in coq_statement(parse_claim("1/(sqrt(2) - sqrt(2)) == 0"), "c")


def test_names_of_the_claim_never_collide_with_the_names_of_the_coq_script(tmp_path):
    """True claims the kernel proves, refused by Coq before: a variable z (the integer's
    witness), H1 / D1 (hypothesis names), SProp (a sort), sqrt_pos / sqrt_sqrt (lemmas the
    script applies), a sum from a negative index (psum f -3 T), and a square root of a constant
    square root (its argument's sign asserted too early)."""
    from tests.test_claims_coq import _coqc
    from verify.claims.documents import check_markdown_text
    from verify.coq.claim_files import check_proved_claims

    _coqc()
    texts = ["assume: z integer, z >= 0\nz**2 >= 0", "assume: H1 >= 0, HN >= 1\nH1 + HN >= 1",
             "assume: n integer, n >= -4\nSum(1, (k, -3, n)) == n + 4",
             "assume: D1 > 0\n1/D1 > 0", "sqrt(sqrt(2)) >= 1", "assume: SProp >= 0\nSProp + 1 > 0",
             "assume: sqrt_pos >= 0, sqrt_sqrt >= 0\nsqrt(sqrt_pos)**2 + sqrt_sqrt >= 0"]
    claims = check_markdown_text("".join(f"```claim\n{t}\n```\n\n" for t in texts))
    assert [c.verdict.status for c in claims] == ["proved"] * len(texts)
    assert check_proved_claims(((c.location, c.verdict) for c in claims), str(tmp_path)) == []


def test_a_claim_on_the_first_line_of_a_file_with_a_byte_order_mark_is_checked(tmp_path):
    """GitHub and mkdocs (which reads utf-8-sig) drop a BOM and show the claim; pla claims
    read it as paragraph text: "0 of 0 claims", exit 0, for a visible false claim."""
    from verify.claims.documents import check_markdown_file

    path = tmp_path / "notes.md"
    path.write_bytes("\ufeff```claim\nx >= 1\n```\n".encode("utf-8"))
    assert [(c.line, c.verdict.status) for c in check_markdown_file(path)] == [(1, "refuted")]


def test_the_mkdocs_plugin_places_verdicts_on_a_page_with_front_matter():
    """mkdocs decides claims on the file's text (front matter included) and hands
    on_page_markdown the text without it: every claim's verdict landed three lines too low,
    over the next claim's fence, and the first claim was left as a plain code block."""
    from types import SimpleNamespace

    from verify.claims.documents import check_markdown_text
    from verify.claims.mkdocs_plugin import ClaimsPlugin

    body = "```claim\nx**2 >= 0\n```\n\n```claim\nexpect: refuted\nx >= 1\n```\n"
    plugin = ClaimsPlugin()
    plugin.load_config({})
    plugin.claims["p.md"] = check_markdown_text("---\ntitle: t\n---\n" + body, "p.md")
    page = SimpleNamespace(file=SimpleNamespace(src_uri="p.md"))
    out = plugin.on_page_markdown(body, page, {}, None)
    assert "```" not in out
    assert out.index("pla-claim-proved") < out.index("pla-claim-refuted")


@pytest.mark.parametrize("text, shown", [
    ("sqrt(sqrt(2)) >= 1", "for all values: sqrt(sqrt(2)) >= 1"),
    ("Abs(Abs(x) - 1) >= 0", "for all real x: Abs(Abs(x) - 1) >= 0")])
def test_the_proved_statement_shows_nested_atoms_as_the_reader_wrote_them(text, shown):
    """The statement printed back showed an inner atom in the certificate's notation:
    'sqrt(√(2)) >= 1'."""
    from verify.claims.verdict import check_claim_text

    assert check_claim_text(text).statement == shown
