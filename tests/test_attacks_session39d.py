"""Attacks on the session-39 changes (session 39d): nodes read past ``_args``, the induction
claim's checked copy, the divisor messages' lambdas, the smaller quick search.

1. Forged sympy state the walk does not read: a fresh ``Symbol`` (``Symbol.__xnew__``, never
   cached) whose ``_mhash`` is wrong compares equal to the genuine symbol (``__eq__`` reads
   ``_hashable_content``) but is another key for every dict and set: sympy's ``Add``/``Mul``
   flattening, ``xreplace``, ``has``, ``free_symbols`` and the kernel's frozenset of naturals
   all treat it as a *second variable* printed with the same name.  The kernel identifies the two
   only through ``==`` on tuples (``T not in theorem.naturals``, ``others``, ``fam.index == t``,
   ``_check_induction``'s variable test) and through the printed text.  A theorem checked
   with the two as independent variables is only stronger than its printed reading, so the
   attacks below try the places where an identification and a distinction meet: a lemma whose
   substitution misses the forged copy, an induction on the forged copy of a declared natural
   used as a lemma, an induction whose hypothesis names the forged copy (``_mentions`` reads
   ``has``, which misses it): these held (with the hash check taken out, fixture
   ``unchecked_hash``).  HOLE found and mended: a theorem whose *per-step index* is the twin
   t' of t: ``fam.index == t`` holds, so the per-step hypotheses were searched for T only, and
   ``y[t'] + t - t' >= 0`` (t genuine, free) read ``y[t] >= 0`` in the step and
   ``y[i] + 100 - i >= 0`` at a lemma use with t := 100: a false theorem made only of genuine
   objects was checked.  Mend (inputs.py ``_check_hash``): every walked node's cached hash is
   unset or sympy's own; every node kind with a lying hash is refused, genuine hashed ones pass.
   A forged assumptions table (``_assumptions`` saying positive, ``_assumptions_orig`` only
   real) is never consulted by the kernel's arithmetic: ``x > 0`` is not derived.
2. ``_check_induction`` checks its own snapshot: the proposer's theorem is read once.
3. ``require_defined``'s message is a lambda made in a loop and called at once: the refusal
   names the conclusion (the side) that failed, not the loop's last one.
4. ``QUICK_POINTS`` = 500: a false claim the quick search misses is still refuted by the wider
   search after the kernel fails (tried with no quick search at all).

Every forged object is fresh; no cached sympy object is mutated.
"""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy.core.assumptions import StdFactKB

from tests.test_attacks_session38 import X, node, one_step, theorem
from verify.claims.verdict import QUICK_POINTS, check_claim_text
from verify.kernel import (
    Certificate, Chain, Derivation, Fact, Hyp, Induction, LemmaUse, Link, Term, Theorem,
    check_theorem,
)
from verify.kernel.errors import KernelError
from verify.kernel.statements import statement_text
from verify.kernel.terms import DerivationError, EqTerm, Family

T, t = sp.symbols("T t", real=True)


def twin(symbol, mhash=7):
    """A fresh symbol equal to ``symbol`` (same name and assumptions) whose cached hash lies."""
    forged = sp.Symbol.__xnew__(sp.Symbol, symbol.name, real=True)
    forged._mhash = mhash
    assert forged == symbol and hash(forged) != hash(symbol)
    return forged


@pytest.fixture
def unchecked_hash(monkeypatch):
    """The walk as it was before this session's mend: a node's cached hash not compared."""
    import verify.kernel.inputs as inputs

    monkeypatch.setattr(inputs, "_check_hash", lambda e: None)


S, Yb = sp.IndexedBase("s"), sp.IndexedBase("y")
J = sp.Symbol("j", real=True)


def _lemma_with_index(index):
    """s[0] = 0, for every step i < T: s[i+1] = s[i] + y[i] and y[i] + t - i >= 0 (t a free
    variable, printed as the index when ``index`` is t's twin) |- s[T] >= 0, by induction."""
    h = Hyp("h", Fact(Yb[index] + t - index, ">=", 0))
    rec = Hyp("rec", Fact(S[index + 1], "=", S[index] + Yb[index]))
    step = Chain("c", S[t + 1], (Link(">=", 0, Certificate((Term(1, ("IH",)), Term(1, ("h",))),
                                                            (EqTerm(1, "rec"),))),))
    base = Chain("b", S[0], (Link(">=", 0, Certificate((), (EqTerm(1, "s0"),))),))
    return Theorem("L", "L", (), (T,), (Hyp("s0", Fact(S[0], "=", 0)),), (Fact(S[T], ">=", 0),),
                   Induction(T, t, Derivation((base,)), Derivation((step,))),
                   Family(index, T, (rec, h)))


