"""Issue 24, findings 1, 2, 6, 7 and 8: attacks on the path from a claim's statement to the kernel.

Each attack was run against the code before the fix and got a false claim proved, a traceback,
or a lying number accepted (noted per test); now the kernel refuses or the verdict is honest.
The false claims are false only at large values (n >= 2002, t_ >= 32), where the exact
counterexample search does not look, so only the kernel stands between them and ``proved``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from tests.test_kernel_certificate_internals import _fraction_with
from verify.claims import check_claim_text
from verify.kernel import (
    Certificate, Chain, Derivation, DerivationError, Fact, Hyp, Link, Term, Theorem, check_theorem,
)

FALSE_SUMS = {
    # finding 1: the step variable t was renamed t_ (the claim uses t) without checking that the
    # claim does not use t_ too; the summand's free t_ became the induction index.
    # True value: n*t_**2, which exceeds the right side for n = 1, t_ = 100.
    "step variable collides with t_":
        "assume: n integer, n >= 0\n"
        "Sum(t_**2, (k, 1, n)) <= (n - 1)*n*(2*n - 1)/6 + 1000*n + t - t",
    # finding 2: Abs(k) inside the sum became one free symbol, shared with Abs(k) after the
    # sum (k free there). True: n*(n + 1)/2 <= n*|k| + 1000*n is false for k = 0, n = 2000.
    "Abs under a sum shares its symbol with the same Abs outside":
        "assume: n integer, n >= 0\nSum(Abs(k), (k, 1, n)) <= n*Abs(k) + 1000*n",
    # finding 2: the summand uses n inside Abs, which the n-not-in-summand check did not see.
    "n hidden in an Abs of the summand":
        "assume: n integer, n >= 0\nSum(Abs(n - k), (k, 1, n)) <= n*Abs(n - k) + 1000*n",
}


@pytest.mark.parametrize("text", FALSE_SUMS.values(), ids=FALSE_SUMS.keys())
def test_a_false_symbolic_sum_is_never_proved(text):
    """Before: proved ("by induction on n, checked by the kernel")."""
    verdict = check_claim_text(text)
    assert verdict.status != "proved", verdict.explain()


def test_the_false_sums_are_false():
    """The attack claims above are false: exact evaluation at one large point each."""
    n, t_ = 1, 100                                     # collision claim (t - t = 0)
    assert n * t_ ** 2 > (n - 1) * n * (2 * n - 1) // 6 + 1000 * n
    n, k = 2002, 0                                     # Abs shared with the outside
    assert sum(abs(j) for j in range(1, n + 1)) > n * abs(k) + 1000 * n
    k = n                                              # n hidden in Abs
    assert sum(abs(n - j) for j in range(1, n + 1)) > n * abs(n - k) + 1000 * n


def test_a_colliding_name_is_refused_or_the_claim_is_proved_as_written():
    """A true claim that uses the proposer's favourite names (t, t_, T, S) is still proved."""
    verdict = check_claim_text("assume: n integer, n >= 0\n"
                               "Sum(t_ + t + T + S, (k, 1, n)) == n*(t_ + t + T + S)")
    assert verdict.status == "proved", verdict.explain()


# -- finding 7: contradictory assumptions in the Sum path -------------------------------------
def test_contradictory_assumptions_of_a_sum_claim_are_vacuous():
    """Before: proved (the step's certificate used x > 1 and x < 0)."""
    verdict = check_claim_text("assume: n integer, n >= 0, x > 1, x < 0\nSum(k, (k, 1, n)) <= x")
    assert verdict.status == "vacuous", verdict.explain()


