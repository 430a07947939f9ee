"""Attacks by a lying engine on the checked run's deferred monitor (issue 29, part 3).

``checked_run`` and ``pla run --check`` hand the engine ``Monitor.on_update_deferred``, which
keeps updates and checks them in blocks of ``DEFERRED_BLOCK`` (``finish`` and the step hook
check what is pending first).  Each attack is an engine that lies (through a monkeypatched
``pla.run`` or by calling the hooks directly): a skipped, repeated or renumbered update, a wrong
row, label or score, a forged result, a run stopped inside a block, an exception with updates
pending.  A lie must end in a ProofViolation naming the update it happened at with the exact
values, never in a report of 0 violations.  Four of these attacks found holes when they were
written (a score object with numerator and denominator 0; a mutable score read only when its
block was checked; a violation kept unchecked when the run raised): each failed then, as a
strict xfail, and was mended (``exact_fraction`` at the hook, ``Monitor.deferred_checks``).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pla
from verify.checks import checked_run
from verify.checks import monitor as monitor_module
from verify.checks.monitor import Monitor, ProofViolation
from verify.search.certificates import certify

from tests.cli_runner import pla_here

TRIANGLE = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
FIRST = pla.RunOptions(order="first")          # 7 updates, bound 117 (module doc of checked_run)


def honest_updates(ds=TRIANGLE, options=FIRST):
    updates = []
    result = pla.run(ds, options=options, keep_steps=False,
                     on_update=lambda *a: updates.append(a))
    return updates, result


HONEST = honest_updates()[0]


def update_hook(on_update, on_scaled_update):
    """The hook a lying engine reports to, as ``on_update(t, index, y, score)``: ``on_update``
    itself, or the scaled hook the checked runs listen on since session 40, told the score's
    numerator and denominator as they are (a score without them: the score over 1)."""
    if on_scaled_update is None:
        return on_update
    return lambda t, n, y, score: on_scaled_update(
        t, n, y, getattr(score, "numerator", score), getattr(score, "denominator", 1))


def lying_run(monkeypatch, rewrite, after=None):
    """Make ``pla.run`` an engine that runs honestly but reports ``rewrite(updates)`` to the
    hook (a list of (t, index, y, score)) and returns ``after(result)``."""
    real_run = pla.run

    def run(*args, on_update=None, on_scaled_update=None, **kwargs):
        updates = []
        result = real_run(*args, on_update=lambda *a: updates.append(a), **kwargs)
        report = update_hook(on_update, on_scaled_update)
        if report is not None:
            for update in rewrite(updates):
                report(*update)
        return result if after is None else after(result)

    monkeypatch.setattr(pla, "run", run)


def violation_of(monkeypatch, rewrite, after=None, block=None):
    if block is not None:
        monkeypatch.setattr(monitor_module, "DEFERRED_BLOCK", block)
    lying_run(monkeypatch, rewrite, after)
    with pytest.raises(ProofViolation) as caught:
        checked_run.checked_run(TRIANGLE, order="first")
    return caught.value


def test_the_honest_engine_gives_the_documented_report(monkeypatch):
    """(the lying engines below start from this run: a test of the harness itself)"""
    lying_run(monkeypatch, lambda updates: updates)
    checked = checked_run.checked_run(TRIANGLE, order="first")
    assert (checked.result.updates, checked.report.bound_updates, checked.report.violations) == \
        (7, 117, 0)


@pytest.mark.parametrize("block", [None, 1, 3, 7])
def test_a_skipped_update_is_named_at_its_own_t(monkeypatch, block):
    v = violation_of(monkeypatch, lambda u: u[:3] + u[4:], block=block)
    assert (v.inequality, v.step, v.lhs, v.rhs) == ("updates are numbered 0, 1, 2, ...", 3, 4, 3)


@pytest.mark.parametrize("block", [None, 2])
def test_a_repeated_update_is_refused(monkeypatch, block):
    v = violation_of(monkeypatch, lambda u: u[:5] + u[4:], block=block)
    assert (v.step, v.lhs, v.rhs) == (5, 4, 5)


@pytest.mark.parametrize("block", [None, 3])
def test_a_dropped_last_update_inside_a_block_is_caught_at_the_end(monkeypatch, block):
    v = violation_of(monkeypatch, lambda u: u[:-1], block=block)
    assert (v.step, v.lhs, v.relation, v.rhs) == ("end", 7, "=", 6)


@pytest.mark.parametrize("block", [None, 3])
def test_an_extra_update_after_the_last_one_is_caught_at_the_end(monkeypatch, block):
    def extra(u):
        # a correct-looking 8th update (row 0 at the final w: its true score, so that only
        # the count can catch it) is still one the result does not have
        return u + [(7, 0, 1, Fraction(9))]
    v = violation_of(monkeypatch, extra, block=block)
    assert v.step in (7, "end")


@pytest.mark.parametrize("t", [0, 3, 6])
@pytest.mark.parametrize("block", [None, 1, 4])
def test_a_wrong_score_names_its_update_with_exact_values(monkeypatch, t, block):
    updates, _ = honest_updates()
    true_score = updates[t][3]
    v = violation_of(monkeypatch, lambda u: [
        (s, n, y, score + Fraction(1, 10**30) if s == t else score) for s, n, y, score in u],
        block=block)
    assert (v.inequality, v.step, v.lhs, v.rhs) == \
        ("the score is w_t.x_n", t, true_score + Fraction(1, 10**30), true_score)


@pytest.mark.parametrize("block", [None, 2])
def test_a_wrong_label_names_its_update(monkeypatch, block):
    v = violation_of(monkeypatch, lambda u: [(s, n, -y if s == 5 else y, score)
                                             for s, n, y, score in u], block=block)
    assert (v.step, v.lhs, v.rhs) == (5, 1, -1) and "label of row 3" in v.inequality


@pytest.mark.parametrize("index", [-1, 3, 2**64])
def test_a_row_that_does_not_exist_is_refused(monkeypatch, index):
    v = violation_of(monkeypatch, lambda u: [(s, index if s == 2 else n, y, score)
                                             for s, n, y, score in u])
    assert (v.inequality, v.step, v.lhs) == ("the updated row exists", 2, index)


def test_a_consistent_lie_about_the_row_is_caught_by_the_final_w(monkeypatch):
    """The engine reports update 4 on row 1 (label +1, like its true row 0) with row 1's true
    score: every per-update check holds; the final w the engine returns cannot."""
    updates, _ = honest_updates()
    assert updates[4][1] == 0 and updates[4][2] == 1

    def swap(u):
        w = [Fraction(0)] * 3                    # replay to know w_4 (eta = 1, w0 = 0)
        for s, n, y, _ in u[:4]:
            w = [a + y * b for a, b in zip(w, TRIANGLE.X[n])]
        score = sum(a * b for a, b in zip(w, TRIANGLE.X[1]))
        return u[:4] + [(4, 1, 1, score)] + u[5:]

    v = violation_of(monkeypatch, swap)
    assert v.step in (5, 6, "end")


def test_a_forged_halt_is_caught_by_the_kernel_mistake_count(monkeypatch):
    """The engine stops after 5 of 7 updates and says it halted: the final w still errs."""
    v = violation_of(monkeypatch, lambda u: u[:5], after=lambda r: _forged(r, 5))
    assert (v.inequality, v.step) == ("halted: the final w makes no mistake", "end")


def _w_after(k):
    updates = HONEST                             # (recorded before any engine is patched)
    w = [Fraction(0)] * 3
    for _, n, y, _ in updates[:k]:
        w = [a + y * b for a, b in zip(w, TRIANGLE.X[n])]
    return tuple(w)


def _forged(result, k):
    from dataclasses import replace
    return replace(result, updates=k, halted=True, w=_w_after(k))


@pytest.mark.parametrize("block", [None, 2])
def test_max_updates_inside_a_block_checks_the_pending_updates(monkeypatch, block):
    """A budget that stops the run inside a block: finish checks the kept updates, so a lie
    at the very last one is still named."""
    if block is not None:
        monkeypatch.setattr(monitor_module, "DEFERRED_BLOCK", block)
    lying_run(monkeypatch, lambda u: u[:-1] + [(*u[-1][:3], u[-1][3] + 1)])
    with pytest.raises(ProofViolation) as caught:
        checked_run.checked_run(TRIANGLE, order="first", max_updates=5)
    assert (caught.value.inequality, caught.value.step) == ("the score is w_t.x_n", 4)


# --- scores and labels that are not numbers ------------------------------------------------------
class ZeroOverZero:
    """A duck-typed 'score' whose numerator and denominator are both 0."""
    numerator = 0
    denominator = 0

    def __str__(self):
        return "5"


class LyingFraction(Fraction):
    """A Fraction that prints as itself but reports 0/0 to whoever reads its attributes."""
    numerator = property(lambda self: 0)
    denominator = property(lambda self: 0)


@pytest.mark.parametrize("liar", [ZeroOverZero, lambda: LyingFraction(5)])
@pytest.mark.parametrize("hook", ["on_update", "on_update_deferred"])
def test_a_score_that_is_not_a_fraction_is_refused(liar, hook):
    updates, result = honest_updates()
    monitor = Monitor(TRIANGLE, FIRST, certify(TRIANGLE).w)
    with pytest.raises(ProofViolation, match="update t=0: the score"):
        for t, n, y, _ in updates:
            getattr(monitor, hook)(t, n, y, liar())
        monitor.finish(result)


class MutableScore:
    """A score the engine can change after it reported it."""

    def __init__(self, value):
        self.numerator, self.denominator = value.numerator, value.denominator


def test_the_deferred_hook_reads_the_score_when_it_is_reported():
    updates, result = honest_updates()
    monitor = Monitor(TRIANGLE, FIRST, certify(TRIANGLE).w)
    reported = []
    with pytest.raises(ProofViolation, match="update t=0: the score"):
        for t, n, y, score in updates:
            wrong = MutableScore(score + 1)
            reported.append((wrong, score))
            monitor.on_update_deferred(t, n, y, wrong)
        for wrong, score in reported:                   # the engine covers its tracks
            wrong.numerator, wrong.denominator = score.numerator, score.denominator
        monitor.finish(result)


def test_a_float_score_is_a_named_violation_or_a_refusal_not_a_report():
    """(a float has no numerator: whatever is raised, no report comes out)"""
    updates, result = honest_updates()
    monitor = Monitor(TRIANGLE, FIRST, certify(TRIANGLE).w)
    with pytest.raises((ProofViolation, AttributeError, TypeError)):
        for t, n, y, score in updates:
            monitor.on_update_deferred(t, n, y, float(score))
        monitor.finish(result)


# --- exceptions with updates pending -------------------------------------------------------------
def interrupted_run(monkeypatch, exception):
    """An engine that reports update 2 with a wrong score, then fails at update 5."""
    real_run = pla.run

    def run(*args, on_update=None, on_scaled_update=None, **kwargs):
        report = update_hook(on_update, on_scaled_update)

        def hook(t, n, y, score):
            if t == 5:
                raise exception
            report(t, n, y, score + (1 if t == 2 else 0))
        return real_run(*args, on_update=None if report is None else hook, **kwargs)

    monkeypatch.setattr(pla, "run", run)


@pytest.mark.parametrize("exception", [KeyboardInterrupt(), RuntimeError("engine failed")])
def test_a_violation_pending_when_the_engine_fails_is_still_reported(monkeypatch, exception):
    interrupted_run(monkeypatch, exception)
    try:
        with pytest.raises(ProofViolation, match="update t=2: the score is w_t.x_n"):
            checked_run.checked_run(TRIANGLE, order="first")
    except (KeyboardInterrupt, RuntimeError) as escaped:   # (not to pytest: it would stop)
        pytest.fail(f"{escaped!r} escaped; the violation at t=2 pending was never checked")


def test_with_the_immediate_hook_the_violation_comes_before_the_engine_fails(monkeypatch):
    """(what the deferred hook should match: the engine fails after the violation)"""
    interrupted_run(monkeypatch, KeyboardInterrupt())
    monitor = Monitor(TRIANGLE, FIRST, certify(TRIANGLE).w)
    with pytest.raises(ProofViolation, match="update t=2"):
        pla.run(TRIANGLE, options=FIRST, keep_steps=False, on_update=monitor.on_update)


def test_an_engine_that_swallows_a_violation_cannot_get_a_report(monkeypatch):
    """The engine catches the ProofViolation its hook raised at the end of a block and goes
    on: the updates of that block after the failing one were dropped unchecked, so finish
    (called by checked_run, out of the engine's reach) must refuse the run."""
    monkeypatch.setattr(monitor_module, "DEFERRED_BLOCK", 3)
    real_run = pla.run

    def run(*args, on_update=None, on_scaled_update=None, **kwargs):
        report = update_hook(on_update, on_scaled_update)

        def hook(t, n, y, score):
            try:
                report(t, n, y, score + (1 if t == 1 else 0))
            except ProofViolation:
                pass
        return real_run(*args, on_update=None if report is None else hook, **kwargs)

    monkeypatch.setattr(pla, "run", run)
    with pytest.raises(ProofViolation):
        checked_run.checked_run(TRIANGLE, order="first")


def test_late_updates_after_finish_are_not_silently_counted():
    """A hook call after finish (an engine thread that outlives the run) changes nothing
    already reported, and a second finish refuses the extra update."""
    updates, result = honest_updates()
    monitor = Monitor(TRIANGLE, FIRST, certify(TRIANGLE).w)
    for update in updates:
        monitor.on_update_deferred(*update)
    report = monitor.finish(result)
    assert (report.updates, report.violations) == (7, 0)
    monitor.on_update_deferred(7, 0, 1, Fraction(9))
    with pytest.raises(ProofViolation):
        monitor.finish(result)


# --- the deferred hook is the immediate one, for any lie at any place of any block --------------
lies = st.sampled_from(["score", "label", "index", "skip", "repeat", "t"])


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 6), lies, st.sampled_from([1, 2, 3, 5, 1024]))
def test_any_single_lie_gets_the_same_violation_deferred_or_not(at, lie, block):
    updates, result = honest_updates()
    sequence = with_one_lie(updates, at, lie, Fraction(1, 7), 1)
    deferred, immediate = both_outcomes(lambda: Monitor(TRIANGLE, FIRST, certify(TRIANGLE).w),
                                        sequence, result, block)
    assert deferred == immediate and deferred[0] == "violation"


