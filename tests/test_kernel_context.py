"""The facts a derivation starts from (verify/kernel/derivations.py, ``_Context``): a natural
number is >= 0, not > 0.  Each test here killed a surviving mutant of ``make mutation``."""

from __future__ import annotations

import pytest
import sympy as sp

from verify import kernel
from verify.kernel import (
    Certificate, Chain, Derivation, DerivationError, Fact, Link, Term, Theorem,
)

n = sp.Symbol("n", real=True)


def _from_natural(rel):
    proof = Chain("c", n, (Link(rel, 0, Certificate((Term(1, ("n>=0",)),))),))
    return Theorem("t", "t", (), (n,), (), (Fact(n, rel, 0),), Derivation((proof,)))


def test_a_natural_number_is_nonnegative_but_not_positive():
    assert kernel.is_checked(kernel.check_theorem(_from_natural(">=")))
    with pytest.raises(DerivationError, match="strict step needs a positive term"):
        kernel.check_theorem(_from_natural(">"))


def test_a_rewriting_rule_rewrites_an_atom_only():
    x = sp.Symbol("x", real=True)
    for target in (x + 1, 2 * x, x ** 2):
        theorem = Theorem("t", "t", (), (), (kernel.Hyp("r", kernel.Rewrite(target, 2, 1)),),
                          (Fact(1, ">=", 0),), Derivation(()))
        with pytest.raises(DerivationError, match="rule r: the target .* must be a symbol"):
            kernel.check_theorem(theorem)


def test_a_vector_inside_dot_is_not_a_scalar_coefficient():
    """Dot(w^2 u, v): the walk allows vectors anywhere inside Dot, but bilinearity must refuse
    the coefficient w^2 of u -- a product of vectors is not a number."""
    u, v, w = sp.symbols("u v w", real=True)
    dot = kernel.dot

    def symmetric(a, b):
        start, end = dot(a, b), dot(b, a)
        return Theorem("t", "t", ("u", "v", "w"), (), (), (Fact(start, "=", end),),
                       Derivation((Chain("c", start, (Link("=", end),)),)))

    assert kernel.is_checked(kernel.check_theorem(symmetric(2 * u, v)))
    for coefficient in (w * w, (w + 1) ** 2 - 1, sp.Rational(1, 2) * w ** 2):
        with pytest.raises(DerivationError, match="vector w used as a scalar"):
            kernel.check_theorem(symmetric(coefficient * u, v))


def test_a_rewriting_rule_that_is_used_is_declared_and_one_that_is_not_is_not():
    y = sp.Symbol("y", real=True)
    rules = (kernel.Hyp("ysq", kernel.Rewrite(y, 2, 1)), kernel.Hyp("zsq", kernel.Rewrite(n, 2, 4)))
    theorem = Theorem("t", "t", (), (), rules, (Fact(y ** 3, "=", y),),
                      Derivation((Chain("c", y ** 3, (Link("=", y),)),)))
    checked = kernel.check_theorem(theorem)
    assert checked.declared == ("ysq",) and "rewrite" in checked.rules


@pytest.mark.parametrize("lhs, rel, holds", [
    (1, ">", True), (0, ">", False), (0, ">=", True), (-1, ">=", False), (0, "=", True),
    (sp.Rational(1, 3), "=", False), (sp.Rational(-1, 3), "<", True), (0, "<", False),
])
def test_a_numeral_conclusion_is_decided_by_its_exact_sign(lhs, rel, holds):
    theorem = Theorem("t", "t", (), (), (), (Fact(lhs, rel, 0),), Derivation(()))
    if holds:
        assert kernel.is_checked(kernel.check_theorem(theorem))
    else:
        with pytest.raises(DerivationError, match="is not derived"):
            kernel.check_theorem(theorem)


x = sp.Symbol("x", real=True)
y = sp.Symbol("y", real=True)


@pytest.mark.parametrize("hyp, goal", [
    (Fact(x, "<=", 0), Fact(x, ">=", 0)),      # x <= 0 is not x >= 0
    (Fact(y, "=", 0), Fact(x, ">=", 0)),       # an unrelated equation
    (Fact(x, "<=", 0), Fact(x, "=", 0)),
])
def test_a_conclusion_needs_a_fact_that_says_it(hyp, goal):
    theorem = Theorem("t", "t", (), (), (kernel.Hyp("h", hyp),), (goal,), Derivation(()))
    with pytest.raises(DerivationError, match="is not derived"):
        kernel.check_theorem(theorem)


