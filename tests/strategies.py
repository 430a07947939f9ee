"""Hypothesis strategies for exact data sets and run options, composed from small pieces."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

import pla

small_fractions = st.builds(
    Fraction, st.integers(min_value=-9, max_value=9), st.integers(min_value=1, max_value=6)
)
labels = st.sampled_from([1, -1])


@st.composite
def datasets(draw, min_n: int = 1, max_n: int = 7, max_d: int = 3, values=small_fractions,
             bias: bool | None = None) -> pla.Dataset:
    """A small exact data set (any labels: separable or not)."""
    n = draw(st.integers(min_value=min_n, max_value=max_n))
    d = draw(st.integers(min_value=1, max_value=max_d))
    X = draw(st.lists(st.lists(values, min_size=d, max_size=d), min_size=n, max_size=n))
    y = draw(st.lists(labels, min_size=n, max_size=n))
    with_bias = draw(st.booleans()) if bias is None else bias
    return pla.Dataset.from_rows(X, y, bias=with_bias)


@st.composite
def separable_datasets(draw, max_n: int = 8, max_d: int = 3) -> pla.Dataset:
    """Data labelled by a random hyperplane through exact points (no point on it)."""
    d = draw(st.integers(min_value=1, max_value=max_d))
    w = draw(st.lists(st.integers(min_value=-4, max_value=4), min_size=d + 1, max_size=d + 1)
             .filter(lambda v: any(v[1:])))
    n = draw(st.integers(min_value=1, max_value=max_n))
    rows, ys = [], []
    for _ in range(n):
        x = draw(st.lists(small_fractions, min_size=d, max_size=d)
                 .filter(lambda x: w[0] + sum(a * b for a, b in zip(w[1:], x)) != 0))
        s = w[0] + sum(a * b for a, b in zip(w[1:], x))
        rows.append(x)
        ys.append(1 if s > 0 else -1)
    return pla.Dataset.from_rows(rows, ys)


run_orders = st.sampled_from(pla.ORDERS)
zeros = st.sampled_from(pla.ZERO_CONVENTIONS)
etas = st.builds(Fraction, st.integers(min_value=1, max_value=5), st.integers(min_value=1, max_value=4))


@st.composite
def run_options(draw, dim: int, max_updates: int = 40) -> pla.RunOptions:
    """Any combination of run options for vectors of length ``dim``."""
    w0 = draw(st.none() | st.lists(small_fractions, min_size=dim, max_size=dim).map(tuple))
    return pla.RunOptions(
        order=draw(run_orders), seed=draw(st.integers(min_value=0, max_value=2**32)),
        eta=draw(etas), w0=w0, zero=draw(zeros),
        max_updates=draw(st.integers(min_value=0, max_value=max_updates)),
    )
