"""The float32 Gram active set with scipy's LAPACK loaded alone, its float64 finish, the
integer near-max-margin proposal, and the kernel's int64 products by einsum (commit 34cf4bc,
issue 29).

The floats only propose.  What must hold whatever they do: the mixed-precision answer, when
there is one, satisfies the optimality conditions in float64 and gives the float64 path's w;
when scipy is missing, a block will not factor, or LAPACK lies, the caller still answers; the
checked run's max-margin integer bound is the exact w*'s, whichever way it was reached; and the
kernel's int64 products equal Python's, limb for limb.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from math import floor
from operator import mul
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import pla
from pla.generate import separable_data
from verify.checks import checked_run
from verify.kernel import products
from verify.kernel.data_checks import _data_rows
from verify.search import certificates
from verify.search import mixed_precision_gram as mixed
from verify.search.certificates import Separator, max_margin, near_max_margin

#: |Hu − 1| on the free rows (and Hu − 1 ≥ −this elsewhere) of an accepted answer; the module
#: refines to 1e-10, float32 alone reaches about 1e-4.
KKT_TOLERANCE = 1e-9

needs_scipy = pytest.mark.skipif(mixed.lapack() is None, reason="scipy's LAPACK is missing")


# --------------------------------------------------------------------------------- helpers
def gradient(A: Any, u: Any) -> Any:
    """H u − 1 in float64, H = AAᵀ + 11ᵀ."""
    return A @ (A.T @ u) + (u.sum() - 1.0)


def assert_kkt(A: Any, u: Any) -> None:
    """u is optimal for min ½uᵀHu − 1ᵀu, u ≥ 0, to :data:`KKT_TOLERANCE`."""
    assert u.shape == (A.shape[0],) and np.all(np.isfinite(u))
    assert u.min() >= 0
    g = gradient(A, u)
    free = u > 0
    assert np.abs(g[free]).max(initial=0.0) <= KKT_TOLERANCE
    assert g[~free].min(initial=0.0) >= -KKT_TOLERANCE
    assert u.sum() <= 1 + KKT_TOLERANCE     # (Σu − (Σu)² = ‖Aᵀu‖² at the optimum; = 1: no
    # separator, as with a zero row)


def direction(A: Any, u: Any) -> Any:
    """w = Aᵀu / (1 − Σu), the max-margin w of the scaled rows."""
    return (A.T @ u) / (1.0 - u.sum())


def float64_answer(A: Any) -> Any:
    """What :func:`certificates._gram_active_set` gives without the float32 method."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(mixed, "MIXED_PRECISION_MIN_ROWS", 10**9)
        return certificates._gram_active_set(A)


def settled_float64_answer(A: Any) -> Any:
    """:func:`float64_answer` when it is optimal (it may cycle on degenerate data), else None."""
    u = float64_answer(A)
    try:
        assert_kkt(A, u)
    except AssertionError:
        return None
    return u


def exact_bound(ds: pla.Dataset) -> Fraction:
    s = max_margin(ds)
    assert isinstance(s, Separator) and s.kind == "max-margin"
    return s.bound


class Spy:
    """Wraps :func:`mixed.mixed_precision_active_set`, recording each call's (A, free, answer)."""

    def __init__(self, method: Any = None) -> None:
        self.method = method or mixed.mixed_precision_active_set
        self.calls: list[tuple[Any, Any, Any]] = []

    def __call__(self, A: Any, free: Any, iterations: int = 60) -> Any:
        answer = self.method(A, free, iterations)
        self.calls.append((A.copy(), np.array(free, dtype=bool), answer))
        return answer


@pytest.fixture
def mixed_everywhere(monkeypatch) -> Spy:
    """The float32 method runs from one free row on (certificates reads the threshold from
    the module at each call), and every call is recorded."""
    spy = Spy()
    monkeypatch.setattr(mixed, "MIXED_PRECISION_MIN_ROWS", 1)
    monkeypatch.setattr(mixed, "mixed_precision_active_set", spy)
    return spy


