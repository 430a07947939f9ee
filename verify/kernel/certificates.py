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
from dataclasses import dataclass
from fractions import Fraction
from itertools import compress
from math import gcd, lcm
from operator import mul
from typing import Any

from verify.kernel.data_checks import (_INT, _LAST_ROWS, _LAST_VALID,  # noqa: F401 (tests)
                                       _SEQUENCES, CertificateError, _check_data, _data_rows,
                                       _exact_number, _own_matrix, _rows_of_ints)
from verify.kernel.errors import KernelError  # noqa: F401 (C.KernelError)
from verify.kernel.exact import has_only_types, is_exact_int, type_is_one_of
from verify.kernel.products import (_INT64_SAFE_BITS, _LAST_INT64, _LAST_MATRIX,  # noqa: F401
                                    _MAX_LIMBS, _combination, _idot, _int64_products,
                                    _int64_rows, _pairs_combination, _products, _python_rows,
                                    _row_matrix)
from verify.kernel.row_facts import _checked_row_facts, sparse_multipliers

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


@dataclass(frozen=True)
class MarginFacts:
    """What :func:`check_separator` established: ρ = min yₙ w·xₙ > 0, first attained at ``argmin``."""

    rho: Fraction
    argmin: int


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
    numbers = list(values) if not type_is_one_of(values, _SEQUENCES) else values
    if has_only_types(numbers, _PLAIN_NUMBERS):   # whole-list path: no per-entry call
        numerators = list(map(operator.attrgetter("numerator"), numbers))
        denominators = list(map(operator.attrgetter("denominator"), numbers))
        if has_only_types(numerators, _INT) and has_only_types(denominators, _INT) and \
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
#: with its result: immutable, so the checks of one certificate's dense multipliers α (a
#: ``Separator.alpha`` checked again for every run that shares it) convert it once.
_LAST_COMMON: list[tuple[Any, tuple[int, ...], int]] = []


def row_products(rows: Any, V: Any) -> list[int]:
    """[row·V for row in rows] for integer rows and an integer vector V, exactly.

    >>> row_products(((1, 2), (3, -4)), [5, 1])
    [7, 11]
    """
    V = list(V)
    rows = _data_rows(rows)
    matrix = _own_matrix(rows)
    if not matrix and not type_is_one_of(rows, _SEQUENCES) or matrix and rows.shape[1] != len(V):
        raise CertificateError(f"row_products needs rows and a vector of {len(V)} ints")
    valid = has_only_types(V, _INT) and (matrix or _rows_of_ints(rows, len(V)))
    if not has_only_types(V, _INT) or not valid and any(len(row) != len(V) for row in rows):
        raise CertificateError(f"row_products needs rows and a vector of {len(V)} ints")
    if not valid:
        raise CertificateError("row_products needs integer rows")
    return _products(rows, V)


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
    dim = len(rows[0]) if type_is_one_of(rows, _SEQUENCES) and len(rows) or _own_matrix(rows) else 0
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
    verify.kernel.data_checks.CertificateError: row 1: y w.x = -1 <= 0: w does not separate the data
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
    verify.kernel.data_checks.CertificateError: stationarity: w != sum_n alpha_n y_n x_n in coordinate 0
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
    verify.kernel.data_checks.CertificateError: alpha[1] = -1 < 0
    """
    rows = _data_rows(rows)
    dim = _check_data(rows, scale, labels)
    sparse = isinstance(alpha, dict)      # {row: αₙ}, every other αₙ = 0
    if sparse:
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
    combination = _pairs_combination(list(zip(at, map(mul, A, map(labels.__getitem__, at)))),
                                     len(rows), rows, dim) if sparse \
        else _combination(list(map(mul, A, labels)), rows, dim)
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
    verify.kernel.data_checks.CertificateError: sum_n lambda_n y_n x_n != 0 in coordinate 0
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
    if type(zero) is not str or zero not in ZERO_RULES:   # (a str subclass's == could lie)
        raise CertificateError(f"unknown zero convention {zero!r}")
    W, _ = _over_common_denominator(w, dim, "w")
    # yₙ sₙ, sₙ = W·rowₙ has the sign of w·xₙ (W = D·w, row = scale·x, D, scale > 0)
    margins = _checked_row_facts(rows, labels, W, dim).margins
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
    verify.kernel.data_checks.CertificateError: w makes 1 mistakes, not the claimed 0
    """
    if not is_exact_int(claimed):      # (a subclass's own != would decide the comparison)
        raise CertificateError(f"the claimed mistake count {claimed!r} is not an int")
    actual = count_mistakes(rows, scale, labels, w, zero)
    if actual != claimed:
        raise CertificateError(f"w makes {actual} mistakes, not the claimed {claimed}")