def _false_theorem(lemma):
    """s[0] = 0, for every j < T: s[j+1] = s[j] + y[j] and y[j] + 100 - j >= 0 |- s[T] >= 0:
    false (T = 1, y[0] = -100: s[1] = -100), every object genuine; by the lemma with t := 100."""
    family = Family(J, T, (Hyp("rec", Fact(S[J + 1], "=", S[J] + Yb[J])),
                           Hyp("g", Fact(Yb[J] + 100 - J, ">=", 0))))
    return Theorem("U", "U", (), (T,), (Hyp("s0", Fact(S[0], "=", 0)),), (Fact(S[T], ">=", 0),),
                   Derivation((LemmaUse("l", lemma, ((T, T), (t, 100)), 0),)), family)


def test_a_per_step_index_twin_no_longer_proves_a_false_theorem():
    """HOLE found here and mended (inputs.py ``_check_hash``).  The lemma's per-step index is t'
    (t's twin: equal, another hash).  ``fam.index == t`` asks ``==`` (true), so only T is
    looked for in the per-step hypotheses, by ``has`` (hash: it misses nothing here, the
    hypothesis names the *genuine* t, a free variable).  The step substitutes t' := t, reading
    ``y[t] + t - t >= 0`` as ``y[t] >= 0``; a lemma use substitutes t' := i and t := 100, asking
    only ``y[i] + 100 - i >= 0``: the false theorem ``_false_theorem`` was checked.  Now the
    walk refuses a node whose cached hash is not sympy's own; with the old walk (the fixture
    undone by hand below) the false theorem is checked, so this test can fail."""
    s1 = {S[0]: 0, Yb[0]: -100}
    assert (S[0] + Yb[0]).xreplace(s1) == -100          # s[1] at T = 1: the theorem is false
    with pytest.raises(DerivationError, match="cached hash is not sympy's own"):
        check_theorem(_lemma_with_index(twin(t)))
    # the genuine index: y[t] + t - t is y[t] when built, the lemma (per-step y[t] >= 0) is
    # checked and the false theorem is refused at its lemma use
    lemma = check_theorem(_lemma_with_index(t))
    with pytest.raises(DerivationError, match="per-step hypotheses of L are not available"):
        check_theorem(_false_theorem(lemma))


def test_the_false_theorem_was_checked_by_the_walk_before_the_mend(unchecked_hash):
    """The same attack with the hash comparison taken out: the lemma and then the false
    theorem (every object of it genuine) are checked."""
    lemma = check_theorem(_lemma_with_index(twin(t)))
    assert check_theorem(_false_theorem(lemma)).steps == 1


KINDS = ["symbol", "indexed label", "indexed base", "indexed", "sum", "product", "power",
         "exponent", "rational"]


def _with_lying_hash(kind, mhash):
    """An expression one of whose nodes (fresh, of the given kind) caches ``mhash`` (built past
    sympy's constructors around it, which would rebuild or distribute it away)."""
    def lie(e):
        e._mhash = mhash
        return e
    if kind == "symbol":
        return X + twin(X, mhash)
    if kind == "indexed label":
        return sp.Indexed(sp.IndexedBase(twin(sp.Symbol("y", real=True), mhash)), X)
    if kind == "indexed base":
        return sp.Indexed(lie(sp.Basic.__new__(sp.IndexedBase, sp.Symbol("y"))), X)
    if kind == "indexed":
        return node(sp.Add, lie(sp.Basic.__new__(sp.Indexed, sp.IndexedBase("y"), X)), 1)
    if kind in ("sum", "product"):
        return node(sp.Mul, sp.Integer(2), lie(node(sp.Add if kind == "sum" else sp.Mul, X, T)))
    if kind == "power":
        return node(sp.Add, lie(node(sp.Pow, X, sp.Integer(2))), sp.Integer(1))
    number = sp.Basic.__new__(sp.Rational)
    number.p, number.q = 1, 3
    return node(sp.Pow, X, lie(number)) if kind == "exponent" else node(sp.Add, X, lie(number))


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(KINDS), mhash=st.integers(-2**63, 2**63 - 1))
def test_every_node_kind_with_a_cached_hash_not_sympys_own_is_refused(kind, mhash):
    e = _with_lying_hash(kind, mhash)
    with pytest.raises(DerivationError, match="cached hash is not sympy's own"):
        check_theorem(one_step(e, "=", e))


