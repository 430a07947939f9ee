"""A lying proposer against the kernel: every attack of issue 12 (findings 1-4, 12) is rejected.

Each test states an attack that the old kernel accepted (a "proof" of something false, or of
something other than what it says) and checks that the kernel, or the pinned statements,
refuse it.  Hypothesis builds whole families of each attack.
"""

from __future__ import annotations

import copy
import dataclasses as dc
import json
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import assume, given, settings, strategies as st

from verify import kernel
from verify.kernel import (Certificate, Chain, Derivation, DerivationError, EqTerm, Fact, Family,
                           Hyp, Induction, KernelError, LemmaUse, Link, NormSq, Rewrite, Square,
                           Term, Theorem, VectorDef, check_theorem, dot, is_checked,
                           statement_text)

x, y, z = sp.symbols("x y z", real=True)
W = sp.Symbol("w")
small = st.integers(min_value=-6, max_value=6)
nonzero = st.integers(min_value=1, max_value=6)


def one_step(start, rel, end, cert=Certificate(), hyps=(), vectors=(), name="t"):
    return Theorem(name, name, vectors, (), tuple(hyps), (Fact(start, rel, end),),
                   Derivation((Chain("c", start, (Link(rel, end, cert),)),)))


@st.composite
def polynomials(draw, symbols=(x, y)):
    """A polynomial with small rational coefficients (often negative somewhere)."""
    terms = draw(st.lists(st.tuples(small, nonzero, st.integers(0, 2), st.integers(0, 2)),
                          min_size=1, max_size=4))
    return sp.expand(sum(sp.Rational(p, q) * symbols[0] ** i * symbols[1] ** j
                         for p, q, i, j in terms))


# --- finding 1: complex "squares" ----------------------------------------------------------------
def test_the_complex_square_identity_no_longer_proves_x_nonnegative():
    # x = ((x+1)/2)^2 + (i(x-1)/2)^2, so the old kernel accepted "x >= 0" with no hypothesis
    cert = Certificate((Term(1, (Square((x + 1) / 2),)), Term(1, (Square(sp.I * (x - 1) / 2),))))
    with pytest.raises(DerivationError, match="I is not allowed"):
        check_theorem(one_step(0, "<=", x, cert))


@settings(max_examples=40, deadline=None)
@given(polynomials())
def test_no_polynomial_is_a_sum_of_complex_squares(p):
    assume(p != 1)  # for p = 1 the "complex" square is 0 and 0 <= 1 is true
    cert = Certificate((Term(1, (Square((p + 1) / 2),)), Term(1, (Square(sp.I * (p - 1) / 2),))))
    with pytest.raises(DerivationError, match="I is not allowed"):
        check_theorem(one_step(0, "<=", p, cert))


def test_x_squared_plus_x_is_not_below_x():
    # x^2 + x <= x  iff  -x^2 >= 0: "proved" by the square of i*x
    with pytest.raises(DerivationError, match="I is not allowed"):
        check_theorem(one_step(x ** 2 + x, "<=", x, Certificate((Term(1, (Square(sp.I * x),)),))))


@pytest.mark.parametrize("vector", [sp.I * W, (1 + sp.I) * W / sp.sqrt(2), sp.I * W + 0])
def test_a_complex_multiple_of_a_vector_is_no_squared_norm(vector):
    # ||w||^2 <= 0 by Dot(i w, i w) = -Dot(w, w)
    with pytest.raises(DerivationError, match="not allowed|only integer powers"):
        check_theorem(one_step(dot(W, W), "<=", 0, Certificate((Term(1, (NormSq(vector),)),)),
                               vectors=("w",)))


# --- finding 3: floats, assumptions, foreign atoms, strings --------------------------------------
@pytest.mark.parametrize("lhs, rhs", [
    (sp.Float(1.0) * x, x),
    (x + sp.Float(1e-20), x),
    (sp.Float(0.1) * 3 * x, sp.Rational(3, 10) * x),
])
def test_floats_never_enter_a_derivation(lhs, rhs):
    with pytest.raises(DerivationError, match="number .* is not allowed"):
        check_theorem(one_step(lhs, "=", rhs))


