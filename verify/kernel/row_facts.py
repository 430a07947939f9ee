"""Trusted base: the per-row facts of a checked run, on whole arrays, and sparse multipliers.

:func:`row_facts` gives, from one validated copy of the data, ‖rowₙ‖² for every row (R² is
their largest over L²) and, for an integer vector F (w_f = F/D_f), yₙ F·rowₙ for every row
(ρ is their smallest over D_f·L).  Each list is a read-only numpy int64 array when a bound
proves every sum of it exact in int64 (numpy's integer products wrap around silently), else a
tuple of Python ints; either way ``int(values[n])`` is the exact integer.
:func:`sparse_multipliers` reads multipliers given as ``{row: value}`` (every other one 0), so
that a check with few nonzero multipliers costs their number, not the number of rows.

>>> facts = row_facts(((1, 2), (3, -4)), (1, -1), [5, 1], with_norms=True)
>>> list(map(int, facts.norms)), facts.largest_norm, list(map(int, facts.margins))
([5, 25], 25, [7, -11])
>>> facts.smallest_margin, facts.argmin
(-11, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction  # noqa: F401 (the doctests)
from math import lcm
from operator import mul
from typing import Any

from verify.kernel.data_checks import (_INT, _SEQUENCES, CertificateError, _check_data,
                                       _data_rows, _exact_number)
from verify.kernel.exact import has_only_types, type_is_one_of
from verify.kernel.products import _INT64_SAFE_BITS, _idot, _int64_rows, _products, _python_rows

__all__ = ["RowFacts", "row_facts", "sparse_multipliers"]


@dataclass(frozen=True)
class RowFacts:
    """What :func:`row_facts` computed: ``norms`` ‖rowₙ‖² and their largest (None when not
    asked for); with a vector F, ``margins`` yₙ F·rowₙ, their smallest and the first row
    attaining it (else None)."""

    norms: Any
    largest_norm: int | None
    margins: Any = None
    smallest_margin: int | None = None
    argmin: int | None = None


def row_facts(rows: Any, labels: Any, F: Any = None, with_norms: bool = False) -> RowFacts:
    """``with_norms``: ‖rowₙ‖² for every row; with F, yₙ F·rowₙ for every row; exactly (see the
    module doc).

    ``rows`` and ``labels`` as :func:`verify.kernel.certificates.check_separator` takes them
    (a tuple or list of rows of ints, or a numpy int64 matrix; labels ±1); F a list or tuple
    of ``dim`` ints.  Without ``with_norms``, ``norms`` and ``largest_norm`` are None.

    >>> row_facts([[1, 2]], [1], [1.5, 0])
    Traceback (most recent call last):
    verify.kernel.data_checks.CertificateError: F must be a tuple or list of 2 ints
    """
    rows = _data_rows(rows)
    dim = _check_data(rows, 1, labels)
    if F is not None:
        F = list(F) if type_is_one_of(F, _SEQUENCES) else None
        if F is None or len(F) != dim or not has_only_types(F, _INT):
            raise CertificateError(f"F must be a tuple or list of {dim} ints")
    return _checked_row_facts(rows, labels, F, dim, with_norms)


def _checked_row_facts(rows: Any, labels: Any, F: list[int] | None, dim: int,
                       with_norms: bool = False) -> RowFacts:
    """:func:`row_facts` of data the caller has checked (``_data_rows``, ``_check_data``: rows
    of ``dim`` ints, labels ±1) and of F None or a list of ``dim`` plain ints."""
    matrix, biggest = _int64_rows(rows, dim)
    norms: Any = None
    largest = None
    if with_norms and matrix is not None and \
            (dim * biggest * biggest).bit_length() <= _INT64_SAFE_BITS:
        import numpy as np

        # every sum ≤ dim·max² < 2⁶² (einsum: no n × dim temporary, as (matrix * matrix).sum)
        norms = _read_only(np.einsum("ij,ij->i", matrix, matrix))
        largest = int(norms.max())
    elif with_norms:
        norms = tuple(_idot(row, row) for row in _python_rows(rows))
        largest = max(norms)
    if F is None:
        return RowFacts(norms, largest)
    # every Fᵢ and every partial sum of F·rowₙ is at most Σ|Fᵢ|·max(1, max|entry|): one int64
    # product is exact when that is < 2⁶²
    if matrix is not None and \
            (sum(map(abs, F)) * max(biggest, 1)).bit_length() <= _INT64_SAFE_BITS:
        import numpy as np

        # (yₙ = ±1: the product of a proved-exact score with it cannot wrap around)
        margins = _read_only(np.einsum("ij,j->i", matrix, np.array(F, dtype=np.int64)) *
                             _labels_as_vector(labels))
        n = int(margins.argmin())                           # (numpy: the first minimum)
        return RowFacts(norms, largest, margins, int(margins[n]), n)
    margins = tuple(map(mul, labels, _products(rows, F)))
    smallest = min(margins)
    return RowFacts(norms, largest, margins, smallest, margins.index(smallest))


#: The last tuple of labels :func:`_labels_as_vector` converted, and its int64 vector.
_LAST_LABEL_VECTOR: list[tuple[Any, Any]] = []


def _labels_as_vector(labels: Any) -> Any:
    """Checked labels (a tuple or list of ±1) as a read-only int64 vector (remembered for the
    last tuple: immutable, its vector cannot disagree with it later)."""
    if _LAST_LABEL_VECTOR and _LAST_LABEL_VECTOR[0][0] is labels:
        return _LAST_LABEL_VECTOR[0][1]
    import numpy as np

    vector = _read_only(np.array(labels, dtype=np.int64))
    if type(labels) is tuple:
        _LAST_LABEL_VECTOR[:] = [(labels, vector)]
    return vector


def _read_only(array: Any) -> Any:
    array.setflags(write=False)
    return array


def sparse_multipliers(values: Any, length: int, what: str) -> tuple[list[tuple[int, int]], int]:
    """Multipliers given as a dict {row: value} (every other row's is 0) as (pairs (row, Vₙ)
    in increasing row order, E > 0) with valueₙ = Vₙ / E; a row is a plain int in
    [0, ``length``), a value an exact number (a dict's keys are distinct, and a plain dict's
    items cannot lie; a subclass of dict is refused).

    >>> sparse_multipliers({2: Fraction(1, 2), 0: 3}, 5, "alpha")
    ([(0, 6), (2, 1)], 2)
    >>> sparse_multipliers({5: 1}, 5, "alpha")
    Traceback (most recent call last):
    verify.kernel.data_checks.CertificateError: alpha: row 5 (int) is not an int in [0, 5)
    """
    if type(values) is not dict:
        raise CertificateError(f"{what} is a {type(values).__name__}, not a dict {{row: value}}")
    rows = list(values)
    valid = has_only_types(rows, _INT) and (not rows or 0 <= min(rows) and max(rows) < length)
    if not valid:
        row = next(r for r in rows if type(r) is not int or not 0 <= r < length)
        raise CertificateError(f"{what}: row {row!r} ({type(row).__name__}) is not an int in "
                               f"[0, {length})")
    pairs = sorted(values.items())        # (distinct plain ints: only they are compared)
    if has_only_types(values.values(), _INT):     # builtin ints: E = 1, no Fraction made
        return pairs, 1
    numbers = [_exact_number(value, f"{what}[{row}]") for row, value in pairs]
    E = lcm(*(v.denominator for v in numbers)) if numbers else 1
    return [(row, v.numerator * (E // v.denominator)) for (row, _), v in zip(pairs, numbers)], E