@st.composite
def few_rows_many_coordinates(draw, max_rows: int = 12, max_dim: int = 24) -> pla.Dataset:
    """Integer rows labelled by an integer hyperplane (no row on it), at most dim + 1 of them
    (the Gram form of the proposal): rows from a small pool (duplicates), entries small (ties),
    large (up to 2³¹ − 1) or both (a dynamic range of 2³¹)."""
    d = draw(st.integers(2, max_dim))
    w = draw(st.lists(st.integers(-3, 3), min_size=d + 1, max_size=d + 1)
             .filter(lambda v: any(v[1:])))
    big = draw(st.sampled_from([2, 40, 2**20, 2**31 - 1]))
    entry = st.integers(-3, 3) | st.integers(-big, big) | st.sampled_from([big, -big])
    pool = draw(st.lists(st.lists(entry, min_size=d, max_size=d)
                         .filter(lambda x: w[0] + sum(a * b for a, b in zip(w[1:], x)) != 0),
                         min_size=1, max_size=draw(st.sampled_from([2, 6, 16]))))
    rows = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=min(max_rows, d + 1)))
    labels = [1 if w[0] + sum(a * b for a, b in zip(w[1:], x)) > 0 else -1 for x in rows]
    return pla.Dataset.from_rows(rows, labels)


GENERATED = [(12, 20, "1/50", 3), (20, 40, "1/10", 1), (30, 30, "1/100", 2)]


# ------------------------------------------------------------------------------- lapack()
def _run_python(code: str) -> dict:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@needs_scipy
def test_lapack_loads_the_wrappers_without_scipy_linalg():
    """In a fresh process: the module has spotrf and spotrs, is loaded once, and neither
    scipy.linalg nor scipy's package runs; a later ``import scipy.linalg`` still works, and
    both factor a matrix alike."""
    code = """if True:
        import json, sys
        import numpy as np
        from verify.search import mixed_precision_gram as m
        module = m.lapack()
        seen = {"linalg": "scipy.linalg" in sys.modules, "scipy": "scipy" in sys.modules,
                "methods": all(hasattr(module, name) for name in ("spotrf", "spotrs")),
                "once": m.lapack() is module}
        block = np.array([[4.0, 2.0], [2.0, 3.0]], dtype=np.float32)
        factor, info = module.spotrf(block.copy(), lower=1)
        u, info2 = module.spotrs(factor, np.ones(2, dtype=np.float32), lower=1)
        seen["solve"] = [float(v) for v in u] if not info and not info2 else None
        import scipy.linalg
        seen["later"] = [float(v) for v in scipy.linalg.solve(block, np.ones(2))]
        print(json.dumps(seen))
    """
    seen = _run_python(code)
    assert seen["methods"] and seen["once"]
    assert not seen["linalg"] and not seen["scipy"]
    assert seen["solve"] == pytest.approx([0.125, 0.25], rel=1e-6)
    assert seen["later"] == pytest.approx([0.125, 0.25], rel=1e-12)


@pytest.fixture
def fresh_lapack(monkeypatch) -> None:
    """lapack() with an empty cache and no scipy.linalg._flapack already loaded (both restored
    afterwards)."""
    monkeypatch.setattr(mixed, "_LAPACK", [])
    monkeypatch.delitem(sys.modules, "scipy.linalg._flapack", raising=False)


@pytest.mark.parametrize("where", ["no scipy", "no wrapper module"])
def test_without_scipy_lapack_is_none_and_the_float64_path_answers(monkeypatch, fresh_lapack,
                                                                   tmp_path, where):
    """scipy not found (find_spec gives None), or a scipy whose linalg has no _flapack: lapack()
    is None (and stays None: cached), the float32 method declines, and the Gram active set
    gives the float64 method's floats bit for bit."""
    import importlib.util
    from importlib.machinery import ModuleSpec

    real_find_spec = importlib.util.find_spec

    def find_spec(name, *args, **kwargs):
        if name != "scipy":
            return real_find_spec(name, *args, **kwargs)
        if where == "no scipy":
            return None
        spec = ModuleSpec("scipy", None, is_package=True)
        spec.submodule_search_locations = [str(tmp_path)]   # an empty scipy: no linalg
        return spec

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    assert mixed.lapack() is None
    assert mixed._LAPACK == [None] and mixed.lapack() is None
    rows, labels = separable_data(12, 20, "1/50", seed=3)
    A = certificates._signed_float_matrix(pla.Dataset.from_rows(rows, labels))
    assert mixed.mixed_precision_active_set(A, np.ones(A.shape[0], dtype=bool)) is None
    monkeypatch.setattr(mixed, "MIXED_PRECISION_MIN_ROWS", 1)
    u = certificates._gram_active_set(A)
    assert np.array_equal(u, float64_answer(A))
    assert_kkt(A, u)


