"""Untrusted search for inequality certificates (outside the kernel; the kernel checks).

Given hypotheses ``h_k >= 0`` (or ``> 0``), equalities ``e_j = 0`` and a target polynomial
``g``, find ``g = sum c_i * T_i + sum m_j * e_j`` where every ``T_i`` is a product of at most two
hypotheses, a square of a monomial or of a sum/difference of two monomials, or a hypothesis
times such a square, and every ``c_i >= 0`` is rational.  A float LP (scipy's HiGHS) proposes
the support; the coefficients are then recomputed exactly (rational Gauss-Jordan) and only an
exact solution is returned.  Nothing here decides truth: :func:`verify.kernel.check_theorem`
does.

>>> import sympy
>>> a, b = sympy.symbols("a b", real=True)
>>> found = find_certificate(2*a*b, [("ha", a, False), ("hb", b, False)], [], {})
>>> [(str(c), factors) for c, factors in found.terms]
[('2', ('ha', 'hb'))]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from typing import Any

__all__ = ["FoundCertificate", "SearchLimitReached", "find_certificate", "reduce_rewrites",
           "MAX_COLUMNS", "MAX_SECONDS"]

MAX_COLUMNS = 4000   # candidate terms of one search; counted *before* any is built
MAX_SECONDS = 20.0   # CPU-time budget of one search (the same verdict on a loaded machine)


class SearchLimitReached(Exception):
    """The search would exceed :data:`MAX_COLUMNS` candidate terms or :data:`MAX_SECONDS`."""


@dataclass(frozen=True)
class FoundCertificate:
    """A proposal: ``terms`` as ``(coeff, factors)`` with factors hypothesis names or
    ``("square", expr)``; ``eq_terms`` as ``(multiplier, name)``."""

    terms: tuple
    eq_terms: tuple


def reduce_rewrites(expr: Any, rewrites: dict) -> Any:
    """Expand and reduce ``target**k`` by rules ``{target: (k, rhs)}`` (the kernel's rewriting).

    >>> import sympy
    >>> s, x = sympy.symbols("s x")
    >>> reduce_rewrites(s**3 + 1, {s: (2, x)})
    s*x + 1
    """
    import sympy as sp

    e = sp.expand(expr)
    if not rewrites or not e.has(*rewrites):
        return e
    for _ in range(32):
        changed = False
        out = []
        for term in sp.Add.make_args(e):
            new = term
            powers = term.as_powers_dict()  # a monomial after expand: {base: exponent}
            for target, (k, rhs) in rewrites.items():
                exponent = sp.S(powers.get(target, 0))
                if exponent.is_Integer and exponent >= k:
                    new = new / target ** k * rhs
                    changed = True
                    break
            out.append(new)
        e = sp.expand(sp.Add(*out))
        if not changed:
            return e
    return e


def _basis(gens: list, degree: int) -> list:
    import sympy as sp

    monomials = [sp.S(1)] + list(gens)
    if degree >= 2:
        monomials += [a * b for a, b in combinations_with_replacement(gens, 2)]
    return monomials


def find_certificate(target: Any, hyps: list, equalities: list, rewrites: dict,
                     strict: bool = False, seconds: float = MAX_SECONDS,
                     max_columns: int = MAX_COLUMNS) -> FoundCertificate | None:
    """Search ``target = sum c_i T_i + sum m_j e_j`` (see the module docstring).

    ``hyps``: ``(name, expr, is_strict)`` with ``expr >= 0`` (``> 0`` if strict);
    ``equalities``: ``(name, expr)`` with ``expr = 0``; ``rewrites``: ``{target: (k, rhs)}``.
    With ``strict`` a term made only of strict hypotheses (or the constant 1) must get a
    positive coefficient.  Returns None when nothing is found; raises
    :class:`SearchLimitReached` when the candidate set would exceed ``max_columns`` (counted
    before anything is built) or the search exceeds ``seconds``.
    """
    import time

    import sympy as sp

    deadline = time.process_time() + seconds  # this process's CPU time, not the wall clock

    def tick() -> None:
        if time.process_time() > deadline:
            raise SearchLimitReached(f"the search ran out of its {seconds:g} s CPU budget")

    target = reduce_rewrites(target, rewrites)
    gens = sorted(set().union(target.free_symbols, *(sp.S(h[1]).free_symbols for h in hyps),
                              *(sp.S(e[1]).free_symbols for e in equalities),
                              *(sp.S(r[1]).free_symbols | {t} for t, r in rewrites.items())),
                  key=sp.default_sort_key)
    if not gens:
        gens = [sp.Symbol("_unused")]
    degree = max(1, sp.Poly(target, *gens).total_degree()) if target != 0 else 1
    half = max(1, (degree + 1) // 2)
    n_hyps, n_basis = len(hyps), len(_basis(gens, half)) if len(gens) <= 60 else 10 ** 6
    n_small = len(gens) + 1
    planned = (1 + n_hyps + n_hyps * (n_hyps + 1) // 2 + n_basis * n_basis
               + n_hyps * n_small * n_small + len(equalities) * n_basis)
    products = planned <= max_columns
    if not products:  # too many: only linear combinations of the hypotheses and squares
        planned = 1 + n_hyps + n_basis * n_basis + len(equalities) * n_basis
    if planned > max_columns:
        raise SearchLimitReached(f"{planned} candidate terms (limit {max_columns}): "
                                 f"{n_hyps} assumptions over {len(gens)} variables")
    columns: list[tuple[Any, tuple, bool, bool]] = []  # (expr, factors, nonneg, strict)
    columns.append((sp.S(1), (), True, True))
    for h in hyps:
        columns.append((h[1], (h[0],), True, h[2]))
    for a, b in combinations_with_replacement(hyps if products else (), 2):
        columns.append((a[1] * b[1], (a[0], b[0]), True, a[2] and b[2]))
    basis = _basis(gens, half)
    squares = [m for m in basis if m != 1]
    squares += [a + b for a, b in combinations(basis, 2)] + [a - b for a, b in
                                                            combinations(basis, 2)]
    for q in squares:
        columns.append((q ** 2, (("square", q),), True, False))
    small = _basis(gens, 1)
    small_squares = [m for m in small if m != 1] + [a + b for a, b in combinations(small, 2)] + \
        [a - b for a, b in combinations(small, 2)]
    for h in hyps if products else ():
        for q in small_squares:
            columns.append((h[1] * q ** 2, (h[0], ("square", q)), True, False))
    for name, e in equalities:  # multipliers up to the degree the target needs (at most 2)
        e_degree = sp.Poly(e, *gens).total_degree() if e != 0 else 0
        for m in _basis(gens, min(2, max(1, degree - e_degree))):
            columns.append((m * e, (("eq", name, m),), False, False))
    polys = []
    for c in columns:
        tick()
        polys.append(sp.Poly(reduce_rewrites(c[0], rewrites), *gens).as_dict())
    goal = sp.Poly(target, *gens).as_dict()
    monomials = sorted(set(goal).union(*polys))
    index = {m: i for i, m in enumerate(monomials)}
    tick()
    solution = _solve_lp(columns, polys, goal, index, strict)
    if solution is None:
        return None
    terms, eq_terms = [], []
    for (_expr, factors, nonneg, _strict), c in zip(columns, solution):
        if c == 0:
            continue
        if not nonneg:
            _, name, m = factors[0]
            eq_terms.append((sp.Rational(c.numerator, c.denominator) * m, name))
            continue
        kernel_factors = tuple(f if isinstance(f, str) else ("square", f[1]) for f in factors)
        terms.append((sp.Rational(c.numerator, c.denominator), kernel_factors))
    return FoundCertificate(tuple(terms), tuple(eq_terms))


def _solve_lp(columns: list, polys: list, goal: dict, index: dict,
              strict: bool) -> list[Fraction] | None:
    import numpy as np
    from scipy.optimize import linprog

    n, m = len(columns), len(index)
    A = np.zeros((m, n))
    for j, poly in enumerate(polys):
        for mono, coeff in poly.items():
            A[index[mono], j] = float(coeff)
    b = np.zeros(m)
    for mono, coeff in goal.items():
        b[index[mono]] = float(coeff)
    bounds = [(0, 1e4) if c[2] else (-1e4, 1e4) for c in columns]
    cost = np.array([1.0 if c[2] else 0.0 for c in columns])
    if strict:
        cost -= np.array([100.0 if c[3] else 0.0 for c in columns])
    try:
        result = linprog(cost, A_eq=A, b_eq=b, bounds=bounds, method="highs")
    except ValueError:
        return None
    if result.status != 0:
        return None
    x = result.x
    support = [j for j in range(n) if abs(x[j]) > 1e-9]
    exact_polys = [polys[j] for j in range(n)]
    for candidate in (_exact_on_support(exact_polys, goal, index, support),
                      [Fraction(float(v)).limit_denominator(10 ** 6) if abs(v) > 1e-9
                       else Fraction(0) for v in x]):
        if candidate is None:
            continue
        if any(v < 0 for v, c in zip(candidate, columns) if c[2]):
            continue
        if strict and not any(v > 0 for v, c in zip(candidate, columns) if c[3]):
            continue
        if _matches(candidate, exact_polys, goal):
            return candidate
    return None


def _matches(solution: list, polys: list, goal: dict) -> bool:
    total: dict = {}
    for c, poly in zip(solution, polys):
        if c:
            for mono, coeff in poly.items():
                total[mono] = total.get(mono, 0) + c * Fraction(int(coeff.p), int(coeff.q))
    wanted = {mono: Fraction(int(c.p), int(c.q)) for mono, c in goal.items()}
    keys = set(total) | set(wanted)
    return all(total.get(k, 0) == wanted.get(k, 0) for k in keys)


def _exact_on_support(polys: list, goal: dict, index: dict, support: list) -> list | None:
    """Exact rational solution of the linear system restricted to the LP's support."""
    import sympy as sp

    if not support:
        return None if goal else [Fraction(0)] * len(polys)
    rows = sorted(index, key=index.get)
    A = sp.Matrix([[polys[j].get(mono, 0) for j in support] for mono in rows])
    b = sp.Matrix([goal.get(mono, 0) for mono in rows])
    try:
        sol, params = A.gauss_jordan_solve(b)
    except ValueError:
        return None
    if params.shape[0]:
        sol = sol.subs({p: 0 for p in params})
    out = [Fraction(0)] * len(polys)
    for j, value in zip(support, sol):
        value = sp.nsimplify(value) if not value.is_Rational else value
        if not value.is_Rational:
            return None
        out[j] = Fraction(int(value.p), int(value.q))
    return out
