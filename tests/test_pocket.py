"""The exact Pocket algorithm (pla.pocket) and its independent checks (verify.checks.pocket)."""

from __future__ import annotations

import pickle
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

import pla
from pla.pocket import (
    INT64_LIMIT, MistakeCounter, PocketInvariantViolation, PocketOptions, PocketProblem,
    count_mistakes, error_rate, pocket,
)
from tests.strategies import datasets, etas, run_orders, separable_datasets, zeros
from verify.checks.pocket import PocketCheckFailed, check_pocket_result, checked_pocket_run

# x = 3 (-), 0 (+), -3 (-): not separable.  The cyclic walk's mistakes are 3, 2, 2, 1, 3, 2.
LITERAL_EXAMPLE = pla.Dataset.from_rows([[3], [0], [-3]], [-1, 1, -1])

updates_counts = st.integers(min_value=0, max_value=25)
seeds = st.integers(min_value=0, max_value=10**6)
compares = st.sampled_from(["pocket", "previous"])


def walk_min_prefix(values):
    out, low = [], None
    for v in values:
        low = v if low is None else min(low, v)
        out.append(low)
    return out


# ----------------------------------------------------------------------------- properties
@given(datasets(max_n=8), run_orders, updates_counts, seeds, zeros)
def test_pocket_error_at_most_last_error(ds, order, updates, seed, zero):
    r = pocket(ds, updates, order=order, seed=seed, zero=zero)
    last = count_mistakes(ds, r.last_w, zero)
    assert r.mistakes <= last == r.last_mistakes
    assert r.error <= Fraction(last, ds.n)


@given(datasets(max_n=8), run_orders, updates_counts, seeds, zeros)
def test_pocket_sequence_never_increases_and_is_the_first_minimum(ds, order, updates, seed, zero):
    r = pocket(ds, updates, order=order, seed=seed, zero=zero)
    history = r.pocket_mistakes
    assert all(b <= a for a, b in zip(history, history[1:]))
    # strictly fewer only: the pocket is the FIRST w_t that reaches the running minimum
    assert list(history) == walk_min_prefix(r.walk_mistakes)
    assert r.pocket_t == r.walk_mistakes.index(min(r.walk_mistakes))
    assert r.pocket_updates == sum(1 for a, b in zip(history, history[1:]) if b < a)
    assert len(r.walk_mistakes) == r.updates + 1


@given(separable_datasets(max_n=8), run_orders, seeds)
def test_separable_data_reach_zero_mistakes_with_enough_updates(ds, order, seed):
    needed = pla.run(ds, order, seed=seed).updates  # PLA halts on separable data
    for budget in (needed, needed + 5):
        r = pocket(ds, budget, order=order, seed=seed)
        assert r.mistakes == 0 and r.halted and r.updates == needed
        assert r.pocket_w == r.last_w
        assert count_mistakes(ds, r.w) == 0


@given(datasets(max_n=7), run_orders, updates_counts, seeds, zeros, etas, compares,
       st.booleans())
def test_integer_engine_agrees_with_the_fraction_reference(ds, order, updates, seed, zero, eta,
                                                          compare, keep_last):
    kwargs = dict(order=order, seed=seed, zero=zero, eta=eta, compare=compare,
                  keep="last" if keep_last else "pocket", test=ds)
    assert pocket(ds, updates, **kwargs) == pocket(ds, updates, engine="reference", **kwargs)


@given(datasets(max_n=7), run_orders, updates_counts, seeds, zeros, etas)
def test_the_walk_is_plas_walk(ds, order, updates, seed, zero, eta):
    r = pocket(ds, updates, order=order, seed=seed, zero=zero, eta=eta)
    run = pla.run(ds, order, seed=seed, zero=zero, eta=eta, max_updates=updates)
    assert (r.last_w, r.updates) == (run.w, run.updates)
    steps = pla.run(ds, order, seed=seed, zero=zero, eta=eta, max_updates=updates).steps
    visited = [run.options.initial_weights(ds.dim)] + [s.w_after for s in steps]
    assert visited[r.pocket_t] == r.pocket_w
    assert [count_mistakes(ds, w, zero) for w in visited] == list(r.walk_mistakes)


