"""Attacks on the input walk's new rules (session 39): the size of an expression written out
(``inputs.MAX_NODES``), integers printed past CPython's digit limit, and what ``snapshot``
copies by reference (certificate coefficients, lemmas).

Every forged node is fresh (``node`` = ``Expr.__new__`` with ``is_commutative`` set by hand,
``forged_rational`` = ``Basic.__new__``); no cached sympy object is mutated.

Mended here: an exponent had no bound (``2**(10**11)``, a tower of powers, or a product sharing
one subtree sixty times deep passed the walk, and sympy's arithmetic, or the walk itself,
stalled); the canonical text printed integers with ``str`` (ValueError past 4300 digits outside
the CLI); a certificate coefficient was copied by reference and checked by ``isinstance`` and
its class's module name, so a ``Rational`` subclass claiming to live in ``sympy.core.numbers``
with a lying ``<`` proved the false ``0 <= -x**2``.
Held: a lemma is copied by reference on purpose (the registry knows it by identity) and any
edit of what it states, before or after the snapshot, makes it unchecked.
"""

from __future__ import annotations

import sys
import textwrap
from dataclasses import replace
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_attacks_session38 import NO_VECTORS, X, Y, forged_rational, node, one_step
from tests.test_attacks_session38 import default_digit_limit  # noqa: F401 (a fixture)
from tests.test_attacks_session38 import run_alone
from verify.kernel import (Chain, Derivation, Fact, LemmaUse, Link, Square, Term, Theorem,
                           check_theorem, is_checked, statement_text)
from verify.kernel.claim_statements import ClaimProof, ClaimStatement, Goal, check_claim
from verify.kernel.exact import decimal_text
from verify.kernel.inputs import MAX_NODES, expression, snapshot
from verify.kernel.terms import Certificate, DerivationError

BIG = 10 ** 5000 + 17    # beyond CPython's default 4300-digit limit of int -> str




# --- the size of an expression written out -------------------------------------------------------
def written_out(e) -> int:
    """The reference count (independent of inputs.py): a power b**n is 1 + |n| copies of b (an
    exponent 0 as one copy), any other node 1 + its arguments, an atom 1."""
    if type(e) is sp.Pow:
        return 1 + max(1, abs(int(e.args[1]))) * written_out(e.args[0])
    return 1 + sum(written_out(a) for a in e.args)


def _trees():
    atoms = st.sampled_from([X, Y, sp.Integer(2), sp.Rational(-3, 7)])

    def extend(inner):
        power = st.builds(lambda b, n: sp.Pow(b, n, evaluate=False), inner,
                          st.integers(-120, 120) | st.integers(-12_000, 12_000))
        pair = st.builds(lambda cls, a, b: cls(a, b, evaluate=False),
                         st.sampled_from([sp.Add, sp.Mul]), inner, inner)
        return power | pair

    return st.recursive(atoms, extend, max_leaves=6)


@settings(max_examples=300, deadline=None)
@given(_trees())
def test_an_expression_is_admitted_exactly_when_written_out_it_fits_the_bound(e):
    """Nested powers multiply (((x**a)**b)**c counts a*b*c copies of x); sums and products
    add; refused with a DerivationError naming the rule, by the walk (nothing computed)."""
    if written_out(e) <= MAX_NODES:
        assert expression(e, NO_VECTORS) is e
    else:
        with pytest.raises(DerivationError, match=f"more than {MAX_NODES} nodes written out"):
            expression(e, NO_VECTORS)


@pytest.mark.parametrize("make", [
    lambda: sp.Pow(sp.Integer(2), 10 ** 11, evaluate=False),
    lambda: node(sp.Pow, sp.Integer(2), sp.Integer(10 ** 11)),
    lambda: sp.Pow(X, -(10 ** 11), evaluate=False),
    lambda: node(sp.Pow, X, forged_rational(10 ** 5000, 1)),
    lambda: sp.Pow(sp.Pow(sp.Pow(sp.Integer(2), 64, evaluate=False), 64, evaluate=False), 64,
                   evaluate=False),
    lambda: sp.Pow(sp.Pow(X + Y, 100, evaluate=False), 101, evaluate=False),
], ids=["2**(10**11)", "forged-2**(10**11)", "x**-(10**11)", "x**(10**5000)", "tower-2**64**3",
        "((x+y)**100)**101"])
