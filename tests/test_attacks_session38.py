"""Attacks on 4b2a504 (session 38): ``inputs._check_rational`` — a rational atom (one of sympy's
six rational classes, by identity) and every ``Pow`` exponent must have builtin-int ``p``/``q``
in lowest terms with ``q > 0``.

Every forged object here is *fresh* (``sympy.Basic.__new__``), never one of sympy's cached
numbers: setting the slots of a cached 2/3 corrupts every later 2/3 in the process.  Compound
nodes that must keep a forged child are built past sympy's cache with ``Expr.__new__``; sympy's
own constructors also set the slot ``is_commutative``, which :func:`node` sets too (without it
sympy itself raises AttributeError on the node: see the holes below).

What held (normal tests): forged p/q of every wrong kind (bool, int subclass, float, Fraction,
str, negative or zero q, not in lowest terms) is refused with DerivationError in atoms, sums,
products, exponents, Indexed indices and Dot arguments; sympy's singletons (Zero, One, NegativeOne,
Half) and Integer keep p/q as class attributes that an instance cannot shadow (no ``__dict__``),
so the value checked is the value printed; every admitted forged rational prints exactly as the
genuine ``Rational(p, q)`` does (hypothesis); a forged rational that sympy's assumptions
misdescribe (a Rational 0 that sympy calls nonzero, a Rational 2 it calls non-integer, an
exponent -1 forged) proves nothing false: the kernel canonicalises it on the first arithmetic or
keeps it as an opaque atom, and a forged negative exponent still needs a positive divisor.

Mended after the review (the tests pass now): a forged rational whose slot is unset raised
AttributeError in ``_check_rational``; ``check_claim``'s induction path printed the proposer's
theorem before walking it (TypeError); a Dot of three arguments was admitted and printed as the
Dot of its first two; check_claim read ``proof.main`` and its vectors before checking their types.

Mended since: under CPython's default digit limit (outside the CLI) an integer of more than
4300 digits in a derivation's own refusal message (derivations.py) raised ValueError (the
message is capped now); a denominator that ``together`` cancels (x * x**(-1), genuine or forged exponent)
needed no positive divisor, so ``x/x = 1`` was checked with no hypothesis (session 39b); sum,
product and power nodes built without ``is_commutative`` passed the walk and crashed sympy
(refused by the walk); the canonical text prints an integer of any length under any digit limit
(a claim about one is proved in every process); an expression has at most ``inputs.MAX_NODES``
nodes written out, so 2**(10**11) is refused by the walk at once.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from dataclasses import replace
from fractions import Fraction
from math import gcd

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.kernel import (
    Certificate,
    Chain,
    Derivation,
    Fact,
    Hyp,
    KernelError,
    Link,
    Square,
    Term,
    Theorem,
    check_theorem,
)
from verify.kernel.claim_statements import (
    ClaimProof,
    ClaimStatement,
    Goal,
    SumGoal,
    check_claim,
    sum_theorem,
)
from verify.kernel.inputs import MAX_NODES, expression
from verify.kernel.statements import expression_text
from verify.kernel.terms import DerivationError, _dot_class

X, Y = sp.Symbol("x", real=True), sp.Symbol("y", real=True)
NO_VECTORS: frozenset = frozenset()
numbers = sp.core.numbers
SINGLETONS = (numbers.Zero, numbers.One, numbers.NegativeOne, numbers.Half)


# --- helpers -------------------------------------------------------------------------------------
def forged_rational(p, q):
    """A fresh object of exactly the type ``sympy.Rational`` with the given slots."""
    r = sp.Basic.__new__(sp.Rational)
    r.p, r.q = p, q
    return r


def forged_integer(p):
    """A fresh object of exactly the type ``sympy.Integer`` (its ``q`` is Integer's class
    attribute 1, which the instance cannot shadow)."""
    r = sp.Basic.__new__(sp.Integer)
    r.p = p
    return r


def node(cls, *args):
    """``cls(*args)`` past sympy's cache and evaluation, with the slot ``is_commutative`` set as
    sympy's own constructors set it (without it sympy raises AttributeError on the node)."""
    e = sp.Expr.__new__(cls, *args)
    e.is_commutative = True
    return e


