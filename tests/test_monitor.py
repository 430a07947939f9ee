"""The Novikoff monitor: silent on honest runs, and it catches every kind of violation."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

import pla
from tests.strategies import etas, run_orders, separable_datasets, small_fractions, zeros
from verify.search.certificates import certify
from verify.checks.checked_run import checked_run
from verify.checks.monitor import inequalities_checked, Monitor, ProofViolation

TEXTBOOK = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
WSTAR = certify(TEXTBOOK)


def astuple_run(checked):
    """(result, report) of a :class:`verify.CheckedRun`."""
    return checked.result, checked.report


def _steps(ds, **options):
    return pla.run(ds, **options).steps


@settings(max_examples=30, deadline=None)
@given(separable_datasets(max_n=7, max_d=2), run_orders, etas, zeros, st.integers(0, 50),
       st.booleans(), st.data())
def test_honest_runs_pass_every_check(ds, order, eta, zero, seed, paranoid, data):
    """Every order, eta, sign(0) convention and w0 (generalised bound) passes, both hooks."""
    w0 = data.draw(st.none() | st.lists(small_fractions, min_size=ds.dim, max_size=ds.dim))
    options = pla.RunOptions(order=order, seed=seed, eta=eta, zero=zero, w0=w0,
                             max_updates=5000)
    result, report = astuple_run(checked_run(ds, options=options, paranoid=paranoid))
    assert report.violations == 0 and report.updates == result.updates
    assert report.checks >= 8 * result.updates
    assert result.updates <= report.bound_updates
    assert report.classical == (w0 is None or not any(w0))
    if report.classical:
        assert report.bound == report.R2 * report.norm2 / report.rho**2


def test_report_constants_and_check_count():
    result, report = astuple_run(checked_run(TEXTBOOK, order="first"))
    assert result.updates == 7
    assert (report.rho, report.R2, report.norm2, report.bound) == (1, 26, Fraction(9, 2), 117)
    assert report.gamma2 == Fraction(2, 9) and report.bound_updates == 117
    # per update: score, mistake, identity, 2 norm, 2 w_f inequalities, cosine, bound; at the
    # end T, the final w, no mistake left and T <= bound (inequalities_checked, shared with
    # pla audit); the engine-comparison checkpoints are not counted
    assert report.checks == 7 * 9 + 4 == inequalities_checked(7, True, True)


def test_wf_that_is_not_a_separator_is_caught_before_the_run():
    with pytest.raises(ProofViolation) as caught:
        Monitor(TEXTBOOK, pla.RunOptions(), wf=[1, 1, 1])
    v = caught.value
    assert v.step is None and "separator" in v.inequality and v.lhs == -3 and v.rhs == 0


def _corrupt(step, **changes):
    return dataclasses.replace(step, **changes)


@pytest.mark.parametrize("corruption, name", [
    (lambda s: _corrupt(s, score=s.score + 1), "score"),
    (lambda s: _corrupt(s, w_after=(s.w_after[0] + 1,) + s.w_after[1:]), "update rule"),
    (lambda s: _corrupt(s, index=(s.index + 1) % 3, x=TEXTBOOK.X[(s.index + 1) % 3],
                        y=TEXTBOOK.labels[(s.index + 1) % 3]), ""),
    (lambda s: _corrupt(s, y=-s.y), "label"),
    (lambda s: _corrupt(s, t=s.t + 1), "numbered"),
    (lambda s: _corrupt(s, x=tuple(v + 1 for v in s.x)), "row"),
])
@pytest.mark.parametrize("at", [0, 3, 6])
def test_a_corrupted_step_is_caught_at_that_step(corruption, name, at):
    steps = list(_steps(TEXTBOOK, order="first"))
    steps[at] = corruption(steps[at])
    monitor = Monitor(TEXTBOOK, pla.RunOptions(order="first"), wf=WSTAR.w, paranoid=True)
    with pytest.raises(ProofViolation) as caught:
        for step in steps:
            monitor(step)
    assert caught.value.step == at and name in caught.value.inequality


def test_a_step_that_is_not_a_mistake_is_caught():
    ds = pla.Dataset.from_rows([[1], [-1]], [1, -1], bias=False)
    monitor = Monitor(ds, pla.RunOptions(), wf=[1])
    with pytest.raises(ProofViolation) as caught:
        monitor.on_update(0, 0, 1, Fraction(0))       # honest: score 0 is a mistake
        monitor.on_update(1, 0, 1, Fraction(1))       # w_1 = (1): y w.x = 1 > 0, no mistake
    assert caught.value.step == 1 and "mistake" in caught.value.inequality


def test_zero_correct_convention_names_its_hypothesis():
    ds = pla.Dataset.from_rows([[1, 2], [-1, -1]], [1, -1])
    result, report = astuple_run(checked_run(ds, zero="correct", w0=(0, 1, 0)))
    assert "y w_t.x < 0" in report.hypothesis
    assert checked_run(ds).report.hypothesis.startswith("every update had y w_t.x <= 0")


def test_run_from_nonzero_w0_held_to_the_classical_bound_fails():
    ds = pla.Dataset.from_rows([[1, 0], [0, 1]], [1, 1], bias=False)
    options = pla.RunOptions(w0=(-10, -10))
    steps = _steps(ds, options=options)
    honest = Monitor(ds, options, wf=[1, 1])          # generalised forms: fine
    for step in steps:
        honest(step)
    report = honest.finish(pla.run(ds, options=options))
    assert not report.classical and report.classical_bound == 2 and report.updates > 2
    assert report.updates <= report.bound_updates
    classical = Monitor(ds, options, wf=[1, 1], classical=True)
    with pytest.raises(ProofViolation) as caught:
        for step in steps:
            classical(step)
    v = caught.value
    assert v.step == 0 and v.inequality == "||w_{t+1}||^2 <= (t+1)*eta^2*R^2"
    assert (v.lhs, v.rhs) == (181, 1)        # ||(-9, -10)||^2 = 181 > 1 * R^2


def test_wrong_rho_or_R2_claim_is_caught():
    with pytest.raises(ProofViolation, match="rho = min"):
        Monitor(TEXTBOOK, pla.RunOptions(), wf=WSTAR.w, rho=2)
    with pytest.raises(ProofViolation, match="R\\^2 = max"):
        Monitor(TEXTBOOK, pla.RunOptions(), wf=WSTAR.w, R2=25)
    # taken on trust, the inequalities themselves go red at the first update
    steps = _steps(TEXTBOOK, order="first")
    big_rho = Monitor(TEXTBOOK, pla.RunOptions(order="first"), wf=WSTAR.w, rho=100,
                      trust_constants=True)
    with pytest.raises(ProofViolation) as caught:
        big_rho(steps[0])
    v = caught.value
    assert v.inequality == "w_f.w_{t+1} >= w_f.w_t + eta*rho" and v.step == 0
    assert isinstance(v.lhs, Fraction) and v.rhs == 100 and v.lhs < v.rhs
    small_R2 = Monitor(TEXTBOOK, pla.RunOptions(order="first"), wf=WSTAR.w, R2=1,
                       trust_constants=True)
    with pytest.raises(ProofViolation) as caught:
        small_R2(steps[0])
    assert caught.value.inequality == "||w_{t+1}||^2 <= ||w_t||^2 + eta^2*R^2"
    assert (caught.value.lhs, caught.value.rhs) == (19, 1)   # ||x_1||^2 = 1 + 9 + 9


def test_violation_message_is_one_line_with_exact_sides():
    v = ProofViolation("t+1 <= R^2*||w_f||^2/rho^2", 4, 5, "<=", Fraction(9, 2))
    assert str(v) == "update t=4: t+1 <= R^2*||w_f||^2/rho^2 fails: 5 <= 9/2 is false"
    assert "\n" not in str(v)


def test_end_of_run_checks():
    options = pla.RunOptions(order="first")
    monitor = Monitor(TEXTBOOK, options, wf=WSTAR.w)
    result = pla.run(TEXTBOOK, options=options, on_update=monitor.on_update)
    with pytest.raises(ProofViolation, match="final w"):
        Monitor.finish(monitor, dataclasses.replace(result, w=(0, 0, 1)))
    with pytest.raises(ProofViolation, match="number of updates"):
        monitor.finish(dataclasses.replace(result, updates=8))


def test_non_separable_data_check_the_wf_free_inequalities():
    xor = pla.Dataset.from_rows([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1])
    result, report = astuple_run(checked_run(xor, max_updates=30))
    assert not result.halted and report.wf is None and report.bound is None
    assert report.checks >= 5 * 30 and "not linearly separable" in report.wf_kind


def test_on_update_and_on_step_hooks_agree():
    rows = [[Fraction(i, 7), Fraction(i * i % 5, 3)] for i in range(-6, 7)]
    labels = [1 if 2 * r[0] - r[1] + Fraction(1, 5) > 0 else -1 for r in rows]
    ds = pla.Dataset.from_rows(rows, labels)
    options = pla.RunOptions(eta=Fraction(2, 3))
    fast = checked_run(ds, options=options).report
    slow = checked_run(ds, options=options, paranoid=True).report
    assert (fast.updates, fast.bound, fast.rho) == (slow.updates, slow.bound, slow.rho)
    # One definition of the count (issue 15): the proof's inequalities, not the engine
    # comparisons that --paranoid adds, so both hooks report the same number.
    from verify.checks.monitor import inequalities_checked
    assert slow.checks == fast.checks == inequalities_checked(fast.updates, True, True)
