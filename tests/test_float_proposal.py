"""The float max-margin proposal behind `near_max_margin` (issue 29): the signed float matrix
built from the int64 rows in place, rows chosen by a partition instead of a full sort, the
Gram active set started from the rows of smallest margin, quadprog's working sets made of the
last support and the nearest rows.  The floats only propose, so what must hold is that the
kernel-checked certificate proves what the previous proposal (kept below as the reference)
proved, and that the previous paths still run where the new ones do not settle.
"""

from __future__ import annotations

from math import floor
from operator import neg

import numpy as np
import pytest
from hypothesis import assume, example, given, settings, strategies as st

import pla
from verify.search import certificates
from verify.search.certificates import Separator, max_margin, near_max_margin


# ---------------------------------------------------- the proposal as it was before issue 29
def reference_gram_active_set(A, iterations=60):
    """The Gram active set before issue 29 (blocks by ``ix_``, H built out of place)."""
    n = A.shape[0]
    H = A @ A.T + 1.0
    free = np.ones(n, dtype=bool)
    u = np.zeros(n)
    for _ in range(iterations):
        index = np.flatnonzero(free)
        u = np.zeros(n)
        if index.size:
            block = H[np.ix_(index, index)]
            try:
                u[index] = np.linalg.solve(block, np.ones(index.size))
            except np.linalg.LinAlgError:
                u[index] = np.linalg.lstsq(block, np.ones(index.size), rcond=None)[0]
        gradient = H @ u - 1.0
        new = (free & (u > 0)) | (~free & (gradient < 0))
        if np.array_equal(new, free):
            return u
        free = new
    return u


def reference_smallest(values, count):
    """The ``count`` smallest by a sort of all the values, as the working sets were chosen."""
    return np.argsort(values)[:count]


def reference_signed_float_matrix(dataset):
    """The Python-row path: yₙ rowₙ over the largest entry, row by row."""
    return certificates._float_matrix([row if y > 0 else tuple(map(neg, row))
                                       for y, row in zip(dataset.labels, dataset.rows)])


