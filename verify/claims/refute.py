"""Refutation by exact evaluation: a rational point where the assumptions hold and a goal fails.

Role: decides ``refuted`` (never ``proved``): every value is an exact Fraction; a square root is
taken only when it is rational (otherwise the point is skipped, no floats).

>>> from verify.claims.parser import parse_claim
>>> found, satisfiable = refute(parse_claim("(a + b)**2 >= a**2 + b**2"), 2000, 0)
>>> found[0], satisfiable
({'a': Fraction(1, 1), 'b': Fraction(-1, 1)}, True)
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product
from math import isqrt
from typing import Any

from verify.claims.parser import Claim, Relation

__all__ = ["refute", "fmt"]

_GRID = [Fraction(v) for v in (0, 1, -1, 2, -2, Fraction(1, 2), Fraction(-1, 2), 3, -3,
                               Fraction(1, 3), 10, -10)]


def fmt(v: Any) -> str:
    if isinstance(v, tuple):
        return "(" + ", ".join(fmt(p) for p in v) + ")"
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"



# -- exact evaluation (refutation) --------------------------------------------------------------
class _Undefined(Exception):
    """The expression is undefined at the point (negative square root, zero denominator)."""


class _Irrational(Exception):
    """A square root at the point is irrational: the point is skipped (no floats)."""


def _evaluate(e: tuple, point: dict) -> Fraction:
    kind = e[0]
    if kind == "num":
        return e[1]
    if kind == "sym":
        return point[e[1]]
    if kind == "neg":
        v = _evaluate(e[1], point)
        return tuple(-p for p in v) if isinstance(v, tuple) else -v
    if kind == "abs":
        return abs(_evaluate(e[1], point))
    if kind == "sqrt":
        v = _evaluate(e[1], point)
        if v < 0:
            raise _Undefined(f"the square root of {fmt(v)} is undefined")
        n, d = isqrt(v.numerator), isqrt(v.denominator)
        if n * n != v.numerator or d * d != v.denominator:
            raise _Irrational
        return Fraction(n, d)
    if kind == "sum":
        _, body, k, low, high = e
        top = _evaluate(high, point)
        if top.denominator != 1 or top < low - 1 or top - low > 2000:
            raise _Irrational  # not a point where the sum is defined here: skip it
        return sum((_evaluate(body, {**point, k: Fraction(v)})
                    for v in range(low, int(top) + 1)), Fraction(0))
    if kind == "pow":
        base = _evaluate(e[1], point)
        if base == 0 and e[2] < 0:
            raise _Undefined("a negative power of 0 is undefined")
        return base ** e[2]
    a, b = _evaluate(e[1], point), _evaluate(e[2], point)
    if kind == "dot":
        return sum((p * q for p, q in zip(a, b)), Fraction(0))
    vector = isinstance(a, tuple) or isinstance(b, tuple)
    if kind == "add":
        return tuple(p + q for p, q in zip(a, b)) if vector else a + b
    if kind == "sub":
        return tuple(p - q for p, q in zip(a, b)) if vector else a - b
    if kind == "mul":
        if isinstance(a, tuple):
            return tuple(p * b for p in a)
        return tuple(a * q for q in b) if isinstance(b, tuple) else a * b
    if b == 0:
        raise _Undefined("a denominator is 0")
    return tuple(p / b for p in a) if isinstance(a, tuple) else a / b


def _holds(r: Relation, point: dict) -> bool:
    if r.op == "integer":
        return _evaluate(r.lhs, point).denominator == 1
    a, b = _evaluate(r.lhs, point), _evaluate(r.rhs, point)
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b,
            "!=": a != b}[r.op]


def refute(claim: Claim, points: int, seed: int) -> tuple[tuple | None, bool]:
    """((point, goal, why) of a counterexample or None, whether some point satisfied every
    assumption)."""
    names = claim.symbols + claim.vectors
    scalars = len(claim.symbols)
    if not names:
        candidates: Any = [()]
    elif not claim.vectors and len(_GRID) ** len(names) <= points:
        candidates = product(_GRID, repeat=len(names))
    else:
        rng = random.Random(seed)

        def number() -> Fraction:
            return rng.choice(_GRID) if rng.random() < 0.7 else \
                Fraction(rng.randint(-20, 20), rng.randint(1, 6))

        def sample() -> Any:  # vectors in the plane: a plane counterexample is one in R^d
            for _ in range(points):
                yield tuple(number() if i < scalars else (number(), number())
                            for i in range(len(names)))
        candidates = sample()
    satisfiable = False
    for values in candidates:
        point = dict(zip(names, values))
        try:
            if not all(_holds(r, point) for r in claim.assumptions):
                continue
        except (_Undefined, _Irrational):
            continue
        satisfiable = True
        for goal in claim.goals:
            try:
                if not _holds(goal, point):
                    return (point, goal, f"the assumptions hold and {goal.text} is false"), True
            except _Undefined as exc:
                return (point, goal, f"the assumptions hold and {goal.text} is undefined: "
                                     f"{exc}"), True
            except _Irrational:
                continue
    return None, satisfiable

