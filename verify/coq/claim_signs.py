"""The sign of a denominator, read at one point that satisfies a claim's assumptions.

Untrusted and only a hint for the Coq proof (:mod:`verify.coq.claim_files`): the kernel proved
the denominator nonzero from the assumptions, so its sign is the same at every such point, and
Coq checks the sign it is told.

>>> from verify.claims.parser import parse_claim
>>> sample_point(parse_claim("assume: a > 0, b < 0\\na*b < 0"))
{'a': Fraction(1, 1), 'b': Fraction(-1, 1)}
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from verify.claims.parser import Claim, Relation

__all__ = ["sample_point", "value_at", "holds_at", "assumed_nonzero"]


def sample_point(claim: Claim) -> dict[str, Fraction] | None:
    """A rational point satisfying every assumption without sqrt (to read the sign of a
    denominator the kernel proved nonzero: its sign is the same at every such point)."""
    grid = [Fraction(v) for v in (1, 2, 3, Fraction(1, 2), -1, -2, 5)]
    names = list(claim.symbols)
    if len(names) > 4:
        return None
    for values in product(grid, repeat=len(names)):
        point = dict(zip(names, values))
        try:
            if all(r.op == "integer" or _holds_or_unknown(r, point) for r in claim.assumptions):
                return point
        except (ZeroDivisionError, KeyError):
            continue
    return None


def _holds_or_unknown(r: Relation, point: dict) -> bool:
    """``holds_at``, or True for an assumption this evaluator cannot read (a ``sqrt``, an
    ``Abs``): the point then satisfies the others only, and Coq checks the sign it is told."""
    try:
        return holds_at(r, point)
    except ValueError:
        return True


def value_at(e: tuple, point: dict) -> Fraction:
    """The exact value of a parsed expression without sqrt, Abs, dot or sums at a point."""
    kind = e[0]
    if kind == "num":
        return e[1]
    if kind == "sym":
        return point[e[1]]
    if kind == "neg":
        return -value_at(e[1], point)
    if kind == "pow":
        return value_at(e[1], point) ** e[2]
    if kind in ("add", "sub", "mul", "div"):
        a, b = value_at(e[1], point), value_at(e[2], point)
        return {"add": a + b, "sub": a - b, "mul": a * b}[kind] if kind != "div" else a / b
    raise ValueError(kind)


def holds_at(r: Relation, point: dict) -> bool:
    """True when the relation holds at the point."""
    a, b = value_at(r.lhs, point), value_at(r.rhs, point)
    return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b,
            ">=": a >= b}[r.op]


def assumed_nonzero(claim: Claim, e: tuple) -> bool:
    """True when ``e`` is, up to sign, ``a - b`` of an assumption ``a != b`` (compared at a few
    generic rational points): its sign is not fixed, only that it is not 0.

    >>> from verify.claims.parser import parse_claim
    >>> claim = parse_claim("assume: r != 1\\n1/(1 - r) == 1/(1 - r)")
    >>> assumed_nonzero(claim, claim.goals[0].rhs[2]), assumed_nonzero(claim, ("sym", "r"))
    (True, False)
    """
    names = list(claim.symbols)
    points = [{name: Fraction(3 + k + 5 * i, 2 + i + k) for i, name in enumerate(names)}
              for k in range(5)]
    for r in claim.assumptions:
        if r.op != "!=":
            continue
        try:
            pairs = [(value_at(e, p), value_at(r.lhs, p) - value_at(r.rhs, p)) for p in points]
        except (ValueError, ZeroDivisionError, KeyError):
            continue
        if all(a == b for a, b in pairs) or all(a == -b for a, b in pairs):
            return True
    return False
