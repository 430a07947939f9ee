"""Trusted base: the registry of checked theorems (:func:`is_checked`).

Imports only :mod:`verify.kernel.terms` and :mod:`verify.kernel.statements` (it sits above both,
so that the canonical printer never imports the objects' module back: no import cycle).

>>> is_checked(object())
False
"""

from __future__ import annotations

from typing import Any

from verify.kernel.statements import statement_text
from verify.kernel.terms import CheckedTheorem, Derivation, Fact, Theorem  # noqa: F401 (doctest)

__all__ = ["is_checked"]


#: Every CheckedTheorem the kernel issued, by id: the object itself (so that its id is never
#: reused) and what it said when it was issued, including the canonical text of its statement.
_ISSUED: dict[int, tuple] = {}


def _record(checked: CheckedTheorem) -> tuple:
    return (checked.theorem, statement_text(checked.theorem), checked.rules, checked.declared,
            checked.lemmas, checked.steps)


def _issue(checked: CheckedTheorem) -> CheckedTheorem:
    """Register ``checked`` as issued by the kernel (called by check_theorem only)."""
    _ISSUED[id(checked)] = (checked, _record(checked))
    return checked


def is_checked(obj: Any) -> bool:
    """True when ``obj`` is a CheckedTheorem that :func:`check_theorem` returned and that still
    says what it said then (same theorem object, same statement text, same rules and lemmas).

    >>> import dataclasses, sympy
    >>> from verify.kernel import check_theorem
    >>> a = sympy.Symbol("a", real=True)
    >>> done = check_theorem(Theorem("t", "t", (), (), (), (Fact(a, "=", a),), Derivation(())))
    >>> is_checked(done), is_checked(dataclasses.replace(done, steps=0))
    (True, False)
    """
    entry = _ISSUED.get(id(obj))
    if entry is None or entry[0] is not obj:
        return False
    try:
        now = _record(obj)
    except Exception:  # an object edited into something the kernel cannot even print
        return False
    return now[0] is entry[1][0] and now[1:] == entry[1][1:]
