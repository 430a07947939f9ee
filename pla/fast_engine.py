"""The fast exact PLA engine: vectorised int64 block scans, proved overflow-free, else big integers.

The data are integer rows over one common positive scale (:class:`~pla.dataset.Dataset`), and
the weights are kept as integers over one common denominator ``D``: w = W / D.  A score
w·x = (W·row) / (D·scale) has the sign of the integer W·row, so finding the next mistake only
needs integer dot products.  This engine computes them for a whole block of upcoming points at
once with numpy int64 arithmetic, and *proves before every block* that nothing can overflow:

    |W·rowₙ| ≤ Σᵢ |Wᵢ|·|rowₙᵢ| ≤ ‖W‖·‖rowₙ‖          (Cauchy–Schwarz)

so every product, and every partial sum in any summation order, is at most ‖W‖·max‖rowₙ‖ in
absolute value.  ‖W‖² is kept exactly, as a Python integer, and updated in O(1) per update from
the exact score (‖W + c·row‖² = ‖W‖² + 2c·W·row + c²‖row‖²).  When ‖W‖²·max‖rowₙ‖² could
exceed (2⁶³−1)² -- or the rows themselves are too large -- the block is computed with Python's
unbounded integers instead.  There is no silent wrap-around: the int64 path is only entered with
a proof that it is exact.

The engine gives exactly the same steps, weights, counts and epochs as the Fraction reference
for every order, learning rate, w₀, zero convention and budget (tests/test_fast_engine.py checks
this step for step, also with a tiny ``word_limit`` that forces the big-integer path).

>>> from pla.dataset import Dataset
>>> from pla.runs import RunOptions
>>> ds = Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> w, updates, epochs, halted = run_fast(ds, RunOptions(order="first"))
>>> [str(v) for v in w], updates, epochs, halted
(['-3', '1', '1'], 7, 8, True)
>>> run_fast(ds, RunOptions(order="first"), word_limit=7)[:3] == (w, updates, epochs)  # big ints
True
"""

from __future__ import annotations

import random
from fractions import Fraction
from operator import mul
from typing import TYPE_CHECKING, Any, Callable

from pla.runs import (Budget, EngineStats, RunOptions, ScaledUpdateCallback, Step,
                      UpdateCallback, integer_start, visiting_order)

if TYPE_CHECKING:  # pragma: no cover
    from pla.dataset import Dataset

__all__ = ["run_fast", "UpdateCallback", "INT64_LIMIT", "EngineStats"]

#: The largest magnitude an int64 can hold; the default ``word_limit``.
INT64_LIMIT = 2**63 - 1
#: Integers up to this magnitude, and all their sums up to it, are exact in float64 (2⁵³ would
#: do; one bit of headroom costs nothing).
FLOAT_EXACT_LIMIT = 2**52


_FIRST_BLOCK = 16      # rows scanned in the first block after an update
_MAX_BLOCK = 1 << 15   # rows scanned at most per block




