"""A certified float filter for data whose exact integers do not fit in a machine word.

Float-valued data (a standardised feature matrix, say) become exact dyadic rationals with a
large common denominator, so their integer rows are far beyond int64 and the integer engine of
:mod:`pla.fast_engine` would scan them with Python integers.  This engine scans them in float64
instead and *proves* every sign it uses, as CGAL's filtered predicates do:

- x̂ = the data rounded to float64 (each entry correctly rounded), ŵ = a float64 copy of the
  exact weights w, with a bound E ≥ maxᵢ |ŵᵢ − wᵢ| kept up to date (ŵ is updated in float64,
  and E grows by the rounding of each update);
- the float score ŝ = fl(x̂ₙ·ŵ) is within

      B = ‖x̂ₙ‖₁·(c·m + 2E) + d·(m + E + 1)·2⁻¹⁰⁰⁰,    m = maxᵢ |ŵᵢ|,  c = 2(d + 8)·2⁻⁵³

  of the exact score s = xₙ·w (see :func:`score_error_bound` for the derivation), whatever the
  summation order, with or without FMA, with or without underflow;
- when |ŝ| > B the sign of s is the sign of ŝ and s ≠ 0, so the point is a mistake or not
  without any exact arithmetic; otherwise (a tie, a score within a few ulps of zero, an overflow
  to inf or a NaN) the score is computed exactly with Python integers.

The exact weights are kept as integers W over a common denominator D (w = W / D) and brought up
to date only when an exact score or the result needs them: each update only counts how often a
row was added, so a run of many updates costs one big-integer pass per distinct row.  The steps,
weights, counts and epochs are those of the Fraction reference (tests/test_filtered_engine.py
checks this with hypothesis on ties, scores within one ulp of zero, subnormals and values near
2^±1000).

>>> from pla.dataset import Dataset
>>> from pla.runs import RunOptions
>>> rows = [[0.1, 0.3], [0.2, -0.7], [-0.5, 0.25]]                 # floats, read exactly
>>> ds = Dataset.from_rows([[Fraction(v) for v in row] for row in rows], [1, -1, -1])
>>> from pla.fast_engine import run_fast
>>> w, updates, epochs, halted = run_fast(ds, RunOptions(), carriers="filter")
>>> (updates, halted) == run_fast(ds, RunOptions(), carriers="bigint")[1::2]
True
"""

from __future__ import annotations

from fractions import Fraction
import math
from operator import mul
from typing import TYPE_CHECKING, Any, Callable

from pla.runs import Step, integer_start

if TYPE_CHECKING:  # pragma: no cover
    from pla.dataset import Dataset
    from pla.runs import EngineStats, RunOptions, ScaledUpdateCallback, UpdateCallback

__all__ = ["FilteredEngine", "float_rows", "score_error_bound"]

_U = 2.0**-53                 # unit roundoff of float64 (round to nearest)
_TINY = 2.0**-1000            # a normal number above every underflow term of the bound
_ROUND_UP = 1.0 + 2.0**-40    # covers the rounding of the few float operations on E
_FIRST_BLOCK = 16
_MAX_BLOCK = 1 << 15


def float_rows(ds: "Dataset") -> Any:
    """The data as float64, each entry x = rows[n][i] / scale rounded so that
    |x̂ − x| ≤ 2⁻⁵³·|x| + 2⁻¹⁰⁷⁵ (±inf beyond the float range).

    A power-of-two scale (float-valued data) is one numpy conversion of the integers (correctly
    rounded) and one exact-or-subnormal ``ldexp``; other scales divide each entry (Python's int
    division is correctly rounded).

    >>> from pla.dataset import Dataset
    >>> float_rows(Dataset.from_rows([["0.1", "1/3"]], [1])).tolist() == [[1.0, 0.1, 1 / 3]]
    True
    >>> float_rows(Dataset.from_rows([["0.5", "-0.75"]], [1])).tolist()
    [[1.0, 0.5, -0.75]]
    """
    import numpy as np

    L = ds.scale
    if L & (L - 1) == 0:
        try:
            return np.ldexp(np.array(ds.rows, dtype=np.float64), -(L.bit_length() - 1))
        except OverflowError:
            pass
    out = []
    for row in ds.rows:
        try:
            out.append([v / L for v in row])        # int / int: correctly rounded
        except OverflowError:
            out.append([_rounded(v, L) for v in row])
    return np.array(out, dtype=np.float64)


