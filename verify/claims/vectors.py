"""How a parsed claim may use vectors: only inside ``dot``, as linear combinations.

Role: part of the parser (trusted: it refuses, with the line, what the claim language does not
allow); split from :mod:`verify.claims.parser` to keep every file of the claims path under 500
lines.
"""

from __future__ import annotations

from typing import Any

Expr = tuple

__all__ = ["vector_problem", "misused_vector"]


def vector_problem(e: Expr, vectors: frozenset) -> str:
    """Why a parsed scalar expression misuses vectors ("" if it does not): a vector may occur
    only inside ``dot``, whose arguments are linear combinations of vectors.

    >>> vector_problem(("dot", ("sym", "w"), ("mul", ("sym", "y"), ("sym", "x"))),
    ...                frozenset({"w", "x"}))
    ''
    >>> vector_problem(("mul", ("sym", "w"), ("num", 2)), frozenset({"w"}))
    'the vector w is used as a number (write dot(w, ...))'
    """
    kind = e[0]
    if kind == "sym":
        return f"the vector {e[1]} is used as a number (write dot({e[1]}, ...))" \
            if e[1] in vectors else ""
    if kind == "num":
        return ""
    if kind == "sum" and e[2] in vectors:  # (issue 24: a vector index was a traceback)
        return f"the index {e[2]} of a sum is a number, not a vector"
    if kind == "dot":
        for arg in e[1:]:
            degree, problem = _vector_degree(arg, vectors)
            if problem or degree != 1:
                return problem or "the arguments of dot are vectors (linear combinations of " \
                                  "the names declared by vectors:)"
        return ""
    for child in e[1:]:
        if isinstance(child, tuple):
            problem = vector_problem(child, vectors)
            if problem:
                return problem
    return ""


def _vector_degree(e: Expr, vectors: frozenset) -> tuple[int, str]:
    """(1 for a vector, 0 for a scalar, problem text)."""
    kind = e[0]
    if kind == "sym":
        return (1 if e[1] in vectors else 0), ""
    if kind == "num":
        return 0, ""
    if kind in ("dot", "sqrt", "abs", "sum"):
        return 0, vector_problem(e, vectors)
    if kind == "neg":
        return _vector_degree(e[1], vectors)
    if kind == "pow":
        degree, problem = _vector_degree(e[1], vectors)
        return 0, problem or ("a vector cannot be raised to a power (write dot(u, u))"
                              if degree else "")
    (da, pa), (db, pb) = _vector_degree(e[1], vectors), _vector_degree(e[2], vectors)
    if pa or pb:
        return 0, pa or pb
    if kind in ("add", "sub"):
        if da != db:
            return 0, "a vector and a number cannot be added"
        return da, ""
    if kind == "mul":
        if da and db:
            return 0, "two vectors cannot be multiplied (write dot(u, v))"
        return da + db, ""
    if db:
        return 0, "cannot divide by a vector"
    return da, ""


def misused_vector(vectors: tuple[str, ...], assumptions: Any, goals: Any,
                   functions: tuple[str, ...]) -> tuple[bool, str] | None:
    """The first misuse of the declared ``vectors`` in a claim: (in a goal?, message), or None.
    A vector name must be a plain name, and vectors may occur only as :func:`vector_problem`
    allows.

    >>> misused_vector(("_v",), (), (), ("dot",))
    (False, "vectors: '_v' is not a name")
    """
    for v in vectors:
        if not v.isidentifier() or v.startswith("_") or v in functions or not v.isascii():
            return False, f"vectors: {v!r} is not a name"
    for r in (*assumptions, *goals):
        for side in (r.lhs, r.rhs):
            problem = vector_problem(side, frozenset(vectors))
            if problem:
                return r in goals, f"{r.text}: {problem}"
    return None
