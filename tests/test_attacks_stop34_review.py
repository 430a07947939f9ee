"""Session-34 review attacks on the kernel's claim statements (display, assumed domains,
induction invariants, cleared equalities, the sign rule of sums with powers).

A lying proposer forges parts of the (statement, proof) the claims checker hands the kernel
(captured by tests/claim_capture.py) with dataclasses.replace.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
import sympy

from verify import kernel
from verify.kernel.claim_statements import _assumed_domains, cleared_equality
from verify.kernel.powers import Power, _assumed_sign, sum_power_theorem

from tests.claim_capture import proved_claim as _proved

r, x, y = sympy.symbols("r x y", real=True)
n, k = sympy.symbols("n k", real=True)


def test_a_power_symbol_equal_to_its_exponent_variable_is_refused():
    statement, proof = _proved("assume: n >= 0, n integer\n2**n >= 1")
    p = statement.powers[0]
    v = p.variable
    forged = replace(statement, powers=(replace(p, symbol=v),),
                     goals=tuple(kernel.Goal(sympy.S(g.lhs).xreplace({p.symbol: v}), g.op,
                                             sympy.S(g.rhs).xreplace({p.symbol: v}))
                                 for g in statement.goals))
    try:
        checked = kernel.check_claim(forged, proof)
    except kernel.DerivationError:
        return
    # accepted: the statement shown must at least keep the lower bound n >= 0
    assert checked.shown != "for all integer n with 2**n >= 0: 2**n >= 1", checked.shown


def test_an_assumed_nonzero_domain_is_refused():
    statement, proof = _proved("assume: r != 1\n1 + r == (1 - r**2)/(1 - r)")
    forged = replace(statement, nonzero=(),
                     domains=tuple(replace(d, assumed=True) for d in statement.domains))
    with pytest.raises(kernel.DerivationError):
        kernel.check_claim(forged, proof)


def test_an_assumed_nonneg_domain_that_is_no_root_argument_is_refused():
    st_ = kernel.ClaimStatement(assumptions=(kernel.Fact(x, ">=", 1),),
                                domains=(kernel.Domain(x - 5, "nonneg", True),),
                                goals=(kernel.Goal(x, ">=", 5),))
    with pytest.raises(kernel.DerivationError, match="not the argument of a square root"):
        _assumed_domains(st_)


def test_an_assumed_root_argument_of_an_atom_not_in_the_assumptions_is_refused():
    """sqrt(x - 5) appears only in the goal: x - 5 >= 0 is not assumed unseen."""
    s = sympy.Symbol("_sqrt1", real=True)
    st_ = kernel.ClaimStatement(atoms=(kernel.Atom(s, "sqrt", x - 5, "sqrt(x - 5)"),),
                                domains=(kernel.Domain(x - 5, "nonneg", True),),
                                goals=(kernel.Goal(x, ">=", 5),))
    with pytest.raises(kernel.DerivationError):
        _assumed_domains(st_)


def test_the_nonzero_conditions_are_shown():
    st_ = kernel.ClaimStatement(nonzero=(y - 3,), goals=(kernel.Goal(x, "=", x),))
    assert "y - 3 != 0" in kernel.statement_display(st_)


def test_one_rational_function_with_a_side_denominator_only_nonneg_is_not_cleared():
    """A side denominator r - 1 listed only as a nonneg domain (not != 0): no 0 = 0 fact."""
    from verify.claims.parser import parse_claim
    from verify.claims.propose import _Prover

    prover = _Prover(parse_claim("assume: r != 1\n(-1)*r**0 == (((-1)*r**0)*(r - 1))/(r - 1)"))
    statement, goal = prover.statement, prover.statement.goals[0]
    assert cleared_equality(statement, goal) is not None
    forged = replace(statement, nonzero=(),
                     domains=tuple(replace(d, kind="nonneg") for d in statement.domains))
    assert cleared_equality(forged, goal) is None


def test_a_forged_numerator_denominator_split_is_not_cleared_without_the_assumption():
    goal = kernel.Goal(1, "=", (r - 1) / (r - 1) ** 2 * (r - 1))
    assert cleared_equality(kernel.ClaimStatement(goals=(goal,)), goal) is None


def test_the_sign_rule_reads_only_strict_assumptions():
    """r >= 1 (or 1 - r <= 0) gives no sign to 1 - r; r > 1 gives -1, r < 1 gives +1."""
    d = 1 - r
    for rel, rhs in ((">=", 1), ("<=", 1)):
        assert _assumed_sign(kernel.ClaimStatement(
            assumptions=(kernel.Fact(r, rel, rhs),)), d) is None
    assert _assumed_sign(kernel.ClaimStatement(assumptions=(kernel.Fact(-(1 - r), ">", 0),)),
                         d) == -1
    assert _assumed_sign(kernel.ClaimStatement(assumptions=(kernel.Fact(r, ">", 1),)), d) == -1
    assert _assumed_sign(kernel.ClaimStatement(assumptions=(kernel.Fact(r, "<", 1),)), d) == 1


def _geometric(rel, assumptions, nonzero=()):
    p_k, p_n = sympy.symbols("_pow1 _pow2", real=True)
    return kernel.ClaimStatement(
        integers=(n,), assumptions=(kernel.Fact(n, ">=", -1), *assumptions), nonzero=nonzero,
        sum=kernel.SumGoal(k, 0, n, p_k, rel, (1 - p_n) / (1 - r)),
        powers=(Power(p_k, r, k, 0, "r**k"), Power(p_n, r, n, 1, "r**(n + 1)")))


def test_a_sum_inequality_with_a_nonstrict_sign_assumption_is_refused():
    with pytest.raises(kernel.DerivationError, match="divides by"):
        sum_power_theorem(_geometric("<=", (kernel.Fact(r, ">=", 1),)))


def test_a_sum_equality_with_only_a_positive_denominator_assumed_is_refused():
    """D > 0 assumed is not D among the nonzero conditions: the '=' path reads only those."""
    with pytest.raises(kernel.DerivationError, match="divides by"):
        sum_power_theorem(_geometric("=", (kernel.Fact(r, "<", 1),)))


def test_a_sum_inequality_turns_its_sign_with_a_negative_denominator():
    theorem = sum_power_theorem(_geometric("<=", (kernel.Fact(r, ">", 1),)))
    (conclusion,) = theorem.conclusions
    # S rel N/(1 - r) with r - 1 > 0: (r - 1)*S rel -N
    assert sympy.expand(sympy.S(conclusion.lhs) - (r - 1) * sympy.IndexedBase("S")[
        sympy.Symbol("T", real=True)]) == 0


def test_two_powers_with_one_symbol_are_refused():
    statement, proof = _proved("assume: n >= 0, n integer\n2**n >= 1")
    p = statement.powers[0]
    forged = replace(statement, powers=(p, replace(p, base=3)))
    with pytest.raises(kernel.DerivationError):
        kernel.check_claim(forged, proof)


def test_an_invariant_cannot_replace_the_hypotheses():
    """Extra hypotheses in the proof (a smuggled assumption for an invariant) fail the
    comparison with the kernel's theorem."""
    statement, proof = _proved("assume: n >= 0, n integer, a >= 0, b >= a\na**n <= b**n")
    main = proof.main
    a = sympy.Symbol("a", real=True)
    forged = replace(main, hyps=main.hyps + (kernel.Hyp("smuggled", kernel.Fact(a, ">=", 1)),))
    with pytest.raises(kernel.DerivationError):
        kernel.check_claim(statement, kernel.ClaimProof((), forged))


