"""Claims: the restricted parser (including fuzzing) and the verdicts."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from verify.claims.parser import ClaimSyntaxError, parse_claim
from verify.claims import check_claim_text, find_claim_blocks


@pytest.mark.parametrize("text, status", [
    ("assume: a >= 0, b >= 0\n(a + b)**2 >= a**2 + b**2", "proved"),
    ("x**2 + y**2 >= 2*x*y", "proved"),
    ("assume: x > 0\nx + 1/x >= 2", "proved"),
    ("assume: a >= 0, b >= 0, c >= 0\na**3 + b**3 + c**3 >= 3*a*b*c", "proved"),
    ("assume: 0 <= x <= 1\nx**2 <= x", "proved"),
    ("assume: x == 2\nx**2 == 4", "proved"),
    ("Abs(x) >= x", "proved"),
    ("x**2 + 1 != 0", "proved"),
    ("x != 1", "refuted"),
    ("2**64 > 10**19", "proved"),
    ("sqrt(2) < 1.4143", "proved"),
    ("sqrt(2) > 1.4143", "refuted"),
    ("assume: x >= 0\nx**3 - 3*x + 2 >= 0", "proved"),
    ("assume: a > 0, b > 0\n1/a + 1/b >= 4/(a + b)", "proved"),
    ("assume: a > 0, b > 0\na/b + b/a >= 2", "proved"),
    ("assume: 0 \u2264 x \u2264 1\nx**2 \u2264 x", "proved"),
    ("assume: x >= 1, x <= 0\nx >= 5", "vacuous"),
    ("assume: x >= 0\nsqrt(x) >= 0", "proved"),
    ("0.1 + 0.2 == 0.3", "proved"),
    ("x**2 >= x", "refuted"),
    ("(a + b)**2 >= a**2 + b**2", "refuted"),
    ("assume: t >= 1, rho > 0, R > 0\nt*rho**2 <= R**2 + t", "refuted"),
    ("assume: x >= 0, y >= 0\nsqrt(x*y) <= (x + y)/2", "proved"),
    ("x.real > 0", "invalid"),
])
def test_verdicts(text, status):
    assert check_claim_text(text).status == status


def test_counterexample_is_exact_and_satisfies_the_assumptions():
    verdict = check_claim_text("assume: x >= 0, y > x\ny**2 < 2*x**2")
    assert verdict.status == "refuted"
    x, y = verdict.counterexample["x"], verdict.counterexample["y"]
    assert isinstance(x, Fraction) and x >= 0 and y > x and not y ** 2 < 2 * x ** 2


def test_proved_verdict_shows_the_certificate():
    verdict = check_claim_text("x**2 + 1 >= 2*x")
    assert verdict.certificate == "x**2 + 1 - (2*x) = 1*(1 - x)**2"


@pytest.mark.parametrize("text, message", [
    ("__import__('os').system('true') > 0", "only sqrt"),
    ("x.__class__ > 0", "attribute"),
    ("(lambda: 1)() > 0", "only sqrt"),
    ("exec('1') > 0", "only sqrt"),
    ("_x > 0", "not allowed"),
    ("10**10**10 > 0", "integer literal"),
    ("x**100 > 0", "larger than 64"),
    ("((x**8)**8)**8 > 0", "too many"),
    ("(" * 60 + "x" + ")" * 60 + " > 0", "nested"),
    ("-" * 1500 + "x > 0", "nested|not an expression"),
    ("1" * 50 + " > 0", "longer than"),
    ("1e5 > 0", "exponent notation"),
    ("x[0] > 0", "not allowed"),
    ("'a' > 0", "not a real number"),
    ("x > 0\ny > 0", "only one claim"),
    ("assume: x > 0", "no claim"),
    ("x + 1", "comparison"),
    ("x <> 1", "not an expression"),
])
def test_parser_refuses(text, message):
    start = time.perf_counter()
    with pytest.raises(ClaimSyntaxError, match=message):
        parse_claim(text)
    assert time.perf_counter() - start < 0.5


_ATOMS = st.sampled_from(["x", "y", "1", "2", "0.5", "sqrt(x)", "Abs(y)", "__x", "x.y", "f(x)",
                          "10**10**10", "(", ")", "**", "*", "+", "-", "/", ">=", "<", "==",
                          ",", "lambda", "[", "]", "'", "99999999999999", "x**64", "\n",
                          "assume:", " "])


@settings(max_examples=300, deadline=None)
@given(st.lists(_ATOMS, max_size=40).map("".join))
def test_fuzz_parser_never_crashes_or_hangs(text):
    start = time.perf_counter()
    try:
        claim = parse_claim(text)
    except ClaimSyntaxError:
        pass
    else:
        assert claim.goals
    assert time.perf_counter() - start < 0.5


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_fuzz_parser_arbitrary_text(text):
    start = time.perf_counter()
    try:
        parse_claim(text)
    except ClaimSyntaxError:
        pass
    assert time.perf_counter() - start < 0.5


@settings(max_examples=15, deadline=None)
@given(st.integers(-5, 5), st.integers(-5, 5), st.integers(1, 3))
def test_verdict_of_linear_claims_matches_exact_truth(p, q, k):
    """k*x**2 + p >= q holds for all real x iff p >= q: proved exactly then, refuted otherwise."""
    verdict = check_claim_text(f"{k}*x**2 + ({p}) >= {q}")
    assert verdict.status == ("proved" if p >= q else "refuted")


def test_find_claim_blocks_skips_other_fences_and_keeps_lines():
    text = "intro\n~~~markdown\n```claim\nx > x\n```\n~~~\n\n```claim\nx >= x\n```\n"
    blocks = find_claim_blocks(text)
    assert [(b.line, b.body) for b in blocks] == [(8, "x >= x")]
