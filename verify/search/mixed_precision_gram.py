"""The Gram-form active set of the max-margin proposal in float32, finished in float64
(untrusted: it only proposes; :mod:`verify.kernel` decides what its answer proves).

:func:`verify.search.certificates._gram_active_set` solves min ½uᵀHu − 1ᵀu over u ≥ 0, with
H = AAᵀ + 11ᵀ, by the primal–dual active-set method: each round solves H_FF u_F = 1 on the
free rows F.  On data with many coordinates its cost is the Gram matrix (n²d) and one dense
factorisation a round.  Here both are done in float32 with scipy's LAPACK (a Cholesky
factorisation, about half the flops of numpy's LU and kept for the refinement steps):

- the Gram matrix is one float32 symmetric rank-k product (half the time of float64's);
- the rounds decide in float32, and the gradient of every row is two matrix–vector products
  with A (no n × n matrix);
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
#: most this (the right-hand side is 1).
REFINED_RESIDUAL = 1e-10
#: At most this many refinement steps per settled free set.
REFINEMENT_STEPS = 10

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
    for _ in range(iterations):
        index = np.flatnonzero(free)
        if not index.size:
            return None
        block = G.take(index, axis=0).take(index, axis=1)
        block += 1.0
        factor, info = solver.spotrf(block, lower=1, clean=0, overwrite_a=1)
        if info:                            # not positive definite in float32
            return None
        u_free, info = solver.spotrs(factor, np.ones(index.size, dtype=np.float32), lower=1)
        if info or not np.all(np.isfinite(u_free)):
            return None
        if refining:
            u, gradient = _refined(A, solver, factor, index, u_free)
            if u is None:
                return None
        else:
            u = np.zeros(n, dtype=np.float32)
            u[index] = u_free
            gradient = A32 @ (A32.T @ u) + (u.sum() - 1.0)
        settled = (free & (u > 0)) | (~free & (gradient < 0))
        if np.array_equal(settled, free):
            if refining:
                return u
            u, gradient = _refined(A, solver, factor, index, u_free)
            if u is None:
                return None
            refining = True
            settled = (free & (u > 0)) | (~free & (gradient < 0))
            if np.array_equal(settled, free):
                return u
        free = settled
    return None


def _refined(A: Any, solver: Any, factor: Any, index: Any, u_free: Any) -> tuple[Any, Any]:
    """(u, gradient H u − 1) in float64, u_F refined from the float32 solution ``u_free`` by
    residual steps with the float32 Cholesky ``factor``; (None, None) when the residual
    does not fall below :data:`REFINED_RESIDUAL`."""
    import numpy as np

    n = A.shape[0]
    u = np.zeros(n)
    u[index] = u_free
    worst = np.inf
    for _ in range(REFINEMENT_STEPS + 1):
        gradient = A @ (A.T @ u) + (u.sum() - 1.0)
        residual = -gradient[index]
        size = float(np.abs(residual).max())
        if size <= REFINED_RESIDUAL:
            return u, gradient
        if not size < 0.5 * worst:          # no longer converging
            break
        worst = size
        step, info = solver.spotrs(factor, residual.astype(np.float32), lower=1)
        if info:
            break
        u[index] += step
    return None, None
