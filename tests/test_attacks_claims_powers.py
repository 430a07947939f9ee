"""Issue 25: attacks on symbolic exponents ``x**n`` (n a declared integer), proved by the
induction theorem the kernel writes itself (verify/kernel/powers.py).

A proposer may hand the kernel any theorem: a wrong start value, a wrong recurrence, a step
whose certificate does not add up, a plain derivation treating ``x**n`` as a free number, a
forged statement.  Each must be refused; and a claim false only at a large exponent (where the
counterexample search does not look) must never be proved.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from verify import kernel
from verify.claims import check_claim_text
from verify.claims.induction import prove_power
from verify.claims.parser import parse_claim
from verify.claims.propose import _Prover

BERNOULLI = "assume: n >= 0, n integer, x >= -1\n(1 + x)**n >= 1 + n*x"


def _proved(text: str):
    prover = _Prover(parse_claim(text))
    prover.assumptions()
    checked, _ = prove_power(prover)
    return prover.statement, checked.theorems[-1].theorem


def _with_step_certificate(theorem, certificate):
    step = theorem.proof.step
    chain = step.lines[0]
    link = replace(chain.links[0], certificate=certificate)
    new_step = replace(step, lines=(replace(chain, links=(link,)),) + step.lines[1:])
    return replace(theorem, proof=replace(theorem.proof, step=new_step))


def test_the_kernel_proof_of_bernoulli_is_accepted_as_built():
    statement, theorem = _proved(BERNOULLI)
    checked = kernel.check_claim(statement, kernel.ClaimProof((), theorem))
    assert checked.shown == "for all real x and integer n with n >= 0, x >= -1: " \
                            "(x + 1)**n >= n*x + 1"


@pytest.mark.parametrize("change", ["start", "recurrence", "conclusion", "extra hypothesis"])
def test_a_theorem_that_is_not_the_kernels_induction_is_refused(change):
    statement, theorem = _proved(BERNOULLI)
    x = sympy.Symbol("x", real=True)
    hyps, family = list(theorem.hyps), theorem.family
    if change == "start":  # P[0] = 2: then P[T] = 2*(1 + x)**T, a different sequence
        hyps = [kernel.Hyp(h.name, kernel.Fact(h.content.lhs, "=", 2))
                if h.name == "start1" else h for h in hyps]
    elif change == "recurrence":  # P[t+1] = (x + 1)*P[t] + 1
        nxt = family.hyps[0].content
        family = replace(family, hyps=(kernel.Hyp("next1", kernel.Fact(
            nxt.lhs, "=", nxt.rhs + 1)),))
    elif change == "extra hypothesis":  # x >= 0 is not assumed by the claim
        hyps.append(kernel.Hyp("extra", kernel.Fact(x, ">=", 0)))
    forged = replace(theorem, hyps=tuple(hyps), family=family)
    if change == "conclusion":  # the goal at T + 1 instead of T
        T = theorem.naturals[0]
        c = theorem.conclusions[0]
        forged = replace(theorem, conclusions=(kernel.Fact(
            sympy.S(c.lhs).xreplace({T: T + 1}), c.rel, sympy.S(c.rhs).xreplace({T: T + 1})),))
    with pytest.raises(kernel.DerivationError, match="does not state the claim"):
        kernel.check_claim(statement, kernel.ClaimProof((), forged))


def test_a_plain_derivation_treating_the_power_as_a_number_is_refused():
    """x**n >= 0 for x >= 0 is not a fact about a free real _pow1; the kernel asks for its
    induction theorem, whatever the proof."""
    statement, theorem = _proved("assume: n >= 0, n integer, x >= 0\nx**n >= 0")
    p = statement.powers[0].symbol
    plain = kernel.Theorem("claim", "claim", (), (), (kernel.Hyp("h", kernel.Fact(p, ">=", 0)),),
                           (kernel.Fact(p, ">=", 0),), kernel.Derivation(()))
    with pytest.raises(kernel.DerivationError):
        kernel.check_claim(statement, kernel.ClaimProof((), plain))
    with pytest.raises(kernel.DerivationError, match="induction on the kernel's T and t"):
        kernel.check_claim(statement, kernel.ClaimProof((), replace(
            theorem, proof=kernel.Derivation(()))))


def test_domain_theorems_cannot_ride_along_with_an_induction():
    statement, theorem = _proved(BERNOULLI)
    with pytest.raises(kernel.DerivationError, match="no domain theorems"):
        kernel.check_claim(statement, kernel.ClaimProof((theorem,), theorem))


@settings(max_examples=25, deadline=None)
@given(which=st.integers(0, 50), delta=st.fractions(min_value=-3, max_value=3).filter(bool))
def test_a_step_certificate_changed_anywhere_is_refused(which, delta):
    """Hypothesis plays a malicious certificate: one coefficient or multiplier of the valid
    step of Bernoulli's induction changed by a nonzero rational."""
    statement, theorem = _proved(BERNOULLI)
    cert = theorem.proof.step.lines[0].links[0].certificate
    slots = len(cert.terms) + len(cert.eq_terms)
    k = which % slots
    terms, eqs = list(cert.terms), list(cert.eq_terms)
    if k < len(terms):
        coeff = sympy.Rational(terms[k].coeff) + sympy.Rational(delta.numerator,
                                                                delta.denominator)
        if coeff < 0:
            coeff = -coeff + 1  # a negative coefficient is refused anyway; test the sum
        terms[k] = replace(terms[k], coeff=coeff)
    else:
        e = eqs[k - len(terms)]
        eqs[k - len(terms)] = replace(e, multiplier=sympy.S(e.multiplier) + sympy.Rational(
            delta.numerator, delta.denominator))
    forged = _with_step_certificate(theorem, kernel.Certificate(tuple(terms), tuple(eqs)))
    if forged == theorem:
        return
    with pytest.raises(kernel.DerivationError):
        kernel.check_claim(statement, kernel.ClaimProof((), forged))


