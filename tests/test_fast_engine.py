"""The fast exact engine agrees with the Fraction reference step for step, on every path.

Paths: the float64 carrier (scores provably below 2⁵²), int64 (below 2⁶³), Python integers
(everything else), and switches between them in the middle of a run.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

import pla
import pla.fast_engine as fast_engine
from pla.fast_engine import INT64_LIMIT, EngineStats, run_fast
from pla.perceptron import RunOptions
from tests.strategies import datasets, run_options
from tests.test_filtered_engine import _fingerprint_row_by_row

CARRIERS = ("float", "int64", "bigint")


def reference(ds: pla.Dataset, options: RunOptions) -> pla.Result:
    return pla.run(ds, options=options, engine="reference")


def fast(ds: pla.Dataset, options: RunOptions, **kwargs) -> tuple[pla.Result, EngineStats]:
    steps: list[pla.Step] = []
    stats = EngineStats()
    w, updates, epochs, halted = run_fast(ds, options, steps.append, stats=stats, **kwargs)
    return pla.Result(w, updates, epochs, halted, options, tuple(steps)), stats


def assert_same_run(a: pla.Result, b: pla.Result) -> None:
    assert a.steps == b.steps
    assert (a.w, a.updates, a.epochs, a.halted) == (b.w, b.updates, b.epochs, b.halted)


# ------------------------------------------------------------------ strategies
def near(value: int) -> st.SearchStrategy[int]:
    return st.integers(min_value=-3, max_value=3).map(lambda k: value + k)


#: Integers around the edges the engine reasons about: 2²⁶ (float products), 2³¹ (int64
#: products), 2⁵², 2⁶², 2⁶³ − 1 and −2⁶³ (the word itself), and beyond.
edge_integers = st.one_of(
    st.integers(min_value=-5, max_value=5),
    *[near(sign * 2**e) for e in (26, 31, 32, 52, 53, 62, 63) for sign in (1, -1)],
    st.just(INT64_LIMIT), st.just(-INT64_LIMIT - 1),
    st.integers(min_value=-(2**70), max_value=2**70),
)
#: Entries whose products with a few-update w land right around 2⁶³.
int64_edge_integers = st.builds(lambda sign, e, k: sign * (2**e + k), st.sampled_from([1, -1]),
                                st.integers(min_value=28, max_value=33),
                                st.integers(min_value=-(2**20), max_value=2**20))
huge_fractions = st.builds(
    Fraction, st.integers(min_value=-(10**40), max_value=10**40),
    st.integers(min_value=1, max_value=10**40),
)
word_limits = st.one_of(st.integers(min_value=1, max_value=2**12),
                        st.integers(min_value=1, max_value=INT64_LIMIT), st.just(INT64_LIMIT))


# ------------------------------------------------------------------ agreement
@settings(max_examples=60)
@given(st.data())
def test_fast_and_reference_agree_step_for_step(data):
    ds = data.draw(datasets())
    options = data.draw(run_options(ds.dim))
    carriers = data.draw(st.sampled_from(CARRIERS))
    assert_same_run(fast(ds, options, carriers=carriers)[0], reference(ds, options))


@settings(max_examples=40)
@given(st.data())
def test_agreement_near_the_int64_limits(data):
    ds = data.draw(datasets(max_n=6, max_d=3, values=edge_integers))
    options = data.draw(run_options(ds.dim, max_updates=25))
    carriers = data.draw(st.sampled_from(CARRIERS))
    assert_same_run(fast(ds, options, carriers=carriers)[0], reference(ds, options))


@settings(max_examples=40)
@given(st.data())
def test_agreement_where_int64_products_reach_2_63(data):
    ds = data.draw(datasets(max_n=6, max_d=3, values=int64_edge_integers))
    options = data.draw(run_options(ds.dim, max_updates=25))
    assert_same_run(fast(ds, options, carriers="int64")[0], reference(ds, options))


@settings(max_examples=25)
@given(st.data())
def test_agreement_with_huge_numerators_and_denominators(data):
    ds = data.draw(datasets(max_n=5, max_d=3, values=huge_fractions))
    options = data.draw(run_options(ds.dim, max_updates=15))
    assert_same_run(fast(ds, options)[0], reference(ds, options))


@settings(max_examples=40)
@given(st.data())
def test_forced_fallback_gives_identical_results(data):
    """A tiny word limit sends some or all blocks to Python integers: nothing changes."""
    ds = data.draw(datasets(max_n=8, max_d=4))
    options = data.draw(run_options(ds.dim, max_updates=60))
    limit = data.draw(word_limits)
    result, stats = fast(ds, options, word_limit=limit)
    assert_same_run(result, reference(ds, options))
    if max(sum(v * v for v in row) for row in ds.rows) > limit * limit:
        assert stats.float_blocks == stats.int64_blocks == 0    # rows too big for the word


def test_tiny_limit_switches_paths_in_the_middle_of_a_run():
    # Random labels: not separable, so w keeps moving (its size stays bounded: the perceptron
    # cycling theorem); with a word limit of 16, blocks go back and forth between the vectorised
    # path (‖W‖·max‖x‖ ≤ 16) and Python integers.
    rng = random.Random(5)
    noise = pla.Dataset.from_rows([[rng.randint(-3, 3) for _ in range(3)] for _ in range(20)],
                                  [rng.choice([1, -1]) for _ in range(20)])
    for order in pla.ORDERS:
        options = RunOptions(order=order, seed=3, max_updates=300)
        ref = reference(noise, options)
        for carriers in ("float", "int64"):
            result, stats = fast(noise, options, word_limit=16, carriers=carriers)
            assert_same_run(result, ref)
            assert stats.bigint_blocks > 0 and stats.float_blocks + stats.int64_blocks > 0


@pytest.mark.parametrize("order, seed", [("cyclic", 0), ("random-cycle", 3), ("random", 0)])
def test_weights_grow_past_2_63_without_wrapping(order, seed):
    """A long run (72 updates, cyclic) on data scaled by 2⁴⁰ with η = 2¹⁹: w starts at 0 (int64
    scans) and grows beyond 2⁶³ (Python integers), the same as the reference at every step."""
    rows = [[1, 1, 9], [1, 2, 3], [1, 4, -5], [1, -9, 7], [1, -6, 1], [1, 9, -7]]
    ds = pla.Dataset.from_rows([[2**40 * v for v in row] for row in rows],
                               [-1, -1, 1, 1, 1, 1], bias=False)
    options = RunOptions(order=order, seed=seed, eta=2**19)
    result, stats = fast(ds, options, carriers="int64")
    ref = reference(ds, options)
    assert_same_run(result, ref)
    assert ref.halted and max(abs(v) for step in ref.steps for v in step.w_after) > 2**63
    assert stats.int64_blocks > 0 and stats.bigint_blocks > 0


def test_float_carrier_is_used_only_below_2_52():
    ds = pla.Dataset.from_rows([[2**20, 1], [-(2**20), 3]], [1, -1])
    stats = EngineStats()
    w, *_ = run_fast(ds, RunOptions(), stats=stats)
    assert stats.float_blocks > 0 and stats.int64_blocks == stats.bigint_blocks == 0
    wide = pla.Dataset.from_rows([[2**53 + 1, 1], [-(2**53), 3]], [1, -1])
    stats = EngineStats()
    run_fast(wide, RunOptions(), stats=stats)
    assert stats.float_blocks == 0 and stats.int64_blocks + stats.bigint_blocks > 0


# ------------------------------------------------------------------ hooks and costs
@settings(max_examples=30)
@given(st.data())
def test_on_update_reports_each_step_cheaply(data):
    ds = data.draw(datasets())
    options = data.draw(run_options(ds.dim))
    for engine in pla.ENGINES:
        seen: list[tuple] = []
        result = pla.run(ds, options=options, engine=engine,
                         on_update=lambda *args: seen.append(args))
        assert seen == [(s.t, s.index, s.y, s.score) for s in result.steps]


def test_no_fractions_are_built_in_the_hot_loop(monkeypatch):
    built = []

    def counting_fraction(*args):
        built.append(args)
        return Fraction(*args)

    monkeypatch.setattr(fast_engine, "Fraction", counting_fraction)
    xor = pla.Dataset.from_rows([[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1])
    result = pla.run(xor, max_updates=500, keep_steps=False)
    assert result.updates == 500 and not result.halted
    assert len(built) == xor.dim                  # only the final w
    built.clear()
    pla.run(xor, max_updates=500, keep_steps=False, on_update=lambda *a: None)
    assert len(built) == xor.dim + 500            # one exact score per update


def test_word_limit_and_carriers_are_checked():
    ds = pla.Dataset.from_rows([[1]], [1])
    with pytest.raises(ValueError):
        run_fast(ds, RunOptions(), word_limit=0)
    with pytest.raises(ValueError):
        run_fast(ds, RunOptions(), word_limit=2**63)
    with pytest.raises(ValueError):
        run_fast(ds, RunOptions(), carriers="double")


# ------------------------------------------------------------------ data held as one int64 matrix
@settings(max_examples=40)
@given(st.data())
def test_a_data_set_held_as_an_int64_matrix_runs_and_hashes_as_its_python_rows(data):
    """Dataset.from_int64_matrix (what reading a file builds) keeps no Python rows for a run and
    its fingerprint, and gives the same run, fingerprint, equality and pickle as the rows."""
    import pickle

    import numpy as np

    ds = data.draw(datasets(max_n=6, max_d=3, values=edge_integers))
    matrix = ds.int64_rows
    if matrix is None or np.any(matrix == -INT64_LIMIT - 1):
        with pytest.raises((ValueError, TypeError)):
            pla.Dataset.from_int64_matrix(np.array(ds.rows, dtype=object), ds.scale,
                                          ds.int64_labels, bias=ds.bias)
        return
    held = pla.Dataset.from_int64_matrix(matrix, ds.scale, np.array(ds.labels), bias=ds.bias)
    options = data.draw(run_options(ds.dim, max_updates=25))
    result = pla.run(held, options=options, keep_steps=False)
    largest = max(int(matrix.max()), -int(matrix.min()))
    # the int64 scans throughout (else Python integers, which need the rows): every score is at
    # most ‖W‖·‖row‖ ≤ max(1, T)·k·max‖row‖² with k = η's numerator (w₀ = 0); a bound on the data alone
    # missed η = 2 on entries of 2³¹, whose second update needs Python integers (hypothesis)
    if options.w0 is None and options.max_updates is not None and max(1, options.max_updates) \
            * abs(Fraction(options.eta).numerator) * largest * largest * ds.dim <= INT64_LIMIT:
        assert "rows" not in held.__dict__
    assert held.fingerprint == ds.fingerprint
    expected = reference(ds, options)
    assert (result.w, result.updates, result.halted) == (expected.w, expected.updates,
                                                         expected.halted)
    assert held == ds and held.rows == ds.rows and all(type(v) is int for v in held.rows[0])
    assert pickle.loads(pickle.dumps(held)) == ds


def test_an_int64_matrix_is_reduced_and_checked():
    import numpy as np

    held = pla.Dataset.from_int64_matrix(np.array([[4, -6], [4, 2]]), 2, np.array([1, -1]),
                                         bias=True)
    assert (held.scale, held.rows) == (1, ((2, -3), (2, 1)))
    for bad in (np.array([[-2**63, 1]]), np.array([[1.0, 2.0]]), np.array([1, 2])):
        with pytest.raises(ValueError):
            pla.Dataset.from_int64_matrix(bad, 1, np.array([1]), bias=False)
    with pytest.raises(ValueError, match="labels"):
        pla.Dataset.from_int64_matrix(np.array([[1, 2]]), 1, np.array([0]), bias=False)


@settings(max_examples=10, deadline=None)
@given(st.sampled_from([3, 2**16, 2**16 + 1, INT64_LIMIT]), st.integers(1, 3000),
       st.booleans())
def test_the_fingerprint_of_an_int64_matrix_is_the_row_by_row_hash(largest, n, bias):
    """Table look-up (entries up to 2¹⁶), str of int64 (beyond), one block or several."""
    import numpy as np


    rng = np.random.default_rng(n)
    matrix = rng.integers(-largest, largest, size=(n, 3), endpoint=True, dtype=np.int64)
    matrix[0, 0] = 1                                  # lowest terms over scale 1
    labels = np.where(rng.integers(0, 2, size=n) == 1, 1, -1)
    held = pla.Dataset.from_int64_matrix(matrix, 1, labels, bias=bias)
    rows = pla.Dataset.from_integers(matrix.tolist(), 1, labels.tolist(), bias=bias)
    assert held.fingerprint == _fingerprint_row_by_row(rows) == rows.fingerprint
