"""Untrusted: proofs of a claim's goal that square both sides, join two inequalities into an
equality, or split on the sign of each ``Abs`` argument (issue 25).

Role: proposes.  Tried after the plain certificate search of :meth:`_Prover.goal` fails; every
line it builds is one of the kernel's rules ``compare-squares``, ``antisymmetry`` and
``cases`` (:mod:`verify.kernel.derivations`), checked there, so a bug here can make a claim
unproved, never proved.

>>> from verify.claims.parser import parse_claim
>>> claim = parse_claim("assume: a >= 0, b >= 0\\n(a + b)/2 >= sqrt(a*b)")
>>> prover = _Prover(claim)
>>> prover.assumptions(); prover.goal_domains()
>>> conclusion, lines, text = goal_lines(prover, 1, claim.goals[0])
>>> [type(line).__name__ for line in lines]
['Chain', 'Chain', 'Chain', 'SquareCompare']
"""

from __future__ import annotations

import time
from typing import Any

from verify.claims.parser import Relation
from verify.claims.propose import _Prover, _rational_function, _Unproved
from verify.search.claim_certificates import SearchLimitReached

__all__ = ["goal_lines", "at_least"]

#: At most this many Abs arguments are split on (2**k cases).
MAX_SPLIT_ATOMS = 2
#: The time squaring both sides may take before the plain certificate search is tried.
SQUARES_SECONDS = 12.0
#: The time the case splits may take after the plain certificate search failed.
CASES_SECONDS = 10.0


def goal_lines(prover: _Prover, j: int, goal: Relation) -> tuple[Any, tuple, str]:
    """(kernel conclusion, kernel lines, certificate text) for one relation of the claim: the
    certificate search, then squaring both sides / antisymmetry, then a case split on the
    signs of the goal's Abs arguments; :class:`_Unproved` with the first reason otherwise."""
    cleared = _cleared(prover, j, goal)
    if cleared is not None:
        return cleared
    atoms = {a.symbol for a in prover.statement.atoms}
    difference = _difference(prover, goal)
    with_atoms = goal.op != "!=" and bool(difference.free_symbols & atoms)
    before = _denominator_lines(prover, j, difference)
    if with_atoms:  # squaring first: the plain search on atoms may run out of its budget
        found = _within(prover, SQUARES_SECONDS, _halves, j, goal, True)
        if found is not None:
            return found[0], before + found[1], found[2]
    try:
        conclusion, line, text = prover.goal(j, goal)
        return conclusion, before + (line,), text
    except (_Unproved, SearchLimitReached) as exc:
        first = exc
    found = None
    if with_atoms and goal.op == "==":  # one half by squares, the other by a certificate
        found = _within(prover, SQUARES_SECONDS, _halves, j, goal)
    if found is None and with_atoms and not prover.claim.vectors:
        found = _within(prover, CASES_SECONDS, _by_cases, j, goal)
    if found is None:
        raise first
    return found[0], before + found[1], found[2]


def _denominator_lines(prover: _Prover, j: int, difference: Any) -> tuple:
    """A line ``den > 0`` for the denominator of the goal's ``difference`` (lhs - rhs) when no
    product of known positive facts is it but they prove it (``2/(1/a + 1/b)``: ``a + b > 0``
    from ``a > 0``, ``b > 0``); it is then a divisor like any positive fact, for the rest of the
    claim."""
    kernel, sp = prover.kernel, prover.sp
    den = sp.fraction(sp.together(difference))[1]
    if not den.free_symbols:
        return ()
    try:
        prover.divisors(den)
        return ()
    except _Unproved:
        pass
    certificate = prover.certificate(sp.expand(den), strict=True)
    if certificate is None:
        return ()
    name = f"denominator{j}"
    prover.derive(name, sp.expand(den), ">0")
    return (kernel.Chain(name, den, (kernel.Link(">", 0, certificate),)),)