def test_a_power_too_large_written_out_is_refused_by_the_walk(make):
    """Refused by ``expression`` itself, which never computes: the check cannot reach sympy's
    ``together``/``expand`` (which stalled on 2**(10**11))."""
    with pytest.raises(DerivationError, match="written out"):
        expression(make(), NO_VECTORS)
    with pytest.raises(DerivationError, match="written out"):
        snapshot(one_step(make(), ">", 0))


def test_powers_within_the_bound_are_checked_as_before():
    """The largest power of the site's claims is 2**64; x**9999 (10,000 nodes) is admitted
    and computed with, x**10000 is not."""
    two64 = sp.Pow(sp.Integer(2), 64, evaluate=False)
    assert check_theorem(one_step(two64, ">", 10 ** 19, (Term(2 ** 64 - 10 ** 19, ()),))).steps \
        == 1
    big = sp.Pow(X, 9999, evaluate=False)
    assert written_out(big) == MAX_NODES
    assert check_theorem(one_step(big, "=", X ** 9999)).steps == 1
    with pytest.raises(DerivationError, match="written out"):
        check_theorem(one_step(X ** 10000, "=", X ** 10000))


def test_a_shared_subtree_counts_once_for_each_occurrence():
    """A product sharing one node 60 levels deep is 2**61 - 1 nodes written out: refused
    after at most MAX_NODES visits (the walk itself used to visit each occurrence)."""
    e = X
    for _ in range(13):
        e = sp.Mul(e, e, evaluate=False)
    assert written_out(e) == 2 ** 14 - 1 > MAX_NODES
    with pytest.raises(DerivationError, match="written out"):
        expression(e, NO_VECTORS)


_STALLS = textwrap.dedent("""
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    import sympy as sp
    from verify.kernel import Certificate, Chain, Derivation, Fact, Link, Theorem, check_theorem
    from verify.kernel.terms import DerivationError

    def shared(leaf, cls, depth):
        e = leaf
        for _ in range(depth):
            e = cls(e, e, evaluate=False)
        return e

    two = sp.Integer(2)
    tower = two
    for _ in range(5):
        tower = sp.Pow(tower, 64, evaluate=False)
    for e in (sp.Pow(two, 10 ** 11, evaluate=False), tower, shared(two, sp.Mul, 30),
              shared(sp.Symbol("x", real=True) + 1, sp.Mul, 30)):
        t = Theorem("t", "t", (), (), (), (Fact(e, ">", 0),), Derivation((
            Chain("l1", e, (Link(">", 0, Certificate()),)),)))
        try:
            check_theorem(t)
            print("checked")
        except DerivationError as exc:
            print("refused" if "written out" in str(exc) else exc)
""")


def test_no_stall_is_left_in_the_walk_or_the_arithmetic():
    """Run in a process of its own with a time limit (a regression hangs, it does not stop
    the suite): 2**(10**11), 2**(64**5), 2 multiplied by itself 2**30 times through one shared
    node, and (x + 1) likewise (the walk alone visited 2**30 nodes) are each refused by their
    size written out.  (Sixty levels, as first found, are now refused for their depth first:
    inputs.MAX_DEPTH, tests/test_attacks_session39c.py.)"""
    done = run_alone(_STALLS, 60, "the four expressions")
    assert done.stdout.split() == ["refused"] * 4, done.stderr[-800:]


# --- integers past the digit limit -----------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.integers(0, 6000), st.integers(-10 ** 40, 10 ** 40), st.booleans())
def test_decimal_text_is_str_under_any_digit_limit(k, r, negative):
    n = (-1 if negative else 1) * (10 ** k + r)
    expected = str(n)                             # (the suite runs with the limit lifted)
    assert decimal_text(n) == expected
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)               # (the least CPython accepts)
    try:
        assert decimal_text(n) == expected
    finally:
        sys.set_int_max_str_digits(before)


