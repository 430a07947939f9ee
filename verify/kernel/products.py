"""Trusted base: exact integer matrix–vector products of the data rows, the only arithmetic
the kernel does not do in Python: numpy int64 products where a bound proves every sum exact,
python-flint's exact integer matrices otherwise.  Used by :mod:`verify.kernel.certificates`.

>>> _products([(1, 2), (3, -4)], [5, 1])
[7, 11]
>>> _combination([2, -1], [(1, 2), (3, 4)], 2)
[-1, 0]
"""

from __future__ import annotations

import operator
from itertools import compress, repeat
from typing import Any

from verify.kernel.exact import has_only_types, type_is_one_of

__all__: list[str] = []

#: Σₙ cₙ rowₙ over at most this many (nonzero cₙ) × dim products is summed in Python integers.
_SUPPORT_PRODUCTS = 50_000


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
    matrix = flint.fmpz_mat(len(rows), dim, [v for row in _python_rows(rows) for v in row])
    if type(rows) is tuple and has_only_types(rows, (tuple,)):
        _LAST_MATRIX[:] = [(rows, matrix)]
    return matrix


def _python_rows(rows: Any) -> Any:
    """``rows`` as rows of Python ints: a tuple or list as it is, the kernel's int64 matrix
    (:func:`verify.kernel.data_checks._data_rows`) by ``tolist`` (numpy's own int64 scalars
    would wrap around in Python arithmetic with them).

    >>> import numpy as np
    >>> _python_rows(np.array([[2**40, -1]])), _python_rows(((1, 2),))
    ([[1099511627776, -1]], ((1, 2),))
    """
    return rows if type_is_one_of(rows, (tuple, list)) else rows.tolist()


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
    if type(rows) is tuple and has_only_types(rows, (tuple,)):
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
    # (einsum's int64 loops: 3-5x faster than matmul's, which walks matrix.T by strides)
    spec = "ij,i->j" if transposed else "ij,j->i"
    mask = (1 << bits) - 1
    total: list[int] | None = None
    shift = 0
    while largest >> shift or total is None:
        limb = [(v >> shift) & mask if v >= 0 else -((-v >> shift) & mask) for v in V]
        part = np.einsum(spec, matrix, np.array(limb, dtype=np.int64)).tolist()
        total = part if total is None else [t + (p << shift) for t, p in zip(total, part)]
        shift += bits
    return total


def _combination(coefficients: list[int], rows: Any, dim: int) -> list[int]:
    """Σₙ cₙ rowₙ, exactly, for ``dim``-entry integer rows (the transposed product, numpy or
    python-flint as in :func:`_products`).  A row with cₙ = 0 adds nothing: when few cₙ are
    nonzero (max-margin multipliers: the support vectors), only those rows are summed, in
    Python integers.

    >>> _combination([2, -1], [(1, 2), (3, 4)], 2)
    [-1, 0]
    >>> _combination([0] * 1000 + [10**30], [(1, 2)] * 1000 + [(3, -1)], 2)
    [3000000000000000000000000000000, -1000000000000000000000000000000]
    """
    support = list(compress(range(len(coefficients)), coefficients))
    if len(support) * dim <= _SUPPORT_PRODUCTS:
        return _support_sum(zip(support, map(coefficients.__getitem__, support)), rows, dim)
    fast = _int64_products(rows, dim, coefficients, transposed=True)
    if fast is not None:
        return fast
    import flint

    matrix = _row_matrix(rows, dim)
    return [int(v) for v in (flint.fmpz_mat(1, len(rows), coefficients) * matrix).entries()]


def _pairs_combination(pairs: list[tuple[int, int]], length: int, rows: Any, dim: int
                       ) -> list[int]:
    """Σ cₙ rowₙ over the pairs (n, cₙ), distinct n in [0, ``length``): few pairs summed row by
    row, many by the matrix product of :func:`_combination`.

    >>> _pairs_combination([(1, 2)], 2, [(1, 2), (3, 4)], 2)
    [6, 8]
    """
    if len(pairs) * dim <= _SUPPORT_PRODUCTS:
        return _support_sum(pairs, rows, dim)
    return _combination(_dense(pairs, length), rows, dim)


def _support_sum(pairs: Any, rows: Any, dim: int) -> list[int]:
    """Σ cₙ rowₙ over the pairs (n, cₙ), in Python integers (rows a tuple or list of rows of
    ints, or the kernel's int64 matrix, read row by row as Python ints).

    >>> _support_sum([(1, 2)], [(1, 2), (3, 4)], 2)
    [6, 8]
    """
    total = [0] * dim
    sequence = type_is_one_of(rows, (tuple, list))
    for n, c in pairs:
        row = rows[n] if sequence else rows[n].tolist()    # (Python ints, as _python_rows)
        total = list(map(operator.add, total, map(operator.mul, repeat(c), row)))
    return total


def _dense(pairs: Any, length: int) -> list[int]:
    """The list of ``length`` integers that is 0 except at the pairs (n, v).

    >>> _dense([(2, 5)], 3)
    [0, 0, 5]
    """
    values = [0] * length
    for n, v in pairs:
        values[n] = v
    return values
