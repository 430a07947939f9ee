"""How a claim writes a symbolic exponent: ``x**n``, ``x**(n + 1)``, ``x**(n - 2)``.

Role: part of the parser (trusted: it refuses what the claim language does not allow); split
from :mod:`verify.claims.parser` to keep every file of the claims path under 500 lines.  A
symbolic power is the node ``("powsym", base, ("sym", n), c)``, meaning ``base**(n + c)``; the
elaborator accepts it only when ``n`` is declared ``n integer`` with a lower bound ``n >= m``
(``m + c >= 0``), and the kernel proves such a claim by induction on ``n``.

>>> import ast
>>> exponent_parts(ast.parse("n + 1", mode="eval").body)
('n', 1)
>>> exponent_parts(ast.parse("2*n", mode="eval").body) is None
True
"""

from __future__ import annotations

import ast

__all__ = ["exponent_parts", "literal_exponent", "MAX_OFFSET"]

#: the largest |c| in ``x**(n + c)``
MAX_OFFSET = 64


def exponent_parts(node: ast.AST) -> tuple[str, int] | None:
    """``(n, c)`` when the exponent reads ``n``, ``n + c``, ``n - c`` or ``c + n`` for a name
    ``n`` and an int literal ``c`` (|c| <= :data:`MAX_OFFSET`), else None."""
    if isinstance(node, ast.Name):
        return node.id, 0
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub))):
        return None
    left, right = node.left, node.right
    if isinstance(node.op, ast.Add) and isinstance(left, ast.Constant):
        left, right = right, left
    if not (isinstance(left, ast.Name) and isinstance(right, ast.Constant)
            and type(right.value) is int and abs(right.value) <= MAX_OFFSET):
        return None
    return left.id, right.value if isinstance(node.op, ast.Add) else -right.value


def literal_exponent(node: ast.AST, largest: int) -> int:
    """The value of an int literal exponent (``3``, ``-2``), at most ``largest`` in absolute
    value; ValueError saying what is allowed otherwise.

    >>> literal_exponent(ast.parse("-2", mode="eval").body, 64)
    -2
    """
    sign = 1
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        sign, node = -1, node.operand
    if not (isinstance(node, ast.Constant) and type(node.value) is int):
        raise ValueError("an exponent is an integer literal, or n, n + 1, n - 1 for an integer "
                         "n (use sqrt for square roots)")
    k = sign * node.value
    if abs(k) > largest:
        raise ValueError(f"exponent {k} is larger than {largest}")
    return k
