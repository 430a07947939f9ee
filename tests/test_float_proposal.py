"""The float max-margin proposal behind `near_max_margin` (issue 29): its Gram active set solves
each free block by Cholesky with blocked triangular solves instead of LU.  The floats only
propose, so what must hold is that the kernel-checked certificate is as good as the one the
previous solver (kept below as the reference) gave, and that the LU / least-squares path still
runs when Cholesky fails.
"""

from __future__ import annotations

from math import floor

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import pla
from verify.search import certificates
from verify.search.certificates import Separator, max_margin, near_max_margin


def reference_gram_active_set(A, iterations=60):
    """The Gram active set as it was before issue 29: an LU solve of every free block."""
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


@st.composite
def separable_integer_data(draw) -> pla.Dataset:
    """Integer rows labelled by an integer hyperplane (no row on it): few rows or many against
    the dimension, rows drawn from a small pool (duplicate rows) of small entries (ties)."""
    d = draw(st.integers(1, 8))
    w = draw(st.lists(st.integers(-3, 3), min_size=d + 1, max_size=d + 1)
             .filter(lambda v: any(v[1:])))
    entry = st.integers(-draw(st.sampled_from([1, 2, 5, 40])), 40)
    pool = draw(st.lists(st.lists(entry, min_size=d, max_size=d)
                         .filter(lambda x: w[0] + sum(a * b for a, b in zip(w[1:], x)) != 0),
                         min_size=1, max_size=draw(st.sampled_from([3, 12, 40]))))
    rows = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=40))
    labels = [1 if w[0] + sum(a * b for a, b in zip(w[1:], x)) > 0 else -1 for x in rows]
    return pla.Dataset.from_rows(rows, labels)


def _with_reference(ds):
    with pytest.MonkeyPatch.context() as m:
        m.setattr(certificates, "_gram_active_set", reference_gram_active_set)
        return near_max_margin(ds)


@settings(max_examples=120, deadline=None)
@given(separable_integer_data(), st.booleans())
def test_the_cholesky_proposal_proves_what_the_lu_proposal_proved(ds, gram_working_set):
    """Same kernel verdict as the reference solver: every separator it gives is kernel-checked,
    and where the reference's bracket pins the max-margin integer bound, the new one pins the
    same integer (which is the exact w*'s).  ``gram_working_set``: the Gram form also on working
    sets of rows (data with more rows than coordinates), where its support may fill the set."""
    with pytest.MonkeyPatch.context() as m:
        if gram_working_set:
            m.setattr(certificates, "GRAM_WORKING_SET_MIN_DIM", 0)
        new = near_max_margin(ds)
        old = _with_reference(ds)
    if old is not None:
        assert new is not None
    if new is None:
        return
    exact = max_margin(ds)
    assert isinstance(exact, Separator)
    assert new.bound_lower <= exact.bound <= new.bound
    if old is not None and old.tightest_updates is not None:
        assert new.tightest_updates == old.tightest_updates == floor(exact.bound)
    if new.tightest_updates is not None:
        assert new.tightest_updates == floor(exact.bound)


@settings(max_examples=40, deadline=None)
@given(separable_integer_data())
def test_when_cholesky_fails_the_lu_path_gives_the_reference_floats(ds):
    """With every Cholesky factorisation refused, each free block is solved by LU (or least
    squares) exactly as before: the same floats, bit for bit, hence the same certificate."""
    def refuse(block):
        raise np.linalg.LinAlgError("not positive definite")

    A = certificates._signed_float_matrix(ds)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(certificates, "_cholesky_factor", refuse)
        assert np.array_equal(certificates._gram_active_set(A), reference_gram_active_set(A))
        assert near_max_margin(ds) == _with_reference(ds)


def test_a_singular_block_falls_back_to_least_squares():
    """Two equal rows make the Gram block singular: Cholesky and LU fail, least squares answers
    (the minimum-norm split of the multiplier between the twins)."""
    block = np.array([[2.0, 2.0], [2.0, 2.0]])
    with pytest.raises(np.linalg.LinAlgError):
        certificates._cholesky_factor(block)
    assert np.allclose(certificates._solve_free_block(block), [0.25, 0.25])


def test_a_non_finite_cholesky_answer_is_not_taken(monkeypatch):
    monkeypatch.setattr(certificates, "_cholesky_solve", lambda L, b: np.full(len(b), np.nan))
    block = np.array([[4.0, 2.0], [2.0, 2.0]])
    assert np.allclose(certificates._solve_free_block(block), np.linalg.solve(block, [1, 1]))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 300), st.integers(0, 2**32 - 1))
def test_the_blocked_triangular_solve_solves(k, seed):
    """Sizes around and across :data:`TRIANGULAR_BLOCK` (one block, several, a ragged last)."""
    rng = np.random.default_rng(seed)
    M = rng.standard_normal((k, k + 3))
    block = M @ M.T + np.eye(k)
    b = rng.standard_normal(k)
    x = certificates._cholesky_solve(certificates._cholesky_factor(block), b)
    assert np.allclose(block @ x, b, atol=1e-8 * np.abs(block).max() * np.abs(x).max() + 1e-10)
