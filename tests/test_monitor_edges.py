"""The Novikoff monitor at its edges: runs that meet every bound with equality, the exact
generalised bound, the vector checks' schedule, and every way an update can be malformed.

These tests were written to kill the mutants that ``make mutation`` (tests/mutation_testing.py)
found surviving in verify/checks/monitor.py.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

import pla
from tests.strategies import separable_datasets, small_fractions
from verify.search.certificates import certify
from verify.checks.monitor import Monitor, ProofViolation

#: One point x = 1 with y = +1 and w_f = 1: rho = R^2 = ||w_f||^2 = 1, so the single update
#: meets every inequality of the proof with equality (and T = 1 = the bound).
TIGHT = pla.Dataset.from_rows([[1]], [1], bias=False)
TEXTBOOK = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
WSTAR = certify(TEXTBOOK).w


def _monitored(ds, options, wf, **kwargs):
    monitor = Monitor(ds, options, wf=wf, **kwargs)
    result = pla.run(ds, options=options, on_step=monitor)
    return result, monitor.finish(result)


@pytest.mark.parametrize("paranoid", [False, True])
def test_a_run_meeting_every_bound_with_equality_passes(paranoid):
    result, report = _monitored(TIGHT, pla.RunOptions(), [1], paranoid=paranoid)
    assert result.updates == 1 and result.halted
    assert (report.rho, report.R2, report.norm2, report.bound, report.bound_updates) == (1, 1, 1, 1, 1)
    assert report.gamma2 == 1 and report.classical_bound == 1 and report.classical


def test_the_same_run_as_a_generalised_check_has_bound_one():
    monitor = Monitor(TIGHT, pla.RunOptions(), wf=[1], classical=False)
    assert monitor.bound_updates == 1 and monitor.bound == 1
    result = pla.run(TIGHT, on_step=monitor)
    report = monitor.finish(result)
    assert not report.classical and report.bound == 1 and report.classical_bound == 1


def _allowed(T, wf_w0, w0_norm2, eta, rho, R2, wf_norm2):
    A = wf_w0 + T * eta * rho
    B = w0_norm2 + T * eta * eta * R2
    return A < 0 or A * A <= wf_norm2 * B


def _largest_allowed(monitor, w0, wf, eta):
    """The generalised bound by its definition: the largest T with A_T < 0 or A_T^2 <= ||w_f||^2 B_T."""
    values = (sum(a * b for a, b in zip(wf, w0)), sum(a * a for a in w0), eta, monitor.rho,
              monitor.R2, monitor.norm2)
    T = 0
    while _allowed(T + 1, *values):
        T += 1
    return T


@pytest.mark.parametrize("c, eta, bound", [
    (1, 1, 0), (Fraction(1, 4), 1, 0), (-3, 1, 7), (-1, 1, 3), (Fraction(-1, 2), 1, 2),
    (3, Fraction(1, 10), 0),     # the search's first estimate is negative here
    (Fraction(1, 2), Fraction(1, 10), 0),     # 0 < A_T < 1 for T < 5, yet none is allowed
])
def test_the_generalised_bound_is_the_largest_allowed_T(c, eta, bound):
    # x = 1, w_f = 1, w_0 = c: A_T = c + T eta, B_T = c^2 + T eta^2
    options = pla.RunOptions(w0=(c,), eta=eta)
    monitor = Monitor(TIGHT, options, wf=[1])
    assert monitor.bound_updates == bound == _largest_allowed(monitor, [c], [1], eta)
    assert monitor.bound == bound and not monitor.classical
    report = monitor.finish(pla.run(TIGHT, options=options, on_step=monitor))
    assert report.bound_updates == bound and report.updates <= bound


@settings(max_examples=30, deadline=None)
@given(separable_datasets(max_n=5, max_d=2), st.data())
def test_the_generalised_bound_matches_its_definition(ds, data):
    wf = list(certify(ds).w)
    w0 = data.draw(st.lists(small_fractions, min_size=ds.dim, max_size=ds.dim).filter(any))
    eta = data.draw(st.sampled_from([Fraction(1), Fraction(1, 2), Fraction(3)]))
    monitor = Monitor(ds, pla.RunOptions(w0=tuple(w0), eta=eta), wf=wf)
    assert monitor.bound_updates == _largest_allowed(monitor, w0, wf, eta)


def test_the_report_is_a_frozen_record():
    report = _monitored(TIGHT, pla.RunOptions(), [1])[1]
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.updates = 2


# ------------------------------------------------------------------------ the vectors' schedule


def _full_checks(check_every=None, paranoid=False):
    """Every comparison the monitor made (its running ``checks``, engine vectors included; the
    report counts only the proof's inequalities, :func:`inequalities_checked`)."""
    options = pla.RunOptions(order="first")
    kwargs = {} if check_every is None else {"check_every": check_every}
    monitor = Monitor(TEXTBOOK, options, wf=WSTAR, paranoid=paranoid, **kwargs)
    report = monitor.finish(pla.run(TEXTBOOK, options=options, on_step=monitor))
    assert report.checks == 7 * 9 + 4
    return monitor.checks


def test_the_engine_vectors_are_compared_every_check_every_updates():
    # 7 updates; 9 checks each, 3 more when the vectors are compared, 4 at the end
    assert _full_checks() == 7 * 9 + 1 * 3 + 4                  # t = 0 (default: every 256)
    assert _full_checks(check_every=3) == 7 * 9 + 3 * 3 + 4     # t = 0, 3, 6
    assert _full_checks(check_every=2) == 7 * 9 + 4 * 3 + 4     # t = 0, 2, 4, 6
    assert _full_checks(check_every=1) == _full_checks(check_every=0) == 7 * 12 + 4
    assert _full_checks(check_every=5, paranoid=True) == 7 * 12 + 4


@pytest.mark.parametrize("check_every, caught", [(3, True), (2, False), (0, True)])
def test_a_wrong_engine_w_t_is_caught_when_the_vectors_are_compared(check_every, caught):
    options = pla.RunOptions(order="first")
    steps = list(pla.run(TEXTBOOK, options=options).steps)
    steps[3] = dataclasses.replace(steps[3], w_before=(Fraction(1, 3),) + steps[3].w_before[1:])
    monitor = Monitor(TEXTBOOK, options, wf=WSTAR, check_every=check_every)
    if not caught:
        for step in steps:
            monitor(step)
        return
    with pytest.raises(ProofViolation) as violation:
        for step in steps:
            monitor(step)
    assert violation.value.step == 3 and violation.value.inequality == "w_t is the previous w_{t+1}"


def test_the_default_schedule_compares_the_vectors_at_update_256():
    ds = pla.Dataset.from_rows([[1], [-1]], [1, 1], bias=False)     # not separable: runs on
    options = pla.RunOptions(max_updates=300)
    steps = pla.run(ds, options=options).steps
    assert len(steps) == 300
    for at, caught in [(255, False), (256, True), (257, False)]:
        bad = list(steps)
        bad[at] = dataclasses.replace(bad[at], x=(Fraction(5),))
        monitor = Monitor(ds, options, wf=None)
        if caught:
            with pytest.raises(ProofViolation, match="x is row") as violation:
                for step in bad:
                    monitor(step)
            assert violation.value.step == at
        else:
            for step in bad:
                monitor(step)


# ------------------------------------------------------------------------ malformed updates


@pytest.mark.parametrize("index", [3, -1, 10])
def test_an_update_of_a_row_that_does_not_exist_is_a_violation(index):
    monitor = Monitor(TEXTBOOK, pla.RunOptions(), wf=WSTAR)
    with pytest.raises(ProofViolation) as violation:
        monitor.on_update(0, index, 1, Fraction(0))
    v = violation.value
    assert v.inequality == "the updated row exists" and v.step == 0 and v.lhs == index
    assert v.rhs == "[0, 3)"
    first = pla.run(TEXTBOOK, order="first").steps[0]
    with pytest.raises(ProofViolation, match="the updated row exists"):
        Monitor(TEXTBOOK, pla.RunOptions(), wf=WSTAR, paranoid=True)(
            dataclasses.replace(first, index=index))


def test_a_wrong_x_of_row_zero_is_caught():
    first = pla.run(TEXTBOOK, order="first").steps[0]
    assert first.index == 0
    with pytest.raises(ProofViolation, match="x is row 1 of the data"):
        Monitor(TEXTBOOK, pla.RunOptions(), wf=WSTAR)(
            dataclasses.replace(first, x=(Fraction(1), Fraction(3), Fraction(4))))


def test_a_halted_run_whose_final_w_still_errs_is_a_violation():
    options = pla.RunOptions(order="first", max_updates=3)
    monitor = Monitor(TEXTBOOK, options, wf=WSTAR)
    result = pla.run(TEXTBOOK, options=options, on_step=monitor)
    assert not result.halted
    with pytest.raises(ProofViolation) as violation:
        monitor.finish(dataclasses.replace(result, halted=True))
    assert violation.value.inequality == "halted: the final w makes no mistake"
    assert violation.value.step == "end" and str(violation.value).startswith("end of run: ")


def test_a_final_w_outside_the_monitor_grid_is_a_violation():
    options = pla.RunOptions(order="first")
    monitor = Monitor(TEXTBOOK, options, wf=WSTAR)
    result = pla.run(TEXTBOOK, options=options, on_step=monitor)
    odd = dataclasses.replace(result, w=(result.w[0] + Fraction(1, 7),) + result.w[1:])
    with pytest.raises(ProofViolation, match="the final w is the last w_"):
        monitor.finish(odd)


# ------------------------------------------------------------------------ the reference separator


def test_a_reference_separator_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="w_f has 2 entries, the examples 3"):
        Monitor(TEXTBOOK, pla.RunOptions(), wf=[1, 1])


