"""Numbers people can read: every long number folded the same way, counts with their noun.

- an exact number whose text is long is shown as a decimal to 6 significant digits, marked
  ``≈``, with its size (:func:`pla.exact.format_number`; ``--json`` and ``-v`` print it exactly);
- a bound on a number of updates is an integer: shown in full with thousands separators, and
  from a million on with its scientific form too (:func:`bound_text`); an integer of more than
  40 digits is folded to its scientific form and its size;
- a count is shown with its noun, singular or plural (:func:`pla.exact.format_count`).

>>> bound_text(14_459_289_768_964_798)
'14,459,289,768,964,798 ≈ 1.4·10¹⁶'
>>> bound_text(117), bound_text(10**60 + 7)
('117', '≈ 1.0·10⁶⁰ (a 61-digit integer)')
"""

from __future__ import annotations

from fractions import Fraction

from pla.exact import format_count, format_number

__all__ = ["bound_text", "scientific_text", "format_number", "format_count", "number_text",
           "equals_text", "FOLDED_NOTE"]

#: The line a text output ends with when it folded a number.
FOLDED_NOTE = "(≈: a long number folded to 6 significant digits; -v or --json print it exactly)"

#: Integers from this value on also get their scientific form.
SCIENTIFIC_FROM = 10**6
#: Integers with more digits than this are folded (scientific form and size only).
FOLD_DIGITS = 40
_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def scientific_text(value: int, digits: int = 2) -> str:
    """``value`` (an integer ≥ 1) as ``m·10ᵉ`` with ``digits`` significant digits, truncated
    (computed with integers: exact whatever the size).

    >>> scientific_text(14_459_289_768_964_798), scientific_text(999_999, 3)
    ('1.4·10¹⁶', '9.99·10⁵')
    """
    if value < 1:
        raise ValueError(f"scientific_text needs an integer >= 1, not {value}")
    exponent = len(str(value)) - 1
    leading = str(value)[:digits].ljust(digits, "0")
    mantissa = leading[0] + ("." + leading[1:] if digits > 1 else "")
    return f"{mantissa}·10{str(exponent).translate(_SUPERSCRIPTS)}"


def bound_text(value: int | Fraction) -> str:
    """An integer bound (a number of updates) as people read it; see the module doc.

    >>> bound_text(1_000_000)
    '1,000,000 ≈ 1.0·10⁶'
    """
    value = int(value)
    if value < SCIENTIFIC_FROM:
        return f"{value:,}"
    digits = len(str(value))
    if digits > FOLD_DIGITS:
        return f"≈ {scientific_text(value)} (a {digits}-digit integer)"
    return f"{value:,} ≈ {scientific_text(value)}"


def number_text(value: Fraction | int, exact: bool = False) -> str:
    """An exact number folded as everywhere else, or in full when ``exact`` (``-v``).

    >>> number_text(Fraction(10**50 + 1, 3 * 10**49)), number_text(Fraction(1, 3), exact=True)
    ('≈3.33333 (exact: a 51/50-digit fraction)', '1/3')
    """
    return str(Fraction(value)) if exact else format_number(value)


def equals_text(value: Fraction | int, exact: bool = False) -> str:
    """``= value``, or ``≈ decimal (exact: its size)`` for a folded one (see :func:`number_text`).

    >>> equals_text(Fraction(117)), equals_text(Fraction(10**50 + 1, 3 * 10**49))
    ('= 117', '≈ 3.33333 (exact: a 51/50-digit fraction)')
    """
    text = number_text(value, exact)
    return f"≈ {text[1:]}" if text.startswith("≈") else f"= {text}"