def test_a_statement_about_a_big_integer_has_one_text_in_every_process():
    """The canonical text (lemma use, pinned statements and claims compare it) and a
    claim's proved statement are the same under the default limit as with the limit lifted
    (they raised ValueError there: a claim about a big integer was proved only in the CLI)."""
    big = sp.Integer(BIG)
    theorem = one_step(big * X ** 2 + sp.Rational(1, BIG), ">=", 0,
                       (Term(BIG, (Square(X),)), Term(Fraction(1, BIG), ())))
    claim = ClaimStatement(goals=(Goal(big, ">", 0),))
    proof = one_step(big, ">", 0, (Term(BIG, ()),))
    lifted = statement_text(check_theorem(theorem).theorem)
    assert lifted.endswith(f"conclusion 1: 1/{BIG} + {BIG}*x**2 >= 0")
    shown = f"{BIG} > 0"
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    try:
        checked = check_theorem(theorem)
        assert statement_text(checked.theorem) == lifted and is_checked(checked)
        assert check_claim(claim, ClaimProof((), proof)).shown.endswith(shown)
    finally:
        sys.set_int_max_str_digits(before)


@pytest.mark.parametrize("make", [
    lambda: forged_rational(2 * BIG, 2),                         # not in lowest terms
    lambda: sp.sin(sp.Integer(BIG)),                             # a function
    lambda: node(sp.Pow, sp.Integer(BIG), sp.Rational(1, 2)),    # a root
    lambda: node(sp.Pow, X, forged_rational(BIG, 2 * BIG)),     # a forged exponent
], ids=["forged", "sin", "root", "exponent"])
def test_a_refused_expression_with_a_big_integer_is_a_derivation_error(make,
                                                                       default_digit_limit):
    """The walk's messages print a refused part with sympy's str, which raised ValueError
    past the limit; they now say what it is instead."""
    e = make()
    with pytest.raises(DerivationError):
        expression(e, NO_VECTORS)
    with pytest.raises(DerivationError):
        check_theorem(one_step(e, "=", e))


# --- what snapshot copies by reference -------------------------------------------------------------
class _LyingRational(sp.Rational):
    """A Rational subclass whose module says sympy's and whose ``<`` says it is never below."""

    __module__ = "sympy.core.numbers"

    def __lt__(self, other):
        return False


def _lying(p):
    r = sp.Basic.__new__(_LyingRational)
    r.p, r.q = p, 1
    return r


def test_a_coefficient_claiming_to_be_sympys_rational_proves_nothing_false():
    """Mended: snapshot copied Term.coeff by reference and derivations tested it with
    isinstance and ``type(c).__module__``; -1 of this class passed ``coeff < 0`` and the
    certificate -1 * x**2 checked the false 0 <= -x**2.  The copy takes a coefficient only of
    sympy's own classes by identity (or int / Fraction), as a Fraction of builtin ints."""
    coeff = _lying(-1)
    assert not coeff < 0 and isinstance(coeff, sp.Rational)
    with pytest.raises(DerivationError, match="coefficient"):
        check_theorem(one_step(sp.Integer(0), "<=", -X ** 2, (Term(coeff, (Square(X),)),)))
    with pytest.raises(DerivationError, match="coefficient"):
        check_claim(ClaimStatement(goals=(Goal(sp.Integer(0), "<=", -X ** 2),)),
                    ClaimProof((), one_step(sp.Integer(0), "<=", -X ** 2,
                                            (Term(coeff, (Square(X),)),))))


class _Flipping(Fraction):
    """A Fraction whose numerator is 1 on the first read and -1 after."""

    reads = 0

    @property
    def numerator(self):
        type(self).reads += 1
        return 1 if type(self).reads == 1 else -1


