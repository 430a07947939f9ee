"""Trusted base: exact checks of separators, max-margin (KKT) and Gordan certificates, and of
mistake counts.  Exact integer arithmetic (matrix–vector products by numpy int64 where a bound
proves them exact, else by python-flint): no sympy, no float, no search.

The data rows come as a tuple or list of rows of ints, or as a numpy int64 matrix (see
:func:`_data_rows`: the kernel checks it in one pass and works on its own copy).

>>> check_separator([[1, 1], [1, -1]], 1, [1, -1], [0, 1]).rho
Fraction(1, 1)
"""

from __future__ import annotations

import operator
import sys
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain, compress
from math import gcd, lcm
from operator import mul
from typing import Any

from verify.kernel.errors import KernelError
from verify.kernel.exact import EXACT_INT_TYPES, exact_fraction, is_exact_int
from verify.kernel.products import (_INT64_SAFE_BITS, _LAST_INT64, _LAST_MATRIX,  # noqa: F401
                                    _MAX_LIMBS, _SUPPORT_PRODUCTS, _combination, _dense, _idot,
                                    _int64_products, _int64_rows, _products, _python_rows,
                                    _row_matrix, _support_sum)

__all__: list[str] = []

# --- certificates ---
#
# Exact checks of the certificates about a labelled data set.  The data are given in the exact
# form :class:`pla.Dataset` keeps them: integer ``rows`` over one common positive ``scale``
# (xₙ = rowsₙ / scale, bias coordinate included when the data have one) and ``labels`` ±1.
# Weights and multipliers are ints or Fractions (a float is refused).  Every check is integer
# arithmetic after clearing denominators; nothing here searches for anything.

__all__ += [
    "CertificateError", "MarginFacts", "check_separator", "check_max_margin", "check_gordan",
    "squared_radius", "squared_norms", "row_products", "check_max_margin_separator",
    "check_dual_bound",
]


