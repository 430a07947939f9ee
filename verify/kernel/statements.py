"""Trusted base: the canonical text of a statement (what lemma use and pinned statements compare).

Imports only :mod:`verify.kernel.errors` and sympy (lazily).  Only expressions that passed
:func:`verify.kernel.inputs.expression` are printed, so the text covers every node.

>>> import sympy
>>> expression_text(sympy.Rational(-1, 2) * sympy.Symbol("x"))
'-x/2'
"""

from __future__ import annotations

from typing import Any

from verify.kernel.errors import KernelError
from verify.kernel.exact import decimal_text, exact_fraction, type_is_one_of

__all__ = ["content_text", "expression_text", "statement_text"]


def _error(message: str) -> Exception:
    from verify.kernel.terms import DerivationError

    return DerivationError(message)


def expression_text(e: Any) -> str:
    """A canonical text of a checked expression, independent of sympy's printers: sums and
    products are printed with their parts sorted, numbers as ``p/q``, denominators after ``/``.

    >>> import sympy
    >>> R, rho, T = sympy.symbols("R rho T", real=True)
    >>> expression_text(R**2 / rho**2 - T)
    'R**2/rho**2 - T'
    """
    from verify.kernel.terms import _dot_class, _sympy

    sp = _sympy()
    kind = type(e)
    if isinstance(e, sp.Rational):
        return _digits(e.p) if e.q == 1 else f"{_digits(e.p)}/{_digits(e.q)}"
    if isinstance(e, sp.Symbol):
        return e.name
    if kind is sp.Indexed:
        return f"{e.base.label.name}[{', '.join(expression_text(i) for i in e.indices)}]"
    if kind is _dot_class():
        return f"Dot({expression_text(e.args[0])}, {expression_text(e.args[1])})"
    if kind is sp.Add:
        terms = sorted((_signed(t) for t in e.args), key=lambda st: (st[1][0].isdigit(), st[1], st[0]))
        text = ("-" if terms[0][0] else "") + terms[0][1]
        for negative, body in terms[1:]:
            text += (" - " if negative else " + ") + body
        return text
    if type_is_one_of(e, (sp.Mul, sp.Pow)):     # (by identity, as inputs.py admits them)
        negative, body = _signed(e)
        return ("-" if negative else "") + body
    raise _error(f"{e} has no canonical text")


def _signed(e: Any) -> tuple[bool, str]:
    """``(negative, text of |e|)`` for a term of a sum."""
    from verify.kernel.terms import _sympy

    sp = _sympy()
    factors = sp.Mul.make_args(e)
    coeff = sp.Integer(1)
    numerator, denominator = [], []
    for f in factors:
        if isinstance(f, sp.Rational):
            coeff *= f
        elif type(f) is sp.Pow and f.exp < 0:
            denominator.append(_power(f.base, -f.exp))
        else:
            numerator.append(_power(f.base, f.exp) if type(f) is sp.Pow else _atom(f))
    negative = bool(coeff < 0)
    coeff = abs(coeff)
    parts = sorted(numerator)
    if coeff.p != 1:
        parts.insert(0, _digits(coeff.p))
    top = "*".join(parts) or "1"
    if coeff.q != 1:
        denominator.insert(0, _digits(coeff.q))
    if not denominator:
        return negative, top
    bottom = "*".join(sorted(denominator))
    return negative, f"{top}/{bottom if len(denominator) == 1 else '(' + bottom + ')'}"


def _atom(e: Any) -> str:
    from verify.kernel.terms import _sympy

    text = expression_text(e)
    return f"({text})" if type(e) is _sympy().Add else text


def _power(base: Any, exponent: Any) -> str:
    from verify.kernel.terms import _sympy

    sp = _sympy()
    text = expression_text(base)
    if type_is_one_of(base, (sp.Add, sp.Mul, sp.Pow)) or (isinstance(base, sp.Rational) and
                                                   (base.q != 1 or base < 0)):
        text = f"({text})"
    if exponent == 1:
        return text
    shown = expression_text(exponent) if isinstance(exponent, sp.Rational) else str(exponent)
    return f"{text}**{shown}"


