"""A lying proposer, second round: variants of the issue-12 attacks not pinned elsewhere.

Each test builds a false (or unearned) claim and checks the kernel or the claims checker
refuses it."""

from __future__ import annotations

import dataclasses as dc
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sympy as sp

from verify.claims import check_claim_text
from verify.kernel import (Certificate, Chain, Derivation, DerivationError, Fact, Hyp, KernelError,
                           LemmaUse, Link, Square, Term, Theorem, check_theorem, is_checked)

x, y = sp.symbols("x y", real=True)


def one_step(start, rel, end, cert=Certificate(), hyps=(), name="t"):
    return Theorem(name, name, (), (), tuple(hyps), (Fact(start, rel, end),),
                   Derivation((Chain("c", start, (Link(rel, end, cert),)),)))


# --- kernel ----------------------------------------------------------------------------------
def test_square_of_x_plus_i_does_not_prove_x_squared_below_minus_one_plus_2ix():
    # (x + i)^2 = x^2 - 1 + 2ix: a complex square hidden in a sum, not a bare I*x
    cert = Certificate((Term(1, (Square(x + sp.I),)),))
    with pytest.raises(KernelError):
        check_theorem(one_step(1 - 2 * sp.I * x, "<=", x ** 2, cert))


def test_a_negative_weight_does_not_prove_x_squared_nonpositive():
    # x^2 <= 0  iff  -x^2 >= 0 = (-1) * x^2
    with pytest.raises(KernelError):
        check_theorem(one_step(x ** 2, "<=", 0, Certificate((Term(-1, (Square(x),)),))))


@pytest.mark.parametrize("coeff", [0.5, sp.Float("0.5"), sp.I, sp.sqrt(2)])
def test_a_non_rational_weight_is_refused(coeff):
    # 0.5*x^2 + 0.5*x^2 = x^2 >= 0 would be true; the weight itself must be an exact rational
    cert = Certificate((Term(coeff, (Square(x),)), Term(coeff, (Square(x),))))
    with pytest.raises(KernelError):
        check_theorem(one_step(0, "<=", x ** 2 + (1 - 2 * coeff) * x ** 2, cert))


def test_a_float_inside_a_square_is_refused():
    cert = Certificate((Term(1, (Square(sp.Float("1.0") * x),)),))
    with pytest.raises(KernelError):
        check_theorem(one_step(0, "<=", x ** 2, cert))


def test_a_positive_symbol_in_a_hypothesis_is_refused():
    # p with positive=True makes sympy "know" p > 0; the hypothesis must not smuggle that in
    p = sp.Symbol("p", positive=True)
    hyp = Hyp("h", Fact(p, ">=", 0))
    with pytest.raises(KernelError):
        check_theorem(one_step(0, "<=", p, Certificate((Term(1, ("h",)),)), hyps=(hyp,)))


def test_a_lemma_with_its_hypotheses_swapped_by_replace_is_no_lemma():
    # lemma: x >= 1 |- x^2 >= ... ; forge the checked wrapper so it looks hypothesis-free
    lemma = check_theorem(one_step(0, "<=", x, Certificate((Term(1, ("h",)),)),
                                   hyps=(Hyp("h", Fact(x, ">=", 0)),), name="lem"))
    assert is_checked(lemma)
    forged = dc.replace(lemma, theorem=dc.replace(lemma.theorem, hyps=()))
    assert not is_checked(forged)
    use = Theorem("use", "use", (), (), (), (Fact(0, "<=", x),),
                  Derivation((LemmaUse("l", forged),)))
    with pytest.raises(KernelError):
        check_theorem(use)


def test_a_genuine_lemma_needs_its_hypothesis_available():
    lemma = check_theorem(one_step(0, "<=", x, Certificate((Term(1, ("h",)),)),
                                   hyps=(Hyp("h", Fact(x, ">=", 0)),), name="lem"))
    use = Theorem("use", "use", (), (), (), (Fact(0, "<=", x),),
                  Derivation((LemmaUse("l", lemma),)))
    with pytest.raises(KernelError):
        check_theorem(use)


# --- claims ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["sqrt(-4) >= 5", "sqrt(-1) * sqrt(-1) == 1",
                                  "assume: x <= -1\nsqrt(x) >= 100",
                                  "(x**2 - 1)/(x - 1) == x + 1", "x/x + y/y == 2",
                                  "assume: x >= 0\nx/x == 1",
                                  "ﬁ - fi == 0", "𝐱 - x == 0", "x + ²  == x + 2"])
def test_false_or_unearned_claims_are_not_proved(text):
    verdict = check_claim_text(text)
    assert verdict.status != "proved", (text, verdict)
    assert not verdict.ok


def test_pla_claims_on_a_closed_pipe_still_fails_a_refuted_claim(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```claim\nx**2 >= x**2 + 1\n```\n" * 200)
    pla = Path(sys.executable).with_name("pla")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.Popen([str(pla), "claims", str(page)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env)
    proc.stdout.close()
    assert proc.wait(timeout=60) != 0
