"""Review attacks on this stop's kernel rules (CaseSplit, SquareCompare, Antisymmetry).

A lying proposer tries to smuggle facts across a case split's boundary into the side
conditions of squaring and of antisymmetry, or hands a split whose branches prove something
other than what the split claims.  The kernel must refuse every one.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.kernel import (
    Antisymmetry, CaseSplit, Certificate, Chain, Derivation, DerivationError, Fact, Hyp, Link,
    SquareCompare, Square, Term, Theorem, check_theorem,
)

x, y = sympy.symbols("x y", real=True)


def theorem(hyps, conclusion, *lines):
    return Theorem("t", "t", (), (), tuple(hyps), (conclusion,), Derivation(tuple(lines)))


def by(name, start, rel, end, *factors, coeff=1):
    return Chain(name, start, (Link(rel, end, Certificate((Term(coeff, tuple(factors)),))),))


_TRIVIAL = Derivation((by("sq", x ** 2, ">=", 0, Square(x)),))


def test_branches_proving_a_different_fact_than_the_split_claims_are_refused():
    """The split claims x >= 0 (false); both branches prove only x**2 >= 0."""
    split = CaseSplit("c", x, Fact(x, ">=", 0), _TRIVIAL, _TRIVIAL)
    with pytest.raises(DerivationError, match=r"case x < 0: conclusion x >= 0 is not derived"):
        check_theorem(theorem((), Fact(x, ">=", 0), split))


def test_a_split_whose_conclusion_is_not_the_theorems_proves_nothing():
    """The split proves x**2 >= 0 honestly; the theorem claims x >= 0 from it."""
    inner = Derivation((by("sqi", x ** 2, ">=", 0, Square(x)),))
    split = CaseSplit("c", x, Fact(x ** 2, ">=", 0), inner, inner)
    with pytest.raises(DerivationError, match=r"conclusion x >= 0 is not derived"):
        check_theorem(theorem((), Fact(x, ">=", 0), split))


def test_squaring_after_a_split_cannot_use_nonnegativity_proved_only_in_one_case():
    """x**2 >= 1 does not give x >= 1: x >= 0 holds in the positive case only (named 'pos'
    there), and SquareCompare after the split must not see it."""
    hyps = (Hyp("sq", Fact(x ** 2, ">=", 1)),)
    split = CaseSplit("c", x, Fact(x ** 2, ">=", 0),
                      Derivation((by("pos", x, ">=", 0, "c"),
                                  by("sqi", x ** 2, ">=", 0, Square(x)))),
                      Derivation((by("sqi", x ** 2, ">=", 0, Square(x)),)))
    with pytest.raises(DerivationError, match="squaring both sides needs x >= 0"):
        check_theorem(theorem(hyps, Fact(x, ">=", 1), split, SquareCompare("l", x, ">=", 1)))


def test_squaring_inside_the_negative_case_cannot_use_the_positive_case_fact():
    """In the case x < 0, squaring x**2 >= 1 to x >= 1 is refused (x >= 0 is not there)."""
    hyps = (Hyp("sq", Fact(x ** 2, ">=", 1)),)
    pos = Derivation((SquareCompare("up", x, ">=", 1),))
    split = CaseSplit("c", x, Fact(x, ">=", 1), pos, pos)
    with pytest.raises(DerivationError, match="needs x >= 0"):
        check_theorem(theorem(hyps, Fact(x, ">=", 1), split))


def test_antisymmetry_after_a_split_cannot_use_a_half_from_inside_a_case():
    """x <= y is a hypothesis; x >= y is derived only in the case x - y >= 0."""
    hyps = (Hyp("le", Fact(x, "<=", y)),)
    branch_pos = Derivation((by("ge", x, ">=", y, "c"), by("sqi", x ** 2, ">=", 0, Square(x))))
    branch_neg = Derivation((by("sqi", x ** 2, ">=", 0, Square(x)),))
    split = CaseSplit("c", x - y, Fact(x ** 2, ">=", 0), branch_pos, branch_neg)
    with pytest.raises(DerivationError, match="needs x >= y"):
        check_theorem(theorem(hyps, Fact(x, "=", y), split, Antisymmetry("eq", x, y)))


def test_antisymmetry_inside_a_case_needs_both_halves_there():
    """In the case x - y >= 0 the case fact gives x >= y but nothing gives x <= y."""
    inner = Derivation((by("ge", x, ">=", y, "c"), Antisymmetry("eq", x, y)))
    split = CaseSplit("c", x - y, Fact(x, "=", y), inner, inner)
    with pytest.raises(DerivationError, match=r"case x - y >= 0: line eq: x = y needs x <= y"):
        check_theorem(theorem((), Fact(x, "=", y), split))


def test_the_split_case_fact_cannot_be_cited_after_the_split():
    """'c' (x >= 0 / x < 0) exists only inside the branches."""
    split = CaseSplit("c", x, Fact(x ** 2, ">=", 0),
                      Derivation((by("sqi", x ** 2, ">=", 0, Square(x)),)),
                      Derivation((by("sqi", x ** 2, ">=", 0, Square(x)),)))
    with pytest.raises(DerivationError, match=r"certificate does not match"):
        check_theorem(theorem((), Fact(x, ">=", 0), split, by("after", x, ">=", 0, "c")))


@settings(max_examples=20, deadline=None)
@given(k=st.fractions(min_value=Fraction(1, 10), max_value=10, max_denominator=20))
def test_squaring_with_nonnegativity_only_from_a_branch_is_refused_for_any_bound(k):
    kk = sympy.Rational(k.numerator, k.denominator)
    hyps = (Hyp("sq", Fact(x ** 2, ">=", kk ** 2)),)
    split = CaseSplit("c", x, Fact(x ** 2, ">=", 0),
                      Derivation((by("pos", x, ">=", 0, "c"),
                                  by("sqi", x ** 2, ">=", 0, Square(x)))),
                      Derivation((by("sqi", x ** 2, ">=", 0, Square(x)),)))
    with pytest.raises(DerivationError, match=r"squaring both sides needs x >= 0"):
        check_theorem(theorem(hyps, Fact(x, ">=", kk), split, SquareCompare("l", x, ">=", kk)))


def test_control_the_same_squaring_is_accepted_when_x_nonneg_is_a_hypothesis():
    """The refusals above are about scope, not about the squaring line itself."""
    hyps = (Hyp("sq", Fact(x ** 2, ">=", 1)), Hyp("pos", Fact(x, ">=", 0)))
    checked = check_theorem(theorem(hyps, Fact(x, ">=", 1), SquareCompare("l", x, ">=", 1)))
    assert "compare-squares" in checked.rules
