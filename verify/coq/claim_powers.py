"""Symbolic powers ``x**(n + c)`` of a proved claim, written for Coq (``pla claims --coq``).

Role: untrusted (Coq checks what it writes).  Like a symbolic sum, a claim with ``x**(n + c)``
(n declared ``n integer`` with a lower bound ``n >= m``) is stated for a natural ``T`` with
``INR T = n - m``, and ``x**(n + c)`` is printed ``x ^ (T + (m + c))`` (Coq's ``pow`` takes a
``nat``); the proof is ``induction T``, as in the kernel.

>>> from verify.claims.parser import parse_claim
>>> claim = parse_claim("assume: n >= 1, n integer, x >= 1\\nx**(n + 1) >= x")
>>> power_bound(claim)
('n', 1)
"""

from __future__ import annotations

from math import ceil, floor
from typing import Any

__all__ = ["power_bound", "power_text", "power_script"]


def _powers(e: tuple, out: list) -> list:
    if e[0] == "powsym" and e not in out:
        out.append(e)
    for child in e[1:]:
        if isinstance(child, tuple):
            _powers(child, out)
    return out


def power_bound(claim: Any) -> tuple[str, int] | None:
    """(n, m): the name of the claim's symbolic exponents and the largest integer lower bound
    ``n >= m`` its assumptions give; None when the claim has no symbolic power."""
    from verify.claims.parser import constant_value

    found: list = []
    for r in (*claim.assumptions, *claim.goals):
        if r.op != "integer":
            _powers(r.lhs, found)
            _powers(r.rhs, found)
    if not found:
        return None
    n = found[0][2][1]
    best = None
    for r in claim.assumptions:
        lhs, op, rhs = r.lhs, r.op, r.rhs
        if op in ("<=", "<"):
            lhs, rhs, op = rhs, lhs, {"<=": ">=", "<": ">"}[op]
        value = constant_value(rhs)
        if op not in (">=", ">") or lhs != ("sym", n) or value is None:
            continue
        bound = floor(value) + 1 if op == ">" else ceil(value)
        best = bound if best is None else max(best, bound)
    if best is None:
        return None
    return n, best


def power_text(base: str, e: tuple, low: int | None, error: type = ValueError) -> str:
    """``base ^ (T + k)`` for the node ``("powsym", base, n, c)``, k = low + c >= 0; ``error``
    when there is no lower bound or k < 0.

    >>> power_text("x", ("powsym", ("sym", "x"), ("sym", "n"), 1), 0)
    '(x ^ (T + 1))'
    """
    if low is None or low + e[3] < 0:
        raise error(f"the exponent of a power of {base} has no lower bound >= 0")
    return f"({base} ^ (T + {low + e[3]}))"


def power_script(names: list[str], hyp_names: list[str], n: str, low: int,
                 rename: Any = str) -> list[str]:
    """The proof: T natural with n = INR T + low, then induction on T (each power unfolds
    once in the step); ``nra`` gets the squares of the claim's names as hints.  ``rename``
    gives the Coq name of a claim's name."""
    n = rename(n)
    squares = " ".join(f"pose proof (pow2_ge_0 {x})." for x in names if x != n)
    return [f"  intros {' '.join(names + hyp_names)} T HT.",
            f"  assert (HN : {n} = INR T + {low}) by lra. subst {n}. clear HT.",
            "  repeat match goal with H : context [INR T] |- _ => clear H end.",
            f"  {squares}" if squares else "  idtac.",
            "  induction T as [|t IH].",
            "  - simpl. claim_close.",
            "  - rewrite ?S_INR. simpl pow. pose proof (pos_INR t). "
            "first [ claim_close | nra ]."]
