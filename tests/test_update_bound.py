"""Novikoff's bound from an exactly checked separator, and the estimator's warning quoting it."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings, strategies as st
from sklearn.exceptions import ConvergenceWarning

import pla
from pla.update_bound import separator_update_bound
from tests.strategies import run_options, separable_datasets


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_bound_holds_for_every_run_from_zero(data) -> None:
    ds = data.draw(separable_datasets())
    options = data.draw(run_options(ds.dim, max_updates=10_000))
    options = pla.RunOptions(order=options.order, seed=options.seed, eta=options.eta,
                             zero=options.zero, max_updates=10_000)
    bound = separator_update_bound(ds)
    result = pla.run(ds, options=options, keep_steps=False)
    assert result.halted
    if bound is not None:             # None only when HiGHS's floats missed a separator
        assert result.updates <= bound


def test_no_bound_without_a_separator() -> None:
    ds = pla.Dataset.from_rows([[0], [1], [2]], [1, -1, 1])
    assert separator_update_bound(ds) is None
    assert separator_update_bound(pla.Dataset.from_rows([[1]], [1]), max_entries=1) is None


def test_the_warning_quotes_the_proven_bound_on_separable_data() -> None:
    X = [[k, 3 * k % 7] for k in range(-6, 7) if k]
    y = [1 if a + 0.3 * b > 0.5 else 0 for a, b in X]
    ds = pla.Dataset.from_rows(X, [1 if v else -1 for v in y])
    bound = separator_update_bound(ds)
    with pytest.warns(ConvergenceWarning, match=f"proven to halt within {bound:,} "):
        pla.Perceptron(max_updates=1).fit(X, y)


def test_the_warning_on_data_that_are_not_separable_says_so() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pla.Perceptron(max_updates=5).fit([[0], [1], [2], [3]], [0, 1, 0, 1])
    assert "may not be linearly separable" in str(caught[0].message)