@settings(max_examples=100, deadline=None)
@given(st.fractions(), st.sampled_from(["int", "Fraction", "sympy"]))
def test_the_checked_copy_holds_each_coefficient_as_a_fraction_of_builtin_ints(value, kind):
    made = {"int": lambda: value.numerator, "Fraction": lambda: value,
            "sympy": lambda: sp.Rational(value.numerator, value.denominator)}[kind]()
    copy = snapshot(one_step(X, ">=", X, (Term(made, ()),)))
    coeff = copy.proof.lines[0].links[0].certificate.terms[0].coeff
    assert type(coeff) is Fraction and coeff == Fraction(made if kind != "sympy" else value)
    assert type(coeff.numerator) is int and type(coeff.denominator) is int


def test_a_coefficient_is_read_once():
    """A Fraction subclass reading 1/2 first and -1/2 after: the copy holds what was read
    first, so the check cannot see another value later."""
    _Flipping.reads = 0
    copy = snapshot(one_step(X, ">=", X, (Term(_Flipping(1, 2), ()),)))
    coeff = copy.proof.lines[0].links[0].certificate.terms[0].coeff
    assert (type(coeff), coeff) == (Fraction, Fraction(1, 2))


def _lemma_on_naturals():
    """A checked lemma: for a natural T, T >= 0 (T is natural by the theorem's naturals)."""
    T = sp.Symbol("T", real=True)
    lemma = check_theorem(Theorem("lemma", "lemma", (), (T,), (), (Fact(T, ">=", 0),),
                                  Derivation((Chain("c", T, (Link(">=", 0, Certificate(
                                      (Term(1, ("T>=0",)),))),)),))))
    return lemma, T


def _using(lemma, T, value):
    return Theorem("t", "t", (), (), (), (Fact(X, ">=", 0),),
                   Derivation((LemmaUse("l", lemma, ((T, value),), 0),)))


def test_a_lemma_edited_after_its_check_is_no_lemma():
    """Held: snapshot copies LemmaUse.lemma by reference, on purpose: the registry knows a
    checked theorem by identity and, at every use, prints its statement again and compares it
    with the text recorded when it was issued.  Editing the frozen record with
    ``object.__setattr__`` (its theorem, the theorem's naturals or conclusions) makes it
    unchecked; editing its proof, which is not part of what it states, changes nothing a use
    reads (a use maps each natural to a natural, induction or not)."""
    lemma, T = _lemma_on_naturals()
    with pytest.raises(DerivationError, match="must map to a natural"):
        check_theorem(_using(lemma, T, X))            # x is no natural here
    edits = [("theorem", replace(lemma.theorem)),
             ("naturals", ()), ("conclusions", (Fact(T, ">=", 1),))]
    for field, value in edits:
        lemma, T = _lemma_on_naturals()
        target = lemma if field == "theorem" else lemma.theorem
        object.__setattr__(target, field, value)
        assert not is_checked(lemma)
        with pytest.raises(DerivationError, match="not a checked theorem"):
            check_theorem(_using(lemma, T, X))
    lemma, T = _lemma_on_naturals()
    object.__setattr__(lemma.theorem, "proof", Derivation(()))
    assert is_checked(lemma)
    with pytest.raises(DerivationError, match="must map to a natural"):
        check_theorem(_using(lemma, T, X))


def test_a_lemma_edited_between_the_snapshot_and_the_check_is_no_lemma(monkeypatch):
    """No proposer code runs between check_theorem's snapshot and the lemma's use (simulated
    here): the copy holds the lemma itself, so the edit is seen, and refused, at its use."""
    import verify.kernel.derivations as derivations

    lemma, T = _lemma_on_naturals()
    real = derivations.snapshot

    def snapshot_then_edit(theorem):
        copy = real(theorem)
        object.__setattr__(lemma.theorem, "naturals", ())
        return copy

    monkeypatch.setattr(derivations, "snapshot", snapshot_then_edit)
    with pytest.raises(DerivationError, match="not a checked theorem"):
        check_theorem(_using(lemma, T, T))
    monkeypatch.setattr(derivations, "snapshot", real)
    lemma, T = _lemma_on_naturals()
    with pytest.raises(DerivationError, match="must map to a natural"):   # unedited: past the
        check_theorem(_using(lemma, T, T))                                # registry's check
