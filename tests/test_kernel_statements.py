"""The canonical text of a statement (verify/kernel/statements.py) is a contract: pinned
statements and lemma uses compare it, so its exact form is fixed here, case by case.  Each case
killed a surviving mutant of ``make mutation``."""

from __future__ import annotations

import pytest
import sympy as sp

from verify.kernel.statements import expression_text
from verify.kernel.terms import dot

x, y, z, t = sp.symbols("x y z t", real=True)
u, v = sp.symbols("u v")
W = sp.IndexedBase("w")


@pytest.mark.parametrize("expr, text", [
    (2 - x + 3 * y, "-x + 2 + 3*y"),                 # terms sorted; digits after letters
    (12 * x - 10, "-10 + 12*x"),
    (-x - 1, "-x - 1"),
    (-x, "-x"),
    (x / 2 - y / 3, "x/2 - y/3"),
    (sp.Rational(-3, 4) * x * y ** 2 / z, "-3*x*y**2/(4*z)"),
    (x / (y * z), "x/(y*z)"),
    (1 / (2 * x), "1/(2*x)"),
    (x ** -2, "1/x**2"),
    ((x + 1) ** 2, "(x + 1)**2"),
    ((x + y) ** 3 / (x - y), "(x + y)**3/(x - y)"),
    (5 * W[t + 1] - W[t], "-w[t] + 5*w[t + 1]"),
    (dot(u, v) - 2 * dot(u, u), "Dot(u, v) - 2*Dot(u, u)"),
    (sp.Rational(7, 3), "7/3"),
    (sp.Integer(-4), "-4"),
    (sp.Pow(sp.Rational(1, 2), 3, evaluate=False), "(1/2)**3"),   # unevaluated powers
    (sp.Pow(2, 3, evaluate=False), "2**3"),
    (sp.Pow(x, 0, evaluate=False), "x**0"),
    (sp.Mul(0, x, evaluate=False), "0*x"),                       # zero is not negative
    (sp.Add(-x, x, evaluate=False), "x - x"),                    # equal bodies: + first
])
def test_the_canonical_text_of_an_expression(expr, text):
    assert expression_text(expr) == text


def test_a_coefficient_is_written_first_in_a_statement():
    import sympy as sp

    from verify.kernel import Derivation, Fact, Theorem
    from verify.kernel.statements import statement_text

    x, y = sp.symbols("x y", real=True)
    theorem = Theorem("t", "t", (), (), (), (Fact(3 * x * y, ">=", 0), Fact(x / 3, ">=", 0),
                                             Fact(-2 * x, "<=", 0)), Derivation(()))
    assert statement_text(theorem).splitlines()[1:] == [
        "conclusion 1: 3*x*y >= 0", "conclusion 2: x/3 >= 0", "conclusion 3: -2*x <= 0"]
