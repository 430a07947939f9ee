"""The fast path of :mod:`pla.formats`: whole regular ``dat``, ``csv`` and ``coq`` files at once.

:func:`fast_dataset` reads every number of the file with :func:`pla.bulk_numbers.read_numbers`,
checks the layout with array operations (the same number of columns on every line; for coq, one
number per line and the counts of the header), converts to integers over the common scale and
builds the :class:`~pla.dataset.Dataset`.  It returns ``None`` whenever anything is irregular --
the careful line-by-line parser then reads the file and, for bad input, reports the exact
``FILE:LINE: message``.  So the fast path changes speed, never results or errors (the tests
compare both paths on generated files).

>>> ds = fast_dataset(b"0.5 1 +1\\n-2 3/4 -1\\n", "dat", labels="pm1", bias=True, path="x.dat")
>>> ds.scale, ds.rows, ds.labels
(4, ((4, 2, 4), (4, -8, 3)), (1, -1))
>>> fast_dataset(b"1 x 1\\n", "dat", labels="pm1", bias=True, path="x.dat") is None
True
"""

from __future__ import annotations

from math import lcm
from typing import Any

from pla.bulk_numbers import read_integer_table, read_numbers
from pla.dataset import Dataset
from pla.exact import is_number

__all__ = ["fast_dataset", "FAST_PATH_MIN_BYTES"]

#: Files smaller than this are read by the careful parser alone (numpy would not pay off).
FAST_PATH_MIN_BYTES = 32 * 1024

_INT64_LIMIT = 2**63 - 1


