"""The bordered update of the float32 Gram active set (issue 29): a free set that differs from
the last factored one in a few rows is solved with that factorisation, rows pinned to 0 and
rows added as a border.  It only proposes (the kernel decides), but a wrong solve would make
the proposal fail more often; what must hold is that it solves the new block's system.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from verify.search import mixed_precision_gram as gram


def test_scipy_lapack_loads():
    """(scipy is a dependency: without its LAPACK every test here would prove nothing)"""
    assert gram.lapack() is not None


@st.composite
def blocks_that_differ(draw):
    """A Gram matrix G of n rows in more coordinates (positive definite blocks), a sorted base
    set B and a sorted free set T that differs from it in at most UPDATE_MAX_ROWS rows (rows
    removed, added, or both; T may equal B), and a right-hand side on T."""
    n = draw(st.integers(4, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    A = rng.standard_normal((n, n + draw(st.integers(1, 8)))) / np.sqrt(n)
    A32 = A.astype(np.float32)
    G = A32 @ A32.T
    rows = rng.permutation(n)
    size = draw(st.integers(1, n - 1))
    base = np.sort(rows[:size])
    removed = draw(st.integers(0, min(size - 1, 5)))
    added = draw(st.integers(0, min(n - size, 5)))
    index = np.sort(np.concatenate([base[rng.permutation(size)[removed:]],
                                    rows[size:size + added]]))
    rhs = rng.standard_normal(index.size) if draw(st.booleans()) else np.ones(index.size)
    return A, G, base, index, rhs


@settings(max_examples=150, deadline=None)
@given(blocks_that_differ())
def test_the_updated_solve_solves_the_new_free_block(case):
    A, G, base, index, rhs = case
    base_solve = gram._factored_solve(G, base, gram.lapack())
    assert base_solve is not None
    solve = gram._updated_solve(G, base, base_solve, index)
    assert solve is not None
    x = np.asarray(solve(rhs), dtype=np.float64)
    H = G.astype(np.float64) + 1.0
    expected = np.linalg.solve(H[np.ix_(index, index)], rhs)
    scale = max(1.0, float(np.abs(expected).max()))
    assert np.abs(x - expected).max() <= 1e-3 * scale * np.linalg.cond(H[np.ix_(index, index)])


def test_a_free_set_too_far_from_the_factored_one_is_factored_anew():
    rng = np.random.default_rng(1)
    n = gram.UPDATE_MAX_ROWS + 10
    A32 = rng.standard_normal((n, 2 * n)).astype(np.float32)
    G = A32 @ A32.T
    base = np.arange(5)
    solve = gram._factored_solve(G, base, gram.lapack())
    assert gram._updated_solve(G, base, solve, np.arange(n)) is None          # 65 rows added
    assert gram._updated_solve(G, base, solve, base) is solve                 # nothing changed


def test_the_refined_answer_is_the_float64_one_through_updates(monkeypatch):
    """With updates from the first round on (every size allowed), the active set ends on the
    float64 answer: the same free rows and u to the refinement's tolerance."""
    from verify.search import certificates

    monkeypatch.setattr(gram, "UPDATE_MIN_ROWS", 1)
    rng = np.random.default_rng(5)
    for n, d in [(30, 60), (60, 80), (80, 81)]:
        A = rng.standard_normal((n, d)) / np.sqrt(d)
        A[:, 0] = np.abs(A[:, 0]) + 0.5                 # separable: every row on one side
        first = np.zeros(n, dtype=bool)
        first[certificates._smallest(A @ A.sum(axis=0), round(0.7 * n))] = True
        u = gram.mixed_precision_active_set(A, first)
        reference, settled = certificates._primal_dual_active_set(A @ A.T + 1.0, first, 60)
        assert settled and u is not None
        assert np.array_equal(u > 0, reference > 0)
        assert np.abs(u - reference).max() <= 1e-8 * np.abs(reference).max()