def with_one_lie(updates, at, lie, less, shift):
    """``updates`` with update ``at`` told as ``lie``: a score smaller by ``less``, the other
    label, row n + ``shift``, the update left out or told twice, or the next update's t."""
    t, n, y, score = updates[at]
    forged = {"score": [(t, n, y, score - less)], "label": [(t, n, -y, score)],
              "index": [(t, (n + shift) % (shift + 2), y, score)], "skip": [],
              "repeat": [updates[at]] * 2, "t": [(t + 1, n, y, score)]}[lie]
    return updates[:at] + forged + updates[at + 1:]


def both_outcomes(make_monitor, sequence, result, block):
    """What a monitor makes of ``sequence`` (its report, or its violation's fields) through
    the deferred hook in blocks of ``block``, and through the immediate hook."""
    def outcome(hook):
        monitor = make_monitor()
        try:
            for update in sequence:
                getattr(monitor, hook)(*update)
            return "report", monitor.finish(result)
        except ProofViolation as violation:
            return ("violation", violation.inequality, violation.step, violation.lhs,
                    violation.relation, violation.rhs, violation.detail)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(monitor_module, "DEFERRED_BLOCK", block)
        deferred = outcome("on_update_deferred")
    return deferred, outcome("on_update")


# --- the same through `pla run --check` ---------------------------------------------------------
def pla_check(capsys, tmp_path):
    data = tmp_path / "triangle.dat"
    data.write_text("3 3 1\n4 3 1\n1 1 -1\n")
    done = pla_here(capsys, "run", str(data), "--check", "--order", "first")
    return done.code, done.err