def _rounded(numerator: int, denominator: int) -> float:
    try:
        return numerator / denominator
    except OverflowError:
        return float("inf") if numerator > 0 else float("-inf")


def score_error_bound(l1: Any, m: float, E: float, d: int) -> Any:
    """A bound on |fl(x̂·ŵ) − x·w| from ‖x̂‖₁ (``l1``), m = max|ŵᵢ|, E ≥ max|ŵᵢ − wᵢ|, length d.

    With u = 2⁻⁵³, η = 2⁻¹⁰⁷⁴ and correct rounding (|x̂ᵢ − xᵢ| ≤ 2u|x̂ᵢ| + η):

    - |fl(x̂·ŵ) − x̂·ŵ| ≤ γ_d·Σ|x̂ᵢ||ŵᵢ| + d·η ≤ γ_d·m·‖x̂‖₁ + d·η   (any order, FMA or not;
      γ_d = d·u / (1 − d·u));
    - |x̂·ŵ − x·w| ≤ |x̂·(ŵ − w)| + |(x̂ − x)·w| ≤ E·‖x̂‖₁ + (m + E)(2u·‖x̂‖₁ + d·η).

    Their sum is below ‖x̂‖₁·(c·m + 2E) + d·(m + E + 1)·2⁻¹⁰⁰⁰ with c = 2(d + 8)·u; the factor 2
    on c and on E covers γ_d's denominator, 2u·E and the rounding of this very computation.
    A NaN or inf anywhere makes the bound NaN or inf, and no sign is then taken from the float.

    >>> float(score_error_bound(1.0, 1.0, 0.0, 1)) > 2.0**-53
    True
    """
    return l1 * (2 * (d + 8) * _U * m + 2 * E) + d * (m + E + 1.0) * _TINY


