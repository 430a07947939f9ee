"""Attacks on 990824a (session 37b): ``inputs._walk`` / ``expression_text`` by type identity
with ``_rational_classes`` cached, the monitor's w₀/w_f by ``exact_fraction``, the audit's
``_exact`` with its 40-character cache boundary, and quadprog's fitted start."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import pla
from verify.checks.audit import _REMEMBERED_LENGTH, _Fail, _exact
from verify.checks.monitor import Monitor
from verify.kernel.inputs import _rational_classes, expression
from verify.kernel.statements import expression_text
from verify.kernel.terms import DerivationError, KernelError
from verify.search import certificates as S

X, Y = sp.Symbol("x", real=True), sp.Symbol("y", real=True)


# --- 1. _walk: rational atoms and Pow exponents by identity --------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.integers(-9, 9), st.integers(2, 9))
def test_a_pow_with_a_non_integer_rational_exponent_is_refused(p, q):
    """x^(p/q), q ∤ p: sympy's Rational/Half are among the admitted classes, so the q == 1 test is
    the only thing refusing a root."""
    exponent = sp.Rational(p, q)
    if exponent.q == 1:
        return
    e = sp.Pow(X, exponent, evaluate=False)
    with pytest.raises(DerivationError, match="only integer powers"):
        expression(e, frozenset())


def test_a_half_exponent_and_a_float_exponent_are_refused():
    for exponent in (sp.S.Half, sp.Float(2.0), sp.Float(0.5), sp.Symbol("n", real=True)):
        with pytest.raises(DerivationError, match="only integer powers"):
            expression(sp.Pow(X, exponent, evaluate=False), frozenset())


class MyInteger(sp.Integer):
    pass


class MyRational(sp.Rational):
    pass


class MySymbol(sp.Symbol):
    pass


def test_subclasses_of_sympy_numbers_and_symbols_are_refused_as_atoms_and_exponents():
    two = MyInteger(2)
    assert isinstance(two, sp.Integer)
    for e in (two, sp.Add(X, two, evaluate=False), MySymbol("x", real=True)):
        with pytest.raises(DerivationError):
            expression(e, frozenset())
    with pytest.raises(DerivationError, match="only integer powers"):
        expression(sp.Pow(X, two, evaluate=False), frozenset())


def test_an_oddly_made_rational_with_q_one_is_an_integer_power():
    """A plain ``Rational`` object of p = 2, q = 1 (built past sympy's normalisation) stands for
    2: admitting it as an exponent is sound (x^2), and its text is x**2."""
    r = forged_rational(2, 1)
    assert type(r) is sp.Rational and r.q == 1
    e = sp.Expr.__new__(sp.Pow, X, r)   # past sympy's cache, which would hand back x**2
    e.is_commutative = True             # (the slot sympy's constructor sets; the kernel asks)
    assert e.exp is r
    expression(e, frozenset())
    assert expression_text(e) == expression_text(sp.Pow(X, 2, evaluate=False))


def test_rational_classes_are_sympys_own_and_cached_per_module():
    classes = _rational_classes(sp)
    assert classes == (sp.Rational, sp.Integer, sp.core.numbers.Zero, sp.core.numbers.One,
                       sp.core.numbers.NegativeOne, sp.core.numbers.Half)
    assert _rational_classes(sp) is classes
    for value in (sp.Rational(3, 4), sp.Integer(5), sp.S.Zero, sp.S.One, sp.S.NegativeOne,
                  sp.S.Half, sp.Rational(7, 1), sp.Rational(-2, 4)):
        assert type(value) in classes
        expression(value, frozenset())


def test_a_dummy_and_a_symbol_of_the_same_name_print_alike_but_a_vector_name_is_guarded():
    """Name collisions: a Dummy named v used as a scalar while v is a vector is refused."""
    with pytest.raises(DerivationError, match="used as a scalar"):
        expression(sp.Dummy("v", real=True) * X, frozenset({"v"}))
    with pytest.raises(DerivationError):
        expression(sp.Symbol("x y", real=True), frozenset())


class ClaimsMul(type(sp.Mul)):
    def __eq__(cls, other):
        return other is sp.Mul or type.__eq__(cls, other)

    __hash__ = type.__hash__


def test_a_mul_subclass_is_refused_by_walk_and_expression_text():
    class FakeMul(sp.Mul, metaclass=ClaimsMul):
        pass

    e = FakeMul(X, Y, evaluate=False)
    with pytest.raises(DerivationError):
        expression(e, frozenset())
    with pytest.raises(KernelError):
        expression_text(sp.Pow(e, 2, evaluate=False))


# --- 3. monitor: w0 and w_f -----------------------------------------------------------------------
DS = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
WF = [-3, 1, 1]


class FalsyInt(int):
    def __bool__(self):
        return False


def forged(numerator, denominator):
    f = Fraction(1, 2)
    object.__setattr__(f, "_numerator", numerator)
    object.__setattr__(f, "_denominator", denominator)
    return f


@pytest.mark.parametrize("wf", [
    [forged(FalsyInt(-3), 1), 1, 1],
    [forged(-3, FalsyInt(1)), 1, 1],
    [forged(3, -1), 1, 1],
    [forged(-3, True), 1, 1],
    [forged(True, 1), 1, 1],
])
def test_monitor_refuses_w_f_fractions_of_int_subclasses_bools_or_negative_denominators(wf):
    with pytest.raises(TypeError, match="w_f's entries"):
        Monitor(DS, pla.RunOptions(order="first"), wf=wf)


def test_monitor_w0_of_forged_fractions_is_its_true_value():
    """A w₀ = 3 hidden in a Fraction whose numerator is falsy: the monitor starts at 3, and a
    run from 0 is caught."""
    w0 = (forged(FalsyInt(3), 1), 0, 0)
    try:
        m = Monitor(DS, pla.RunOptions(order="first", w0=w0))
    except TypeError:
        return
    assert not m.w0_zero
    assert [Fraction(v, m.D) for v in m.W0] == [3, 0, 0]
    assert all(type(v) is int for v in m.W0)


def test_monitor_w0_of_a_negative_forged_denominator_keeps_its_sign():
    w0 = (forged(3, -1), 0, 0)
    try:
        m = Monitor(DS, pla.RunOptions(order="first", w0=w0))
    except TypeError:
        return
    assert [Fraction(v, m.D) for v in m.W0] == [-3, 0, 0]


# --- 4. audit _exact: non-str values and the 40-character cache boundary --------------------------
@pytest.mark.parametrize("value", [3, 0, 1.5, None, True, ["1"], [["1"]], {"a": "1"}])
def test_audit_exact_refuses_non_strings_naming_the_entry(value):
    with pytest.raises(_Fail, match=r"^.*x\[2\] must be an exact number string"):
        _exact(value, "x", 2)
    with pytest.raises(_Fail, match=r"w0 must be an exact number string"):
        _exact(value, "w0")


class Str(str):
    pass


def test_audit_exact_refuses_a_str_subclass():
    with pytest.raises(_Fail, match=r"x\[0\] must be an exact number string"):
        _exact(Str("1"), "x", 0)


@settings(max_examples=120, deadline=None)
@given(st.integers(-10**50, 10**50), st.integers(1, 10**12),
       st.sampled_from(["pad", "neg0", "plus", "unreduced", "slash1"]),
       st.integers(_REMEMBERED_LENGTH - 2, _REMEMBERED_LENGTH + 2))
def test_audit_exact_refuses_non_canonical_texts_on_both_sides_of_the_cache_boundary(
        p, q, kind, length):
    """Non-canonical texts of about 40 characters (on either side of the remembered length):
    refused by both the cached and the uncached parser, and a canonical text gives its value."""
    value = Fraction(p, q)
    canonical = str(value)
    text = {"pad": "0" + canonical.lstrip("-") if p >= 0 else "-0" + canonical[1:],
            "neg0": "-0", "plus": "+" + canonical,
            "unreduced": f"{value.numerator * 2}/{value.denominator * 2}",
            "slash1": f"{value.numerator}/1"}[kind]
    text = text.rjust(length, "0") if kind == "pad" else text
    if text != canonical:
        with pytest.raises(_Fail, match=r"x\[1\]"):
            _exact(text, "x", 1)
    assert _exact(canonical, "x", 1) == value


@pytest.mark.parametrize("length", [_REMEMBERED_LENGTH, _REMEMBERED_LENGTH + 1])
def test_audit_exact_same_verdict_at_exactly_40_and_41_characters(length):
    good = "1" * length
    assert _exact(good, "x", 0) == int(good)
    for bad in ("0" + "1" * (length - 1), " " + "1" * (length - 1), "1" * (length - 1) + "\n",
                "1" * (length - 2) + "/1", "+" + "1" * (length - 1),
                "١" + "1" * (length - 1)):
        assert len(bad) == length
        with pytest.raises(_Fail, match=r"^x\[0\]"):
            _exact(bad, "x", 0)
        with pytest.raises(_Fail, match=r"^x\[0\]"):      # again: a cached verdict is the same
            _exact(bad, "x", 0)


# --- 5. quadprog's fitted start: untrusted, must not crash ----------------------------------------
def awkward_matrices():
    rng = np.random.default_rng(37)
    base = rng.standard_normal((230, 22))
    zero_column = base.copy()
    zero_column[:, 3] = 0.0
    duplicates = np.vstack([base[:115], base[:115]])
    rank_one = np.outer(rng.standard_normal(230), np.ones(22))
    huge = base * 1e300
    with_nan = base.copy()
    with_nan[5, 5] = np.nan
    with_inf = base.copy()
    with_inf[7, 1] = np.inf
    just_above = rng.standard_normal((201, 22)) + 0.5
    return [base, zero_column, duplicates, rank_one, huge, with_nan, with_inf, just_above,
            np.zeros((230, 22))]


@pytest.mark.parametrize("index", range(9))
def test_fitted_margins_are_finite_or_none_and_the_qp_does_not_crash(index):
    A = awkward_matrices()[index]
    with np.errstate(all="ignore"):
        margins = S._fitted_margins(A, A.sum(axis=0))
        assert margins is None or (margins.shape == (A.shape[0],) and
                                   np.all(np.isfinite(margins)))
        result = S._working_set_qp(A, rounds=5)
    assert result is None or len(result) == 2


# --- a forged sympy Rational atom (p/q set after construction) -------------------------------
def forged_rational(p, q):
    """A new object of exactly the type ``sympy.Rational`` whose slots are then set.  Not
    ``Rational.__new__(Rational, 2, 3)``: that returns sympy's *cached* 2/3, and setting its
    slots corrupts every later 2/3 in the process (a vacuity test failed in CI that way)."""
    r = sp.Basic.__new__(sp.Rational)
    r.p, r.q = p, q
    return r


def test_forging_a_rational_leaves_sympys_cached_numbers_alone():
    forged_rational(3, -1)
    forged_rational(2, 1)
    assert (sp.Rational(2, 3).p, sp.Rational(2, 3).q) == (2, 3)
    assert (sp.Rational(3, -1).p, sp.Rational(3, -1).q) == (-3, 1)


@pytest.mark.parametrize("p, q", [(3, -1), (1, 0), (4, 2), (True, 1), (2, True), (0, 2),
                                  (-4, -2), (2 ** 70, 2 ** 70)])
def test_a_forged_rational_atom_is_refused(p, q):
    """Mended: ``_walk`` admitted any object of exactly the type ``sympy.Rational`` without
    looking at its ``p``/``q`` (text ``3/-1``, which sympy calls positive; ``1/0``, which
    raised a plain TypeError)."""
    with pytest.raises(DerivationError, match="lowest terms"):
        expression(forged_rational(p, q), frozenset())
    # the compounds are built past sympy's cache: Pow(x, 2/True) would return a cached x**2
    for compound in (sp.Add, sp.Pow):
        forged = forged_rational(p, q)
        e = sp.Expr.__new__(compound, X, forged)
        e.is_commutative = True         # (as sympy's constructors set it: refused for the rational)
        assert e.args[1] is forged
        with pytest.raises(DerivationError, match="lowest terms"):
            expression(e, frozenset())


def test_the_forged_rational_is_seen_positive_by_sympy():
    """The reason the hole above matters: the value is -3, sympy calls it positive."""
    r = forged_rational(3, -1)
    assert r.is_positive and Fraction(3, -1) < 0


@pytest.mark.parametrize("coefficient", [None, 3, -3, 1])
def test_a_forged_negative_rational_is_not_proved_nonnegative(coefficient):
    """What limits the hole above: the certificate arithmetic reads 3/-1 as -3, so no
    certificate proves the false 3/-1 >= 0 (tried: none, 3, -3, 1)."""
    from verify.kernel import Certificate, Chain, Derivation, Fact, Link, Term, Theorem
    from verify.kernel.claim_statements import ClaimProof, ClaimStatement, Goal, check_claim

    r = forged_rational(3, -1)
    cert = Certificate(() if coefficient is None else (Term(coefficient, ()),))
    proof = Theorem("t", "t", (), (), (), (Fact(r, ">=", 0),), Derivation((
        Chain("l1", r, (Link(">=", 0, cert),)),)))
    with pytest.raises(KernelError):
        check_claim(ClaimStatement(goals=(Goal(r, ">=", 0),)), ClaimProof((), proof))