def theorem(conclusion, *lines, hyps=(), vectors=()):
    return Theorem("t", "t", vectors, (), hyps, (conclusion,), Derivation(tuple(lines)))


def one_step(lhs, rel, rhs, terms=()):
    """The theorem ``lhs rel rhs`` proved by one chain step with the given certificate terms."""
    return theorem(Fact(lhs, rel, rhs), Chain("l1", lhs, (Link(rel, rhs, Certificate(terms)),)))


# --- 1. what _check_rational refuses -------------------------------------------------------------
class Int(int):
    pass


BAD_SLOTS = [True, False, Int(3), 2.0, Fraction(3, 1), "3", None, sp.Integer(3)]


@pytest.mark.parametrize("bad", BAD_SLOTS, ids=repr)
def test_a_rational_whose_p_or_q_is_not_a_builtin_int_is_refused(bad):
    for forged in (forged_rational(bad, 1), forged_rational(1, bad), forged_integer(bad)):
        with pytest.raises(DerivationError, match="lowest terms"):
            expression(forged, NO_VECTORS)
        with pytest.raises(DerivationError, match="lowest terms"):
            expression(node(sp.Pow, X, forged), NO_VECTORS)


@settings(max_examples=300, deadline=None)
@given(st.integers(-2 ** 200, 2 ** 200) | st.integers(-30, 30),
       st.integers(-2 ** 200, 2 ** 200) | st.integers(-30, 30))
def test_every_forged_rational_is_refused_or_prints_as_the_genuine_one(p, q):
    """Random p/q (zero, negative, not in lowest terms, big): refused exactly when q <= 0 or
    gcd(p, q) != 1; when admitted, as an atom, a sum's term, a product's coefficient, a power's
    base and (q = 1) a power's exponent, its text is the genuine Rational(p, q)'s and reads back
    to p/q."""
    admitted = q > 0 and gcd(p, q) == 1
    forged = forged_rational(p, q)
    compounds = [forged, node(sp.Add, X, forged), node(sp.Mul, forged, X),
                 node(sp.Pow, forged, sp.Integer(3)), node(sp.Mul, forged, node(sp.Pow, X, forged))]
    if not admitted:
        for e in compounds:
            with pytest.raises(DerivationError, match="lowest terms"):
                expression(e, NO_VECTORS)
        return
    genuine = sp.Rational(p, q)
    assert (genuine.p, genuine.q) == (p, q)
    text = expression_text(expression(forged, NO_VECTORS))
    assert text == expression_text(genuine) == str(Fraction(p, q))
    assert Fraction(text) == Fraction(p, q)
    expected = [genuine, sp.Add(X, genuine, evaluate=False), sp.Mul(genuine, X, evaluate=False),
                sp.Pow(genuine, 3, evaluate=False),
                sp.Mul(genuine, sp.Pow(X, genuine, evaluate=False), evaluate=False)]
    for e, g in zip(compounds, expected):
        if q != 1 and e is compounds[-1]:
            with pytest.raises(DerivationError, match="only integer powers"):
                expression(e, NO_VECTORS)
            continue
        if abs(p) + 3 > MAX_NODES and e is compounds[-1]:   # (3 nodes and |p| copies of x)
            with pytest.raises(DerivationError, match="written out"):
                expression(e, NO_VECTORS)
            continue
        expression(e, NO_VECTORS)
        assert expression_text(e) == expression_text(g)


@settings(max_examples=150, deadline=None)
@given(st.integers(-2 ** 100, 2 ** 100))
def test_a_forged_integer_is_admitted_with_its_own_value_and_text(p):
    i = forged_integer(p)
    assert i.q == 1 and type(i.q) is int
    expression(i, NO_VECTORS)
    assert expression_text(i) == str(p) == expression_text(sp.Integer(p))
    e = node(sp.Pow, X, i)
    if abs(p) > MAX_NODES:          # (the exponent bound: x**p is p copies of x written out)
        with pytest.raises(DerivationError, match="written out"):
            expression(e, NO_VECTORS)
    small = p % 2001 - 1000
    e = node(sp.Pow, X, forged_integer(small))
    expression(e, NO_VECTORS)
    assert expression_text(e) == expression_text(sp.Pow(X, small, evaluate=False))