def test_a_power_symbol_named_like_the_fresh_sequence_is_renamed():
    """A claim variable named P, T, t or S gets fresh kernel names: still proved and shown."""
    statement, proof = _proved("assume: T >= 0, T integer, P >= 0\n(P + 1)**T >= 1 + T*P")
    checked = kernel.check_claim(statement, proof)
    assert checked.shown == "for all real P and integer T with T >= 0, P >= 0: " \
                            "(P + 1)**T >= P*T + 1", checked.shown


def _one_line(symbol, hyp):
    line = kernel.Chain("goal1", symbol, (kernel.Link(">=", 0, kernel.Certificate(
        (kernel.Term(1, ("h",)),))),))
    return kernel.ClaimProof((), kernel.Theorem("claim", "claim", (), (), (kernel.Hyp("h", hyp),),
                                                (kernel.Fact(symbol, ">=", 0),),
                                                kernel.Derivation((line,))))


def test_an_atom_symbol_printed_like_a_claim_variable_is_refused():
    y_real, y_atom = sympy.Symbol("y", real=True), sympy.Symbol("y")
    statement = kernel.ClaimStatement(
        atoms=(kernel.Atom(y_atom, "sqrt", sympy.Integer(4), "sqrt(4)"),),
        goals=(kernel.Goal(y_real, ">=", 0),))
    try:
        checked = kernel.check_claim(statement, _one_line(y_real, kernel.Fact(y_real, ">=", 0)))
    except kernel.DerivationError:
        return
    assert checked.shown != "for all values: y >= 0", checked.shown