def fast_dataset(data: bytes, format: str, *, labels: str, bias: bool, path: str,
                 label_column: int | str | None = None,
                 max_data_digits: int | None = None,
                 max_entries: int | None = None) -> Dataset | None:
    """The data set in ``data`` (the file's bytes), or ``None`` to leave it to the careful parser.

    ``labels`` is ``"pm1"`` or ``"01"`` (coq files always use 0/1).
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if format == "dat":
        return _dat(data, labels, bias, path, max_data_digits, max_entries)
    if format == "coq":
        return _coq(data, bias, path, max_data_digits, max_entries)
    if format == "csv":
        return _csv(data, labels, bias, path, label_column, max_data_digits, max_entries)
    return None


def _dat(data: bytes, labels: str, bias: bool, path: str,
         max_data_digits: int | None = None, max_entries: int | None = None) -> Dataset | None:
    import numpy as np

    matrix = _number_matrix(np, data)
    if matrix is None:
        return None
    num, den = matrix
    return _build(np, num[:, :-1], den[:, :-1], num[:, -1], den[:, -1], labels, bias, path,
                  max_data_digits, max_entries)


def _csv(data: bytes, labels: str, bias: bool, path: str,
         label_column: int | str | None, max_data_digits: int | None = None,
         max_entries: int | None = None) -> Dataset | None:
    import numpy as np


    if label_column is not None or b"," not in data or b"#" in data:
        return None
    first_end = data.find(b"\n")
    first = data if first_end < 0 else data[:first_end]
    if not first.strip():
        return None                              # leading blank lines: the careful parser
    try:
        fields = [f.strip() for f in first.decode("utf-8").strip().split(",")]
    except UnicodeDecodeError:
        return None
    header = all(not is_number(f) for f in fields)
    body_start = first_end + 1 if header else 0
    if header and first_end < 0:
        return None
    body = data[body_start:]
    # Every line holds exactly one number between consecutive commas: the same numbers, in
    # the same places, as when each comma is a space, provided each field holds one token.
    matrix = _number_matrix(np, body.replace(b",", b" "), first_line=2 if header else 1)
    if matrix is None:
        return None
    num, den = matrix
    rows, width = num.shape
    if width < 2 or not _one_token_per_field(np, body, rows, width):
        return None
    if header and first.count(b",") + 1 != width:
        return None
    return _build(np, num[:, :-1], den[:, :-1], num[:, -1], den[:, -1], labels, bias, path,
                  max_data_digits, max_entries)


def _one_token_per_field(np: Any, body: bytes, rows: int, width: int) -> bool:
    """Whether every non-blank line is ``field,field,...`` with exactly one token per field."""
    b = np.frombuffer(body, dtype=np.uint8)
    if b.shape[0] == 0:
        return False
    comma = b == 44
    if int(np.count_nonzero(comma)) != rows * (width - 1):
        return False
    # Fields are tokens: a comma must have a token byte on each side, ignoring spaces/tabs.
    blank = (b == 32) | (b == 9) | (b == 13)
    keep = ~blank
    squeezed = b[keep]
    c = np.flatnonzero(squeezed == 44)
    if c.shape[0] == 0:
        return False
    if c[0] == 0 or c[-1] == squeezed.shape[0] - 1:
        return False
    around = np.concatenate([squeezed[c - 1], squeezed[c + 1]])
    return not np.any((around == 44) | (around == 10))


def _coq(data: bytes, bias: bool, path: str,
         max_data_digits: int | None = None, max_entries: int | None = None) -> Dataset | None:
    import numpy as np

    # A coq line holds one number; ratios are written "p % q" (spaces allowed around the sign).
    numbers = read_numbers(data.replace(b" % ", b"%").replace(b" / ", b"/"))
    if numbers is None or numbers.count < 3:
        return None
    if np.any(np.diff(numbers.line) <= 0):      # not one number per line
        return None
    counts = []
    for k in (0, 1):
        num, den = int(numbers.num[k]), int(numbers.den[k])
        if num % den != 0 or num < 0:
            return None
        counts.append(num // den)
    n, d = counts
    if n == 0 or d == 0 or numbers.count != 2 + n * (d + 1):
        return None
    num = numbers.num[2:].reshape(n, d + 1)
    den = numbers.den[2:].reshape(n, d + 1)
    return _build(np, num[:, 1:], den[:, 1:], num[:, 0], den[:, 0], "01", bias, path,
                  max_data_digits, max_entries)


def _number_matrix(np: Any, text: bytes, first_line: int = 1) -> tuple[Any, Any] | None:
    """Numerators and denominators as rows × width arrays: integers through
    :func:`read_integer_table` (the denominators then all 1, one broadcast value), anything
    else through :func:`read_numbers`."""
    integers = read_integer_table(text)
    if integers is not None:
        return integers, np.broadcast_to(np.int64(1), integers.shape)
    return _matrix(np, read_numbers(text, first_line=first_line))


def _matrix(np: Any, numbers: Any) -> tuple[Any, Any] | None:
    """Numerators and denominators as rows × width arrays, when every line has the same width."""
    if numbers is None or numbers.count == 0:
        return None
    table = _table(np, numbers.line, numbers.count)
    if table is None:
        return None
    return numbers.num.reshape(table), numbers.den.reshape(table)


def _table(np: Any, line: Any, count: int) -> tuple[int, int] | None:
    """(rows, width) when every line with tokens has the same number of them (at least 2)."""
    change = np.flatnonzero(np.diff(line)) + 1
    rows = change.shape[0] + 1
    if count % rows:
        return None
    width = count // rows
    if width < 2:
        return None
    bounds = np.concatenate([[0], change, [count]])
    if np.any(np.diff(bounds) != width):
        return None
    return rows, width


def _build(np: Any, num: Any, den: Any, label_num: Any, label_den: Any, labels: str,
           bias: bool, path: str, max_data_digits: int | None = None,
           max_entries: int | None = None) -> Dataset | None:
    # Labels: exactly ±1 (pm1) or 0/1 (01), whatever way they are written (1, 1.0, 2/2).
    if labels == "pm1":
        positive = label_num == label_den
        if not np.all(positive | (label_num == -label_den)):
            return None
    else:
        positive = label_num == label_den
        if not np.all(positive | (label_num == 0)):
            return None
    y = np.where(positive, 1, -1).tolist()
    # One common scale: the lcm of the denominators.  When the largest is a multiple of every
    # other one (integers: all 1; decimals: powers of ten) it is that lcm, found without a sort.
    top = int(den.max())
    if np.all(top % den == 0):
        scale, largest_factor = top, top // int(den.min())
    else:
        distinct = np.unique(den).tolist()
        scale = lcm(1, *distinct)
        largest_factor = scale // distinct[0]
    digits = scale.bit_length() * 30103 // 100000 + 1
    if max_data_digits is not None and num.shape[0] * (num.shape[1] + 1) * digits > max_data_digits:
        return None  # too large: the careful parser says where, as a located error
    if max_entries is not None and num.shape[0] * (num.shape[1] + 1) > max_entries:
        return None  # likewise
    largest = max(int(num.max()), -int(num.min()), 0) if num.size else 0
    if scale <= _INT64_LIMIT and largest * largest_factor <= _INT64_LIMIT:
        # every factor scale/den and every product below fits in int64: exact
        first = 1 if bias else 0                  # the column of the first feature
        values = np.empty((num.shape[0], num.shape[1] + first), dtype=np.int64)
        values[:, :first] = scale
        if scale == 1:
            values[:, first:] = num
        else:
            np.multiply(num, scale // den, out=values[:, first:])
        del den
        # One int64 matrix holds the data (the Python rows are built only if asked for).
        return Dataset.from_int64_matrix(values, scale, np.where(positive, 1, -1), bias=bias,
                                         source=path, copy=False)
    # A scale or a value beyond int64: exact Python integers.
    flat = [a * (scale // m) for a, m in zip(num.reshape(-1).tolist(), den.reshape(-1).tolist())]
    width = num.shape[1]
    int_rows = [flat[r * width:(r + 1) * width] for r in range(num.shape[0])]
    if bias:
        int_rows = [[scale] + row for row in int_rows]
    return Dataset.from_integers(int_rows, scale, y, bias=bias, source=path)
