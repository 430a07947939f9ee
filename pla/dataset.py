"""The exact data model: every example stored as integers over one common positive scale.

Scaling every row by the same positive number leaves the PLA trajectory unchanged (every sign is
kept and w scales by the same factor), so a data set is kept as integer rows over one common
denominator ``scale``: ``X[n][i] == Fraction(rows[n][i], scale)``.  Rows are never scaled
differently from each other.

>>> ds = Dataset.from_rows([["0.5", 1], [-1, "1/3"]], [1, -1])
>>> ds.scale, ds.rows
(6, ((6, 3, 6), (6, -6, 2)))
>>> ds.X[1]
(Fraction(1, 1), Fraction(-1, 1), Fraction(1, 3))
>>> ds.n, ds.d, ds.dim
(2, 2, 3)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import chain
from math import gcd, lcm
from typing import Any, Iterable, Sequence

from pla.exact import to_fraction
from pla.files import shown_path

__all__ = ["Dataset", "DataError"]

_FINGERPRINT_ROWS = 4096    # rows hashed per block (bounded memory)
_FINGERPRINT_CELLS = 1 << 18    # numbers per block of whole-matrix passes (memory)


class DataError(ValueError):
    """Bad input data, located in a file: ``str(error)`` is ``FILE:LINE: what is wrong``, or
    ``FILE: what is wrong`` when no line is to blame (``line`` 0 or None: a file that cannot be
    read, an unknown format).

    >>> str(DataError("train.dat", 3, "expected 5 columns, found 4"))
    'train.dat:3: expected 5 columns, found 4'
    >>> str(DataError("nope.dat", 0, "cannot read file: No such file or directory"))
    'nope.dat: cannot read file: No such file or directory'
    """

    def __init__(self, path: str, line: int | None, message: str) -> None:
        where = f"{shown_path(path)}:{line}" if line else shown_path(path)
        super().__init__(f"{where}: {message}")
        self.path = path
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Dataset:
    """An immutable, exact, labelled data set (labels ±1), bias column first when ``bias``.

    Build one with :meth:`from_rows` or :func:`pla.load`; the constructor expects the canonical
    integer form (smallest common scale) and checks it.
    """

    rows: tuple[tuple[int, ...], ...]
    scale: int
    labels: tuple[int, ...]
    bias: bool = True
    source: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not self.rows:
            raise ValueError("a data set needs at least one example")
        if len(self.rows) != len(self.labels):
            raise ValueError(f"{len(self.rows)} rows but {len(self.labels)} labels")
        if not isinstance(self.scale, int) or self.scale <= 0:
            raise ValueError("scale must be a positive integer")
        dim = len(self.rows[0])
        if dim == 0:
            raise ValueError("examples need at least one coordinate")
        for row in self.rows:
            if len(row) != dim:
                raise ValueError("all rows must have the same length")
        for y in self.labels:
            if type(y) is not int or (y != 1 and y != -1):   # a numpy int64 would overflow
                raise ValueError(f"labels must be the Python ints +1 or -1, not {y!r}")
        if gcd(self.scale, *chain.from_iterable(self.rows)) != 1:
            raise ValueError("rows and scale are not in lowest terms; use Dataset.from_rows")

    # ----------------------------------------------------------------- construction
    @classmethod
    def from_rows(
        cls,
        X: Iterable[Sequence[object]],
        y: Iterable[object],
        *,
        bias: bool = True,
        source: str | None = None,
    ) -> "Dataset":
        """Build a data set from feature rows (ints, Fractions or numeric strings) and ±1 labels.

        With ``bias=True`` the coordinate x₀ = 1 is prepended to every row.

        >>> Dataset.from_rows([[3, 3], [1, 1]], [1, -1]).X[0]
        (Fraction(1, 1), Fraction(3, 1), Fraction(3, 1))
        """
        fractions_rows = [tuple(to_fraction(v) for v in row) for row in X]
        labels = tuple(_label(v) for v in y)
        if bias:
            fractions_rows = [(Fraction(1),) + row for row in fractions_rows]
        return cls.from_fractions(fractions_rows, labels, bias=bias, source=source)

    @classmethod
    def from_fractions(
        cls,
        rows: Sequence[Sequence[Fraction]],
        labels: Sequence[int],
        *,
        bias: bool,
        source: str | None = None,
    ) -> "Dataset":
        """Build from rows of Fractions that already include the bias column when ``bias``."""
        scale = lcm(1, *{v.denominator for row in rows for v in row})
        int_rows = tuple(tuple(v.numerator * (scale // v.denominator) for v in row) for row in rows)
        return cls.from_integers(int_rows, scale, tuple(labels), bias=bias, source=source)

    @classmethod
    def from_integers(
        cls,
        rows: Sequence[Sequence[int]],
        scale: int,
        labels: Sequence[int],
        *,
        bias: bool,
        source: str | None = None,
    ) -> "Dataset":
        """Build from integer rows over a common positive ``scale``, reducing to lowest terms.

        >>> Dataset.from_integers([[2, 4], [2, -2]], 2, [1, -1], bias=True).rows
        ((1, 2), (1, -1))
        """
        g = gcd(scale, *chain.from_iterable(rows))
        if g > 1:
            rows = [[v // g for v in row] for row in rows]
            scale //= g
        return cls(tuple(tuple(r) for r in rows), scale, tuple(labels), bias, source)

    @classmethod
    def from_float_array(cls, X: Any, labels: Sequence[int], *, bias: bool = True,
                         source: str | None = None) -> "Dataset":
        """Build from a 2-D array of finite binary floats (float16/32/64), read exactly.

        The same data set as ``from_rows`` of the floats' exact values, built without a Fraction
        per entry: every float is m·2ᵉ with an integer m of at most 53 bits (``numpy.frexp``),
        the common scale is 2ᵏ with k the largest −e after removing m's trailing zeros, and each
        entry is m shifted by e + k ≥ 0 (so the scale and the rows are in lowest terms).

        >>> import numpy as np
        >>> ds = Dataset.from_float_array(np.array([[0.5, -3.0], [0.25, 0.0]]), [1, -1])
        >>> ds.scale, ds.rows
        (4, ((4, 2, -12), (4, 1, 0)))
        >>> ds == Dataset.from_rows([["1/2", -3], ["1/4", 0]], [1, -1])
        True
        """
        import numpy as np

        array = np.asarray(X)
        if array.ndim != 2 or array.dtype.kind != "f" or array.dtype.itemsize > 8:
            raise ValueError("from_float_array needs a 2-D array of float16, float32 or float64")
        array = array.astype(np.float64)
        if not np.isfinite(array).all():
            raise ValueError("Input contains NaN or infinity; features must be finite")
        labels = tuple(v if type(v) is int else _label(v) for v in labels)   # numpy ints too
        if bias:
            array = np.hstack([np.ones((array.shape[0], 1)), array])
        mantissa, exponent = np.frexp(array)
        m = np.ldexp(mantissa, 53).astype(np.int64)        # exact: at most 53 bits
        e = exponent.astype(np.int64) - 53
        nonzero = m != 0
        if not nonzero.any():
            return cls.from_integers(np.zeros(array.shape, dtype=np.int64).tolist(), 1,
                                     labels, bias=bias, source=source)
        low = m & -m                                          # the lowest set bit of m
        trailing = np.zeros(m.shape, dtype=np.int64)
        trailing[nonzero] = np.frexp(low[nonzero].astype(np.float64))[1] - 1   # low = 2^trailing
        k = max(0, int(-(e + trailing)[nonzero].min()))
        shifts = np.where(nonzero, e + k, 0)                 # m·2^(e+k): an integer
        rows = [tuple(v << s if s >= 0 else v >> -s for v, s in zip(mr, sr))
                for mr, sr in zip(m.tolist(), shifts.tolist())]
        return cls(tuple(rows), 1 << k, labels, bias, source)

    @classmethod
    def from_int64_matrix(cls, matrix: Any, scale: int, labels: Any, *, bias: bool,
                          source: str | None = None, copy: bool = True) -> "Dataset":
        """Build from an int64 matrix of integer rows over ``scale`` (the bias column included
        when ``bias``) and a vector of ±1 labels, reducing to lowest terms.

        The matrix is the only copy of the data: ``rows`` (the same numbers as Python integers)
        is built from it the first time something asks for it, and the fast engine, the
        fingerprint and the summary never do.  Entries must lie in ±(2⁶³ − 1), so that every
        |entry| and every gcd is an int64 too; larger numbers belong in :meth:`from_integers`.
        ``copy=False`` hands the matrix over (it is made read-only, and kept when already in
        lowest terms): the caller must not change it through another view.

        >>> import numpy as np
        >>> ds = Dataset.from_int64_matrix(np.array([[2, 4], [2, -6]]), 2, np.array([1, -1]),
        ...                                bias=True)
        >>> ds.scale, ds.n, ds.dim, "rows" in ds.__dict__
        (1, 2, 2, False)
        >>> ds.rows, ds == Dataset.from_integers([[1, 2], [1, -3]], 1, [1, -1], bias=True)
        (((1, 2), (1, -3)), True)
        """
        import numpy as np

        matrix = np.asarray(matrix)
        labels = np.asarray(labels)
        if matrix.dtype != np.int64 or matrix.ndim != 2:
            raise ValueError("from_int64_matrix needs a 2-D int64 matrix")
        if matrix.shape[0] == 0:
            raise ValueError("a data set needs at least one example")
        if matrix.shape[1] == 0:
            raise ValueError("examples need at least one coordinate")
        if labels.shape != (matrix.shape[0],):
            raise ValueError(f"{matrix.shape[0]} rows but {labels.size} labels")
        if not np.all((labels == 1) | (labels == -1)):
            raise ValueError("labels must be +1 or -1")
        if type(scale) is not int or scale <= 0:
            raise ValueError("scale must be a positive integer")
        if np.any(matrix == np.iinfo(np.int64).min):     # |−2⁶³| is not an int64
            raise ValueError("entries of an int64 matrix must lie within ±(2**63 - 1)")
        from math import gcd

        g = scale                  # gcd of scale and every entry, a block of rows at a time
        step = max(1, _FINGERPRINT_CELLS // matrix.shape[1])
        for start in range(0, matrix.shape[0], step):
            if g == 1:
                break
            g = gcd(g, int(np.gcd.reduce(np.abs(matrix[start:start + step]), axis=None)))
        matrix = matrix // g if g > 1 else matrix.copy() if copy else matrix
        matrix.setflags(write=False)
        label_vector = np.where(labels == 1, 1, -1).astype(np.int64)
        label_vector.setflags(write=False)
        dataset = object.__new__(cls)
        fields = dataset.__dict__
        fields.update(scale=scale // g, labels=tuple(label_vector.tolist()), bias=bias,
                      source=source, int64_rows=matrix, int64_labels=label_vector)
        return dataset

    def __getattr__(self, name: str) -> Any:
        # Only reached when ``rows`` is not yet set: a data set built by from_int64_matrix.
        fields = self.__dict__
        matrix = fields.get("int64_rows")
        if name != "rows" or matrix is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        step = _FINGERPRINT_ROWS      # a block at a time: no list of lists of the whole matrix
        rows = tuple(chain.from_iterable(map(tuple, matrix[start:start + step].tolist())
                                         for start in range(0, matrix.shape[0], step)))
        fields["rows"] = rows
        return rows

    # ----------------------------------------------------------------- views
    @property
    def n(self) -> int:
        """Number of examples."""
        rows = self.__dict__.get("rows")
        return len(rows) if rows is not None else int(self.int64_rows.shape[0])

    @property
    def dim(self) -> int:
        """Length of each example vector (features plus the bias coordinate when ``bias``)."""
        rows = self.__dict__.get("rows")
        return len(rows[0]) if rows is not None else int(self.int64_rows.shape[1])

    @property
    def d(self) -> int:
        """Number of features, not counting the bias coordinate."""
        return self.dim - 1 if self.bias else self.dim

    @cached_property
    def X(self) -> tuple[tuple[Fraction, ...], ...]:
        """The examples as exact Fractions (bias coordinate first when ``bias``)."""
        s = self.scale
        return tuple(tuple(Fraction(v, s) for v in row) for row in self.rows)

    @cached_property
    def fingerprint(self) -> str:
        """SHA-256 of the canonical exact data (scale, integer rows, labels, bias flag).

        Equal exact data give equal fingerprints, however the numbers were written.

        >>> a = Dataset.from_rows([["0.5"]], [1]); b = Dataset.from_rows([["1/2"]], ["+1"])
        >>> a.fingerprint == b.fingerprint
        True
        """
        h = hashlib.sha256()
        h.update(f"pla-verify-data/1\n{self.n} {self.dim} {int(self.bias)} {self.scale}\n".encode())
        # The text hashed is "y r1 r2 ...\n" per example.
        width = self.dim + 1
        table = self._small_int_texts()
        if table is not None:          # the text as bytes, by table look-up, a block at a time
            import numpy as np

            texts, offset = table
            rows_of_texts = texts.reshape(-1, texts.shape[2])     # row 2(offset + v) + last
            step = max(1, _FINGERPRINT_CELLS // width)
            last = (np.arange(width) == width - 1) + 2 * offset      # 1 in the last column
            for start in range(0, self.n, step):
                block = np.column_stack([self.int64_labels[start:start + step],
                                         self.int64_rows[start:start + step]])
                block *= 2
                block += last
                padded = np.take(rows_of_texts, block, axis=0)  # number, " " or "\n", zeros
                h.update(padded[padded != 0].tobytes())                  # the padding dropped
            return h.hexdigest()
        # Otherwise the text is built a block of rows at a time (tokens and separators
        # interleaved by slice assignment, one join) rather than one join per row: the same
        # bytes, a few times faster on many short rows.
        step = _FINGERPRINT_ROWS
        separators = [" "] * (width - 1) + ["\n"]
        for start in range(0, self.n, step):
            labels = self.labels[start:start + step]
            if "rows" not in self.__dict__:    # only the int64 matrix: str of a block's ints
                import numpy as np

                tokens = list(map(str, np.column_stack(
                    [self.int64_labels[start:start + step],
                     self.int64_rows[start:start + step]]).ravel().tolist()))
            else:
                tokens = list(map(str, chain.from_iterable(
                    (y, *row) for y, row in zip(labels, self.rows[start:start + step]))))
            text = [""] * (2 * len(tokens))
            text[0::2] = tokens
            text[1::2] = separators * len(labels)
            h.update("".join(text).encode())
        return h.hexdigest()

    def _small_int_texts(self) -> tuple[Any, int] | None:
        """(texts, offset) when the int64 matrix exists and its entries are small (|v| ≤ 2¹⁶):
        texts[offset + v, last] is the ASCII of str(v), then " " (or "\\n" when ``last``), then
        zero bytes up to a common width; else None.

        >>> texts, offset = Dataset.from_rows([[-3, 7]] * 2048, [1] * 2048)._small_int_texts()
        >>> bytes(texts[offset - 3, 0]), bytes(texts[offset + 7, 1])
        (b'-3 ', b'7\\n\\x00')
        """
        import numpy as np

        if self.n * self.dim < 4096 or self.int64_rows is None:
            return None
        largest = max(self.int64_magnitude, 1)               # 1: the labels ±1 too
        if largest > 2**16:
            return None
        size = len(str(-largest)) + 1
        texts = np.zeros((2 * largest + 1, 2, size), dtype=np.uint8)
        for last, separator in enumerate((" ", "\n")):
            encoded = "".join(f"{v}{separator}".ljust(size, "\0")
                              for v in range(-largest, largest + 1)).encode()
            texts[:, last] = np.frombuffer(encoded, dtype=np.uint8).reshape(-1, size)
        return texts, largest

    @cached_property
    def int64_rows(self) -> Any:
        """The integer rows as a read-only numpy int64 matrix (built once, then cached), or
        None when an entry does not fit in int64.  Used by the fast engine.

        >>> Dataset.from_rows([[1, 2]], [1]).int64_rows.tolist()
        [[1, 1, 2]]
        """
        import numpy as np

        try:
            matrix = np.array(self.rows, dtype=np.int64)
        except OverflowError:
            return None
        matrix.setflags(write=False)
        return matrix

    @cached_property
    def int64_magnitude(self) -> int | None:
        """The largest |entry| of :attr:`int64_rows` (built once, then cached), or None when
        there is no int64 matrix.  What decides something recomputes it; this one serves the
        float proposals and routing decisions that read it several times a process.

        >>> Dataset.from_rows([[1, -7]], [1]).int64_magnitude
        7
        """
        matrix = self.int64_rows
        if matrix is None:
            return None
        return max(int(matrix.max()), -int(matrix.min()), 0) if matrix.size else 0  # (np.abs
        # would wrap -2⁶³ to itself)

    @cached_property
    def int64_labels(self) -> Any:
        """The labels as a read-only numpy int64 vector (built once, then cached).

        >>> Dataset.from_rows([[1], [2]], [1, -1]).int64_labels.tolist()
        [1, -1]
        """
        import numpy as np

        labels = np.array(self.labels, dtype=np.int64)
        labels.setflags(write=False)
        return labels

    @cached_property
    def squared_norms(self) -> tuple[Fraction, ...]:
        """‖xₙ‖² for every example, exactly."""
        s2 = self.scale * self.scale
        return tuple(Fraction(sum(v * v for v in row), s2) for row in self.rows)

    def with_labels(self, labels: Sequence[int]) -> "Dataset":
        """The same examples with other labels."""
        return Dataset(self.rows, self.scale, tuple(labels), self.bias, self.source)

    def subset(self, indices: Sequence[int]) -> "Dataset":
        """The examples at ``indices``, in that order (reduced to lowest terms again)."""
        return Dataset.from_integers(
            [self.rows[i] for i in indices], self.scale, [self.labels[i] for i in indices],
            bias=self.bias, source=self.source,
        )


def _label(value: object) -> int:
    f = to_fraction(value)
    if f == 1:
        return 1
    if f == -1:
        return -1
    raise ValueError(f"label {value!r} is not +1 or -1")
