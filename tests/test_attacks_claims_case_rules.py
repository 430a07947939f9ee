"""Issue 25: the kernel's rules for Abs and sqrt (cases, compare-squares, antisymmetry),
attacked as a lying proposer would use them.

Each attack is a derivation that would "prove" a false fact if a rule checked less than it
says: a split that leaves out a case, a fact leaking out of one case, squaring a side that may be
negative, a strict conclusion from non-strict squares, an equality from one half.  The
hypothesis test builds random derivations from these rules over random hypotheses and checks
every theorem the kernel accepts by exact evaluation at rational points.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
import sympy
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from verify.kernel import (
    Antisymmetry, CaseSplit, Certificate, Chain, Derivation, DerivationError, Fact, Hyp, Link,
    Rewrite, Square, SquareCompare, Term, Theorem, check_theorem,
)

x, y, s = sympy.symbols("x y s", real=True)


def theorem(hyps, conclusion, *lines):
    return Theorem("t", "t", (), (), tuple(hyps), (conclusion,), Derivation(tuple(lines)))


def by(name, start, rel, end, *factors, coeff=1):
    """One-link chain ``start rel end`` with the certificate ``coeff * product(factors)``."""
    return Chain(name, start, (Link(rel, end, Certificate((Term(coeff, tuple(factors)),))),))


# -- case split ------------------------------------------------------------------------------------
def test_a_split_proves_the_conclusion_only_when_both_cases_do():
    """x >= 0 'by cases on x': the case x >= 0 is the conclusion itself, the case x < 0 has
    nothing to offer, so the kernel names that case."""
    split = CaseSplit("c", x, Fact(x, ">=", 0), Derivation(()), Derivation(()))
    with pytest.raises(DerivationError, match=r"case x < 0: conclusion x >= 0 is not derived"):
        check_theorem(theorem((), Fact(x, ">=", 0), split))


def test_a_split_on_a_different_expression_does_not_give_the_cases_the_proof_needs():
    """|x| = x needs x >= 0; splitting on y gives y >= 0 / y < 0, never x >= 0."""
    hyps = (Hyp("s>=0", Fact(s, ">=", 0)), Hyp("s^2", Rewrite(s, 2, x ** 2)))
    inner = Derivation((SquareCompare("up", x, ">=", s),))
    split = CaseSplit("c", y, Fact(x, ">=", s), inner, inner)
    with pytest.raises(DerivationError, match="squaring both sides needs x >= 0"):
        check_theorem(theorem(hyps, Fact(x, ">=", s), split))


def test_a_fact_derived_inside_one_case_is_not_available_after_the_split():
    hyps = (Hyp("h", Fact(x, ">=", 1)),)
    inner = Derivation((by("inside", x, ">=", 0, "c"),))
    from_h = Certificate((Term(1, ("h",)), Term(1, ())))
    split = CaseSplit("c", x, Fact(1, ">=", 0), inner,
                      Derivation((Chain("inside", x, (Link(">=", 0, from_h),)),)))
    with pytest.raises(DerivationError, match="conclusion x >= 0 is not derived"):
        check_theorem(theorem(hyps, Fact(x, ">=", 0), split))


def test_the_case_fact_is_named_by_the_kernel_and_a_branch_cannot_redefine_it():
    inner = Derivation((by("c", x, ">=", 0, Square(x)),))
    split = CaseSplit("c", x, Fact(x, ">=", 0), inner, inner)
    with pytest.raises(DerivationError, match="line name 'c' used twice"):
        check_theorem(theorem((), Fact(x, ">=", 0), split))


def test_a_split_whose_name_is_already_a_hypothesis_is_refused():
    split = CaseSplit("h", x, Fact(x ** 2, ">=", 0), Derivation(()), Derivation(()))
    with pytest.raises(DerivationError, match="used twice"):
        check_theorem(theorem((Hyp("h", Fact(y, ">", 0)),), Fact(x ** 2, ">=", 0), split))


def test_a_split_with_a_denominator_is_refused():
    split = CaseSplit("c", 1 / x, Fact(1, ">=", 0), Derivation(()), Derivation(()))
    with pytest.raises(DerivationError, match="split expression must be a polynomial"):
        check_theorem(theorem((), Fact(1, ">=", 0), split))


def test_case_splits_nested_too_deep_are_refused_before_any_work():
    d = Derivation(())
    for _ in range(12):
        d = Derivation((CaseSplit("c", x, Fact(1, ">=", 0), d, d),))
    with pytest.raises(DerivationError, match="nested deeper"):
        check_theorem(theorem((), Fact(1, ">=", 0), *d.lines))


def test_abs_of_x_is_x_for_x_nonneg_by_squares_and_the_triangle_inequality_by_cases():
    """What the rules are for: both accepted, and the rules listed."""
    a = sympy.Symbol("a", real=True)
    hyps = (Hyp("a>=0", Fact(a, ">=", 0)), Hyp("a^2", Rewrite(a, 2, x ** 2)),
            Hyp("a>=x", Fact(a, ">=", x)), Hyp("x>=0", Fact(x, ">=", 0)))
    checked = check_theorem(theorem(hyps, Fact(a, "=", x), SquareCompare("le", x, ">=", a),
                                    Antisymmetry("eq", a, x)))
    assert {"compare-squares", "antisymmetry"} <= set(checked.rules)
    # |x| <= 1 from -1 <= x <= 1, by cases on x (|x| = x or -x in each case, by squares)
    hyps = (Hyp("a>=0", Fact(a, ">=", 0)), Hyp("a^2", Rewrite(a, 2, x ** 2)),
            Hyp("lo", Fact(x, ">=", -1)), Hyp("hi", Fact(x, "<=", 1)))
    pos = Derivation((SquareCompare("sq", x, ">=", a),
                      Chain("g", a, (Link("<=", x, Certificate((Term(1, ("sq",)),))),
                                     Link("<=", 1, Certificate((Term(1, ("hi",)),)))))))
    neg = Derivation((SquareCompare("sq", -x, ">=", a),
                      Chain("g", a, (Link("<=", -x, Certificate((Term(1, ("sq",)),))),
                                     Link("<=", 1, Certificate((Term(1, ("lo",)),)))))))
    checked = check_theorem(theorem(hyps, Fact(a, "<=", 1),
                                    CaseSplit("c", x, Fact(a, "<=", 1), pos, neg)))
    assert "cases" in checked.rules


# -- squaring both sides -------------------------------------------------------------------------
def test_squaring_a_side_that_may_be_negative_is_refused():
    """x**2 >= 1 does not give x >= 1 (x = -2)."""
    hyps = (Hyp("sq", Fact(x ** 2, ">=", 1)),)
    with pytest.raises(DerivationError, match="squaring both sides needs x >= 0"):
        check_theorem(theorem(hyps, Fact(x, ">=", 1), SquareCompare("l", x, ">=", 1)))


def test_squaring_needs_the_smaller_side_nonnegative_too():
    hyps = (Hyp("x", Fact(x, ">=", 0)), Hyp("sq", Fact(x ** 2, ">=", y ** 2)))
    with pytest.raises(DerivationError, match="needs y >= 0"):
        check_theorem(theorem(hyps, Fact(x, ">=", y), SquareCompare("l", x, ">=", y)))


def test_a_strict_conclusion_needs_strict_squares():
    hyps = (Hyp("x", Fact(x, ">=", 0)), Hyp("y", Fact(y, ">=", 0)),
            Hyp("sq", Fact(x ** 2, ">=", y ** 2)))
    with pytest.raises(DerivationError, match=r"needs \(x\)\*\*2 > \(y\)\*\*2"):
        check_theorem(theorem(hyps, Fact(x, ">", y), SquareCompare("l", x, ">", y)))


@pytest.mark.parametrize("rel", ["<=", "<", "=", "!="])
def test_squaring_concludes_only_greater_or_equal_and_greater(rel):
    with pytest.raises(DerivationError):
        check_theorem(theorem((), Fact(1, ">=", 0), SquareCompare("l", 2, rel, 1)))


def test_squares_in_the_wrong_direction_are_refused():
    hyps = (Hyp("x", Fact(x, ">=", 0)), Hyp("y", Fact(y, ">=", 0)),
            Hyp("sq", Fact(y ** 2, ">=", x ** 2)))
    with pytest.raises(DerivationError, match="needs"):
        check_theorem(theorem(hyps, Fact(x, ">=", y), SquareCompare("l", x, ">=", y)))


# -- antisymmetry --------------------------------------------------------------------------------
def test_an_equality_needs_both_halves():
    hyps = (Hyp("le", Fact(x, "<=", y)),)
    with pytest.raises(DerivationError, match="needs x >= y"):
        check_theorem(theorem(hyps, Fact(x, "=", y), Antisymmetry("eq", x, y)))


def test_an_equality_from_halves_about_other_sides_is_refused():
    hyps = (Hyp("le", Fact(x, "<=", y)), Hyp("ge", Fact(x, ">=", y + 1)))
    with pytest.raises(DerivationError, match="needs x >= y"):
        check_theorem(theorem(hyps, Fact(x, "=", y), Antisymmetry("eq", x, y)))


# -- a lying proposer, at random -----------------------------------------------------------------
POOL = [x, y, x - y, y - x, x + y, x ** 2 - y ** 2, y ** 2 - x ** 2, x - 1, 1 - x, x * y, -x,
        sympy.S(1), sympy.S(0), x ** 2 - 1, 2 * x - y]
GRID = [Fraction(v) for v in (-3, -2, -1, Fraction(-1, 2), 0, Fraction(1, 3), 1, 2, 3)]

exprs = st.sampled_from(POOL)
rels = st.sampled_from(["<=", "<", "=", ">=", ">"])
facts = st.builds(Fact, exprs, rels, exprs)
#: Hypotheses the rules need (and some that look as if they would do).
USEFUL = [Fact(x, ">=", 0), Fact(y, ">=", 0), Fact(x ** 2, ">=", y ** 2), Fact(x ** 2, ">", y ** 2),
          Fact(x, "<=", y), Fact(x ** 2, ">=", 1), Fact(x, ">=", -1), Fact(y ** 2, "<=", x ** 2),
          Fact(x * y, ">=", 0), Fact(x - y, ">", 0)]
hypotheses = st.one_of(st.sampled_from(USEFUL), facts)


def _line(name, depth):
    simple = st.one_of(
        st.builds(SquareCompare, st.just(name), exprs, st.sampled_from([">=", ">", "<="]), exprs),
        st.builds(Antisymmetry, st.just(name), exprs, exprs),
        st.builds(lambda a, rel, b, f: by(name, a, rel, b, *f), exprs, rels, exprs,
                  st.lists(st.sampled_from(["h0", "h1", "h2", "c", "l1", "l1i"]), max_size=2)))
    if depth == 0:
        return simple
    branch = st.lists(_line(f"{name}i", depth - 1), max_size=2).map(
        lambda ls: Derivation(tuple(ls)))
    conclusions = st.one_of(facts, st.sampled_from(USEFUL))
    return st.one_of(simple, st.builds(CaseSplit, st.just(name), exprs, conclusions, branch,
                                       branch))


def _stated(line):
    """The fact a line claims (what a proposer would put as the theorem's conclusion)."""
    if isinstance(line, SquareCompare):
        return Fact(line.larger, line.rel, line.smaller)
    if isinstance(line, Antisymmetry):
        return Fact(line.lhs, "=", line.rhs)
    if isinstance(line, CaseSplit):
        return line.conclusion
    return Fact(line.start, line.links[0].rel, line.links[0].expr)


def _holds(f, point):
    lhs = sympy.S(f.lhs).subs(point)
    rhs = sympy.S(f.rhs).subs(point)
    return {"<=": lhs <= rhs, "<": lhs < rhs, "=": lhs == rhs, ">=": lhs >= rhs,
            ">": lhs > rhs}[f.rel]


ACCEPTED: list = []


_SQUARE = by("l1", x ** 2, ">=", 0, Square(x))
_INNER = Derivation((by("l2i", x ** 2, ">=", 0, Square(x)),))
_EXAMPLES = [  # one accepted theorem per new rule, so the property never runs empty
    ([], (_SQUARE, CaseSplit("l2", x, Fact(x ** 2, ">=", 0), _INNER, _INNER))),
    ([Fact(x, ">=", 0), Fact(y, ">=", 0), Fact(x ** 2, ">=", y ** 2)],
     (_SQUARE, SquareCompare("l2", x, ">=", y))),
    ([Fact(x, "<=", y), Fact(x, ">=", y)], (_SQUARE, Antisymmetry("l2", x, y))),
]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@example(*_EXAMPLES[0])
@example(*_EXAMPLES[1])
@example(*_EXAMPLES[2])
@given(hyps=st.lists(hypotheses, max_size=3), lines=st.tuples(_line("l1", 1), _line("l2", 1)))
def test_every_theorem_a_random_proposer_gets_accepted_is_true_at_every_grid_point(hyps, lines):
    conclusion = _stated(lines[-1])
    if conclusion.rel not in ("<=", "<", "=", ">=", ">"):
        return
    thm = theorem([Hyp(f"h{i}", f) for i, f in enumerate(hyps)], conclusion, *lines)
    try:
        checked = check_theorem(thm)
    except DerivationError:
        return
    ACCEPTED.append(checked.rules)
    for vx, vy in product(GRID, repeat=2):
        point = {x: sympy.Rational(vx), y: sympy.Rational(vy)}
        if all(_holds(f, point) for f in hyps):
            assert _holds(conclusion, point), (thm, point)


def test_the_random_proposer_gets_theorems_with_each_new_rule_accepted():
    """The property above is not empty: its examples are accepted, with each new rule."""
    ACCEPTED.clear()
    for hyps, lines in _EXAMPLES:
        test_every_theorem_a_random_proposer_gets_accepted_is_true_at_every_grid_point.hypothesis\
            .inner_test(hyps=hyps, lines=lines)
    used = set().union(*map(set, ACCEPTED))
    assert {"cases", "compare-squares", "antisymmetry"} <= used


# -- the claim proposer, lying ---------------------------------------------------------------------
def test_a_proposer_that_squares_without_the_side_conditions_proves_nothing(monkeypatch):
    """x**2 >= 1 does not give x >= 1: a proposer that emits the squaring line alone (no
    x >= 0) is refused by the kernel, and the claim stays unproved."""
    from verify.claims import propose_roots
    from verify.claims.parser import parse_claim
    from verify.claims.verdict import _prove

    def lying(prover, name, big, small, strict):
        return (SquareCompare(name, big, ">" if strict else ">=", small),), "squares"

    monkeypatch.setattr(propose_roots, "_by_squares", lying)
    for text in ("assume: x**2 >= 1\nx >= 1", "assume: y >= 0\nsqrt(y) >= y",
                 "Abs(x) <= x", "sqrt(x**2) == x"):
        status, reason, _ = _prove(parse_claim(text), vacuity=False)
        assert status != "proved", (text, reason)


def test_a_proposer_whose_case_split_proves_only_one_case_proves_nothing(monkeypatch):
    """Abs(x) <= x (false for x < 0): a split whose negative case repeats the positive case's
    proof is refused (the case fact there is x < 0)."""
    from verify.claims import propose_roots
    from verify.claims.parser import parse_claim
    from verify.claims.verdict import _prove

    def lying(prover, j, goal, conclusion, atoms, path):
        atom = atoms[0]
        name = f"case{j}"
        proof = Derivation((SquareCompare(f"{name}up", atom.argument, ">=", atom.symbol),))
        return CaseSplit(name, atom.argument, conclusion, proof, proof), "lying"

    monkeypatch.setattr(propose_roots, "_split", lying)
    monkeypatch.setattr(propose_roots, "_halves", lambda *a: None)
    status, reason, _ = _prove(parse_claim("Abs(x) <= x"), vacuity=False)
    assert status != "proved", reason
    assert "case" in reason or "certificate" in reason
