"""Symbolic powers ``x**(n + c)`` of a proved claim, written for Coq (``pla claims --coq``).

Role: untrusted (Coq checks what it writes).  Like a symbolic sum, a claim with ``x**(n + c)``
(n declared ``n integer`` with a lower bound ``n >= m``) is stated for a natural ``T`` with
``INR T = n - m``, and ``x**(n + c)`` is printed ``x ^ (T + (m + c))`` (Coq's ``pow`` takes a
``nat``); the proof is ``induction T``, as in the kernel.

>>> from verify.claims.parser import parse_claim
>>> claim = parse_claim("assume: n >= 1, n integer, x >= 1\\nx**(n + 1) >= x")
>>> power_bound(claim)
('n', 1)
>>> power_bound(parse_claim("assume: n >= 0, n integer\\nSum(2**k, (k, 0, n)) == 2**(n + 1) - 1"))
('n', -1)
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
    """(n, m): the name of the claim's symbolic exponents and the integer ``m`` with
    ``n = INR T + m`` in the Coq statement: the largest lower bound ``n >= m`` of the
    assumptions, or ``low - 1`` for a symbolic sum from ``low`` to ``n``; None when the claim
    has no symbolic power."""
    from verify.claims.parser import constant_value

    found: list = []
    for r in (*claim.assumptions, *claim.goals):
        if r.op != "integer":
            _powers(r.lhs, found)
            _powers(r.rhs, found)
    if not found:
        return None
    sums = [side for g in claim.goals for side in (g.lhs, g.rhs) if side[0] == "sum"]
    if sums:
        return sums[0][4][1], sums[0][3] - 1
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


def power_text(printer: Any, e: tuple, error: type = ValueError) -> str:
    """``base ^ (T + k)`` for the node ``("powsym", base, n, c)``, k = m + c >= 0 (m the
    printer's ``power_low``); ``ipow base (k + c)`` for a power of a sum's index ``k``;
    ``error`` when there is no lower bound or k < 0."""
    base = printer.scalar(e[1])
    if printer.sums and e[2][1] == printer.sums[0][2]:  # a power of the sum's index
        exponent = printer.scalar(e[2]) if e[3] == 0 else \
            f"({printer.scalar(e[2])} + {e[3]})" if e[3] > 0 else \
            f"({printer.scalar(e[2])} - {-e[3]})"
        return f"(ipow {base} {exponent})"
    low = printer.power_low
    if low is None or low + e[3] < 0:
        raise error(f"the exponent of a power of {base} has no lower bound >= 0")
    return f"({base} ^ (T + {low + e[3]}))"


def power_script(printer: Any, claim: Any, names: list[str], hyp_names: list[str],
                 rename: Any = str) -> list[str]:
    """The proof: T natural with n = INR T + m, then induction on T (each power unfolds once
    in the step, a power of a sum's index by ``ipow_nat``); ``nra`` gets the squares of the
    claim's names as hints."""
    name, low = power_bound(claim)
    n = rename(name)
    squares = " ".join(f"pose proof (pow2_ge_0 {x})." for x in names if x != n)
    lines = [f"  intros {' '.join(names + hyp_names)} T HT.",
             f"  assert (HN : {n} = INR T + {low}) by lra. subst {n}. clear HT.",
             "  repeat match goal with H : context [INR T] |- _ => clear H end.",
             f"  {squares}" if squares else "  idtac."]
    sums = [side for g in claim.goals for side in (g.lhs, g.rhs) if side[0] == "sum"]
    if not sums:
        return lines + ["  induction T as [|t IH].", "  - simpl. claim_close.",
                        "  - rewrite ?S_INR. simpl pow. pose proof (pos_INR t). "
                        "first [ claim_close | nra | (powers_nonneg; nra) ]."]
    _, body, index, start, _ = sums[0]
    conditions = [d for kind, d in _nonzero(claim.goals) if kind == "nonzero"]
    if len(conditions) > 1:
        raise ValueError("a symbolic sum with powers divides by one expression at most")
    for d in conditions:  # d <> 0 from an assumption d' <> 0 it is up to sign, or r < 1
        lines += [f"  assert (D1 : {printer.scalar(d)} <> 0) by (intro; first [ lra | match "
                  f"goal with H : _ <> _ |- _ => apply H; lra end ]).", "  refine (conj D1 _)."]
    geometric = _geometric(body, index)
    if geometric is not None and claim.goals[0].op != "==":  # a bound: from the closed form
        coefficient, base = (printer.scalar(e) for e in geometric)
        return lines + [f"  geometric_bound {coefficient} {base} {start}%nat."]
    rewrites = " ".join(f"rewrite (ipow_nat {printer.scalar(p[1])} (t + {start + p[3]})) by "
                        f"(rewrite plus_INR; simpl INR; lra)."
                        for p in _powers(body, []) if p[2] == ("sym", index))
    close = "first [ claim_close | (field; assumption) ]"
    return lines + ["  induction T as [|t IH].",
                    f"  - simpl. {close}.",
                    f"  - cbn [psum]. rewrite ?S_INR. cbv beta. {rewrites} simpl pow. "
                    f"pose proof (pos_INR t). rewrite IH; {close}."]


def _geometric(body: tuple, index: str) -> tuple | None:
    """(c, r) when the summand is ``r**k`` or ``c*r**k`` (c, r free of the index k), else None.

    >>> _geometric(("mul", ("num", 2), ("powsym", ("sym", "r"), ("sym", "k"), 0)), "k")
    (('num', 2), ('sym', 'r'))
    """
    from verify.claims.elaborate import names_in

    coefficient, power = (("num", 1), body) if body[0] == "powsym" else \
        (body[1], body[2]) if body[0] == "mul" and len(body) == 3 else (None, None)
    if power is None or power[0] != "powsym" or power[2] != ("sym", index) or power[3] != 0 or \
            index in names_in(power[1]) | names_in(coefficient):
        return None
    return coefficient, power[1]


def _nonzero(relations: Any) -> list:
    from verify.coq.claim_files import _conditions

    return _conditions(relations)
