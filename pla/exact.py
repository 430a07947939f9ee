"""Exact numbers from text: decimals, exponents and ``p/q`` become rationals, never floats.

>>> parse_number("0.97681")
(97681, 100000)
>>> parse_number("-3/6")
(-1, 2)
>>> parse_number("1e-3")
(1, 1000)
>>> format_fraction(Fraction(6, 4))
'3/2'
"""

from __future__ import annotations

import re
from fractions import Fraction
from math import gcd
from typing import Sequence

__all__ = [
    "NumberError",
    "MAX_EXPONENT",
    "MAX_DIGITS",
    "parse_number",
    "is_number",
    "parse_fraction",
    "format_fraction",
    "to_fraction",
    "format_number",
    "format_vector",
]

#: The largest decimal exponent accepted in ``1eN`` (``10**100000`` is already 100,001 digits).
MAX_EXPONENT = 100_000
#: The largest number of digits accepted in one number (numerator or denominator).
MAX_DIGITS = 200_000

_DECIMAL = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?", re.ASCII)
_RATIO = re.compile(r"([+-]?\d+)\s*[/%]\s*([+-]?\d+)", re.ASCII)


class NumberError(ValueError):
    """A token that is not an exact number; the message says why, in a few words."""


def parse_number(token: str, *, max_digits: int = MAX_DIGITS,
                 max_exponent: int = MAX_EXPONENT) -> tuple[int, int]:
    """Parse one number exactly and return it reduced as ``(numerator, denominator)``.

    Accepted: integers (``-7``, ``+3``), decimals (``0.5``, ``.5``, ``5.``), scientific notation
    (``1e-3``, ``2.5E+4``) and ratios (``p/q``, and ``p % q`` as written by the Coq benchmark data).
    Refused with :class:`NumberError`: NaN, infinities, a zero denominator, anything else.

    >>> parse_number("+1")
    (1, 1)
    >>> parse_number("10 % 4")
    (5, 2)
    """
    text = token.strip()
    if not text:
        raise NumberError("empty number")
    if len(text) > max_digits + 32:
        raise NumberError(f"number too long ({len(text)} characters; the limit is {max_digits} "
                          "digits, see --max-digits)")
    if not text.isascii():
        raise NumberError(f"{_shorten(text)!r} is not a number")
    # Fast path: a plain integer.
    if text.isdigit() or (text[0] in "+-" and text[1:].isdigit()):
        return _int(text), 1
    ratio = _RATIO.fullmatch(text)
    if ratio is not None:
        num, den = _int(ratio.group(1)), _int(ratio.group(2))
        if den == 0:
            raise NumberError(f"zero denominator in {text!r}")
        if den < 0:
            num, den = -num, -den
        g = gcd(num, den)
        return num // g, den // g
    m = _DECIMAL.fullmatch(text)
    if m is None or not (m.group(2) or m.group(3)):
        lowered = text.lower().lstrip("+-")
        if lowered in ("nan", "inf", "infinity"):
            raise NumberError(f"{text!r} is not a finite number")
        raise NumberError(f"{_shorten(text)!r} is not a number")
    sign, whole, frac, exp = m.group(1), m.group(2) or "", m.group(3) or "", m.group(4)
    num = _int(whole + frac) if (whole + frac) else 0
    den_exp = len(frac)
    if exp is not None:
        e = int(exp)
        if abs(e) > max_exponent:
            raise NumberError(f"exponent {e} is too large (the limit is {max_exponent}, see "
                              "--max-exponent)")
        den_exp -= e
    if num == 0:
        return 0, 1
    if den_exp >= 0:
        den = 10**den_exp
    else:
        num *= 10 ** (-den_exp)
        den = 1
    if sign == "-":
        num = -num
    g = gcd(num, den)
    return num // g, den // g


def is_number(token: str) -> bool:
    """Whether ``token`` reads as one exact number (used to tell a csv header from data).

    >>> is_number("3/4"), is_number("1e-3"), is_number("x1")
    (True, True, False)
    """
    try:
        parse_number(token)
    except NumberError:
        return False
    return True


def parse_fraction(token: str) -> Fraction:
    """Parse one number exactly into a :class:`~fractions.Fraction`.

    >>> parse_fraction("0.1") == Fraction(1, 10)
    True
    """
    num, den = parse_number(token)
    return Fraction(num, den)