@settings(max_examples=15)
@given(datasets(max_n=6), run_orders, updates_counts, seeds, compares)
def test_independent_checks_accept_real_runs(ds, order, updates, seed, compare):
    problem = PocketProblem.prepare(ds, PocketOptions(updates=updates, order=order,
                                                      compare=compare), test=ds)
    result = checked_pocket_run(problem, seed)
    assert result == problem.run(seed)


# ----------------------------------------------------------------------------- examples
def test_the_literal_variant_differs_from_the_real_pocket():
    real = pocket(LITERAL_EXAMPLE, 5, order="cyclic")
    literal = pocket(LITERAL_EXAMPLE, 5, order="cyclic", compare="previous")
    assert real.walk_mistakes == literal.walk_mistakes == (3, 2, 2, 1, 3, 2)
    # the real pocket keeps w_3 (1 mistake); the literal variant ends with w_5 (2 < 3 of w_4)
    assert (real.pocket_t, real.mistakes, real.pocket_updates) == (3, 1, 2)
    assert (literal.pocket_t, literal.mistakes, literal.pocket_updates) == (5, 2, 3)
    assert real.w != literal.w
    assert literal.pocket_mistakes == (3, 2, 2, 1, 1, 2)  # it may get worse
    ref = pocket(LITERAL_EXAMPLE, 5, order="cyclic", compare="previous", engine="reference")
    assert ref == literal


def test_ties_keep_the_older_pocket():
    # w_1 and w_2 both make 2 mistakes: the pocket stays w_1
    r = pocket(LITERAL_EXAMPLE, 2, order="cyclic")
    assert r.walk_mistakes == (3, 2, 2) and r.pocket_t == 1 and r.pocket_updates == 1


def test_pocket_starts_at_w0_with_its_own_count():
    r = pocket(LITERAL_EXAMPLE, 0, order="cyclic", w0=[1, 0])
    assert r.w == (Fraction(1), Fraction(0)) and r.updates == 0 and r.pocket_t == 0
    assert r.mistakes == 2 == count_mistakes(LITERAL_EXAMPLE, [1, 0])


def test_keep_last_returns_the_last_w_and_its_test_error():
    test = pla.Dataset.from_rows([[1], [-1]], [1, -1])
    r = pocket(LITERAL_EXAMPLE, 4, order="cyclic", keep="last", test=test)
    assert r.w == r.last_w and r.mistakes == 3
    assert r.test_mistakes == count_mistakes(test, r.last_w)
    assert r.test_error == error_rate(test, r.last_w)


def test_test_mistakes_follow_the_zero_convention():
    train = pla.Dataset.from_rows([[1]], [1], bias=False)
    test = pla.Dataset.from_rows([[0], [0]], [1, -1], bias=False)  # every test score is 0
    got = {z: pocket(train, 1, order="cyclic", zero=z, test=test).test_mistakes
           for z in pla.ZERO_CONVENTIONS}
    assert got == {"mistake": 2, "positive": 1, "negative": 1, "correct": 0}


def test_random_order_counts_only_visits_that_find_a_mistake():
    r = pocket(LITERAL_EXAMPLE, 7, order="random", seed=3)
    run = pla.run(LITERAL_EXAMPLE, "random", seed=3, max_updates=7)
    assert r.updates == run.updates == 7 and r.last_w == run.w


# ----------------------------------------------------------------------------- int64 guard
def test_int64_bound_is_exact_at_the_limit():
    ds = pla.Dataset.from_rows([[1]], [1], bias=False)  # max|row| = 1, dim = 1
    counter = MistakeCounter(ds)
    assert counter.fits_int64(INT64_LIMIT - 1) and not counter.fits_int64(INT64_LIMIT)


def test_huge_numbers_fall_back_to_python_integers_exactly():
    big = 10**30
    ds = pla.Dataset.from_rows([[big, 1], [-big, 2], [big + 1, -1]], [1, -1, -1])
    problem = PocketProblem.prepare(ds, PocketOptions(updates=12, order="cyclic"))
    assert not problem.int64
    assert problem.run(0) == pocket(ds, 12, order="cyclic", engine="reference")
    # one past the int64 bound with an int64-sized row: still exact
    ds2 = pla.Dataset.from_rows([[2**62], [-(2**62)]], [1, 1], bias=False)
    assert count_mistakes(ds2, [3]) == 1
    assert MistakeCounter(ds2).count((1,)) == 1