def test_integer_q_and_the_singletons_p_q_cannot_be_shadowed_by_an_instance():
    """Integer's q and the singletons' p/q are class attributes; the instances have no
    ``__dict__``, so ``o.p = 7`` fails, and writing the Rational slot underneath changes nothing
    that the check or the printer reads."""
    i = sp.Basic.__new__(sp.Integer)
    with pytest.raises(AttributeError):
        i.q = 5
    sp.Rational.q.__set__(i, 5)      # the hidden slot: .q still reads the class's 1
    i.p = 4
    assert i.q == 1
    expression(i, NO_VECTORS)
    assert expression_text(i) == "4"
    for cls in SINGLETONS:
        o = sp.Basic.__new__(cls)
        assert not hasattr(o, "__dict__")
        with pytest.raises(AttributeError):
            o.p = 7
        sp.Rational.p.__set__(o, 7)
        sp.Rational.q.__set__(o, -3)
        value = sp.Rational(cls.p, cls.q)
        assert (o.p, o.q) == (value.p, value.q)
        expression(o, NO_VECTORS)
        assert expression_text(o) == expression_text(value)
        expression(node(sp.Add, X, o), NO_VECTORS)
    # sympy's own singletons are untouched
    assert (sp.S.Zero.p, sp.S.One.p, sp.S.NegativeOne.p, sp.S.Half.q) == (0, 1, -1, 2)


@pytest.mark.parametrize("p, q", [(3, -1), (0, 2), (2, 4), (1, 0), (True, 1)])
def test_a_forged_rational_inside_an_index_or_a_dot_is_refused(p, q):
    Dot = _dot_class()
    u, v = sp.symbols("u v", real=True)
    y = sp.IndexedBase("y")
    index = node(sp.Add, sp.Symbol("t", real=True), forged_rational(p, q))
    with pytest.raises(DerivationError, match="lowest terms"):
        expression(sp.Indexed(y, index), NO_VECTORS)
    inner = node(sp.Mul, forged_rational(p, q), v)
    with pytest.raises(DerivationError, match="lowest terms"):
        expression(sp.Expr.__new__(Dot, u, inner), frozenset({"u", "v"}))


def test_an_admitted_forged_rational_index_prints_canonically():
    y = sp.IndexedBase("y")
    e = sp.Indexed(y, node(sp.Add, X, forged_rational(-1, 2)))
    expression(e, NO_VECTORS)
    assert expression_text(e) == "y[x - 1/2]" == expression_text(y[X - sp.Rational(1, 2)])


# --- 2. forged atoms that sympy's assumptions misdescribe prove nothing false ---------------------
def test_sympy_misdescribes_forged_rationals():
    """Why the following tests matter: a fresh Rational carries the class's default
    assumptions (integer False, nonzero True) whatever its slots say."""
    zero, two = forged_rational(0, 1), forged_rational(2, 1)
    assert zero == 0 and zero.is_zero is False and zero.is_nonzero is True
    assert two == 2 and two.is_integer is False and two.is_Integer is False


FALSE_EQUALITIES = [
    # (lhs, rhs) with lhs != rhs for some real x
    (node(sp.Pow, X, forged_rational(0, 1)), sp.Integer(0)),       # x**0 = 0
    (node(sp.Mul, forged_rational(0, 1), X), X),                   # 0*x = x
    (node(sp.Pow, X, forged_rational(2, 1)), X),                   # x**2 = x
    (node(sp.Pow, X, forged_rational(-1, 1)), X),                  # 1/x = x
    (node(sp.Mul, X, node(sp.Pow, X, forged_rational(-1, 1))), sp.Integer(2)),  # x/x = 2
    (node(sp.Pow, node(sp.Add, X, sp.Integer(1)), forged_rational(2, 1)),
     X ** 2 + 1),                                                   # (x+1)**2 = x**2 + 1
    (node(sp.Pow, forged_rational(0, 1), sp.S.NegativeOne), sp.Integer(0)),     # 1/0 = 0
]


