"""The Novikoff monitor: every inequality of the convergence proof, checked exactly at every update.

Hook a :class:`Monitor` into the engine with ``pla.run(..., on_step=monitor)`` (or the cheaper
``on_update=monitor.on_update``, which builds no vectors, or ``monitor.on_update_deferred``,
the same checks in blocks of updates) and call
:meth:`Monitor.finish` with the result.  With w_f a separator, ρ = minₙ yₙ w_f·xₙ (the
unnormalised margin), R² = maxₙ ‖xₙ‖², learning rate η and w₀ = 0, at update t (wₜ → wₜ₊₁,
a mistake on row n) it checks

1. ``w_f.w_{t+1} >= w_f.w_t + eta*rho`` and ``w_f.w_{t+1} >= (t+1)*eta*rho``;
2. the identity ``||w_{t+1}||^2 = ||w_t||^2 + 2*eta*y_n*w_t.x_n + eta^2*||x_n||^2``,
   ``||w_{t+1}||^2 <= ||w_t||^2 + eta^2*R^2`` and ``||w_{t+1}||^2 <= (t+1)*eta^2*R^2``;
3. the cosine bound in exact squared form ``(w_f.w_{t+1})^2 * R^2 >= (t+1) * rho^2 * ||w_{t+1}||^2``;
4. that the update was a mistake under the run's sign(0) convention, and the proof's hypothesis
   ``y_n w_t.x_n <= 0`` (which every convention implies);
5. ``t+1 <= R^2 ||w_f||^2 / rho^2`` at every update and ``T <= R^2 ||w_f||^2 / rho^2`` at the end.

With w₀ ≠ 0 the classical bound does not hold; the monitor then checks the generalised forms
``w_f.w_t >= w_f.w_0 + t*eta*rho``, ``||w_t||^2 <= ||w_0||^2 + t*eta^2*R^2``, the cosine bound
``(w_f.w_t)^2 * B_t >= A_t^2 * ||w_t||^2`` (A_t = w_f.w_0 + t*eta*rho ≥ 0,
B_t = ||w_0||^2 + t*eta^2*R^2) and the bound on T that follows from them (the largest T with
A_T < 0 or A_T² ≤ ‖w_f‖² B_T).

The monitor keeps the books; the trusted kernel decides (:mod:`verify.kernel.steps`).
Everything is integer arithmetic over common denominators (wₜ = W/D, xₙ = rowₙ/L,
w_f = F/D_f): the monitor keeps its own copy of wₜ and computes wₜ·xₙ at every update (O(d));
‖wₜ₊₁‖² and w_f·wₜ₊₁ are updated in O(1) from ‖xₙ‖² and yₙ w_f·xₙ, precomputed once per
point, and recomputed directly every ``check_every`` updates and at the end (the kernel
compares the two, so the identities tie every incremental value to a direct one).  Each
update's integers go to :func:`verify.kernel.steps.check_update`, which decides every
inequality above.  The monitor compares the engine's reported score at every update, the
engine's final w at the end and, as an ``on_step`` hook, the engine's vectors every
``check_every`` updates; with ``paranoid=True`` it compares every vector at every update (wₜ
with the previous wₜ₊₁, xₙ with the data, wₜ₊₁ with wₜ + η yₙ xₙ) and recomputes the sums
directly at every update.  A failure raises :class:`ProofViolation` (a kernel error) naming
the inequality, the update and both exact sides.

>>> import pla
>>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> monitor = Monitor(ds, pla.RunOptions(order="first"), wf=[-3, 1, 1])
>>> result = pla.run(ds, order="first", on_step=monitor)
>>> report = monitor.finish(result)
>>> report.updates, report.rho, report.R2, report.bound, report.violations
(7, Fraction(1, 1), Fraction(26, 1), Fraction(286, 1), 0)
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from math import floor, lcm
from operator import add, mul, sub
from typing import Any, Iterator, Sequence

from verify.kernel import steps as kernel_steps
from verify.kernel.exact import exact_fraction
from verify.kernel.certificates import count_mistakes as kernel_count_mistakes
from verify.kernel.row_facts import row_facts as kernel_row_facts
from verify.kernel.steps import ProofViolation

__all__ = ["ProofViolation", "Monitor", "MonitorReport", "DEFAULT_CHECK_EVERY", "DEFERRED_BLOCK",
           "HYPOTHESIS_TEXT",
           "inequalities_checked", "INEQUALITIES_PER_UPDATE"]

#: Without ``paranoid``, the engine's vectors are compared with the monitor's every this many updates.
DEFAULT_CHECK_EVERY = 256

#: :meth:`Monitor.on_update_deferred` checks the updates it keeps in blocks of this many.
DEFERRED_BLOCK = 1024

#: What each sign(0) convention makes of the proof's hypothesis y·wₜ·xₙ ≤ 0.
HYPOTHESIS_TEXT = {
    "mistake": "every update had y w_t.x <= 0 (a zero score is a mistake: exactly the proof's "
               "hypothesis)",
    "positive": "every update had y w_t.x <= 0 (sign(0) = +1: a mistake means y w.x < 0, or "
                "w.x = 0 with y = -1)",
    "negative": "every update had y w_t.x <= 0 (sign(0) = -1: a mistake means y w.x < 0, or "
                "w.x = 0 with y = +1)",
    "correct": "every update had y w_t.x < 0 (only strict mistakes update; the proof needs "
               "only y w_t.x <= 0)",
}


#: The proof's inequalities checked at each update, with a reference separator w_f: the score
#: w_t.x_n, the mistake rule (with the hypothesis y_n w_t.x_n <= 0), the norm identity,
#: ||w_{t+1}||^2 <= ||w_t||^2 + eta^2 R^2, ||w_{t+1}||^2 <= (t+1) eta^2 R^2,
#: w_f.w_{t+1} >= w_f.w_t + eta rho, w_f.w_{t+1} >= (t+1) eta rho, the cosine bound and
#: t+1 <= the bound (generalised forms when w0 != 0).  (``Monitor.checks``, the running count,
#: also counts the comparisons of the engine's vectors.)
INEQUALITIES_PER_UPDATE = 9
#: The same without w_f (non-separable data): the first five.
INEQUALITIES_PER_UPDATE_WITHOUT_WF = 5


def inequalities_checked(updates: int, has_wf: bool, halted: bool) -> int:
    """The one definition of the "inequalities checked" count that ``pla run --check`` and
    ``pla audit`` report: the proof's inequalities per update, plus at the end T = the checked
    updates, the final w = the last w_{t+1}, (halted) no mistake left and (with w_f) T <= the
    bound.  Comparisons of the engine's vectors (every update with ``--paranoid`` and in an
    audit, periodically otherwise) check the engine, not the proof, and are not counted.

    >>> inequalities_checked(29, True, True)
    265
    """
    per_update = INEQUALITIES_PER_UPDATE if has_wf else INEQUALITIES_PER_UPDATE_WITHOUT_WF
    return updates * per_update + 2 + int(halted) + int(has_wf)


@dataclass(frozen=True)
class MonitorReport:
    """What a checked run established (all numbers exact).

    ``bound`` is R²‖w_f‖²/ρ² when ``classical`` (w₀ = 0), otherwise the generalised bound (an
    integer) and ``classical_bound`` the classical value that does *not* apply.  ``wf`` is None
    when the data have no separator; then only the w_f-free inequalities were checked.
    """

    wf: tuple[Fraction, ...] | None
    wf_kind: str
    rho: Fraction | None
    R2: Fraction
    norm2: Fraction | None
    gamma2: Fraction | None
    bound: Fraction | None
    bound_updates: int | None
    classical: bool
    classical_bound: Fraction | None
    updates: int
    checks: int
    violations: int
    hypothesis: str

    def _repr_html_(self) -> str:
        """The report as a table of exact numbers in Jupyter (:mod:`verify.present.notebook`)."""
        from verify.present.notebook import report_html

        return report_html(self)


def _fraction(value: Any) -> Fraction:
    """``value`` as a Fraction (a Fraction itself as it is: immutable, nothing to copy)."""
    return value if type(value) is Fraction else Fraction(value)


def _scaled(values: Sequence[Fraction], D: int) -> list[int] | None:
    """Integers V with values = V / D, or None when some value is not a multiple of 1/D, or is
    not a builtin int or a Fraction of builtin ints itself (an engine's value: a subclass could
    show one number and report another as its numerator, which is all that would be read).

    >>> _scaled([Fraction(1, 2), 3], 4), _scaled([Fraction(1, 3)], 4), _scaled([True], 1)
    ([2, 12], None, None)
    """
    out = []
    for v in values:
        if type(v) is int:
            out.append(v * D)
            continue
        if exact_fraction(v) is not v:
            return None
        q, r = divmod(D, v.denominator)
        if r:
            return None
        out.append(v.numerator * q)
    return out


def _entry_reader(values: Any) -> Any:
    """``n -> values[n]`` as a Python int, for the kernel's facts (an int64 array: its ``item``,
    which makes no numpy scalar; a tuple of ints: indexing).

    >>> import numpy as np
    >>> type(_entry_reader(np.array([5, 7]))(1)), _entry_reader((5, 7))(1)
    (<class 'int'>, 7)
    """
    return values.__getitem__ if type(values) is tuple else values.item


def _scaled_margins(margins: Any, L: int) -> Any:
    """The kernel's margins times L: for int64 margins an int64 array when every product fits
    (|L·m| < 2⁶³), else (and for a tuple of Python ints) a tuple of Python ints.

    >>> import numpy as np
    >>> _scaled_margins(np.array([3, -1]), 1000).tolist(), _scaled_margins(np.array([2**62]), 4)
    ([3000, -1000], (18446744073709551616,))
    >>> _scaled_margins((3, -1), 2)
    (6, -2)
    """
    if type(margins) is tuple:
        return tuple(v * L for v in margins)
    largest = max(int(margins.max()), -int(margins.min()))
    if (largest * L).bit_length() < 63:
        scaled = margins * L
        scaled.setflags(write=False)
        return scaled
    return tuple(v * L for v in margins.tolist())


def _entries(values: Any, index: list[int]) -> list[int]:
    """``[values[n] for n in index]`` as Python ints (``values`` an int64 array or a tuple).

    >>> import numpy as np
    >>> _entries(np.array([5, 7, 9]), [2, 0]), _entries((5, 7, 9), [1, 1])
    ([9, 5], [7, 7])
    """
    if type(values) is tuple:
        return [values[n] for n in index]
    return values[index].tolist()


def _plain(value: Any) -> Any:
    """``value`` as builtin values only (a str, an int, None, a Fraction of ints: itself; a
    tuple: its entries so), else a new object equal to nothing: what ``==`` then compares is
    the values themselves, not an object's own comparison.

    >>> _plain((Fraction(1, 2), "first", 3, None)) == (Fraction(1, 2), "first", 3, None)
    True
    >>> class Text(str):
    ...     pass
    >>> _plain(Text("first")) == "first", _plain(True) == True
    (False, False)
    """
    kind = type(value)
    if value is None or kind is str or kind is int:
        return value
    if kind is Fraction and exact_fraction(value) is value:
        return value
    if kind is tuple:
        return tuple(map(_plain, value))
    return object()


def _same_options(told: Any, mine: Any) -> bool:
    """Whether the options a run's result tells are the monitor's: the same object, or of
    the same dataclass with equal builtin values field by field (a report shows them)."""
    if told is mine:
        return True
    fields = getattr(type(mine), "__dataclass_fields__", None)
    if type(told) is not type(mine) or fields is None:
        return False
    return all(_plain(getattr(told, name)) == _plain(getattr(mine, name)) for name in fields)


def _int64_carrier(rows: Any, W0: list[int], k: int) -> tuple[Any, int]:
    """``rows`` as a numpy int64 matrix (given as one, e.g. the data set's cached
    ``int64_rows``, or converted) and the number of updates during which the monitor may
    keep wₜ (times D) in int64 and compute its scores there, exactly; (None, 0) when never.

    Update t computes S = Wₜ·rowₙ and Wₜ₊₁ = Wₜ ± k·rowₙ, so every |entry| of Wₜ₊₁ is at most
    M = max|W₀| + (t+1)·|k|·max|row| and every partial sum of S at most dim·M·max|row| (M
    bounds Wₜ too).  Both stay below 2⁶² while t+1 ≤ the returned count: no int64 wraps
    around (numpy's integer products do silently), and the checkpoints, which recompute
    ‖wₜ‖² and w_f·wₜ in Python integers, tie the carrier to the exact values.

    >>> _int64_carrier(((1, 2), (3, 4)), [0, 0], 1)[1] == (2**62 // (2 * 4)) // 4
    True
    >>> _int64_carrier(((2**40, 1),), [0, 0], 1)
    (None, 0)
    """
    if len(rows) == 0:
        return None, 0
    import numpy as np

    dim = len(rows[0])
    if dim == 0:
        return None, 0
    matrix = rows
    if not isinstance(rows, np.ndarray):
        try:
            matrix = np.array(rows, dtype=np.int64)
        except OverflowError:
            return None, 0
    if matrix.shape != (len(rows), dim):
        return None, 0
    biggest = max(int(matrix.max()), -int(matrix.min())) or 1   # (np.abs wraps -2⁶³)
    if biggest >= 2**31:
        return None, 0
    start = max(map(abs, W0), default=0)
    room = (2**62 // (dim * biggest) - start) // (abs(k) * biggest)
    if room <= 0:
        return None, 0
    return matrix, room


@dataclass(frozen=True)
class _NotExact:
    """What :meth:`Monitor.on_update_deferred` keeps of a score that was not an exact number
    when the engine reported it (its text then; the check of its block fails on it)."""

    text: str

    def __repr__(self) -> str:
        return self.text


class Monitor:
    """Checks Novikoff's inequalities exactly at every update of a run (see the module doc).

    ``wf`` is the reference separator (None: data without a separator, only the w_f-free
    inequalities are checked).  ``rho`` and ``R2`` default to their exact values; when given,
    they are claims: compared with the exact values before the run, or, with
    ``trust_constants=True``, used as given so that the inequalities themselves catch a wrong
    claim (a claimed ρ ≤ 0 or R² < 0 is refused before the run: the proof needs ρ > 0, and a
    negative ρ would make its inequalities hold for every run).  ``classical`` (default:
    w₀ = 0) chooses the classical or the generalised forms.  ``unit_margin``: the reference
    separator is ``wf`` divided by its margin minₙ yₙ wf·xₙ (so that ρ = 1; from the monitor's
    own margins, one product for both).
    """

    def __init__(self, dataset: Any, options: Any, wf: Sequence[Any] | None = None, *,
                 wf_kind: str = "given", rho: Any = None, R2: Any = None,
                 paranoid: bool = False, check_every: int = DEFAULT_CHECK_EVERY,
                 trust_constants: bool = False, classical: bool | None = None,
                 unit_margin: bool = False) -> None:
        self.dataset = dataset
        self.options = options
        self._pending: list[tuple[Any, Any, Any, Any, Any]] = []
        # the first violation raised (finish raises it again: an engine may catch what its hook
        # raised and go on, but a checked run never reports after a violation)
        self._raised: ProofViolation | None = None
        self.paranoid = paranoid
        self.check_every = max(1, check_every)
        from verify.search.certificates import kernel_rows

        # the kernel's input: the data set's int64 matrix when the kernel takes it (the tuple
        # of tuples, ``self.rows``, is then built only if an update or a fault needs it)
        self.kernel_rows = kernel_rows(dataset)
        self.n = dataset.n
        self.labels = dataset.labels
        self.L = L = dataset.scale
        self.zero = options.zero
        self.eta = eta = Fraction(options.eta)
        # each entry a Fraction of builtin ints (a Fraction whose numerator is an int subclass
        # could be falsy, or anything else, while it is not 0)
        w0 = list(map(exact_fraction, map(_fraction, options.initial_weights(dataset.dim))))
        if any(v is None for v in w0):          # (``None in w0`` asks every Fraction's __eq__)
            raise TypeError("w0's entries must be exact numbers (ints or Fractions of ints)")
        w0_zero = not any(v.numerator for v in w0)          # (builtin ints now)
        if not w0_zero:
            self.D = D = lcm(eta.denominator * L, *(v.denominator for v in w0))
            self.W0 = _scaled(w0, D)
        else:                                   # w₀ = 0 (the default): every W0ᵢ is 0
            self.D = D = eta.denominator * L
            self.W0 = [0] * len(w0)
        self.k = k = D * eta.numerator // (eta.denominator * L)   # η·x = k·row / D
        self.W: Any = list(self.W0)  # type: ignore[arg-type]
        matrix = dataset.int64_rows       # cached on the data set (the fast engine's too)
        self._rows64, self._int64_updates = _int64_carrier(
            self.kernel_rows if matrix is None else matrix, self.W, k)
        self.N0 = sum(map(mul, self.W, self.W))
        self.N = self.N0
        self.t = 0
        self.checks = 0
        self.w0_zero = w0_zero
        self.classical = self.w0_zero if classical is None else classical
        if self.classical:
            self.N0 = 0  # the classical forms start from w₀ = 0
        self.wf_kind = wf_kind

        if wf is not None:
            wf = tuple(wf)
            if len(wf) != dataset.dim:
                raise ValueError(f"w_f has {len(wf)} entries, the examples {dataset.dim}")
            # builtin ints (the near-max-margin proposal's), each type tested by identity: a
            # set of types compares them by their metaclass's __eq__ and __hash__, which can
            # claim int, and F must never hold the caller's objects (their arithmetic is theirs)
            integers = all(type(v) is int for v in wf)
            if integers:
                Df, F = 1, list(wf)
            else:
                wf = tuple(map(_fraction, wf))
                # (Fraction() takes an int subclass's own numerator: exact_fraction returns a
                # Fraction itself only when its numerator and denominator are builtin ints)
                if not all(exact_fraction(v) is v for v in wf):
                    raise TypeError("w_f's entries must be exact numbers (their Fractions' "
                                    "numerators and denominators builtin ints)")
                Df = 1
                for v in wf:          # lcm of the denominators (a division is cheaper than a gcd)
                    if Df % v.denominator:
                        Df = lcm(Df, v.denominator)
                F = [v.numerator * (Df // v.denominator) for v in wf]
        # the kernel's facts about the rows, from one checked copy of the data: ‖rowₙ‖² and
        # yₙ F·rowₙ for every row (whole int64 arrays where a bound proves them exact)
        facts = kernel_row_facts(self.kernel_rows, self.labels, None if wf is None else F,
                                 with_norms=True)
        self.q = facts.norms
        self._norm_at = _entry_reader(self.q)
        true_R2 = Fraction(facts.largest_norm, L * L)
        R2c = true_R2 if R2 is None else Fraction(R2)
        if R2c < 0:          # (a claimed, trusted R^2 = max ||x_n||^2 is never negative)
            raise ProofViolation("R^2 >= 0", None, R2c, ">=", 0, "the claimed R^2")
        if R2 is not None and R2c != true_R2 and not trust_constants:
            raise ProofViolation("R^2 = max_n ||x_n||^2", None, R2c, "=", true_R2)
        self.R2 = R2c
        c, e = R2c.numerator, R2c.denominator
        self.e = e
        self.c3 = k * k * L * L * c          # e·(N' − N) ≤ c3  <=>  ‖w'‖² ≤ ‖w‖² + η²R²

        self._wf: tuple[Fraction, ...] | None = None
        self.rho: Fraction | None = None
        self.norm2: Fraction | None = None
        if wf is None:
            self.constants = kernel_steps.StepConstants(
                k=k, e=e, c3=self.c3, N0=self.N0, classical=self.classical, zero=self.zero, D=D,
                L=L)
            return
        self.m = facts.margins
        true_rho = Fraction(facts.smallest_margin, Df * L)
        if true_rho <= 0:
            raise ProofViolation("w_f is a separator: min_n y_n w_f.x_n > 0", None, true_rho,
                                 ">", 0, f"row {facts.argmin + 1} (1-based) has y w_f.x = "
                                 f"{true_rho}")
        if unit_margin:      # w_f / ρ: F·L over D_f = min yₙ F·rowₙ, margins times L, ρ = 1
            Df = facts.smallest_margin
            if L != 1:
                F = [v * L for v in F]
                self.m = _scaled_margins(self.m, L)
            true_rho = Fraction(1)
        self._margin_at = _entry_reader(self.m)
        self._wf = None if unit_margin or integers else wf   # (else F / D_f when first read)
        self.Df = Df
        self.F = F
        rho_c = true_rho if rho is None else Fraction(rho)
        if rho is not None and rho_c != true_rho and not trust_constants:
            raise ProofViolation("rho = min_n y_n w_f.x_n", None, rho_c, "=", true_rho)
        if rho_c <= 0:       # (a claimed, trusted rho: the proof divides by rho > 0)
            raise ProofViolation("rho > 0", None, rho_c, ">", 0, "the claimed margin")
        self.rho = rho_c
        a, b = rho_c.numerator, rho_c.denominator
        self.a, self.b = a, b
        self.c1 = k * L * a * Df             # b·(P' − P) ≥ c1  <=>  w_f·w' ≥ w_f·w + ηρ
        self.norm2 = Fraction(sum(map(mul, F, F)), Df * Df)     # ‖w_f‖², exactly
        self.P0 = sum(map(mul, F, self.W)) if not self.classical else 0
        self.P = sum(map(mul, F, self.W))
        if self.classical:
            self.bound = R2c * self.norm2 / (rho_c * rho_c)
            self.bound_updates = floor(self.bound)
        else:
            self.bound_updates = kernel_steps.generalised_bound(
                Fraction(self.P0, Df * D), Fraction(self.N0, D * D), eta, rho_c, R2c,
                self.norm2)
            self.bound = Fraction(self.bound_updates)
        self.constants = kernel_steps.StepConstants(
            k=k, e=e, c3=self.c3, N0=self.N0, classical=self.classical, zero=self.zero, D=D,
            L=L, b=b, c1=self.c1, P0=self.P0, bound_updates=self.bound_updates, Df=Df,
            bound=self.bound)

    @property
    def rows(self) -> Any:
        """The data set's integer rows, a tuple of tuples (built on first use when the data set
        holds only its int64 matrix)."""
        return self.dataset.rows

    def weights(self) -> list[int]:
        """W, the current wₜ times D, as a list of Python integers."""
        return self.W if type(self.W) is list else self.W.tolist()

    # ------------------------------------------------------------------ per update
    def _fail(self, name: str, t: Any, lhs: Any, relation: str, rhs: Any, detail: str = "") -> None:
        violation = ProofViolation(name, t, lhs, relation, rhs, detail)
        if self._raised is None:
            self._raised = violation
        raise violation

    def _reject(self, violation: ProofViolation) -> None:
        """A violation the kernel found (a subclass may collect it instead of raising)."""
        self._fail(violation.inequality, violation.step, violation.lhs, violation.relation,
                   violation.rhs, violation.detail)

    def __call__(self, step: Any) -> None:
        """The ``on_step`` hook: check update ``step`` (a :class:`pla.Step`)."""
        if self._pending:
            self.check_pending()
        full = self.paranoid or self.t % self.check_every == 0
        if full:
            t, n = self.t, step.index
            if isinstance(n, int) and 0 <= n < self.n:
                if _scaled(step.w_before, self.D) != self.weights():
                    self._fail("w_t is the previous w_{t+1}", t, "w_t (engine)", "=",
                               "w_t (monitor)", f"engine {tuple(map(str, step.w_before))} != "
                               f"{tuple(str(Fraction(v, self.D)) for v in self.weights())}")
                self.checks += 1
                if _scaled(step.x, self.L) != list(self.rows[n]):
                    self._fail(f"x is row {n + 1} of the data", t, "x (engine)", "=", "x_n (data)")
        self._update(step.t, step.index, step.y, step.score, step.w_after if full else None)

    @property
    def wf(self) -> tuple[Fraction, ...] | None:
        """w_f exactly (None without one): F / D_f, whose Fractions are built when first read
        (by the report, after the run: the checks use F and D_f)."""
        if self._wf is None and getattr(self, "F", None) is not None:
            self._wf = tuple(Fraction(v, self.Df) for v in self.F)
        return self._wf

    def on_update(self, t: int, index: int, y: int, score: Fraction) -> None:
        """The cheap ``on_update`` hook of :func:`pla.run`: no vectors, the same inequalities."""
        self._update(t, index, y, score, None)

    def on_update_deferred(self, t: int, index: int, y: int, score: Fraction) -> None:
        """:meth:`on_update` in blocks: the update is kept and checked with the next
        :data:`DEFERRED_BLOCK` - 1 (or by :meth:`finish`), in order, each exactly as
        :meth:`on_update` checks it; a failure names its own update, and is raised when its
        block is checked.  Cheaper per update than :meth:`on_update` inside a run (the
        engine's scans between two updates no longer evict the monitor's state)."""
        pending = self._pending
        # the score is read now, as on_update reads it (an engine's mutable object could be
        # corrected before the block is checked)
        exact = exact_fraction(score)
        if exact is None:
            pending.append((t, index, y, _NotExact(repr(score)), None))
        else:
            pending.append((t, index, y, exact.numerator, exact.denominator))
        if len(pending) >= DEFERRED_BLOCK:
            self.check_pending()

    def on_scaled_update_deferred(self, t: int, index: int, y: int, s: int, unit: int) -> None:
        """:meth:`on_update_deferred` for the engine's ``on_scaled_update`` hook (score
        s / unit, two builtin ints, unit > 0): the same checks, and no Fraction is built per
        update (a score of anything else is refused when its block is checked)."""
        pending = self._pending
        if type(s) is not int or type(unit) is not int or unit <= 0:
            pending.append((t, index, y, _NotExact(f"{s!r}/{unit!r}"), None))
        else:
            pending.append((t, index, y, s, unit))
        if len(pending) >= DEFERRED_BLOCK:
            self.check_pending()

    @contextmanager
    def deferred_checks(self) -> Iterator[Any]:
        """:meth:`on_update_deferred`, for a run made inside the ``with`` block; when the run
        raises (an interrupt, an engine error) with updates still kept, they are checked
        first, and a violation among them is raised (chained to the run's exception) instead.

        >>> import pla
        >>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
        >>> monitor = Monitor(ds, pla.RunOptions(order="first"), wf=[-3, 1, 1])
        >>> with monitor.deferred_checks() as hook:
        ...     result = pla.run(ds, order="first", on_update=hook)
        >>> monitor.finish(result).violations
        0
        """
        try:
            yield self.on_update_deferred
        except BaseException as exc:
            try:
                self.check_pending()
            except ProofViolation as violation:
                raise violation from exc
            raise

    def check_pending(self) -> None:
        """Check the updates :meth:`on_update_deferred` kept, in order: as one block
        (:meth:`_checked_as_block`) when it can, else one by one as :meth:`on_update` checks
        them."""
        pending, self._pending = self._pending, []
        if not pending or self._checked_as_block(pending):
            return
        update = self._update
        for t, index, y, s, unit in pending:     # (s / unit: builtin ints, unit > 0)
            update(t, index, y, s if unit is None else Fraction(s, unit), None)

    def _checked_as_block(self, pending: list[tuple[Any, Any, Any, Any, Any]]) -> bool:
        """Check the kept updates ``pending`` at once, with the same inequalities and
        checkpoints as :meth:`_update` checks them one by one, when every one of them is the
        run's next update (builtin ints t = self.t, self.t + 1, ...; a row that exists, its
        label; an exact score s / unit) and the int64 carrier holds for all of them.  wₜ₊₁
        for the whole block is one cumulative sum of the steps k·yₙ·rowₙ and the scores one
        row-wise product (every entry and partial sum within :func:`_int64_carrier`'s bound:
        exact); each score must be the engine's.  Then the kernel decides the updates between
        two checkpoints with one call (:func:`verify.kernel.steps.check_updates`) and, at
        each checkpoint, that ‖wₜ₊₁‖² and w_f·wₜ₊₁ kept by the identities equal their direct
        values.  Returns False, having checked and changed nothing, when the block is not
        that: the updates are then checked one by one, which names the first one that lies.
        When the kernel refuses an update, the updates up to it are checked one by one too
        (the books then hold those before it, as on that path) and the violation is raised.
        """
        t0, count = self.t, len(pending)
        if self._rows64 is None or t0 + count > self._int64_updates:
            return False
        labels, n_rows = self.labels, self.n
        for t, (step_t, n, y, _, unit) in enumerate(pending, t0):
            if type(step_t) is not int or step_t != t or type(n) is not int or \
                    not 0 <= n < n_rows or type(y) is not int or y != labels[n] or unit is None:
                return False
        import numpy as np

        index = [update[1] for update in pending]
        ys = [update[2] for update in pending]
        rows = self._rows64[index]
        W = self.W
        if type(W) is list:
            W = np.array(W, dtype=np.int64)          # W₀ fits: |W₀| is part of the bound
        after = rows * (self.k * np.array(ys, dtype=np.int64))[:, None]   # the steps k·y·row
        np.cumsum(after, axis=0, out=after)
        after += W                                          # row j: W after update t0 + j
        S = [int(W.dot(rows[0]))]                           # Wₜ·rowₙ = wₜ·xₙ · D·L
        S += np.einsum("ij,ij->i", after[:-1], rows[1:]).tolist()
        DL = self.D * self.L
        for (_, _, _, s, unit), mine in zip(pending, S):
            if s * DL != mine * unit:
                return False
        q = _entries(self.q, index)
        m = None if self.rho is None else _entries(self.m, index)
        N, P = self.N, self.P if self.rho is not None else None
        checks = self.checks
        try:
            self._check_block(t0, count, after, ys, S, q, m, N, P)
        except ProofViolation as violation:
            # raised, not collected, with nothing of the block kept yet: the updates up to the
            # failing one go the one-by-one way, which keeps the books of those before it and
            # raises the same violation (and if it did not, this one is raised: never dropped)
            self.checks = checks
            for t, index, y, s, unit in pending[:violation.step - t0 + 1]:
                self._update(t, index, y, Fraction(s, unit), None)
            raise
        return True

    def _check_block(self, t0: int, count: int, after: Any, ys: list[int], S: list[int],
                     q: list[int], m: list[int] | None, N: int, P: int | None) -> None:
        """The kernel's part of :meth:`_checked_as_block` (the updates t0 ... t0 + count - 1,
        W after each in ``after``), then the books kept."""
        D, constants, reject = self.D, self.constants, self._reject
        start = 0
        for stop in [j + 1 for j in range(count) if (t0 + j) % self.check_every == 0] + [count]:
            if stop <= start:
                continue
            N, P = kernel_steps.check_updates(
                constants, t0 + start, ys[start:stop], S[start:stop], q[start:stop], N,
                None if m is None else m[start:stop], P, fail=reject)
            self.checks += (stop - start) * (5 if m is None else 9)
            if (t0 + stop - 1) % self.check_every == 0:   # a checkpoint: the direct values
                W1 = after[stop - 1].tolist()
                direct = sum(map(mul, W1, W1))
                kernel_steps.check_equal(kernel_steps.NORM_IDENTITY, t0 + stop - 1, direct, N,
                                         D * D, fail=reject)
                N = direct
                if m is not None:
                    self.checks += 1
                    direct = sum(map(mul, self.F, W1))
                    kernel_steps.check_equal(kernel_steps.MARGIN_IDENTITY, t0 + stop - 1,
                                             direct, P, self.Df * D, fail=reject)
                    P = direct
            start = stop
        self.W = after[-1].copy()
        self.N = N
        if m is not None:
            self.P = P
        self.t = t0 + count

    def _update(self, step_t: int, n: int, step_y: int, score: Any,
                engine_after: Sequence[Fraction] | None) -> None:
        """Bookkeeping of update t: wₜ₊₁, ‖wₜ₊₁‖², w_f·wₜ₊₁ as integers (incrementally, and
        recomputed directly every ``check_every`` updates); the kernel decides the inequalities."""
        t = self.t
        # (builtin ints only: a subclass or another object could compare as it likes)
        if type(step_t) is not int or step_t != t:
            self._fail("updates are numbered 0, 1, 2, ...", t, step_t, "=", t)
        if type(n) is not int or not 0 <= n < self.n:
            self._fail("the updated row exists", t, n, "in", f"[0, {self.n})")
        y = self.labels[n]
        if type(step_y) is not int or step_y != y:
            self._fail(f"the label of row {n + 1} is y_n", t, step_y, "=", y)
        exact = exact_fraction(score)
        if exact is None:
            self._fail("the score is an exact number", t, score, "is", "an int or a Fraction")
        score = exact
        D, L, k = self.D, self.L, self.k
        ky = k * y
        W = self.W
        if t < self._int64_updates:               # int64 carrier: exact by _int64_carrier
            if type(W) is list:
                W = self._rows64[0].copy()
                W[:] = self.W                     # W₀ fits: |W₀| is part of the bound
            row64 = self._rows64[n]
            S = int(W.dot(row64))                 # wₜ·xₙ = S / (D·L)
            # (ky = ±1, as for η = 1: one numpy operation; a Python int times an array costs
            # more than the addition itself)
            W1 = W + row64 if ky == 1 else W - row64 if ky == -1 else W + ky * row64
        else:
            if type(W) is not list:
                W = W.tolist()
            row = self.rows[n]
            S = sum(map(mul, W, row))
            if ky == 1:
                W1 = list(map(add, W, row))
            elif ky == -1:
                W1 = list(map(sub, W, row))
            else:
                W1 = [wv + ky * xv for wv, xv in zip(W, row)]
        if score.numerator * D * L != S * score.denominator:
            self._fail("the score is w_t.x_n", t, score, "=", Fraction(S, D * L))
        self.checks += 5
        full = engine_after is not None or t % self.check_every == 0
        W1_list = (W1 if type(W1) is list else W1.tolist()) if full else None
        if engine_after is not None:
            self.checks += 1
            if _scaled(engine_after, D) != W1_list:
                self._fail("update rule: w_{t+1} = w_t + eta*y_n*x_n", t, "w_{t+1} (engine)", "=",
                           "w_t + eta*y_n*x_n",
                           f"engine {tuple(map(str, engine_after))} != "
                           f"{tuple(str(Fraction(v, D)) for v in W1_list)}")
        N = self.N
        q = self._norm_at(n)
        # ‖wₜ₊₁‖²: directly at checkpoints, else by the identity (tied to the direct value there)
        N1 = sum(map(mul, W1_list, W1_list)) if full else N + 2 * ky * S + k * k * q
        if self.rho is None:          # no w_f (ρ is set with it; w_f's Fractions wait for the report)
            kernel_steps.check_update(self.constants, t, y, S, q, N, N1, fail=self._reject)
        else:
            P = self.P
            mn = self._margin_at(n)
            P1 = P + k * mn
            if full:
                self.checks += 1
                kernel_steps.check_equal(kernel_steps.MARGIN_IDENTITY, t,
                                         sum(map(mul, self.F, W1_list)), P1, self.Df * D,
                                         fail=self._reject)
            self.checks += 4
            kernel_steps.check_update(self.constants, t, y, S, q, N, N1, mn, P, P1,
                                      fail=self._reject)
            self.P = P1
        self.W = W1
        self.N = N1
        self.t = t + 1

    # ------------------------------------------------------------------ end of run
    def finish(self, result: Any) -> MonitorReport:
        """Check the end of the run (T, the final w, halting, the bound) and report.

        A violation raised during the run (by a hook, and caught by the engine) is raised
        again.  The engine's result is read as builtin values only (an int T, a bool halted, a
        tuple of ints and Fractions of ints for w): what is checked is then what is shown."""
        if self._raised is not None:
            v = self._raised
            raise ProofViolation(v.inequality, v.step, v.lhs, v.relation, v.rhs, v.detail)
        self.check_pending()
        try:
            return self._end_checks(result)
        finally:        # (the end's own verdicts are not kept: another result may be asked)
            self._raised = None

    def _end_checks(self, result: Any) -> MonitorReport:
        """:meth:`finish` after the run's updates are checked."""
        T = result.updates
        self.checks += 2
        if type(T) is not int or T != self.t:
            self._fail("the number of updates T is the number of checked updates", "end", T, "=",
                       self.t)
        if not _same_options(result.options, self.options):
            self._fail("the run's options are the checked run's", "end", "options (engine)", "=",
                       "options (monitor)")
        budget = self.options.max_updates
        if self.t > budget:
            self._fail("T <= max_updates", "end", self.t, "<=", budget)
        stopped_by = getattr(result, "stopped_by", None)
        if stopped_by is not None and type(stopped_by) is not str or \
                stopped_by == "max-updates" and self.t != budget:
            self._fail("a run stopped by max_updates made max_updates updates", "end", self.t,
                       "=", budget, f"stopped_by is a {type(stopped_by).__name__}")
        halted = result.halted
        if type(halted) is not bool:
            self._fail("the run's halted flag is True or False", "end",
                       f"a {type(halted).__name__}", "is", "a bool")
            halted = True               # (collected: checked as the stronger claim)
        self.W = self.weights()
        if type(result.w) is not tuple or _scaled(result.w, self.D) != self.W:
            self._fail("the final w is the last w_{t+1}", "end", "w (engine)", "=", "w (monitor)")
        # the incremental sums, recomputed directly at the end
        kernel_steps.check_equal("||w_T||^2 recomputed = ||w_T||^2 kept", "end",
                                 sum(map(mul, self.W, self.W)), self.N, self.D * self.D,
                                 fail=self._reject)
        if self.wf is not None:
            kernel_steps.check_equal("w_f.w_T recomputed = w_f.w_T kept", "end",
                                     sum(map(mul, self.F, self.W)), self.P, self.Df * self.D,
                                     fail=self._reject)
        if halted:
            self.checks += 1
            if kernel_count_mistakes(self.kernel_rows, self.L, self.labels, self.W, self.zero):
                for n, (row, y) in enumerate(zip(self.rows, self.labels)):
                    if kernel_steps.is_mistake(sum(map(mul, self.W, row)), y, self.zero):
                        self._fail("halted: the final w makes no mistake", "end",
                                   f"row {n + 1} (1-based)", "is", "correct")
        gamma2 = bound = classical_bound = None
        bound_updates = None
        if self.wf is not None:
            self.checks += 1
            kernel_steps.check_final_count(self.constants, T, fail=self._reject)
            gamma2 = self.rho * self.rho / self.norm2  # type: ignore[operator]
            bound, bound_updates = self.bound, self.bound_updates
            classical_bound = self.R2 * self.norm2 / (self.rho * self.rho)  # type: ignore[operator]
        return MonitorReport(
            wf=self.wf, wf_kind=self.wf_kind, rho=self.rho, R2=self.R2, norm2=self.norm2,
            gamma2=gamma2, bound=bound, bound_updates=bound_updates, classical=self.classical,
            classical_bound=classical_bound, updates=T,
            checks=inequalities_checked(T, self.wf is not None, halted), violations=0,
            hypothesis=HYPOTHESIS_TEXT[self.zero],
        )