def test_a_reference_separator_with_zero_margin_is_refused():
    # w_f = (-4, 1, 1): y w_f.x = 2, 3, 2 ... and (-6, 1, 1) gives 0 on row 1 (3 + 3 - 6)
    with pytest.raises(ProofViolation) as violation:
        Monitor(TEXTBOOK, pla.RunOptions(), wf=[-6, 1, 1])
    v = violation.value
    assert v.step is None and v.lhs == 0 and v.relation == ">" and v.rhs == 0
    assert "row 1 (1-based) has y w_f.x = 0" in str(v)


def test_claims_equal_to_the_true_constants_are_accepted():
    options = pla.RunOptions(order="first")
    report = _monitored(TEXTBOOK, options, WSTAR, rho=1, R2=26)[1]
    assert (report.rho, report.R2) == (1, 26)


def test_trusted_claims_weaker_than_the_truth_are_used_as_given():
    options = pla.RunOptions(order="first")
    report = _monitored(TEXTBOOK, options, WSTAR, rho=Fraction(1, 2), R2=30,
                        trust_constants=True)[1]
    assert (report.rho, report.R2) == (Fraction(1, 2), 30)
    assert report.bound == 30 * report.norm2 * 4 and report.updates == 7


def test_a_classical_check_of_a_run_from_a_bad_w0_names_the_cumulative_margin():
    # w_0 = -1/2 on x = 1, w_f = 1: one update to w_1 = 1/2; w_f.w_1 = 1/2 < 1 * eta * rho
    options = pla.RunOptions(w0=(Fraction(-1, 2),))
    monitor = Monitor(TIGHT, options, wf=[1], classical=True)
    with pytest.raises(ProofViolation) as violation:
        pla.run(TIGHT, options=options, on_step=monitor)
    v = violation.value
    assert v.inequality == "w_f.w_{t+1} >= (t+1)*eta*rho" and v.step == 0
    assert (v.lhs, v.rhs) == (Fraction(1, 2), 1)


