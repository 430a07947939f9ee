"""Attacks on induction with invariants: ``a**n <= b**n`` for ``0 <= a <= b`` needs ``a**n >= 0``
in its step, so the proposer may prove extra conclusions (invariants) after the goals, which the
induction hypothesis then carries, and which the kernel drops once proved
(:func:`verify.kernel.check_claim`).  A lying proposer could hand a false invariant, put an
invariant where a goal belongs, or drop a goal: each is refused; and any power claim that comes
out proved holds at every point tried.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from verify import kernel
from verify.claims import check_claim_text
from verify.claims.induction import prove_power
from verify.claims.parser import parse_claim
from verify.claims.propose import _Prover

MONOTONE = "assume: n >= 0, n integer, a >= 0, b >= a\na**n <= b**n"


def _proved(text: str):
    prover = _Prover(parse_claim(text))
    prover.assumptions()
    checked, certificate = prove_power(prover)
    return prover.statement, checked.theorems[-1].theorem, certificate


def test_power_monotone_is_proved_with_the_invariants_and_says_so():
    statement, theorem, certificate = _proved(MONOTONE)
    assert len(theorem.conclusions) == 3  # the goal, then P[T] >= 0 for a and for b
    assert "proved along with it: (a)**n >= 0, (b)**n >= 0" in certificate
    assert kernel.check_claim(statement, kernel.ClaimProof((), theorem)).shown == \
        "for all real a, b and integer n with n >= 0, a >= 0, b >= a: a**n <= b**n"


def test_a_false_invariant_is_refused():
    """P[T] >= 1 is false for a = 1/2: its base and step lines prove P[T] >= 0, not it."""
    statement, theorem, _ = _proved(MONOTONE)
    goal, first, second = theorem.conclusions
    forged = replace(theorem, conclusions=(goal, kernel.Fact(first.lhs, ">=", 1), second))
    with pytest.raises(kernel.DerivationError):
        kernel.check_claim(statement, kernel.ClaimProof((), forged))


@pytest.mark.parametrize("order", ["invariant first", "goal dropped", "goal twice"])
def test_an_invariant_never_stands_in_for_a_goal(order):
    statement, theorem, _ = _proved(MONOTONE)
    goal, first, second = theorem.conclusions
    conclusions = {"invariant first": (first, goal, second), "goal dropped": (first, second),
                   "goal twice": (goal, goal, first, second)}[order]
    forged = replace(theorem, conclusions=conclusions)
    with pytest.raises(kernel.DerivationError):
        kernel.check_claim(statement, kernel.ClaimProof((), forged))


def test_a_proof_that_is_not_a_theorem_is_refused():
    statement, theorem, _ = _proved(MONOTONE)
    with pytest.raises(kernel.DerivationError, match="kernel Theorem"):
        kernel.check_claim(statement, kernel.ClaimProof((), theorem.proof))


ASSUMPTIONS = ["a >= 0", "a >= -1", "b >= a", "b >= 2*a", "a <= 1", "b <= 1", "b >= 0"]
GOALS = ["a**n <= b**n", "a**n >= b**n", "a**n <= 1", "b**n >= a", "a**(n + 1) <= a**n",
         "(a + 1)**n >= 1", "b**n >= n*b - n + 1"]


@settings(max_examples=12, deadline=None)
@given(assumed=st.lists(st.sampled_from(ASSUMPTIONS), min_size=1, max_size=3, unique=True),
       goal=st.sampled_from(GOALS))
def test_a_proved_power_claim_holds_at_every_point_tried(assumed, goal):
    """Soundness of the whole path: whatever the proposer proves (with or without invariants)
    is checked exactly at n = 0..6 and a grid of rationals a, b satisfying the assumptions."""
    verdict = check_claim_text(f"assume: n >= 0, n integer, {', '.join(assumed)}\n{goal}")
    if verdict.status != "proved":
        return
    grid = [Fraction(k, 4) for k in range(-9, 10)]
    for a, b, n in product(grid, grid, range(7)):
        env = {"a": a, "b": b, "n": n}
        if all(_holds(r, env) for r in assumed):
            assert _holds(goal, env), (goal, assumed, env)


def _holds(relation: str, env: dict) -> bool:
    """The relation at the point, exactly (``**`` of a Fraction by an int stays exact)."""
    for op in ("<=", ">=", "!=", "<", ">"):
        if op in relation:
            left, right = relation.split(op)
            lv, rv = (_value(side, env) for side in (left, right))
            return {"<=": lv <= rv, ">=": lv >= rv, "!=": lv != rv, "<": lv < rv,
                    ">": lv > rv}[op]
    raise ValueError(relation)


def _value(text: str, env: dict) -> Fraction:
    import ast

    def walk(node):
        if isinstance(node, ast.BinOp):
            x, y = walk(node.left), walk(node.right)
            if isinstance(node.op, ast.Pow):
                return x ** int(y)
            if isinstance(node.op, ast.Div):
                return x / y
            return {ast.Add: x + y, ast.Sub: x - y, ast.Mult: x * y}[type(node.op)]
        if isinstance(node, ast.UnaryOp):
            return -walk(node.operand)
        if isinstance(node, ast.Name):
            return env[node.id]
        if isinstance(node, ast.Constant):
            return Fraction(node.value)
        raise ValueError(ast.dump(node))
    return walk(ast.parse(text.strip(), mode="eval").body)


# -- a sum bounded through its closed form: S rel N/D with D > 0 (or < 0) assumed ---------------
GEOMETRIC_BOUND = "assume: n >= 0, n integer, r >= 0, r < 1\nSum(r**k, (k, 0, n)) <= 1/(1 - r)"


def test_the_geometric_bound_is_proved_with_its_closed_form_carried_along():
    statement, theorem, certificate = _proved(GEOMETRIC_BOUND)
    goal = theorem.conclusions[0]
    assert kernel.Fact(goal.lhs, goal.rel, goal.rhs).normal()[1] == ">=0"
    assert "S(n)*r - S(n) = (r)**(n + 1) - 1" in certificate
    assert kernel.check_claim(statement, kernel.ClaimProof((), theorem)).shown == \
        "for all real r and integer n with n >= 0, r >= 0, r < 1: " \
        "Sum(r**k, (k, 0, n)) <= 1/(-r + 1)"


@pytest.mark.parametrize("assumptions", ["r >= 0, r <= 1", "r >= 0", "r >= 0, r != 1"])
def test_an_inequality_whose_denominator_has_no_assumed_sign_is_not_stated(assumptions):
    """1/(1 - r) with only r <= 1 (r = 1 allowed) or no bound: the kernel states no theorem."""
    prover = _Prover(parse_claim(f"assume: n >= 0, n integer, {assumptions}\n"
                                 f"Sum(r**k, (k, 0, n)) <= 1/(1 - r)"))
    with pytest.raises(kernel.DerivationError, match="assumed > 0 or < 0"):
        kernel.power_theorem(prover.statement)


def test_a_negative_denominator_turns_the_stated_inequality():
    """r > 1: S >= 1/(1 - r) with 1 - r < 0 is stated (r - 1)*S[T] >= -1, not (1 - r)*S >= 1."""
    prover = _Prover(parse_claim("assume: n >= 0, n integer, r > 1\n"
                                 "Sum(r**k, (k, 0, n)) >= 1/(1 - r)"))
    goal = kernel.power_theorem(prover.statement).conclusions[0]
    r = next(s for s in goal.lhs.free_symbols if str(s) == "r")
    S = next(iter(goal.lhs.atoms(sympy.Indexed)))
    assert sympy.expand(goal.lhs - (r - 1) * S) == 0 and goal.rel == ">=" and goal.rhs == -1


SUMMANDS = ["r**k", "2*r**k", "r**k/2"]
BOUNDS = ["1/(1 - r)", "2/(1 - r)", "r/(1 - r)", "1/(r - 1)", "0", "1", "n + 1"]
RS = ["r >= 0, r < 1", "r > 1", "r > -1, r < 1", "r >= 2"]


@settings(max_examples=12, deadline=None)
@given(summand=st.sampled_from(SUMMANDS), low=st.integers(0, 1), op=st.sampled_from(["<=", ">="]),
       bound=st.sampled_from(BOUNDS), rs=st.sampled_from(RS))
def test_a_proved_sum_bound_holds_at_every_point_tried(summand, low, op, bound, rs):
    text = f"assume: n >= {low - 1}, n integer, {rs}\nSum({summand}, (k, {low}, n)) {op} {bound}"
    if check_claim_text(text).status != "proved":
        return
    grid = [Fraction(k, 4) for k in range(-12, 13)]
    for r, n in product(grid, range(low - 1, low + 6)):
        env = {"r": r, "n": n}
        if not all(_holds(a, env) for a in rs.split(", ")):
            continue
        total = sum((_value(summand, {"r": r, "k": Fraction(k)}) for k in range(low, n + 1)),
                    Fraction(0))
        right = _value(bound, env)
        assert (total <= right if op == "<=" else total >= right), (text, env)