def test_genuine_nodes_whose_hash_is_cached_pass():
    """Every genuine node kind, hashed first (its ``_mhash`` set by sympy), is still taken."""
    e = 2 * X * T + Yb[X + 1] ** 2 + sp.Rational(1, 3) + X ** 3 * T
    for part in sp.preorder_traversal(e):
        hash(part)
    hash(Yb), hash(Yb.label), hash(sp.Rational(1, 3))
    assert check_theorem(one_step(e, "=", e)).steps == 1


# --- 1. a symbol whose cached hash lies --------------------------------------------------------
@pytest.mark.parametrize("mhash", [7, -1, 2**61 - 2])
def test_a_twin_with_another_hash_is_another_variable_to_the_arithmetic(mhash, unchecked_hash):
    """x - x' = 0 and x = x' print as ``x - x = 0`` and ``x = x`` but are refused: sympy's
    flattening keys terms by hash, so the two never cancel (the forged hash only removes
    identities, never adds one: a dict lookup needs ``==`` too)."""
    x2 = twin(X, mhash)
    refused = [theorem(Fact(X - x2, "=", 0)), theorem(Fact(X, "=", x2)), one_step(X, "=", x2),
               one_step(X - x2, ">=", 0)]
    for thm in refused:
        with pytest.raises(DerivationError):
            check_theorem(thm)
    assert "x - x" in statement_text(refused[0])


def test_a_lemma_whose_hypothesis_and_conclusion_name_different_twins_is_refused(unchecked_hash):
    """The substitution exploit: a lemma ``x >= 0 => x' >= 0`` used with x := 1 would leave x'
    (xreplace misses it) and conclude ``x >= 0`` about the user's own x.  The lemma itself is
    refused: its conclusion is not ``same`` as its hypothesis (x - x' is not 0)."""
    x2 = twin(X)
    for hyp, concl in ((X, x2), (x2, X)):
        lemma = theorem(Fact(concl, ">=", 0), hyps=(Hyp("h", Fact(hyp, ">=", 0)),))
        with pytest.raises(DerivationError, match="is not derived"):
            check_theorem(lemma)


def test_a_substitution_that_misses_a_twin_keeps_a_true_instance(unchecked_hash):
    """A checked lemma ``x'**2 + x**2 >= 0`` used with x := 1: xreplace misses x', so the user
    theorem gets ``x'**2 + 1 >= 0`` (printed ``x**2 + 1 >= 0``, true for every x) and nothing
    false: the same in the genuine x is not derived from it, nor ``x'**2 >= 1``."""
    x2 = twin(X)
    lemma = check_theorem(one_step(x2 ** 2 + X ** 2, ">=", 0,
                                   (Term(1, ((_square(x2)),)), Term(1, ((_square(X)),)))))
    use = LemmaUse("l", lemma, ((X, 1),), 0)
    assert check_theorem(theorem(Fact(x2 ** 2 + 1, ">=", 0), use)).steps == 1
    for wrong in (Fact(X ** 2 + 1, ">=", 0), Fact(x2 ** 2, ">=", 1), Fact(X ** 2, ">=", 1)):
        with pytest.raises(DerivationError, match="is not derived"):
            check_theorem(theorem(wrong, use))


def _square(e):
    from verify.kernel import Square
    return Square(e)


def _induction_on(variable, conclusion, hyps=(), naturals=(T,)):
    step = Chain("s", conclusion.lhs.xreplace({variable: t + 1}),
                 (Link(">=", 0, Certificate((Term(1, ("IH",)), Term(1, ())))),))
    return Theorem("L", "L", (), naturals, hyps, (conclusion,),
                   Induction(variable, t, Derivation(()), Derivation((step,))))