class _Engine:
    """W (the weights times D) and the data, in the order the points are visited.

    W is kept as a numpy int64 vector while ‖W‖ ≤ word_limit (so every entry fits), and as a
    list of Python integers otherwise.  The data matrix is held once, as float64 when every
    entry is at most 2⁵² in magnitude (the exact-float carrier, see :meth:`carrier`) and as
    int64 otherwise; it is permuted into visiting order for ``random-cycle``.
    """

    def __init__(self, ds: "Dataset", options: "RunOptions", order: list[int] | None,
                 word_limit: int, on_step: Callable[["Step"], None] | None,
                 on_update: UpdateCallback | None, stats: EngineStats, carriers: str,
                 on_scaled_update: ScaledUpdateCallback | None = None) -> None:
        import numpy as np

        self.np = np
        self.dataset = ds
        self.order = order                      # visiting position -> row index (None: same)
        self.n = ds.n
        self.L = ds.scale
        self.D, self.k, W = integer_start(ds, options)
        self.unit = self.D * self.L             # a score s is wₜ·xₙ = s / unit
        self.labels = ds.labels
        self.on_step = on_step
        self.on_update = on_update
        self.on_scaled_update = on_scaled_update
        self.stats = stats
        self.pos_strict = options.zero in ("positive", "correct")  # y = +1: mistake iff s < 0
        self.neg_strict = options.zero in ("negative", "correct")  # y = −1: mistake iff s > 0
        self.limit2 = word_limit * word_limit
        float_limit = min(word_limit, FLOAT_EXACT_LIMIT)
        self.float_limit2 = float_limit * float_limit
        self.norm2 = sum(v * v for v in W)
        R = ds.int64_rows            # None: an entry beyond int64, Python integers throughout
        self.row_norm2: Any
        if R is not None:
            max_entry = max(int(R.max()), -int(R.min()))
            if max_entry * max_entry * ds.dim <= INT64_LIMIT:   # every ‖rowₙ‖² fits: exact
                self.row_norm2 = np.einsum("ij,ij->i", R, R)
            else:
                self.row_norm2 = [sum(v * v for v in row) for row in ds.rows]
        else:
            max_entry = max(max(map(abs, row)) for row in ds.rows)
            self.row_norm2 = [sum(v * v for v in row) for row in ds.rows]
        self.max_row_norm2 = int(self.row_norm2.max() if R is not None and not isinstance(
            self.row_norm2, list) else max(self.row_norm2))
        # Vectorised scans need every entry and every step k·row to fit in the word.
        self.R64 = self.R53 = self.Y = self.Yfloat = None
        self.vector_ok = (R is not None and max_entry * self.k <= word_limit
                          and self.max_row_norm2 <= self.limit2 and carriers != "bigint")
        if self.vector_ok and R is not None:
            if order is not None:
                R = R[np.array(order, dtype=np.intp)]
            self.Y = ds.int64_labels if order is None else \
                ds.int64_labels[np.array(order, dtype=np.intp)]
            if carriers == "float" and max_entry <= float_limit:
                self.R53 = R.astype(np.float64)      # exact: integers of at most 2⁵² in size
            else:
                self.R64 = R
        self.W64 = None
        self.Wfloat = None                       # float64 copy of W64, made when needed
        self.Wbig: list[int] | None = W
        self.block = _FIRST_BLOCK                # rows in the next scanned block (adaptive)
        self._settle()

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """The data's Python rows, asked for only off the int64 paths (a data set read into an
        int64 matrix builds them on first use)."""
        return self.dataset.rows

    # -------------------------------------------------------------- representation
    def _settle(self) -> None:
        """Move W to int64 when its entries provably fit (|Wᵢ| ≤ ‖W‖ ≤ limit), else to ints."""
        if self.vector_ok and self.norm2 <= self.limit2:
            if self.W64 is None:
                self.W64 = self.np.array(self.Wbig, dtype=self.np.int64)
                self.Wbig = None
        elif self.W64 is not None:
            self.Wbig = self.W64.tolist()
            self.W64 = None
        self.Wfloat = None

    def carrier(self) -> str:
        """How the next block of scores is computed exactly: ``float``, ``int64`` or ``bigint``.

        Every term and every partial sum of W·rowₙ is an integer of magnitude at most
        ‖W‖·‖rowₙ‖.  When that bound is at most 2⁵² the float64 computation is exact (every
        intermediate value is an integer that float64 represents exactly, so no rounding ever
        happens, in any summation order, with or without FMA); when it is at most 2⁶³ − 1 the
        int64 computation is exact.  Otherwise Python's integers are used.
        """
        if self.W64 is None:
            return "bigint"
        bound2 = self.norm2 * self.max_row_norm2
        if self.R53 is not None and bound2 <= self.float_limit2:
            return "float"
        if bound2 <= self.limit2:
            return "int64"
        return "bigint"

    def _matrix64(self) -> Any:
        if self.R64 is None:
            self.R64 = self.R53.astype(self.np.int64)   # type: ignore[union-attr]
        return self.R64

    def weights_as_ints(self) -> list[int]:
        return self.W64.tolist() if self.W64 is not None else list(self.Wbig)  # type: ignore

    def weights(self) -> tuple[Fraction, ...]:
        D = self.D
        return tuple(Fraction(v, D) for v in self.weights_as_ints())

    def row_index(self, position: int) -> int:
        return position if self.order is None else self.order[position]

    # -------------------------------------------------------------- scores and mistakes
    def is_mistake(self, s: int, y: int) -> bool:
        if y > 0:
            return s < 0 if self.pos_strict else s <= 0
        return s > 0 if self.neg_strict else s >= 0

    def _mask(self, scores: Any, labels: Any) -> Any:
        """Mistakes among a block of exact scores (labels ±1 as numbers of the scores' dtype).

        y·s cannot overflow: |s| ≤ 2⁶³ − 1 (int64) or is exact (float), and y = ±1.
        """
        if self.pos_strict == self.neg_strict:           # "mistake": y·s ≤ 0; "correct": y·s < 0
            margins = labels * scores
            return margins < 0 if self.pos_strict else margins <= 0
        bad_pos = (scores < 0) if self.pos_strict else (scores <= 0)
        bad_neg = (scores > 0) if self.neg_strict else (scores >= 0)
        return self.np.where(labels > 0, bad_pos, bad_neg)

    def _vector_scores(self, carrier: str, start: int, stop: int) -> Any:
        """Exact scores of the positions start..stop−1 (the carrier was proved exact)."""
        if carrier == "float":
            if self.Wfloat is None:
                self.Wfloat = self.W64.astype(self.np.float64)   # type: ignore[union-attr]
            self.stats.float_blocks += 1
            return self.R53[start:stop] @ self.Wfloat             # type: ignore[index]
        self.stats.int64_blocks += 1
        R = self._matrix64()
        if R.shape[1] >= 64:
            return self.np.einsum("ij,j->i", R[start:stop], self.W64)
        return R[start:stop] @ self.W64

    def _labels(self, carrier: str) -> Any:
        if carrier == "float":
            if self.Yfloat is None:
                self.Yfloat = self.Y.astype(self.np.float64)      # type: ignore[union-attr]
            return self.Yfloat
        return self.Y

    def score_big(self, i: int, W: list[int]) -> int:
        return sum(map(mul, W, self.rows[i]))

    def first_mistake(self, start: int, count: int) -> tuple[int, int] | None:
        """The first (offset, exact integer score) among the ``count`` positions from ``start``
        (wrapping around), or None when none of them is a mistake."""
        n = self.n
        offset = 0
        while offset < count:
            position = (start + offset) % n
            size = min(self.block, count - offset, n - position)
            carrier = self.carrier()          # W does not change inside this loop, but the
            if carrier != "bigint":           # call is cheap and keeps the proof next to its use
                scores = self._vector_scores(carrier, position, position + size)
                mask = self._mask(scores, self._labels(carrier)[position:position + size])
                j = int(mask.argmax())
                if mask[j]:
                    self.stats.rows_scanned += j + 1
                    self.block = max(_FIRST_BLOCK, min(_MAX_BLOCK, 2 * (j + 1)))
                    return offset + j, int(scores[j])
            else:
                self.stats.bigint_blocks += 1
                W = self.weights_as_ints()
                labels = self.labels
                for j in range(size):
                    i = self.row_index(position + j)
                    s = self.score_big(i, W)
                    if self.is_mistake(s, labels[i]):
                        self.stats.rows_scanned += j + 1
                        self.block = _FIRST_BLOCK
                        return offset + j, s
            self.stats.rows_scanned += size
            self.block = min(_MAX_BLOCK, 2 * self.block)
            offset += size
        return None

    def mistakes(self) -> list[bool]:
        """Whether each point (in visiting order) is a mistake under the current weights."""
        carrier = self.carrier()
        self.stats.rows_scanned += self.n
        if carrier != "bigint":
            return self._mask(self._vector_scores(carrier, 0, self.n),
                              self._labels(carrier)).tolist()
        self.stats.bigint_blocks += 1
        W = self.weights_as_ints()
        return [self.is_mistake(self.score_big(self.row_index(p), W),
                                self.labels[self.row_index(p)]) for p in range(self.n)]

    def score(self, position: int) -> int:
        carrier = self.carrier()
        if carrier != "bigint":
            return int(self._vector_scores(carrier, position, position + 1)[0])
        return self.score_big(self.row_index(position), self.weights_as_ints())

    # -------------------------------------------------------------- update
    def update(self, t: int, position: int, s: int) -> None:
        """wₜ₊₁ = wₜ + η·y·x for the point at ``position``, whose exact score is s / (D·L)."""
        i = self.row_index(position)
        y = self.labels[i]
        ky = self.k * y
        before = self.weights() if self.on_step is not None else None
        if self.on_update is not None:
            self.on_update(t, i, y, Fraction(s, self.unit))
        if self.on_scaled_update is not None:
            self.on_scaled_update(t, i, y, s, self.unit)
        self.norm2 += 2 * ky * s + ky * ky * int(self.row_norm2[i])
        if self.W64 is not None and self.norm2 <= self.limit2:
            # |Wⱼ + k·y·rowⱼ| ≤ ‖W_new‖ ≤ limit, and |k·rowⱼ| ≤ limit was checked at the start.
            row = self.dataset.int64_rows[i]                   # the cached matrix, row i
            if ky == 1:
                self.W64 += row
            elif ky == -1:
                self.W64 -= row
            else:
                self.W64 += ky * row
            if self.Wfloat is not None and self.norm2 <= self.float_limit2:
                # Old and new entries are integers of size ≤ ‖W‖ ≤ 2⁵², so the float update
                # (and its step k·y·row, their difference) is exact: Wfloat stays equal to W64.
                frow = self.R53[position]                       # type: ignore[index]
                if ky == 1:
                    self.Wfloat += frow
                elif ky == -1:
                    self.Wfloat -= frow
                else:
                    self.Wfloat += ky * frow
            else:
                self.Wfloat = None
        else:
            W = self.weights_as_ints()
            self.Wbig = [wv + ky * xv for wv, xv in zip(W, self.rows[i])]
            self.W64 = None
            self._settle()
        if self.on_step is not None and before is not None:
            self.on_step(Step(t, i, y, self.dataset.X[i], Fraction(s, self.unit), before,
                              self.weights()))


