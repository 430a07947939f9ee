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
    algebra = _Polynomials(gens, rewrites)
    goal = algebra.of(target)
    degree = max(1, max(sum(m) for m in goal)) if goal else 1
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
    # every column as (factors, nonneg, strict) and its polynomial (a dict, rewritten), built
    # by multiplying the dicts of its parts: no sympy expansion per column
    columns: list[tuple[tuple, bool, bool]] = [((), True, True)]
    polys: list[dict] = [algebra.one]
    hyp_polys = [algebra.of(h[1]) for h in hyps]
    for h, poly in zip(hyps, hyp_polys):
        columns.append(((h[0],), True, h[2]))
        polys.append(poly)
    pairs = combinations_with_replacement(range(len(hyps)) if products else (), 2)
    for i, j in pairs:
        tick()
        columns.append(((hyps[i][0], hyps[j][0]), True, hyps[i][2] and hyps[j][2]))
        polys.append(algebra.product(hyp_polys[i], hyp_polys[j]))
    basis = algebra.basis(half)
    for q, poly in _square_roots(basis):
        tick()
        columns.append(((("square", q),), True, False))
        polys.append(algebra.product(poly, poly))
    small = list(_square_roots(algebra.basis(1)))
    for h, h_poly in zip(hyps if products else (), hyp_polys):
        for q, poly in small:
            tick()
            columns.append(((h[0], ("square", q)), True, False))
            polys.append(algebra.product(h_poly, algebra.product(poly, poly)))
    for name, e in equalities:  # multipliers up to the degree the target needs (at most 2)
        e_poly = algebra.of(e)
        e_degree = max((sum(m) for m in e_poly), default=0)
        for m, m_poly in algebra.basis(min(2, max(1, degree - e_degree))):
            tick()
            columns.append(((("eq", name, m),), False, False))
            polys.append(algebra.product(m_poly, e_poly))
    monomials = sorted(set(goal).union(*polys))
    index = {m: i for i, m in enumerate(monomials)}
    tick()
    solution = _solve_lp(columns, polys, goal, index, strict)
    if solution is None:
        return None
    terms, eq_terms = [], []
    for (factors, nonneg, _strict), c in zip(columns, solution):
        if c == 0:
            continue
        if not nonneg:
            _, name, m = factors[0]
            eq_terms.append((sp.Rational(c.numerator, c.denominator) * m, name))
            continue
        kernel_factors = tuple(f if isinstance(f, str) else ("square", f[1]) for f in factors)
        terms.append((sp.Rational(c.numerator, c.denominator), kernel_factors))
    return FoundCertificate(tuple(terms), tuple(eq_terms))


def _square_roots(basis: list) -> Any:
    """``(q, q as a dict)`` for the squared terms ``q**2`` of a search: every monomial of the
    basis but 1, then the sums, then the differences of two of them."""
    for q, poly in basis:
        if q != 1:
            yield q, poly
    for sign in (1, -1):
        for (a, pa), (b, pb) in combinations(basis, 2):
            poly = dict(pa)
            for mono, c in pb.items():
                poly[mono] = poly.get(mono, 0) + sign * c
            yield (a + b if sign == 1 else a - b), {m: c for m, c in poly.items() if c}


