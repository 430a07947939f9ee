"""Session 40 review: attacks on the monitor's block path (``Monitor._checked_as_block``), the
kernel's ``steps.check_updates`` and the ``on_scaled_update`` hook, and on what a checked run
reads of the engine's result at the end (``Monitor.finish``).

Holes found (each test below failed before its mend):

- a violation the engine's hook raised, swallowed by the engine, left the monitor ready to
  report: a block checked at once left its books at the block's first update, the one-by-one
  path at the failing one, and an engine that then reported the rest of an honest run from
  there got a report (a checked run must refuse once a violation was raised);
- ``finish`` read ``result.updates``, ``result.halted`` and the entries of ``result.w`` with
  their own comparisons and truthiness: an int subclass, a falsy flag that equals True, or a
  Fraction subclass that shows one number and reports another as its numerator passed.

Attacks that held are kept as tests too (each can fail: it compares two paths, or expects a
refusal).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import pla
from verify.checks import checked_run as checked_run_module
from verify.checks import monitor as monitor_module
from verify.checks.monitor import Monitor, ProofViolation
from verify.kernel import steps
from verify.kernel.errors import KernelError
from verify.kernel.steps import StepConstants, check_update, check_updates
from verify.search.certificates import certify

TRIANGLE = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
FIRST = pla.RunOptions(order="first")


def honest(ds=TRIANGLE, options=FIRST):
    """The run's updates as the scaled hook tells them, and its result."""
    updates = []
    result = pla.run(ds, options=options, keep_steps=False,
                     on_scaled_update=lambda *a: updates.append(a))
    return updates, result


def separator(ds):
    s = certify(ds)
    return s.w if s.separable else None


def violation_fields(v):
    return (v.inequality, v.step, repr(v.lhs), v.relation, repr(v.rhs), v.detail)


class Collecting(Monitor):
    """The ``fail=`` collecting mode: every violation is kept, the checks go on."""

    def __init__(self, *args, **kwargs):
        self.found = []
        super().__init__(*args, **kwargs)

    def _fail(self, name, t, lhs, relation, rhs, detail=""):
        self.found.append((name, t, repr(lhs), relation, repr(rhs), detail))


def fed(monitor, updates, blocks=True, taken=None):
    """``monitor`` fed ``updates`` through the scaled deferred hook, then checked; without
    ``blocks`` every block goes to the one-by-one path (the baseline)."""
    real = monitor._checked_as_block

    def spy(pending):
        done = real(pending) if blocks else False
        if taken is not None:
            taken.append(done)
        return done

    monitor._checked_as_block = spy
    for update in updates:
        monitor.on_scaled_update_deferred(*update)
    monitor.check_pending()
    return monitor


def books(monitor):
    return (monitor.t, monitor.weights(), monitor.N, getattr(monitor, "P", None), monitor.checks)


def forged_updates(ds, options, rows):
    """Updates on ``rows`` in turn (mistakes or not), each told its true score: what an engine
    that updates on the rows it likes would report."""
    monitor = Monitor(ds, options, None)
    D, L, k = monitor.D, monitor.L, monitor.k
    W = list(monitor.W)
    out = []
    for t, n in enumerate(rows):
        y, row = ds.labels[n], ds.rows[n]
        out.append((t, n, y, sum(a * b for a, b in zip(W, row)), D * L))
        W = [a + k * y * b for a, b in zip(W, row)]
    return out


# ------------------------------------------------------------ holes: a swallowed violation