@pytest.mark.parametrize("index", range(len(FALSE_EQUALITIES)))
def test_a_false_equality_through_a_forged_rational_is_refused(index):
    lhs, rhs = FALSE_EQUALITIES[index]
    expression(lhs, NO_VECTORS)     # every forged atom here is admitted: p/q are canonical
    for rel in ("=", ">=", "<="):
        with pytest.raises(DerivationError):
            check_theorem(one_step(lhs, rel, rhs))
    with pytest.raises(DerivationError):
        check_theorem(one_step(lhs, ">=", rhs, (Term(1, (Square(X),)),)))


def test_a_forged_negative_exponent_is_a_denominator_needing_a_positive_divisor():
    """A forged exponent -1 (a Rational, sympy's is_Integer False) is still seen as a
    denominator: 1/x >= 1/x needs a divisor x > 0, like the genuine 1/x, and is proved with it."""
    forged = node(sp.Pow, X, forged_rational(-1, 1))
    genuine = sp.Pow(X, -1, evaluate=False)
    assert expression_text(forged) == expression_text(genuine) == "1/x"
    positive = Hyp("hx", Fact(X, ">", 0))
    for e in (forged, genuine):
        with pytest.raises(DerivationError, match="not covered by positive divisors"):
            check_theorem(one_step(e, ">=", e))
        proof = theorem(Fact(e, ">=", e), Chain("l1", e, (
            Link(">=", e, Certificate((), (), ("hx",))),)), hyps=(positive,))
        assert check_theorem(proof).steps == 1


@pytest.mark.parametrize("forged", [True, False], ids=["forged-exponent", "genuine-exponent"])
def test_a_cancelled_denominator_still_needs_a_positive_divisor(forged):
    """x * x**(-1) = 1 ('x/x = 1', undefined at x = 0; false under Coq's x/0 = 0): together
    cancels the denominator, the divisor as written is still required positive (a hole until
    the kernel read the written divisors; tests/test_attacks_session39b.py tries the rest)."""
    exponent = forged_rational(-1, 1) if forged else sp.S.NegativeOne
    lhs = node(sp.Mul, X, node(sp.Pow, X, exponent))
    assert expression_text(lhs) == "x/x"
    with pytest.raises(DerivationError, match="written divisor x is not covered by positive"):
        check_theorem(one_step(lhs, "=", 1))
    proof = theorem(Fact(lhs, "=", 1), Chain("l1", lhs, (Link("=", 1, Certificate()),)),
                    hyps=(Hyp("hx", Fact(X, ">", 0)),))
    assert check_theorem(proof).steps == 1


def test_a_forged_zero_exponent_is_still_zero():
    """x**0 with a forged Rational 0 (nonzero to sympy): the same text as the genuine x**0, the
    same value 1 to the kernel (x**0 = 1 proved for both, x**0 = 0 refused: FALSE_EQUALITIES)."""
    genuine = sp.Pow(X, 0, evaluate=False)
    forged = node(sp.Pow, X, forged_rational(0, 1))
    assert expression_text(forged) == expression_text(genuine) == "x**0"
    for e in (genuine, forged):
        assert check_theorem(one_step(e, "=", 1)).steps == 1


def test_a_claim_stating_a_forged_rational_is_not_matched_by_any_checked_theorem():
    """The claim's own statement is never walked: a forged 3/-1 there prints '3/-1', and no
    walked conclusion prints that; the genuine -3 and 3 prove nothing in its place."""
    forged = forged_rational(3, -1)
    statement = ClaimStatement(goals=(Goal(forged, "<", 0),))
    for value, terms in ((forged, ((Term(3, ()),))), (sp.Integer(-3), (Term(3, ()),)),
                         (sp.Integer(3), ())):
        proof = one_step(value, "<", 0, terms)
        with pytest.raises(DerivationError):
            check_claim(statement, ClaimProof((), proof))


