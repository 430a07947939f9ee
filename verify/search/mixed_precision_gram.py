"""The Gram-form active set of the max-margin proposal in float32, finished in float64
(untrusted: it only proposes; :mod:`verify.kernel` decides what its answer proves).

:func:`verify.search.certificates._gram_active_set` solves min ½uᵀHu − 1ᵀu over u ≥ 0, with
H = AAᵀ + 11ᵀ, by the primal–dual active-set method: each round solves H_FF u_F = 1 on the
free rows F.  On data with many coordinates its cost is the Gram matrix (n²d) and one dense
factorisation a round.  Here both are done in float32 with scipy's LAPACK (a Cholesky
factorisation, about half the flops of numpy's LU and kept for the refinement steps):

- the Gram matrix is one float32 symmetric rank-k product (half the time of float64's);
- the rounds decide in float32 (the gradient of every row: one product with G);
- when the free set settles, u_F is refined in float64 (residual 1 − H_FF u_F from the float64
  A, correction by the float32 factor) and every later round decides on float64 values; the
  answer is returned only when the float64 gradient agrees that the free set is optimal.

None whenever that does not work out (scipy missing, a block that float32 cannot factor,
refinement that stalls, rounds that do not settle); the caller then runs the float64 method.

scipy's LAPACK wrappers are loaded alone (:func:`lapack`): ``import scipy.linalg`` costs a
checked process a quarter of a second of imports, the wrapper module a few milliseconds.
"""

from __future__ import annotations

from typing import Any

__all__ = ["lapack", "mixed_precision_active_set", "MIXED_PRECISION_MIN_ROWS"]

#: From this many rows in the first free set on, the float32 method runs first (below it the
#: float64 one costs a few milliseconds and scipy's LAPACK would cost as much to load).
MIXED_PRECISION_MIN_ROWS = 150
#: The refined u_F is accepted when every entry of its float64 residual 1 − H_FF u_F is at
#: most this times min(1, 1 − Σu) (the right-hand side is 1; w = Aᵀu / (1 − Σu) magnifies an
#: error of u by 1 / (1 − Σu): a residual of 10⁻¹⁰ accepted u = (1, 0), Σu = 1, where the
#: answer was 1 − 10⁻¹⁰; found by hypothesis).
REFINED_RESIDUAL = 1e-10
#: At most this many refinement steps per settled free set.
REFINEMENT_STEPS = 10
#: A free set that differs from the last factored one in at most this many rows is solved with
#: that factorisation and a bordered system of the rows that differ (no new factorisation).
UPDATE_MAX_ROWS = 64
#: ... and has at least this many rows: below, a new float32 factorisation costs less than the
#: update's own work (profiled: slower with updates on the 400 × 1000 Coq-format set, whose
#: blocks have 280–370 rows; faster on 1,000 × 1,000 data).
UPDATE_MIN_ROWS = 500

_LAPACK: list[Any] = []


def lapack() -> Any:
    """scipy's f2py LAPACK module (``scipy.linalg._flapack``), loaded without running
    ``scipy/__init__`` or ``scipy/linalg/__init__``; None when scipy or the module is
    missing or does not load.  Loaded once per process.

    >>> module = lapack()
    >>> module is None or hasattr(module, "spotrf")
    True
    """
    if _LAPACK:
        return _LAPACK[0]
    module = None
    try:
        import sys

        module = sys.modules.get("scipy.linalg._flapack")
        if module is None:
            import importlib.machinery
            import importlib.util
            from pathlib import Path

            spec = importlib.util.find_spec("scipy")          # (finds; runs nothing)
            places = list(spec.submodule_search_locations or []) if spec else []
            for place in places:
                for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                    path = Path(place) / "linalg" / f"_flapack{suffix}"
                    if path.is_file():
                        loader = importlib.machinery.ExtensionFileLoader(
                            "scipy.linalg._flapack", str(path))
                        found = importlib.util.spec_from_file_location(
                            "scipy.linalg._flapack", str(path), loader=loader)
                        module = importlib.util.module_from_spec(found)
                        loader.exec_module(module)
                        break
                if module is not None:
                    break
        if module is not None and not all(hasattr(module, name) for name in ("spotrf",
                                                                              "spotrs")):
            module = None
    except (ImportError, OSError, AttributeError, ValueError):
        module = None
    _LAPACK.append(module)
    return module


def mixed_precision_active_set(A: Any, free: Any, iterations: int = 60) -> Any:
    """u ≥ 0 minimising ½uᵀHu − 1ᵀu (H = AAᵀ + 11ᵀ, A the float64 n × d matrix) by the
    primal–dual active set from the free rows ``free`` (a boolean mask), in float32 then
    float64 (module doc); None when it does not settle or scipy's LAPACK is missing.

    >>> import numpy as np
    >>> A = np.array([[3.0, 3.0, 1.0], [4.0, 3.0, 1.0], [-1.0, -1.0, -1.0]]) / 4
    >>> u = mixed_precision_active_set(A, np.array([True, True, True]))
    >>> u is None or [round(float(v), 6) for v in u / (1 - u.sum())]
    [20.0, 0.0, 52.0]
    """
    import numpy as np

    solver = lapack()
    if solver is None:
        return None
    n = A.shape[0]
    A32 = A.astype(np.float32)
    free = np.asarray(free, dtype=bool).copy()
    G = A32 @ A32.T                        # (a symmetric rank-k product)
    refining = False
    base = base_solve = None               # the last factored free set and its solver
    for _ in range(iterations):
        index = np.flatnonzero(free)
        if not index.size:
            return None
        solve = None if base is None or index.size < UPDATE_MIN_ROWS else \
            _updated_solve(G, base, base_solve, index)
        if solve is None:
            base, base_solve = index, _factored_solve(G, index, solver)
            if base_solve is None:          # not positive definite in float32
                return None
            solve = base_solve
        u_free = solve(np.ones(index.size))
        if u_free is None or not np.all(np.isfinite(u_free)):
            return None
        if not refining:
            u = np.zeros(n, dtype=np.float32)
            u[index] = u_free
            gradient = G @ u + (u.sum() - 1.0)
            refining = np.array_equal((free & (u > 0)) | (~free & (gradient < 0)), free)
        if refining:                        # settled in float32: decided in float64 from now on
            u, gradient = _refined(A, solve, index, u_free)
            if u is None:
                return None
        settled = (free & (u > 0)) | (~free & (gradient < 0))
        if refining and np.array_equal(settled, free):
            return u
        free = settled
    return None