def test_the_cli_names_a_lying_engines_violation(monkeypatch, capsys, tmp_path):
    """(the harness of the test below: without the interrupt, the violation at t=2 is shown)"""
    from verify.cli import exit_codes

    interrupted_run(monkeypatch, RuntimeError("never raised: t=5 is never reached"))
    monkeypatch.setattr(monitor_module, "DEFERRED_BLOCK", 2)   # (checked before t=5)
    code, err = pla_check(capsys, tmp_path)
    assert code == exit_codes.PROOF_VIOLATION and "update t=2: the score" in err


def test_an_interrupt_after_a_violation_still_reports_the_violation(monkeypatch, capsys,
                                                                   tmp_path):
    from verify.cli import exit_codes

    interrupted_run(monkeypatch, KeyboardInterrupt())
    code, err = pla_check(capsys, tmp_path)
    assert code == exit_codes.PROOF_VIOLATION and "update t=2: the score" in err


# --- a block that outlives the monitor's int64 carrier -----------------------------------------
E = 2**20
XOR_BIG = pla.Dataset.from_int64_matrix(
    np.array([[E, E, 1], [-E, -E, 1], [E, -E, 1], [-E, E, 1]], dtype=np.int64), 1,
    np.array([1, 1, -1, -1]), bias=False)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([2**17 + 1, 2**18]), st.one_of(st.none(), st.integers(0, 11)), lies,
       st.sampled_from([1, 3, 5, 1024]))
def test_a_block_across_the_end_of_the_int64_carrier_is_checked_as_the_immediate_hook(
        eta, at, lie, block):
    """Entries 2²⁰ and η = 2¹⁸: the monitor's int64 carrier ends after 5 of the 12 updates
    (of non-separable data), inside a block; honest or with one lie, the deferred verdict is
    the immediate one."""
    options = pla.RunOptions(eta=eta, max_updates=12, order="cyclic")
    updates = []
    result = pla.run(XOR_BIG, options=options, keep_steps=False,
                     on_update=lambda *a: updates.append(a))
    assert len(updates) == 12 and 0 < Monitor(XOR_BIG, options)._int64_updates < 12
    sequence = list(updates) if at is None else with_one_lie(updates, at, lie, 1, 2)
    deferred, immediate = both_outcomes(lambda: Monitor(XOR_BIG, options), sequence, result,
                                        block)
    assert deferred == immediate and (deferred[0] == "violation") == (at is not None)
