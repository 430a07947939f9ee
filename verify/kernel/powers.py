"""Trusted base: symbolic powers ``x**n`` of a claim and the induction theorem that proves them.

Imports only the kernel's own modules and sympy (lazily).

A claim may raise an expression to a symbolic exponent ``n + c`` (``n`` a name declared
``n integer`` with a lower bound ``n >= m`` among the assumptions, ``c`` an int literal,
``m + c >= 0``).  The elaborator makes each distinct ``base**(n + c)`` a :class:`Power`: a fresh
symbol ``_powN`` the goals use.  The kernel writes the induction theorem itself
(:func:`power_theorem`), with fresh names ``T``, ``t`` and one sequence ``P`` per power:

    for every natural T and sequences P with P[0] = base**(m + c) and P[t+1] = base*P[t]
    (0 <= t < T), the assumptions that do not mention n imply the goals with n := T + m and
    each power := its P[T].

The sequences ``P[t] = base**(m + c + t)`` satisfy these hypotheses, and every integer
``n >= m`` is ``T + m`` for a natural ``T``, so the theorem implies the claim: dropping the
assumptions that mention ``n`` only makes the theorem stronger.  A proof counts only when its
main theorem is, by canonical text, this one (:func:`verify.kernel.check_claim`), checked by
:func:`verify.kernel.derivations.check_theorem` (base case and step).

>>> import sympy
>>> from verify.kernel.claim_statements import ClaimStatement, Goal
>>> from verify.kernel.terms import Fact
>>> x, n, p = sympy.symbols("x n _pow1", real=True)
>>> st = ClaimStatement(integers=(n,), assumptions=(Fact(n, ">=", 0), Fact(x, ">=", -1)),
...     goals=(Goal(p, ">=", 1 + n*x),), powers=(Power(p, x + 1, n, 0, "(x + 1)**n"),))
>>> from verify.kernel.statements import statement_text
>>> print(statement_text(power_theorem(st)))
theorem power
naturals: T
hypothesis h2: x >= -1
hypothesis start1: P[0] = 1
for every t with 0 <= t < T:
  hypothesis next1: P[t + 1] = (x + 1)*P[t]
conclusion 1: P[T] >= T*x + 1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from verify.kernel.terms import Derivation, DerivationError, Fact, Family, Hyp, Induction, \
    Theorem, _sympy

__all__ = ["Power", "power_theorem", "power_lower_bound"]


@dataclass(frozen=True)
class Power:
    """``symbol`` stands for ``base**(variable + offset)``, ``variable`` a declared integer;
    ``shown`` is how the reader wrote it."""

    symbol: Any
    base: Any
    variable: Any
    offset: int
    shown: str


def power_lower_bound(assumptions: tuple, n: Any) -> int | None:
    """The largest integer ``m`` that the assumptions ``n >= c`` / ``n > c`` (or ``c <= n``,
    ``c < n``, c a rational constant) give for an integer ``n``, or None.

    >>> import sympy
    >>> n = sympy.Symbol("n", real=True)
    >>> power_lower_bound((Fact(n, ">", sympy.Rational(1, 2)), Fact(n, ">=", 0)), n)
    1
    """
    sp = _sympy()
    best = None
    for f in assumptions:
        lhs, rhs, rel = sp.S(f.lhs), sp.S(f.rhs), f.rel
        if rel in ("<=", "<"):
            lhs, rhs, rel = rhs, lhs, {"<=": ">=", "<": ">"}[rel]
        if rel not in (">=", ">") or lhs != n or not rhs.is_Rational:
            continue
        bound = int(sp.floor(rhs)) + 1 if rel == ">" else int(sp.ceiling(rhs))
        best = bound if best is None else max(best, bound)
    return best


def power_theorem(statement: Any) -> Theorem:
    """The induction theorem of a claim with symbolic powers (see the module docstring), its
    proof left empty for the proposer; DerivationError when the claim is not of that shape."""
    from verify.kernel.claim_statements import _fresh, _names, atom_definitions

    sp = _sympy()
    powers = statement.powers
    if not powers or statement.sum is not None or not statement.goals:
        raise DerivationError("a claim with symbolic powers states goals and no symbolic sum")
    n = powers[0].variable
    symbols = {p.symbol for p in powers}
    for p in powers:
        if type(p) is not Power or p.variable != n or type(n) is not sp.Symbol:
            raise DerivationError("every symbolic exponent of a claim uses the same one name")
        if not isinstance(p.offset, int) or isinstance(p.offset, bool) or \
                type(p.symbol) is not sp.Symbol:
            raise DerivationError("a power is a fresh symbol with an int offset")
        if sp.S(p.base).free_symbols & (symbols | {n}):
            raise DerivationError(f"the base of {p.shown} uses {n} or another symbolic power")
    if n not in statement.integers:
        raise DerivationError(f"induction on {n} needs the assumption '{n} integer'")
    low = power_lower_bound(statement.assumptions, n)
    if low is None or any(low + p.offset < 0 for p in powers):
        raise DerivationError(f"induction on {n} needs a lower bound '{n} >= m' with every "
                              f"exponent >= 0 at n = m")
    variable_domains = [d for d in statement.domains if sp.S(d.expr).free_symbols]
    constant_domains_hold = all((sp.S(d.expr) >= 0) if d.kind == "nonneg" else sp.S(d.expr) != 0
                                for d in statement.domains if not sp.S(d.expr).free_symbols)
    if variable_domains or not constant_domains_hold or any(a.kind != "abs" or sp.S(a.argument).free_symbols & (symbols | {n})
                                for a in statement.atoms):
        raise DerivationError("a claim with symbolic powers has no square roots, no variable "
                              "denominators and no Abs of the exponent")
    if any(g.op == "!=" for g in statement.goals):
        raise DerivationError("a claim with symbolic powers compares with < <= == >= >")
    used = _names(statement) | {str(p.symbol) for p in powers}
    used |= {s.name for p in powers for s in sp.S(p.base).free_symbols}
    T = sp.Symbol(_fresh("T", used), real=True)
    t = sp.Symbol(_fresh("t", used), real=True)
    sequences = [sp.IndexedBase(_fresh("P", used)) for _ in powers]
    hyps = [Hyp(f"h{i}", f) for i, f in enumerate(statement.assumptions, 1)
            if not (sp.S(f.lhs).free_symbols | sp.S(f.rhs).free_symbols) & (symbols | {n})]
    hyps += [h for a in statement.atoms for h in atom_definitions(a)]
    hyps += [Hyp(f"start{i}", Fact(P[0], "=", sp.S(p.base) ** (low + p.offset)))
             for i, (p, P) in enumerate(zip(powers, sequences), 1)]
    family = tuple(Hyp(f"next{i}", Fact(P[t + 1], "=", P[t] * sp.S(p.base)))
                   for i, (p, P) in enumerate(zip(powers, sequences), 1))
    at = {n: T + low, **{p.symbol: P[T] for p, P in zip(powers, sequences)}}
    conclusions = tuple(Fact(sp.S(g.lhs).xreplace(at), g.op, sp.S(g.rhs).xreplace(at))
                        for g in statement.goals)
    return Theorem(name="power", title="power", vectors=statement.vectors, naturals=(T,),
                   hyps=tuple(hyps), conclusions=conclusions,
                   proof=Induction(T, t, Derivation(()), Derivation(())),
                   family=Family(t, T, family))