def _cleared(prover: _Prover, j: int, goal: Relation) -> tuple[Any, tuple, str] | None:
    """An equality whose denominator is assumed != 0 (``r != 1`` for ``.../(1 - r)``): its
    numerator N = 0 (:func:`verify.kernel.claim_statements.cleared_equality`), an identity or
    from the equalities assumed; None when the goal has no such denominator or N = 0 fails."""
    from verify.kernel.claim_statements import cleared_equality

    kernel, sp = prover.kernel, prover.sp
    stated = prover.statement.goals[j - 1]
    fact = cleared_equality(prover.statement, stated)
    if fact is None:
        return None
    numerator = fact.lhs
    if sp.expand(numerator) == 0:
        certificate = kernel.Certificate()
    else:
        certificate = prover.certificate(-sp.expand(numerator), strict=False, equality=True)
        if certificate is None:
            return None
    denominator = sp.fraction(sp.together(sp.S(stated.lhs) - sp.S(stated.rhs)))[1]
    line = kernel.Chain(f"goal{j}", numerator, (kernel.Link("=", 0, certificate),))
    show = prover.tr.show
    if not denominator.free_symbols:
        return fact, (line,), "both sides are one rational function where they are defined"
    return fact, (line,), (f"the sides differ by N/({show(denominator)}) with "
                           f"{show(denominator)} != 0 assumed, and N = 0: "
                           f"0 - ({show(numerator)}) = {prover.terms_text(certificate)}")


def _within(prover: _Prover, seconds: float, strategy: Any, *args: Any) -> Any:
    """``strategy(prover, *args)`` with every certificate search ending within ``seconds``
    (None when the time runs out; the LP solver is imported before the clock starts)."""
    from scipy.optimize import linprog  # noqa: F401

    prover.deadline = time.process_time() + seconds  # CPU time: one verdict at any load
    try:
        return strategy(prover, *args)
    except SearchLimitReached:
        return None
    finally:
        prover.deadline = None


def _difference(prover: _Prover, goal: Relation) -> Any:
    tr = prover.tr
    return prover.sp.S(tr.expr(goal.lhs)) - prover.sp.S(tr.expr(goal.rhs))


def _sides(prover: _Prover, goal: Relation) -> tuple[Any, Any, Any]:
    tr, kernel = prover.tr, prover.kernel
    lhs, rhs = tr.expr(goal.lhs, evaluate=False), tr.expr(goal.rhs, evaluate=False)
    rel = "=" if goal.op == "==" else goal.op
    return kernel.Fact(lhs, rel, rhs), prover.sp.S(lhs), prover.sp.S(rhs)


def _halves(prover: _Prover, j: int, goal: Relation,
            squares_only: bool = False) -> tuple[Any, tuple, str] | None:
    """The goal from ``at_least`` lines: one for <=, <, >=, >; two joined for ==."""
    conclusion, lhs, rhs = _sides(prover, goal)
    name = f"goal{j}"
    if goal.op in (">=", ">"):
        found = at_least(prover, name, lhs, rhs, goal.op == ">", squares_only)
    elif goal.op in ("<=", "<"):
        found = at_least(prover, name, rhs, lhs, goal.op == "<", squares_only)
    else:
        above = at_least(prover, f"{name}_ge", lhs, rhs, False, squares_only)
        below = at_least(prover, f"{name}_le", rhs, lhs, False, squares_only) if above else None
        if above is None or below is None:
            return None
        found = (above[0] + below[0] + (prover.kernel.Antisymmetry(name, lhs, rhs),),
                 f"{above[1]}; {below[1]}")
    if found is None:
        return None
    return conclusion, found[0], found[1]


def at_least(prover: _Prover, name: str, big: Any, small: Any, strict: bool,
             squares_only: bool = False) -> tuple[tuple, str] | None:
    """Lines ending in the line ``name`` that proves ``big >= small`` (``>`` if strict) by
    squaring both sides, or else (unless ``squares_only``) with a certificate; with the text a reader checks; None when
    neither is found."""
    kernel, sp, show = prover.kernel, prover.sp, prover.tr.show
    rel = ">" if strict else ">="
    if _rational_function(sp, big) or _rational_function(sp, small):
        return None
    constant = sp.expand(small)
    if strict or not (constant.is_Rational and constant <= 0):  # else squaring is circular
        found = _by_squares(prover, name, big, small, strict)
        if found is not None:
            return found
    if squares_only:
        return None
    certificate = prover.certificate(sp.expand(big - small), strict=strict)
    if certificate is None:
        return None
    line = kernel.Chain(name, big, (kernel.Link(rel, small, certificate),))
    return (line,), f"{show(big)} - ({show(small)}) = {prover.terms_text(certificate)}"