@pytest.mark.parametrize("zero, y", [("correct", 1), ("correct", -1), ("positive", 1),
                                     ("negative", -1)])
def test_a_zero_score_update_that_the_convention_calls_correct_is_a_violation(zero, y):
    ds = pla.Dataset.from_rows([[1]], [y], bias=False)
    monitor = Monitor(ds, pla.RunOptions(zero=zero), wf=[y])
    with pytest.raises(ProofViolation) as violation:
        monitor.on_update(0, 0, y, Fraction(0))
    v = violation.value
    assert v.inequality == f"the update is a mistake under the {zero!r} convention"
    assert (v.step, v.lhs, v.rhs) == (0, "y w_t.x = 0", "a mistake")


def test_norm_violations_report_both_sides_exactly_with_a_fractional_eta():
    # x = 1, w_f = 1, eta = 1/2, R^2 claimed 1/16 (true: 1): ||w_1||^2 = 1/4
    options = pla.RunOptions(eta=Fraction(1, 2))
    monitor = Monitor(TIGHT, options, wf=[1], R2=Fraction(1, 16), trust_constants=True)
    with pytest.raises(ProofViolation) as violation:
        monitor.on_update(0, 0, 1, Fraction(0))
    v = violation.value
    assert v.inequality == "||w_{t+1}||^2 <= ||w_t||^2 + eta^2*R^2"
    assert (v.lhs, v.rhs) == (Fraction(1, 4), Fraction(1, 64))
    # from w_0 = (-1/4, 5) held to the classical form: ||w_1||^2 = 401/16 > 1 * eta^2 * R^2
    ds = pla.Dataset.from_rows([[1, 0]], [1], bias=False)
    options = pla.RunOptions(eta=Fraction(1, 2), w0=(Fraction(-1, 4), 5))
    monitor = Monitor(ds, options, wf=[1, 0], classical=True)
    with pytest.raises(ProofViolation) as violation:
        monitor.on_update(0, 0, 1, Fraction(-1, 4))
    v = violation.value
    assert v.inequality == "||w_{t+1}||^2 <= (t+1)*eta^2*R^2"
    assert (v.lhs, v.rhs) == (Fraction(401, 16), Fraction(1, 4))