@settings(max_examples=40, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6))
def test_any_float_coefficient_is_refused(value):
    if value == int(value):  # sympy turns an integral float into a Float too; keep them all
        value += 0.5
    with pytest.raises(DerivationError, match="not allowed|not an expression"):
        check_theorem(one_step(sp.Float(value) * x, "=", sp.Float(value) * x))


@pytest.mark.parametrize("assumption", ["nonnegative", "positive", "negative", "integer",
                                         "nonzero", "zero", "odd", "finite", "extended_real"])
def test_a_symbol_with_an_assumption_is_refused(assumption):
    p = sp.Symbol("p", **{assumption: True})
    with pytest.raises(DerivationError, match=f"assumption {assumption}=True"):
        check_theorem(one_step(p * x, "=", x * p))


def test_abs_of_a_nonnegative_symbol_is_not_silently_p():
    p = sp.Symbol("p", nonnegative=True)
    assert sp.Abs(p) == p  # what sympy does before the kernel sees it
    with pytest.raises(DerivationError, match="nonnegative=True"):
        check_theorem(one_step(sp.Abs(p), "=", p))
    q = sp.Symbol("q", real=True)  # with a plain real symbol, Abs stays and is refused
    with pytest.raises(DerivationError, match="Abs"):
        check_theorem(one_step(sp.Abs(q), "=", q))


@pytest.mark.parametrize("atom", [sp.sin(x), sp.cos(x) ** 2, sp.sqrt(x), sp.exp(x), sp.pi,
                                  sp.E, sp.oo, sp.Function("f")(x), x ** sp.Rational(1, 2),
                                  x ** y, sp.Max(x, 1)])
def test_foreign_atoms_are_refused(atom):
    with pytest.raises(DerivationError, match="not allowed|only integer powers"):
        check_theorem(one_step(atom, "=", atom))


def test_sin_squared_plus_cos_squared_is_not_one():
    with pytest.raises(DerivationError, match="not allowed"):
        check_theorem(one_step(sp.sin(x) ** 2 + sp.cos(x) ** 2, "=", 1))


def test_a_string_is_never_parsed():
    for bad in ("x", "__import__('os').system('true')"):
        with pytest.raises(DerivationError, match="not an expression"):
            check_theorem(one_step(bad, "=", bad))
        with pytest.raises(DerivationError, match="not a rational"):
            check_theorem(one_step(x ** 2, ">=", 0, Certificate((Term(bad, (Square(x),)),))))


def test_subclasses_of_the_kernel_classes_are_refused():
    class Lying(Fact):
        def normal(self):
            return sp.Integer(0), "=0"

    theorem = Theorem("t", "t", (), (), (), (Lying(x, "<=", x - 1),), Derivation(()))
    with pytest.raises(DerivationError, match="not a kernel Fact"):
        check_theorem(theorem)

    class MySymbol(sp.Symbol):
        pass

    with pytest.raises(DerivationError, match="not allowed"):
        check_theorem(one_step(MySymbol("m"), "=", MySymbol("m")))

    class Dot(sp.Function):  # same name as the kernel's, another class
        nargs = 2

    with pytest.raises(DerivationError, match="not allowed"):
        check_theorem(one_step(Dot(W, W), ">=", 0, Certificate((Term(1, (NormSq(W),)),)),
                               vectors=("w",)))


def test_a_sequence_that_changes_between_two_reads_is_read_once():
    class Shifty(list):
        reads = 0

        def __iter__(self):
            Shifty.reads += 1
            return iter(self if Shifty.reads == 1 else [Hyp("h", Fact(x, ">=", 1))])

    hyps = Shifty([Hyp("h", Fact(x, ">=", 1))])
    theorem = dc.replace(one_step(x, ">=", 1, Certificate((Term(1, ("h",)),))), hyps=hyps)
    with pytest.raises(DerivationError, match="Shifty is not a tuple"):
        check_theorem(theorem)