class _Polynomials:
    """Polynomials over ``gens`` as dicts ``{exponents: int or Fraction}`` (an int when the
    coefficient is one: int products are the fast path), reduced by the rules
    ``{target: (k, rhs)}`` as :func:`reduce_rewrites` reduces them (``target**k`` becomes
    ``rhs`` while an exponent allows it); products multiply dicts (no sympy expansion).

    >>> import sympy
    >>> s, x = sympy.symbols("s x")
    >>> algebra = _Polynomials([s, x], {s: (2, x)})
    >>> algebra.product(algebra.of(s), algebra.of(s + 1)) == algebra.of(s + x)
    True
    """

    def __init__(self, gens: list, rewrites: dict) -> None:
        import sympy as sp

        self.sp, self.gens = sp, list(gens)
        self.zero = (0,) * len(self.gens)
        self.one = {self.zero: 1}
        position = {g: i for i, g in enumerate(self.gens)}
        self.rules = []  # (position of the target, k, rhs as a dict), in the order given
        for target, (k, rhs) in rewrites.items():
            self.rules.append((position[target], k, self._dict(rhs)))

    def _dict(self, e: Any) -> dict:
        sp = self.sp
        poly = sp.Poly(sp.S(e), *self.gens).as_dict()
        return {m: int(c.p) if c.q == 1 else Fraction(int(c.p), int(c.q))
                for m, c in poly.items() if c != 0}

    def of(self, e: Any) -> dict:
        """The reduced dict of a sympy expression."""
        return self.reduce(self._dict(e))

    def product(self, p: dict, q: dict) -> dict:
        """The reduced product of two reduced dicts."""
        out: dict = {}
        for a, ca in p.items():
            for b, cb in q.items():
                m = tuple(x + y for x, y in zip(a, b))
                out[m] = out.get(m, 0) + ca * cb
        return self.reduce({m: c for m, c in out.items() if c})

    def reduce(self, p: dict) -> dict:
        if not self.rules:
            return p
        for _ in range(32):
            out: dict = {}
            changed = False
            for mono, c in p.items():
                for i, k, rhs in self.rules:
                    if mono[i] >= k:
                        rest = mono[:i] + (mono[i] - k,) + mono[i + 1:]
                        for m, d in rhs.items():
                            key = tuple(x + y for x, y in zip(rest, m))
                            out[key] = out.get(key, 0) + c * d
                        changed = True
                        break
                else:
                    out[mono] = out.get(mono, 0) + c
            p = {m: c for m, c in out.items() if c}
            if not changed:
                return p
        return p

    def basis(self, degree: int) -> list:
        """``(monomial, its dict)`` of :func:`_basis` (1, the gens, their products of two)."""
        sp, n = self.sp, len(self.gens)
        units = [tuple(int(i == j) for j in range(n)) for i in range(n)]
        out = [(sp.S(1), self.one)] + [(g, self.reduce({u: 1}))
                                        for g, u in zip(self.gens, units)]
        if degree >= 2:
            for i, j in combinations_with_replacement(range(n), 2):
                mono = tuple(a + b for a, b in zip(units[i], units[j]))
                out.append((self.gens[i] * self.gens[j], self.reduce({mono: 1})))
        return out


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
    bounds = [(0, 1e4) if c[1] else (-1e4, 1e4) for c in columns]
    cost = np.array([1.0 if c[1] else 0.0 for c in columns])
    if strict:
        cost -= np.array([100.0 if c[2] else 0.0 for c in columns])
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
        if any(v < 0 for v, c in zip(candidate, columns) if c[1]):
            continue
        if strict and not any(v > 0 for v, c in zip(candidate, columns) if c[2]):
            continue
        if _matches(candidate, exact_polys, goal):
            return candidate
    return None


def _matches(solution: list, polys: list, goal: dict) -> bool:
    total: dict = {}
    for c, poly in zip(solution, polys):
        if c:
            for mono, coeff in poly.items():
                total[mono] = total.get(mono, 0) + c * coeff
    keys = set(total) | set(goal)
    return all(total.get(k, 0) == goal.get(k, 0) for k in keys)


def _exact_on_support(polys: list, goal: dict, index: dict, support: list) -> list | None:
    """Exact rational solution of the linear system restricted to the LP's support."""
    import sympy as sp

    if not support:
        return None if goal else [Fraction(0)] * len(polys)
    rows = sorted(index, key=index.get)

    def rational(c: Any) -> Any:  # an int or a Fraction
        return sp.Rational(c.numerator, c.denominator)

    A = sp.Matrix([[rational(polys[j].get(mono, 0)) for j in support] for mono in rows])
    b = sp.Matrix([rational(goal.get(mono, 0)) for mono in rows])
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