def test_a_generalised_run_with_negative_A_and_positive_margin_passes():
    # w_0 = (-100, 1000), w_f = (1, 0): the one update (row 0) gives w_1 = (1, 1000):
    # w_f.w_1 = 1 >= 0 > A_1 = -99, and ||w_1||^2 = 1000001 is far above A_1^2 / ||w_f||^2
    ds = pla.Dataset.from_rows([[101, 0], [1, 0]], [1, 1], bias=False)
    options = pla.RunOptions(w0=(-100, 1000))
    result, report = _monitored(ds, options, [1, 0], paranoid=True)
    assert result.updates == 1 and result.halted and not report.classical
    assert report.rho == 1 and report.updates <= report.bound_updates


# ------------------------------------------------- every check on its own (failures collected)


class CollectingMonitor(Monitor):
    """A monitor that records each failed inequality and goes on, so that the checks that
    follow a failure run too (each check is then tested on its own, not masked by an earlier
    one: the cosine bound and the bound on t follow from the inequalities before them)."""

    def __init__(self, *args, **kwargs):
        self.failures = []
        super().__init__(*args, **kwargs)

    def _fail(self, name, t, lhs, relation, rhs, detail=""):
        self.failures.append((name, t, lhs, relation, rhs))


TWO = pla.Dataset.from_rows([[2]], [1], bias=False)     # x = 2, w_f = 1: rho = 2, R^2 = 4


def test_a_too_large_claimed_rho_fails_every_inequality_that_uses_it_classical():
    monitor = CollectingMonitor(TWO, pla.RunOptions(), wf=[1], rho=3, trust_constants=True)
    result = pla.run(TWO, on_step=monitor)
    monitor.finish(result)
    assert monitor.bound == Fraction(4, 9) and monitor.bound_updates == 0
    assert monitor.failures == [
        ("w_f.w_{t+1} >= w_f.w_t + eta*rho", 0, 2, ">=", 3),
        ("w_f.w_{t+1} >= (t+1)*eta*rho", 0, 2, ">=", 3),
        ("cosine bound (w_f.w_{t+1})^2 * R^2 >= (t+1)*rho^2*||w_{t+1}||^2", 0, 16, ">=", 36),
        ("generalised cosine bound (w_f.w_{t+1})^2 * B_{t+1} >= A_{t+1}^2 * ||w_{t+1}||^2", 0,
         16, ">=", 36),
        ("t+1 <= R^2*||w_f||^2/rho^2", 0, 1, "<=", Fraction(4, 9)),
        ("T <= R^2*||w_f||^2/rho^2", "end", 1, "<=", Fraction(4, 9)),
    ]


def test_a_too_large_claimed_rho_fails_every_inequality_that_uses_it_generalised():
    monitor = CollectingMonitor(TWO, pla.RunOptions(), wf=[1], rho=3, trust_constants=True,
                                classical=False)
    monitor.finish(pla.run(TWO, on_step=monitor))
    assert monitor.bound_updates == 0           # 9 T^2 <= 4 T only at T = 0
    bound = ("t+1 <= generalised bound (largest T with A_T < 0 or A_T^2 <= ||w_f||^2 B_T)", 0,
             1, "<=", 0)
    assert monitor.failures == [
        ("w_f.w_{t+1} >= w_f.w_t + eta*rho", 0, 2, ">=", 3),
        ("w_f.w_{t+1} >= w_f.w_0 + (t+1)*eta*rho", 0, 2, ">=", 3),
        ("generalised cosine bound (w_f.w_{t+1})^2 * B_{t+1} >= A_{t+1}^2 * ||w_{t+1}||^2", 0,
         16, ">=", 36),
        bound,
        ("T <= generalised bound", "end", 1, "<=", 0),
    ]


