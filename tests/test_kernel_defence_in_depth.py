"""The kernel's second line of defence, tested on its own.

``check_theorem`` first takes a snapshot of the theorem (``verify/kernel/inputs.py``) that
refuses every input of the wrong shape; the derivation checker and the statement printer then
check the same things again.  The snapshot makes the second checks unreachable through
``check_theorem``, so these tests hand the inner functions, directly, what a snapshot would
have refused, and require that each refuses it by itself: a kernel whose first gate is later
weakened by mistake must still not accept a false statement.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest
import sympy as sp

from verify.kernel import (Certificate, Chain, DerivationError, Fact, Hyp, KernelError, Link,
                           NormSq, Rewrite, Square, Term, Theorem, VectorDef, dot)
from verify.kernel import derivations
from verify.kernel.derivations import _check_derivation, _check_link, _Context, _hyp_available
from verify.kernel.statements import statement_text
from verify.kernel.terms import Derivation, Induction, LemmaUse

x, y = sp.symbols("x y", real=True)
v, u = sp.symbols("v u")


def context(*hyps: Hyp, vectors: tuple[str, ...] = ("v", "u")) -> _Context:
    """A derivation context of a theorem with the vectors ``v`` and ``u``."""
    theorem = Theorem("t", "t", vectors, (), hyps, (), Derivation(()))
    return _Context(theorem, (), hyps, ())


# --- hypotheses -------------------------------------------------------------------------------
@pytest.mark.parametrize("fact", [Fact(v, ">=", 0), Fact(0, "<=", v), Fact(x + v, "=", x + v)],
                         ids=["vector-lhs", "vector-rhs", "vector-both-sides"])
def test_a_fact_hypothesis_with_a_bare_vector_is_refused(fact):
    with pytest.raises(DerivationError, match="vector v used as a scalar"):
        context(Hyp("h", fact))


@pytest.mark.parametrize("power", [Fraction(3, 2), 1.5, 0, -1])
def test_a_rewriting_rule_needs_a_positive_int_power(power):
    with pytest.raises(DerivationError, match="power must be a positive int"):
        context(Hyp("r", Rewrite(x, power, 1)))


def test_a_rewriting_rule_of_an_expression_is_refused():
    with pytest.raises(DerivationError, match="must be a symbol"):
        context(Hyp("r", Rewrite(x + 1, 2, 1)))


@pytest.mark.parametrize("content", [Square(x), "x >= 0", None, (x, ">=", 0)])
def test_a_hypothesis_of_unknown_kind_is_refused_by_name(content):
    with pytest.raises(DerivationError, match="hypothesis h: unknown kind"):
        context(Hyp("h", content))


def test_a_vector_definition_of_a_scalar_is_refused():
    with pytest.raises(DerivationError, match="is not a vector atom"):
        context(Hyp("d", VectorDef(x, v)))


# --- normal forms -----------------------------------------------------------------------------
def test_the_normal_form_refuses_a_bare_vector():
    with pytest.raises(DerivationError, match="vector v used as a scalar"):
        context().normal(x * v - x * v + v)


def test_a_rule_never_rewrites_a_fractional_power():
    ctx = context()
    rule = Rewrite(x, 2, 1)
    e = x ** sp.Rational(5, 2)
    assert ctx.reduce(e, "r", rule) == e
    assert ctx.reduce(x ** 3, "r", rule) == x


def test_a_rule_leaves_a_term_alone_when_its_target_hides_in_the_coefficient():
    # as_coeff_exponent(x) of x**2*exp(x) keeps exp(x) (which has x) in the coefficient
    ctx = context()
    term = x ** 2 * sp.exp(x)
    assert ctx.reduce(term, "r", Rewrite(x, 2, 1)) == term


# --- links ------------------------------------------------------------------------------------
@pytest.mark.parametrize("rel", ["=", "<=", ">="])
def test_a_link_between_bare_vectors_is_refused_even_when_they_cancel(rel):
    ctx = context()
    with pytest.raises(DerivationError, match="used as a scalar"):
        _check_link(ctx, v + x, Link(rel, v + x))
    assert ctx.steps == 0


@pytest.mark.parametrize("rel", ["<=", ">="])
def test_a_bare_vector_is_named_before_the_certificate_is_read(rel):
    # the scalar check comes first: the error names the vector, not the unknown fact
    ctx = context()
    cert = Certificate((Term(1, ("missing",)),))
    with pytest.raises(DerivationError, match="vector v used as a scalar"):
        _check_link(ctx, x, Link(rel, x + v, cert))
    with pytest.raises(DerivationError, match="vector v used as a scalar"):
        _check_link(ctx, x + v, Link(rel, x, cert))


@pytest.mark.parametrize("factor", [x ** 2, 3, Fraction(1, 2), ("h",), Fact(x, ">=", 0)],
                         ids=["expression", "int", "fraction", "tuple", "fact"])
def test_a_certificate_factor_of_unknown_kind_is_refused(factor):
    ctx = context(Hyp("h", Fact(x, ">=", 0)))
    # x**2 <= x**2 + x**2 would hold with the factor read as x**2: it must be refused instead
    link = Link("<=", 2 * x ** 2, Certificate((Term(1, (factor,)),)))
    with pytest.raises(DerivationError, match="unknown certificate factor"):
        _check_link(ctx, x ** 2, link)
    assert ctx.steps == 0


def test_a_norm_factor_is_checked_as_a_norm():
    ctx = context()
    _check_link(ctx, 0, Link("<=", dot(v, v), Certificate((Term(1, (NormSq(v),)),))))
    assert ctx.steps == 1 and "norm-nonneg" in ctx.rules


# --- lemma use, substitution and derivation lines ---------------------------------------------
def test_substituting_into_a_plain_expression():
    assert derivations._substitute(x + y, {x: 2}) == y + 2
    defined = derivations._substitute(VectorDef(v, u + x * v), {x: 3})
    assert defined == VectorDef(v, u + 3 * v)


@pytest.mark.parametrize("content", [Square(x), x >= 0, "x >= 0"])
def test_a_hypothesis_of_unknown_kind_is_never_available(content):
    ctx = context(Hyp("h", Fact(x, ">=", 0)), Hyp("d", VectorDef(v, u)))
    assert _hyp_available(ctx, content) is False


def test_a_vector_definition_is_available_only_as_declared():
    ctx = context(Hyp("d", VectorDef(v, u + x * u)))
    assert _hyp_available(ctx, VectorDef(v, x * u + u)) is True
    assert _hyp_available(ctx, VectorDef(v, u)) is False
    assert _hyp_available(ctx, VectorDef(u, v)) is False


def test_a_lemma_substitution_of_a_non_symbol_is_refused():
    lemma = _checked_lemma()
    use = LemmaUse("l", lemma, ((x + 1, y),))
    with pytest.raises(DerivationError, match="can only substitute symbols"):
        derivations._use_lemma(context(), use)


def _checked_lemma():
    from verify.kernel import check_theorem

    return check_theorem(Theorem("sq", "sq", (), (), (), (Fact(x ** 2, ">=", 0),),
                                 Derivation((Chain("c", x ** 2, (Link(
                                     ">=", 0, Certificate((Term(1, (Square(x),)),))),)),))))


@pytest.mark.parametrize("content", [Fact(x, ">=", 0), Link("<=", x), "x >= 0"],
                         ids=["fact", "link", "text"])
def test_a_derivation_line_of_unknown_kind_is_refused(content):
    # a named line that is neither a Chain nor a LemmaUse: nothing may be read from it
    ctx = context()
    with pytest.raises(DerivationError, match="unknown line"):
        _check_derivation(ctx, _Raw((_NamedLine("c", content),)), ())
    assert "c" not in ctx.facts


@pytest.mark.parametrize("goal", [Fact(v, "=", v), Fact(v, "=", x), Fact(x, "<=", v)],
                         ids=["both-sides", "lhs", "rhs"])
def test_a_derivation_goal_with_a_bare_vector_is_refused(goal):
    # v = v would otherwise be "derived" (its normal form is the numeral 0)
    with pytest.raises(DerivationError, match="vector v used as a scalar"):
        _check_derivation(context(), Derivation(()), (goal,))


@dataclass(frozen=True)
class _NamedLine:
    """A line with a name whose kind the checker does not know."""

    name: str
    content: object


class _Raw:
    """A derivation-like object whose lines the snapshot would have refused."""

    def __init__(self, lines: tuple) -> None:
        self.lines = lines


def test_a_proof_of_unknown_kind_is_refused_after_the_snapshot(monkeypatch):
    # the snapshot is bypassed (identity) so that the checker's own test is what refuses
    monkeypatch.setattr(derivations, "snapshot", lambda theorem: theorem)
    thm = Theorem("odd", "odd", (), (), (), (Fact(x, "=", x),), _Raw(()))
    with pytest.raises(DerivationError, match="odd: unknown proof kind"):
        derivations.check_theorem(thm)


def test_an_induction_is_checked_as_an_induction_after_the_snapshot(monkeypatch):
    monkeypatch.setattr(derivations, "snapshot", lambda theorem: theorem)
    T, t = sp.symbols("T t", integer=True, nonnegative=True)
    # a conclusion about T proved by an "induction" whose variable is not a natural
    thm = Theorem("ind", "ind", (), (), (), (Fact(T, ">=", 0),),
                  Induction(T, t, Derivation(()), Derivation(())))
    with pytest.raises(DerivationError, match="induction variable T is not a natural"):
        derivations.check_theorem(thm)


# --- the statement printer --------------------------------------------------------------------
def _statement(*, hyps=(), conclusions=(Fact(x, ">=", 0),)):
    return Theorem("p", "p", (), (), hyps, conclusions, Derivation(()))


@pytest.mark.parametrize("bad", [True, False, 1.5, "x", None, [x]],
                         ids=["true", "false", "float", "string", "none", "list"])
def test_the_statement_printer_refuses_what_is_not_an_expression(bad):
    with pytest.raises(KernelError, match="is not an expression"):
        statement_text(_statement(conclusions=(Fact(bad, ">=", 0),)))


@pytest.mark.parametrize("good, text", [(3, "3"), (Fraction(-1, 2), "-1/2"), (x, "x")])
def test_the_statement_printer_prints_numbers_and_symbols(good, text):
    assert statement_text(_statement(conclusions=(Fact(good, ">=", 0),))).endswith(
        f"conclusion 1: {text} >= 0")


@pytest.mark.parametrize("content", [Square(x), "x >= 0", None])
def test_the_statement_printer_refuses_a_hypothesis_of_unknown_kind(content):
    with pytest.raises(KernelError, match="hypothesis h: unknown kind"):
        statement_text(_statement(hyps=(Hyp("h", content),)))


def test_the_statement_printer_prints_every_kind_of_hypothesis():
    text = statement_text(_statement(hyps=(
        Hyp("f", Fact(x, "<", 1)), Hyp("r", Rewrite(y, 2, 1)), Hyp("d", VectorDef(v, u)))))
    assert text.splitlines()[1:4] == [
        "hypothesis f: x < 1", "hypothesis r: y**2 = 1 (rewriting rule)",
        "hypothesis d: v := u (vector definition)"]
