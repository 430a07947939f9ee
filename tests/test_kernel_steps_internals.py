"""Internals of the trusted per-update checks (verify/kernel/steps.py) and of the monitor's int64
carrier (verify/checks/monitor.py) at their exact boundaries.

Each test names the contract it pins: constants that must be refused exactly at zero (and
those of a claimed ρ <= 0 or R² < 0, by the kernel and by the monitor before the run), the
frozen constants, the relation a violation records, the refusal of a final count without w_f,
the squared cosine bound only where both of its bases are nonnegative, and
:func:`generalised_bound` (a pure function of its arguments, R² < 0 included) against a
brute-force maximum over T with exact Fractions.  For the carrier: the degenerate shapes it
must decline, and all-zero rows (the largest entry is 0), where it must still work and agree
with Python integers.
"""

from __future__ import annotations

import dataclasses
import signal
from fractions import Fraction
from math import ceil

import numpy as np
import pytest
from hypothesis import assume, example, given, settings, strategies as st

import pla
from verify.checks.monitor import Monitor, _int64_carrier
from verify.kernel import steps
from verify.kernel.errors import KernelError
from verify.kernel.steps import ProofViolation, StepConstants, check_update

BASE = dict(k=1, e=1, c3=4, N0=0, classical=True, zero="mistake", D=1, L=1)
WITH_WF = dict(b=1, c1=1, P0=0, bound_updates=100, Df=1)


def names(constants, **values):
    """The inequalities that update ``values`` fails (every one: the kernel goes on with fail)."""
    found: list[ProofViolation] = []
    check_update(constants, fail=found.append, **values)
    return [v.inequality for v in found]


# ------------------------------------------------------------------------------ StepConstants
def test_step_constants_are_frozen():
    """Validated constants cannot be changed afterwards (e.g. a larger bound on T slipped in
    after __post_init__ accepted the set)."""
    c = StepConstants(**BASE, **WITH_WF)
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.bound_updates = 10**9          # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.c3 = 10**9                     # type: ignore[misc]
    assert c.bound_updates == 100 and c.c3 == 4


@pytest.mark.parametrize("Df", [0, -1])
def test_a_nonpositive_wf_denominator_is_refused(Df):
    """Df is a denominator of w_f = F/Df: it must be positive -- refused at Df == 0 exactly
    (where b is a valid 1), as b == 0 is."""
    with pytest.raises(KernelError, match="b and Df must be positive"):
        StepConstants(**BASE, **(WITH_WF | dict(Df=Df)))
    with pytest.raises(KernelError, match="b and Df must be positive"):
        StepConstants(**BASE, **(WITH_WF | dict(b=0)))
    StepConstants(**BASE, **WITH_WF)     # b = Df = 1: accepted


# --------------------------------------------------------------------------- cosine bound
def test_the_squared_cosine_bound_is_not_applied_to_a_negative_wf_w():
    """The cosine bound is decided in squared form only where both bases are >= 0: with
    P' = F.W' < 0 the squared form would compare |P'| instead of P' (the failure is the margin
    inequalities', which are reported).  The same numbers with P' > 0 do fail the cosine bound,
    so the squared form would have fired."""
    c = StepConstants(**BASE, **WITH_WF)
    update = dict(t=0, y=1, S=-5, q=1, N=25, N1=16, P=0)      # N1 = N + 2yS + q
    negative = names(c, **update, m=-1, P1=-1)
    assert negative == ["||w_{t+1}||^2 <= (t+1)*eta^2*R^2",
                        "w_f.w_{t+1} >= w_f.w_t + eta*rho",
                        "w_f.w_{t+1} >= (t+1)*eta*rho"]
    positive = names(c, **update, m=1, P1=1)
    assert [n for n in positive if "cosine" in n] == [
        "cosine bound (w_f.w_{t+1})^2 * R^2 >= (t+1)*rho^2*||w_{t+1}||^2",
        "generalised cosine bound (w_f.w_{t+1})^2 * B_{t+1} >= A_{t+1}^2 * ||w_{t+1}||^2"]


