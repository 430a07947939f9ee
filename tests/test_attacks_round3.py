"""Review round 3: a lying user and a lying proposer against the merged claims path.

Each test is one attack that got (or tried to get) a false claim reported proved, or a proved
statement that differs from the written one.  The kernel's check compares texts printed by its
canonical printer (``content_text``), so any two *different* expressions with the *same* text
are a hole: a proposer can prove one and have it counted as the other.
"""

from __future__ import annotations

import pytest
import sympy as sp

from verify import kernel
from verify.claims.elaborate import elaborate
from verify.claims.parser import parse_claim
from verify.kernel import (Certificate, Chain, ClaimProof, Derivation, DerivationError, Fact,
                           Hyp, Link, Term, Theorem)

a, b, c, x = sp.symbols("a b c x", real=True)


def _statement(text: str):
    return elaborate(parse_claim(text))[0]


def _one_chain(hyps, start, rel, end, certificate, conclusion=None):
    """A claim theorem with one chain ``start rel end`` concluding ``conclusion``."""
    conclusion = conclusion or Fact(start, rel, end)
    return Theorem("claim", "claim", (), (), tuple(hyps), (conclusion,),
                   Derivation((Chain("c", start, (Link(rel, end, certificate),)),)))


# --- the canonical printer must be injective on what the kernel accepts -------------------------
def test_a_symbol_named_like_a_sum_does_not_prove_a_false_product_claim():
    """False: a = -1, b = 1, c = 0 gives a + b >= 0, c >= 0 and a + b*c = -1.  A proposer's
    symbol named "a + b" prints its product with c as "a + b*c", the goal's text."""
    statement = _statement("assume: a + b >= 0, c >= 0\na + b*c >= 0")
    q = sp.Symbol("a + b", real=True)
    theorem = _one_chain((Hyp("h1", Fact(q, ">=", 0)), Hyp("h2", Fact(c, ">=", 0))),
                         sp.Integer(0), "<=", q * c, Certificate((Term(1, ("h1", "h2")),)),
                         Fact(q * c, ">=", 0))
    with pytest.raises(DerivationError):
        kernel.check_claim(statement, ClaimProof((), theorem))


@pytest.mark.parametrize("name", ["a + b", "2", "x**2", "-1", "a*b", "S[t]", "Dot(u, v)", "",
                                  "x y", "\u03c1"])
def test_the_kernel_refuses_a_symbol_whose_name_is_not_an_identifier(name):
    s = sp.Symbol(name, real=True)
    with pytest.raises(DerivationError):
        kernel.check_theorem(_one_chain((), s ** 2, ">=", sp.Integer(0),
                                        Certificate((Term(1, (kernel.Square(s),)),))))


def test_an_unevaluated_power_of_a_negative_integer_does_not_prove_minus_two_squared_positive():
    """False: -2**2 is -(2**2) = -4.  The proposer's (-2)**2, built unevaluated, printed as
    "-2**2" too."""
    statement = _statement("-2**2 >= 1")
    lhs = sp.Pow(sp.Integer(-2), sp.Integer(2), evaluate=False)
    theorem = _one_chain((), sp.Integer(1), "<=", lhs, Certificate((Term(3, ()),)),
                         Fact(lhs, ">=", 1))
    with pytest.raises(DerivationError):
        kernel.check_claim(statement, ClaimProof((), theorem))


def test_the_printer_tells_a_negative_base_from_a_negated_power():
    from verify.kernel.statements import expression_text

    negative_base = sp.Pow(sp.Integer(-2), sp.Integer(2), evaluate=False)
    negated = sp.Mul(-1, sp.Pow(sp.Integer(2), sp.Integer(2), evaluate=False), evaluate=False)
    assert expression_text(negative_base) != expression_text(negated)