class CertificateError(KernelError):
    """A certificate the kernel rejects; ``index`` is the 0-based data row at fault, if any.

    >>> str(CertificateError("row 2: y w.x = -1 <= 0", index=2))
    'row 2: y w.x = -1 <= 0'
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


@dataclass(frozen=True)
class MarginFacts:
    """What :func:`check_separator` established: ρ = min yₙ w·xₙ > 0, first attained at ``argmin``."""

    rho: Fraction
    argmin: int


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


def _over_common_denominator(values: Any, length: int, what: str) -> tuple[list[int], int]:
    """Exact numbers vᵢ as (integers Vᵢ, D > 0) with vᵢ = Vᵢ / D.

    >>> _over_common_denominator([Fraction(1, 2), 3, Fraction(-1, 6)], 3, "v")
    ([3, 18, -1], 6)
    """
    if _LAST_COMMON and _LAST_COMMON[0][0] is values:     # (the same tuple, converted before)
        numerators, D = _LAST_COMMON[0][1], _LAST_COMMON[0][2]
        if len(numerators) != length:
            raise CertificateError(f"{what} has {len(numerators)} entries, expected {length}")
        return list(numerators), D
    numbers = list(values) if type(values) not in _SEQUENCES else values
    if set(map(type, numbers)) <= _PLAIN_NUMBERS:   # whole-list path: no per-entry call
        numerators = list(map(operator.attrgetter("numerator"), numbers))
        denominators = list(map(operator.attrgetter("denominator"), numbers))
        if set(map(type, numerators)) <= _INT and set(map(type, denominators)) <= _INT and \
                (not denominators or min(denominators) > 0):
            if len(numerators) != length:
                raise CertificateError(f"{what} has {len(numerators)} entries, expected {length}")
            D = lcm(*set(denominators))
            factor = {d: D // d for d in set(denominators)}
            scaled = list(map(mul, numerators, map(factor.__getitem__, denominators)))
            if type(values) is tuple:
                _LAST_COMMON[:] = [(values, tuple(scaled), D)]
            return scaled, D
    numbers = [_exact_number(v, f"{what}[{i}]") for i, v in enumerate(numbers)]
    if len(numbers) != length:
        raise CertificateError(f"{what} has {len(numbers)} entries, expected {length}")
    D = 1
    for v in numbers:
        if D % v.denominator:          # (a division is much cheaper than a gcd of big numbers)
            D = D * v.denominator // gcd(D, v.denominator)
    return [v.numerator * (D // v.denominator) for v in numbers], D


#: ints and Fractions exactly (no subclass: their own ``numerator`` and ``denominator``).
_PLAIN_NUMBERS = {int, Fraction}
#: The last tuple of plain ints and Fractions that :func:`_over_common_denominator` converted,
#: with its result: immutable, so the checks of one certificate (the multipliers α, checked
#: by ``near_max_margin`` and again by ``prepare_monitor``) convert it once.
_LAST_COMMON: list[tuple[Any, tuple[int, ...], int]] = []


def row_products(rows: Any, V: Any) -> list[int]:
    """[row·V for row in rows] for integer rows and an integer vector V, exactly.

    >>> row_products(((1, 2), (3, -4)), [5, 1])
    [7, 11]
    """
    V = list(V)
    rows = _data_rows(rows)
    matrix = _own_matrix(rows)
    if not matrix and type(rows) not in _SEQUENCES or matrix and rows.shape[1] != len(V):
        raise CertificateError(f"row_products needs rows and a vector of {len(V)} ints")
    valid = set(map(type, V)) <= _INT and (matrix or _rows_of_ints(rows, len(V)))
    if not set(map(type, V)) <= _INT or not valid and any(len(row) != len(V) for row in rows):
        raise CertificateError(f"row_products needs rows and a vector of {len(V)} ints")
    if not valid:
        raise CertificateError("row_products needs integer rows")
    return _products(rows, V)


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
    if type(labels) not in _SEQUENCES or type(rows) not in _SEQUENCES and not matrix:
        raise CertificateError("the data must be a tuple or list of rows and one of labels")
    if len(rows) == 0 or len(rows) != len(labels):
        raise CertificateError(f"{len(rows)} rows and {len(labels)} labels")
    dim = len(rows[0])
    # one pass over all entries at once; only at a fault, a second one for its row
    labels_valid = _LAST_LABELS and _LAST_LABELS[0] is labels or \
        set(map(type, labels)) <= _INT and set(labels) <= {1, -1}
    if not (labels_valid and (matrix or _rows_of_ints(rows, dim))):
        _first_bad_row(rows, labels, dim)
    if type(labels) is tuple:
        _LAST_LABELS[:] = [labels]
    if type(rows) is tuple and type(labels) is tuple and \
            set(map(type, rows)) <= {tuple}:
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
    verify.kernel.certificates.CertificateError: row 0 of the data matrix has an entry of magnitude >= 2**31
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
    return bool(_LAST_INT64) and _LAST_INT64[0][0] is rows and type(rows) not in _SEQUENCES


#: The last tuple of tuples that passed :func:`_rows_of_ints` and its dimension (one pass a set).
_LAST_ROWS: list[tuple[Any, int]] = []


def _rows_of_ints(rows: Any, dim: int) -> bool:
    """Whether ``rows`` is a tuple or list of tuples or lists of ``dim`` plain ints (one pass
    over all entries at once; a builtin sequence's length and iteration cannot disagree)."""
    if _LAST_ROWS and _LAST_ROWS[0][0] is rows and _LAST_ROWS[0][1] == dim:
        return True
    row_types = set(map(type, rows)) if type(rows) in _SEQUENCES else {None}
    valid = row_types <= set(_SEQUENCES) and set(map(len, rows)) <= {dim} and \
        set(map(type, chain.from_iterable(rows))) <= _INT
    if valid and type(rows) is tuple and row_types <= {tuple}:
        _LAST_ROWS[:] = [(rows, dim)]
    return valid


def _first_bad_row(rows: Any, labels: Any, dim: int) -> None:
    """Raise for the first row whose label is not ±1 or which is not ``dim`` ints."""
    sequence = not _own_matrix(rows)               # (the kernel's int64 matrix: checked)
    for n, (row, y) in enumerate(zip(rows, labels)):
        if not is_exact_int(y) or y != 1 and y != -1:  # (bool, a subclass of int, is refused)
            raise CertificateError(f"label of row {n} is {y!r}, not +1 or -1", index=n)
        if sequence and (len(row) != dim or not set(map(type, row)) <= _INT):
            raise CertificateError(f"row {n} is not {dim} ints", index=n)
    raise CertificateError("the data are not rows of ints with labels +1 or -1")


_INT = EXACT_INT_TYPES
_SEQUENCES = (tuple, list)


def squared_radius(rows: Any, scale: int) -> Fraction:
    """R² = maxₙ ‖xₙ‖² with xₙ = rowsₙ / scale.

    >>> squared_radius([[1, 2], [3, 0]], 2)
    Fraction(9, 4)
    """
    norms = squared_norms(rows) if is_exact_int(scale) and scale > 0 else []
    if not norms:
        raise CertificateError("squared_radius needs rows and a positive int scale")
    return Fraction(max(norms), scale * scale)


def squared_norms(rows: Any) -> list[int]:
    """[‖row‖² for row in rows] for integer rows, exactly (numpy int64 when the bound
    dim · max|entry|² ≤ 2⁶² proves every sum exact, else Python integers).

    >>> squared_norms(((1, 2), (3, -4)))
    [5, 25]
    """
    rows = _data_rows(rows)
    dim = len(rows[0]) if type(rows) in _SEQUENCES and len(rows) or _own_matrix(rows) else 0
    if not (_own_matrix(rows) or _rows_of_ints(rows, dim)):
        raise CertificateError("squared_norms needs rows of ints, all of one length")
    matrix, biggest = _int64_rows(rows, dim)
    if matrix is not None and (dim * biggest * biggest).bit_length() <= _INT64_SAFE_BITS:
        return (matrix * matrix).sum(axis=1).tolist()
    return [_idot(row, row) for row in _python_rows(rows)]


def check_separator(rows: Any, scale: int, labels: Any, w: Any) -> MarginFacts:
    """Accept ``w`` when yₙ w·xₙ > 0 for every row; return ρ = minₙ yₙ w·xₙ and where it is attained.

    Rejects with :class:`CertificateError` naming the first row with yₙ w·xₙ ≤ 0.

    >>> check_separator([[1, 2], [1, -1]], 1, [1, -1], [0, 1])
    MarginFacts(rho=Fraction(1, 1), argmin=1)
    >>> check_separator([[1, 2], [1, -1]], 1, [1, -1], [1, 0])
    Traceback (most recent call last):
    verify.kernel.certificates.CertificateError: row 1: y w.x = -1 <= 0: w does not separate the data
    """
    rows = _data_rows(rows)
    dim = _check_data(rows, scale, labels)
    W, D = _over_common_denominator(w, dim, "w")
    margins = list(map(mul, labels, _products(rows, W)))       # yₙ W·rowₙ
    best = min(margins)
    if best <= 0:
        n = next(n for n, s in enumerate(margins) if s <= 0)
        raise CertificateError(f"row {n}: y w.x = {Fraction(margins[n], D * scale)} <= 0: w "
                               "does not separate the data", index=n)
    return MarginFacts(Fraction(best, D * scale), margins.index(best))


def check_max_margin(rows: Any, scale: int, labels: Any, w: Any, alpha: Any) -> Fraction:
    """Accept ``w`` as the solution of min ½‖w‖² s.t. yₙ w·xₙ ≥ 1 by its KKT conditions.

    The multipliers ``alpha`` (one per row) must satisfy, exactly: αₙ ≥ 0 (dual feasibility),
    w = Σ αₙ yₙ xₙ (stationarity), yₙ w·xₙ ≥ 1 (primal feasibility) and
    αₙ (yₙ w·xₙ − 1) = 0 (complementary slackness).  The problem is convex, so these conditions
    prove that ``w`` is its unique optimum.  Returns ‖w‖².

    >>> check_max_margin([[1, 2], [1, -1]], 1, [1, -1], [Fraction(-1, 3), Fraction(2, 3)],
    ...                  [Fraction(1, 9), Fraction(4, 9)])
    Fraction(5, 9)
    >>> check_max_margin([[1, 2], [1, -1]], 1, [1, -1], [0, 1], [0, 1])
    Traceback (most recent call last):
    verify.kernel.certificates.CertificateError: stationarity: w != sum_n alpha_n y_n x_n in coordinate 0
    """
    return check_max_margin_separator(rows, scale, labels, w, alpha)[1]


def check_max_margin_separator(rows: Any, scale: int, labels: Any, w: Any,
                               alpha: Any) -> tuple[MarginFacts, Fraction]:
    """:func:`check_max_margin`, also returning what :func:`check_separator` would (one pass).

    >>> facts, norm2 = check_max_margin_separator([[1, 2], [1, -1]], 1, [1, -1],
    ...     [Fraction(-1, 3), Fraction(2, 3)], [Fraction(1, 9), Fraction(4, 9)])
    >>> facts.rho, facts.argmin, norm2
    (Fraction(1, 1), 0, Fraction(5, 9))
    """
    rows = _data_rows(rows)
    dim = _check_data(rows, scale, labels)
    W, D = _over_common_denominator(w, dim, "w")
    A, E = _over_common_denominator(alpha, len(rows), "alpha")
    if A and min(A) < 0:
        n = next(n for n, a in enumerate(A) if a < 0)
        raise CertificateError(f"dual feasibility: alpha[{n}] = {Fraction(A[n], E)} < 0", index=n)
    # stationarity: W/D = Σ (Aₙ/E) yₙ rowₙ / scale  <=>  W·E·scale = D·Σ Aₙ yₙ rowₙ
    combination = _combination(list(map(mul, A, labels)), rows, dim)
    for i in range(dim):
        if W[i] * E * scale != D * combination[i]:
            raise CertificateError(f"stationarity: w != sum_n alpha_n y_n x_n in coordinate {i}")
    unit = D * scale  # yₙ w·xₙ = yₙ W·rowₙ / unit
    margins = list(map(mul, labels, _products(rows, W)))       # yₙ W·rowₙ
    best = min(margins)
    if best < unit or any(margins[n] != unit for n in compress(range(len(A)), A)):
        for n, (a, s) in enumerate(zip(A, margins)):           # the first row at fault
            if s < unit:
                raise CertificateError(f"primal feasibility: row {n}: y w.x = "
                                       f"{Fraction(s, unit)} < 1", index=n)
            if a and s != unit:
                raise CertificateError(f"complementary slackness: row {n}: alpha = "
                                       f"{Fraction(a, E)} > 0 but y w.x = {Fraction(s, unit)} "
                                       "!= 1", index=n)
    return MarginFacts(Fraction(best, unit), margins.index(best)), Fraction(_idot(W, W), D * D)


def check_dual_bound(rows: Any, scale: int, labels: Any, alpha: Any) -> Fraction:
    """A lower bound, from multipliers αₙ ≥ 0, on ‖w‖²/ρ² for *every* separator w of the data
    (ρ = minₙ yₙ w·xₙ > 0): with v = Σ αₙ yₙ xₙ ≠ 0, it returns (Σ αₙ)² / ‖v‖².

    Why: ρ Σ αₙ ≤ Σ αₙ yₙ w·xₙ = w·v ≤ ‖w‖ ‖v‖ (αₙ ≥ 0, then Cauchy–Schwarz).  The bound is
    tight for the max-margin multipliers; R² times it bounds every separator's Novikoff bound
    R²‖w‖²/ρ² from below.  Rejects a negative αₙ, α = 0 and v = 0 (then α is a Gordan
    certificate: there is no separator to bound).  ``alpha`` is one multiplier per row, or a
    dict {row: αₙ} whose other multipliers are 0
    (:func:`verify.kernel.row_facts.sparse_multipliers`: the check then costs the number of
    its entries, not of rows).

    >>> check_dual_bound([[1, 2], [1, -1]], 1, [1, -1], {0: Fraction(1, 9), 1: Fraction(4, 9)})
    Fraction(5, 9)
    >>> check_dual_bound([[1, 2], [1, -1]], 1, [1, -1], [Fraction(1, 9), Fraction(4, 9)])
    Fraction(5, 9)
    >>> check_dual_bound([[1, 2], [1, -1]], 1, [1, -1], [1, -1])
    Traceback (most recent call last):
    verify.kernel.certificates.CertificateError: alpha[1] = -1 < 0
    """
    rows = _data_rows(rows)
    dim = _check_data(rows, scale, labels)
    if isinstance(alpha, dict):      # sparse: {row: αₙ}, every other αₙ = 0
        from verify.kernel.row_facts import sparse_multipliers   # (it imports this module)

        pairs, E = sparse_multipliers(alpha, len(rows), "alpha")
        A = [a for _, a in pairs]
        at = [n for n, _ in pairs]
    else:
        A, E = _over_common_denominator(alpha, len(rows), "alpha")
        at = range(len(A))
    if A and min(A) < 0:
        n, a = next((n, a) for n, a in zip(at, A) if a < 0)
        raise CertificateError(f"alpha[{n}] = {Fraction(a, E)} < 0", index=n)
    # αₙ = Aₙ/E, xₙ = rowₙ/scale: (Σ αₙ)²/‖v‖² = (Σ Aₙ)² scale² / ‖Σ Aₙ yₙ rowₙ‖²
    if type(at) is not range and len(at) * dim > _SUPPORT_PRODUCTS:    # (a large support: the
        A, at = _dense(zip(at, A), len(rows)), range(len(rows))        # matrix product below)
    combination = _combination(list(map(mul, A, labels)), rows, dim) if type(at) is range \
        else _support_sum(zip(at, map(mul, A, map(labels.__getitem__, at))), rows, dim)
    length2 = _idot(combination, combination)
    if not length2:
        raise CertificateError("sum_n alpha_n y_n x_n = 0 bounds nothing" if any(A) else
                               "alpha = 0 bounds nothing")
    total = sum(A)
    return Fraction(total * total * scale * scale, length2)


def check_gordan(rows: Any, scale: int, labels: Any, lam: Any) -> None:
    """Accept ``lam`` as a proof of non-separability: λ ≥ 0, λ ≠ 0 and Σ λₙ yₙ xₙ = 0.

    (Gordan: then Σ λₙ yₙ w·xₙ = 0 for every w, so no w has every yₙ w·xₙ > 0.)

    >>> check_gordan([[1, 0], [1, 0]], 1, [1, -1], [1, 1])
    >>> check_gordan([[1, 0], [1, 0]], 1, [1, -1], [1, 2])
    Traceback (most recent call last):
    verify.kernel.certificates.CertificateError: sum_n lambda_n y_n x_n != 0 in coordinate 0
    """
    rows = _data_rows(rows)
    dim = _check_data(rows, scale, labels)
    L, _ = _over_common_denominator(lam, len(rows), "lambda")
    if L and min(L) < 0:
        n = next(n for n, v in enumerate(L) if v < 0)
        raise CertificateError(f"lambda[{n}] < 0", index=n)
    if not any(L):
        raise CertificateError("lambda = 0 proves nothing")
    total = _combination(list(map(mul, L, labels)), rows, dim)
    for i in range(dim):
        if total[i]:
            raise CertificateError(f"sum_n lambda_n y_n x_n != 0 in coordinate {i}")


# --- certificates: mistake counts (added for `pla pocket`; small, self-contained) ---------------
__all__ += ["ZERO_RULES", "count_mistakes", "check_mistake_count"]

#: sign(0) conventions: a zero score y·w·x = 0 is a mistake ("mistake"), a mistake only for y = −1
#: ("positive": sign(0) = +1), only for y = +1 ("negative": sign(0) = −1), never ("correct").
ZERO_RULES = ("mistake", "positive", "negative", "correct")


def count_mistakes(rows: Any, scale: int, labels: Any, w: Any, zero: str = "mistake") -> int:
    """The exact number of rows that ``w`` gets wrong (a nonzero score is wrong when y·w·x < 0).

    >>> count_mistakes([[1, 1], [1, 2], [1, 3]], 1, [1, -1, 1], [-2, 1])
    2
    >>> count_mistakes([[1, 1], [1, 2], [1, 3]], 1, [1, -1, 1], [-2, 1], zero="correct")
    1
    """
    rows = _data_rows(rows)
    dim = _check_data(rows, scale, labels)
    if zero not in ZERO_RULES:
        raise CertificateError(f"unknown zero convention {zero!r}")
    W, _ = _over_common_denominator(w, dim, "w")
    from verify.kernel.row_facts import row_facts      # (it imports this module)

    # yₙ sₙ, sₙ = W·rowₙ has the sign of w·xₙ (W = D·w, row = scale·x, D, scale > 0)
    margins = row_facts(rows, labels, W).margins
    if type(margins) is tuple:
        wrong = sum(map(operator.lt, margins, [0] * len(margins)))              # y s < 0
        at_zero = list(compress(labels, map(operator.not_, margins)))           # labels, s = 0
    else:                                                   # (an int64 array: whole-array)
        wrong = int((margins < 0).sum())
        at_zero = list(map(labels.__getitem__, (margins == 0).nonzero()[0].tolist()))
    return wrong + {"mistake": len(at_zero), "positive": at_zero.count(-1),
                    "negative": at_zero.count(1), "correct": 0}[zero]


def check_mistake_count(rows: Any, scale: int, labels: Any, w: Any, claimed: int,
                        zero: str = "mistake") -> None:
    """Accept the claim that ``w`` makes exactly ``claimed`` mistakes on the data.

    >>> check_mistake_count([[1, 1], [1, 2]], 1, [1, -1], [0, 1], 1)
    >>> check_mistake_count([[1, 1], [1, 2]], 1, [1, -1], [0, 1], 0)
    Traceback (most recent call last):
    verify.kernel.certificates.CertificateError: w makes 1 mistakes, not the claimed 0
    """
    actual = count_mistakes(rows, scale, labels, w, zero)
    if actual != claimed:
        raise CertificateError(f"w makes {actual} mistakes, not the claimed {claimed}")