def _factored_solve(G: Any, index: Any, solver: Any) -> Any:
    """x ↦ H_FF⁻¹ x for the free rows ``index`` (H = G + 11ᵀ), by one float32 Cholesky
    factorisation (x a vector or the columns of a matrix); None when float32 cannot factor
    the block.  The function returns None when LAPACK reports a failure."""
    import numpy as np

    block = G.take(index, axis=0).take(index, axis=1)
    block += 1.0
    # (the block is symmetric: its transpose is the same matrix in Fortran order, which LAPACK
    # factors in place; the block itself f2py would copy first)
    factor, info = solver.spotrf(block.T, lower=1, clean=0, overwrite_a=1)
    if info:
        return None

    def solve(rhs: Any) -> Any:
        x, failed = solver.spotrs(factor, np.asarray(rhs, dtype=np.float32), lower=1)
        return None if failed else x

    return solve


def _updated_solve(G: Any, base: Any, base_solve: Any, index: Any) -> Any:
    """x ↦ H_TT⁻¹ x for the free rows T = ``index`` from the solver of the factored free rows
    B = ``base`` (both sorted), when they differ in at most :data:`UPDATE_MAX_ROWS` rows: the
    rows R = B ∖ T are pinned to 0 and the rows D = T ∖ B border the system, so that one
    solve is a solve with B's factor and a dense system of |R| + |D| unknowns.  None when they
    differ in more rows or that system is singular.

    With y_B = z₀ + Z_R μ − Z_D y_D, where z₀ = H_BB⁻¹ b_B (b_B: x on B ∖ R, 0 on R),
    Z_R = H_BB⁻¹ E_R and Z_D = H_BB⁻¹ H_BD, the conditions y_R = 0 and (H y)_D = x_D read
        (H_DD − H_DB Z_D) y_D + H_DB Z_R μ = x_D − H_DB z₀,   −(Z_D)_R y_D + (Z_R)_R μ = −(z₀)_R.
    """
    import numpy as np

    kept = np.isin(base, index)              # B's rows that stay free
    removed = np.flatnonzero(~kept)          # their positions in B
    from_base = np.isin(index, base)         # T's rows that were in B
    added = index[~from_base]
    r, d = removed.size, added.size
    if r + d == 0:
        return base_solve
    if r + d > UPDATE_MAX_ROWS:
        return None
    # (G is symmetric: the few added rows first, then B's columns, copy a d × n block, not B's
    # rows of G)
    H_BD = G.take(added, axis=0).take(base, axis=1).T.astype(np.float64) + 1.0
    H_DD = G.take(added, axis=0).take(added, axis=1).astype(np.float64) + 1.0
    pins = np.zeros((base.size, r))
    pins[removed, np.arange(r)] = 1.0
    Z = base_solve(np.hstack([pins, H_BD]))
    if Z is None:
        return None
    Z = np.asarray(Z, dtype=np.float64).reshape(base.size, r + d)
    Z_R, Z_D = Z[:, :r], Z[:, r:]
    K = np.block([[H_DD - H_BD.T @ Z_D, H_BD.T @ Z_R], [-Z_D[removed], Z_R[removed]]])
    try:
        K_inverse = np.linalg.inv(K)
    except np.linalg.LinAlgError:
        return None

    def solve(rhs: Any) -> Any:
        rhs = np.asarray(rhs, dtype=np.float64)
        b_B = np.zeros(base.size)
        b_B[kept] = rhs[from_base]
        z0 = base_solve(b_B)
        if z0 is None:
            return None
        z0 = np.asarray(z0, dtype=np.float64)
        y_D_mu = K_inverse @ np.concatenate([rhs[~from_base] - H_BD.T @ z0, -z0[removed]])
        y_B = z0 + Z_R @ y_D_mu[d:] - Z_D @ y_D_mu[:d]
        x = np.empty(index.size)
        x[from_base] = y_B[kept]
        x[~from_base] = y_D_mu[:d]
        return x

    return solve


def _refined(A: Any, solve: Any, index: Any, u_free: Any) -> tuple[Any, Any]:
    """(u, gradient H u − 1) in float64, u_F refined from the float32 solution ``u_free`` by
    residual steps with the float32 solver ``solve`` of the free block; (None, None) when the
    residual does not fall below :data:`REFINED_RESIDUAL` times min(1, 1 − Σu) (never when
    Σu ≥ 1)."""
    import numpy as np

    n = A.shape[0]
    u = np.zeros(n)
    u[index] = u_free
    worst = np.inf
    for _ in range(REFINEMENT_STEPS + 1):
        gradient = A @ (A.T @ u) + (u.sum() - 1.0)
        residual = -gradient[index]
        size = float(np.abs(residual).max())
        if size <= REFINED_RESIDUAL * min(1.0, 1.0 - float(u.sum())):
            return u, gradient
        if not size < 0.5 * worst:          # no longer converging
            break
        worst = size
        step = solve(residual)
        if step is None:
            break
        u[index] += step
    return None, None
