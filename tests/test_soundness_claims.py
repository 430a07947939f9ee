"""Issue 12, claims findings 5-8: no vacuous proof through hidden domains, no cancellation
before the kernel, no traceback on 1/0, names checked on the source text.

Each test failed on the code before the fix (noted per test) and passes now."""

from __future__ import annotations

import subprocess
import sys

import pytest

from verify.claims import check_claim_text


# -- finding 5: sqrt's domain is a visible condition, never a silent hypothesis ---------------
@pytest.mark.parametrize("text", ["sqrt(-1 - x**2) >= 7",
                                  "assume: x >= 0\nsqrt(x - 1)**2 + 1 == x"])
def test_sqrt_outside_its_domain_is_refuted_not_proved(text):
    """Before: proved (sqrt(e) silently added e >= 0 as a hypothesis)."""
    verdict = check_claim_text(text)
    assert verdict.status == "refuted"
    assert "undefined" in verdict.reason


def test_sqrt_of_a_negative_constant_is_a_located_error():
    """Before: sqrt(-1) >= 5 was proved."""
    verdict = check_claim_text("sqrt(-1) >= 5")
    assert verdict.status == "invalid" and "line 1" in verdict.reason


def test_a_proof_names_the_domain_conditions_it_used():
    verdict = check_claim_text("assume: x >= 1\nsqrt(x - 1)**2 + 1 == x")
    assert verdict.status == "proved"
    assert verdict.domain == ("x - 1 >= 0: proved from the assumptions",)
    assert "x - 1 >= 0" in verdict.explain()


def test_contradictory_assumptions_are_vacuous_not_proved():
    """Before: proved (anything follows from contradictory assumptions)."""
    for text in ("assume: x >= 1, x <= 0\nx >= 5", "assume: x**2 + 1 <= 0\nx == 7",
                 "assume: x > 0, x < 0\nx >= 5", "assume: sqrt(x) < 0\nx == 1"):
        verdict = check_claim_text(text)
        assert verdict.status == "vacuous", text
        assert not verdict.ok


# -- finding 6: no cancellation before the kernel --------------------------------------------
@pytest.mark.parametrize("text", ["x/x == 1", "(x-1)/(x-1) == 1", "x*(1/x) >= 1"])
def test_division_needs_its_denominator_nonzero(text):
    """Before: proved with no assumption (sympy cancelled x/x)."""
    verdict = check_claim_text(text)
    assert verdict.status == "refuted" and "denominator is 0" in verdict.reason


@pytest.mark.parametrize("assumption, shown", [
    ("x > 0", "x != 0: x > 0 proved from the assumptions"),
    ("x < 0", "x != 0: x < 0 proved from the assumptions"),
    ("x != 0", "x != 0: assumed"),
])
def test_with_the_denominator_nonzero_the_claim_is_proved_and_says_why(assumption, shown):
    verdict = check_claim_text(f"assume: {assumption}\nx/x == 1")
    assert verdict.status == "proved"
    assert verdict.domain == (shown,)


def test_a_denominator_the_assumptions_do_not_settle_leaves_the_claim_unproved():
    verdict = check_claim_text("assume: x >= 0\n(x + 1)/(x + 1) == 1 + 0*x/x")
    assert verdict.status != "proved"


# -- finding 7: 1/0 is a located error for its block only --------------------------------------
@pytest.mark.parametrize("text", ["1/0 >= 5", "0**-1 >= 5", "x/(3 - 3) >= 0", "x**2/(0*5) >= 0"])
def test_division_by_zero_is_invalid_with_its_line(text):
    """Before: ZeroDivisionError traceback."""
    verdict = check_claim_text(text)
    assert verdict.status == "invalid"
    assert "division by zero" in verdict.reason and "line 1" in verdict.reason


def test_division_by_zero_fails_only_its_block_and_exits_2(tmp_path):
    """Before: a traceback took every verdict of the file with it."""
    page = tmp_path / "page.md"
    page.write_text("```claim\n1/0 >= 5\n```\n\n```claim\n2 + 2 == 4\n```\n")
    out = subprocess.run([sys.executable, "-c", "import sys; from verify.cli import main; sys.exit(main())",
                          "claims", str(page)],
                         capture_output=True, text=True)
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    assert f"{page}:1: invalid: division by zero" in out.stdout
    assert f"{page}:5: proved" in out.stdout


# -- finding 8: names are checked on the source text -------------------------------------------
@pytest.mark.parametrize("text", ["𝑥 - x == 0", "ｘ >= ｘ", "x + ℌ >= ℌ + x"])
def test_non_ascii_names_are_refused_before_normalisation(text):
    """Before: 𝑥 - x == 0 was proved (Python's parser NFKC-normalises 𝑥 to x)."""
    verdict = check_claim_text(text)
    assert verdict.status == "invalid" and "must be ASCII" in verdict.reason


def test_a_user_name_never_prints_like_an_internal_root():
    """Before: the user's sqrt1 and the internal _sqrt1 both printed as sqrt1."""
    verdict = check_claim_text("assume: x >= 0, sqrt1 >= 0\nsqrt(x) + sqrt1 >= 0")
    assert verdict.status == "proved"
    assert verdict.certificate == "sqrt(x) + sqrt1 - (0) = 1*(sqrt1) + 1*(√(x))"