# --- finding 2: forged lemmas --------------------------------------------------------------------
def _lemma():
    return check_theorem(Theorem("cauchy", "c", (), (), (Hyp("ha", Fact(x, ">=", 0)),),
                                 (Fact(x ** 2 + x, ">=", 0),),
                                 Derivation((Chain("c", x ** 2 + x, (Link(">=", 0, Certificate(
                                     (Term(1, (Square(x),)), Term(1, ("ha",))))),)),))))


def _use(lemma, conclusion_var=x):
    return Theorem("use", "use", (), (), (Hyp("hx", Fact(x, ">=", 0)),),
                   (Fact(x, ">=", 1),), Derivation((LemmaUse("l", lemma),)))


@settings(max_examples=25, deadline=None)
@given(polynomials(), polynomials())
def test_a_replaced_theorem_is_no_lemma(p, q):
    checked = _lemma()
    assert is_checked(checked)
    other = Theorem("cauchy", "c", (), (), (), (Fact(p, "<=", q),), Derivation(()))
    forged = dc.replace(checked, theorem=other)
    assert not is_checked(forged)
    use = Theorem("use", "use", (), (), (), (Fact(p, "<=", q),),
                  Derivation((LemmaUse("l", forged),)))
    with pytest.raises(DerivationError, match="lemma is not a checked theorem"):
        check_theorem(use)


@pytest.mark.parametrize("forge", [
    lambda c: copy.copy(c),
    lambda c: copy.deepcopy(c),
    lambda c: dc.replace(c, steps=c.steps + 1),
    lambda c: dc.replace(c, lemmas=()),
])
def test_copies_of_a_checked_theorem_are_no_lemma(forge):
    forged = forge(_lemma())
    assert not is_checked(forged)
    with pytest.raises(DerivationError, match="lemma is not a checked theorem"):
        check_theorem(Theorem("use", "use", (), (), (Hyp("hx", Fact(x, ">=", 0)),),
                              (Fact(x ** 2 + x, ">=", 0),), Derivation((LemmaUse("l", forged),))))


@pytest.mark.parametrize("edit", ["conclusions", "hyps", "theorem", "rules", "family"])
def test_a_checked_theorem_edited_in_place_is_no_lemma(edit):
    checked = _lemma()
    target = checked.theorem
    if edit == "conclusions":
        object.__setattr__(target, "conclusions", (Fact(x, ">=", 1),))
    elif edit == "hyps":
        object.__setattr__(target, "hyps", ())
    elif edit == "theorem":
        object.__setattr__(checked, "theorem", dc.replace(target))
    elif edit == "rules":
        object.__setattr__(checked, "rules", ("ring",))
    else:
        object.__setattr__(target, "family", Family(y, 3, (Hyp("f", Fact(y, ">=", 0)),)))
    assert not is_checked(checked)
    with pytest.raises(DerivationError, match="lemma is not a checked theorem"):
        check_theorem(Theorem("use", "use", (), (), (), (Fact(x, ">=", 1),),
                              Derivation((LemmaUse("l", checked),))))


def test_a_checked_theorem_cannot_be_constructed():
    checked = _lemma()
    with pytest.raises(KernelError, match="only be created by kernel.check_theorem"):
        kernel.CheckedTheorem(checked.theorem, (), (), (), 0)


# --- finding 12: the two hand-made mutants --------------------------------------------------------
def test_a_nonnegative_fact_does_not_prove_an_equality():
    theorem = Theorem("t", "t", (), (), (Hyp("h", Fact(x, ">=", 0)),), (Fact(x, "=", 0),),
                      Derivation(()))
    with pytest.raises(DerivationError, match="conclusion x = 0 is not derived"):
        check_theorem(theorem)
    strict = dc.replace(theorem, hyps=(Hyp("h", Fact(x, ">", 0)),))
    with pytest.raises(DerivationError, match="is not derived"):
        check_theorem(strict)