def test_an_equation_gives_both_signs():
    for goal in (Fact(x, ">=", 0), Fact(x, "<=", 0), Fact(-x, ">=", 0)):
        theorem = Theorem("t", "t", (), (), (kernel.Hyp("h", Fact(x, "=", 0)),), (goal,),
                          Derivation(()))
        assert kernel.is_checked(kernel.check_theorem(theorem))


class _SneakyInteger(sp.Integer):
    pass


@pytest.mark.parametrize("coeff", [True, _SneakyInteger(10 ** 30), 0.5, "1"])
def test_a_certificate_coefficient_is_an_exact_sympy_or_python_rational(coeff):
    h = kernel.Hyp("h", Fact(x, ">=", 0))
    link = Link(">=", 0, Certificate((Term(coeff, ("h",)),)))
    theorem = Theorem("t", "t", (), (), (h,), (Fact(x, ">=", 0),),
                      Derivation((Chain("c", x, (link,)),)))
    with pytest.raises(DerivationError, match="is not a rational number"):
        kernel.check_theorem(theorem)


def _one_link(hyps, link, goal, vectors=()):
    return Theorem("t", "t", vectors, (), hyps, (goal,), Derivation((Chain("c", goal.lhs, (link,)),)))


def test_a_checked_theorem_lists_the_rules_its_certificates_used():
    hyps = (kernel.Hyp("h", Fact(x, ">=", 0)), kernel.Hyp("e", Fact(y, "=", 0)))
    # x + y^2 - y^2 >= 0 from h (x >= 0), a square (y^2) and -y times the equation e (y = 0)
    certificate = Certificate((Term(1, ("h",)), Term(1, (kernel.Square(y),))),
                              (kernel.EqTerm(-y, "e"),))
    link = Link(">=", 0, certificate)
    checked = kernel.check_theorem(_one_link(hyps, link, Fact(x + y ** 2 - y ** 2, ">=", 0)))
    assert {"nonneg-combination", "squares", "equality-combination"} <= set(checked.rules)


@pytest.mark.parametrize("certificate", [
    Certificate((Term(1, (kernel.Square(1 / y),)),)),
    Certificate((), (kernel.EqTerm(1 / y, "e"),)),
], ids=["square", "multiplier"])
def test_a_certificate_is_made_of_polynomials(certificate):
    hyps = (kernel.Hyp("e", Fact(y, "=", 0)),)
    with pytest.raises(DerivationError, match="must be a polynomial"):
        kernel.check_theorem(_one_link(hyps, Link(">=", 0, certificate), Fact(x ** 2, ">=", 0)))


_ONE = Certificate((Term(1, ()),))       # b - a = 1 > 0: a strict step


@pytest.mark.parametrize("first, second", [("<", ">="), ("<=", ">"), ("<", ">"), ("<=", ">=")])
def test_a_chain_cannot_mix_the_two_directions(first, second):
    links = (Link(first, x + 1, _ONE if first == "<" else Certificate((Term(1, ()),))),
             Link(second, x, _ONE))
    theorem = Theorem("t", "t", (), (), (), (Fact(x, first, x),),
                      Derivation((Chain("c", x, links),)))
    with pytest.raises(DerivationError, match="chain mixes <= and >="):
        kernel.check_theorem(theorem)


@pytest.mark.parametrize("rel, end", [("<", x + 1), (">", x - 1)])
def test_a_chain_of_strict_steps_concludes_strictly(rel, end):
    theorem = Theorem("t", "t", (), (), (), (Fact(x, rel, end),),
                      Derivation((Chain("c", x, (Link(rel, end, _ONE),)),)))
    assert kernel.is_checked(kernel.check_theorem(theorem))


def _lemma():
    """A checked lemma: for a vector u and a scalar a, a^2 <= a^2 + Dot(u, u)."""
    u, a = sp.Symbol("u"), sp.Symbol("a", real=True)
    certificate = Certificate((Term(1, (kernel.NormSq(u),)),))
    goal = Fact(a ** 2, "<=", a ** 2 + kernel.dot(u, u))
    proof = Chain("c", a ** 2, (Link("<=", a ** 2 + kernel.dot(u, u), certificate),))
    return kernel.check_theorem(Theorem("lemma", "lemma", ("u",), (), (), (goal,),
                                        Derivation((proof,)))), u, a


def _using(substitution, conclusion=0, vectors=("w",)):
    lemma, _, _ = _lemma()
    use = kernel.LemmaUse("l", lemma, substitution, conclusion)
    return Theorem("t", "t", vectors, (), (), (Fact(1, ">=", 0),), Derivation((use,)))