def test_a_scipy_that_fails_to_load_gives_none(monkeypatch, fresh_lapack):
    """An import machinery that raises while looking for scipy: None, not an exception."""
    import importlib.util

    def find_spec(name, *args, **kwargs):
        raise ValueError("scipy.__spec__ is None")

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    assert mixed.lapack() is None


# ------------------------------------------------------- the float32 method on generated data
@needs_scipy
@pytest.mark.parametrize("n, d, margin, seed", GENERATED)
def test_the_mixed_method_runs_and_finds_the_float64_solution(mixed_everywhere, n, d, margin,
                                                               seed):
    """On generated data with fewer rows than coordinates it answers (the test below is not
    vacuous): the answer is optimal in float64 and gives the float64 path's w."""
    ds = pla.Dataset.from_rows(*separable_data(n, d, margin, seed=seed))
    A = certificates._signed_float_matrix(ds)
    u = certificates._gram_active_set(A)
    assert len(mixed_everywhere.calls) == 1 and mixed_everywhere.calls[0][2] is u
    assert_kkt(A, u)
    reference = float64_answer(A)
    assert np.allclose(direction(A, u), direction(A, reference), rtol=1e-8, atol=1e-10)
    near = near_max_margin(ds)
    exact = exact_bound(ds)
    assert near is not None and near.bound_lower <= exact <= near.bound
    assert near.tightest_updates == floor(exact)


@needs_scipy
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.filter_too_much])
@given(few_rows_many_coordinates())
@example(pla.Dataset.from_rows([[1, 2, 3, 4]] * 6, [1] * 6))                 # one row, six times
@example(pla.Dataset.from_rows([[2**31 - 1, 0, 1], [1, 1, 0], [0, 0, 1]], [1, -1, 1]))
@example(pla.Dataset.from_rows([[0] * 8, [0] * 7 + [79872]], [1, 1]))       # 1 − Σu ≈ 1.6e-10
@example(pla.Dataset.from_rows([[0, 0, 0], [0, 0, 100001]], [1, 1]))   # u = (1, 0) was accepted
def test_the_mixed_answer_is_optimal_and_the_verdict_is_exact(ds):
    """Whatever the float32 method answers is optimal in float64 and gives the float64
    path's w; the near-max-margin bracket holds the exact bound and pins its integer when it
    claims one, its α sums to ‖w_f‖²; the checked run's bound is the exact w*'s."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        check_the_mixed_answer_and_the_verdict(ds, monkeypatch)


def check_the_mixed_answer_and_the_verdict(ds: pla.Dataset, monkeypatch: Any) -> None:
    """The body of the test above, for one data set."""
    spy = Spy()
    monkeypatch.setattr(mixed, "MIXED_PRECISION_MIN_ROWS", 1)
    monkeypatch.setattr(mixed, "mixed_precision_active_set", spy)
    assert ds.n <= ds.dim + 1
    proposal = certificates.near_max_margin_proposal(ds)
    assert len(spy.calls) == 1                     # the Gram form ran, the float32 method first
    A, free, u = spy.calls[0]
    assert free.sum() >= 1
    if u is not None:
        assert u.dtype == np.float64
        assert_kkt(A, u)
        reference = settled_float64_answer(A)
        if reference is not None:
            w, w_ref = direction(A, u), direction(A, reference)
            # w = Aᵀu / (1 − Σu): a rounding of Σu is amplified by 1 / (1 − Σu) (6·10⁹ on the
            # example of a 79,872-long row, where both answers agree to the last bits of u)
            amplified = 1e-13 / max(abs(1.0 - float(reference.sum())), 1e-300)
            assert np.linalg.norm(w - w_ref) <= (1e-7 + amplified) * np.linalg.norm(w_ref) + 1e-12
    if proposal is not None:
        w, alpha = proposal
        assert len(w) == ds.dim and all(type(v) is int for v in w)
        # (unchecked: a u that did not settle may hold a negative αₙ; the kernel refuses it)
        assert alpha and all(type(k) is int and type(a) is int and 0 < abs(a) <= 2**50
                             for k, a in alpha.items())
    exact = exact_bound(ds)
    near = near_max_margin(ds)
    if near is not None:
        assert near.bound_lower <= exact <= near.bound
        assert sum(near.alpha) == near.norm2 and min(near.alpha) >= 0
        if near.tightest_updates is not None:
            assert near.tightest_updates == floor(exact)
    monkeypatch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
    monitor = checked_run.prepare_monitor(ds, pla.RunOptions())
    assert monitor.bound_updates == floor(exact)


def row_at_the_margin(seed: int, delta: float) -> Any:
    """Eight random scaled rows in 20 coordinates and a ninth whose gradient under their
    optimum is −δ (δ < 0: it must join the support with a tiny multiplier) or +δ (it must not):
    float32's gradients, off by about 1e-6, cannot tell which."""
    rng = np.random.default_rng(seed)
    A = rng.integers(-20, 21, size=(8, 20)) / 20.0
    A[:, 0] = 1.0
    u, settled = certificates._primal_dual_active_set(A @ A.T + 1.0, np.ones(8, dtype=bool), 60)
    assert settled and u.min() >= 0
    p, total = A.T @ u, u.sum()
    row = rng.uniform(-0.5, 0.5, 20)
    row += ((1.0 - total + delta) - row @ p) * p / (p @ p)
    return np.vstack([A, row])