def swallowing_engine(monkeypatch, bad_at, block):
    """An engine that tells update ``bad_at`` as an update on a row that is not a mistake (its
    true score), catches the violation its hook raises, then tells the honest run's updates
    from the monitor's own count on (which it reads off the hook's monitor) and returns the
    honest result."""
    monkeypatch.setattr(monitor_module, "DEFERRED_BLOCK", block)
    real_run = pla.run

    def run(ds, *args, on_scaled_update=None, **kwargs):
        updates, result = [], None
        result = real_run(ds, *args, on_scaled_update=lambda *a: updates.append(a), **kwargs)
        monitor = on_scaled_update.__self__
        W = [0] * ds.dim
        told = []
        for t, n, y, s, unit in updates[:bad_at]:
            told.append((t, n, y, s, unit))
            W = [a + y * b for a, b in zip(W, ds.rows[n])]
        # an update on a row that is correct (y w.x > 0), told with its true score
        n = next(i for i, (row, y) in enumerate(zip(ds.rows, ds.labels))
                 if y * sum(a * b for a, b in zip(W, row)) > 0)
        told.append((bad_at, n, ds.labels[n], sum(a * b for a, b in zip(W, ds.rows[n])), 1))
        for update in told:
            try:
                on_scaled_update(*update)
            except ProofViolation:
                pass                              # swallowed
        while True:                               # the honest rest, from the monitor's count
            position = monitor.t + len(monitor._pending)
            if position >= len(updates):
                break
            try:
                on_scaled_update(*updates[position])
            except ProofViolation:
                pass                              # swallowed
        return result

    monkeypatch.setattr(pla, "run", run)


@pytest.mark.parametrize("block", [2, 3, 1024])
def test_a_swallowed_violation_gets_no_report(monkeypatch, block):
    """Update 1 of the textbook run told as one on row 1, whose score 19 > 0 is no mistake:
    the hook raises when its block is checked (block 2 and 3: inside the run), the engine
    swallows it and tells the rest of the honest run; finish must refuse."""
    swallowing_engine(monkeypatch, bad_at=1, block=block)
    with pytest.raises(ProofViolation) as caught:
        checked_run_module.checked_run(TRIANGLE, order="first")
    assert caught.value.step == 1
    assert caught.value.inequality.startswith("the update is a mistake")


def test_after_a_raised_violation_the_block_keeps_the_books_of_the_one_by_one_path():
    """Update 0 honest, update 1 on a row that is no mistake (true score): the block path
    raised with its books still at update 0, the one-by-one path at update 1 (update 0
    checked and kept)."""
    updates = forged_updates(TRIANGLE, FIRST, [0, 0, 0])
    outcomes = []
    for blocks in (True, False):
        taken = []
        monitor = Monitor(TRIANGLE, FIRST, separator(TRIANGLE))
        with pytest.raises(ProofViolation) as caught:
            fed(monitor, updates, blocks, taken)
        outcomes.append((violation_fields(caught.value), books(monitor)))
    assert outcomes[0] == outcomes[1]
    assert outcomes[1][1][0] == 1                  # one update kept: update 0


# ------------------------------------------------------------ holes: the result finish reads


def lying_result(monkeypatch, rewrite):
    real_run = pla.run

    def run(*args, **kwargs):
        return rewrite(real_run(*args, **kwargs))

    monkeypatch.setattr(pla, "run", run)


