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

from verify.kernel.claim_names import fresh_name, statement_names
from verify.kernel.terms import Derivation, DerivationError, Fact, Family, Hyp, Induction, \
    Theorem, _sympy

__all__ = ["Power", "power_theorem", "power_lower_bound", "sum_power_theorem", "MAX_START"]

#: the largest exponent of a power at the start of an induction (``n >= 10**30`` would make the
#: kernel expand ``base**(10**30)``)
MAX_START = 64


@dataclass(frozen=True)
class Power:
    """``symbol`` stands for ``base**(variable + offset)``, ``variable`` a declared integer;
    ``shown`` is how the reader wrote it, for messages only (the statement is printed from
    ``base``, ``variable`` and ``offset``, never from ``shown``)."""

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


def _check_powers(powers: tuple, variables: set) -> set:
    """The power symbols, after checking each record's shape (a forged one is refused)."""
    sp = _sympy()
    symbols = {p.symbol for p in powers}
    for p in powers:
        if type(p) is not Power or p.variable not in variables or \
                type(p.variable) is not sp.Symbol:
            raise DerivationError("every symbolic exponent of a claim uses the same one name "
                                  "(or, in a sum, its index)")
        if type(p.offset) is not int or type(p.symbol) is not sp.Symbol:
            raise DerivationError("a power is a fresh symbol with an int offset")
        if sp.S(p.base).free_symbols & (symbols | variables):
            raise DerivationError(f"the base of {p.shown} uses {p.variable} or another "
                                  f"symbolic power")
    return symbols


class _Sequences:
    """One sequence B per distinct base (B[0] = 1, B[t+1] = base*B[t], so B[t] = base**t),
    with fresh names; ``power(p, start, at)`` is ``base**start * B[at]``."""

    def __init__(self, powers: tuple, used: set) -> None:
        sp = _sympy()
        self.bases: list = []
        for p in powers:
            if not any(sp.expand(sp.S(p.base) - b) == 0 for b in self.bases):
                self.bases.append(sp.S(p.base))
        self.names = [sp.IndexedBase(fresh_name("P", used)) for _ in self.bases]

    def power(self, p: Power, start: int, at: Any) -> Any:
        sp = _sympy()
        if not 0 <= start <= MAX_START:
            raise DerivationError(f"{p.shown} has the exponent {start} at the start of the "
                                  f"induction (from 0 to {MAX_START})")
        k = next(i for i, b in enumerate(self.bases) if sp.expand(sp.S(p.base) - b) == 0)
        return sp.S(p.base) ** start * self.names[k][at]

    def hyps(self, t: Any) -> tuple[list, list]:
        """(the start hypotheses, the per-step hypotheses)."""
        numbered = list(enumerate(zip(self.bases, self.names), 1))
        return ([Hyp(f"start{i}", Fact(B[0], "=", 1)) for i, (_, B) in numbered],
                [Hyp(f"next{i}", Fact(B[t + 1], "=", base * B[t])) for i, (base, B) in numbered])


def _names_and_variables(statement: Any) -> tuple[set, Any, Any]:
    sp = _sympy()
    used = statement_names(statement)
    return used, sp.Symbol(fresh_name("T", used), real=True), \
        sp.Symbol(fresh_name("t", used), real=True)


def power_theorem(statement: Any) -> Theorem:
    """The induction theorem of a claim with symbolic powers (see the module docstring), its
    proof left empty for the proposer; DerivationError when the claim is not of that shape."""
    sp = _sympy()
    powers = statement.powers
    if powers and statement.sum is not None:
        return sum_power_theorem(statement)
    if not powers or not statement.goals:
        raise DerivationError("a claim with symbolic powers states goals")
    n = powers[0].variable
    symbols = _check_powers(powers, {n})
    if n not in statement.integers:
        raise DerivationError(f"induction on {n} needs the assumption '{n} integer'")
    low = power_lower_bound(statement.assumptions, n)
    if low is None or any(low + p.offset < 0 for p in powers):
        raise DerivationError(f"induction on {n} needs a lower bound '{n} >= m' with every "
                              f"exponent >= 0 at n = m")
    constant = [d for d in statement.domains if not sp.S(d.expr).free_symbols]
    if len(constant) < len(statement.domains) or \
            not all(sp.S(d.expr) >= 0 if d.kind == "nonneg" else sp.S(d.expr) != 0
                    for d in constant) or \
            statement.atoms:
        raise DerivationError("a claim with symbolic powers has no square roots, no Abs and "
                              "no variable denominators")
    if any(g.op == "!=" for g in statement.goals):
        raise DerivationError("a claim with symbolic powers compares with < <= == >= >")
    used, T, t = _names_and_variables(statement)
    sequences = _Sequences(powers, used)
    hyps = [Hyp(f"h{i}", f) for i, f in enumerate(statement.assumptions, 1)
            if not (sp.S(f.lhs).free_symbols | sp.S(f.rhs).free_symbols) & (symbols | {n})]
    starts, nexts = sequences.hyps(t)
    at = {n: T + low, **{p.symbol: sequences.power(p, low + p.offset, T) for p in powers}}
    conclusions = tuple(Fact(sp.S(g.lhs).xreplace(at), g.op, sp.S(g.rhs).xreplace(at))
                        for g in statement.goals)
    return Theorem(name="power", title="power", vectors=statement.vectors, naturals=(T,),
                   hyps=tuple(hyps + starts), conclusions=conclusions,
                   proof=Induction(T, t, Derivation(()), Derivation(())),
                   family=Family(t, T, tuple(nexts)))


