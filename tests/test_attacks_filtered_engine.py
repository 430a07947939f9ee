"""Attacks on the certified float filter (review): extreme learning rates and starting weights,
data whose scale is not a power of two, long runs where w grows, every order and zero convention.
Each run must be the Fraction reference's, step for step."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings, strategies as st

import pla
from pla.fast_engine import EngineStats, run_fast
from pla.perceptron import RunOptions
from tests.test_filtered_engine import adversarial_floats, assert_same_run, reference

#: Exact numbers the float filter finds hard: beyond the float range, below the subnormals,
#: not dyadic (no exact float), and ordinary ones.
hard_numbers = st.one_of(
    adversarial_floats.map(Fraction),
    st.sampled_from([Fraction(1, 3), Fraction(-7, 10), Fraction(2**1100), -Fraction(2**1100),
                     Fraction(1, 2**1100), Fraction(3, 2**1080), Fraction(10**300, 3),
                     Fraction(2**70 + 1), Fraction(-(2**64) - 3, 7), Fraction(0)]),
)
hard_etas = st.one_of(
    st.builds(Fraction, st.integers(1, 5), st.integers(1, 4)),
    st.sampled_from([Fraction(1, 3), Fraction(1, 2**600), Fraction(1, 2**40), Fraction(2**600),
                     Fraction(3, 2**1000), Fraction(1, 10**300), Fraction(2**1000, 3),
                     Fraction(1, 2**1060), Fraction(2**1030)]),
)


@st.composite
def hard_runs(draw, max_n: int = 6, max_d: int = 3, max_updates: int = 40):
    d = draw(st.integers(1, max_d))
    n = draw(st.integers(1, max_n))
    rows = draw(st.lists(st.lists(hard_numbers, min_size=d, max_size=d), min_size=n,
                         max_size=n))
    if draw(st.booleans()) and rows:                 # a near-copy with the other label
        rows.append([v + Fraction(1, 2**draw(st.integers(0, 1100))) if k == 0 else v
                     for k, v in enumerate(rows[0])])
    labels = draw(st.lists(st.sampled_from([1, -1]), min_size=len(rows), max_size=len(rows)))
    ds = pla.Dataset.from_rows(rows, labels, bias=draw(st.booleans()))
    w0 = draw(st.none() | st.lists(hard_numbers, min_size=ds.dim, max_size=ds.dim).map(tuple))
    options = RunOptions(order=draw(st.sampled_from(pla.ORDERS)),
                         seed=draw(st.integers(0, 2**32)), eta=draw(hard_etas), w0=w0,
                         zero=draw(st.sampled_from(pla.ZERO_CONVENTIONS)),
                         max_updates=draw(st.integers(0, max_updates)))
    return ds, options


def _filtered(ds: pla.Dataset, options: RunOptions) -> pla.Result:
    steps: list[pla.Step] = []
    w, updates, epochs, halted = run_fast(ds, options, steps.append, carriers="filter")
    return pla.Result(w, updates, epochs, halted, options, tuple(steps))


@settings(max_examples=150, deadline=None)
@given(hard_runs())
def test_filter_matches_reference_with_extreme_eta_w0_and_scales(case) -> None:
    ds, options = case
    assert_same_run(_filtered(ds, options), reference(ds, options))


@settings(max_examples=60, deadline=None)
@given(hard_runs())
def test_filter_without_hooks_matches_reference_with_extreme_eta_w0(case) -> None:
    ds, options = case
    expected = reference(ds, options)
    assert run_fast(ds, options, carriers="filter") == (expected.w, expected.updates,
                                                        expected.epochs, expected.halted)


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_filter_matches_reference_on_long_runs_where_w_grows(data) -> None:
    """Non-separable float data, hundreds of updates: E and m grow, blocks are reused."""
    n = data.draw(st.integers(8, 30))
    rows = data.draw(st.lists(st.lists(st.floats(-3, 3, allow_nan=False), min_size=2,
                                       max_size=2), min_size=n, max_size=n))
    rows = [[Fraction(v) for v in row] for row in rows] + [[Fraction(0.1), Fraction(0.2)]] * 2
    labels = data.draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n)) + [1, -1]
    ds = pla.Dataset.from_rows(rows, labels)
    options = RunOptions(order=data.draw(st.sampled_from(pla.ORDERS)),
                         seed=data.draw(st.integers(0, 100)),
                         eta=data.draw(st.sampled_from([Fraction(1), Fraction(1, 3),
                                                        Fraction(2**-30)])),
                         zero=data.draw(st.sampled_from(pla.ZERO_CONVENTIONS)),
                         max_updates=400)
    expected = reference(ds, options)
    assert run_fast(ds, options, carriers="filter") == (expected.w, expected.updates,
                                                        expected.epochs, expected.halted)


def test_default_engine_on_integers_beyond_int64_with_a_non_dyadic_scale() -> None:
    """Rows beyond int64 over scale 3: the default engine takes the filter (not a power of two)."""
    rows = [[Fraction(2**70 + 1, 3), Fraction(1, 3)], [Fraction(-(2**70), 3), Fraction(2, 3)],
            [Fraction(2**70, 3), Fraction(-1, 3)]]
    ds = pla.Dataset.from_rows(rows, [1, -1, -1])
    assert ds.int64_rows is None and ds.scale == 3
    for order in pla.ORDERS:
        for zero in pla.ZERO_CONVENTIONS:
            options = RunOptions(order=order, zero=zero, max_updates=50, w0=(0, 0, Fraction(1, 3)))
            stats = EngineStats()
            got = run_fast(ds, options, stats=stats)
            expected = reference(ds, options)
            assert got == (expected.w, expected.updates, expected.epochs, expected.halted)
            assert stats.float_blocks > 0


def test_from_float_array_with_numpy_labels_runs_as_with_python_labels() -> None:
    """numpy int64 labels were stored as they came: k·count then overflowed (or raised)."""
    import numpy as np

    X = np.array([[0.1, 0.3], [0.2, -0.7], [-0.5, 0.25]])
    ds = pla.Dataset.from_float_array(X, np.array([1, -1, -1]))
    assert all(type(y) is int for y in ds.labels)
    assert ds == pla.Dataset.from_float_array(X, [1, -1, -1])
    expected = reference(ds, RunOptions())
    assert pla.run(ds).w == expected.w


def test_dataset_refuses_labels_that_are_not_python_ints() -> None:
    import numpy as np
    import pytest

    with pytest.raises(ValueError, match="labels must be the Python ints"):
        pla.Dataset(((1, 2),), 1, (np.int64(1),))
    with pytest.raises(ValueError, match="labels must be the Python ints"):
        pla.Dataset(((1, 2),), 1, (1.0,))
