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
from math import gcd, isqrt
from typing import Any

from verify.claims.parser import Claim, Relation

__all__ = ["refute", "fmt", "counterexample_text", "scalar_values"]

#: simple values first, so that the first counterexample found is one a reader checks by hand
#: (squares such as 1/4, 4, 9/4 keep square roots rational)
_GRID = [Fraction(v) for v in ("0", "1", "-1", "2", "-2", "1/2", "-1/2", "4", "1/4", "-1/4",
                               "3/2", "-3/2", "3", "-3", "-4", "1/3", "-1/3", "9/4", "1/9", "10",
                               "-10", "3/4", "1/16", "9", "25/4", "100")]
#: integer components of the small vectors tried, simplest first (dimensions 1, 2 and 3)
_COMPONENTS = (0, 1, -1, 2, -2)
_DIMENSIONS = ((1, 5), (2, 4), (3, 3))  # (dimension, how many of _COMPONENTS per coordinate)


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
    if kind == "powsym":  # base**(n + c): evaluated only at an integer exponent
        base, k = _evaluate(e[1], point), _evaluate(e[2], point) + e[3]
        if k.denominator != 1 or abs(k) > 200:
            raise _Irrational  # not a point where the power is defined here: skip it
        if base == 0 and k < 0:
            raise _Undefined("a negative power of 0 is undefined")
        return base ** int(k)
    if kind not in ("dot", "add", "sub", "mul", "div"):
        raise _Irrational  # a node this evaluator does not know: no verdict from this point
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


def _constants(claim: Claim) -> list[Fraction]:
    """The numbers written in the claim (the boundaries of its assumptions, such as 1 in r < 1)."""
    found: list[Fraction] = []

    def walk(e: Any) -> None:
        if not isinstance(e, tuple) or not e:
            return
        if e[0] == "num":
            found.append(e[1])
        elif e[0] != "sym":
            for part in e[1:]:
                walk(part)
    for r in claim.assumptions + claim.goals:
        walk(r.lhs)
        walk(r.rhs)
    return found


def _simple_fractions(limit: int) -> list[Fraction]:
    """p/q in [-4, 4] with q <= limit, the smallest denominators first (a fine scan)."""
    out = []
    for q in range(1, limit + 1):
        for p in range(-4 * q, 4 * q + 1):
            if gcd(p, q) == 1:
                out.append(Fraction(p, q))
    return out


def scalar_values(claim: Claim) -> list[Fraction]:
    """The values tried for each scalar, in order: the simplest, then the boundaries of the
    assumptions and the claim's numbers (c, c +- 1/4, c +- 1/2, c +- 1, 2c, c/2, -c, and the
    midpoint of two of them), then the rest of the grid and a fine scan of fractions with small
    denominators.

    >>> from verify.claims.parser import parse_claim
    >>> scalar_values(parse_claim("assume: r < 7\\nr <= 7"))[11:15]
    [Fraction(7, 1), Fraction(29, 4), Fraction(27, 4), Fraction(15, 2)]
    """
    near = []
    for c in _constants(claim):
        if abs(c.numerator) <= 10**6 and c.denominator <= 10**3:
            near += [c, c + Fraction(1, 4), c - Fraction(1, 4), c + Fraction(1, 2),
                     c - Fraction(1, 2), c + 1, c - 1, 2 * c, c / 2, -c]
    small = sorted({c for c in _constants(claim) if abs(c) <= 10**6})[:12]
    between = [(p + q) / 2 for i, p in enumerate(small) for q in small[i + 1:]]
    ordered = _GRID[:11] + near + between + _GRID[11:] + _simple_fractions(16)
    return list(dict.fromkeys(ordered))


def _small_vectors(dimension: int, width: int) -> list[tuple]:
    """Integer vectors of one dimension, simplest first (components from _COMPONENTS)."""
    choices = [Fraction(c) for c in _COMPONENTS[:width]]
    return [tuple(choices[i] for i in index) for index in _shells([len(choices)] * dimension)]