@pytest.mark.parametrize("change, message", [
    (dict(c3=-1), "c3 and N0 must be >= 0"), (dict(N0=-1), "c3 and N0 must be >= 0"),
    (dict(c1=0), "rho <= 0"), (dict(c1=-3), "rho <= 0")])
def test_constants_of_a_negative_R2_or_a_nonpositive_rho_are_refused(change, message):
    """A claimed R^2 < 0 (c3 = k^2 L^2 numerator(R^2)) or rho <= 0 (c1 = k L numerator(rho) Df),
    used as given under ``trust_constants``, would make the inequalities vacuous (w_f.w_t >= t rho
    holds for every run when rho < 0) or the cosine bound's B_t negative: refused before any
    update is checked.  (N0 = ||W_0||^2 is a sum of squares: never negative.)"""
    with pytest.raises(KernelError, match=message):
        StepConstants(**(BASE | WITH_WF | change))
    StepConstants(**(BASE | WITH_WF | dict(c3=0, N0=0)))      # R^2 = 0, w_0 = 0: accepted


# ------------------------------------------------------------------- check_equal / final count
def test_check_equal_records_an_equality():
    """A failed equality is recorded as ``lhs = rhs`` (relation "="), both exact."""
    with pytest.raises(ProofViolation) as error:
        steps.check_equal("||w_t||^2 recomputed", 4, 5, 6, 2)
    v = error.value
    assert (v.inequality, v.step, v.lhs, v.relation, v.rhs) == (
        "||w_t||^2 recomputed", 4, Fraction(5, 2), "=", 3)
    assert str(v) == "update t=4: ||w_t||^2 recomputed fails: 5/2 = 3 is false"


def test_check_final_count_needs_a_run_with_wf():
    """Without w_f there is no bound on T: asking for the final count is a KernelError (not a
    silent pass, not a TypeError)."""
    c = StepConstants(**BASE)
    for T in (0, 1, 10**6):
        with pytest.raises(KernelError, match="needs a run with w_f"):
            steps.check_final_count(c, T)
        with pytest.raises(KernelError, match="needs a run with w_f"):
            steps.check_final_count(c, T, fail=lambda v: None)


# --------------------------------------------------------------------------- generalised bound
ONE = Fraction(1)


@pytest.mark.parametrize("rho, eta", [(0, 1), (1, 0), (0, 0), (Fraction(0, 7), Fraction(1, 3)),
                                      (Fraction(1, 3), Fraction(0, 5)),
                                      (-1, 1), (1, -1), (Fraction(-1, 2), Fraction(-1, 2))])
def test_the_generalised_bound_refuses_a_nonpositive_rho_or_eta(rho, eta):
    """rho > 0 and eta > 0 are the bound's hypotheses: 0 (exactly) and negatives are refused
    with a KernelError before any arithmetic (accepted, 0 divides by zero and a negative one
    makes every large T allowed, so the doubling search would never end: the alarm ends it)."""
    def on_alarm(signum, frame):
        raise TimeoutError("generalised_bound did not refuse at once: it searched instead")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, 5.0)     # an accepted rho <= 0 or eta <= 0 can loop
    try:
        with pytest.raises(KernelError, match="needs rho > 0 and eta > 0"):
            steps.generalised_bound(Fraction(0), Fraction(0), Fraction(eta), Fraction(rho),
                                    Fraction(1), Fraction(1))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _allowed(wf_w0, w0_norm2, eta, rho, R2, wf_norm2, T):
    A = wf_w0 + T * eta * rho
    return A < 0 or A * A <= wf_norm2 * (w0_norm2 + T * eta * eta * R2)


def _brute_force(wf_w0, w0_norm2, eta, rho, R2, wf_norm2, cap):
    return max(T for T in range(cap + 1)
               if _allowed(wf_w0, w0_norm2, eta, rho, R2, wf_norm2, T))


