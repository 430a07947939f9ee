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

__all__ = ["EXACT_INT_TYPES", "decimal_text", "exact_fraction", "has_only_types", "is_exact_int",
           "type_is_one_of"]

#: The one type an exact integer has inside the kernel (``bool`` and subclasses excluded);
#: bulk checks test ``has_only_types(values, EXACT_INT_TYPES)``.
EXACT_INT_TYPES = frozenset({int})


def has_only_types(values: Any, types: Any) -> bool:
    """True when the type of every value is one of ``types``, each compared by identity.

    Not ``set(map(type, values)) <= types``: a set compares types by their metaclass's
    ``__eq__`` and ``__hash__``, which a class can write to say it is ``int``.  Ids are ints.

    >>> class ClaimsInt(type):
    ...     __eq__ = lambda cls, other: other is int or type.__eq__(cls, other)
    ...     __hash__ = lambda cls: hash(int)
    >>> class Fake(int, metaclass=ClaimsInt):
    ...     pass
    >>> set(map(type, [1, Fake(2)])) <= {int}, has_only_types([1, Fake(2)], {int})
    (True, False)
    """
    return set(map(id, map(type, values))) <= set(map(id, types))


def type_is_one_of(value: Any, types: Any) -> bool:
    """True when ``value``'s type is one of ``types`` by identity (``type(v) in types`` asks
    the metaclass's ``__eq__``).

    >>> type_is_one_of((1,), (tuple, list)), type_is_one_of(True, (int,))
    (True, False)
    """
    return any(type(value) is t for t in types)


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


#: An int below this has fewer than 640 digits, the least that ``sys.set_int_max_str_digits``
#: accepts (and the length below which CPython never checks the limit): ``str`` prints it.
_SHORT = 10 ** 600


def decimal_text(n: int) -> str:
    """``str(n)`` for a builtin int of any size, in every process: the canonical text of a
    statement must not depend on ``sys.get_int_max_str_digits()``, process-wide state that the
    CLI and the tests lift and a notebook, mkdocs or Sphinx keeps at 4300 digits.  A long int
    is cut in two by ``divmod`` with a power of ten until every piece prints under any limit.

    >>> decimal_text(-(10 ** 700 + 7)) == "-1" + "0" * 699 + "7"
    True
    """
    if n < 0:
        return "-" + decimal_text(-n)
    if n < _SHORT:
        return str(n)
    half = n.bit_length() * 3 // 20          # (at most half of n's digits: high >= 1)
    high, low = divmod(n, 10 ** half)
    return decimal_text(high) + decimal_text(low).rjust(half, "0")