@needs_scipy
@pytest.mark.parametrize("delta", [-1e-8, 1e-8])
def test_float64_decides_the_free_set_where_float32_cannot(delta):
    """A row whose gradient is ±1e-8: the float32 rounds settle on a free set that may be wrong,
    and the answer is returned only once the float64 gradient agrees; from a start without the
    row and from every row free, every answer is optimal (to 1e-9), and most starts answer."""
    answered = 0
    for seed in range(8):
        A = row_at_the_margin(seed, delta)
        for free in (np.arange(9) < 8, np.ones(9, dtype=bool)):
            u = mixed.mixed_precision_active_set(A, free)
            if u is not None:
                answered += 1
                assert_kkt(A, u)
                assert (u[-1] > 0) == (delta < 0)
    assert answered >= 12


@needs_scipy
@pytest.mark.parametrize("n, first_free", [(215, 150), (213, 149)])
def test_the_default_threshold_routes_large_first_free_sets_to_float32(monkeypatch, n,
                                                                         first_free):
    """Unpatched, the float32 method runs from 150 rows in the first free set (70 % of n) on,
    and not below; either way the default checked run (the near-max-margin w_f on data this
    large) reports the exact max-margin integer bound."""
    spy = Spy()
    monkeypatch.setattr(mixed, "mixed_precision_active_set", spy)
    ds = pla.Dataset.from_rows(*separable_data(n, n + 10, "1/10", seed=5))
    A = certificates._signed_float_matrix(ds)
    u = certificates._gram_active_set(A)
    assert round(certificates.GRAM_FIRST_FREE_FRACTION * n) == first_free
    assert len(spy.calls) == (first_free >= 150)
    if spy.calls:
        assert spy.calls[0][1].sum() == first_free and spy.calls[0][2] is u
    assert_kkt(A, u)
    assert ds.n * ds.dim > checked_run.EXACT_WF_ENTRIES
    monitor = checked_run.prepare_monitor(ds, pla.RunOptions())
    assert monitor.wf_kind.startswith("near-max-margin")
    assert monitor.bound_updates == floor(exact_bound(ds))