def reference_near_max_margin(ds):
    """The proposal before issue 29: no round of nearest rows in the working-set QP (its
    growth rule is main's, line for line), full sorts, the reference Gram active set and float
    matrix."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(certificates, "QP_NEAREST_ROUNDS", 0)
        m.setattr(certificates, "_gram_active_set", reference_gram_active_set)
        m.setattr(certificates, "_smallest", reference_smallest)
        m.setattr(certificates, "_signed_float_matrix", reference_signed_float_matrix)
        return near_max_margin(ds)


@st.composite
def separable_integer_data(draw, max_rows: int = 40) -> pla.Dataset:
    """Integer rows labelled by an integer hyperplane (no row on it): few rows or many against
    the dimension, rows drawn from a small pool (duplicate rows) of small entries (ties)."""
    d = draw(st.integers(1, 8))
    w = draw(st.lists(st.integers(-3, 3), min_size=d + 1, max_size=d + 1)
             .filter(lambda v: any(v[1:])))
    entry = st.integers(-draw(st.sampled_from([1, 2, 5, 40])), 40)
    pool = draw(st.lists(st.lists(entry, min_size=d, max_size=d)
                         .filter(lambda x: w[0] + sum(a * b for a, b in zip(w[1:], x)) != 0),
                         min_size=1, max_size=draw(st.sampled_from([3, 12, 40]))))
    rows = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=max_rows))
    labels = [1 if w[0] + sum(a * b for a, b in zip(w[1:], x)) > 0 else -1 for x in rows]
    return pla.Dataset.from_rows(rows, labels)


# ------------------------------------------------------------------ the kernel's verdict
@settings(max_examples=100, deadline=None)
@given(separable_integer_data(max_rows=400), st.sampled_from([None, 0, 2, 1000]))
def test_the_proposal_proves_what_the_reference_proposal_proved(ds, gram_working_set_min_dim):
    """Same kernel verdict as the reference: where its bracket pins the max-margin integer
    bound, the new one pins the same integer, the exact w*'s.  Up to 400 rows in at most 9
    coordinates (n ≫ d: the working sets, whose support may fill them), few rows (n < d: the
    Gram form); ``gram_working_set_min_dim`` sends the working sets to the Gram form (0, 2)
    or to quadprog (1000)."""
    with pytest.MonkeyPatch.context() as m:
        if gram_working_set_min_dim is not None:
            m.setattr(certificates, "GRAM_WORKING_SET_MIN_DIM", gram_working_set_min_dim)
        new = near_max_margin(ds)
        old = reference_near_max_margin(ds)
    assert (new is None) == (old is None)
    if new is None:
        return
    assert new.tightest_updates == old.tightest_updates
    if new.tightest_updates is not None:
        exact = max_margin(ds)
        assert isinstance(exact, Separator)
        assert new.bound_lower <= exact.bound <= new.bound
        assert new.tightest_updates == floor(exact.bound)


@settings(max_examples=60, deadline=None)
@given(separable_integer_data(max_rows=12))
def test_the_gram_active_set_settles_on_the_reference_solution(ds):
    """On data with at most dim + 1 rows (where the proposal uses the Gram form directly), from
    the rows of smallest margin or from every row free, the active set settles on the same
    solution: the same w = Aᵀu / (1 − Σu), and bit for bit the same floats when it settles on
    the same free rows (twin rows may split their multiplier differently).  A u with a negative
    entry did not settle (the rounds cycled on degenerate data): nothing to compare."""
    assume(ds.n <= ds.dim + 1)
    A = certificates._signed_float_matrix(ds)
    u, reference = certificates._gram_active_set(A), reference_gram_active_set(A)
    assume(u.min() >= 0 and reference.min() >= 0)
    if np.array_equal(u > 0, reference > 0):
        assert np.array_equal(u, reference)
    assert np.allclose(A.T @ u, A.T @ reference, rtol=1e-9, atol=1e-12)
    assert np.isclose(u.sum(), reference.sum(), rtol=1e-9, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(separable_integer_data(max_rows=12))
@example(pla.Dataset.from_rows([[k, 1] for k in range(1, 11)], [1] * 10))
def test_a_start_that_does_not_settle_falls_back_to_every_row_free(ds):
    """The first start refused (as if it had cycled): the reference start runs, and gives the
    reference floats."""
    starts = []
    rounds = certificates._primal_dual_active_set

    def first_start_never_settles(H, free, iterations):
        starts.append(free.copy())
        u, settled = rounds(H, free, iterations)
        return u, settled and len(starts) > 1

    A = certificates._signed_float_matrix(ds)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(certificates, "_primal_dual_active_set", first_start_never_settles)
        u = certificates._gram_active_set(A)
    assert len(starts) == 2 and starts[1].all()
    assert starts[0].sum() == max(1, round(0.7 * len(starts[0])))   # 70 % of the rows first
    assert np.array_equal(u, reference_gram_active_set(A))


# -------------------------------------------------------------------- the signed float matrix
big = st.sampled_from([2**31 - 1, -(2**31 - 1), 2**31, -(2**31), 2**31 + 1, 2**40, 3, -7, 0])


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_the_signed_float_matrix_is_the_python_rows_one_bit_for_bit(data):
    """From the int64 matrix (entries up to 2³¹) and from Python rows beyond: the same floats."""
    n, d = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 4))
    entries = st.integers(-(2**31), 2**31) | big
    rows = [[data.draw(entries) for _ in range(d)] for _ in range(n)]
    labels = [data.draw(st.sampled_from([1, -1])) for _ in range(n)]
    ds = pla.Dataset.from_rows(rows, labels)
    expected = reference_signed_float_matrix(ds)
    assert np.array_equal(certificates._signed_float_matrix(ds), expected)


def test_entries_beyond_two_to_the_31_take_the_python_rows(monkeypatch):
    ds = pla.Dataset.from_rows([[2**31 + 1, 1], [1, -3]], [1, -1])
    seen = []
    python_rows = certificates._float_matrix
    monkeypatch.setattr(certificates, "_float_matrix",
                        lambda Z: seen.append(Z) or python_rows(Z))
    A = certificates._signed_float_matrix(ds)
    assert seen == [[(1, 2**31 + 1, 1), (-1, -1, 3)]]
    assert A.tolist() == [[1 / (2**31 + 1), 1.0, 1 / (2**31 + 1)],
                          [-1 / (2**31 + 1), -1 / (2**31 + 1), 3 / (2**31 + 1)]]


# --------------------------------------------------------------------------- the working sets
@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from([0.0, 1.0, -1.0, 0.5, 1e-300, -np.inf, 7.0]) |
                st.floats(-10, 10), min_size=1, max_size=60), st.integers(0, 70))
def test_the_smallest_are_the_smallest_in_order(values, count):
    """Ties included: the chosen values are exactly the ``count`` smallest, in order, each
    index once."""
    v = np.array(values)
    chosen = certificates._smallest(v, count)
    assert len(set(chosen.tolist())) == len(chosen) == min(count, len(v))
    assert v[chosen].tolist() == np.sort(v)[:count].tolist()


def test_after_the_nearest_rounds_the_working_set_only_grows():
    """With no round of nearest rows (as after the first ``QP_NEAREST_ROUNDS``), each working
    set holds the last one: the growth rule before issue 29."""
    import quadprog

    rng = np.random.default_rng(2)
    X = rng.integers(-100, 101, size=(2000, 30))
    w = rng.integers(-5, 6, size=31)
    scores = w[0] + X @ w[1:]
    keep = np.abs(scores) > 20
    ds = pla.Dataset.from_rows(X[keep].tolist(), np.where(scores[keep] > 0, 1, -1).tolist())
    A = certificates._signed_float_matrix(ds)
    sets = []
    solve = quadprog.solve_qp

    def recording(G, a, C, b, *rest):
        sets.append({tuple(column) for column in np.asarray(C).T.tolist()})
        return solve(G, a, C, b, *rest)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(certificates, "QP_NEAREST_ROUNDS", 0)
        m.setattr(quadprog, "solve_qp", recording)
        # (the start of issue 29: with the fitted rows, or a first set twice as large, this
        # set needs fewer than three rounds)
        assert certificates._working_set_qp(A, fitted_start=False, first_factor=1) is not None
    assert len(sets) >= 3
    for earlier, later in zip(sets, sets[1:]):
        assert earlier < later


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(230, 700), st.integers(19, 45))
def test_the_fitted_start_proves_what_the_mean_start_proved(seed, n, d):
    """quadprog's first working set adds the rows of smallest margin under the least-squares
    fit (session 37), and since session 40 is the rows of smallest margin under that fit
    refitted ``QP_REFITS`` times on its own nearest rows, from ``QP_FITTED_START_MIN_DIM``
    coordinates on: it is those rows, the working sets settle on the max-margin w of the start
    from the mean direction alone, and the kernel-checked certificate proves the same integer
    bound."""
    import quadprog

    rng = np.random.default_rng(seed)
    X = rng.integers(-100, 101, size=(n, d))
    w = rng.integers(-5, 6, size=d + 1)
    w[1] = w[1] or 1
    scores = w[0] * 10 + X @ w[1:]
    keep = scores != 0
    ds = pla.Dataset.from_rows(X[keep].tolist(), np.where(scores[keep] > 0, 1, -1).tolist())
    A = certificates._signed_float_matrix(ds)
    first = []
    solve = quadprog.solve_qp

    def recording(G, a, C, b, *rest):
        if not first:
            first.append({tuple(column) for column in np.asarray(C).T.tolist()})
        return solve(G, a, C, b, *rest)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(quadprog, "solve_qp", recording)
        fitted = certificates._working_set_qp(A)
    mean = certificates._working_set_qp(A, fitted_start=False)
    size = min(A.shape[0], certificates.QP_FIRST_FACTOR * max(2 * A.shape[1], 200))
    if size == A.shape[0]:
        assert len(first[0]) == len({tuple(row) for row in A.tolist()})     # every row
    elif A.shape[1] >= certificates.QP_FITTED_START_MIN_DIM:
        margins = certificates._fitted_margins(A)
        assert margins is not None
        refitted = 0
        while refitted < certificates.QP_REFITS:
            again = certificates._fitted_margins(A, rows=certificates._smallest(margins, size))
            if again is None:
                break
            margins, refitted = again, refitted + 1
        nearest = {tuple(row) for row in A[certificates._smallest(margins, size)].tolist()}
        assert nearest == first[0] if refitted else nearest <= first[0]
    assert (fitted is None) == (mean is None)
    if fitted is None:
        return
    assert np.allclose(fitted[0], mean[0], rtol=1e-6, atol=1e-9)
    new = near_max_margin(ds)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(certificates, "QP_FITTED_START_MIN_DIM", 10**9)
        old = near_max_margin(ds)
    assert (new is None) == (old is None)
    if new is not None:
        assert new.tightest_updates == old.tightest_updates


def test_the_fitted_margins_refuse_a_singular_fit():
    """AᵀA singular (two equal columns) or margins that are not finite: no fitted rows, the
    mean direction alone starts the working sets."""
    A = np.array([[1.0, 1.0], [2.0, 2.0], [-1.0, -1.0]])
    assert certificates._fitted_margins(A) is None
    assert certificates._fitted_margins(np.array([[np.inf, 1.0], [1.0, 2.0]])) is None