def _digits(n: Any) -> str:
    """A rational's numerator or denominator: a builtin int by :func:`decimal_text` (the same
    text whatever the process's digit limit), anything else as ``str`` prints it."""
    return decimal_text(n) if type(n) is int else str(n)


def statement_text(theorem: Any) -> str:
    """The canonical text of what ``theorem`` states (not its proof): its vectors, naturals,
    hypotheses, per-step hypotheses and conclusions, one per line.  Lemma use compares it with
    the text recorded when the lemma was checked; ``pla proof`` compares it with the pinned one.

    >>> import sympy
    >>> from verify.kernel.terms import Derivation, Fact, Hyp, Theorem
    >>> a = sympy.Symbol("a", real=True)
    >>> print(statement_text(Theorem("demo", "Demo", (), (), (Hyp("ha", Fact(a, ">=", 0)),),
    ...                                      (Fact(a**2 + a, ">=", 0),), Derivation(()))))
    theorem demo
    hypothesis ha: a >= 0
    conclusion 1: a + a**2 >= 0
    """
    def hyp_text(hyp: Any) -> str:
        try:
            return f"hypothesis {hyp.name}: {content_text(hyp.content)}"
        except _UnknownKind:
            raise _error(f"hypothesis {hyp.name}: unknown kind") from None

    lines = [f"theorem {theorem.name}"]
    if theorem.vectors:
        lines.append(f"vectors: {', '.join(sorted(str(v) for v in theorem.vectors))}")
    if theorem.naturals:
        lines.append(f"naturals: {', '.join(sorted(_text(n) for n in theorem.naturals))}")
    lines += [hyp_text(h) for h in theorem.hyps]
    family = theorem.family
    if family is not None:
        lines.append(f"for every {_text(family.index)} with 0 <= {_text(family.index)} < "
                     f"{_text(family.upper)}:")
        lines += ["  " + hyp_text(h) for h in family.hyps]
    lines += [f"conclusion {i}: {_text(c.lhs)} {c.rel} {_text(c.rhs)}"
              for i, c in enumerate(theorem.conclusions, 1)]
    return "\n".join(lines)


def _text(e: Any) -> str:
    from verify.kernel.terms import _sympy

    sp = _sympy()
    number = exact_fraction(e)
    if number is not None:
        return expression_text(sp.Rational(number.numerator, number.denominator))
    if not isinstance(e, sp.Basic):
        raise _error(f"{type(e).__name__} {e!r} is not an expression")
    return expression_text(e)


class _UnknownKind(KernelError):
    """Raised by content_text for an object that is no hypothesis (turned into a
    DerivationError naming the hypothesis by statement_text, or by check_claim)."""


def content_text(content: Any) -> str:
    """The canonical text of a fact, rewriting rule or vector definition (a hypothesis's body,
    without its name): what a claim's allowed hypotheses are compared by.

    >>> import sympy
    >>> from verify.kernel.terms import Fact, Rewrite
    >>> s, x = sympy.symbols("s x", real=True)
    >>> content_text(Fact(s, ">=", 0)), content_text(Rewrite(s, 2, x + 1))
    ('s >= 0', 's**2 = x + 1 (rewriting rule)')
    """
    from verify.kernel.terms import Fact, Rewrite, VectorDef

    c = content
    if isinstance(c, Fact):
        return f"{_text(c.lhs)} {c.rel} {_text(c.rhs)}"
    if isinstance(c, Rewrite):
        return f"{_text(c.target)}**{_digits(c.power)} = {_text(c.rhs)} (rewriting rule)"
    if isinstance(c, VectorDef):
        return f"{_text(c.vector)} := {_text(c.value)} (vector definition)"
    raise _UnknownKind(f"{c!r}: unknown kind of hypothesis")