def test_a_vector_definition_of_a_lemma_must_be_available():
    u, v, a = sp.Symbol("u"), sp.Symbol("v"), sp.Symbol("a")
    lemma = check_theorem(Theorem(
        "def", "def", ("u", "v"), (), (Hyp("d", VectorDef(u, 2 * v)),),
        (Fact(dot(u, u), "=", 4 * dot(v, v)),),
        Derivation((Chain("c", dot(u, u), (Link("=", 4 * dot(v, v)),)),))))
    wrong = Theorem("use", "use", ("u", "v"), (), (Hyp("d", VectorDef(u, 3 * v)),),
                    (Fact(dot(u, u), "=", 4 * dot(v, v)),), Derivation((LemmaUse("l", lemma),)))
    with pytest.raises(DerivationError, match="hypothesis d of def is not available"):
        check_theorem(wrong)
    missing = dc.replace(wrong, hyps=())
    with pytest.raises(DerivationError, match="hypothesis d of def is not available"):
        check_theorem(missing)
    right = dc.replace(wrong, hyps=(Hyp("d", VectorDef(u, 2 * v)),))
    assert is_checked(check_theorem(right))
    assert a not in right.hyps


# --- finding 4: pinned statements ----------------------------------------------------------------
def _novikoff_variant(change):
    """The built-in Novikoff theorem, changed by ``change(theorem) -> theorem``, checked."""
    from verify.proofs import builtin_proofs

    checked = {}
    for proof in builtin_proofs():
        if proof.name == "novikoff":
            return check_theorem(change(proof.build(checked)))
        checked[proof.name] = check_theorem(proof.build(checked))
    raise AssertionError("no novikoff")


def _weaken(theorem):
    from verify.proofs.symbols import proof_symbols

    s = proof_symbols()
    bound = s.R ** 2 * dot(s.f, s.f) / s.rho ** 2
    weak = Chain("weak", s.T, (Link("<=", 2 * bound, Certificate(
        (Term(1, ("cleared",)), Term(1, (NormSq(s.f), Square(s.R)))),
        divisors=("rho>0", "rho>0"))),))
    return dc.replace(theorem, proof=Derivation(theorem.proof.lines + (weak,)),
                      conclusions=(Fact(s.T, "<=", 2 * bound),) + theorem.conclusions[1:])


def test_a_weakened_novikoff_is_proved_but_not_the_pinned_statement():
    from verify.proofs.pinned import pinned_difference

    checked = _novikoff_variant(_weaken)  # the kernel accepts it: it is true
    assert is_checked(checked)
    message = pinned_difference("novikoff", checked)
    assert message.startswith("novikoff: the proved statement is not the pinned one")
    assert "pinned 'conclusion 1: T <= Dot(w_f, w_f)*R**2/rho**2'" in message
    assert "proved 'conclusion 1: T <= 2*Dot(w_f, w_f)*R**2/rho**2'" in message


@pytest.mark.parametrize("change, shows", [
    (_weaken, "conclusion 1"),
    (lambda t: dc.replace(t, conclusions=t.conclusions[:1]), "conclusion 2"),
    (lambda t: dc.replace(t, hyps=t.hyps[1:] + t.hyps[:1]), "hypothesis"),
    (lambda t: dc.replace(t, hyps=t.hyps + (Hyp("extra", Fact(t.naturals[0], "<=", 5)),)),
     "hypothesis extra"),
])
def test_pla_proof_fails_on_a_changed_statement(monkeypatch, capsys, change, shows):
    import verify.proofs as proofs
    from verify.cli import proof as proof_command

    real = proofs.builtin_proofs()
    changed = tuple(dc.replace(p, build=lambda L, b=p.build: change(b(L)))
                    if p.name == "novikoff" else p for p in real)
    monkeypatch.setattr(proofs, "builtin_proofs", lambda: changed)
    args = type("Args", (), {"names": ["novikoff"], "json": True, "out": None, "smt": False,
                             "smt_timeout": None})()
    assert proof_command.handle(args) == 1
    data = json.loads(capsys.readouterr().out)
    row = {t["name"]: t for t in data["theorems"]}["novikoff"]
    assert row["verified"] is False
    assert row["error"].startswith("novikoff: the proved statement is not the pinned one")
    assert shows in row["error"]


