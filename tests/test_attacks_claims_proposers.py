"""Issue 24: lying proposers never get a false claim proved.

The certificate search, the induction proposer and the proposer's translation are replaced by
adversarial versions; :func:`verify.kernel.check_claim` compares whatever they build with the
claim's elaborated statement, so every attack ends ``unproved`` (or the kernel refuses).  A
hypothesis test generates claims with the proposers' favourite names (t, t_, T, S), atoms nested
under sums and shared with the outside, and checks every ``proved`` verdict by exact evaluation
at rational points, large ones included (where the counterexample search does not look).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
import sympy
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from verify import kernel
from verify.claims import induction, propose
from verify.claims.elaborate import Elaborator, elaborate
from verify.claims.parser import parse_claim
from verify.claims.refute import _holds, _Irrational, _Undefined
from verify.claims.verdict import _prove
from verify.search import claim_certificates

FALSE = [
    "assume: x >= 1\nx**2 >= 2*x",
    "assume: x >= 0\nsqrt(x) >= 1",
    "assume: x > 0\n1/x <= 1",
    "Abs(x - 1) >= x",
    "assume: n integer, n >= 0\nSum(t_**2, (k, 1, n)) <= (n - 1)*n*(2*n - 1)/6 + 1000*n + t - t",
    "assume: n integer, n >= 0\nSum(Abs(k), (k, 1, n)) <= n*Abs(k) + 1000*n",
    "assume: n integer, n >= 0\nSum(k, (k, 1, n)) <= n",
]


def _lying_searches():
    """Certificates that say whatever helps: 'target = 1', 'target = 0', a hypothesis times
    a big weight, an equality used with any multiplier."""
    yield lambda *a, **k: claim_certificates.FoundCertificate(((1, ()),), ())
    yield lambda *a, **k: claim_certificates.FoundCertificate((), ())
    yield lambda target, hyps, *a, **k: claim_certificates.FoundCertificate(
        tuple((10 ** 6, (name,)) for name, *_ in hyps), ())
    yield lambda target, hyps, eqs, *a, **k: claim_certificates.FoundCertificate(
        (), tuple((-target, name) for name, _ in eqs))


@pytest.mark.parametrize("search", list(_lying_searches()), ids=["one", "zero", "heavy", "eq"])
@pytest.mark.parametrize("text", FALSE)
def test_a_lying_certificate_search_never_proves_a_false_claim(monkeypatch, search, text):
    monkeypatch.setattr(claim_certificates, "find_certificate", search)
    status, reason, _ = _prove(parse_claim(text), vacuity=False)
    assert status != "proved", reason


def test_a_lying_induction_proposer_that_renames_the_index_is_refused():
    """The old collision, replayed by a proposer: the summand's t_ read as the step index.
    The altered theorem is a true theorem the kernel checks, but not the claim's statement."""
    claim = parse_claim(FALSE[4])
    statement, _ = elaborate(claim)
    skeleton = kernel.sum_theorem(statement)
    t = skeleton.proof.index
    recurrence = skeleton.family.hyps[0]
    lhs = recurrence.content.lhs
    renamed = kernel.Hyp(recurrence.name, kernel.Fact(lhs, "=", lhs.base[t] + (t + 1) ** 2))
    lying = replace(skeleton, family=kernel.Family(t, skeleton.family.upper, (renamed,)))
    with pytest.raises(kernel.DerivationError, match="does not state the claim"):
        kernel.check_claim(statement, kernel.ClaimProof((), lying))


@pytest.mark.parametrize("change", ["drop atom definitions", "extra hypothesis",
                                    "other conclusion", "fewer vectors", "naturals"])
def test_a_theorem_that_is_not_the_claims_statement_is_refused(change):
    """A proposer's theorem is compared with the statement by canonical text."""
    x = sympy.Symbol("x", real=True)
    statement, _ = elaborate(parse_claim("assume: x >= 0\nx + 1 >= 1"))
    proof = kernel.Derivation((kernel.Chain("g", x + 1, (kernel.Link(">=", 1, kernel.Certificate(
        (kernel.Term(1, ("h1",)),))),)),))
    theorem = kernel.Theorem("claim", "claim", (), (), (kernel.Hyp("h1", kernel.Fact(x, ">=", 0)),),
                             (kernel.Fact(x + 1, ">=", 1),), proof)
    kernel.check_claim(statement, kernel.ClaimProof((), theorem))        # the honest proof
    if change == "extra hypothesis":
        theorem = replace(theorem, hyps=theorem.hyps + (kernel.Hyp("h9", kernel.Fact(x, ">=", 5)),))
    elif change == "other conclusion":
        theorem = replace(theorem, conclusions=(kernel.Fact(x + 1, ">=", 0),),
                          proof=kernel.Derivation((kernel.Chain("g", x + 1, (kernel.Link(
                              ">=", 0, kernel.Certificate((kernel.Term(1, ("h1",)),
                                                           kernel.Term(1, ())))),)),)))
    elif change == "fewer vectors":
        theorem = replace(theorem, vectors=("x",))
    elif change == "naturals":
        theorem = replace(theorem, naturals=(x,))
    else:
        statement = replace(statement, assumptions=())
    with pytest.raises(kernel.KernelError):
        kernel.check_claim(statement, kernel.ClaimProof((), theorem))


class _LyingTranslation(Elaborator):
    """A proposer's translation that reads every Abs(e) as e and every x as x + 1."""

    def expr(self, e, evaluate=True, bound=None):
        if e[0] == "abs":
            return super().expr(e[1], evaluate, bound)
        if e == ("sym", "x"):
            return self.symbol("x") + 1
        return super().expr(e, evaluate, bound)


