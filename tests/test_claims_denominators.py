"""Issue 25: quotients of quotients.  ``2/(1/a + 1/b)`` (the harmonic mean) has the domain
condition ``1/a + 1/b != 0``, proved as ``a*b*(1/a + 1/b) > 0`` with the positive divisors
``a``, ``b``; its goal is cleared by ``a + b``, which the proposer first proves positive as a
line of its own.  Only the kernel decides: a denominator whose sign does not follow stays
unproved or is refuted."""

from __future__ import annotations

import pytest

from verify.claims import check_claim_text


@pytest.mark.parametrize("text, statement", [
    ("assume: a > 0, b > 0\n2/(1/a + 1/b) <= sqrt(a*b)",
     "for all real a, b with a > 0, b > 0: 2/(1/a + 1/b) <= sqrt(a*b)"),
    ("assume: a > 0, b > 0\n2/(1/a + 1/b) <= (a + b)/2",
     "for all real a, b with a > 0, b > 0: 2/(1/a + 1/b) <= (a + b)/2"),
    ("assume: a > 0, b > 0\n1/(1/a + 1/b) > 0",
     "for all real a, b with a > 0, b > 0: 1/(1/a + 1/b) > 0"),
])
def test_the_harmonic_mean_and_its_domain_are_proved(text, statement):
    verdict = check_claim_text(text)
    assert verdict.status == "proved", verdict.reason
    assert verdict.headline() == f"proved: {statement}"
    assert "1/b + 1/a != 0: 1/b + 1/a > 0 proved from the assumptions" in verdict.domain


@pytest.mark.parametrize("text, status", [
    ("assume: a > 0, b > 0\n2/(1/a + 1/b) >= sqrt(a*b)", "refuted"),   # HM >= GM is false
    ("assume: a > 0, b > 0\n1/(1/a - 1/b) > 0", "refuted"),            # at a = b: undefined
    ("assume: a > 0\n1/(1/a + 1/b) > 0", "refuted"),                   # b < 0 is allowed
])
def test_false_twins_are_refuted(text, status):
    assert check_claim_text(text).status == status


def test_a_denominator_of_unknown_sign_is_not_proved():
    """a + b for a > 0 and b > -1 may be 0 or negative: no line a + b > 0, no proof."""
    verdict = check_claim_text("assume: a > 0, b > -1\n(a + b)**2/(a + b) == a + b")
    assert verdict.status != "proved"