class AgreeingInt(int):
    """An int that equals everything and exceeds nothing."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __gt__(self, other):
        return False

    __hash__ = int.__hash__


def test_an_update_count_that_agrees_with_everything_gets_no_report(monkeypatch):
    """7 updates checked, the result says 3 (an int subclass equal to 7 too)."""
    lying_result(monkeypatch, lambda r: replace(r, updates=AgreeingInt(3)))
    with pytest.raises(ProofViolation, match="number of updates"):
        checked_run_module.checked_run(TRIANGLE, order="first")


class HaltedLooking(int):
    """A halted flag that equals True (and prints so) but is falsy."""

    def __bool__(self):
        return False

    def __eq__(self, other):
        return True

    __hash__ = int.__hash__

    def __repr__(self):
        return "True"


def test_a_falsy_halted_flag_that_equals_true_gets_no_report(monkeypatch):
    """The engine stops after 3 updates (mistakes are left) and says it halted."""
    real_run = pla.run

    def run(ds, *args, options=None, on_scaled_update=None, **kwargs):
        short = replace(options, max_updates=3)
        result = real_run(ds, *args, options=short, on_scaled_update=on_scaled_update, **kwargs)
        assert not result.halted
        return replace(result, halted=HaltedLooking(1), stopped_by=None, options=options)

    monkeypatch.setattr(pla, "run", run)
    with pytest.raises(ProofViolation, match="halted"):
        checked_run_module.checked_run(TRIANGLE, order="first")


class Shows(Fraction):
    """A Fraction subclass that shows (str, repr, JSON) one value and reports another as its
    numerator and denominator."""

    def __new__(cls, shown, told):
        self = super().__new__(cls, shown)
        self._told = told
        return self

    @property
    def numerator(self):
        return self._told.numerator

    @property
    def denominator(self):
        return self._told.denominator


class Replays(tuple):
    """A tuple that iterates as the honest w once, then as another."""

    def __new__(cls, first, then):
        self = super().__new__(cls, then)
        self._first = first
        return self

    def __iter__(self):
        first, self._first = self._first, None
        return iter(first) if first is not None else super().__iter__()


@pytest.mark.parametrize("how", ["subclass entry", "replaying tuple", "list"])
def test_a_final_w_that_shows_another_value_gets_no_report(monkeypatch, how):
    """The checked run's w printed ("99" first) must be the one checked (-3 first)."""
    def rewrite(result):
        w = result.w
        assert w[0] == -3
        if how == "subclass entry":
            w = (Shows(99, w[0]),) + w[1:]
        elif how == "replaying tuple":
            w = Replays(w, (Fraction(99),) + w[1:])
        else:
            w = list(w)                       # (an engine thread could change it later)
        return replace(result, w=w)

    lying_result(monkeypatch, rewrite)
    with pytest.raises(ProofViolation, match="final w"):
        checked_run_module.checked_run(TRIANGLE, order="first")


class Shown(str):
    """A str subclass equal to everything."""

    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


class FractionEqualToAll(Fraction):
    def __eq__(self, other):
        return True

    __hash__ = Fraction.__hash__


def _options_told(how):
    def rewrite(result):
        o = result.options
        if how == "eta":                      # the run was checked with eta = 1
            return replace(result, options=replace(o, eta=Fraction(2)))
        if how == "zero":
            return replace(result, options=replace(o, zero="correct"))
        told = replace(o)
        if how == "eta subclass":
            object.__setattr__(told, "eta", FractionEqualToAll(2))
        else:
            object.__setattr__(told, "order", Shown("random"))
        return replace(result, options=told)
    return rewrite


@pytest.mark.parametrize("how", ["eta", "zero", "eta subclass", "order subclass"])
def test_a_result_that_tells_other_options_gets_no_report(monkeypatch, how):
    """The checked run used eta = 1, zero = "mistake", order = "first"; the result (which
    ``pla run --check --json`` prints) says otherwise."""
    lying_result(monkeypatch, _options_told(how))
    with pytest.raises(ProofViolation, match="options"):
        checked_run_module.checked_run(TRIANGLE, order="first")


def test_an_equal_copy_of_the_options_is_the_options():
    """(the monitor's doc example: a monitor made with options equal to, not the same as, the
    run's)"""
    updates, result = honest()
    monitor = Monitor(TRIANGLE, pla.RunOptions(order="first"), separator(TRIANGLE))
    assert result.options is not monitor.options
    fed(monitor, updates)
    assert monitor.finish(result).updates == 7
    with pytest.raises(ProofViolation, match="options"):
        Monitor(TRIANGLE, pla.RunOptions(order="cyclic"), separator(TRIANGLE)).finish(
            replace(result, updates=0, w=(Fraction(0),) * 3, halted=False,
                    stopped_by="timeout"))


def test_a_run_past_its_budget_gets_no_report(monkeypatch):
    """max_updates = 5: an engine that ignores it makes the 7 updates of the textbook run,
    halts, and tells the options it was given."""
    real_run = pla.run

    def run(ds, *args, options=None, **kwargs):
        result = real_run(ds, *args, options=replace(options, max_updates=100), **kwargs)
        return replace(result, options=options)

    monkeypatch.setattr(pla, "run", run)
    with pytest.raises(ProofViolation, match="max_updates"):
        checked_run_module.checked_run(TRIANGLE, order="first", max_updates=5)


