"""Norms (issue 25): Cauchy–Schwarz without a hypothesis, |dot(u, v)| <= norm(u)*norm(v) and the
vector triangle inequality are proved by the kernel with its existing rules (a case split on
the sign of -dot(v, v), squaring both sides); their false twins are refuted at small integer
vectors a reader checks by hand; Cauchy–Schwarz lines forged by a lying proposer are refused."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from verify import kernel
from verify.claims.parser import parse_claim
from verify.claims.propose import _Prover
from verify.claims.propose_norms import cauchy_schwarz_lines, needs_cauchy_schwarz
from verify.claims.verdict import _propose, check_claim_text
from verify.kernel import (
    CaseSplit,
    Certificate,
    Chain,
    Derivation,
    DerivationError,
    Fact,
    Hyp,
    Link,
    NormSq,
    Rewrite,
    Term,
    Theorem,
    check_theorem,
    dot,
)

u, v = sympy.symbols("u v")
A, B = sympy.symbols("A B", real=True)      # norm(u), norm(v) as atoms
a, b, c = dot(v, v), dot(u, v), dot(u, u)
CS = Fact(b ** 2, "<=", c * a)
NORMS = (Hyp("A>=0", Fact(A, ">=", 0)), Hyp("A^2", Rewrite(A, 2, c)),
         Hyp("B>=0", Fact(B, ">=", 0)), Hyp("B^2", Rewrite(B, 2, a)))

FACTS = ["vectors: u, v\ndot(u, v)**2 <= dot(u, u)*dot(v, v)",
         "vectors: u, v\nnorm(u + v) <= norm(u) + norm(v)",
         "vectors: u, v\nAbs(dot(u, v)) <= norm(u)*norm(v)"]


@pytest.mark.parametrize("text", FACTS)
def test_the_norm_facts_are_proved_by_the_kernel_without_a_hypothesis(text):
    verdict = check_claim_text(text)
    assert verdict.status == "proved", verdict.reason
    assert verdict.certificate.startswith("Cauchy-Schwarz: dot(u, v)**2 <= dot(u, u)*dot(v, v)")


@pytest.mark.parametrize("text, point", [
    ("vectors: u, v\ndot(u, v)**2 >= dot(u, u)*dot(v, v)",
     "u = (0, 1), v = (1, 0): dot(u, v)**2 = 0 < dot(u, u)*dot(v, v) = 1"),
    ("vectors: u, v\nAbs(dot(u, v)) >= norm(u)*norm(v)",
     "u = (0, 1), v = (1, 0): Abs(dot(u, v)) = 0 < norm(u)*norm(v) = 1"),
    ("vectors: u, v\nnorm(u + v) >= norm(u) + norm(v)",
     "u = (1), v = (-1): norm(u + v) = 0 < norm(u) + norm(v) = 2"),
])
def test_the_false_twins_are_refuted_at_small_integer_vectors(text, point):
    verdict = check_claim_text(text)
    assert verdict.status == "refuted"
    assert verdict.reason == point


def test_only_claims_that_may_need_cauchy_schwarz_get_its_lines():
    """A Novikoff step (linear in the inner products) gets none: its search stays as it was."""
    step = _Prover(parse_claim("vectors: w, x\nassume: y**2 == 1, y*dot(w, x) <= 0\n"
                               "dot(w + y*x, w + y*x) <= dot(w, w) + dot(x, x)"))
    assert not needs_cauchy_schwarz(step)
    assert cauchy_schwarz_lines(step) == ((), "")
    assert not needs_cauchy_schwarz(_Prover(parse_claim("vectors: u\nnorm(u)**2 == dot(u, u)")))


def _proposed_lines(text: str) -> tuple:
    prover = _Prover(parse_claim(text))
    prover.assumptions()
    prover.goal_domains()
    return prover, cauchy_schwarz_lines(prover)[0]


def test_the_proposed_lines_use_the_case_split_and_the_kernel_checks_each_conclusion():
    prover, lines = _proposed_lines(FACTS[2])
    assert [line.name for line in lines] == [
        "cauchy_schwarz_0_1", "cauchy_schwarz_0_1_norms_above", "cauchy_schwarz_0_1_norms_below"]
    split = lines[0]
    assert split.expr == -dot(prover.tr.expr(("sym", "v")), prover.tr.expr(("sym", "v")))
    for k, line in enumerate(lines):
        theorem = Theorem("t", "t", ("u", "v"), (), tuple(prover.known), (line.conclusion,),
                          Derivation(lines[:k + 1]))
        checked = check_theorem(theorem)
        assert {"cases", "norm-nonneg", "positive-divisor"} <= set(checked.rules)


# -- a lying proposer's Cauchy–Schwarz lines -------------------------------------------------------
def _split(conclusion=CS, zero_vector=None, zero_terms=None, positive_vector=None, expr=None,
           name="cs"):
    """The Cauchy–Schwarz case split of propose_norms, with parts replaced by an attacker."""
    zero_vector = b * u - (c + 1) * v if zero_vector is None else zero_vector
    positive_vector = a * u - b * v if positive_vector is None else positive_vector
    terms = (Term(1, (NormSq(zero_vector),)), Term(1, (name,))) if zero_terms is None \
        else zero_terms
    zero = Derivation((
        Chain("pos", c + 2, (Link(">", 0, Certificate((Term(2, ()), Term(1, (NormSq(u),))))),)),
        Chain("zero", b ** 2, (Link("<=", c * a, Certificate(terms, divisors=("pos",))),)),
    ))
    positive = Derivation((Chain("nonzero", b ** 2, (Link("<=", c * a, Certificate(
        (Term(1, (NormSq(positive_vector),)),), divisors=(name,))),)),))
    return CaseSplit(name, -a if expr is None else expr, conclusion, zero, positive)


def _check(*lines, hyps=(), conclusion=CS):
    return check_theorem(Theorem("t", "t", ("u", "v"), (), tuple(hyps), (conclusion,),
                                 Derivation(tuple(lines))))


def test_control_the_honest_split_is_accepted():
    assert "cases" in _check(_split()).rules


_FRACTIONS = st.fractions(min_value=-3, max_value=3, max_denominator=4)


@settings(max_examples=15, deadline=None)
@given(k=st.fractions(min_value=Fraction(1, 8), max_value=8, max_denominator=8))
def test_a_stronger_conclusion_than_cauchy_schwarz_is_refused(k):
    stronger = Fact(b ** 2 + sympy.Rational(k.numerator, k.denominator), "<=", c * a)
    with pytest.raises(DerivationError, match="is not derived"):
        _check(_split(conclusion=stronger), conclusion=stronger)


@settings(max_examples=15, deadline=None)
@given(p=_FRACTIONS, q=_FRACTIONS)
def test_another_vector_in_the_positive_case_is_refused(p, q):
    """a*(ac - b**2) is dot(w, w) for w = p*a*u - q*b*v only when p = q = ±1."""
    assume((p, q) not in ((1, 1), (-1, -1)))
    vector = sympy.Rational(p.numerator, p.denominator) * a * u - \
        sympy.Rational(q.numerator, q.denominator) * b * v
    with pytest.raises(DerivationError, match="certificate does not match"):
        _check(_split(positive_vector=vector))


@settings(max_examples=15, deadline=None)
@given(t=_FRACTIONS)
def test_another_vector_in_the_zero_case_is_refused(t):
    """(c + 2)(ac - b**2) = dot(w, w) - dot(v, v) for w = b*u - (c + t)*v only when t = 1."""
    assume(t != 1)
    vector = b * u - (c + sympy.Rational(t.numerator, t.denominator)) * v
    with pytest.raises(DerivationError, match="certificate does not match"):
        _check(_split(zero_vector=vector))


def test_the_zero_case_without_its_case_fact_is_refused():
    """dot(v, v) <= 0 is what makes the -dot(v, v) left over nonnegative."""
    with pytest.raises(DerivationError, match="certificate does not match"):
        _check(_split(zero_terms=(Term(1, (NormSq(b * u - (c + 1) * v),)),)))


@pytest.mark.parametrize("expr", [a, -b, c - a])
def test_a_split_on_another_expression_is_refused(expr):
    """The branches cite the case fact as -dot(v, v) >= 0 and dot(v, v) > 0: a split on any
    other expression leaves them citing something else."""
    with pytest.raises(DerivationError):
        _check(_split(expr=expr))


def _norm_line(e, name="n"):
    both = Term(1, ("A>=0", "B>=0"))
    nonneg = Derivation((Chain("ab", A * B, (Link(">=", 0, Certificate((both,))),)),
                         kernel.SquareCompare("sq", A * B, ">=", e)))
    negative = Derivation((Chain("direct", A * B, (Link(">=", e, Certificate(
        (both, Term(1, (name,))))),)),))
    return CaseSplit(name, e, Fact(A * B, ">=", e), nonneg, negative)


def test_the_norm_line_needs_the_cauchy_schwarz_line_before_it():
    honest = _check(_split(), _norm_line(b), hyps=NORMS, conclusion=Fact(A * B, ">=", b))
    assert "compare-squares" in honest.rules
    with pytest.raises(DerivationError, match="squaring both sides needs"):
        _check(_norm_line(b), hyps=NORMS, conclusion=Fact(A * B, ">=", b))


@settings(max_examples=10, deadline=None)
@given(k=st.fractions(min_value=Fraction(1, 8), max_value=8, max_denominator=8))
def test_a_norm_line_above_the_inner_product_plus_a_constant_is_refused(k):
    """norm(u)*norm(v) >= dot(u, v) + k is false (u = v): squaring needs its square."""
    e = b + sympy.Rational(k.numerator, k.denominator)
    with pytest.raises(DerivationError):
        _check(_split(), _norm_line(e), hyps=NORMS, conclusion=Fact(A * B, ">=", e))


@pytest.mark.parametrize("goal, forged", [
    ("dot(u, v) <= dot(u, u)", "dot(u, u) - dot(u, v)"),
    ("norm(u + v) >= norm(u) + norm(v)", "dot(u, v) - norm(u)*norm(v)"),
    ("dot(u, v)**2 >= dot(u, u)*dot(v, v)", "dot(u, v)**2 - dot(u, u)*dot(v, v)"),
])
def test_a_proposer_adding_a_false_fact_to_its_cauchy_schwarz_lines_proves_nothing(
        monkeypatch, goal, forged):
    """The proposer's derived facts are only hints: a false fact ``forged >= 0`` with no
    checked line behind it, which would prove the false goal, is refused by the kernel."""
    import verify.claims.propose_norms as norms

    honest = norms.cauchy_schwarz_lines

    def lying(prover):
        lines, text = honest(prover)
        tree = parse_claim(f"vectors: u, v\n{forged} >= 0").goals[0].lhs
        prover.derived["forged"] = sympy.expand(prover.tr.expr(tree))
        prover.derived_kinds["forged"] = ">=0"
        return lines, text
    monkeypatch.setattr(norms, "cauchy_schwarz_lines", lying)
    status, reason, *_ = _propose(parse_claim(f"vectors: u, v\n{goal}"), vacuity=False)
    assert status == "unproved"
    assert "no hypothesis or earlier line named 'forged'" in reason


def test_the_one_fact_shortcut_keeps_signs_and_strictness():
    """A goal that is one earlier line up to a positive factor skips the search; a negative
    factor, a strict goal from a non-strict fact, or another expression does not."""
    from verify.claims.propose import _multiple_of_one_fact

    x, y = sympy.symbols("x y")
    facts = [("h", x - y, False)]
    assert _multiple_of_one_fact(sympy, 3 * x - 3 * y, facts, False).terms == ((3, ("h",)),)
    assert _multiple_of_one_fact(sympy, y - x, facts, False) is None
    assert _multiple_of_one_fact(sympy, x - y, facts, True) is None
    assert _multiple_of_one_fact(sympy, x - 2 * y, facts, False) is None
    assert _multiple_of_one_fact(sympy, x - y, [("s", 2 * x - 2 * y, True)], True).terms == \
        ((sympy.Rational(1, 2), ("s",)),)
