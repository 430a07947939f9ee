"""Trusted base: a claim's statement as the reader writes it, printed by the kernel.

Imports only the kernel's own modules and sympy (lazily).  :func:`statement_display` prints
what :func:`verify.kernel.check_claim` proved: what it quantifies over, the assumptions and the
goals, with each atom printed from its kind and argument and each power from its base and
exponent (never from the text the elaborator recorded with them, ``shown``).  Two atoms or
powers with one symbol and an atom defined by itself are refused.

>>> import sympy
>>> from verify.kernel.claim_statements import Atom, ClaimStatement, Goal
>>> x, s = sympy.symbols("x _sqrt1", real=True)
>>> st = ClaimStatement(atoms=(Atom(s, "sqrt", x, "sqrt(x + 7)"),),
...                     goals=(Goal(s, ">=", 0),))
>>> print(statement_display(st))
for all real x: sqrt(x) >= 0
"""

from __future__ import annotations

from typing import Any

from verify.kernel.claim_names import statement_names as _names
from verify.kernel.claim_names import statement_symbols
from verify.kernel.statements import expression_text
from verify.kernel.terms import DerivationError, _sympy

__all__ = ["statement_display"]


def statement_display(statement: Any) -> str:
    """The statement in the reader's notation: ``for all ... with <assumptions>: <goals>``,
    atoms shown as written (``sqrt(x)``, ``Abs(k - 1)``), inner products as ``dot(u, v)``."""
    sp = _sympy()
    sg = statement.sum
    atoms = statement.atoms + (sg.atoms if sg else ()) + statement.powers
    shown: dict = {}
    reader = {"=": "=="}

    def text(e: Any) -> str:
        return expression_text(sp.S(e).xreplace(shown)).replace("Dot(", "dot(")

    _print_atoms_and_powers(statement, shown, text)

    names = sorted(_names(statement) - set(statement.vectors) - {str(a.symbol) for a in atoms}
                   - {str(a.symbol.base.label) for a in atoms
                      if isinstance(a.symbol, sp.Indexed)}
                   - ({str(sg.index)} if sg else set()))
    integers = {str(n) for n in statement.integers}
    quantified = []
    reals = [x for x in names if x not in integers]
    if reals:
        quantified.append(f"real {', '.join(reals)}")
    if integers:
        quantified.append(f"integer {', '.join(sorted(integers))}")
    if statement.vectors:
        quantified.append(f"vectors {', '.join(sorted(statement.vectors))}")
    head = f"for all {' and '.join(quantified)}" if quantified else "for all values"
    conditions = [f"{text(f.lhs)} {reader.get(f.rel, f.rel)} {text(f.rhs)}"
                  for f in statement.assumptions]
    conditions += [f"{text(e)} != 0" for e in statement.nonzero]
    goals = [f"{text(g.lhs)} {reader.get(g.op, g.op)} {text(g.rhs)}" for g in statement.goals]
    if sg is not None:
        goals.append(f"Sum({text(sg.summand)}, ({sg.index}, {sg.low}, {sg.upper})) "
                     f"{reader.get(sg.rel, sg.rel)} "
                     f"{text(sg.closed)}")
    with_ = f" with {', '.join(conditions)}" if conditions else ""
    return f"{head}{with_}: {', '.join(goals)}"


_ATOM_FUNCTIONS = {"sqrt": "sqrt", "abs": "Abs"}


def _print_atoms_and_powers(statement: Any, shown: dict, text: Any) -> None:
    """Fill ``shown`` (symbol -> a symbol named as the reader writes it) for every atom and
    power, printed from its own argument or base: a record's ``shown`` text is the elaborator's
    and is never used.  One symbol is one atom or power; an atom's argument may use only atoms
    printed before it (inner atoms first), so none is defined by itself."""
    sp = _sympy()
    atoms = list(statement.atoms + (statement.sum.atoms if statement.sum else ()))
    symbols = [a.symbol for a in atoms] + [p.symbol for p in statement.powers]
    if len(set(symbols)) != len(symbols):
        raise DerivationError("two atoms or powers of the claim share one symbol")
    _check_names(statement, {s.base.label if isinstance(s, sp.Indexed) else s
                             for s in symbols})
    while atoms:
        ready = [a for a in atoms if not any(sp.S(a.argument).has(b.symbol) for b in atoms)]
        if not ready:
            raise DerivationError(f"the argument of {atoms[0].symbol} uses itself")
        for a in ready:
            if a.kind not in _ATOM_FUNCTIONS:
                raise DerivationError(f"unknown atom kind {a.kind!r}")
            shown[a.symbol] = sp.Symbol(f"{_ATOM_FUNCTIONS[a.kind]}({text(a.argument)})")
        atoms = [a for a in atoms if all(a is not r for r in ready)]
    for p in statement.powers:
        base = sp.S(p.base)
        bare = base.is_Symbol or (base.is_Integer and base >= 0)
        exponent = f"{p.variable}" if p.offset == 0 else \
            f"({p.variable} {'+' if p.offset > 0 else '-'} {abs(p.offset)})"
        shown[p.symbol] = sp.Symbol(f"{text(base) if bare else f'({text(base)})'}**{exponent}")


def _check_names(statement: Any, fresh: set) -> None:
    """Every symbol of the statement is named by an ASCII identifier, one name is one symbol
    (hypotheses are compared by their text), and the atoms' and powers' symbols (``fresh``)
    are exactly those whose name starts with ``_``, which no name a reader writes does: an
    atom cannot stand for a claim variable, nor a power for its own exponent."""
    seen: dict = {}
    for s in statement_symbols(statement):
        if not (s.name.isidentifier() and s.name.isascii()):
            raise DerivationError(f"the symbol {s.name!r} is not named by an ASCII identifier")
        if seen.setdefault(s.name, s) != s:
            raise DerivationError(f"two different symbols of the claim are named {s.name}")
        if s in fresh and not s.name.startswith("_"):
            raise DerivationError(f"the atom or power symbol {s.name} is not named with a "
                                  f"leading _ (it could stand for a claim variable)")
        if s not in fresh and s.name.startswith("_"):
            raise DerivationError(f"the symbol {s.name} is named with a leading _ but stands "
                                  f"for no atom or power of the claim")
