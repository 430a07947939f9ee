"""Issue 25: an equality whose denominator is assumed != 0 (the geometric closed form with only
``r != 1``) is proved from its numerator: ``lhs - rhs = N/D`` and the kernel accepts ``N = 0``
when every factor of D is, up to sign, an expression the claim assumes != 0
(:func:`verify.kernel.claim_statements.cleared_equality`).

Attacked as a lying proposer would use it: the cleared form without the assumption, with another
expression assumed != 0, with a factor of D not assumed, for an inequality, and a numerator that
is not 0; then claims generated with and without a remainder.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.claims import check_claim_text
from verify.kernel import (
    Certificate, Chain, ClaimProof, ClaimStatement, Derivation, DerivationError, Domain, Fact,
    Goal, Link, Term, Theorem, check_claim,
)

r = sympy.Symbol("r", real=True)
GEOMETRIC = Goal(1 + r + r ** 2 + r ** 3, "=", (1 - r ** 4) / (1 - r))


def numerator(goal):
    return sympy.fraction(sympy.together(sympy.S(goal.lhs) - sympy.S(goal.rhs)))[0]


def proof_of(conclusion, certificate=Certificate()):
    """The main theorem concluding ``conclusion`` by one line (no hypotheses)."""
    line = Chain("goal1", conclusion.lhs, (Link(conclusion.rel, conclusion.rhs, certificate),))
    return ClaimProof((), Theorem("claim", "claim", (), (), (), (conclusion,),
                                  Derivation((line,))))


def statement(goal, nonzero=(r - 1,)):
    denominator = sympy.fraction(sympy.together(sympy.S(goal.rhs)))[1]
    return ClaimStatement(nonzero=nonzero, goals=(goal,),
                          domains=(Domain(denominator, "nonzero"),))


def test_the_numerator_proves_the_equality_when_the_denominator_is_assumed_nonzero():
    checked = check_claim(statement(GEOMETRIC), proof_of(Fact(numerator(GEOMETRIC), "=", 0)))
    assert "r - 1 != 0" in checked.shown


def test_without_the_assumption_the_numerator_proves_nothing():
    """At r = 1 the right side is undefined: the domain condition 1 - r != 0 is not proved."""
    with pytest.raises(DerivationError, match="domain condition -r \\+ 1 != 0 is not proved"):
        check_claim(statement(GEOMETRIC, nonzero=()),
                    proof_of(Fact(numerator(GEOMETRIC), "=", 0)))


def test_another_expression_assumed_nonzero_does_not_clear_the_denominator():
    goal = Goal(1 + r, "=", (1 - r ** 2) / ((1 - r) * (2 - r)))  # false: only r != 2 assumed
    with pytest.raises(DerivationError):
        check_claim(statement(goal, nonzero=(r - 2,)), proof_of(Fact(numerator(goal), "=", 0)))


def test_a_factor_of_the_denominator_that_is_not_assumed_nonzero_is_not_cleared():
    """D = (1 - r)(1 + r) with only r != 1 assumed: the numerator is not the claim's proof."""
    goal = Goal(1, "=", (1 - r ** 2) / ((1 - r) * (1 + r)))
    st_ = ClaimStatement(nonzero=(r - 1, r + 1), goals=(goal,))
    check_claim(st_, proof_of(Fact(numerator(goal), "=", 0)))  # both assumed: accepted
    with pytest.raises(DerivationError, match="conclusion 1 is"):
        check_claim(ClaimStatement(nonzero=(r - 1,), goals=(goal,)),
                    proof_of(Fact(numerator(goal), "=", 0)))


def test_an_inequality_is_never_concluded_from_its_numerator():
    """Multiplying by a factor of unknown sign keeps an equality, not an inequality."""
    goal = Goal(0, "<=", 1 / (r - 1))                 # false for r < 1
    with pytest.raises(DerivationError, match="conclusion 1 is"):
        check_claim(ClaimStatement(nonzero=(r - 1,), goals=(goal,)),
                    proof_of(Fact(sympy.Integer(1), ">=", 0), Certificate((Term(1, ()),))))


def test_a_numerator_that_is_not_zero_is_rejected_by_the_line_check():
    goal = Goal(1 + r + r ** 2, "=", (1 - r ** 4) / (1 - r))   # false: r**3 is missing
    with pytest.raises(DerivationError, match="certificate does not match"):
        check_claim(statement(goal), proof_of(Fact(numerator(goal), "=", 0)))


def test_a_power_of_an_assumed_nonzero_expression_is_cleared():
    goal = Goal(1, "=", (1 - r) ** 2 / (r - 1) ** 2)
    check_claim(ClaimStatement(nonzero=(r - 1,), goals=(goal,)),
                proof_of(Fact(numerator(goal), "=", 0)))


def test_the_geometric_closed_form_with_only_r_not_1_is_proved():
    verdict = check_claim_text("assume: r != 1\n1 + r + r**2 + r**3 == (1 - r**4)/(1 - r)")
    assert verdict.status == "proved", verdict.explain()
    assert "the sides differ by N/(1 - r) with 1 - r != 0 assumed, and N = 0" in \
        verdict.certificate


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=3), st.integers(-2, 2),
       st.integers(-2, 2))
def test_a_quotient_is_proved_exactly_when_it_divides(coefficients, c, remainder):
    """``P == (P*(r - c) + k)/(r - c)`` assuming r != c: proved only when k = 0, and then proved;
    a k != 0 is refuted at an exact point."""
    p = " + ".join(f"({a})*r**{i}" for i, a in enumerate(coefficients))
    verdict = check_claim_text(f"assume: r != {c}\n{p} == (({p})*(r - ({c})) + ({remainder}))"
                               f"/(r - ({c}))")
    if remainder == 0:
        assert verdict.status == "proved", verdict.explain()
    else:
        assert verdict.status == "refuted", verdict.explain()
        point = verdict.counterexample["r"]   # the assumption holds there, both sides differ
        assert point != c and Fraction(remainder) / (point - c) != 0


def test_sides_that_are_one_rational_function_are_proved_and_a_remainder_is_not():
    """Hypothesis drew (-1)*r**0 == ((-1)*r**0*(r - 1) + 0)/(r - 1): together() makes the
    difference 0 with denominator 1, which no path proved; a remainder of 1 is refuted."""
    same = check_claim_text("assume: r != 1\n(-1)*r**0 == (((-1)*r**0)*(r - 1) + 0)/(r - 1)")
    assert same.status == "proved", same.explain()
    other = check_claim_text("assume: r != 1\n(-1)*r**0 == (((-1)*r**0)*(r - 1) + 1)/(r - 1)")
    assert other.status == "refuted"


def test_one_rational_function_needs_its_denominators_among_the_domain_conditions():
    """The 0 = 0 conclusion says the sides agree where both are defined: a statement whose
    domain conditions (and assumptions) leave out the denominator r - 1 gets no such fact."""
    from dataclasses import replace

    from verify.claims.parser import parse_claim
    from verify.claims.propose import _Prover
    from verify.kernel.claim_statements import cleared_equality

    prover = _Prover(parse_claim("assume: r != 1\n(-1)*r**0 == (((-1)*r**0)*(r - 1))/(r - 1)"))
    goal = prover.statement.goals[0]
    assert cleared_equality(prover.statement, goal) is not None
    assert cleared_equality(replace(prover.statement, domains=(), nonzero=()), goal) is None