def _assumed_sign(statement: Any, d: Any) -> int | None:
    """1 when an assumption is ``d > 0``, -1 when it is ``d < 0`` (by normal form), else None.

    >>> import sympy
    >>> from verify.kernel.claim_statements import ClaimStatement
    >>> r = sympy.Symbol("r", real=True)
    >>> _assumed_sign(ClaimStatement(assumptions=(Fact(r, "<", 1),)), 1 - r)
    1
    """
    sp = _sympy()
    for f in statement.assumptions:
        expr, kind = Fact(f.lhs, f.rel, f.rhs).normal()
        if kind == ">0":
            for sign in (1, -1):
                if sp.expand(expr - sign * d) == 0:
                    return sign
    return None


def sum_power_theorem(statement: Any) -> Theorem:
    """The induction theorem of ``Sum(f, (k, low, n)) rel G`` whose summand has powers
    ``base**(k + c)`` and whose closed form has powers ``base**(n + c)`` (the geometric sum):
    for every natural T, sequences S and B (one per base) with S[0] = 0, B[0] = 1,
    S[t+1] = S[t] + f(low + t) and B[t+1] = base*B[t]: S[T] rel G(T + low - 1), every power
    ``base**(e)`` written ``base**(e at T = 0) * B[T]`` (``B[t]`` in the summand).  A closed
    form ``N/D`` of an equality whose denominator D is an assumption ``D != 0`` (up to sign)
    is stated ``D*S[T] = N``, which says the same when D != 0.  The claim must assume
    ``n integer`` and ``n >= c`` with c >= low - 1 (as for every sum)."""
    sp = _sympy()
    sg, powers = statement.sum, statement.powers
    k, n = sg.index, sg.upper
    if statement.goals or sg.rel not in ("=", "<=", ">=") or type(k) is not sp.Symbol or \
            type(n) is not sp.Symbol or k == n:
        raise DerivationError("a Sum goal is one comparison =, <= or >= with nothing else")
    symbols = _check_powers(powers, {k, n})
    inner = [p for p in powers if p.variable == k]
    outer = [p for p in powers if p.variable == n]
    summand, closed = sp.S(sg.summand), sp.S(sg.closed)
    if summand.free_symbols & {p.symbol for p in outer} or \
            closed.free_symbols & {p.symbol for p in inner} or n in summand.free_symbols:
        raise DerivationError(f"the summand's powers use {k}, the closed form's use {n}")
    bound = power_lower_bound(statement.assumptions, n)
    if n not in statement.integers or bound is None or bound < sg.low - 1:
        raise DerivationError(f"induction on {n} needs the assumptions '{n} integer' and "
                              f"'{n} >= {sg.low - 1}' (or a larger lower bound)")
    if statement.domains or statement.atoms or sg.atoms:
        raise DerivationError("a sum with symbolic powers has no sqrt and no Abs")
    numerator, denominator = sp.fraction(sp.together(closed))
    scale, cleared = denominator.as_coeff_Mul()
    sign = _assumed_sign(statement, cleared) if sg.rel != "=" and cleared != 1 else 1
    # the denominator cleared is 1, or (an equality) assumed != 0, or (an inequality) of an
    # assumed sign
    if sg.rel == "=":
        assumed = cleared == 1 or any(sp.expand(cleared - e) == 0 or sp.expand(cleared + e) == 0
                                      for e in statement.nonzero)
    else:
        assumed = cleared == 1 or sign is not None
    if cleared.free_symbols & (symbols | {k, n}) or not assumed:
        raise DerivationError(f"the closed form divides by {cleared}: an equality whose "
                              f"denominator is assumed != 0 (such as r != 1), or an inequality "
                              f"whose denominator is assumed > 0 or < 0 (such as r < 1), is "
                              f"needed")
    used, T, t = _names_and_variables(statement)
    S = sp.IndexedBase(fresh_name("S", used))
    sequences = _Sequences(tuple(powers), used)
    hyps = [Hyp(f"h{i}", f) for i, f in enumerate(statement.assumptions, 1)
            if not (sp.S(f.lhs).free_symbols | sp.S(f.rhs).free_symbols) & (symbols | {n})]
    starts, nexts = sequences.hyps(t)
    at_k = {k: sg.low + t, **{p.symbol: sequences.power(p, sg.low + p.offset, t)
                              for p in inner}}
    at_n = {n: T + sg.low - 1, **{p.symbol: sequences.power(p, sg.low - 1 + p.offset, T)
                                  for p in outer}}
    recurrence = Hyp("recurrence", Fact(S[t + 1], "=", S[t] + summand.xreplace(at_k)))
    # S rel N/(scale*D) with sign*D > 0 assumed: times sign*D, sign*D*S rel sign*N/scale
    conclusion = Fact(sign * cleared * S[T], sg.rel, (sign * numerator / scale).xreplace(at_n))
    return Theorem(name="sum", title="sum", vectors=(), naturals=(T,),
                   hyps=tuple(hyps + [Hyp("empty", Fact(S[0], "=", 0))] + starts),
                   conclusions=(conclusion,),
                   proof=Induction(T, t, Derivation(()), Derivation(())),
                   family=Family(t, T, (recurrence, *nexts)))