# --- 3. holes ------------------------------------------------------------------------------------
def _rational_without_q():
    r = sp.Basic.__new__(sp.Rational)
    r.p = 1
    return r


@pytest.mark.parametrize("make", [
    lambda: sp.Basic.__new__(sp.Rational),                                      # no p, no q
    _rational_without_q,                                                        # no q
    lambda: sp.Basic.__new__(sp.Integer),                                       # no p
], ids=["rational-no-slots", "rational-no-q", "integer-no-p"])
def test_a_rational_with_an_unset_slot_is_refused_with_a_derivation_error(make):
    """Mended: _check_rational read number.p/number.q unguarded, so a fresh Rational/Integer
    whose slot was never set raised AttributeError out of expression() and check_theorem."""
    with pytest.raises(DerivationError):
        check_theorem(one_step(make(), "=", 0))


def _sum_statement():
    n, k = sp.symbols("n k", real=True)
    return ClaimStatement(integers=(n,), assumptions=(Fact(n, ">=", 0),),
                          sum=SumGoal(k, 1, n, k, "=", n * (n + 1) / 2))


def test_the_walk_refuses_a_power_with_a_forged_exponent_of_q_none():
    bad = node(sp.Pow, X, forged_rational(1, None))
    with pytest.raises(DerivationError, match="lowest terms"):
        expression(bad, NO_VECTORS)
    with pytest.raises(DerivationError, match="lowest terms"):
        check_theorem(one_step(bad, "=", bad))


def test_an_induction_proof_with_a_forged_exponent_is_refused_with_a_derivation_error():
    """Mended: check_claim's induction path (_check_induction) printed the proposer's main
    theorem with statement_text before check_theorem walked it; a Pow whose forged exponent has
    q=None (refused by the walk with DerivationError) made expression_text raise TypeError."""
    statement = _sum_statement()
    expected = sum_theorem(statement)
    goal = expected.conclusions[0]
    bad = node(sp.Pow, X, forged_rational(1, None))
    main = replace(expected, conclusions=(Fact(goal.lhs, "=", bad),))
    with pytest.raises(DerivationError):
        check_claim(statement, ClaimProof((), main))


BIG = 10 ** 5000   # beyond CPython's default 4300-digit limit of int -> str


@pytest.fixture
def default_digit_limit():
    """CPython's default int<->str limit, as in a process that is not the CLI (the CLI and the
    test suite lift it: verify/cli/command.py, tests/conftest.py), e.g. a notebook, mkdocs or
    sphinx host calling the claims checker; restored afterwards."""
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(before)


def big_claim():
    proof = one_step(sp.Integer(BIG), ">", 0, (Term(BIG, ()),))
    return ClaimStatement(goals=(Goal(sp.Integer(BIG), ">", 0),)), ClaimProof((), proof)


def test_a_big_integer_is_checked_and_printed_when_the_digit_limit_is_lifted():
    statement, proof = big_claim()
    assert check_theorem(proof.main).steps == 1
    assert check_claim(statement, proof).shown.endswith(f"{BIG} > 0")
    e = sp.Pow(X, BIG, evaluate=False)
    with pytest.raises(DerivationError, match="written out"):     # (the exponent bound)
        expression(e, NO_VECTORS)
    assert expression_text(e) == f"x**{BIG}"         # (a claim's own statement is not walked)
    with pytest.raises(DerivationError, match="does not match"):
        check_theorem(one_step(sp.Integer(BIG), ">", 0, (Term(1, ()),)))


def test_a_claim_about_a_big_integer_is_proved_under_the_default_digit_limit(
        default_digit_limit):
    """Mended: expression_text printed a rational with str(p), so an integer of more than
    4300 digits made statement_text, so check_claim, raise ValueError outside the CLI."""
    statement, proof = big_claim()
    assert check_theorem(proof.main).steps == 1        # the check itself never prints
    check_claim(statement, proof)


