"""Issue 25: symbolic exponents ``x**n`` (n a declared integer with a lower bound) and powers
of a sum's index, proved by induction in the kernel (their false twins are in
tests/test_claims_refutations.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.claims import check_claim_text
from verify.claims.parser import ClaimSyntaxError, parse_claim
from verify.claims.refute import _evaluate
from verify.coq.claim_files import coq_statement

PROVED = {
    "bernoulli": ("assume: n >= 0, n integer, x >= -1\n(1 + x)**n >= 1 + n*x",
                  "for all real x and integer n with n >= 0, x >= -1: (x + 1)**n >= n*x + 1"),
    "two-to-the-n": ("assume: n >= 4, n integer\n2**n >= n**2",
                     "for all integer n with n >= 4: 2**n >= n**2"),
    "power-step": ("assume: n >= 0, n integer\nx**(n + 1) == x*x**n",
                   "for all real x and integer n with n >= 0: x**(n + 1) == x*x**n"),
    "power-below-x": ("assume: n >= 1, n integer, x >= 0, x <= 1\nx**n <= x",
                      "for all real x and integer n with n >= 1, x >= 0, x <= 1: x**n <= x"),
    "geometric": ("assume: n >= 0, n integer, r != 1\n"
                  "Sum(r**k, (k, 0, n)) == (1 - r**(n + 1))/(1 - r)",
                  "for all real r and integer n with n >= 0, r - 1 != 0: "
                  "Sum(r**k, (k, 0, n)) == (-r**(n + 1) + 1)/(-r + 1)"),
    "powers-of-two": ("assume: n >= 0, n integer\nSum(2**k, (k, 0, n)) == 2**(n + 1) - 1",
                      "for all integer n with n >= 0: Sum(2**k, (k, 0, n)) == -1 + 2**(n + 1)"),
    "fixed-limit": ("assume: r >= 0, r < 1\nSum(r**k, (k, 0, 3)) <= 1/(1 - r)", None),
}


@pytest.mark.parametrize("text, shown", PROVED.values(), ids=PROVED.keys())
def test_a_symbolic_power_is_proved_by_induction_as_written(text, shown):
    verdict = check_claim_text(text)
    assert verdict.status == "proved", verdict.reason
    if shown is not None:
        assert verdict.headline() == f"proved: {shown}"


@pytest.mark.parametrize("exponent, parsed", [
    ("n", ("sym", "n")), ("(n + 2)", 2), ("(n - 1)", -1), ("(1 + n)", 1)])
def test_a_symbolic_exponent_is_a_name_plus_an_int(exponent, parsed):
    node = parse_claim(f"assume: n integer, n >= 1\nx**{exponent} >= 0").goals[0].lhs
    assert node[0] == "powsym" and node[2] == ("sym", "n")
    assert node[3] == (0 if exponent == "n" else parsed)


@pytest.mark.parametrize("text", ["x**(2*n) >= 0", "x**(n + m) >= 0", "x**(n/2) >= 0",
                                  "x**(n + 65) >= 0"])
def test_other_exponents_are_refused_with_the_line(text):
    with pytest.raises(ClaimSyntaxError, match="exponent"):
        parse_claim(f"assume: n integer, n >= 0\n{text}")


def test_a_power_of_the_index_of_a_numeric_sum_is_expanded():
    node = parse_claim("Sum(r**k, (k, 1, 2)) >= 0").goals[0].lhs
    assert node == ("add", ("pow", ("sym", "r"), 1), ("pow", ("sym", "r"), 2))


@settings(max_examples=30, deadline=None)
@given(base=st.fractions(min_value=-3, max_value=3, max_denominator=4),
       n=st.integers(0, 12), c=st.integers(0, 3))
def test_a_power_is_evaluated_exactly_at_an_integer_exponent(base, n, c):
    node = parse_claim("assume: n integer, n >= 0\nx**(n + 1) >= 0").goals[0].lhs
    node = node[:3] + (c,)
    assert _evaluate(node, {"x": base, "n": Fraction(n)}) == base ** (n + c)


def test_the_coq_statement_quantifies_a_natural_T_with_n_equal_to_T_plus_its_bound():
    assert coq_statement(parse_claim(PROVED["bernoulli"][0]), "c") == (
        "Theorem c : forall (n x : R), n >= 0 -> (exists z' : Z, n = IZR z') -> x >= (- 1) -> "
        "forall T : nat, INR T = n - 0 -> ((1 + x) ^ (T + 0)) >= (1 + (n * x)).")
    assert coq_statement(parse_claim(PROVED["geometric"][0]), "c") == (
        "Theorem c : forall (n r : R), n >= 0 -> (exists z' : Z, n = IZR z') -> r <> 1 -> "
        "forall T : nat, INR T = n - 0 + 1 -> ((1 - r) <> 0) /\\ "
        "((psum (fun k : R => (ipow r k)) 0 T) = ((1 - (r ^ (T + 0))) / (1 - r))).")