# --------------------------------------------------------------------------- degenerate data
def degenerate_matrices() -> list[tuple[str, Any]]:
    """Scaled signed matrices (as :func:`certificates._signed_float_matrix` builds them) that
    float32 handles badly."""
    rng = np.random.default_rng(7)
    base = rng.integers(-5, 6, size=(4, 30)).astype(np.float64)
    base[:, 0] = 1.0
    near = np.vstack([base[0] * 2**20 + np.eye(30)[k] for k in range(1, 9)])   # near-parallel
    tiny = np.vstack([np.full(30, 2.0**31 - 1), rng.integers(-1, 2, size=(6, 30))])
    tiny[1:, 0] = 1.0
    return [
        ("duplicates", np.vstack([base] * 5) / 5),                  # a singular block
        ("one row", np.ones((7, 30))),                              # rank one
        ("near-parallel", near / np.abs(near).max()),             # float32 cannot tell apart
        ("dynamic range", tiny / (2.0**31 - 1)),                   # entries 1 and 2³¹ − 1
        ("opposite rows", np.vstack([base[:2], -base[:2]]) / 5),   # not separable
        ("a zero row", np.vstack([base, np.zeros(30)]) / 5),       # H's row is 11ᵀ's
    ]


@needs_scipy
@pytest.mark.parametrize("name, A", degenerate_matrices())
def test_degenerate_blocks_give_none_or_an_optimal_answer(name, A, monkeypatch):
    """From every row free and from the first rows only: None or an optimal u, never an
    exception; the Gram active set (float32 first) still gives an answer the float64 path
    agrees with."""
    n = A.shape[0]
    for free in (np.ones(n, dtype=bool), np.arange(n) < max(1, n // 2)):
        u = mixed.mixed_precision_active_set(A, free)
        if u is not None:
            assert_kkt(A, u)
    monkeypatch.setattr(mixed, "MIXED_PRECISION_MIN_ROWS", 1)
    u = certificates._gram_active_set(A)
    assert u.shape == (n,) and np.all(np.isfinite(u))
    reference = settled_float64_answer(A)
    if reference is not None:
        assert_kkt(A, u)
        assert np.allclose(A.T @ u, A.T @ reference, rtol=1e-7, atol=1e-9)
        assert np.isclose(u.sum(), reference.sum(), rtol=1e-7, atol=1e-9)


@needs_scipy
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_no_free_row_and_a_non_finite_matrix_give_none():
    A = np.eye(3)
    assert mixed.mixed_precision_active_set(A, np.zeros(3, dtype=bool)) is None
    for bad in (np.nan, np.inf):
        B = A.copy()
        B[1, 1] = bad
        assert mixed.mixed_precision_active_set(B, np.ones(3, dtype=bool)) is None


@needs_scipy
def test_data_without_a_separator_get_no_near_max_margin_w(mixed_everywhere, monkeypatch):
    xor = pla.Dataset.from_rows([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1])
    assert near_max_margin(xor) is None
    monkeypatch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
    monitor = checked_run.prepare_monitor(xor, pla.RunOptions())
    assert monitor.wf_kind.startswith("none: the data are not linearly separable")


# ------------------------------------------------------------------------------ a lying LAPACK
class LyingLapack:
    """scipy's LAPACK with one of its answers falsified."""

    def __init__(self, real: Any, lie: str) -> None:
        self.real, self.lie = real, lie

    def spotrf(self, block, **kwargs):
        factor, info = self.real.spotrf(block, **kwargs)
        if self.lie == "identity factor":
            return np.eye(block.shape[0], dtype=np.float32), 0
        if self.lie == "factor fails":
            return factor, 1
        return factor, info

    def spotrs(self, factor, rhs, **kwargs):
        x, info = self.real.spotrs(factor, rhs, **kwargs)
        lies = {"scaled": lambda: x * np.float32(3.0), "sign-flipped": lambda: -x,
                "nan": lambda: np.full_like(x, np.nan), "zeros": lambda: np.zeros_like(x),
                "one entry off": lambda: x + np.eye(x.size, dtype=np.float32)[0],
                "solve fails": lambda: x, "tiny": lambda: x * np.float32(1e-30)}
        if self.lie in lies:
            return lies[self.lie](), (1 if self.lie == "solve fails" else info)
        return x, info


LIES = ["scaled", "sign-flipped", "nan", "zeros", "one entry off", "solve fails", "tiny",
        "identity factor", "factor fails"]


@needs_scipy
@pytest.mark.parametrize("lie", LIES)
def test_a_lying_lapack_never_changes_the_checked_bound(lie, monkeypatch):
    """The float32 method on a LAPACK whose answers are false: it declines or its answer is
    still optimal (the float64 gradient decides), and the checked run reports the exact
    max-margin integer bound, through the near-max-margin w_f or by falling back to w*."""
    real = mixed.lapack()
    monkeypatch.setattr(mixed, "lapack", lambda: LyingLapack(real, lie))
    monkeypatch.setattr(mixed, "MIXED_PRECISION_MIN_ROWS", 1)
    monkeypatch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
    for n, d, margin, seed in GENERATED[:2]:
        ds = pla.Dataset.from_rows(*separable_data(n, d, margin, seed=seed))
        A = certificates._signed_float_matrix(ds)
        u = mixed.mixed_precision_active_set(A, np.ones(A.shape[0], dtype=bool))
        if u is not None:
            assert_kkt(A, u)
        exact = floor(exact_bound(ds))
        near = near_max_margin(ds)
        assert near is None or near.tightest_updates in (None, exact)
        monitor = checked_run.prepare_monitor(ds, pla.RunOptions())
        assert monitor.bound_updates == exact


def _lying_answers(n: int) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    return {"negative": -np.ones(n) / (2 * n), "sum above one": np.ones(n),
            "nan": np.full(n, np.nan), "one row": np.eye(n)[0] * 0.5,
            "random": rng.random(n) / (2 * n), "zeros": np.zeros(n)}


@needs_scipy
@pytest.mark.parametrize("lie", sorted(_lying_answers(1)))
def test_a_lying_mixed_answer_never_changes_the_checked_bound(lie, monkeypatch):
    """_gram_active_set takes the float32 method's u unchecked: a false one (negative, summing
    past 1, NaN, on one row, random, 0) is refused by the proposal or the kernel, and the
    checked run still reports the exact max-margin integer bound."""
    rows, labels = separable_data(12, 20, "1/50", seed=3)
    ds = pla.Dataset.from_rows(rows, labels)
    monkeypatch.setattr(mixed, "MIXED_PRECISION_MIN_ROWS", 1)
    monkeypatch.setattr(mixed, "mixed_precision_active_set",
                        lambda A, free, iterations=60: _lying_answers(A.shape[0])[lie])
    monkeypatch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
    exact = floor(exact_bound(ds))
    near = near_max_margin(ds)
    assert near is None or near.tightest_updates in (None, exact)
    assert checked_run.prepare_monitor(ds, pla.RunOptions()).bound_updates == exact


# -------------------------------------------------------------- the proposal as integers
def test_the_proposal_is_integers_and_near_max_margin_scales_alpha_to_the_norm():
    """w and α are Python ints (no numpy scalars: they would wrap in the kernel's arithmetic),
    the largest of each of about 50 bits; near_max_margin's α sums to ‖w_f‖² and its dual
    bound is the bracket's lower end."""
    from verify import kernel

    rows, labels = separable_data(12, 20, "1/50", seed=3)
    ds = pla.Dataset.from_rows(rows, labels)
    w, alpha = certificates.near_max_margin_proposal(ds)
    assert all(type(v) is int for v in w) and all(type(a) is int for a in alpha.values())
    assert 2**49 <= max(map(abs, w)) <= 2**50 and 2**49 <= max(alpha.values()) <= 2**50
    near = near_max_margin(ds)
    assert sum(near.alpha) == near.norm2 and len(near.alpha) == ds.n
    lower = kernel.check_dual_bound(ds.rows, ds.scale, ds.labels, near.alpha)
    assert near.R2 * lower == near.bound_lower


# ------------------------------------------------------------------- the kernel's int64 products
def _python_products(rows: Any, V: list[int], transposed: bool) -> list[int]:
    if transposed:
        return [sum(v * row[i] for v, row in zip(V, rows)) for i in range(len(rows[0]))]
    return [sum(map(mul, row, V)) for row in rows]


def _limb_bits(n: int, dim: int, biggest: int, transposed: bool) -> int:
    """The limb width :func:`products._int64_products` chooses."""
    length = n if transposed else dim
    return products._INT64_SAFE_BITS - (length * max(biggest, 1)).bit_length()


@st.composite
def products_cases(draw) -> tuple[Any, list[int], bool, bool]:
    """(rows, V, transposed, as an int64 matrix): entries up to 2³¹ − 1, V's entries up to
    about 2²⁰⁰ and at the limb boundaries ±(2^(kb) ± 1), ±(2^b − 1) of the width b the
    products will choose."""
    n = draw(st.integers(1, 6))
    dim = draw(st.integers(1, 6))
    top = 2**31 - 1
    entry = st.integers(-top, top) | st.sampled_from([0, 1, -1, top, -top, 2**30, -(2**30)])
    rows = tuple(tuple(draw(entry) for _ in range(dim)) for _ in range(n))
    transposed = draw(st.booleans())
    biggest = max(abs(v) for row in rows for v in row)
    b = _limb_bits(n, dim, biggest, transposed)
    boundary = st.builds(lambda k, d, s: s * ((1 << (k * b)) + d), st.integers(1, 5),
                         st.sampled_from([-1, 0, 1]), st.sampled_from([1, -1])) | \
        st.sampled_from([(1 << b) - 1, -((1 << b) - 1), 1 << b, -(1 << b)])
    vector = st.integers(-(2**200), 2**200) | st.integers(-(2**40), 2**40) | boundary | \
        st.integers(-3, 3)
    V = [draw(vector) for _ in range(n if transposed else dim)]
    return rows, V, transposed, draw(st.booleans())


@settings(max_examples=200, deadline=None)
@given(products_cases())
@example((((2**31 - 1, -(2**31 - 1)), (1, 2**31 - 1)), [2**200 - 1, -(2**200) + 1], False, True))
@example((((2**31 - 1,) * 3,) * 2, [2**28 - 1, -(2**28)], True, False))
def test_int64_products_by_einsum_are_exact(case):
    """[row·V] and Σ Vₙ rowₙ by einsum's int64 loops, on tuples and on the kernel's own int64
    matrix: when the int64 path answers, Python's integers, exactly."""
    rows, V, transposed, as_matrix = case
    products._LAST_INT64.clear()
    given_rows = _data_rows(np.array(rows, dtype=np.int64)) if as_matrix else rows
    dim = len(rows[0])
    fast = products._int64_products(given_rows, dim, V, transposed=transposed)
    expected = _python_products(rows, V, transposed)
    assert fast is None or fast == expected
    assert fast is None or all(type(v) is int for v in fast)
    if not transposed:
        assert products._products(given_rows, V) == expected
    else:
        assert products._combination(V, given_rows, dim) == expected


@pytest.mark.parametrize("transposed", [False, True])
def test_the_einsum_path_answers_at_the_limb_boundary(transposed):
    """Entries of 31 bits and V at 2^b − 1, 2^b, 2^b + 1 and many limbs: the int64 path answers
    (is not vacuous) and is exact, on a non-square matrix (a swapped einsum spec cannot pass)."""
    rows = ((2**31 - 1, -(2**31 - 1), 5), (-7, 2**31 - 1, 2**30), (1, 2, 3), (0, -1, 2**31 - 1))
    n, dim = len(rows), len(rows[0])
    b = _limb_bits(n, dim, 2**31 - 1, transposed)
    for V0 in ((1 << b) - 1, 1 << b, (1 << b) + 1, -(1 << (3 * b)) + 1, (1 << (5 * b)) + 7):
        V = [V0, -V0, 3, V0 // 3] if transposed else [V0, -V0 - 1, 2**100]
        products._LAST_INT64.clear()
        fast = products._int64_products(rows, dim, V, transposed=transposed)
        assert fast == _python_products(rows, V, transposed)
