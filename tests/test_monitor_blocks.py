"""The monitor's block path (issue 29, session 40): the updates ``on_update_deferred`` keeps are
checked as one block -- wₜ₊₁ of the whole block by one int64 cumulative sum, the scores by one
row-wise product, the kernel's inequalities by one :func:`verify.kernel.steps.check_updates`
call between two checkpoints -- instead of one by one.

It must change nothing but the speed: the same report, the same books (W, ‖W‖², F·W, the
count of checks), and for every lie the same :class:`ProofViolation` (inequality, update, both
exact sides) as the one-by-one path.  And the kernel's ``check_updates`` must accept exactly
what :func:`check_update` accepts, update by update, with ‖W'‖² and F·W' from the identities.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import example, given, settings, strategies as st

import pla
from tests.strategies import datasets, run_options, separable_datasets
from verify.checks import monitor as monitor_module
from verify.checks.monitor import Monitor, ProofViolation
from verify.kernel import steps
from verify.kernel.steps import StepConstants, check_update, check_updates
from verify.search.certificates import certify


def _updates(ds, options):
    updates = []
    result = pla.run(ds, options=options, keep_steps=False,
                     on_update=lambda *a: updates.append(a))
    return updates, result


def _monitor(ds, options):
    s = certify(ds)
    return Monitor(ds, options, s.w if s.separable else None)


def _books(monitor):
    return (monitor.t, monitor.weights(), monitor.N, getattr(monitor, "P", None),
            monitor.checks)


def _deferred(ds, options, updates, blocks=True, taken=None, check_every=None, carrier=None,
              scaled=False):
    """A monitor fed ``updates`` through ``on_update_deferred`` (``scaled``: through
    ``on_scaled_update_deferred``, each score as its numerator and denominator): with
    ``blocks``, as a checked run feeds it; without, every block is refused to the one-by-one
    path (the baseline).  ``taken`` collects what each block check returned."""
    monitor = _monitor(ds, options)
    if check_every is not None:
        monitor.check_every = check_every
    if carrier is not None:
        monitor._int64_updates = min(monitor._int64_updates, carrier)
    real = monitor._checked_as_block if blocks else (lambda pending: False)

    def spy(pending):
        taken_now = real(pending)
        if taken is not None:
            taken.append(taken_now)
        return taken_now

    monitor._checked_as_block = spy
    for t, n, y, score in updates:
        if scaled:
            monitor.on_scaled_update_deferred(t, n, y, getattr(score, "numerator", score),
                                              getattr(score, "denominator", 1))
        else:
            monitor.on_update_deferred(t, n, y, score)
    monitor.check_pending()
    return monitor


def _violation(check):
    with pytest.raises(ProofViolation) as caught:
        check()
    v = caught.value
    return (v.inequality, v.step, repr(v.lhs), v.relation, repr(v.rhs), v.detail)


@settings(max_examples=80, deadline=None)
@given(st.one_of(separable_datasets(max_n=8, max_d=3), datasets(min_n=2, max_n=8)), st.data())
def test_blocks_keep_the_same_books_and_report(ds, data):
    options = data.draw(run_options(ds.dim, max_updates=60))
    block = data.draw(st.sampled_from([1, 2, 3, 7, 1024]))
    check_every = data.draw(st.sampled_from([1, 2, 5, 256]))
    updates, result = _updates(ds, options)
    default_block = monitor_module.DEFERRED_BLOCK
    monitor_module.DEFERRED_BLOCK = block        # (hypothesis: no function-scoped monkeypatch)
    try:
        taken = []
        blocks = _deferred(ds, options, updates, True, taken, check_every)
        one = _deferred(ds, options, updates, False, None, check_every)
        scaled = _deferred(ds, options, updates, True, None, check_every, scaled=True)
    finally:
        monitor_module.DEFERRED_BLOCK = default_block
    assert _books(blocks) == _books(one) == _books(scaled)
    assert blocks.finish(result) == one.finish(result) == scaled.finish(result)
    if updates and blocks._int64_updates >= len(updates):
        assert taken and all(taken)       # the block path, not the fallback, was checked


def _lie(updates, at, how):
    t, n, y, score = updates[at]
    lied = {"score": (t, n, y, score + Fraction(1, 3)),
            "t": (t + 1, n, y, score),
            "row": (t, (n + 1) % 3, y, score),
            "label": (t, n, -y, score),
            "float": (t, n, y, float(score))}[how]
    return updates[:at] + [lied] + updates[at + 1:]


TRIANGLE = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
FIRST = pla.RunOptions(order="first")


@pytest.mark.parametrize("how", ["score", "t", "row", "label", "float"])
@pytest.mark.parametrize("at", [0, 3, 6])
def test_a_lie_gets_the_same_violation_in_a_block_as_one_by_one(how, at):
    updates, _ = _updates(TRIANGLE, FIRST)
    lied = _lie(updates, at, how)
    taken = []
    one = _violation(lambda: _deferred(TRIANGLE, FIRST, lied, blocks=False))
    blocks = _violation(lambda: _deferred(TRIANGLE, FIRST, lied, True, taken))
    assert blocks == one and one[1] in (at, at + 1)
    assert taken == [False]       # a lie sends the block to the one-by-one path
    if how != "float":            # (a float score has no numerator to tell through ints)
        assert _violation(lambda: _deferred(TRIANGLE, FIRST, lied, scaled=True)) == one


class Int(int):
    """An int subclass: its comparisons and products are its own."""


@pytest.mark.parametrize("s, unit", [(7.0, 1), (7, 0), (-7, -1), (7, True), (Int(7), 1),
                                     (7, Int(1)), (Fraction(7), 1), ("7", 1)])
def test_the_scaled_hook_takes_two_builtin_ints_and_a_positive_unit(s, unit):
    """Update 1 of the textbook run has the score 7 (over 1): told any other way through the
    scaled hook, it is refused as a score that is not an exact number, at its own update."""
    updates, result = _updates(TRIANGLE, FIRST)
    assert updates[1][3] == 7
    monitor = _monitor(TRIANGLE, FIRST)
    for t, n, y, score in updates:
        told = (s, unit) if t == 1 else (score.numerator, score.denominator)
        monitor.on_scaled_update_deferred(t, n, y, *told)
    with pytest.raises(ProofViolation) as caught:
        monitor.finish(result)
    assert (caught.value.inequality, caught.value.step) == ("the score is an exact number", 1)


@settings(max_examples=40, deadline=None)
@given(st.one_of(separable_datasets(max_n=8, max_d=3), datasets(min_n=2, max_n=8)), st.data())
def test_every_engine_tells_the_scaled_hook_the_exact_score(ds, data):
    """(the reference engine, and the fast one with each of its carriers: the certified float
    filter of float-valued data included)"""
    from pla.fast_engine import run_fast

    options = data.draw(run_options(ds.dim, max_updates=40))
    carriers = data.draw(st.sampled_from(["reference", "float", "int64", "bigint", "filter"]))
    told, scaled = [], []
    hooks = dict(on_update=lambda *a: told.append(a), on_scaled_update=lambda *a: scaled.append(a))
    if carriers == "reference":
        pla.run(ds, options=options, engine="reference", keep_steps=False, **hooks)
    else:
        run_fast(ds, options, carriers=carriers, **hooks)
    assert all(type(s) is int and type(unit) is int and unit > 0 for *_, s, unit in scaled)
    assert [(t, n, y, Fraction(s, unit)) for t, n, y, s, unit in scaled] == told


@settings(max_examples=60, deadline=None)
@given(separable_datasets(max_n=8, max_d=3), st.data())
def test_a_lie_anywhere_gets_the_same_violation(ds, data):
    options = data.draw(run_options(ds.dim, max_updates=40))
    updates, _ = _updates(ds, options)
    if not updates:
        return
    at = data.draw(st.integers(0, len(updates) - 1))
    t, n, y, score = updates[at]
    delta = data.draw(st.sampled_from([Fraction(1), Fraction(-1, 7), Fraction(1, 10**20)]))
    lied = updates[:at] + [(t, n, y, score + delta)] + updates[at + 1:]
    assert _violation(lambda: _deferred(ds, options, lied)) == \
        _violation(lambda: _deferred(ds, options, lied, blocks=False))


def test_the_block_path_is_the_one_a_checked_run_takes():
    """(so that the tests above test what ``pla run --check`` runs)"""
    updates, _ = _updates(TRIANGLE, pla.RunOptions())
    taken = []
    _deferred(TRIANGLE, pla.RunOptions(), updates, True, taken)
    assert taken == [True]


# --------------------------------------------------------------- the checkpoints tie the books


@pytest.mark.parametrize("which, name", [(0, steps.NORM_IDENTITY), (1, steps.MARGIN_IDENTITY)])
def test_a_kernel_that_drifts_is_caught_at_the_next_checkpoint(monkeypatch, which, name):
    """The identities' ‖W'‖² and F·W' are compared with direct values at every checkpoint: a
    chained value one unit off (what a wrong S would give) is refused there."""
    real = steps.check_updates

    def drifting(*args, **kwargs):
        ends = list(real(*args, **kwargs))
        ends[which] += 1
        return tuple(ends)

    monkeypatch.setattr(steps, "check_updates", drifting)
    updates, _ = _updates(TRIANGLE, FIRST)
    with pytest.raises(ProofViolation) as caught:
        _deferred(TRIANGLE, FIRST, updates, check_every=4)
    assert caught.value.inequality == name and caught.value.step == 0


def test_outside_the_int64_carrier_the_block_is_checked_one_by_one():
    updates, result = _updates(TRIANGLE, FIRST)
    taken = []
    report = _deferred(TRIANGLE, FIRST, updates, True, taken, carrier=3).finish(result)
    assert taken == [False]
    assert report == _deferred(TRIANGLE, FIRST, updates, blocks=False).finish(result)


# ------------------------------------------------------- the kernel: check_updates = check_update


def _collected(call):
    found = []
    result = call(found.append)
    return result, [(v.inequality, v.step, v.lhs, v.relation, v.rhs) for v in found]


@st.composite
def step_constants(draw, with_wf=True):
    small = st.integers(1, 6)
    classical = draw(st.booleans())
    values = dict(k=draw(small), e=draw(small), c3=draw(st.integers(0, 60)),
                  N0=0 if classical else draw(st.integers(0, 30)), classical=classical,
                  zero=draw(st.sampled_from(steps.ZERO_CONVENTIONS)), D=draw(small),
                  L=draw(small))
    if with_wf:
        values.update(b=draw(small), c1=draw(st.integers(1, 20)),
                      P0=0 if classical else draw(st.integers(-20, 20)),
                      bound_updates=draw(st.integers(0, 12)), Df=draw(small))
    return StepConstants(**values)


@settings(max_examples=300, deadline=None)
@given(st.booleans(), st.data())
@example(False, None)
def test_check_updates_decides_each_update_as_check_update_does(with_wf, data):
    """Arbitrary integers, violations or not: the violations ``check_updates`` finds are the
    ones :func:`check_update` finds for each update in turn, given the N' and P' of the
    identities; and it returns the last ones."""
    if data is None:          # (an example: the empty block returns N and P as they are)
        c = StepConstants(k=1, e=1, c3=1, N0=0, classical=True, zero="mistake", D=1, L=1)
        assert check_updates(c, 5, [], [], [], 7) == (7, None)
        return
    c = data.draw(step_constants(with_wf))
    count = data.draw(st.integers(0, 6))
    number = st.integers(-40, 40)
    ys = data.draw(st.lists(st.sampled_from([1, -1]), min_size=count, max_size=count))
    Ss = data.draw(st.lists(number, min_size=count, max_size=count))
    qs = data.draw(st.lists(st.integers(0, 40), min_size=count, max_size=count))
    ms = data.draw(st.lists(number, min_size=count, max_size=count)) if with_wf else None
    t, N = data.draw(st.integers(0, 10)), data.draw(st.integers(0, 60))
    P = data.draw(number) if with_wf else None

    ends, got = _collected(lambda fail: check_updates(c, t, ys, Ss, qs, N, ms, P, fail=fail))

    def one_by_one(fail):
        n, p = N, P
        for j in range(count):
            n1 = n + 2 * c.k * ys[j] * Ss[j] + c.k * c.k * qs[j]
            p1 = None if ms is None else p + c.k * ms[j]
            check_update(c, t + j, ys[j], Ss[j], qs[j], n, n1,
                         None if ms is None else ms[j], p, p1, fail=fail)
            n, p = n1, p1
        return n, p

    assert (ends, got) == _collected(one_by_one)


def test_check_updates_refuses_what_does_not_fit_together():
    c = StepConstants(k=1, e=1, c3=1, N0=0, classical=True, zero="mistake", D=1, L=1, b=1,
                      c1=1, P0=0, bound_updates=3, Df=1)
    with pytest.raises(steps.KernelError):
        check_updates(c, 0, [1], [0], [1], 0)                     # w_f: needs ms and P
    with pytest.raises(steps.KernelError):
        check_updates(c, 0, [1, 1], [0], [1, 1], 0, [1, 1], 0)   # one S for two updates
    without = StepConstants(k=1, e=1, c3=1, N0=0, classical=True, zero="mistake", D=1, L=1)
    with pytest.raises(steps.KernelError):
        check_updates(without, 0, [1], [0], [1], 0, [1], 0)       # no w_f: no ms