def test_a_lemma_substitution_keeps_vectors_vectors_and_scalars_scalar_polynomials():
    lemma, u, a = _lemma()
    w = sp.Symbol("w", real=True)
    assert kernel.is_checked(kernel.check_theorem(_using(((u, 2 * w), (a, x + 1)))))
    with pytest.raises(DerivationError, match="not a scalar multiple of one vector atom"):
        kernel.check_theorem(_using(((u, x), (a, x))))              # a scalar for a vector
    with pytest.raises(DerivationError, match="vector w used as a scalar"):
        kernel.check_theorem(_using(((u, w), (a, w))))              # a vector for a scalar
    with pytest.raises(DerivationError, match="substituted value must be a polynomial"):
        kernel.check_theorem(_using(((u, w), (a, 1 / x))))


def test_a_lemma_use_names_one_of_its_conclusions():
    _, u, a = _lemma()
    w = sp.Symbol("w", real=True)
    for conclusion in (-1, 1):
        with pytest.raises(DerivationError, match=f"has no conclusion {conclusion}"):
            kernel.check_theorem(_using(((u, w), (a, x)), conclusion))


z = sp.Symbol("z", real=True)
_POSITIVE = (kernel.Hyp("hy", Fact(y, ">", 0)), kernel.Hyp("hz", Fact(z, ">", 0)))
_BOTH = Certificate((Term(1, ("hy",)), Term(1, ("hz",))))


@pytest.mark.parametrize("rel, end, wrong", [("<", x + y + z, ">="), (">", x - y - z, "<=")])
def test_a_strict_chain_gives_its_strict_fact_and_not_the_opposite_one(rel, end, wrong):
    """x < x + y + z from y > 0 and z > 0: only the chain's own fact gives the conclusion."""
    chain = Derivation((Chain("c", x, (Link(rel, end, _BOTH),)),))
    good = Theorem("t", "t", (), (), _POSITIVE, (Fact(x, rel, end),), chain)
    assert kernel.is_checked(kernel.check_theorem(good))
    bad = Theorem("t", "t", (), (), _POSITIVE, (Fact(x, wrong, end),), chain)
    with pytest.raises(DerivationError, match="is not derived"):
        kernel.check_theorem(bad)


def test_a_positive_fact_gives_a_nonnegative_conclusion():
    theorem = Theorem("t", "t", (), (), _POSITIVE[:1], (Fact(y, ">=", 0),), Derivation(()))
    assert kernel.is_checked(kernel.check_theorem(theorem))


def test_a_line_with_a_denominator_is_not_a_certificate_factor():
    hyps = (kernel.Hyp("h", Fact(x, ">=", 0)), _POSITIVE[0])
    by_h = Certificate((Term(1, ("h",)),), (), ("hy",))
    by_c = Certificate((Term(1, ("c",)),), (), ("hy",))
    lines = (Chain("c", x / y, (Link(">=", 0, by_h),)), Chain("d", x / y, (Link(">=", 0, by_c),)))
    theorem = Theorem("t", "t", (), (), hyps, (Fact(x / y, ">=", 0),), Derivation(lines[:1]))
    assert kernel.is_checked(kernel.check_theorem(theorem))
    with pytest.raises(DerivationError, match="certificate factor c must be a polynomial"):
        kernel.check_theorem(Theorem("t", "t", (), (), hyps, (Fact(x / y, ">=", 0),),
                                     Derivation(lines)))


def test_a_lemmas_per_step_hypotheses_need_a_family_with_the_same_range():
    """A lemma assuming y[i] >= 0 for every i < T is used under y[j] >= 0 for j < S: only
    S = T covers it (j < S for another S says nothing about the steps the lemma needs)."""
    T, S, i, j = sp.symbols("T S i j", real=True)
    Y = sp.IndexedBase("y")
    lemma = kernel.check_theorem(Theorem(
        "lemma", "lemma", (), (T,), (), (Fact(1, ">=", 0),), Derivation(()),
        kernel.Family(i, T, (kernel.Hyp("p", Fact(Y[i], ">=", 0)),))))

    def using(upper):
        return Theorem("t", "t", (), (T, S), (), (Fact(1, ">=", 0),),
                       Derivation((kernel.LemmaUse("l", lemma, ((T, T),), 0),)),
                       kernel.Family(j, upper, (kernel.Hyp("q", Fact(Y[j], ">=", 0)),)))

    assert kernel.is_checked(kernel.check_theorem(using(T)))
    for upper in (S, T + 1):
        with pytest.raises(DerivationError, match="not available for every step"):
            kernel.check_theorem(using(upper))