def test_the_cosine_bound_is_checked_when_w_f_w_t_is_zero():
    # w_0 = (-2, 1), x = (2, 0), w_f = (1, 0), rho claimed 3: w_1 = (0, 1), w_f.w_1 = 0 < A_1 = 1
    ds = pla.Dataset.from_rows([[2, 0]], [1], bias=False)
    monitor = CollectingMonitor(ds, pla.RunOptions(w0=(-2, 1)), wf=[1, 0], rho=3,
                                trust_constants=True)
    monitor.on_update(0, 0, 1, Fraction(-4))
    names = [failure[0] for failure in monitor.failures]
    assert "generalised cosine bound (w_f.w_{t+1})^2 * B_{t+1} >= A_{t+1}^2 * ||w_{t+1}||^2" \
        in names
    cosine = monitor.failures[names.index(
        "generalised cosine bound (w_f.w_{t+1})^2 * B_{t+1} >= A_{t+1}^2 * ||w_{t+1}||^2")]
    assert cosine[2:] == (0, ">=", 1)


def test_the_proof_hypothesis_is_checked_even_after_the_convention_check():
    # w_0 = 1 on x = 1: y w_0.x = 1 > 0 is no mistake, and breaks the proof's hypothesis
    monitor = CollectingMonitor(TIGHT, pla.RunOptions(w0=(1,)), wf=[1])
    monitor.on_update(0, 0, 1, Fraction(1))
    assert monitor.failures[:2] == [
        ("the update is a mistake under the 'mistake' convention", 0, "y w_t.x = 1", "is",
         "a mistake"),
        ("mistake hypothesis: y_n w_t.x_n <= 0", 0, 1, "<=", 0),
    ]


def test_a_corrupted_running_norm_breaks_the_norm_identity():
    # w_0 = -1 on x = 1: ||w_1||^2 = 0, but ||w_0||^2 is taken as 5 instead of 1
    monitor = Monitor(TIGHT, pla.RunOptions(w0=(-1,)), wf=[1])
    monitor.N = 5
    with pytest.raises(ProofViolation) as violation:
        monitor.on_update(0, 0, 1, Fraction(-1))
    v = violation.value
    assert v.inequality.startswith("identity ||w_{t+1}||^2 = ||w_t||^2 + 2*eta*y_n*w_t.x_n")
    assert (v.lhs, v.rhs) == (0, 4)               # 5 + 2*(-1) + 1


def test_a_corrupted_running_margin_is_caught_by_the_direct_product():
    first = pla.run(TEXTBOOK, order="first").steps[0]
    monitor = Monitor(TEXTBOOK, pla.RunOptions(order="first"), wf=WSTAR, paranoid=True)
    monitor.P += 1
    with pytest.raises(ProofViolation) as violation:
        monitor(first)
    v = violation.value
    assert v.inequality == "w_f.w_{t+1} = w_f.w_t + eta*y_n*w_f.x_n" and v.step == 0
    assert v.rhs - v.lhs == Fraction(1, monitor.Df * monitor.D)


# ------------------------------------------------------------------------ reports of violations
# (written for the semantic mutants of ``make mutation``: a check's relation tag, a call deleted)


def test_the_count_of_inequalities_with_and_without_w_f():
    from verify.checks.monitor import inequalities_checked

    assert inequalities_checked(3, False, False) == 3 * 5 + 2
    assert inequalities_checked(3, False, True) == 3 * 5 + 3
    assert inequalities_checked(3, True, True) == 3 * 9 + 4


def _first_step():
    return pla.run(TEXTBOOK, order="first").steps[0]


def _violation(action):
    with pytest.raises(ProofViolation) as caught:
        action()
    return caught.value


def _finished_monitor():
    options = pla.RunOptions(order="first")
    monitor = Monitor(TEXTBOOK, options, wf=WSTAR)
    return monitor, pla.run(TEXTBOOK, options=options, on_step=monitor)


