"""The one-pass set-up of `pla run --check` with the near-max-margin w_f (issue 29, part 3):
`prepare_monitor` takes only w and α from the floats and the monitor's own kernel facts decide
(w_f = w/ρ from its margins, R² from its norms, one sparse dual bound).  It must give exactly
what the reference path gives: the kernel-checked `near_max_margin` record handed to the
monitor (`separator=`), or w* when that record does not prove the integer bound: the same
report, the same JSON, and on a corrupted run the same violation at the same update.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pla
from pla.generate import separable_data
from tests.strategies import run_options, separable_datasets
from tests.test_attacks_deferred_monitor import update_hook
from verify.checks import checked_run
from verify.checks.monitor import Monitor, ProofViolation
from verify.search.certificates import certify, near_max_margin


def reference_separator(ds):
    """``reference_separator`` of large data before issue 29: the checked record, else w*."""
    near = near_max_margin(ds)
    return near if near is not None and near.tightest_updates is not None else certify(ds)


def as_file_dataset(ds):
    """The same data as a file gives them: the int64 matrix only (no tuple of rows built)."""
    return pla.Dataset.from_int64_matrix(np.array(ds.rows, dtype=np.int64), ds.scale,
                                         np.array(ds.labels), bias=False)


def run_both(ds, options, corrupt_at=None):
    """(report or violation) of the fast and of the reference set-up, on the same updates."""
    updates = []
    result = pla.run(ds, options=options, keep_steps=False,
                     on_update=lambda *a: updates.append(a))
    outcomes = []
    for separator in (None, reference_separator(ds)):
        monitor = checked_run.prepare_monitor(ds, options, separator=separator)
        try:
            for t, n, y, score in updates:
                monitor.on_update(t, n, y, score + (Fraction(1, 3) if t == corrupt_at else 0))
            report = monitor.finish(result)
        except ProofViolation as violation:
            outcomes.append(("violation", violation.inequality, violation.step, violation.lhs,
                             violation.relation, violation.rhs, str(violation)))
            continue
        outcomes.append(("report", checked_run.report_json(report),
                         checked_run.report_lines(report), monitor.F and
                         [Fraction(f, monitor.Df) for f in monitor.F]))
    return outcomes


@settings(max_examples=40, deadline=None)
@given(separable_datasets(max_n=8, max_d=3), st.data())
def test_the_one_pass_set_up_is_the_reference(ds, data):
    options = data.draw(run_options(ds.dim, max_updates=40))
    as_file = data.draw(st.booleans())
    corrupt_at = data.draw(st.one_of(st.none(), st.integers(0, 5)))
    ds = as_file_dataset(ds) if as_file else ds
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
        fast, reference = run_both(ds, options, corrupt_at)
    assert fast == reference


@pytest.mark.parametrize("n, d, margin, seed, scale", [
    (60, 3, "1/50", 3, 1), (80, 5, "1/20", 4, 1), (60, 3, "1/50", 3, 1000), (120, 8, "1/30", 5, 7),
])
def test_the_one_pass_set_up_uses_the_near_w_and_is_the_reference(monkeypatch, n, d, margin,
                                                                   seed, scale):
    rows, labels = separable_data(n, d, margin, seed=seed)
    ds = pla.Dataset.from_rows([[Fraction(v, scale) for v in row] for row in rows], labels)
    monkeypatch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
    for data in (ds, as_file_dataset(ds)):
        monitor = checked_run.prepare_monitor(data, pla.RunOptions())
        assert monitor.wf_kind.startswith("near-max-margin") and monitor.rho == 1
        for corrupt_at in (None, 0, 3):
            fast, reference = run_both(data, pla.RunOptions(), corrupt_at)
            assert fast == reference


@settings(max_examples=40, deadline=None)
@given(separable_datasets(max_n=8, max_d=3), st.data())
def test_a_unit_margin_monitor_is_the_monitor_of_w_over_rho(ds, data):
    options = data.draw(run_options(ds.dim, max_updates=40))
    w = certify(ds, method="lp").w
    stretch = data.draw(st.sampled_from([Fraction(1), Fraction(3, 7), Fraction(2**70, 3)]))
    w = tuple(v * stretch for v in w)
    scaled = Monitor(ds, options, w, unit_margin=True)
    rho = min(y * sum(a * b for a, b in zip(w, x)) for x, y in zip(ds.X, ds.labels))
    plain = Monitor(ds, options, tuple(v / rho for v in w))
    assert scaled.wf == plain.wf and scaled.rho == plain.rho == 1
    result = pla.run(ds, options=options, keep_steps=False, on_update=scaled.on_update)
    pla.run(ds, options=options, keep_steps=False, on_update=plain.on_update)
    assert scaled.finish(result) == plain.finish(result)


def test_a_unit_margin_monitor_refuses_a_w_that_does_not_separate():
    ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    with pytest.raises(ProofViolation, match="w_f is a separator"):
        Monitor(ds, pla.RunOptions(), [3, -1, -1], unit_margin=True)


# --- the deferred hook: updates checked in blocks, the same verdicts ----------------------------
def replay(monitor, hook, updates, result, corrupt_at):
    try:
        for t, n, y, score in updates:
            hook(monitor)(t, n, y, score + (Fraction(1, 3) if t == corrupt_at else 0))
        return "report", monitor.finish(result), monitor.checks
    except ProofViolation as violation:
        return "violation", str(violation), violation.step, monitor.t


@settings(max_examples=40, deadline=None)
@given(separable_datasets(max_n=8, max_d=3), st.data())
def test_the_deferred_hook_is_the_immediate_one(ds, data):
    from verify.checks import monitor as monitor_module

    options = data.draw(run_options(ds.dim, max_updates=40))
    corrupt_at = data.draw(st.one_of(st.none(), st.integers(0, 8)))
    block = data.draw(st.sampled_from([1, 2, 3, 1024]))
    updates = []
    result = pla.run(ds, options=options, keep_steps=False,
                     on_update=lambda *a: updates.append(a))
    wf = certify(ds).w if certify(ds).separable else None
    immediate = replay(Monitor(ds, options, wf), lambda m: m.on_update, updates, result,
                       corrupt_at)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(monitor_module, "DEFERRED_BLOCK", block)
        deferred = replay(Monitor(ds, options, wf), lambda m: m.on_update_deferred, updates,
                          result, corrupt_at)
    assert deferred == immediate


def test_a_checked_run_catches_a_lying_engine_through_the_deferred_hook(monkeypatch):
    """`checked_run` hands the monitor's deferred hook to the engine: a wrong score is still
    refused, naming its update."""
    ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    real_run = pla.run

    def lying_run(*args, on_update=None, on_scaled_update=None, **kwargs):
        report = update_hook(on_update, on_scaled_update)

        def hook(t, n, y, score):
            report(t, n, y, score + (1 if t == 2 else 0))
        return real_run(*args, on_update=None if report is None else hook, **kwargs)

    monkeypatch.setattr(pla, "run", lying_run)
    with pytest.raises(ProofViolation, match="update t=2: the score is w_t.x_n"):
        checked_run.checked_run(ds, order="first")
