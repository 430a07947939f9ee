"""Trusted base: the names a claim's statement uses, and fresh names for the kernel's inductions.

Imports only the kernel's own modules and sympy (lazily).  Split from
:mod:`verify.kernel.claim_statements` so that :mod:`verify.kernel.powers` uses them without an
import cycle.
"""

from __future__ import annotations

from typing import Any

from verify.kernel.terms import _sympy

__all__ = ["statement_names", "statement_symbols", "fresh_name"]


def statement_names(statement: Any) -> set[str]:
    """Every name the statement uses (symbols, indexed bases, vectors)."""
    return set(statement.vectors) | {s.name for s in statement_symbols(statement)}


def statement_symbols(statement: Any) -> set:
    """Every sympy Symbol the statement uses (an indexed base by its label)."""
    sp = _sympy()
    exprs: list = [*statement.integers, *statement.nonzero]
    exprs += [x for f in statement.assumptions for x in (f.lhs, f.rhs)]
    exprs += [x for g in statement.goals for x in (g.lhs, g.rhs)]
    exprs += [d.expr for d in statement.domains]
    sg = statement.sum
    atoms = statement.atoms + (sg.atoms if sg else ())
    exprs += [x for a in atoms for x in (a.symbol, a.argument)]
    exprs += [x for p in statement.powers for x in (p.symbol, p.base, p.variable)]
    if sg is not None:
        exprs += [sg.index, sg.upper, sg.summand, sg.closed]
    symbols: set = set()
    for e in exprs:
        for s in sp.S(e).atoms(sp.Symbol, sp.Indexed):
            symbols.add(s.base.label if isinstance(s, sp.Indexed) else s)
    return symbols


def fresh_name(base: str, used: set[str]) -> str:
    """``base``, or ``base1``, ``base2``... the first not in ``used`` (and add it there).

    >>> fresh_name("T", {"T", "T1"})
    'T2'
    """
    name, k = base, 0
    while name in used:
        k += 1
        name = f"{base}{k}"
    used.add(name)
    return name