def test_an_induction_on_the_twin_of_a_declared_natural_proves_only_its_printed_statement(unchecked_hash):
    """Naturals (T,), induction on T' (== T, another hash): ``T' in naturals`` asks ``==`` and
    passes, and the theorem ``T >= 0`` for natural T is checked (true).  Used as a lemma where
    T is a real, with T := 0, the induction variable's image is T' (xreplace misses it), which
    is no natural there: refused, so the lemma never gives ``T >= 0`` for a real T."""
    T2 = twin(T)
    lemma = check_theorem(_induction_on(T2, Fact(T2, ">=", 0)))
    assert statement_text(lemma.theorem) == statement_text(
        _induction_on(T, Fact(T, ">=", 0)))
    for sigma in (((T, 0),), ()):
        with pytest.raises(DerivationError, match="natural"):
            check_theorem(theorem(Fact(T2, ">=", 0), LemmaUse("l", lemma, sigma, 0)))
    # the conclusion in the declared (genuine) T and the induction on T': the base must then
    # prove T >= 0 for a real T (xreplace T' := 0 leaves T), which it cannot
    with pytest.raises(DerivationError, match="is not derived"):
        check_theorem(_induction_on(T2, Fact(T, ">=", 0)))


def test_a_hypothesis_naming_the_twin_of_the_induction_variable_gives_nothing(unchecked_hash):
    """``_mentions`` reads ``has``, which misses T' (a set lookup): an induction on T with the
    hypothesis ``T' >= 5`` is not refused as mentioning T, but T' is another variable to the
    base and step, so ``T >= 5`` (false at T = 0) is not derived."""
    T2 = twin(T)
    hyp = (Hyp("h", Fact(T2 - 5, ">=", 0)),)
    thm = Theorem("L", "L", (), (T,), hyp, (Fact(T - 5, ">=", 0),),
                  Induction(T, t, Derivation(()), Derivation(())))
    with pytest.raises(DerivationError, match="is not derived"):
        check_theorem(thm)


@pytest.mark.parametrize("facts", [{"positive": True}, {"zero": True}, {"negative": True}])
def test_a_forged_assumption_table_is_never_read(facts):
    """A fresh x whose ``_assumptions`` table says positive (zero, negative) and whose stated
    assumptions (``_assumptions_orig``, walked) say only real: ``x > 0``, ``x >= 0``, ``-x >= 0``
    and ``x = 0`` are still not derived (the kernel's arithmetic asks no assumption)."""
    forged = sp.Symbol.__xnew__(sp.Symbol, "x", real=True)
    forged._assumptions = StdFactKB({"real": True, "commutative": True, **facts})
    assert any(getattr(forged, f"is_{k}") for k in facts)
    for fact in (Fact(forged, ">", 0), Fact(forged, ">=", 0), Fact(-forged, ">=", 0),
                 Fact(forged, "=", 0), Fact(forged * forged ** 2, ">=", 0)):
        with pytest.raises(DerivationError, match="is not derived"):
            check_theorem(theorem(fact))


# --- 3. the lambdas of require_defined ---------------------------------------------------------
def test_a_refusal_names_the_conclusion_that_divides_by_an_unknown():
    """Two conclusions, the second divides by x: the message names it (the lambda made in the
    loop is called in the same turn), not the first; with the order swapped, still it."""
    ok, bad = Fact(X ** 2, ">=", 0), Fact(node(sp.Mul, X, node(sp.Pow, X, sp.Integer(-1))), "=", 1)
    sq = Chain("q", X ** 2, (Link(">=", 0, Certificate((Term(1, (_square(X),)),))),))
    for conclusions in ((ok, bad), (bad, ok)):
        thm = Theorem("t", "t", (), (), (), conclusions, Derivation((sq,)))
        with pytest.raises(DerivationError, match=r"conclusion x/x = 1: .*written divisor x"):
            check_theorem(thm)


# --- 4. the quick search's size ----------------------------------------------------------------
@settings(max_examples=8, deadline=None)
@given(k=st.integers(2, 40))
def test_a_false_claim_the_quick_search_misses_is_refuted_by_the_wider_one(k):
    """With no quick search at all (points=0) a false claim reaches the kernel, which fails,
    and the wider search then refutes it; QUICK_POINTS changes the CPU time, not verdicts."""
    assert QUICK_POINTS == 500
    verdict = check_claim_text(f"x**2 >= x/{k}", points=0)
    assert verdict.status == "refuted" and verdict.counterexample
    assert check_claim_text(f"x**2 >= x/{k}").status == "refuted"