@pytest.mark.parametrize("stopped_by", ["max-updates", Shown("timeout")])
def test_a_run_stopped_early_by_its_budget_gets_no_report(monkeypatch, stopped_by):
    """max_updates = 5: an engine that stops after 2 updates and says its budget stopped it
    (or says so with a str that equals anything)."""
    real_run = pla.run

    def run(ds, *args, options=None, **kwargs):
        result = real_run(ds, *args, options=replace(options, max_updates=2), **kwargs)
        return replace(result, options=options, stopped_by=stopped_by)

    monkeypatch.setattr(pla, "run", run)
    with pytest.raises(ProofViolation, match="stopped by max_updates"):
        checked_run_module.checked_run(TRIANGLE, order="first", max_updates=5)


def test_a_run_stopped_by_its_budget_or_a_timeout_gets_its_report():
    checked = checked_run_module.checked_run(TRIANGLE, order="first", max_updates=5)
    assert (checked.result.stopped_by, checked.report.updates) == ("max-updates", 5)
    updates, result = honest()
    monitor = Monitor(TRIANGLE, FIRST, separator(TRIANGLE))
    fed(monitor, updates[:3])
    early = replace(result, updates=3, halted=False, stopped_by="timeout",
                    w=(Fraction(-1), Fraction(1), Fraction(1)))
    assert monitor.finish(early).updates == 3


def test_the_kernel_decides_the_final_count_of_an_int_only():
    c = StepConstants(k=1, e=1, c3=1, N0=0, classical=True, zero="mistake", D=1, L=1, b=1,
                      c1=1, P0=0, bound_updates=3, Df=1)
    steps.check_final_count(c, 3)
    with pytest.raises(ProofViolation):
        steps.check_final_count(c, 4)
    for T in (AgreeingInt(9), True, 3.0, np.int64(9)):
        with pytest.raises(KernelError):
            steps.check_final_count(c, T)


# ------------------------------------------------------------ attacks that held


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_updates_on_any_rows_collect_the_same_violations_in_blocks(data):
    """An engine that updates on rows of its choice (mistakes or not, true scores), checked by
    a collecting monitor: blocks and the one-by-one path collect the same violations and keep
    the same books, whatever the block size and checkpoint spacing."""
    rows = [[3, 3], [4, 3], [1, 1], [-2, 5]]
    ds = pla.Dataset.from_rows(rows, [1, 1, -1, data.draw(st.sampled_from([1, -1]))])
    options = pla.RunOptions(
        eta=data.draw(st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(2)])),
        w0=data.draw(st.sampled_from([None, (Fraction(1, 2), Fraction(-7), Fraction(3))])),
        zero=data.draw(st.sampled_from(pla.ZERO_CONVENTIONS)))
    chosen = data.draw(st.lists(st.integers(0, 3), max_size=40))
    updates = forged_updates(ds, options, chosen)
    check_every = data.draw(st.sampled_from([1, 2, 3, 256]))
    block = data.draw(st.sampled_from([1, 2, 5, 1024]))
    wf = separator(ds) if data.draw(st.booleans()) else None     # (None: no w_f)
    default = monitor_module.DEFERRED_BLOCK
    monitor_module.DEFERRED_BLOCK = block
    try:
        taken = []
        a = fed(Collecting(ds, options, wf, check_every=check_every), updates, True, taken)
        b = fed(Collecting(ds, options, wf, check_every=check_every), updates, False)
    finally:
        monitor_module.DEFERRED_BLOCK = default
    assert (a.found, books(a)) == (b.found, books(b))
    assert all(taken)                       # (the block path took every block)