def test_every_pin_matches_its_hash_and_an_edited_pin_is_caught(monkeypatch):
    from verify.proofs import pinned

    for name, text in pinned.pinned_statements().items():
        assert pinned.statement_digest(text) == pinned.pinned_digests()[name]
    data = {k: dict(v) for k, v in pinned._load().items()}
    data["novikoff"]["statement"] = data["novikoff"]["statement"].replace("R**2", "2*R**2", 1)
    monkeypatch.setattr(pinned, "_load", lambda: data)
    assert "does not match its SHA-256" in pinned.pinned_difference("novikoff", None)


def test_the_statement_text_is_exact_and_canonical():
    assert statement_text(one_step(x * Fraction(1, 3) - y, "<=", z ** 2)).splitlines()[-1] == \
        "conclusion 1: x/3 - y <= z**2"
    assert kernel.statements.expression_text(-(x + 1) ** 2 / (2 * y)) == "-(x + 1)**2/(2*y)"
    with pytest.raises(DerivationError):
        statement_text(one_step(sp.Float(1.5), "=", 1))


# --- the whole family: a lying proposer with random certificates ----------------------------------
@settings(max_examples=60, deadline=None)
@given(polynomials(), st.lists(st.tuples(st.sampled_from([1, 2, sp.Rational(1, 2)]),
                                         polynomials()), min_size=1, max_size=3))
def test_a_random_certificate_never_proves_a_false_inequality(p, squares):
    """Whatever sum of real squares a proposer offers, "0 <= p" is accepted only if p really
    is that sum, so p is >= 0 everywhere; checked at random rational points."""
    cert = Certificate(tuple(Term(c, (Square(q),)) for c, q in squares))
    try:
        check_theorem(one_step(0, "<=", p, cert))
    except DerivationError:
        return
    for point in [(0, 0), (1, -1), (-2, 3), (Fraction(1, 2), 5)]:
        assert p.subs({x: point[0], y: point[1]}) >= 0


def test_the_trusted_base_page_gives_the_true_size_of_every_kernel_file():
    """The table on docs/trusted-base.md is checked against the files, line by line."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    page = (root / "docs" / "trusted-base.md").read_text()
    rows = dict(re.findall(r"^\| `(verify/kernel/[a-z_]+\.py)` \| (\d+) \|", page, re.M))
    files = {str(p.relative_to(root)) for p in (root / "verify" / "kernel").glob("*.py")}
    assert set(rows) == files
    for path, lines in rows.items():
        actual = len((root / path).read_text().splitlines())
        assert int(lines) == actual, f"{path}: the page says {lines} lines, the file has {actual}"
        assert actual < 500


@pytest.mark.parametrize("make", [
    lambda: sp.IndexedBase("y", positive=True)[x],            # an assumption on the base
    lambda: sp.IndexedBase("y")[sp.Float(0.5)],                 # a float in an index
    lambda: sp.IndexedBase("y")[sp.I],                          # I in an index
    lambda: sp.IndexedBase(sp.Symbol("y", integer=True))[x],    # an assumption on the label
])
def test_an_indexed_scalar_is_walked_too(make):
    e = make()
    with pytest.raises(DerivationError, match="not allowed|assumption|plain name"):
        check_theorem(one_step(e, "=", e))
