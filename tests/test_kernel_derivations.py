"""The derivation section of the trusted kernel: what it accepts and what it rejects."""

from __future__ import annotations

import dataclasses as dc
import subprocess
import sys
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from verify import kernel
from verify.kernel import (Certificate, Chain, CheckedTheorem, Derivation, DerivationError, Fact,
                           Family, Hyp, Induction, KernelError, LemmaUse, Link, NormSq, Rewrite,
                           Square, Term, Theorem, VectorDef, check_theorem, dot)

a, b, x, y = sp.symbols("a b x y", real=True)


def one_step(start, rel, end, cert=Certificate(), hyps=(), vectors=(), conclusion=None):
    return Theorem("t", "t", vectors, (), tuple(hyps),
                   (conclusion or Fact(start, rel, end),),
                   Derivation((Chain("c", start, (Link(rel, end, cert),)),)))


def test_import_does_not_load_sympy():
    code = "import sys, verify.kernel; print('sympy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_inequality_with_product_certificate():
    hyps = (Hyp("ha", Fact(a, ">=", 0)), Hyp("hb", Fact(b, ">=", 0)))
    thm = one_step((a + b) ** 2, ">=", a ** 2 + b ** 2, Certificate((Term(2, ("ha", "hb")),)), hyps)
    assert check_theorem(thm).steps == 1


@pytest.mark.parametrize("cert, message", [
    (Certificate((Term(1, ("ha", "hb")),)), "does not match"),
    (Certificate((Term(-2, ("ha", "hb")),)), "negative"),
    (Certificate((Term(2, ("ha", "nope")),)), "no hypothesis"),
    (Certificate((Term(sp.Float(2.0), ("ha", "hb")),)), "not a rational"),
])
def test_wrong_certificates_are_rejected(cert, message):
    hyps = (Hyp("ha", Fact(a, ">=", 0)), Hyp("hb", Fact(b, ">=", 0)))
    with pytest.raises(DerivationError, match=message):
        check_theorem(one_step((a + b) ** 2, ">=", a ** 2 + b ** 2, cert, hyps))


def test_strict_step_needs_a_strict_term():
    hyps = (Hyp("ha", Fact(a, ">=", 0)), Hyp("hp", Fact(a, ">", 0)))
    with pytest.raises(DerivationError, match="strict"):
        check_theorem(one_step(a + 1, ">", 1, Certificate((Term(1, ("ha",)),)), hyps))
    assert check_theorem(one_step(a + 1, ">", 1, Certificate((Term(1, ("hp",)),)), hyps))


def test_squares_and_rewrites():
    thm = one_step(x ** 2 + y ** 2, ">=", 2 * x * y, Certificate((Term(1, (Square(x - y),)),)))
    assert check_theorem(thm).rules.count("squares") == 1
    hyps = (Hyp("label", Rewrite(y, 2, 1)),)
    assert check_theorem(one_step(y ** 4 * x, "=", x, hyps=hyps))
    with pytest.raises(DerivationError):
        check_theorem(one_step(y ** 4 * x, "=", x))


def test_division_needs_a_positive_divisor_covering_the_denominator():
    hyps = (Hyp("x>0", Fact(x, ">", 0)), Hyp("h", Fact(x * a, ">=", 1)))
    good = one_step(a, ">=", 1 / x, Certificate((Term(1, ("h",)),), divisors=("x>0",)), hyps)
    assert check_theorem(good)
    bad = dc.replace(good, proof=Derivation((Chain("c", a, (Link(">=", 1 / x, Certificate(
        (Term(1, ("h",)),))),)),)))
    with pytest.raises(DerivationError, match="denominator"):
        check_theorem(bad)


def test_equality_facts_combine_with_polynomial_multipliers():
    hyps = (Hyp("e", Fact(x, "=", 2)),)
    thm = one_step(x ** 2, "=", 4, Certificate(eq_terms=(kernel.EqTerm(-(x + 2), "e"),)), hyps)
    assert check_theorem(thm)


def test_vectors_only_inside_dot():
    u, v = sp.Symbol("u"), sp.Symbol("v")
    with pytest.raises(DerivationError, match="vector"):
        check_theorem(one_step(u + 1, "=", 1 + u, vectors=("u",)))
    assert check_theorem(one_step(dot(u, v), "=", dot(v, u), vectors=("u", "v")))


def test_cauchy_schwarz_needs_the_norm_axiom():
    u, v = sp.Symbol("u"), sp.Symbol("v")
    hyps = (Hyp("v!=0", Fact(dot(v, v), ">", 0)),)
    uv, uu, vv = dot(u, v), dot(u, u), dot(v, v)
    good = Certificate((Term(1, (NormSq(vv * u - uv * v),)),), divisors=("v!=0",))
    assert check_theorem(one_step(uv ** 2, "<=", uu * vv, good, hyps, ("u", "v")))
    without = Certificate((Term(1, (Square(vv),)),), divisors=("v!=0",))
    with pytest.raises(DerivationError):
        check_theorem(one_step(uv ** 2, "<=", uu * vv, without, hyps, ("u", "v")))


def test_checked_theorems_cannot_be_forged():
    with pytest.raises(KernelError):
        CheckedTheorem(one_step(a, "=", a), (), (), (), 1)


