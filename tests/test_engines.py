"""The exact PLA engines: agreement, invariances, halting, the textbook example, conventions."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

import pla
from pla.generate import separable_data
from tests.strategies import datasets, etas, run_options, run_orders, separable_datasets, zeros

TEXTBOOK = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
XOR = pla.Dataset.from_rows([[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1])


def separates(w, ds: pla.Dataset) -> bool:
    return all(y * sum(a * b for a, b in zip(w, x)) > 0 for x, y in zip(ds.X, ds.labels))


@given(st.data())
def test_reference_and_default_engines_agree_step_for_step(data):
    ds = data.draw(datasets())
    options = data.draw(run_options(ds.dim))
    ref = pla.run(ds, options=options, engine="reference")
    fast = pla.run(ds, options=options, engine="default")
    assert fast.steps == ref.steps
    assert (fast.w, fast.updates, fast.epochs, fast.halted) == (
        ref.w, ref.updates, ref.epochs, ref.halted)


@given(st.data())
def test_steps_are_mistakes_and_updates_follow_the_rule(data):
    ds = data.draw(datasets())
    options = data.draw(run_options(ds.dim))
    result = pla.run(ds, options=options)
    w = options.initial_weights(ds.dim)
    for t, step in enumerate(result.steps):
        assert step.t == t and step.w_before == w
        assert step.x == ds.X[step.index] and step.y == ds.labels[step.index]
        assert step.score == sum(a * b for a, b in zip(w, step.x))
        assert pla.is_mistake(step.score, step.y, options.zero)
        w = tuple(a + options.eta * step.y * b for a, b in zip(w, step.x))
        assert step.w_after == w
    assert result.w == w and result.updates == len(result.steps)


@given(separable_datasets(), run_orders, st.builds(Fraction, st.integers(1, 7), st.integers(1, 7)))
def test_scaling_all_x_keeps_the_update_sequence(ds, order, c):
    scaled = pla.Dataset.from_rows([[c * v for v in x] for x in ds.X], ds.labels, bias=False)
    a = pla.run(ds, order, seed=5)
    b = pla.run(scaled, order, seed=5)
    assert [s.index for s in a.steps] == [s.index for s in b.steps]
    assert b.w == tuple(c * v for v in a.w)
    assert (a.updates, a.epochs, a.halted) == (b.updates, b.epochs, b.halted)


@given(datasets(), run_orders, etas, zeros)
def test_eta_scales_w_and_keeps_the_sequence_from_zero(ds, order, eta, zero):
    a = pla.run(ds, order, seed=2, zero=zero, max_updates=30)
    b = pla.run(ds, order, seed=2, zero=zero, eta=eta, max_updates=30)
    assert [s.index for s in a.steps] == [s.index for s in b.steps]
    assert b.w == tuple(eta * v for v in a.w)
    assert (a.updates, a.epochs, a.halted) == (b.updates, b.epochs, b.halted)


@given(separable_datasets(), run_orders, st.integers(0, 1000))
def test_halts_with_a_separator_on_separable_data(ds, order, seed):
    result = pla.run(ds, order, seed=seed, max_updates=100_000)
    assert result.halted
    assert separates(result.w, ds)


@given(st.integers(1, 40), st.integers(1, 3), st.integers(0, 10**6))
def test_halts_on_generated_data_with_a_margin(n, d, seed):
    rows, labels = separable_data(n, d, "1/20", seed=seed)
    ds = pla.Dataset.from_rows(rows, labels)
    result = pla.run(ds)
    assert result.halted and separates(result.w, ds)


@pytest.mark.parametrize("order", pla.ORDERS)
def test_xor_never_halts_and_stops_at_the_budget(order):
    result = pla.run(XOR, order, max_updates=57)
    assert not result.halted and result.updates == 57
    assert not separates(result.w, XOR)


def test_textbook_example():
    result = pla.run(TEXTBOOK, "first")
    assert result.updates == 7 and result.halted
    assert result.w == (-3, 1, 1)  # b = -3, w = (1, 1)
    assert [s.index + 1 for s in result.steps] == [1, 3, 3, 3, 1, 3, 3]
    assert [s.w_after for s in result.steps] == [
        (1, 3, 3), (0, 2, 2), (-1, 1, 1), (-2, 0, 0), (-1, 3, 3), (-2, 2, 2), (-3, 1, 1)]
    assert result.epochs == 8  # 7 scans that found a mistake, and the clean one


def test_cyclic_epoch_counting():
    tiny = pla.Dataset.from_rows([[1], [-1]], [1, -1], bias=False)
    assert pla.run(tiny).epochs == 2  # one update in pass 1, then a clean pass
    clean = pla.run(tiny, w0=[1])
    assert (clean.updates, clean.epochs) == (0, 1)
    # Updates in passes 1 and 2 only (x1 in pass 1, x1 again in pass 2): 3 epochs.
    two_passes = pla.Dataset.from_rows([[1, 0], [0, 1]], [1, 1], bias=False)
    r = pla.run(two_passes, w0=[-1, 1])
    assert [s.index for s in r.steps] == [0, 0] and r.halted and r.epochs == 3
    stopped = pla.run(two_passes, w0=[-1, 1], max_updates=1)
    assert not stopped.halted and stopped.epochs == 2  # the refused update was in pass 2


@pytest.mark.parametrize("zero, expected_updates", [
    ("mistake", 1), ("positive", 0), ("negative", 1), ("correct", 0)])
def test_zero_conventions_on_a_zero_score(zero, expected_updates):
    positive_point = pla.Dataset.from_rows([[1]], [1], bias=False)
    assert pla.run(positive_point, zero=zero).updates == expected_updates


@pytest.mark.parametrize("zero, expected_updates", [
    ("mistake", 1), ("positive", 1), ("negative", 0), ("correct", 0)])
def test_zero_conventions_on_a_negative_point(zero, expected_updates):
    negative_point = pla.Dataset.from_rows([[1]], [-1], bias=False)
    assert pla.run(negative_point, zero=zero).updates == expected_updates


@given(datasets(), run_orders)
def test_the_strict_rule_never_moves_from_zero(ds, order):
    result = pla.run(ds, order, zero="correct")
    assert result.updates == 0 and result.halted and all(v == 0 for v in result.w)


def test_random_orders_depend_on_the_seed_and_are_reproducible():
    rows, labels = separable_data(30, 3, "1/50", seed=7)
    ds = pla.Dataset.from_rows(rows, labels)
    for order in ("random", "random-cycle"):
        a = pla.run(ds, order, seed=1)
        assert a.steps == pla.run(ds, order, seed=1).steps
        seqs = {tuple(s.index for s in pla.run(ds, order, seed=k).steps) for k in range(6)}
        assert len(seqs) > 1


def test_bad_options_are_refused():
    with pytest.raises(pla.OptionError):
        pla.run(TEXTBOOK, "sideways")
    with pytest.raises(pla.OptionError):
        pla.run(TEXTBOOK, eta=0)
    with pytest.raises(pla.OptionError):
        pla.run(TEXTBOOK, w0=[1, 2])
    with pytest.raises(pla.OptionError):
        pla.run(TEXTBOOK, zero="maybe")
    with pytest.raises(TypeError):
        pla.run(TEXTBOOK, eta=0.5)  # floats are not exact


def test_keep_steps_false_still_calls_back():
    seen = []
    result = pla.run(TEXTBOOK, "first", keep_steps=False, on_step=seen.append)
    assert result.steps == () and len(seen) == 7


def test_estimator_api():
    clf = pla.Perceptron(order="first").fit([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    assert clf.coef_.tolist() == [[1, 1]] and clf.intercept_.tolist() == [-3]
    assert clf.n_updates_ == 7
    assert clf.predict([[3, 3], [1, 1], ["2.5", "0.5"]]).tolist() == [1, -1, 1]
    assert clf.score([[3, 3], [4, 3], [1, 1]], [1, 1, -1]) == 1
