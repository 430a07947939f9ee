"""Trusted base: the one check that a number entering the kernel is exact (imports nothing).

Every entry of the kernel that takes a number from outside (certificate coefficients, data
rows and labels, run constants, exponents, lemma indices, expression leaves) goes through
:func:`exact_fraction` or :func:`is_exact_int`: a value is an exact number when it is an
``int`` (not a ``bool``) or a ``Fraction`` whose numerator and denominator are ints.  The value
that goes on is always rebuilt of builtin ints by ``int.__index__`` (the int's own value, not
what a subclass's ``numerator`` or comparison methods say), so a subclass cannot lie later.

>>> exact_fraction(3), exact_fraction(Fraction(1, 2)), exact_fraction(True), exact_fraction(0.5)
(Fraction(3, 1), Fraction(1, 2), None, None)
>>> is_exact_int(3), is_exact_int(True), is_exact_int(3.0)
(True, False, False)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

__all__ = ["EXACT_INT_TYPES", "exact_fraction", "is_exact_int"]

#: The one type an exact integer has inside the kernel (``bool`` and subclasses excluded);
#: bulk checks test ``set(map(type, values)) <= EXACT_INT_TYPES``.
EXACT_INT_TYPES = frozenset({int})


def is_exact_int(value: Any) -> bool:
    """True when ``value`` is a builtin int (no bool, no subclass, no float).

    >>> class Liar(int):
    ...     pass
    >>> is_exact_int(Liar(1))
    False
    """
    return type(value) is int


def _plain_int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return int.__index__(value)


def exact_fraction(value: Any) -> Fraction | None:
    """``value`` as a Fraction of builtin ints, or None when it is not an exact number.

    An int (or int subclass) gives its own value; a Fraction (or subclass) its reported
    numerator and denominator, which must be ints (not bools, floats or strings) with a nonzero
    denominator.  A plain Fraction of plain ints is returned itself (immutable, nothing to copy).

    >>> class Lying(Fraction):
    ...     numerator = property(lambda self: "1")
    >>> exact_fraction(Lying(1, 2)) is None
    True
    """
    if type(value) is Fraction and type(value.numerator) is int and \
            type(value.denominator) is int and value.denominator > 0:
        return value   # (a denominator forged <= 0 is rebuilt below: its sign goes up)
    whole = _plain_int(value)
    if whole is not None:
        return Fraction(whole)
    if not isinstance(value, Fraction):
        return None
    numerator, denominator = _plain_int(value.numerator), _plain_int(value.denominator)
    if numerator is None or not denominator:
        return None
    return Fraction(numerator, denominator)
