"""Trusted base: the checks of the data every certificate check reads, and the kernel's refusal.

The data rows come as a tuple or list of rows of ints, or as a numpy int64 matrix
(:func:`_data_rows`: the kernel checks it in one pass and works on its own copy), with a tuple
or list of labels ±1 (:func:`_check_data`).  :mod:`verify.kernel.certificates` and
:mod:`verify.kernel.row_facts` both read the data through these functions (this module imports
neither of them).

>>> _check_data(((1, 2), (3, 4)), 1, (1, -1))
2
>>> _check_data(((1, 2), (3, 4)), 1, (1, 0))
Traceback (most recent call last):
verify.kernel.data_checks.CertificateError: label of row 1 is 0, not +1 or -1
"""

from __future__ import annotations

import sys
from fractions import Fraction
from itertools import chain
from typing import Any

from verify.kernel.errors import KernelError
from verify.kernel.exact import (EXACT_INT_TYPES, exact_fraction, has_only_types, is_exact_int,
                                 type_is_one_of)
from verify.kernel.products import _LAST_INT64

__all__ = ["CertificateError"]


class CertificateError(KernelError):
    """A certificate the kernel rejects; ``index`` is the 0-based data row at fault, if any.

    >>> str(CertificateError("row 2: y w.x = -1 <= 0", index=2))
    'row 2: y w.x = -1 <= 0'
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


def _exact_number(value: Any, what: str) -> Fraction:
    """``value`` as a Fraction of plain ints (:func:`verify.kernel.exact.exact_fraction`): no
    subclass (of int or Fraction, or inside a Fraction) survives into the kernel's comparisons
    and arithmetic, where it could lie."""
    number = exact_fraction(value)
    if number is not None:
        return number
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise CertificateError(f"{what} is {value!r} ({type(value).__name__}); "
                               "the kernel accepts only ints and Fractions")
    raise CertificateError(f"{what} is {value!r}: not a ratio of ints")


#: The last data that passed :func:`_check_data` when they were immutable (a tuple of tuples
#: and a tuple of labels): the checks of one data set validate them once.
_LAST_VALID: list[tuple[Any, Any, int]] = []
#: The last tuple of labels that passed :func:`_check_data` (the labels of an int64 matrix,
#: which is checked afresh at every call).
_LAST_LABELS: list[Any] = []


def _check_data(rows: Any, scale: Any, labels: Any) -> int:
    """The dimension of the rows, after checking the data: ``rows`` a tuple or list of rows of
    ``dim`` ints or the kernel's own int64 matrix (:func:`_data_rows`), as many labels, each
    +1 or -1."""
    if not is_exact_int(scale) or scale <= 0:
        raise CertificateError(f"scale must be a positive int, not {scale!r}")
    if _LAST_VALID and _LAST_VALID[0][0] is rows and _LAST_VALID[0][1] is labels:
        return _LAST_VALID[0][2]
    matrix = _own_matrix(rows)
    if not type_is_one_of(labels, _SEQUENCES) or not type_is_one_of(rows, _SEQUENCES) and \
            not matrix:
        raise CertificateError("the data must be a tuple or list of rows and one of labels")
    if len(rows) == 0 or len(rows) != len(labels):
        raise CertificateError(f"{len(rows)} rows and {len(labels)} labels")
    dim = len(rows[0])
    # one pass over all entries at once; only at a fault, a second one for its row
    labels_valid = _LAST_LABELS and _LAST_LABELS[0] is labels or \
        has_only_types(labels, _INT) and set(labels) <= {1, -1}
    if not (labels_valid and (matrix or _rows_of_ints(rows, dim))):
        _first_bad_row(rows, labels, dim)
    if type(labels) is tuple:
        _LAST_LABELS[:] = [labels]
    if type(rows) is tuple and type(labels) is tuple and \
            has_only_types(rows, (tuple,)):
        _LAST_VALID[:] = [(rows, labels, dim)]
    return dim


#: |entry| < this bound for every entry of an int64 data matrix: the bound of
#: :func:`verify.kernel.products._int64_rows`, which sizes the int64 products' limbs from it.
_INT64_ENTRY_BOUND = 2**31


def _data_rows(rows: Any) -> Any:
    """``rows`` as the checks read them: a tuple or list as given (checked by the caller), or,
    for a numpy array, the kernel's own read-only copy of it, after checking that it is an
    ``ndarray`` itself (no subclass: its methods could lie), of dtype int64, two-dimensional,
    with a row and a column at least, C-contiguous, and every |entry| < 2³¹ (one pass for the
    largest and smallest entry, on the copy: a change the caller makes to its array later
    reaches nothing the kernel checked or remembers).

    >>> import numpy as np
    >>> _data_rows(np.array([[1, -2]])).tolist(), _data_rows(((1, -2),))
    ([[1, -2]], ((1, -2),))
    >>> _data_rows(np.array([[1, 2**31]]))
    Traceback (most recent call last):
    verify.kernel.data_checks.CertificateError: row 0 of the data matrix has an entry of magnitude >= 2**31
    """
    numpy = sys.modules.get("numpy")       # (no numpy loaded: rows cannot be an array)
    if numpy is None or not isinstance(rows, numpy.ndarray):
        return rows
    if type(rows) is not numpy.ndarray:
        raise CertificateError(f"the data matrix is a {type(rows).__name__}, not a numpy "
                               "ndarray itself")
    if rows.dtype != numpy.int64 or not rows.dtype.isnative:
        raise CertificateError(f"the data matrix has dtype {rows.dtype}, not int64")
    if rows.ndim != 2 or 0 in rows.shape:
        raise CertificateError(f"the data matrix has shape {rows.shape}, not rows by columns")
    if not rows.flags.c_contiguous:
        raise CertificateError("the data matrix is not C-contiguous (a view of another array)")
    matrix = rows.copy()
    matrix.setflags(write=False)
    biggest = max(int(matrix.max()), -int(matrix.min()))   # (not np.abs: it wraps -2⁶³)
    if biggest >= _INT64_ENTRY_BOUND:
        n = int(numpy.argmax((matrix >= _INT64_ENTRY_BOUND).any(axis=1) |
                             (matrix <= -_INT64_ENTRY_BOUND).any(axis=1)))
        raise CertificateError(f"row {n} of the data matrix has an entry of magnitude >= 2**31",
                               index=n)
    _LAST_INT64[:] = [(matrix, matrix, biggest)]        # (what _int64_rows would compute)
    return matrix


def _own_matrix(rows: Any) -> bool:
    """Whether ``rows`` is the int64 matrix :func:`_data_rows` checked and copied last (the
    only object other than a tuple of tuples that ``_LAST_INT64`` holds first)."""
    return bool(_LAST_INT64) and _LAST_INT64[0][0] is rows and \
        not type_is_one_of(rows, _SEQUENCES)


#: The last tuple of tuples that passed :func:`_rows_of_ints` and its dimension (one pass a set).
_LAST_ROWS: list[tuple[Any, int]] = []


def _rows_of_ints(rows: Any, dim: int) -> bool:
    """Whether ``rows`` is a tuple or list of tuples or lists of ``dim`` plain ints (one pass
    over all entries at once; a builtin sequence's length and iteration cannot disagree)."""
    if _LAST_ROWS and _LAST_ROWS[0][0] is rows and _LAST_ROWS[0][1] == dim:
        return True
    valid = type_is_one_of(rows, _SEQUENCES) and has_only_types(rows, _SEQUENCES) and \
        set(map(len, rows)) <= {dim} and has_only_types(chain.from_iterable(rows), _INT)
    if valid and type(rows) is tuple and has_only_types(rows, (tuple,)):
        _LAST_ROWS[:] = [(rows, dim)]
    return valid


def _first_bad_row(rows: Any, labels: Any, dim: int) -> None:
    """Raise for the first row whose label is not ±1 or which is not ``dim`` ints."""
    sequence = not _own_matrix(rows)               # (the kernel's int64 matrix: checked)
    for n, (row, y) in enumerate(zip(rows, labels)):
        if not is_exact_int(y) or y != 1 and y != -1:  # (bool, a subclass of int, is refused)
            raise CertificateError(f"label of row {n} is {y!r}, not +1 or -1", index=n)
        if sequence and (len(row) != dim or not has_only_types(row, _INT)):
            raise CertificateError(f"row {n} is not {dim} ints", index=n)
    raise CertificateError("the data are not rows of ints with labels +1 or -1")


_INT = EXACT_INT_TYPES
_SEQUENCES = (tuple, list)
