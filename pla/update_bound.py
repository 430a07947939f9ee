"""Novikoff's bound on the number of PLA updates, from a separator that floats propose and
exact integers check.

If some w* separates the data strictly (ρ = minₙ yₙ w*·xₙ > 0), then PLA from w₀ = 0, with
any learning rate, any visiting order and any sign(0) convention, makes at most

    T = ⌊R²‖w*‖² / ρ²⌋ updates,      R = maxₙ ‖xₙ‖

(Novikoff 1962; the notes' convergence proof).  Any separator gives a valid bound; the best
one (the maximum-margin separator that ``pla certify`` finds) gives the smallest.  Here a
linear program in float64 (scipy's HiGHS: maximise t subject to yₙ w·xₙ ≥ t, −1 ≤ wᵢ ≤ 1)
*proposes* w*; its float entries are read as exact binary fractions and every yₙ w*·xₙ is
checked in exact integer arithmetic, so a bound is returned only when it is proved.  The
scikit-learn estimator's ``ConvergenceWarning`` quotes it.

>>> from pla.dataset import Dataset
>>> ds = Dataset.from_rows([[2, 1], [-1, -2]], [1, -1])
>>> bound = separator_update_bound(ds)
>>> bound is not None and bound >= 1
True
>>> separator_update_bound(Dataset.from_rows([[0], [1], [2]], [1, -1, 1])) is None   # XOR-like
True
"""

from __future__ import annotations

from fractions import Fraction
from operator import mul
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pla.dataset import Dataset

__all__ = ["separator_update_bound", "MAX_LP_ENTRIES"]

#: The largest n × dim for which a separator is searched: the LP takes well under a second
#: up to here (569 × 31 breast cancer: 0.04 s) and seconds at 10⁴ × 101.
MAX_LP_ENTRIES = 250_000


def separator_update_bound(ds: "Dataset", max_entries: int = MAX_LP_ENTRIES) -> int | None:
    """⌊R²‖w*‖²/ρ²⌋ for a separator w* proposed by a linear program and checked exactly, or
    None when no strict separator was found (or the data are too large to search)."""
    if ds.n * ds.dim > max_entries:
        return None
    proposal = _proposed_separator(ds)
    if proposal is None:
        return None
    w = [Fraction(v) for v in proposal]              # the floats' exact binary values
    common = max(v.denominator for v in w)
    W = [v.numerator * (common // v.denominator) for v in w]
    rho = min(y * sum(map(mul, W, row)) for y, row in zip(ds.labels, ds.rows))
    if rho <= 0:
        return None                                  # the floats were wrong: nothing proved
    radius2 = max(sum(v * v for v in row) for row in ds.rows)
    return radius2 * sum(v * v for v in W) // (rho * rho)   # the scales cancel


def _proposed_separator(ds: "Dataset") -> list[float] | None:
    """w with yₙ w·x̂ₙ ≥ t, |wᵢ| ≤ 1, t maximal (HiGHS), or None when t ≤ 0 or it fails."""
    import numpy as np
    from scipy.optimize import linprog
    from scipy.sparse import csr_matrix, hstack

    from pla.filtered_engine import float_rows

    X = float_rows(ds)
    if not np.isfinite(X).all():
        return None
    scale = np.abs(X).max(axis=1, keepdims=True)
    scale[scale == 0] = 1.0
    signed = (np.array(ds.labels, dtype=np.float64)[:, None] * X) / scale   # rows of size 1
    # variables (w, t): minimise −t subject to −y·x̂·w + t ≤ 0
    A = hstack([csr_matrix(-signed), csr_matrix(np.ones((ds.n, 1)))]).tocsr()
    cost = np.zeros(ds.dim + 1)
    cost[-1] = -1.0
    bounds = [(-1.0, 1.0)] * ds.dim + [(None, 1.0)]
    try:
        solution = linprog(cost, A_ub=A, b_ub=np.zeros(ds.n), bounds=bounds, method="highs")
    except ValueError:
        return None
    if solution.status != 0 or solution.x is None or not solution.x[-1] > 0:
        return None
    return [float(v) for v in solution.x[:-1]]