def test_lemma_hypotheses_must_be_available():
    hyps = (Hyp("ha", Fact(a, ">=", 0)),)
    lemma = check_theorem(one_step(a + 1, ">", 0, Certificate((Term(1, ("ha",)), Term(1))), hyps))
    use = Theorem("u", "u", (), (), (Hyp("hb", Fact(b, ">=", 0)),), (Fact(b + 1, ">", 0),),
                  Derivation((LemmaUse("l", lemma, ((a, b),)),)))
    assert check_theorem(use).lemmas == ("t",)
    wrong = dc.replace(use, hyps=())
    with pytest.raises(DerivationError, match="not available"):
        check_theorem(wrong)


def test_induction_checks_base_and_step_and_rejects_a_wrong_base():
    T, t = sp.Symbol("T", real=True), sp.Symbol("t", real=True)
    c = sp.IndexedBase("c")
    fam = Family(t, T, (Hyp("grow", Fact(c[t + 1], ">=", c[t] + 1)),))
    base = Derivation((Chain("b", c[0], (Link("=", c[0]),)),))
    step = Derivation((Chain("s", c[t + 1], (
        Link(">=", c[t] + 1, Certificate((Term(1, ("grow",)),))),
        Link(">=", c[0] + t + 1, Certificate((Term(1, ("IH",)),))),)),))
    thm = Theorem("ind", "ind", (), (T,), (), (Fact(c[T], ">=", c[0] + T),),
                  Induction(T, t, base, step), family=fam)
    assert "induction" in check_theorem(thm).rules
    wrong = dc.replace(thm, conclusions=(Fact(c[T], ">=", c[0] + T + 1),))
    with pytest.raises(DerivationError):
        check_theorem(wrong)


def _gram(vectors, a_, b_):
    return sum(p * q for p, q in zip(vectors[a_], vectors[b_]))


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 6), st.data())
def test_bilinear_normal_form_agrees_with_coordinates_in_any_dimension(dimension, data):
    """The kernel's expansion of <w + c y x, w + c y x> equals the coordinate computation."""
    fractions = st.fractions(min_value=-5, max_value=5, max_denominator=5)
    vec = st.lists(fractions, min_size=dimension, max_size=dimension)
    w_, x_ = data.draw(vec), data.draw(vec)
    yv, cv = data.draw(st.sampled_from([1, -1])), data.draw(fractions)
    w, xs, w1, c, yy = sp.Symbol("w"), sp.Symbol("x"), sp.Symbol("w1"), sp.Symbol("c"), sp.Symbol("y")
    hyps = (Hyp("upd", VectorDef(w1, w + c * yy * xs)),)
    expanded = dot(w, w) + 2 * c * yy * dot(w, xs) + c ** 2 * yy ** 2 * dot(xs, xs)
    assert check_theorem(one_step(dot(w1, w1), "=", expanded, hyps=hyps, vectors=("w", "x", "w1")))
    coords = {"w": w_, "x": x_}
    direct = [wi + cv * yv * xi for wi, xi in zip(w_, x_)]
    value = (_gram(coords, "w", "w") + 2 * cv * yv * _gram(coords, "w", "x")
             + cv ** 2 * yv ** 2 * _gram(coords, "x", "x"))
    assert sum(d * d for d in direct) == value


@pytest.mark.parametrize("target", ["x + 1", "2*x", "x**2"])
def test_a_rewriting_rule_of_an_expression_is_refused(target):
    """A rule target**k = rhs must rewrite a symbol, an indexed symbol or a Dot atom: x + 1 is
    none of these (written for a mutant of ``make mutation`` that accepted any target)."""
    import sympy as sp

    from verify.kernel import Derivation, DerivationError, Fact, Hyp, Rewrite, Theorem, \
        check_theorem

    x = sp.Symbol("x", real=True)
    rule = Hyp("r", Rewrite(sp.sympify(target, locals={"x": x}), 2, 1))
    with pytest.raises(DerivationError, match="must be a symbol, an indexed symbol or a Dot"):
        check_theorem(Theorem("t", "t", (), (), (rule,), (Fact(x, "=", x),), Derivation(())))


def test_a_lemma_about_a_scalar_cannot_be_used_with_a_vector_for_it():
    """A substitution may map a lemma's symbol to a vector expression (vector lemmas need it);
    a scalar lemma a**2 >= 0 with a := v would say v**2 >= 0, a vector used as a scalar."""
    import sympy as sp

    from verify.kernel import (Certificate, Chain, Derivation, DerivationError, Fact, LemmaUse,
                               Link, Square, Term, Theorem, check_theorem, dot)

    a, v = sp.Symbol("a", real=True), sp.Symbol("v", real=True)
    square = Certificate((Term(1, (Square(a),)),))
    lemma = check_theorem(Theorem("sq", "sq", (), (), (), (Fact(a ** 2, ">=", 0),),
                                  Derivation((Chain("c", a ** 2, (Link(">=", 0, square),)),))))
    use = Theorem("t", "t", ("v",), (), (), (Fact(dot(v, v), ">=", 0),),
                  Derivation((LemmaUse("u", lemma, ((a, v),)),)))
    with pytest.raises(DerivationError, match="vector v used as a scalar"):
        check_theorem(use)