def to_fraction(value: object) -> Fraction:
    """Convert an int, Fraction or numeric string to a Fraction exactly; floats are refused.

    Floats are refused because their binary value is rarely the number that was meant
    (``0.1`` is not 1/10); pass a string instead.

    >>> to_fraction("2/4")
    Fraction(1, 2)
    """
    if isinstance(value, bool):
        raise TypeError("a bool is not a number here")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, str):
        return parse_fraction(value)
    if hasattr(value, "numerator") and hasattr(value, "denominator") and not isinstance(value, float):
        return Fraction(int(value.numerator), int(value.denominator))  # type: ignore[attr-defined]
    if type(value).__name__.startswith(("int", "uint")) and hasattr(value, "__index__"):
        return Fraction(int(value))  # numpy integers
    raise TypeError(
        f"{value!r} ({type(value).__name__}) is not exact; pass an int, a Fraction or a string"
    )


def format_fraction(value: Fraction | int) -> str:
    """The canonical text of an exact number: ``p`` or ``p/q`` (Python's ``str(Fraction)``).

    >>> format_fraction(Fraction(-4, 2))
    '-2'
    """
    return str(Fraction(value))


_CHUNK = 4000  # below CPython's default limit on int(str) (4300 digits)


def _int(digits: str) -> int:
    """``int(digits)`` for any length, whatever ``sys.get_int_max_str_digits()`` says.

    >>> _int("-" + "9" * 10000) == -(10**10000 - 1)
    True
    """
    if len(digits) <= _CHUNK:
        return int(digits)
    sign = 1
    if digits[0] in "+-":
        sign = -1 if digits[0] == "-" else 1
        digits = digits[1:]
    half = len(digits) // 2
    high, low = digits[:-half], digits[-half:]
    return sign * (_int(high) * 10**half + _int(low))


def format_number(value: Fraction | int, limit: int = 40) -> str:
    """The exact text of a number, or for a very long one an exactly computed abbreviation.

    Numbers whose text is longer than ``limit`` are shown as a 6-digit decimal approximation
    (computed with integers, truncated toward zero), marked ``≈``, and their size; machine
    outputs (``--json``, traces) always carry the exact text.

    >>> format_number(Fraction(-3, 2))
    '-3/2'
    >>> format_number(Fraction(10**50 + 1, 3 * 10**49))
    '≈3.33333 (exact: a 51/50-digit fraction)'
    >>> format_number(Fraction(-(10**50 + 1), 3 * 10**51))
    '≈-0.0333333 (exact: a 51/52-digit fraction)'
    >>> format_number(Fraction(10**60 + 1, 3))
    '≈3.33333e+59 (exact: a 61/1-digit fraction)'
    """
    value = Fraction(value)
    text = str(value)
    if len(text) <= limit:
        return text
    num, den = abs(value.numerator), value.denominator
    exponent = len(str(num)) - len(str(den))   # floor(log10 |value|) is this or one less
    if _times_power_of_ten(num, -exponent) < den:
        exponent -= 1
    scaled = _times_power_of_ten(num, 5 - exponent) // den if exponent <= 5 else \
        num // (den * 10 ** (exponent - 5))
    digits = str(scaled)                       # 6 significant digits, truncated
    if 0 <= exponent <= 4:
        shown = f"{digits[:exponent + 1]}.{digits[exponent + 1:]}"
    elif -4 <= exponent < 0:
        shown = "0." + "0" * (-exponent - 1) + digits
    else:
        shown = f"{digits[0]}.{digits[1:]}e{exponent:+d}"
    sign = "-" if value < 0 else ""
    size = (f"{len(str(num))}/{len(str(den))}-digit fraction" if den != 1
            else f"{len(str(num))}-digit integer")
    return f"≈{sign}{shown} (exact: a {size})"


def format_count(count: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun, singular for 1: ``1 update``, ``1,000,000 updates``.

    >>> format_count(1, "update"), format_count(0, "epoch"), format_count(10**6, "update")
    ('1 update', '0 epochs', '1,000,000 updates')
    >>> format_count(2, "process", "processes")
    '2 processes'
    """
    word = noun if count == 1 else (plural if plural is not None else noun + "s")
    return f"{count:,} {word}"


def _times_power_of_ten(num: int, power: int) -> int | Fraction:
    return num * 10**power if power >= 0 else Fraction(num, 10**-power)


def format_vector(values: "Sequence[Fraction | int]", limit: int = 8) -> str:
    """``(a, b, c)`` with :func:`format_number` entries, shortened to ``limit`` entries.

    >>> format_vector([Fraction(1, 2), Fraction(3)])
    '(1/2, 3)'
    >>> format_vector(range(10), limit=3)
    '(0, 1, 2, ... (10 entries; --json shows all))'
    """
    shown = ", ".join(format_number(v) for v in list(values)[:limit])
    if len(values) > limit:
        shown += f", ... ({len(values)} entries; --json shows all)"
    return f"({shown})"


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