class FilteredEngine:
    """The run_fast engine interface (first_mistake, mistakes, score, update, weights) on floats
    with a certified error bound, exact integers where the bound cannot decide."""

    def __init__(self, ds: "Dataset", options: "RunOptions", order: list[int] | None,
                 on_step: Callable[["Step"], None] | None,
                 on_update: "UpdateCallback | None", stats: "EngineStats",
                 on_scaled_update: "ScaledUpdateCallback | None" = None) -> None:
        import numpy as np

        self.np = np
        eta = options.eta
        self.dataset = ds
        self.order = order
        self.n = ds.n
        self.d = ds.dim
        self.L = ds.scale
        self.D, self.k, self.W = integer_start(ds, options)      # w = W / D; η·x = k·row / D
        self.unit = self.D * self.L             # a score s is wₜ·xₙ = s / unit
        self.rows = ds.rows
        self.labels = ds.labels
        self.on_step = on_step
        self.on_update = on_update
        self.on_scaled_update = on_scaled_update
        self.stats = stats
        self.pos_strict = options.zero in ("positive", "correct")
        self.neg_strict = options.zero in ("negative", "correct")
        self.pending: dict[int, int] = {}       # row index -> net y-signed updates not in W
        X = float_rows(ds)
        if order is not None:
            X = X[np.array(order, dtype=np.intp)]
        Y = np.array([ds.labels[self.row_index(p)] for p in range(self.n)], dtype=np.float64)
        eta_f = _rounded(eta.numerator, eta.denominator)
        absX = np.abs(X)
        # ‖x̂ₙ‖₁ rounded up (a float sum of d terms is within γ_d of the exact sum), plus 2⁻⁹⁰⁰:
        # ‖x̂‖₁·K + τ ≤ (‖x̂‖₁ + 2⁻⁹⁰⁰)·max(K, 2⁹⁰⁰·τ), so one product bounds a whole block.
        # |Gₙᵢ − η·xₙᵢ| ≤ u|G| + |η̂ − η||x̂| + η(2u|x̂| + 2⁻¹⁰⁷⁴) ≤ 8u(|G| + η̂|x̂|) + 2⁻¹⁰⁰⁰(1 + η̂)
        with np.errstate(all="ignore"):
            self.l1 = absX.sum(axis=1) * (1 + 2 * (self.d + 2) * _U) + 2.0**-900
            G = X if eta_f == 1.0 and eta == 1 else eta_f * X         # the float step η̂·x̂
            step_error = ((8 * _U) * (np.abs(G).max(axis=1) + eta_f * absX.max(axis=1))
                          + _TINY * (1 + eta_f))
            self.step_error = step_error.tolist()
            self.data_ok = bool(np.isfinite(G).all() and np.isfinite(self.l1).all()
                                and all(map(math.isfinite, self.step_error))
                                and eta_f >= 2.0**-500)
        del absX
        self.YX = Y[:, None] * X                # signed rows: y·fl(x̂·ŵ) = fl((y·x̂)·ŵ) exactly
        self.YG = self.YX if G is X else Y[:, None] * G
        self.step_max = np.abs(G).max(axis=1).tolist()
        self.Y = ds.labels if order is None else [ds.labels[i] for i in order]
        self.l1_max = float(self.l1.max())
        self.wf: Any = None
        self.weights_ok = True                  # False while ŵ cannot hold w (beyond float range)
        self.E = 0.0
        self.m = 0.0
        self.block = _FIRST_BLOCK
        self._refloat()

    # -------------------------------------------------------------- exact side
    def row_index(self, position: int) -> int:
        return position if self.order is None else self.order[position]

    def _sync(self) -> list[int]:
        """Bring the exact W up to date with the counted updates; returns W."""
        if self.pending:
            k, W = self.k, self.W
            for i, count in self.pending.items():
                if count:
                    c = k * count
                    W = [a + c * b for a, b in zip(W, self.rows[i])]
            self.W = W
            self.pending = {}
        return self.W

    def _refloat(self) -> None:
        """ŵ = the exact w correctly rounded, E its rounding bound (2u|ŵᵢ| + 2⁻¹⁰⁷⁴ ≤ E)."""
        np = self.np
        W, D = self._sync(), self.D
        try:
            self.wf = np.array([v / D for v in W], dtype=np.float64)
            self.weights_ok = True
        except OverflowError:
            self.weights_ok = False             # every point is decided exactly until it fits
            self.wf = np.zeros(self.d)
        self.m = float(np.abs(self.wf).max())
        self.E = (2 * _U * self.m + 2.0**-1074) * _ROUND_UP
        self._set_bound()

    def exact_score(self, position: int) -> int:
        """W·row, whose sign is the sign of w·x (D, L > 0)."""
        self.stats.bigint_blocks += 1
        return sum(map(mul, self._sync(), self.rows[self.row_index(position)]))

    def is_mistake(self, s: int, y: int) -> bool:
        if y > 0:
            return s < 0 if self.pos_strict else s <= 0
        return s > 0 if self.neg_strict else s >= 0

    def weights(self) -> tuple[Fraction, ...]:
        D = self.D
        return tuple(Fraction(v, D) for v in self._sync())

    # -------------------------------------------------------------- certified scan
    def _set_bound(self) -> None:
        """M with |ŝ − s| ≤ (‖x̂‖₁ + 2⁻⁹⁰⁰)·M for every row (see :func:`score_error_bound`),
        or +inf when nothing can be certain.

        M·max‖x̂‖₁ < 2⁹⁶⁰ also proves that no product or partial sum of a score overflowed:
        each is at most ‖x̂‖₁·m in magnitude (times 1 + γ_d), and M ≥ m·2⁻⁴⁹.  Where it does not
        hold (or a NaN appeared, or the data or ŵ are beyond the float range), M is +inf.
        """
        m, E, d = self.m, self.E, self.d
        M = max(2 * (d + 8) * _U * m + 2 * E, d * (m + E + 1.0) * 2.0**-100)
        self.M = M if self.data_ok and self.weights_ok and M * self.l1_max < 2.0**960 \
            else math.inf

    def _classify(self, start: int, stop: int) -> tuple[Any, Any]:
        """(margin, bound) for positions start..stop−1: where |margin| > bound, the sign of y·s
        is the sign of ``margin`` = y·ŝ, and s ≠ 0."""
        self.stats.float_blocks += 1
        if self.M == math.inf:                       # overflows possible: nothing is certain
            with self.np.errstate(all="ignore"):
                return self.YX[start:stop] @ self.wf, self.l1[start:stop] * self.M
        return self.YX[start:stop] @ self.wf, self.l1[start:stop] * self.M

    def _decide(self, position: int) -> tuple[bool, int | None]:
        """An uncertain point decided exactly: (mistake, exact score)."""
        if self.E > self.m * 2.0**-30 or self.pending:
            self._refloat()                      # the exact W is needed now: tighten ŵ too
        s = self.exact_score(position)
        return self.is_mistake(s, self.Y[position]), s

    def first_mistake(self, start: int, count: int) -> tuple[int, int | None] | None:
        """The first (offset, exact score or None) among ``count`` positions from ``start``."""
        n = self.n
        offset = 0
        while offset < count:
            position = (start + offset) % n
            size = min(self.block, count - offset, n - position)
            margin, bound = self._classify(position, position + size)
            stop = ~(margin > bound)              # a mistake, or not certain (NaN: not certain)
            j = int(stop.argmax())
            while stop[j]:
                if margin[j] < -bound[j]:                    # certainly a mistake (s ≠ 0)
                    self._found(j)
                    return offset + j, None
                mistake, s = self._decide(position + j)
                if mistake:
                    self._found(j)
                    return offset + j, s
                if j + 1 == size:
                    break
                j += 1 + int(stop[j + 1:].argmax())
            self.stats.rows_scanned += size
            self.block = min(_MAX_BLOCK, 2 * self.block)
            offset += size
        return None

    def _found(self, j: int) -> None:
        self.stats.rows_scanned += j + 1
        self.block = max(_FIRST_BLOCK, min(_MAX_BLOCK, 2 * (j + 1)))

    def mistakes(self) -> list[bool]:
        """Whether each point (in visiting order) is a mistake under the current weights."""
        margin, bound = self._classify(0, self.n)
        self.stats.rows_scanned += self.n
        mask = (margin < 0).tolist()
        for p in (~(self.np.abs(margin) > bound)).nonzero()[0].tolist():
            mask[p] = self._decide(p)[0]
        return mask

    def score(self, position: int) -> int | None:
        """The exact score when a hook needs it (update computes it otherwise)."""
        return None

    # -------------------------------------------------------------- update
    def update(self, t: int, position: int, s: int | None) -> None:
        """w ← w + η·y·x for the point at ``position`` (exact score s, computed if needed)."""
        i = self.row_index(position)
        y = self.labels[i]
        hooked = self.on_update is not None or self.on_step is not None or \
            self.on_scaled_update is not None
        if hooked and s is None:
            s = self.exact_score(position)
        before = self.weights() if self.on_step is not None else None
        if self.on_update is not None:
            self.on_update(t, i, y, Fraction(s, self.unit))   # type: ignore[arg-type]
        if self.on_scaled_update is not None:
            self.on_scaled_update(t, i, y, s, self.unit)      # type: ignore[arg-type]
        self.pending[i] = self.pending.get(i, 0) + y
        wf = self.wf
        if self.m + self.step_max[position] < 2.0**1020:      # no entry can overflow
            wf += self.YG[position]
        else:
            with self.np.errstate(all="ignore"):
                wf += self.YG[position]
        self.m = m = max(float(wf.max()), -float(wf.min()))
        # ŵ + y·Gₙ rounds by at most u|ŵ_new| per entry; Gₙ is off η·xₙ by step_error[n].
        self.E = (self.E + self.step_error[position] + 2 * _U * m) * _ROUND_UP
        self._set_bound()
        if not self.m < 2.0**1000:
            self._refloat()
        if self.on_step is not None and before is not None:
            score = Fraction(s, self.unit)                   # type: ignore[arg-type]
            self.on_step(Step(t, i, y, self.dataset.X[i], score, before, self.weights()))