@settings(max_examples=25, deadline=None)
@given(a=st.integers(-2, 2), b=st.integers(-1, 3), c=st.integers(-3, 3))
def test_a_step_that_only_looks_plausible_is_refused(a, b, c):
    """Hypothesis plays a malicious induction step: the step certificate of Bernoulli with
    arbitrary small terms (IH, the bound on x, t >= 0, squares) summed up; the kernel accepts
    it only when it is an exact identity, and then the claim is true (checked at points)."""
    statement, theorem = _proved(BERNOULLI)
    t = theorem.proof.index
    x = sympy.Symbol("x", real=True)
    terms = tuple(term for term in (
        kernel.Term(abs(a), ("IH",)), kernel.Term(abs(b), ("h3", "IH")),
        kernel.Term(abs(c), (f"{t}>=0", kernel.Square(x)))) if term.coeff)
    cert = theorem.proof.step.lines[0].links[0].certificate
    forged = _with_step_certificate(theorem, kernel.Certificate(terms, cert.eq_terms))
    try:
        kernel.check_claim(statement, kernel.ClaimProof((), forged))
    except kernel.DerivationError:
        return
    assert (abs(a), abs(b), abs(c)) == (0, 1, 1)  # the one true certificate among these


FALSE_AT_LARGE_EXPONENTS = [
    # false from n = 213 on (2**213 > 10**64); the counterexample search stops at n = 200
    "assume: n >= 0, n integer\n10**64*(1/2)**n >= 1",
    # false from n = 213 on: a bound that holds for every n the search tries
    "assume: n >= 0, n integer\n2**n <= 10**64",
]


@pytest.mark.parametrize("text", FALSE_AT_LARGE_EXPONENTS)
def test_a_claim_false_only_at_a_large_exponent_is_never_proved(text):
    assert check_claim_text(text).status != "proved"


@pytest.mark.parametrize("text, reason", [
    ("assume: n >= 0, x >= 0\n(1 + x)**n >= 1", "needs the assumption 'n integer'"),
    ("assume: n integer, x >= 0\n(1 + x)**n >= 0", "needs a lower bound"),
    ("assume: n integer, n >= 0, x >= 1\nx**(n - 1) >= 0", "needs a lower bound"),
    ("assume: n integer, n >= 0, m >= 0, m integer\n(1 + x**2)**n + (1 + y**2)**m >= 0",
     "uses the same one name"),
    ("assume: n integer, n >= 0, x >= 0\nsqrt(x)**n >= 0", "no square roots"),
    ("assume: n integer, n >= 0\n(2 + x**2)**n != 0", "compares with"),
    # a huge start exponent would make the kernel expand (1 + x**2)**(10**30)
    ("assume: n integer, n >= 10**30\n(1 + x**2)**n >= 1", "at the start of the induction"),
])
def test_a_power_the_kernel_cannot_state_is_unproved_with_the_reason(text, reason):
    """Each claim is true: only the kernel's refusal keeps it from proved."""
    verdict = check_claim_text(text)
    assert verdict.status == "unproved"
    assert reason in verdict.reason


def test_a_forged_power_record_is_refused_by_the_kernel():
    statement, _ = _proved(BERNOULLI)
    p = statement.powers[0]
    n = p.variable
    for forged in (replace(p, offset=True), replace(p, offset=Fraction(1, 2)),
                   replace(p, base=p.base + n), replace(p, variable=sympy.Symbol("m"))):
        with pytest.raises(kernel.DerivationError):
            kernel.power_theorem(replace(statement, powers=(forged,)))
    with pytest.raises(kernel.DerivationError, match="'n integer'"):
        kernel.power_theorem(replace(statement, integers=()))


def test_a_claim_name_equal_to_the_kernels_fresh_names_is_kept_apart():
    verdict = check_claim_text("assume: n >= 0, n integer, P >= -1, T >= 0, t >= 0\n"
                               "(1 + P)**n >= 1 + n*P")
    assert verdict.status == "proved"


@settings(max_examples=6, deadline=None)
@given(a=st.integers(-2, 1), b=st.integers(0, 2), c=st.integers(0, 3))
def test_a_proved_power_claim_holds_at_every_point_tried(a, b, c):
    """Hypothesis proposes claims (x + b)**n >= 1 + c*n*x for x >= a, true or false; whenever
    one is proved, it holds exactly at n = 0..8 and several x >= a."""
    text = f"assume: n >= 0, n integer, x >= {a}\n(x + {b})**n >= 1 + {c}*n*x"
    if check_claim_text(text).status != "proved":
        return
    for n in range(9):
        for x in (Fraction(a), Fraction(a) + Fraction(1, 2), Fraction(a + 1), Fraction(a + 3)):
            assert (x + b) ** n >= 1 + c * n * x, (text, n, x)
