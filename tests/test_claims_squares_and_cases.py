"""Issue 25: claims about Abs and sqrt proved by squaring both sides, antisymmetry and case
splits (verify/claims/propose_roots.py proposes, the kernel's rules decide), each with its false
twin refuted at a point a reader checks by hand."""

from __future__ import annotations

import pytest

from verify.claims import check_claim_text

PROVED = {
    "Abs(a + b) <= Abs(a) + Abs(b)": "by squaring both sides",
    "Abs(Abs(a) - Abs(b)) <= Abs(a - b)": "by squaring both sides",
    "Abs(a*b) == Abs(a)*Abs(b)": "by squaring both sides",
    "sqrt(x**2) == Abs(x)": "by squaring both sides",
    "assume: x >= 0\nAbs(x) == x": "by squaring both sides",
    "assume: a >= 0, b >= 0\n(a + b)/2 >= sqrt(a*b)": "by squaring both sides",
    "assume: a >= 0, b >= 0\nsqrt(a + b) <= sqrt(a) + sqrt(b)": "by squaring both sides",
    "sqrt(4) == 2": "by squaring both sides",
    "assume: x > 0\n1/sqrt(x) == sqrt(x)/x": "",
    "Abs(x)*y <= Abs(x*y)": "by cases on the sign of x: (x >= 0)",
}
TWINS = {
    "Abs(Abs(a) - Abs(b)) >= Abs(a - b)": "a = 1, b = -1",
    "Abs(a*b) == a*Abs(b)": "a = -1, b = 1",
    "assume: x >= 0\nAbs(x - 1) == x - 1": "x = 0",
    "sqrt(4) == -2": "sqrt(4) = 2 != -2",
    "assume: x > 0\n1/sqrt(x) == sqrt(x)": "x = 4: 1/sqrt(x) = 1/2 != sqrt(x) = 2",
    "Abs(x)*y >= Abs(x*y)": "x = 1, y = -1: Abs(x)*y = -1 < Abs(x*y) = 1",
}


@pytest.mark.parametrize("text", sorted(PROVED))
def test_each_fact_is_proved_and_its_certificate_says_how(text):
    verdict = check_claim_text(text)
    assert verdict.status == "proved", verdict.reason
    assert PROVED[text] in verdict.certificate


@pytest.mark.parametrize("text", sorted(TWINS))
def test_each_false_twin_is_refuted_at_a_point_a_reader_checks(text):
    verdict = check_claim_text(text)
    assert verdict.status == "refuted"
    assert TWINS[text] in verdict.headline()


def test_the_square_root_domain_condition_is_proved_by_squaring():
    verdict = check_claim_text("assume: x > 0\n1/sqrt(x) == sqrt(x)/x")
    assert any("sqrt" in d or "√" in d for d in verdict.domain) or verdict.domain == ()
    assert check_claim_text("1/sqrt(x) == sqrt(x)/x").status == "refuted"   # at x = 0
