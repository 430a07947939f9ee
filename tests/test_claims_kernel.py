"""The claims checker proves nothing the kernel has not checked: a lying certificate search
(a malicious proposer) never turns into a "proved" verdict.  Killed surviving mutants of
``make mutation`` in the claims translation (verify/claims/checker.py)."""

from __future__ import annotations

import pytest

from verify.claims import checker
from verify.claims.parser import parse_claim
from verify.search import claim_certificates


@pytest.mark.parametrize("text", [
    "assume: x >= 1\nx**2 >= 2*x",        # false at x = 3/2
    "assume: x >= 0\nx >= 1",
    "assume: x > 0\nx**3 > x",
    "assume: x >= 0\nsqrt(x) >= 1",
])
def test_a_lying_certificate_search_is_caught_by_the_kernel(monkeypatch, text):
    calls = []

    def lying(target, hyps, equalities, rewrites, strict=False, **budget):
        calls.append(target)
        return claim_certificates.FoundCertificate(((1, ()),), ())   # "target = 1"

    monkeypatch.setattr(claim_certificates, "find_certificate", lying)
    status, reason, _ = checker._prove(parse_claim(text), vacuity=False)
    assert calls, "the lying proposer was never asked"
    assert status != "proved", reason