@pytest.mark.parametrize("text", ["Abs(x - 1) >= x", "assume: x >= 0\nx >= 1",
                                  "assume: x >= 0\nx**2 >= 1"])
def test_a_lying_translation_in_the_proposer_is_refused(monkeypatch, text):
    """The statement is elaborated once, by the trusted elaborator; a proposer translating the
    claim differently proves a different theorem, which the kernel refuses."""
    honest = propose._Prover.__init__

    def lying_init(self, claim):
        honest(self, claim)
        self.tr = _LyingTranslation()

    monkeypatch.setattr(propose._Prover, "__init__", lying_init)
    status, reason, _ = _prove(parse_claim(text), vacuity=False)
    assert status != "proved", reason


def test_a_lying_induction_proposer_is_refused(monkeypatch):
    """prove_sum replaced by one that hands the kernel the induction of another sum."""
    def lying(prover):
        other = elaborate(parse_claim("assume: n integer, n >= 0\nSum(0, (k, 1, n)) <= n"))[0]
        skeleton = kernel.sum_theorem(other)
        return kernel.check_claim(prover.statement, kernel.ClaimProof((), skeleton)), "lie"

    monkeypatch.setattr(induction, "prove_sum", lying)
    status, reason, _ = _prove(parse_claim(FALSE[6]), vacuity=False)
    assert status == "unproved" and "does not state the claim" in reason, reason


# -- generated claims: every `proved` is true ------------------------------------------------------
NAMES = ("t", "t_", "T", "S", "x")
POINTS = [Fraction(v) for v in (0, 1, -1, 3, Fraction(1, 2), 100, -100, 1000, 2001)]


@st.composite
def sum_claims(draw) -> str:
    """``Sum(f, (i, 1, n)) op G`` with f and G drawn from shapes that collided before issue 24:
    the proposers' names t, t_, T, S as free names or as the index, Abs of the index (inside and
    outside the sum), Abs nested under the sum, and a slack that hides falsity at small n."""
    index = draw(st.sampled_from(["k", "t", "t_"]))
    a, b = (draw(st.sampled_from([v for v in NAMES if v != index])) for _ in range(2))
    summand = draw(st.sampled_from([
        f"Abs({index})", f"Abs({index} - {a})", f"Abs(Abs({index} - 2) - {a})", index,
        f"{a}**2", f"{index}*{a}", f"{a}*{b}"]))
    outside = draw(st.sampled_from([
        f"n*Abs({index})", f"n*Abs({a})", f"n*{a}**2", f"n*{a}*{b}", "n**2", "n*(n + 1)/2",
        f"(n - 1)*n*(2*n - 1)/6 + {b} - {b}", "0"]))
    slack = draw(st.sampled_from(["0", "1000*n", "n"]))
    op = draw(st.sampled_from(["<=", ">=", "=="]))
    return (f"assume: n integer, n >= 0\nSum({summand}, ({index}, 1, n)) {op} "
            f"{outside} + {slack}")


def _true_at(claim, point) -> bool | None:
    try:
        if not all(_holds(r, point) for r in claim.assumptions):
            return None
        return all(_holds(g, point) for g in claim.goals)
    except (_Undefined, _Irrational):
        return None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sum_claims())
@example(FALSE[4]).via("finding 1")
@example(FALSE[5]).via("finding 2")
@example("assume: n integer, n >= 0\nSum(Abs(n - k), (k, 1, n)) <= n*Abs(n - k) + 1000*n")
@example("assume: n integer, n >= 0, t >= 0\nSum(t_*k, (k, 1, n)) == t_*n*(n + 1)/2 + 0*t")
def test_every_proved_generated_claim_is_true(text):
    claim = parse_claim(text)
    status, reason, _ = _prove(claim, vacuity=False)
    if status != "proved":
        return
    names = claim.symbols
    for n in (0, 1, 2, 5, 2001):
        for v in POINTS:
            point = {s: (Fraction(n) if s == "n" else v) for s in names}
            assert _true_at(claim, point) is not False, (text, point, reason)


def _contradiction(hyps):
    """A theorem whose checked line is 0 < 0: 1 + (x - 1) + (0 - x) = 0 from x >= 1, x <= 0."""
    certificate = kernel.Certificate((kernel.Term(1, ()), kernel.Term(1, ("a",)),
                                      kernel.Term(1, ("b",))))
    return kernel.Theorem("vacuous", "vacuous", (), (), hyps, (kernel.Fact(0, "<=", 0),),
                          kernel.Derivation((kernel.Chain("c", 0, (kernel.Link("<", 0,
                                                                               certificate),)),)))


def test_a_vacuous_verdict_rests_only_on_the_claims_assumptions():
    """A lying proposer slipping in 'x <= 0' would make a satisfiable claim vacuous."""
    x = sympy.Symbol("x", real=True)
    hyps = (kernel.Hyp("a", kernel.Fact(x, ">=", 1)), kernel.Hyp("b", kernel.Fact(x, "<=", 0)))
    contradictory, _ = elaborate(parse_claim("assume: x >= 1, x <= 0\nx >= 5"))
    assert kernel.check_vacuous(contradictory, _contradiction(hyps)).theorem.name == "vacuous"
    satisfiable, _ = elaborate(parse_claim("assume: x >= 1\nx >= 5"))
    with pytest.raises(kernel.DerivationError, match="not part of the claim"):
        kernel.check_vacuous(satisfiable, _contradiction(hyps))