def test_an_atom_symbol_printed_like_a_goal_variable_is_refused():
    x_real, x_atom = sympy.Symbol("x", real=True), sympy.Symbol("x")
    statement = kernel.ClaimStatement(
        assumptions=(kernel.Fact(y, ">=", 0),),
        atoms=(kernel.Atom(x_atom, "sqrt", y, "sqrt(y)"),),
        domains=(kernel.Domain(y, "nonneg"),), goals=(kernel.Goal(x_real, ">=", 0),))
    try:
        checked = kernel.check_claim(statement, _one_line(x_real, kernel.Fact(x_real, ">=", 0)))
    except kernel.DerivationError:
        return
    assert "x >= 0" not in checked.shown.split(":")[-1] or "real x" in checked.shown


def test_an_atom_symbol_with_an_expression_for_a_name_is_refused():
    q = sympy.Symbol("q", real=True)
    statement = kernel.ClaimStatement(
        atoms=(kernel.Atom(sympy.Symbol("q + 1", real=True), "sqrt", sympy.Integer(4),
                           "sqrt(4)"),),
        goals=(kernel.Goal(q + 1, ">=", 0),))
    line = kernel.Chain("goal1", q + 1, (kernel.Link(">=", 0, kernel.Certificate(
        (kernel.Term(1, ("h",)),))),))
    proof = kernel.ClaimProof((), kernel.Theorem(
        "claim", "claim", (), (), (kernel.Hyp("h", kernel.Fact(q + 1, ">=", 0)),),
        (kernel.Fact(q + 1, ">=", 0),), kernel.Derivation((line,))))
    try:
        checked = kernel.check_claim(statement, proof)
    except kernel.DerivationError:
        return
    assert checked.shown != "for all real q: q + 1 >= 0", checked.shown


def test_a_sum_power_symbol_equal_to_the_upper_bound_is_refused():
    statement, proof = _proved("assume: n >= 0, n integer\n"
                               "Sum(2**k, (k, 0, n)) == 2**(n + 1) - 1")
    inner, outer = statement.powers
    v = outer.variable
    forged = replace(statement, powers=(inner, replace(outer, symbol=v)),
                     sum=replace(statement.sum,
                                 closed=sympy.S(statement.sum.closed).xreplace({outer.symbol: v})))
    try:
        checked = kernel.check_claim(forged, proof)
    except kernel.DerivationError:
        return
    assert "n >= 0" in checked.shown, checked.shown


def test_a_nested_side_denominator_is_not_cleared_without_its_domain():
    goal = kernel.Goal(1 / (1 + 1 / (r - 1)), "=", (r - 1) / r)
    statement = kernel.ClaimStatement(nonzero=(r,), goals=(goal,))
    line = kernel.Chain("goal1", 0, (kernel.Link("=", 0, kernel.Certificate()),))
    proof = kernel.ClaimProof((), kernel.Theorem("claim", "claim", (), (), (),
                                                 (kernel.Fact(0, "=", 0),),
                                                 kernel.Derivation((line,))))
    with pytest.raises(kernel.DerivationError):
        kernel.check_claim(statement, proof)


def test_a_summand_atom_using_the_index_must_be_indexed():
    """Abs(k - 3) as one plain symbol (not A[k]) in the summand is refused by sum_theorem."""
    from verify.kernel.claim_statements import sum_theorem

    a = sympy.Symbol("_abs1", real=True)
    statement = kernel.ClaimStatement(
        integers=(n,), assumptions=(kernel.Fact(n, ">=", 0),),
        atoms=(kernel.Atom(a, "abs", k - 3, "Abs(k - 3)"),),
        sum=kernel.SumGoal(k, 1, n, a, ">=", 0))
    with pytest.raises(kernel.DerivationError, match="not indexed"):
        sum_theorem(statement)