# -- finding 6: every input gets a verdict or a located error ----------------------------------
@pytest.mark.parametrize("text, allowed", [
    ("assume: x == 1\nx integer", {"unproved", "proved", "invalid"}),
    ("vectors: v\nassume: n integer, n >= 0\nSum(dot(v, v), (v, 1, n)) >= 0", {"invalid"}),
    ("assume: a > 0, b > 0\n2/(1/a + 1/b) <= sqrt(a*b)", {"unproved", "proved"}),
])
def test_no_input_ends_in_a_traceback(text, allowed):
    """Before: ValueError, TypeError and PolynomialError tracebacks."""
    verdict = check_claim_text(text)
    assert verdict.status in allowed, verdict.explain()
    if verdict.status == "invalid":
        assert "line " in verdict.reason


def test_a_vector_as_a_sum_index_is_a_located_error():
    verdict = check_claim_text("vectors: v\nassume: n integer, n >= 0\n"
                               "Sum(dot(v, v), (v, 1, n)) >= 0")
    assert verdict.status == "invalid" and "line 3" in verdict.reason


# -- finding 8: one exact-number check in the kernel -------------------------------------------
class LyingInt(int):
    """An int whose numerator says something else (a proposer's lying number)."""

    @property
    def numerator(self):
        return -5


def _fraction_reporting(numerator, denominator=1):
    return _fraction_with(numerator, denominator)


@pytest.mark.parametrize("coeff", [
    _fraction_reporting(0.5), _fraction_reporting("1"), _fraction_reporting(sympy.Symbol("y")),
    _fraction_reporting(True), _fraction_reporting(1, 0), True, 1.0, "1",
], ids=["float-numerator", "str-numerator", "symbol-numerator", "bool-numerator", "zero-den",
        "bool", "float", "str"])
def test_a_coefficient_that_is_not_exactly_an_int_or_a_fraction_of_ints_is_refused(coeff):
    """Before: the float, str and bool numerators were read by sp.Rational and accepted (1/2,
    1, 1), the Symbol one was a TypeError traceback."""
    with pytest.raises(DerivationError, match="not a rational"):
        check_theorem(_one_line_proof(coeff))


def test_an_int_subclass_counts_with_its_own_value_not_its_numerator():
    """Before: refused as 'coefficient -5 is negative' (the lying numerator was read); the one
    helper takes an int's own value, as the certificate checks always did."""
    assert check_theorem(_one_line_proof(LyingInt(1))).theorem.name == "demo"


def test_a_lying_int_entering_an_expression_is_read_by_its_value():
    """An int subclass in a fact (not a coefficient) enters as its own value too."""
    x = sympy.Symbol("x", real=True)
    theorem = Theorem("demo", "demo", (), (), (Hyp("h", Fact(x, ">=", LyingInt(1))),),
                      (Fact(x, ">=", LyingInt(1)),),
                      Derivation((Chain("l", x, (Link(">=", 1, Certificate(
                          (Term(1, ("h",)),))),)),)))
    assert check_theorem(theorem).theorem.hyps[0].content.rhs == 1


def _one_line_proof(coeff):
    x = sympy.Symbol("x", real=True)
    return Theorem("demo", "demo", (), (), (Hyp("h", Fact(x, ">=", 0)),), (Fact(x, ">=", 0),),
                   Derivation((Chain("l", x, (Link(">=", 0, Certificate(
                       (Term(coeff, ("h",)),))),)),)))


@pytest.mark.parametrize("coeff", [1, Fraction(1), sympy.Integer(1)])
def test_an_exact_coefficient_is_still_accepted(coeff):
    assert check_theorem(_one_line_proof(coeff)).theorem.name == "demo"


def test_a_fraction_with_a_forged_negative_denominator_is_rebuilt_with_its_sign():
    """A Fraction whose denominator field was set to a negative int by hand (its value is then
    -1/2, though comparisons that trust the fields would read it as positive) enters the kernel
    as the normalised Fraction, so its sign cannot lie."""
    from fractions import Fraction

    from verify.kernel.exact import exact_fraction

    forged = Fraction(1, 2)
    object.__setattr__(forged, "_denominator", -2)
    rebuilt = exact_fraction(forged)
    assert rebuilt == Fraction(-1, 2) and rebuilt.denominator == 2 and rebuilt < 0
