"""Trusted base: exact checks of separators, max-margin (KKT) and Gordan certificates, and of
mistake counts.  Exact integer arithmetic (matrix–vector products by numpy int64 where a bound
proves them exact, else by python-flint): no sympy, no float, no search.

>>> check_separator([[1, 1], [1, -1]], 1, [1, -1], [0, 1]).rho
Fraction(1, 1)
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from itertools import chain
from fractions import Fraction
from typing import Any

from verify.kernel.errors import KernelError
from verify.kernel.exact import EXACT_INT_TYPES, exact_fraction, is_exact_int

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
    """Exact numbers vᵢ as (integers Vᵢ, D > 0) with vᵢ = Vᵢ / D."""
    numbers = [_exact_number(v, f"{what}[{i}]") for i, v in enumerate(values)]
    if len(numbers) != length:
        raise CertificateError(f"{what} has {len(numbers)} entries, expected {length}")
    D = 1
    for v in numbers:
        if D % v.denominator:          # (a division is much cheaper than a gcd of big numbers)
            D = D * v.denominator // _gcd(D, v.denominator)
    return [v.numerator * (D // v.denominator) for v in numbers], D


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


def _idot(u: Any, v: Any) -> int:
    return sum(map(operator.mul, u, v))


def _products(rows: Any, V: list[int]) -> list[int]:
    """[row·V for row in rows], exactly: one integer matrix–vector product.

    The only arithmetic the kernel does not do in Python: numpy's int64 matrix products where
    a bound proves them exact (:func:`_int64_products`), else python-flint's ``fmpz_mat``
    multiplication (FLINT's exact multiprecision integer matrices); both give the same
    integers as ``[sum(map(mul, row, V)) for row in rows]`` (tests compare the three on
    adversarial data).

    >>> _products([(1, 2), (3, -4)], [10**40, 1])
    [10000000000000000000000000000000000000002, 29999999999999999999999999999999999999996]
    """
    fast = _int64_products(rows, len(V), V, transposed=False)
    if fast is not None:
        return fast
    import flint

    matrix = _row_matrix(rows, len(V))
    return [int(v) for v in (matrix * flint.fmpz_mat(len(V), 1, V)).entries()]


#: The last immutable data (a tuple of tuples of ints) and its FLINT matrix: the kernel's checks
#: of one data set (separator, KKT, mistake count, the monitor's margins) convert it once.
_LAST_MATRIX: list[tuple[Any, Any]] = []


def _row_matrix(rows: Any, dim: int) -> Any:
    """``rows`` as a python-flint ``fmpz_mat`` (remembered for the last tuple of tuples: an
    immutable object cannot change under the memo)."""
    import flint

    if _LAST_MATRIX and _LAST_MATRIX[0][0] is rows:
        return _LAST_MATRIX[0][1]
    matrix = flint.fmpz_mat(len(rows), dim, [v for row in rows for v in row])
    if type(rows) is tuple and all(type(row) is tuple for row in rows):
        _LAST_MATRIX[:] = [(rows, matrix)]
    return matrix


#: numpy's integer matrix product wraps around silently past 2⁶³ − 1: every sum it forms here
#: is proved to stay below this bound first.
_INT64_SAFE_BITS = 62
#: At most this many int64 products per exact product (else FLINT is as fast).
_MAX_LIMBS = 6
#: The last immutable data as (rows, int64 matrix, its largest |entry|), or (rows, None, 0).
_LAST_INT64: list[tuple[Any, Any, int]] = []


def _int64_rows(rows: Any, dim: int) -> tuple[Any, int]:
    """``rows`` as a numpy int64 matrix and its largest |entry|, or (None, 0) when an entry
    needs more than 31 bits (remembered like :func:`_row_matrix`)."""
    if _LAST_INT64 and _LAST_INT64[0][0] is rows:
        return _LAST_INT64[0][1], _LAST_INT64[0][2]
    import numpy as np

    matrix, biggest = None, 0
    if rows and dim:
        try:
            candidate = np.array(rows, dtype=np.int64)
        except OverflowError:
            candidate = None
        if candidate is not None and candidate.shape == (len(rows), dim):
            # (not np.abs: it wraps -2⁶³ to itself)
            biggest = max(int(candidate.max()), -int(candidate.min()))
            if biggest < 2**31:
                matrix = candidate
    if type(rows) is tuple and all(type(row) is tuple for row in rows):
        _LAST_INT64[:] = [(rows, matrix, biggest)]
    return matrix, biggest


def _int64_products(rows: Any, dim: int, V: list[int], transposed: bool) -> list[int] | None:
    """[row·V for row in rows] (or, ``transposed``, Σₙ Vₙ rowₙ) by numpy int64 products, or
    None when no bound proves them exact in a few products.

    V is split into limbs of b bits, V = Σⱼ 2^(jb) Vⱼ with |Vⱼ| < 2^b, and M·V = Σⱼ 2^(jb) M·Vⱼ.
    Each entry of M·Vⱼ is a sum of ``length`` products |Mₙᵢ Vⱼᵢ| < max|M| · 2^b, so b is
    chosen with length · max|M| · 2^b ≤ 2^62: no sum can wrap around.

    >>> _int64_products(((1, 2), (3, -4)), 2, [10**400, 1], transposed=False) is None
    True
    >>> _int64_products(((1, 2), (3, -4)), 2, [10**12, -1], transposed=False)
    [999999999998, 3000000000004]
    """
    matrix, biggest = _int64_rows(rows, dim)
    if matrix is None or not V:
        return None
    import numpy as np

    length = len(rows) if transposed else dim
    bits = _INT64_SAFE_BITS - (length * max(biggest, 1)).bit_length()
    largest = max(map(abs, V))
    if bits < 8 or -(-largest.bit_length() // bits) > _MAX_LIMBS:
        return None
    operand = matrix.T if transposed else matrix
    mask = (1 << bits) - 1
    total: list[int] | None = None
    shift = 0
    while largest >> shift or total is None:
        limb = [(v >> shift) & mask if v >= 0 else -((-v >> shift) & mask) for v in V]
        part = (operand @ np.array(limb, dtype=np.int64)).tolist()
        total = part if total is None else [t + (p << shift) for t, p in zip(total, part)]
        shift += bits
    return total


def row_products(rows: Any, V: Any) -> list[int]:
    """[row·V for row in rows] for integer rows and an integer vector V, exactly.

    >>> row_products(((1, 2), (3, -4)), [5, 1])
    [7, 11]
    """
    V = list(V)
    if not set(map(type, V)) <= _INT or any(len(row) != len(V) for row in rows):
        raise CertificateError(f"row_products needs rows and a vector of {len(V)} ints")
    if not _rows_of_ints(rows, len(V)):
        raise CertificateError("row_products needs integer rows")
    return _products(rows, V)


def _combination(coefficients: list[int], rows: Any, dim: int) -> list[int]:
    """Σₙ cₙ rowₙ, exactly (the transposed product, numpy or python-flint as in
    :func:`_products`).

    >>> _combination([2, -1], [(1, 2), (3, 4)], 2)
    [-1, 0]
    """
    fast = _int64_products(rows, dim, coefficients, transposed=True)
    if fast is not None:
        return fast
    import flint

    matrix = _row_matrix(rows, dim)
    return [int(v) for v in (flint.fmpz_mat(1, len(rows), coefficients) * matrix).entries()]


#: The last data that passed :func:`_check_data` when they were immutable (a tuple of tuples
#: and a tuple of labels): the checks of one data set validate them once.
_LAST_VALID: list[tuple[Any, Any, int]] = []


def _check_data(rows: Any, scale: Any, labels: Any) -> int:
    if not is_exact_int(scale) or scale <= 0:
        raise CertificateError(f"scale must be a positive int, not {scale!r}")
    if _LAST_VALID and _LAST_VALID[0][0] is rows and _LAST_VALID[0][1] is labels:
        return _LAST_VALID[0][2]
    if type(rows) not in _SEQUENCES or type(labels) not in _SEQUENCES:
        raise CertificateError("the data must be a tuple or list of rows and one of labels")
    if len(rows) == 0 or len(rows) != len(labels):
        raise CertificateError(f"{len(rows)} rows and {len(labels)} labels")
    dim = len(rows[0])
    # one pass over all entries at once; only at a fault, a second one for its row
    if not (set(map(type, labels)) <= _INT and set(labels) <= {1, -1} and
            _rows_of_ints(rows, dim)):
        _first_bad_row(rows, labels, dim)
    if type(rows) is tuple and type(labels) is tuple and \
            all(type(row) is tuple for row in rows):
        _LAST_VALID[:] = [(rows, labels, dim)]
    return dim


def _rows_of_ints(rows: Any, dim: int) -> bool:
    """Whether ``rows`` is a tuple or list of tuples or lists of ``dim`` plain ints (one pass
    over all entries at once; a builtin sequence's length and iteration cannot disagree)."""
    return type(rows) in _SEQUENCES and \
        all(type(row) in _SEQUENCES and len(row) == dim for row in rows) and \
        set(map(type, chain.from_iterable(rows))) <= _INT


def _first_bad_row(rows: Any, labels: Any, dim: int) -> None:
    """Raise for the first row whose label is not ±1 or which is not ``dim`` ints."""
    for n, (row, y) in enumerate(zip(rows, labels)):
        if not is_exact_int(y) or y != 1 and y != -1:  # (bool, a subclass of int, is refused)
            raise CertificateError(f"label of row {n} is {y!r}, not +1 or -1", index=n)
        if len(row) != dim or not set(map(type, row)) <= _INT:
            raise CertificateError(f"row {n} is not {dim} ints", index=n)
    raise CertificateError("the data are not rows of ints with labels +1 or -1")


_INT = EXACT_INT_TYPES
_SEQUENCES = (tuple, list)


def squared_radius(rows: Any, scale: int) -> Fraction:
    """R² = maxₙ ‖xₙ‖² with xₙ = rowsₙ / scale.

    >>> squared_radius([[1, 2], [3, 0]], 2)
    Fraction(9, 4)
    """
    if not is_exact_int(scale) or scale <= 0 or not len(rows):
        raise CertificateError("squared_radius needs rows and a positive int scale")
    return Fraction(max(squared_norms(rows)), scale * scale)


def squared_norms(rows: Any) -> list[int]:
    """[‖row‖² for row in rows] for integer rows, exactly (numpy int64 when the bound
    dim · max|entry|² ≤ 2⁶² proves every sum exact, else Python integers).

    >>> squared_norms(((1, 2), (3, -4)))
    [5, 25]
    """
    dim = len(rows[0]) if len(rows) else 0
    if not _rows_of_ints(rows, dim):
        raise CertificateError("squared_norms needs rows of ints, all of one length")
    matrix, biggest = _int64_rows(rows, dim)
    if matrix is not None and (dim * biggest * biggest).bit_length() <= _INT64_SAFE_BITS:
        return (matrix * matrix).sum(axis=1).tolist()
    return [_idot(row, row) for row in rows]


def check_separator(rows: Any, scale: int, labels: Any, w: Any) -> MarginFacts:
    """Accept ``w`` when yₙ w·xₙ > 0 for every row; return ρ = minₙ yₙ w·xₙ and where it is attained.

    Rejects with :class:`CertificateError` naming the first row with yₙ w·xₙ ≤ 0.

    >>> check_separator([[1, 2], [1, -1]], 1, [1, -1], [0, 1])
    MarginFacts(rho=Fraction(1, 1), argmin=1)
    >>> check_separator([[1, 2], [1, -1]], 1, [1, -1], [1, 0])
    Traceback (most recent call last):
    verify.kernel.certificates.CertificateError: row 1: y w.x = -1 <= 0: w does not separate the data
    """
    dim = _check_data(rows, scale, labels)
    W, D = _over_common_denominator(w, dim, "w")
    best, argmin = None, -1
    for n, (score, y) in enumerate(zip(_products(rows, W), labels)):
        s = y * score
        if s <= 0:
            raise CertificateError(f"row {n}: y w.x = {Fraction(s, D * scale)} <= 0: w does not "
                                   "separate the data", index=n)
        if best is None or s < best:
            best, argmin = s, n
    return MarginFacts(Fraction(best, D * scale), argmin)  # type: ignore[arg-type]


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
    dim = _check_data(rows, scale, labels)
    W, D = _over_common_denominator(w, dim, "w")
    A, E = _over_common_denominator(alpha, len(rows), "alpha")
    for n, a in enumerate(A):
        if a < 0:
            raise CertificateError(f"dual feasibility: alpha[{n}] = {Fraction(a, E)} < 0", index=n)
    # stationarity: W/D = Σ (Aₙ/E) yₙ rowₙ / scale  <=>  W·E·scale = D·Σ Aₙ yₙ rowₙ
    combination = _combination([a * y for a, y in zip(A, labels)], rows, dim)
    for i in range(dim):
        if W[i] * E * scale != D * combination[i]:
            raise CertificateError(f"stationarity: w != sum_n alpha_n y_n x_n in coordinate {i}")
    unit = D * scale  # yₙ w·xₙ = yₙ W·rowₙ / unit
    best, argmin = None, -1
    for n, (a, y, score) in enumerate(zip(A, labels, _products(rows, W))):
        s = y * score
        if best is None or s < best:
            best, argmin = s, n
        if s < unit:
            raise CertificateError(f"primal feasibility: row {n}: y w.x = {Fraction(s, unit)} < 1",
                                   index=n)
        if a and s != unit:
            raise CertificateError(f"complementary slackness: row {n}: alpha = {Fraction(a, E)} "
                                   f"> 0 but y w.x = {Fraction(s, unit)} != 1", index=n)
    return MarginFacts(Fraction(best, unit), argmin), Fraction(_idot(W, W), D * D)


def check_dual_bound(rows: Any, scale: int, labels: Any, alpha: Any) -> Fraction:
    """A lower bound, from multipliers αₙ ≥ 0, on ‖w‖²/ρ² for *every* separator w of the data
    (ρ = minₙ yₙ w·xₙ > 0): with v = Σ αₙ yₙ xₙ ≠ 0, it returns (Σ αₙ)² / ‖v‖².

    Why: ρ Σ αₙ ≤ Σ αₙ yₙ w·xₙ = w·v ≤ ‖w‖ ‖v‖ (αₙ ≥ 0, then Cauchy–Schwarz).  The bound is
    tight for the max-margin multipliers; R² times it bounds every separator's Novikoff bound
    R²‖w‖²/ρ² from below.  Rejects a negative αₙ, α = 0 and v = 0 (then α is a Gordan
    certificate: there is no separator to bound).

    >>> check_dual_bound([[1, 2], [1, -1]], 1, [1, -1], [Fraction(1, 9), Fraction(4, 9)])
    Fraction(5, 9)
    >>> check_dual_bound([[1, 2], [1, -1]], 1, [1, -1], [1, -1])
    Traceback (most recent call last):
    verify.kernel.certificates.CertificateError: alpha[1] = -1 < 0
    """
    dim = _check_data(rows, scale, labels)
    A, E = _over_common_denominator(alpha, len(rows), "alpha")
    for n, a in enumerate(A):
        if a < 0:
            raise CertificateError(f"alpha[{n}] = {Fraction(a, E)} < 0", index=n)
    # αₙ = Aₙ/E, xₙ = rowₙ/scale: (Σ αₙ)²/‖v‖² = (Σ Aₙ)² scale² / ‖Σ Aₙ yₙ rowₙ‖²
    combination = _combination([a * y for a, y in zip(A, labels)], rows, dim)
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
    dim = _check_data(rows, scale, labels)
    L, _ = _over_common_denominator(lam, len(rows), "lambda")
    for n, v in enumerate(L):
        if v < 0:
            raise CertificateError(f"lambda[{n}] < 0", index=n)
    if not any(L):
        raise CertificateError("lambda = 0 proves nothing")
    total = _combination([v * y for v, y in zip(L, labels)], rows, dim)
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
    dim = _check_data(rows, scale, labels)
    if zero not in ZERO_RULES:
        raise CertificateError(f"unknown zero convention {zero!r}")
    W, _ = _over_common_denominator(w, dim, "w")
    mistakes = 0
    for s, y in zip(_products(rows, W), labels):
        # s has the sign of w·x (W = D·w, row = scale·x, D, scale > 0)
        if s != 0:
            mistakes += (s > 0) != (y > 0)
        else:
            mistakes += zero == "mistake" or (zero == "positive" and y < 0) or \
                (zero == "negative" and y > 0)
    return mistakes


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