def test_at_the_int64_bound_the_block_is_exact():
    """Rows near 2³⁰, updated on the same row again and again (no mistakes after the first:
    a collecting monitor), up to the last update the carrier allows: W's entries and the
    scores reach about 2⁶², and the block path's books and violations are the ones of a
    monitor that computes in Python integers only."""
    big = 2**30 + 3
    ds = pla.Dataset.from_rows([[big], [-big + 1]], [1, -1], bias=False)
    room = Collecting(ds, pla.RunOptions(), None)._int64_updates
    assert 2 <= room < 2**40
    updates = forged_updates(ds, pla.RunOptions(), [0] * min(room, 2**12))
    taken = []
    a = fed(Collecting(ds, pla.RunOptions(), None), updates, True, taken)
    b = Collecting(ds, pla.RunOptions(), None)
    b._int64_updates = 0                             # Python integers throughout
    fed(b, updates, False)
    assert taken == [True] and a.t == room
    assert (a.found, books(a)) == (b.found, books(b))
    assert abs(a.weights()[0]) * big >= 2**61        # (the bound is reached, not just met)


def test_a_block_one_past_the_bound_goes_one_by_one():
    big = 2**30 + 3
    ds = pla.Dataset.from_rows([[big], [-big + 1]], [1, -1], bias=False)
    room = Collecting(ds, pla.RunOptions(), None)._int64_updates
    updates = forged_updates(ds, pla.RunOptions(), [0] * (room + 1))
    taken = []
    a = fed(Collecting(ds, pla.RunOptions(), None), updates, True, taken)
    b = Collecting(ds, pla.RunOptions(), None)
    b._int64_updates = 0
    fed(b, updates, False)
    assert taken == [False]
    assert (a.found, books(a)) == (b.found, books(b))


@pytest.mark.parametrize("scale", [1, 2**64, 3**90, -1])
def test_a_score_over_any_positive_unit_is_the_score(scale):
    """s / unit told over units that differ from update to update (multiplied by huge
    factors): the same exact score, the block path takes it; a negative unit is refused at
    its own update, as the hook's contract says."""
    updates, result = honest()
    told = [(t, n, y, s * (scale ** (t % 2)), unit * (scale ** (t % 2)))
            for t, n, y, s, unit in updates]
    taken = []
    monitor = Monitor(TRIANGLE, FIRST, separator(TRIANGLE))
    if scale > 0:
        fed(monitor, told, True, taken)
        assert taken == [True]
        assert monitor.finish(result).violations == 0
    else:
        with pytest.raises(ProofViolation) as caught:
            fed(monitor, told, True, taken)
        assert (caught.value.inequality, caught.value.step) == ("the score is an exact number", 1)


@pytest.mark.parametrize("offset", [2**64, -2**64, 2**63, 2**32])
def test_a_score_off_by_a_word_is_refused_at_its_update(offset):
    """A score that agrees with the true one only modulo 2⁶⁴ (or 2⁶³, 2³²): refused at its
    own update, with the one-by-one path's violation."""
    updates, _ = honest()
    told = [(t, n, y, s + (offset * unit if t == 4 else 0), unit)
            for t, n, y, s, unit in updates]
    got, _ = violations_on_both_paths(told)
    assert got[0] == got[1] and got[0][:2] == ("the score is w_t.x_n", 4)


def violations_on_both_paths(told):
    """The violation the textbook run told as ``told`` gets with the block path and without
    it, and what each block check returned."""
    got, taken = [], []
    for blocks in (True, False):
        with pytest.raises(ProofViolation) as caught:
            fed(Monitor(TRIANGLE, FIRST, separator(TRIANGLE)), told, blocks, taken)
        got.append(violation_fields(caught.value))
    return got, taken


@pytest.mark.parametrize("field, value", [
    (0, np.int64(0)), (1, np.int64(0)), (2, np.int64(1)), (0, True), (2, True), (1, False),
    (1, 3), (1, -3), (2, -1)])
def test_numpy_ints_bools_and_strangers_in_a_block_get_the_one_by_one_violation(field, value):
    """Update 0 of the textbook run (t = 0, row 0, y = 1) told with ``value`` in place of
    t, index or y."""
    updates, _ = honest()
    first = list(updates[0])
    first[field] = value
    got, taken = violations_on_both_paths([tuple(first)] + updates[1:])
    assert taken == [False, False]       # (the block path refused the block too)
    assert got[0] == got[1] and got[0][1] == 0