@pytest.mark.parametrize("action, inequality, relation", [
    (lambda: Monitor(TEXTBOOK, pla.RunOptions(), wf=WSTAR).on_update(1, 0, 1, Fraction(0)),
     "updates are numbered 0, 1, 2, ...", "="),
    (lambda: Monitor(TEXTBOOK, pla.RunOptions(), wf=WSTAR).on_update(0, 0, -1, Fraction(0)),
     "the label of row 1 is y_n", "="),
    (lambda: Monitor(TEXTBOOK, pla.RunOptions(), wf=WSTAR).on_update(0, 0, 1, Fraction(5)),
     "the score is w_t.x_n", "="),
    (lambda: Monitor(TEXTBOOK, pla.RunOptions(), wf=WSTAR).on_update(0, "a", 1, Fraction(0)),
     "the updated row exists", "in"),
    (lambda: Monitor(TEXTBOOK, pla.RunOptions(), wf=WSTAR).on_update(0, 1.0, 1, Fraction(0)),
     "the updated row exists", "in"),
    (lambda: Monitor(TEXTBOOK, pla.RunOptions(), wf=WSTAR, paranoid=True)(
        dataclasses.replace(_first_step(), index="a")), "the updated row exists", "in"),
    (lambda: Monitor(TEXTBOOK, pla.RunOptions(), wf=WSTAR, paranoid=True)(
        dataclasses.replace(_first_step(), w_before=(Fraction(1),) * 3)),
     "w_t is the previous w_{t+1}", "="),
    (lambda: Monitor(TEXTBOOK, pla.RunOptions(), wf=WSTAR, paranoid=True)(
        dataclasses.replace(_first_step(), x=(Fraction(1), Fraction(3), Fraction(4)))),
     "x is row 1 of the data", "="),
    (lambda: Monitor(TEXTBOOK, pla.RunOptions(), wf=WSTAR, paranoid=True)(
        dataclasses.replace(_first_step(), w_after=(Fraction(7),) * 3)),
     "update rule: w_{t+1} = w_t + eta*y_n*x_n", "="),
])
def test_each_malformed_update_names_its_check_and_relation(action, inequality, relation):
    v = _violation(action)
    assert (v.inequality, v.relation) == (inequality, relation)


def test_the_end_of_a_run_names_its_check_and_relation():
    monitor, result = _finished_monitor()
    v = _violation(lambda: monitor.finish(dataclasses.replace(result, updates=result.updates + 1)))
    assert (v.inequality, v.relation, v.lhs, v.rhs) == (
        "the number of updates T is the number of checked updates", "=", result.updates + 1,
        result.updates)
    w = (result.w[0] + 1,) + result.w[1:]
    v = _violation(lambda: monitor.finish(dataclasses.replace(result, w=w)))
    assert (v.inequality, v.relation) == ("the final w is the last w_{t+1}", "=")


def test_the_kept_norm_and_margin_are_recomputed_at_the_end():
    monitor, result = _finished_monitor()
    monitor.N += 1
    v = _violation(lambda: monitor.finish(result))
    assert v.inequality == "||w_T||^2 recomputed = ||w_T||^2 kept" and v.step == "end"
    monitor, result = _finished_monitor()
    monitor.P += 1
    v = _violation(lambda: monitor.finish(result))
    assert v.inequality == "w_f.w_T recomputed = w_f.w_T kept" and v.step == "end"


def test_without_w_f_an_update_of_a_correctly_classified_row_is_still_a_violation():
    first = _first_step()
    monitor = Monitor(TEXTBOOK, pla.RunOptions(), wf=None)
    monitor.on_update(0, first.index, first.y, first.score)
    score = sum(a * b for a, b in zip(first.w_after, first.x))       # y w_1.x > 0: correct
    assert first.y * score > 0
    v = _violation(lambda: monitor.on_update(1, first.index, first.y, score))
    assert v.inequality == "the update is a mistake under the 'mistake' convention"
    assert v.step == 1


def test_a_halted_run_that_still_errs_names_the_first_row_it_gets_wrong():
    options = pla.RunOptions(order="first", max_updates=3)
    monitor = Monitor(TEXTBOOK, options, wf=WSTAR)
    result = pla.run(TEXTBOOK, options=options, on_step=monitor)
    wrong = [n for n, (x, y) in enumerate(zip(TEXTBOOK.X, TEXTBOOK.labels))
             if y * sum(a * b for a, b in zip(result.w, x)) <= 0]
    right = [n for n in range(TEXTBOOK.n) if n not in wrong]
    assert wrong and right                                  # both kinds: the report must choose
    v = _violation(lambda: monitor.finish(dataclasses.replace(result, halted=True)))
    assert (v.lhs, v.relation, v.rhs) == (f"row {wrong[0] + 1} (1-based)", "is", "correct")