def test_a_negative_claimed_R2_ends_the_bound_where_A_reaches_zero():
    """w_0 = -5, w_f = 1, eta = rho = 1 and a claimed R^2 = -10: A_T = T - 5 < 0 allows
    T = 0..4 (although A_T^2 > ||w_f||^2 B_T = 25 - 10T there from T = 1), and at T = 5,
    A_5 = 0 but B_5 = -25 < 0: not allowed.  The largest allowed T is 4."""
    args = (Fraction(-5), Fraction(25), ONE, ONE, Fraction(-10), ONE)
    assert [_allowed(*args, T) for T in range(7)] == [True] * 5 + [False] * 2
    assert steps.generalised_bound(*args) == 4 == _brute_force(*args, 50)


vectors = st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=1, max_size=3)
positive = st.builds(Fraction, st.integers(1, 4), st.integers(1, 3))


@settings(max_examples=150, deadline=None)
@given(vectors, st.integers(1, 3), st.integers(1, 2), positive, positive,
       st.builds(Fraction, st.integers(-8, 12), st.integers(1, 2)))
@example([(-5, 1)], 1, 1, ONE, ONE, Fraction(-10))
@example([(-3, 2)], 1, 1, Fraction(1, 2), Fraction(3, 2), Fraction(-1, 2))
@example([(0, 3)], 1, 1, ONE, ONE, Fraction(0))
def test_the_generalised_bound_is_the_brute_force_maximum(pairs, den0, denf, eta, rho, R2):
    """generalised_bound = max{T >= 0 : A_T < 0 or A_T^2 <= ||w_f||^2 B_T}, computed by trying
    every T up to a cap past which no T is allowed, for w_0, w_f real vectors (so Cauchy-Schwarz
    holds), eta != 1, rho != 1, w_f.w_0 of either sign and any claimed R^2, negative included."""
    w0 = [Fraction(a, den0) for a, _ in pairs]
    wf = [Fraction(b, denf) for _, b in pairs]
    wf_w0 = sum(a * b for a, b in zip(wf, w0))
    w0_norm2 = sum(a * a for a in w0)
    wf_norm2 = sum(b * b for b in wf)
    # A_T^2 - ||w_f||^2 B_T = qa T^2 + qb T + qc > 0 for T > (|qb| + |qc|) / qa, T >= 1, and
    # A_T >= 0 for T >= -wf_w0 / (eta rho): no T above the cap is allowed
    qa = eta * eta * rho * rho
    qb = 2 * eta * rho * wf_w0 - wf_norm2 * eta * eta * R2
    qc = wf_w0 * wf_w0 - wf_norm2 * w0_norm2
    cap = ceil((abs(qb) + abs(qc)) / qa + abs(wf_w0) / (eta * rho)) + 2
    assume(cap <= 600)
    args = (wf_w0, w0_norm2, eta, rho, R2, wf_norm2)
    assert steps.generalised_bound(*args) == _brute_force(*args, cap)


# ---------------------------------------------------------------------------- int64 carrier
def test_the_carrier_declines_degenerate_shapes():
    """No rows, rows of no entries, or rows that are not a matrix (a 3-d array): never in int64,
    i.e. exactly (None, 0) -- a count > 0 would send the monitor to a matrix that is not there."""
    assert _int64_carrier((), [], 1) == (None, 0)
    assert _int64_carrier([], [0, 0], 3) == (None, 0)
    assert _int64_carrier(((),), [], 1) == (None, 0)
    assert _int64_carrier(((), ()), [], 2) == (None, 0)
    cube = np.arange(8, dtype=np.int64).reshape(2, 2, 2)
    assert _int64_carrier(cube, [0, 0], 1) == (None, 0)
    assert _int64_carrier([[[1], [2]], [[3], [4]]], [0, 0], 1) == (None, 0)