def _shells(sizes: list[int]) -> Any:
    """Index tuples in order of their largest index: every point built from the first m values
    of each list comes before any point using value m + 1 (within a shell, in lexicographic
    order); only the tuples of each shell are built, none is filtered out.

    >>> list(_shells([2, 2]))
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    if not sizes:
        yield ()
        return
    # reaches[i]: some list after position i has an index m (the shell's value is still possible)
    for m in range(max(sizes)):
        reaches = [any(size > m for size in sizes[i + 1:]) for i in range(len(sizes))]

        def shell(i: int, hit: bool) -> Any:
            if i == len(sizes):
                if hit:
                    yield ()
                return
            for v in range(min(m + 1, sizes[i])):
                now = hit or v == m
                if now or reaches[i]:
                    for rest in shell(i + 1, now):
                        yield (v,) + rest
        yield from shell(0, False)


def _candidates(claim: Claim, points: int, seed: int, start: int = 0) -> Any:
    """Points to try: simple scalar values (see :func:`scalar_values`) and small integer vectors
    in dimensions 1, 2 and 3, simplest first; then random rationals until ``points``.  The
    simple points a search of ``start`` points has tried already are left out."""
    values = scalar_values(claim)
    scalars = len(claim.symbols)
    count = 0
    passes = _DIMENSIONS if claim.vectors else ((0, 0),)
    for dimension, width in passes:
        vectors = _small_vectors(dimension, width) if claim.vectors else []
        sizes = [len(values)] * scalars + [len(vectors)] * len(claim.vectors)
        for n, index in enumerate(_shells(sizes)):
            if n >= points // len(passes):
                break
            count += 1
            if n < start // len(passes):
                continue
            yield tuple(values[i] for i in index[:scalars]) + \
                tuple(vectors[i] for i in index[scalars:])
    rng = random.Random(seed)

    def number() -> Fraction:
        return rng.choice(_GRID) if rng.random() < 0.7 else \
            Fraction(rng.randint(-20, 20), rng.randint(1, 6))
    if len(claim.symbols) + len(claim.vectors) < 2:
        return  # one scalar: its list of values is already tried in full
    for _ in range(max(0, points - count)):
        yield tuple(number() for _ in range(scalars)) + \
            tuple((number(), number()) for _ in claim.vectors)


#: at most this many points near the smallest margin (the simplest first; the interval
#: between two neighbouring values of the grid holds fewer, unless it is one of the wide
#: ones far out, such as [-10, -4] for an identity whose margin is 0 everywhere)
_NEAR_ROOT_POINTS = 1000


def _near_root(claim: Claim, tried: list[tuple[Fraction, Fraction]]) -> Any:
    """For a claim in one scalar: where the margin of the goal is smallest among the points
    tried, the simplest fractions nearby (denominators up to 64, at most _NEAR_ROOT_POINTS)."""
    if len(tried) < 2:
        return
    tried = sorted(tried)
    best = min(range(len(tried)), key=lambda i: abs(tried[i][1]))
    low = tried[max(0, best - 1)][0]
    high = tried[min(len(tried) - 1, best + 1)][0]
    count = 0
    for q in range(1, 65):
        for p in range(int(low * q) - 1, int(high * q) + 2):
            value = Fraction(p, q)
            if low <= value <= high and value.denominator == q:
                yield (value,)
                count += 1
                if count >= _NEAR_ROOT_POINTS:
                    return


_NEGATION = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def _side(text: str, value: Any) -> str:
    shown = fmt(value)
    return shown if text == shown else f"{text} = {shown}"


def counterexample_text(point: dict, goal: Relation) -> str:
    """How the goal fails at the point, with the value of each side: a reader checks it by hand.

    >>> from verify.claims.parser import parse_claim
    >>> goal = parse_claim("assume: x >= 0\\nsqrt(x) <= x").goals[0]
    >>> counterexample_text({"x": Fraction(1, 4)}, goal)
    'x = 1/4: sqrt(x) = 1/2 > x = 1/4'
    """
    where = _at(point)
    left, right = goal.text.split(f" {goal.op} ", 1) if f" {goal.op} " in goal.text else \
        (goal.text, "")
    try:
        lv, rv = _evaluate(goal.lhs, point), _evaluate(goal.rhs, point)
    except (_Undefined, _Irrational):
        return f"{where}{goal.text} is false"
    return f"{where}{_side(left.strip(), lv)} {_NEGATION[goal.op]} {_side(right.strip(), rv)}"


def _at(point: dict) -> str:
    """``x = 1/4, y = 2: `` (nothing for a claim without variables)."""
    return ", ".join(f"{k} = {fmt(v)}" for k, v in point.items()) + ": " if point else ""


def refute(claim: Claim, points: int, seed: int, start: int = 0) -> tuple[tuple | None, bool]:
    """((point, goal, why) of a counterexample or None, whether some point satisfied every
    assumption).  ``why`` states the value of each side (:func:`counterexample_text`).
    ``start``: a search of that many points found nothing, so its simple points (the same at
    every seed) are not tried again; its random ones are (another seed draws others)."""
    names = claim.symbols + claim.vectors
    satisfiable = False
    tried: list[tuple[Fraction, Fraction]] = []
    one_scalar = len(claim.symbols) == 1 and not claim.vectors

    def attempt(values: tuple) -> tuple | None:
        nonlocal satisfiable
        point = dict(zip(names, values))
        try:
            if not all(_holds(r, point) for r in claim.assumptions):
                return None
        except (_Undefined, _Irrational):
            return None
        satisfiable = True
        for goal in claim.goals:
            try:
                if not _holds(goal, point):
                    return point, goal, counterexample_text(point, goal)
                if one_scalar and goal.op != "integer":
                    tried.append((values[0], _evaluate(goal.lhs, point) -
                                  _evaluate(goal.rhs, point)))
            except _Undefined as exc:
                return point, goal, f"{_at(point)}undefined ({exc})"
            except _Irrational:
                continue
        return None

    for values in (_candidates(claim, points, seed, start) if names else [()][start:]):
        found = attempt(values)
        if found is not None:
            return found, True
    for values in _near_root(claim, tried) if one_scalar else ():
        found = attempt(values)
        if found is not None:
            return found, True
    return None, satisfiable