@settings(max_examples=200, deadline=None)
@given(st.booleans(), st.data())
def test_check_updates_is_check_update_on_big_integers(with_wf, data):
    """(tests/test_monitor_blocks.py draws small integers; here they pass 2⁶⁴)"""
    big = st.integers(-2**70, 2**70)
    classical = data.draw(st.booleans())
    positive = st.integers(1, 2**66)
    values = dict(k=data.draw(positive), e=data.draw(positive),
                  c3=data.draw(st.integers(0, 2**140)),
                  N0=0 if classical else data.draw(st.integers(0, 2**140)), classical=classical,
                  zero=data.draw(st.sampled_from(steps.ZERO_CONVENTIONS)),
                  D=data.draw(positive), L=data.draw(positive))
    if with_wf:
        values.update(b=data.draw(positive), c1=data.draw(positive),
                      P0=0 if classical else data.draw(big),
                      bound_updates=data.draw(st.integers(0, 2**70)), Df=data.draw(positive))
    c = StepConstants(**values)
    count = data.draw(st.integers(0, 4))
    ys = data.draw(st.lists(st.sampled_from([1, -1]), min_size=count, max_size=count))
    Ss = data.draw(st.lists(big, min_size=count, max_size=count))
    qs = data.draw(st.lists(st.integers(0, 2**140), min_size=count, max_size=count))
    ms = data.draw(st.lists(big, min_size=count, max_size=count)) if with_wf else None
    t, N = data.draw(st.integers(0, 2**64)), data.draw(st.integers(0, 2**140))
    P = data.draw(big) if with_wf else None
    found_blocks, found_each = [], []
    ends = check_updates(c, t, ys, Ss, qs, N, ms, P, fail=found_blocks.append)
    n, p = N, P
    for j in range(count):
        n1 = n + 2 * c.k * ys[j] * Ss[j] + c.k * c.k * qs[j]
        p1 = None if ms is None else p + c.k * ms[j]
        check_update(c, t + j, ys[j], Ss[j], qs[j], n, n1, None if ms is None else ms[j], p,
                     p1, fail=found_each.append)
        n, p = n1, p1
    assert ends == (n, p)
    assert [str(v) for v in found_blocks] == [str(v) for v in found_each]


class _Shorter(list):
    """A list that reports one entry fewer than it iterates."""

    def __len__(self):
        return super().__len__() - 1


def test_check_updates_checks_every_update_its_lists_iterate():
    """(review of be87a24) The lengths are compared, but the updates checked are the ones the
    lists iterate: a second update that is no mistake (S = 5, y = 1) is refused, not dropped
    because the lists report one entry."""
    c = StepConstants(k=1, e=1, c3=100, N0=0, classical=True, zero="mistake", D=1, L=1)
    with pytest.raises(steps.ProofViolation) as caught:
        check_updates(c, 0, _Shorter([1, 1]), _Shorter([0, 5]), _Shorter([1, 1]), 0)
    assert caught.value.step == 1


@pytest.mark.parametrize("arguments", [
    dict(ms=[1], P=None),            # a run with w_f: ms given, P missing
    dict(ms=None, P=0),              # P given, ms missing
    dict(ms=[1], P=0, qs=[1, 1]),    # one q too many
    dict(ms=[1, 1], P=0),            # one m too many
])
def test_check_updates_refuses_each_missing_or_extra_argument_on_its_own(arguments):
    """(mutation testing of the review: each part of the argument checks refuses by itself)"""
    c = StepConstants(k=1, e=1, c3=1, N0=0, classical=True, zero="mistake", D=1, L=1, b=1,
                      c1=1, P0=0, bound_updates=3, Df=1)
    values = {"ys": [1], "Ss": [0], "qs": [1], "N": 0, **arguments}
    with pytest.raises(KernelError):
        check_updates(c, 0, **values)