def test_the_carrier_takes_all_zero_rows():
    """All-zero rows (largest entry 0): w_t never moves, so the carrier is exact for as long as
    the bound allows with entries of size 1; the monitor works on such data and reaches the
    report of a monitor in Python integers."""
    matrix, room = _int64_carrier(((0, 0), (0, 0)), [3, -5], 2)
    assert matrix.tolist() == [[0, 0], [0, 0]] and room == (2**62 // 2 - 5) // 2
    ds = pla.Dataset.from_rows([[0, 0], [0, 0], [0, 0]], [1, -1, 1], bias=False)
    for w0 in (None, (7, -2**40)):
        options = pla.RunOptions(max_updates=9, w0=w0)
        reports = []
        for carrier in (True, False):
            monitor = Monitor(ds, options)
            assert (monitor._int64_updates > 0) is True
            if not carrier:
                monitor._int64_updates = 0
            result = pla.run(ds, options=options, keep_steps=False, on_update=monitor.on_update)
            assert result.updates == 9 and not result.halted
            reports.append((monitor.finish(result), monitor.weights(), monitor.N))
        assert reports[0] == reports[1]
        assert reports[0][1] == list(w0 or (0, 0))


@pytest.mark.parametrize("claims, inequality, claimed, relation", [
    (dict(rho=0), "rho > 0", 0, ">"), (dict(rho=-1), "rho > 0", -1, ">"),
    (dict(rho=Fraction(-1, 2)), "rho > 0", Fraction(-1, 2), ">"),
    (dict(R2=-1), "R^2 >= 0", -1, ">="), (dict(R2=Fraction(-1, 3), rho=1), "R^2 >= 0",
                                          Fraction(-1, 3), ">=")])
@pytest.mark.parametrize("classical", [True, False])
def test_a_trusted_claim_of_rho_at_most_0_or_R2_below_0_is_refused_before_the_run(
        claims, inequality, claimed, relation, classical):
    """Under ``trust_constants`` a claimed rho or R^2 is used as given so that the inequalities
    catch a wrong claim; rho <= 0 would make them vacuous (and rho = 0 divided by zero in the
    classical bound), R^2 < 0 is no squared radius: a ProofViolation before the run names it."""
    data = pla.Dataset.from_rows([[2]], [1], bias=False)
    with pytest.raises(ProofViolation, match=r"before the run: " + inequality.replace("^", r"\^")) \
            as error:
        Monitor(data, pla.RunOptions(), wf=[1], trust_constants=True, classical=classical,
                **claims)
    v = error.value
    assert (v.inequality, v.step, v.lhs, v.relation, v.rhs) == (
        inequality, None, claimed, relation, 0)
    Monitor(data, pla.RunOptions(), wf=[1], rho=1, R2=1, trust_constants=True,
            classical=classical)                        # wrong but positive claims: run-checked


class _Int(int):
    """An int subclass: its comparisons could lie, so the kernel refuses it."""


def _fraction_holding(part: str) -> Fraction:
    value = Fraction(7, 2)
    setattr(value, part, _Int(getattr(value, part)))    # behind the constructor's back
    return value


@pytest.mark.parametrize("change", [
    dict(c3=None), dict(N0=None), dict(k=None), dict(c1=1.0), dict(bound_updates=_Int(100)),
    dict(P0=float("nan")), dict(Df=True)],
    ids=["c3-none", "N0-none", "k-none", "c1-float", "bound-int-subclass", "P0-nan", "Df-bool"])
def test_every_constant_must_be_exactly_an_int(change):
    """Only b, c1, P0, bound_updates and Df may be None (all together: no w_f); every other
    value of every field must be exactly an int."""
    with pytest.raises(KernelError, match="must be an int"):
        StepConstants(**(BASE | WITH_WF | change))
    StepConstants(**BASE)                                 # no w_f: the five are None together


@pytest.mark.parametrize("bound", [Fraction(201, 2) + 0.0, "201/2", _fraction_holding("_numerator"),
                                   _fraction_holding("_denominator")],
                         ids=["float", "string", "int-subclass-numerator",
                              "int-subclass-denominator"])
def test_the_exact_bound_must_be_a_fraction_of_ints(bound):
    with pytest.raises(KernelError, match="bound must be a Fraction"):
        StepConstants(**(BASE | WITH_WF | dict(bound=bound)))
    assert StepConstants(**(BASE | WITH_WF | dict(bound=Fraction(201, 2)))).bound_updates == 100