def run_fast(
    ds: "Dataset",
    options: "RunOptions",
    on_step: Callable[["Step"], None] | None = None,
    *,
    on_update: UpdateCallback | None = None,
    on_scaled_update: ScaledUpdateCallback | None = None,
    word_limit: int = INT64_LIMIT,
    carriers: str = "float",
    stats: EngineStats | None = None,
    budget: "Budget | None" = None,
) -> tuple[tuple[Fraction, ...], int, int, bool]:
    """Run PLA on ``ds``; returns (w, updates, epochs, halted) exactly as the reference does.

    ``on_step`` receives every :class:`~pla.runs.Step` (built only when given);
    ``on_update(t, index, y, score)`` is a cheap alternative that builds no vectors, and
    ``on_scaled_update(t, index, y, s, unit)`` (score = s / unit) one that builds no Fraction.
    ``word_limit`` bounds the magnitudes the int64 path may meet (default 2⁶³ − 1); a smaller
    value forces the big-integer path earlier (tests use it) and never changes the results.
    ``carriers`` is the widest choice of exact arithmetic for the scans: ``float`` (float64
    while provably exact, then int64, then big integers), ``int64`` (no floats at all) or
    ``bigint`` (Python integers only); the results are the same.  Data whose integer rows do
    not fit in int64 (float-valued data, typically) are scanned by the certified float filter of
    :mod:`pla.filtered_engine` with ``float``; ``filter`` uses that filter on any data.
    """
    if not 1 <= word_limit <= INT64_LIMIT:
        raise ValueError(f"word_limit must be in [1, 2**63 - 1], not {word_limit}")
    if carriers not in ("float", "int64", "bigint", "filter"):
        raise ValueError(f"carriers must be float, int64, bigint or filter, not {carriers!r}")
    N = ds.n
    order = visiting_order(N, options) if options.order in ("cyclic", "random-cycle") else None
    permutation = order if options.order == "random-cycle" else None
    stats = stats if stats is not None else EngineStats()
    engine: Any
    if carriers == "filter" or (carriers == "float" and ds.int64_rows is None):
        from pla.filtered_engine import FilteredEngine
        engine = FilteredEngine(ds, options, permutation, on_step, on_update, stats,
                                on_scaled_update)
    else:
        engine = _Engine(ds, options, permutation, word_limit, on_step, on_update, stats,
                         carriers, on_scaled_update)
    budget = budget if budget is not None else Budget(options.max_updates)
    updates = 0

    if order is not None:         # cyclic, random-cycle: positions along the visiting order
        visit = 0                 # absolute visit counter; pass number = visit // N + 1
        last_update_visit = -1
        while True:
            found = engine.first_mistake(visit % N, N)
            if found is None:
                epochs = 1 if last_update_visit < 0 else last_update_visit // N + 2
                return engine.weights(), updates, epochs, True
            visit += found[0]
            if budget.exhausted(updates):
                return engine.weights(), updates, visit // N + 1, False
            engine.update(updates, visit % N, found[1])
            updates += 1
            last_update_visit = visit
            visit += 1

    if options.order == "first":
        scans = 0
        while True:
            scans += 1
            found = engine.first_mistake(0, N)
            if found is None:
                return engine.weights(), updates, scans, True
            if budget.exhausted(updates):
                return engine.weights(), updates, scans, False
            engine.update(updates, found[0], found[1])
            updates += 1

    # random: one seeded randrange(N) per visit; halts as soon as no mistake is left.
    randrange = random.Random(options.seed).randrange
    visits = 0
    while True:
        mask = engine.mistakes()
        if not any(mask):
            return engine.weights(), updates, max(1, -(-visits // N)), True
        while True:
            i = randrange(N)
            visits += 1
            if mask[i]:
                break
        if budget.exhausted(updates):
            return engine.weights(), updates, max(1, -(-visits // N)), False
        engine.update(updates, i, engine.score(i))
        updates += 1
