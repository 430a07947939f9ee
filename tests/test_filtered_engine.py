"""The certified float filter agrees with the Fraction reference step for step.

Adversarial data: ties (duplicate points with both labels, exact zero scores), scores within a
few ulps of zero (rows that differ in their last bit), subnormals, values near 2^±1000, and a
cancellation that plain float64 gets wrong.
"""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings, strategies as st

import pla
from pla.fast_engine import EngineStats, run_fast
from pla.filtered_engine import float_rows
from pla.perceptron import RunOptions
from tests.strategies import run_options


def reference(ds: pla.Dataset, options: RunOptions) -> pla.Result:
    return pla.run(ds, options=options, engine="reference")


def filtered(ds: pla.Dataset, options: RunOptions, carriers: str = "filter"
             ) -> tuple[pla.Result, EngineStats]:
    steps: list[pla.Step] = []
    stats = EngineStats()
    w, updates, epochs, halted = run_fast(ds, options, steps.append, stats=stats,
                                          carriers=carriers)
    return pla.Result(w, updates, epochs, halted, options, tuple(steps)), stats


def assert_same_run(a: pla.Result, b: pla.Result) -> None:
    assert a.steps == b.steps
    assert (a.w, a.updates, a.epochs, a.halted) == (b.w, b.updates, b.epochs, b.halted)


# ------------------------------------------------------------------ adversarial floats
def _scaled(mantissa: int, exponent: int) -> float:
    return math.ldexp(mantissa, exponent)


#: Ordinary floats, subnormals, numbers near 2^±1000, and ±(1 + k ulp).
adversarial_floats = st.one_of(
    st.floats(min_value=-4, max_value=4, allow_nan=False, allow_infinity=False),
    st.integers(min_value=-3, max_value=3),
    st.builds(_scaled, st.integers(min_value=-8, max_value=8),
              st.sampled_from([-1074, -1073, -1060, -1022, -1000, 990, 1000, 1010])),
    st.builds(lambda k, sign: sign * (1.0 + k * 2.0**-52), st.integers(0, 3),
              st.sampled_from([1.0, -1.0])),
)


@st.composite
def adversarial_datasets(draw, max_n: int = 6, max_d: int = 3) -> pla.Dataset:
    """Rows of adversarial floats, with near-copies (a last-bit change) and exact copies that
    carry the other label: ties and scores within an ulp of zero."""
    d = draw(st.integers(min_value=1, max_value=max_d))
    base = draw(st.lists(st.lists(adversarial_floats, min_size=d, max_size=d),
                         min_size=1, max_size=max_n))
    rows: list[list[float]] = []
    for row in base:
        rows.append(row)
        kind = draw(st.sampled_from(["none", "copy", "nudge"]))
        if kind == "copy":
            rows.append(list(row))
        elif kind == "nudge":
            rows.append([math.nextafter(v, math.inf) if k == 0 else v
                         for k, v in enumerate(row)])
    labels = draw(st.lists(st.sampled_from([1, -1]), min_size=len(rows), max_size=len(rows)))
    return pla.Dataset.from_rows([[Fraction(v) for v in row] for row in rows], labels,
                                 bias=draw(st.booleans()))


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_filter_matches_reference_on_adversarial_floats(data) -> None:
    ds = data.draw(adversarial_datasets())
    options = data.draw(run_options(ds.dim, max_updates=25))
    assert_same_run(filtered(ds, options)[0], reference(ds, options))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_default_engine_matches_reference_on_adversarial_floats(data) -> None:
    ds = data.draw(adversarial_datasets())
    options = data.draw(run_options(ds.dim, max_updates=25))
    steps: list[pla.Step] = []
    w, updates, epochs, halted = run_fast(ds, options, steps.append)
    assert_same_run(pla.Result(w, updates, epochs, halted, options, tuple(steps)),
                    reference(ds, options))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_filter_without_hooks_matches_reference(data) -> None:
    """No step hook: the exact weights are only brought up to date when needed."""
    ds = data.draw(adversarial_datasets())
    options = data.draw(run_options(ds.dim, max_updates=25))
    got = run_fast(ds, options, carriers="filter")
    expected = reference(ds, options)
    assert got == (expected.w, expected.updates, expected.epochs, expected.halted)


