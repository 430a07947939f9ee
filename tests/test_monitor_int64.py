"""The monitor's int64 carrier (issue 17): wₜ and the scores in numpy int64 while a bound proves
them exact, Python integers after.  Whatever the carrier, the monitor must reach the same
verdicts, report and counts, and must catch the same lies."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

import pla
from tests.strategies import run_options, separable_datasets
from verify.checks.monitor import Monitor, ProofViolation, _int64_carrier
from verify.search.certificates import certify


def _checked(ds, options, switch_at):
    """A checked run whose monitor leaves the int64 carrier after ``switch_at`` updates
    (0: never in it; None: as the bound allows)."""
    s = certify(ds)
    wf = None if not s.separable else s.w
    monitor = Monitor(ds, options, wf)
    if switch_at is not None:
        monitor._int64_updates = min(monitor._int64_updates, switch_at)
    result = pla.run(ds, options=options, keep_steps=False, on_update=monitor.on_update)
    return result, monitor.finish(result), monitor


@settings(max_examples=60, deadline=None)
@given(separable_datasets(max_n=8, max_d=3), st.data())
def test_the_carrier_changes_nothing_but_the_speed(ds, data):
    options = data.draw(run_options(ds.dim, max_updates=60))
    switch = data.draw(st.integers(0, 8))
    reports = []
    for switch_at in (0, switch, None):
        result, report, monitor = _checked(ds, options, switch_at)
        reports.append((result.w, report, monitor.N, monitor.P if monitor.wf else None,
                        monitor.weights()))
    assert reports[0] == reports[1] == reports[2]


@pytest.mark.parametrize("switch_at", [0, 2, None])
def test_a_lying_engine_is_caught_in_and_out_of_the_carrier(switch_at):
    ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    monitor = Monitor(ds, pla.RunOptions(order="first"), certify(ds).w)
    if switch_at is not None:
        monitor._int64_updates = min(monitor._int64_updates, switch_at)
    updates = []
    pla.run(ds, options=pla.RunOptions(order="first"), keep_steps=False,
            on_update=lambda *a: updates.append(a))
    for t, n, y, score in updates[:4]:
        monitor.on_update(t, n, y, score)
    t, n, y, score = updates[4]
    with pytest.raises(ProofViolation, match="the score is w_t.x_n"):
        monitor.on_update(t, n, y, score + Fraction(1, 7))


def test_the_carrier_bound():
    rows = ((1, 2), (3, 4))
    _, room = _int64_carrier(rows, [0, 0], 1)
    assert room == (2**62 // (2 * 4)) // 4
    # the worst case the bound allows stays below 2^62: W = room·4 in each entry, S = dim·W·4
    assert 2 * (room * 4) * 4 <= 2**62
    assert _int64_carrier(rows, [2**62, 0], 1) == (None, 0)        # W₀ alone too big
    assert _int64_carrier(((2**31, 0),), [0, 0], 1) == (None, 0)   # entries past 31 bits
    assert _int64_carrier(rows, [0, 0], 2**60) == (None, 0)        # a huge eta·D step


def test_a_run_longer_than_the_carrier_switches_to_python_integers():
    """Rows near 2³⁰ leave room for one int64 update: the run goes on in Python integers and
    reaches the report of a monitor that never used the carrier."""
    big = 2**30
    ds = pla.Dataset.from_rows([[big, 1], [-big, 3], [big, -big]], [1, 1, -1])
    options = pla.RunOptions(max_updates=50)
    result, report, monitor = _checked(ds, options, None)
    assert _int64_carrier(ds.rows, [0] * ds.dim, monitor.k)[1] == 1
    assert result.updates >= 2 and type(monitor.W) is list
    other, other_report, _ = _checked(ds, options, 0)
    assert (result.w, report) == (other.w, other_report)