def _by_squares(prover: _Prover, name: str, big: Any, small: Any,
                strict: bool) -> tuple[tuple, str] | None:
    kernel, sp, show = prover.kernel, prover.sp, prover.tr.show
    rel = ">" if strict else ">="
    lines, texts = [], []
    for side, suffix in ((big, "big"), (small, "small")):
        if sp.expand(side).is_Rational:
            if sp.expand(side) < 0:
                return None
            continue
        nonneg = prover.certificate(sp.expand(side), strict=False)
        if nonneg is None:
            return None
        lines.append(kernel.Chain(f"{name}_{suffix}", side, (kernel.Link(">=", 0, nonneg),)))
        texts.append(f"{show(side)} - 0 = {prover.terms_text(nonneg)}")
    squares = prover.certificate(sp.expand(big ** 2 - small ** 2), strict=strict)
    if squares is None:
        return None
    lines.append(kernel.Chain(f"{name}_sq", big ** 2,
                              (kernel.Link(rel, small ** 2, squares),)))
    lines.append(kernel.SquareCompare(name, big, rel, small))
    texts.append(f"({show(big)})**2 - ({show(small)})**2 = {prover.terms_text(squares)}")
    return tuple(lines), f"{show(big)} {rel} {show(small)} by squaring both sides: " + \
        "; ".join(texts)


# -- case splits ---------------------------------------------------------------------------------
def _by_cases(prover: _Prover, j: int, goal: Relation) -> tuple[Any, tuple, str] | None:
    """Split on the sign of each Abs argument of the goal (at most MAX_SPLIT_ATOMS); in each
    case |e| <= e (or |e| <= -e) by squaring, then the goal as above."""
    conclusion, lhs, rhs = _sides(prover, goal)
    symbols = (lhs - rhs).free_symbols
    atoms = [a for a in prover.statement.atoms if a.kind == "abs" and a.symbol in symbols]
    if not atoms or len(atoms) > MAX_SPLIT_ATOMS:
        return None
    for chosen in [[a] for a in atoms] + ([atoms] if len(atoms) > 1 else []):
        found = _split(prover, j, goal, conclusion, chosen, "")
        if found is not None:
            line, text = found
            shown = ", ".join(prover.tr.show(a.argument) for a in chosen)
            return conclusion, (line,), f"by cases on the sign of {shown}: {text}"
    return None


def _split(prover: _Prover, j: int, goal: Relation, conclusion: Any, atoms: list,
           path: str) -> tuple[Any, str] | None:
    kernel, sp, show = prover.kernel, prover.sp, prover.tr.show
    atom, rest = atoms[0], atoms[1:]
    e = sp.S(atom.argument)
    name = f"case{j}{path}"
    branches, texts = [], []
    try:
        for sign, case_fact, upper in (("+", (e, ">=0"), e), ("-", (-e, ">0"), -e)):
            prover.derive(name, *case_fact)
            below = f"{name}{sign}abs"
            prover.derive(below, sp.expand(upper - atom.symbol))
            lines: list = [kernel.SquareCompare(below, upper, ">=", atom.symbol)]
            if rest:
                inner = _split(prover, j, goal, conclusion, rest, f"{path}{sign}")
                if inner is None:
                    return None
                lines.append(inner[0])
                text = inner[1]
            else:
                try:
                    found = goal_lines_plain(prover, j, goal)
                except _Unproved:
                    return None
                lines += found[1]
                text = found[2]
            _forget(prover, below)
            branches.append(kernel.Derivation(tuple(lines)))
            texts.append(f"({show(e)} {'>=' if sign == '+' else '<'} 0) {text}")
    finally:
        for key in (name, f"{name}+abs", f"{name}-abs"):
            _forget(prover, key)
    return kernel.CaseSplit(name, e, conclusion, branches[0], branches[1]), "; ".join(texts)


def _forget(prover: _Prover, name: str) -> None:
    """The derived fact ``name`` is out of scope."""
    prover.derived.pop(name, None)
    prover.derived_kinds.pop(name, None)


def goal_lines_plain(prover: _Prover, j: int, goal: Relation) -> tuple[Any, tuple, str]:
    """:func:`goal_lines` without a further case split (inside one case)."""
    try:
        conclusion, line, text = prover.goal(j, goal)
        return conclusion, (line,), text
    except _Unproved:
        found = _halves(prover, j, goal)
        if found is None:
            raise
        return found