def test_cancellation_that_float64_gets_wrong_is_decided_exactly() -> None:
    # w₀ = (1, 1, 1), x = (2⁶⁰, 1, −2⁶⁰): w·x = 1 exactly, but 2⁶⁰ + 1 − 2⁶⁰ = 0 in float64,
    # which would be a mistake for y = +1 and trigger a wrong update.
    ds = pla.Dataset.from_rows([[2**60, 1, -(2**60)]], [1], bias=False)
    options = RunOptions(w0=(1, 1, 1))
    assert float(2**60) + 1.0 - float(2**60) == 0.0
    result, stats = filtered(ds, options)
    assert (result.updates, result.halted) == (0, True)
    assert stats.bigint_blocks >= 1          # the float could not decide: exact arithmetic did
    assert_same_run(result, reference(ds, options))


def test_clear_signs_need_no_exact_arithmetic() -> None:
    rows = [[0.1, 0.7], [0.3, -0.2], [-0.5, 0.25]]
    ds = pla.Dataset.from_rows([[Fraction(v) for v in row] for row in rows], [1, -1, -1])
    result, stats = filtered(ds, RunOptions(order="cyclic"))
    assert_same_run(result, reference(ds, RunOptions(order="cyclic")))
    assert stats.float_blocks > 0


def test_weights_beyond_the_float_range_are_decided_exactly() -> None:
    big = 2**1020
    ds = pla.Dataset.from_rows([[big, big], [big, -big], [-big, big]], [1, -1, 1], bias=False)
    options = RunOptions(eta=Fraction(2**10), max_updates=12)
    assert_same_run(filtered(ds, options)[0], reference(ds, options))


def test_float_rows_are_correctly_rounded_and_infinite_beyond_range() -> None:
    ds = pla.Dataset.from_rows([["1/3", 2**1100], ["-1/3", -(2**1100)]], [1, -1], bias=False)
    assert float_rows(ds).tolist() == [[1 / 3, math.inf], [-1 / 3, -math.inf]]


# ------------------------------------------------------------------ float arrays read exactly
@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(adversarial_floats.map(float), min_size=3, max_size=3),
                min_size=1, max_size=5), st.booleans(), st.sampled_from(["float64", "float32"]))
def test_from_float_array_is_from_rows_of_the_exact_values(rows, bias, dtype) -> None:
    import numpy as np

    with np.errstate(over="ignore"):
        array = np.array(rows, dtype=dtype)
    if not np.isfinite(array).all():
        return
    labels = [1 if k % 2 else -1 for k in range(len(rows))]
    expected = pla.Dataset.from_rows([[Fraction(float(v)) for v in row] for row in array],
                                     labels, bias=bias)
    assert pla.Dataset.from_float_array(array, labels, bias=bias) == expected


# ------------------------------------------------------------------ the fingerprint's meaning
def _fingerprint_row_by_row(ds: pla.Dataset) -> str:
    """The fingerprint as it was first written: one join per row (the meaning to keep)."""
    import hashlib

    h = hashlib.sha256()
    h.update(f"pla-verify-data/1\n{ds.n} {ds.dim} {int(ds.bias)} {ds.scale}\n".encode())
    for y, row in zip(ds.labels, ds.rows):
        h.update((f"{y} " + " ".join(map(str, row)) + "\n").encode())
    return h.hexdigest()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.one_of(st.integers(-(2**17), 2**17), st.integers(-(2**70), 2**70)),
                         min_size=2, max_size=2), min_size=1, max_size=4),
       st.booleans(), st.sampled_from([1, 1500]))
def test_fingerprint_hashes_the_same_text_as_row_by_row(rows, bias, copies) -> None:
    """Small and large entries, few and many rows (the table look-up starts at 4096 cells)."""
    rows = rows * copies
    ds = pla.Dataset.from_rows(rows, [1 if k % 3 else -1 for k in range(len(rows))], bias=bias)
    assert ds.fingerprint == _fingerprint_row_by_row(ds)


def test_fingerprint_of_many_rows_spans_blocks() -> None:
    import pla.dataset

    rows = [[k % 7 - 3, k] for k in range(pla.dataset._FINGERPRINT_ROWS * 2 + 5)]
    ds = pla.Dataset.from_rows(rows, [1 if k % 2 else -1 for k in range(len(rows))])
    assert ds.fingerprint == _fingerprint_row_by_row(ds)