def test_the_guard_accounts_for_the_update_budget():
    # dim·(U·max|row|)·max|row| = U·2⁴⁰ < 2⁶³  iff  U < 2²³
    ds = pla.Dataset.from_rows([[2**20], [-(2**20) + 1]], [1, 1], bias=False)
    assert PocketProblem.prepare(ds, PocketOptions(updates=10, order="cyclic")).int64
    assert PocketProblem.prepare(ds, PocketOptions(updates=2**23 - 1, order="cyclic")).int64
    assert not PocketProblem.prepare(ds, PocketOptions(updates=2**23, order="cyclic")).int64


# ----------------------------------------------------------------------------- checks fail
def test_checks_reject_tampered_results():
    problem = PocketProblem.prepare(LITERAL_EXAMPLE, PocketOptions(updates=5, order="cyclic"))
    good = problem.run(0)
    check_pocket_result(problem, good)
    tampered = [
        replace(good, mistakes=good.mistakes + 1),
        replace(good, pocket_w=good.last_w, w=good.last_w),
        replace(good, pocket_mistakes=(3, 2, 2, 1, 3, 1)),
        replace(good, last_w=good.pocket_w),
    ]
    for bad in tampered:
        with pytest.raises(PocketCheckFailed):
            check_pocket_result(problem, bad)


def test_check_failures_survive_pickling():
    error = PocketCheckFailed("the kernel's recount differs", 7, "3 != 4")
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error) and again.seed == 7
    violation = pickle.loads(pickle.dumps(PocketInvariantViolation("x", 2, "1 > 0")))
    assert violation.step == 2 and "update 2" in str(violation)


def test_bad_options_are_refused():
    with pytest.raises(pla.OptionError):
        PocketOptions(updates=-1)
    with pytest.raises(pla.OptionError):
        PocketOptions(updates=1, keep="best")
    with pytest.raises(pla.OptionError):
        pocket(LITERAL_EXAMPLE, 3, order="sideways")
    with pytest.raises(pla.OptionError):
        pocket(LITERAL_EXAMPLE, 3, eta=0)
    with pytest.raises(pla.OptionError):
        pocket(LITERAL_EXAMPLE, 3, test=pla.Dataset.from_rows([[1, 2]], [1]))


def _forged(result, **changes):
    return replace(result, **changes)


@settings(max_examples=15, deadline=None)
@given(ds=datasets(), order=run_orders, updates=st.integers(2, 12), seed=st.integers(0, 5),
       data=st.data())
def test_a_forged_history_fails_the_check(ds, order, updates, seed, data):
    # the engine's numbers are not believed: a decreasing but false history, a walk count that
    # is off by one, or a pocket that is a visited w_t but not the best one, is refused
    problem = PocketProblem.prepare(ds, PocketOptions(updates=updates, order=order))
    good = problem.run(seed)
    check_pocket_result(problem, good)
    walk, history = list(good.walk_mistakes), list(good.pocket_mistakes)
    t = data.draw(st.integers(0, len(walk) - 1))
    forged_walk = walk[:t] + [walk[t] + 1] + walk[t + 1:]
    forged = [_forged(good, walk_mistakes=tuple(forged_walk))]
    if history[-1] > 0:  # claim a better pocket than any w_t visited: still non-increasing
        forged.append(_forged(good, pocket_mistakes=tuple(history[:-1]) + (history[-1] - 1,)))
    worse = [s for s in range(len(walk)) if walk[s] > walk[good.pocket_t]]
    if worse:
        s = worse[0]
        forged_pocket = pla.run(ds, options=good.options.run_options(seed, s), keep_steps=False).w
        forged.append(_forged(good, pocket_t=s, pocket_w=forged_pocket, w=forged_pocket,
                              mistakes=walk[s], pocket_mistakes=tuple(walk[s] for _ in walk)))
    for bad in forged:
        with pytest.raises(PocketCheckFailed):
            check_pocket_result(problem, bad)