def test_a_wrong_certificate_about_a_big_integer_is_refused_under_the_default_digit_limit(
        default_digit_limit):
    with pytest.raises(DerivationError):
        check_theorem(one_step(sp.Integer(BIG), ">", 0, (Term(1, ()),)))


def test_a_power_with_a_big_exponent_has_a_text_under_the_default_digit_limit(
        default_digit_limit):
    """Mended: a power's exponent was printed by sympy's str (statements._power), so
    x**(10**5000), then admitted by the walk, made expression_text raise ValueError.  The walk
    refuses it now (MAX_NODES), with a message that does not print it, and its text (a claim's
    own statement is printed unwalked) is made under any digit limit."""
    e = sp.Pow(X, BIG, evaluate=False)
    with pytest.raises(DerivationError, match="exponent <16610-bit integer>"):
        expression(e, NO_VECTORS)
    assert expression_text(e) == "x**1" + "0" * 5000


_HANG = textwrap.dedent("""
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    import sympy as sp
    from verify.kernel import Certificate, Chain, Derivation, Fact, Link, Theorem, check_theorem
    from verify.kernel.terms import DerivationError
    e = sp.Pow(sp.Integer(2), 10 ** 11, evaluate=False)
    t = Theorem("t", "t", (), (), (), (Fact(e, ">", 0),), Derivation((
        Chain("l1", e, (Link(">", 0, Certificate()),)),)))
    try:
        check_theorem(t)
    except DerivationError:
        print("refused")
""")


def run_alone(script: str, timeout: float, what: str) -> subprocess.CompletedProcess:
    """``script`` in a Python process of its own, failing the test (not hanging the suite)
    when the kernel has not refused ``what`` within ``timeout`` seconds."""
    import os

    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(__file__)))
    try:
        return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              timeout=timeout, env=env, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the kernel did not refuse {what} within {timeout:.0f} s")


def test_a_huge_exponent_is_refused_quickly():
    """Mended: 2**(10**11) (unevaluated) passed the walk, and together() in _check_link
    evaluated it (hung for minutes, or MemoryError); the walk refuses it (MAX_NODES)."""
    done = run_alone(_HANG, 6, "2**(10**11) > 0")
    assert done.stdout.strip() == "refused", done.stderr[-500:]


@pytest.mark.parametrize("cls", [sp.Add, sp.Mul, sp.Pow])
def test_a_compound_without_is_commutative_is_refused_with_a_derivation_error(cls):
    """Mended: _walk admitted an Add/Mul/Pow built by Expr.__new__ (slot is_commutative
    unset), and sympy then raised AttributeError inside check_theorem."""
    e = sp.Expr.__new__(cls, X, sp.Integer(2))
    with pytest.raises(DerivationError, match="commutativity"):
        expression(e, NO_VECTORS)
    with pytest.raises(DerivationError, match="commutativity"):
        check_theorem(one_step(e, ">=", e))
    assert expression(node(cls, X, sp.Integer(2)), NO_VECTORS) is not None   # the slot set


def test_a_dot_of_three_arguments_is_refused_or_printed_apart():
    """Mended: _walk admitted Dot with any number of arguments (built past Function's arity
    check); expression_text printed only the first two, so Dot(u, v, w) and Dot(u, v) shared
    the text 'Dot(u, v)', and Dot(u) raised IndexError."""
    Dot = _dot_class()
    u, v, w = sp.symbols("u v w", real=True)
    vectors = frozenset({"u", "v", "w"})
    three = sp.Expr.__new__(Dot, u, v, w)
    try:
        expression(three, vectors)
    except DerivationError:
        pass
    else:
        assert expression_text(three) != expression_text(Dot(u, v))
    one = sp.Expr.__new__(Dot, u)
    with pytest.raises(DerivationError):
        expression(one, vectors)
        expression_text(one)


