"""Trusted base: the per-update inequalities of Novikoff's proof, decided over exact integers.

A checked run (``pla run --check``, ``pla audit``) is *decided* here: the monitor
(:mod:`verify.checks.monitor`) only keeps the books -- it maintains wₜ, ‖wₜ‖², w_f·wₜ as
integers over common denominators and hands them to these functions, which accept or raise
:class:`ProofViolation` naming the inequality, the update and both exact sides.  No sympy, no
float, no search, no import of the project outside the kernel.

The integer encoding (the monitor's): wₜ = W/D, xₙ = rowₙ/L, w_f = F/D_f, η·xₙ = k·rowₙ/D,
ρ = a/b, R² = c/e.  For update t (wₜ → wₜ₊₁, a mistake on row n with label y):
S = W·rowₙ, N = ‖W‖², q = ‖rowₙ‖², m = y F·rowₙ, P = F·W (then wₜ·xₙ = S/(DL),
‖wₜ‖² = N/D², w_f·wₜ = P/(D_f D)).  With c1 = kLaD_f and c3 = k²L²c:

- ``b (P' − P) >= c1``  ⟺  w_f·wₜ₊₁ ≥ w_f·wₜ + ηρ, and ``b (P' − P0) >= (t+1) c1``;
- ``e (N' − N) <= c3``  ⟺  ‖wₜ₊₁‖² ≤ ‖wₜ‖² + η²R², and ``e (N' − N0) <= (t+1) c3``;
- the cosine bound ``P'² (e N0 + (t+1) c3) b² >= (b P0 + (t+1) c1)² N' e`` (when both bases ≥ 0);
- ``t + 1 <= bound_updates``.

>>> c = StepConstants(k=1, e=1, c3=26, N0=0, classical=True, zero="mistake", D=1, L=1,
...                   b=1, c1=1, P0=0, bound_updates=286, Df=1)
>>> check_update(c, t=0, y=1, S=0, q=18, N=0, N1=18, m=3, P=0, P1=3)
>>> check_update(c, t=0, y=1, S=1, q=18, N=0, N1=20, m=3, P=0, P1=3)
Traceback (most recent call last):
verify.kernel.steps.ProofViolation: update t=0: the update is a mistake under the 'mistake' convention fails: y w_t.x = 1 is a mistake is false
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from math import floor, isqrt
from typing import Any, Callable, Iterable, Sequence

from verify.kernel.errors import KernelError
from verify.kernel.exact import exact_fraction, is_exact_int

__all__ = ["ProofViolation", "StepConstants", "is_mistake", "check_update", "check_updates",
           "check_equal", "NORM_IDENTITY", "MARGIN_IDENTITY",
           "check_final_count", "generalised_bound", "ZERO_CONVENTIONS"]

#: sign(0) conventions of a run (the same names as :data:`pla.ZERO_CONVENTIONS`).
ZERO_CONVENTIONS = ("mistake", "positive", "negative", "correct")


class ProofViolation(KernelError):
    """An inequality of the convergence proof that does not hold for a run.

    ``inequality`` names it, ``step`` is the update t (wₜ → wₜ₊₁; None for a fact checked before
    the run, ``"end"`` at the end), ``lhs relation rhs`` is the statement that was expected and
    failed, both sides exact.

    >>> str(ProofViolation("w_f.w_{t+1} >= w_f.w_t + eta*rho", 3, Fraction(5), ">=", Fraction(6)))
    'update t=3: w_f.w_{t+1} >= w_f.w_t + eta*rho fails: 5 >= 6 is false'
    """

    def __init__(self, inequality: str, step: Any, lhs: Any, relation: str, rhs: Any,
                 detail: str = "") -> None:
        self.inequality = inequality
        self.step = step
        self.lhs = lhs
        self.relation = relation
        self.rhs = rhs
        self.detail = detail
        where = "before the run" if step is None else f"update t={step}"
        if step == "end":
            where = "end of run"
        text = f"{where}: {inequality} fails: {lhs} {relation} {rhs} is false"
        super().__init__(text + (f" ({detail})" if detail else ""))


#: The fields of :class:`StepConstants` that are None without a reference separator w_f.
_WITH_WF = frozenset({"b", "c1", "P0", "bound_updates", "Df"})


@dataclass(frozen=True)
class StepConstants:
    """The integers of one run's per-update checks (see the module doc for the encoding).

    ``classical`` chooses the classical forms (w₀ = 0; then N0 = P0 = 0) or the generalised ones.
    ``bound`` is the exact bound on T (default ``bound_updates``), ``bound_updates`` its floor.
    ``b``, ``c1``, ``P0``, ``bound_updates`` and ``Df`` are None without a reference separator
    w_f (then only the w_f-free inequalities are checked).  ``D``, ``L``, ``Df`` only turn
    integers back into the exact values an error message shows.
    """

    k: int
    e: int
    c3: int
    N0: int
    classical: bool
    zero: str
    D: int
    L: int
    b: int | None = None
    c1: int | None = None
    P0: int | None = None
    bound_updates: int | None = None
    Df: int | None = None
    bound: Fraction | None = None

    def __post_init__(self) -> None:
        for name in ("k", "e", "c3", "N0", "D", "L", "b", "c1", "P0", "bound_updates", "Df"):
            value = getattr(self, name)   # exactly int: no float (nan), bool or lying subclass
            if not is_exact_int(value) and not (value is None and name in _WITH_WF):
                raise KernelError(f"StepConstants.{name} must be an int, not {value!r}")
        for name in ("k", "e", "D", "L"):
            if getattr(self, name) <= 0:
                raise KernelError(f"StepConstants.{name} must be a positive int, "
                                  f"not {getattr(self, name)!r}")
        if self.bound is not None and not (type(self.bound) is Fraction and
                                           exact_fraction(self.bound) is self.bound):
            raise KernelError(f"StepConstants.bound must be a Fraction, not {self.bound!r}")
        if self.zero not in ZERO_CONVENTIONS:
            raise KernelError(f"unknown zero convention {self.zero!r}")
        with_wf = (self.b, self.c1, self.P0, self.bound_updates, self.Df)
        if any(v is None for v in with_wf) and any(v is not None for v in with_wf):
            raise KernelError("StepConstants: b, c1, P0, bound_updates, Df go together")
        if self.c3 < 0 or self.N0 < 0:
            raise KernelError("StepConstants: c3 and N0 must be >= 0 (R^2 >= 0, ||w_0||^2 >= 0)")
        if self.b is not None and (self.b <= 0 or self.Df <= 0):  # type: ignore[operator]
            raise KernelError("StepConstants: b and Df must be positive")
        if self.c1 is not None and self.c1 <= 0:
            raise KernelError("StepConstants: c1 <= 0 (rho <= 0: the proof needs rho > 0)")
        if self.bound_updates is not None:
            if self.bound is None:
                object.__setattr__(self, "bound", Fraction(self.bound_updates))
            elif floor(self.bound) != self.bound_updates:
                raise KernelError("StepConstants: bound_updates must be floor(bound)")


#: ``fail(violation)``: what to do with a violation instead of raising it.
Reject = Callable[[ProofViolation], None]


def _reject(fail: Reject | None, violation: ProofViolation) -> None:
    if fail is None:
        raise violation
    fail(violation)


def is_mistake(S: int, y: int, zero: str) -> bool:
    """The mistake rule on the sign of S, a positive multiple of w·x, for label y = ±1.

    >>> [is_mistake(0, y, z) for z in ZERO_CONVENTIONS for y in (1, -1)]
    [True, True, False, True, True, False, False, False]
    >>> is_mistake(-2, 1, "correct"), is_mistake(2, 1, "mistake")
    (True, False)
    """
    if S != 0:
        return (S > 0) != (y > 0)
    if zero == "mistake":
        return True
    if zero == "positive":
        return y < 0
    if zero == "negative":
        return y > 0
    return False


def _A(c: StepConstants, t: int) -> Fraction:
    """A_t = w_f·w₀ + tηρ, exactly (for messages and the generalised bound)."""
    return Fraction(c.b * c.P0 + t * c.c1, c.b * c.Df * c.D)  # type: ignore[operator]


def _B(c: StepConstants, t: int) -> Fraction:
    """B_t = ‖w₀‖² + tη²R², exactly."""
    return Fraction(c.e * c.N0 + t * c.c3, c.e * c.D * c.D)


#: The names of the two identities (:func:`check_update`; the monitor's checkpoints too).
NORM_IDENTITY = "identity ||w_{t+1}||^2 = ||w_t||^2 + 2*eta*y_n*w_t.x_n + eta^2*||x_n||^2"
MARGIN_IDENTITY = "w_f.w_{t+1} = w_f.w_t + eta*y_n*w_f.x_n"


def check_update(c: StepConstants, t: int, y: int, S: int, q: int, N: int, N1: int,
                 m: int | None = None, P: int | None = None, P1: int | None = None,
                 fail: Reject | None = None) -> None:
    """Decide every inequality of update t (wₜ → wₜ₊₁ on a row with label y).
    Raises :class:`ProofViolation` on the first that fails -- or, with ``fail``, hands each
    violation to ``fail`` and goes on with the next check (tests check each one on its own).

    ``S, q, N, N1`` are W·row, ‖row‖², ‖W‖², ‖W'‖²; ``m, P, P1`` are y F·row, F·W, F·W'
    (needed exactly when ``c`` has a w_f).  The identities N' = N + 2kyS + k²q and
    P' = P + k m are checked too, so the bookkeeping's numbers are tied to each other.
    """
    if c.b is not None and (m is None or P is None or P1 is None):
        raise KernelError("check_update: a run with w_f needs m, P and P1")
    k = c.k
    expected = N + 2 * k * y * S + k * k * q
    if N1 != expected:
        _reject(fail, ProofViolation(
            NORM_IDENTITY, t, Fraction(N1, c.D * c.D), "=", Fraction(expected, c.D * c.D)))
    if c.b is not None and P1 != P + k * m:  # type: ignore[operator]
        U = c.Df * c.D  # type: ignore[operator]
        _reject(fail, ProofViolation(MARGIN_IDENTITY, t, Fraction(P1, U), "=",  # type: ignore
                                     Fraction(P + k * m, U)))  # type: ignore[operator]
    _check_steps(c, t, ((y, S, N, N1, P, P1),), fail)


def check_updates(c: StepConstants, t: int, ys: Sequence[int], Ss: Sequence[int],
                  qs: Sequence[int], N: int, ms: Sequence[int] | None = None,
                  P: int | None = None, fail: Reject | None = None) -> tuple[int, int | None]:
    """Decide every inequality of the consecutive updates t, t+1, ... (one per entry of
    ``ys``, ``Ss``, ``qs`` and, with a w_f, ``ms``: y, S, q, m as in :func:`check_update`)
    whose ‖W'‖² and F·W' are the ones the identities give from ``N`` and ``P`` before update t;
    returns (N, P) after the last update.  The caller ties them to direct values with
    :func:`check_equal` (the monitor does at its checkpoints and at the end): the identities
    are checked there, the inequalities here, exactly as :func:`check_update` checks each.

    >>> c = StepConstants(k=1, e=1, c3=26, N0=0, classical=True, zero="mistake", D=1, L=1,
    ...                   b=1, c1=1, P0=0, bound_updates=286, Df=1)
    >>> check_updates(c, 0, ys=[1, -1], Ss=[0, 7], qs=[19, 3], N=0, ms=[3, 1], P=0)
    (8, 4)
    >>> check_updates(c, 0, ys=[1, -1], Ss=[0, -7], qs=[19, 3], N=0, ms=[3, 1], P=0)
    Traceback (most recent call last):
    verify.kernel.steps.ProofViolation: update t=1: the update is a mistake under the 'mistake' convention fails: y w_t.x = 7 is a mistake is false
    """
    if (ms is None) != (c.b is None) or (P is None) != (c.b is None):
        raise KernelError("check_updates: a run with w_f needs ms and P, one without neither")
    if len(ys) != len(Ss) or len(ys) != len(qs) or (ms is not None and len(ms) != len(ys)):
        raise KernelError("check_updates: one y, S, q (and m) per update")
    k = c.k
    kk = k * k
    updates = []
    for y, S, q, m in zip(ys, Ss, qs, repeat(None) if ms is None else ms):
        N1 = N + 2 * k * y * S + kk * q
        P1 = None if m is None else P + k * m
        updates.append((y, S, N, N1, P, P1))
        N, P = N1, P1
    _check_steps(c, t, updates, fail)
    return N, P


def _check_steps(c: StepConstants, t: int, updates: Iterable[tuple[int, int, int, int, Any, Any]],
                 fail: Reject | None) -> None:
    """The inequalities of updates t, t+1, ..., each given as (y, S, N, N1, P, P1) (P, P1
    None without w_f): :func:`check_update` without its identities."""
    D, L, k, zero = c.D, c.L, c.k, c.zero
    DD = D * D
    e, c3, N0 = c.e, c.c3, c.N0
    b, c1, P0, Df, bound_updates = c.b, c.c1, c.P0, c.Df, c.bound_updates
    if b is not None:               # (the loop's constant products, once)
        U, bP0, bb, eN0 = Df * D, b * P0, b * b, e * N0  # type: ignore[operator]
    for y, S, N, N1, P, P1 in updates:
        if not is_mistake(S, y, zero):
            _reject(fail, ProofViolation(
                f"the update is a mistake under the {zero!r} convention", t,
                f"y w_t.x = {Fraction(y * S, D * L)}", "is", "a mistake"))
        if y * S > 0:
            _reject(fail, ProofViolation("mistake hypothesis: y_n w_t.x_n <= 0", t,
                                         Fraction(y * S, D * L), "<=", 0))
        if e * (N1 - N) > c3:
            _reject(fail, ProofViolation("||w_{t+1}||^2 <= ||w_t||^2 + eta^2*R^2", t,
                                         Fraction(N1, DD), "<=", Fraction(e * N + c3, e * DD)))
        t1 = t + 1
        if e * (N1 - N0) > t1 * c3:
            name = ("||w_{t+1}||^2 <= (t+1)*eta^2*R^2" if c.classical else
                    "||w_{t+1}||^2 <= ||w_0||^2 + (t+1)*eta^2*R^2")
            _reject(fail, ProofViolation(name, t, Fraction(N1, DD), "<=", _B(c, t1)))
        if b is None:
            t = t1
            continue
        if b * (P1 - P) < c1:  # type: ignore[operator]
            _reject(fail, ProofViolation("w_f.w_{t+1} >= w_f.w_t + eta*rho", t, Fraction(P1, U),
                                         ">=", Fraction(b * P + c1, b * U)))  # type: ignore
        if b * (P1 - P0) < t1 * c1:  # type: ignore[operator]
            name = ("w_f.w_{t+1} >= (t+1)*eta*rho" if c.classical else
                    "w_f.w_{t+1} >= w_f.w_0 + (t+1)*eta*rho")
            _reject(fail, ProofViolation(name, t, Fraction(P1, U), ">=", _A(c, t1)))
        # cosine bound, squared: (w_f·w)² B ≥ A² ‖w‖² where A = w_f·w₀ + tηρ ≥ 0
        A_num = bP0 + t1 * c1  # type: ignore[operator]
        if A_num >= 0 and P1 >= 0 and \
                P1 * P1 * (eN0 + t1 * c3) * bb < A_num * A_num * N1 * e:
            if c.classical:
                R2 = Fraction(c3, k * k * L * L * e)
                rho = Fraction(c1, k * L * Df * b)  # type: ignore[operator]
                _reject(fail, ProofViolation(
                    "cosine bound (w_f.w_{t+1})^2 * R^2 >= (t+1)*rho^2*||w_{t+1}||^2", t,
                    Fraction(P1, U) ** 2 * R2, ">=", t1 * rho ** 2 * Fraction(N1, DD)))
            _reject(fail, ProofViolation(
                "generalised cosine bound (w_f.w_{t+1})^2 * B_{t+1} >= A_{t+1}^2 * "
                "||w_{t+1}||^2", t, Fraction(P1, U) ** 2 * _B(c, t1), ">=",
                _A(c, t1) ** 2 * Fraction(N1, DD)))
        if t1 > bound_updates:  # type: ignore[operator]
            name = ("t+1 <= R^2*||w_f||^2/rho^2" if c.classical else
                    "t+1 <= generalised bound (largest T with A_T < 0 or A_T^2 <= ||w_f||^2 B_T)")
            _reject(fail, ProofViolation(name, t, t1, "<=", c.bound))
        t = t1


def check_equal(name: str, step: Any, value: int, expected: int, unit: int = 1,
                fail: Reject | None = None) -> None:
    """Accept ``value == expected`` (integers; both shown over ``unit`` when they differ).

    >>> check_equal("||w_t||^2 recomputed", 5, 4, 4, 2)
    >>> check_equal("||w_t||^2 recomputed", 5, 3, 4, 2)
    Traceback (most recent call last):
    verify.kernel.steps.ProofViolation: update t=5: ||w_t||^2 recomputed fails: 3/2 = 2 is false
    """
    if value != expected:
        _reject(fail, ProofViolation(name, step, Fraction(value, unit), "=",
                                     Fraction(expected, unit)))


def check_final_count(c: StepConstants, T: int, fail: Reject | None = None) -> None:
    """Accept T ≤ the bound (``bound_updates``) at the end of a run with w_f.

    >>> c = StepConstants(k=1, e=1, c3=1, N0=0, classical=True, zero="mistake", D=1, L=1,
    ...                   b=1, c1=1, P0=0, bound_updates=3, Df=1)
    >>> check_final_count(c, 3)
    >>> check_final_count(c, 4)
    Traceback (most recent call last):
    verify.kernel.steps.ProofViolation: end of run: T <= R^2*||w_f||^2/rho^2 fails: 4 <= 3 is false
    """
    if c.bound_updates is None:
        raise KernelError("check_final_count needs a run with w_f")
    if not is_exact_int(T):         # (an int subclass, a bool or a float decides nothing here)
        raise KernelError(f"check_final_count: T must be an int, not {type(T).__name__}")
    if T > c.bound_updates:
        name = "T <= R^2*||w_f||^2/rho^2" if c.classical else "T <= generalised bound"
        _reject(fail, ProofViolation(name, "end", T, "<=", c.bound))


def generalised_bound(wf_w0: Fraction, w0_norm2: Fraction, eta: Fraction, rho: Fraction,
                      R2: Fraction, wf_norm2: Fraction) -> int:
    """The largest integer T ≥ 0 with A_T < 0 or A_T² ≤ ‖w_f‖² B_T, exactly, where
    A_T = w_f·w₀ + Tηρ and B_T = ‖w₀‖² + Tη²R² (ρ, η > 0).

    The allowed set is an interval [0, t⁺] (A_T² − ‖w_f‖²B_T is a convex quadratic that is ≤ 0
    wherever A_T = 0 and at T = 0 by Cauchy–Schwarz); a float-free estimate of t⁺ is fixed by
    exact doubling and bisection.

    >>> generalised_bound(Fraction(0), Fraction(0), Fraction(1), Fraction(1), Fraction(26),
    ...                   Fraction(11))
    286
    """
    if rho <= 0 or eta <= 0:
        raise KernelError("generalised_bound needs rho > 0 and eta > 0")

    def allowed(T: int) -> bool:
        A = wf_w0 + T * eta * rho
        return A < 0 or A * A <= wf_norm2 * (w0_norm2 + T * eta * eta * R2)

    qa = eta * eta * rho * rho
    qb = 2 * eta * rho * wf_w0 - wf_norm2 * eta * eta * R2
    qc = wf_w0 * wf_w0 - wf_norm2 * w0_norm2
    disc = qb * qb - 4 * qa * qc
    estimate = int((-qb + Fraction(isqrt(floor(disc)) if disc > 0 else 0)) / (2 * qa)) + 2
    lo, hi = 0, max(estimate, 1)
    while allowed(hi):
        hi *= 2
    while hi - lo > 1:          # invariant: allowed(lo), not allowed(hi)
        mid = (lo + hi) // 2
        if allowed(mid):
            lo = mid
        else:
            hi = mid
    return lo