@pytest.mark.parametrize("main", [None, "theorem", 3], ids=repr)
def test_a_claim_proof_whose_main_is_no_theorem_is_refused(main):
    """Mended: check_claim read proof.main.naturals before any type test (the domain theorems
    likewise): AttributeError for a main that is no Theorem."""
    with pytest.raises(DerivationError):
        check_claim(ClaimStatement(goals=(Goal(X, ">=", 0),)), ClaimProof((), main))


def test_a_claim_proof_with_unhashable_vectors_is_refused():
    """Mended: _Context.within computed set(theorem.vectors) on the unchecked theorem: an
    unhashable entry raised TypeError before the snapshot refused it."""
    proof = replace(one_step(X ** 2, ">=", 0, (Term(1, (Square(X),)),)), vectors=([],))
    with pytest.raises(DerivationError):
        check_claim(ClaimStatement(goals=(Goal(X ** 2, ">=", 0),)), ClaimProof((), proof))


def test_a_genuine_claim_still_passes():
    """The control for the claim tests above: the same claim with a real proof is proved."""
    proof = one_step(X ** 2, ">=", 0, (Term(1, (Square(X),)),))
    checked = check_claim(ClaimStatement(goals=(Goal(X ** 2, ">=", 0),)), ClaimProof((), proof))
    assert checked.shown.endswith("x**2 >= 0")
    with pytest.raises(KernelError):
        check_claim(ClaimStatement(goals=(Goal(X ** 2, ">", 0),)), ClaimProof((), proof))


def test_an_int_or_fraction_that_is_no_exact_number_is_refused_by_name():
    """``expression`` converts an int or Fraction exactly; one whose parts are not ints (a
    Fraction subclass reporting a str numerator) is refused with a DerivationError naming it,
    not passed on to sympy (the mutation run found no test reaching that refusal)."""
    class Lying(Fraction):
        numerator = property(lambda self: "1")

    with pytest.raises(DerivationError, match="is not an exact number"):
        expression(Lying(1, 2), NO_VECTORS)
    assert expression(Fraction(1, 2), NO_VECTORS) == sp.Rational(1, 2)


def test_a_symbol_named_by_a_str_subclass_is_refused():
    """A symbol's name must be a builtin str: a str subclass can print one text and compare as
    another (the mutation run found no test of the type test in ``_check_symbol``)."""
    class Name(str):
        def __str__(self):
            return "y"

    named = sp.Symbol(Name("z_named"), real=True)
    assert type(named.name) is Name
    with pytest.raises(DerivationError, match="ASCII identifier"):
        expression(named, NO_VECTORS)
    with pytest.raises(DerivationError, match="ASCII identifier"):
        expression(X + named, NO_VECTORS)


@pytest.mark.parametrize("branch", ["nonneg", "negative"])
@pytest.mark.parametrize("depth, refused", [(8, False), (9, True)])
def test_case_splits_nest_at_most_eight_deep(depth, refused, branch):
    """The copy refuses case splits nested deeper than _MAX_CASE_DEPTH = 8 (each level doubles
    the work), and takes eight levels: the bound is exactly 8 (the mutation run found no test
    reaching it, nor any copy of a nested CaseSplit in the kernel's test files)."""
    from verify.kernel.inputs import snapshot
    from verify.kernel.terms import CaseSplit, Derivation, Fact, Theorem

    fact = Fact(X ** 2, ">=", 0)
    inner = Derivation(())
    for level in range(depth):
        cases = (inner, Derivation(())) if branch == "nonneg" else (Derivation(()), inner)
        inner = Derivation((CaseSplit(f"c{level}", X, fact, *cases),))
    theorem = Theorem("nested", "nested", (), (), (), (fact,), inner)
    if refused:
        with pytest.raises(DerivationError, match="nested deeper than 8"):
            snapshot(theorem)
    else:
        copy = snapshot(theorem)
        line, levels = copy.proof.lines[0], 1
        while getattr(line, branch).lines:
            line, levels = getattr(line, branch).lines[0], levels + 1
        assert levels == depth and copy is not theorem
