"""Reading data files exactly: ``dat``, ``csv``, ``coq`` and ``libsvm``.

Every number is read as an exact rational (``0.1`` is 1/10, ``1e-3`` is 1/1000, ``2/3`` is 2/3);
nothing goes through a float.  Any problem raises :class:`~pla.dataset.DataError` naming the file
and the line.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "tiny.dat")
>>> _ = open(path, "w").write("3 3 +1\\n4 3 1\\n1 1 -1\\n")
>>> ds = load(path)
>>> ds.n, ds.d, ds.X[2]
(3, 2, (Fraction(1, 1), Fraction(1, 1), Fraction(1, 1)))
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from math import lcm
from typing import Iterator, Literal

from pla.dataset import DataError, Dataset
from pla.exact import MAX_DIGITS, MAX_EXPONENT, NumberError, is_number, parse_number
from pla.fast_formats import FAST_PATH_MIN_BYTES, fast_dataset
from pla.files import MAX_INPUT_BYTES, InputRefused, read_bounded, shown_path

__all__ = ["load", "loads", "read_text", "FORMATS", "format_for_path", "LabelScheme", "Limits",
           "MAX_DATA_DIGITS", "MAX_ENTRIES"]

#: The default bound on n × dim × (digits of the common denominator), and on the digits of all
#: the numbers read: about 40 MB of integers.
MAX_DATA_DIGITS = 100_000_000
#: The default bound on n × dim, the entries of the expanded data (a sparse libsvm file with a
#: large index expands to that many): about 10 MB of data in the file, a few hundred MB in memory.
MAX_ENTRIES = 10_000_000

FORMATS = ("dat", "csv", "coq", "libsvm")
LabelScheme = Literal["pm1", "01"]

_EXTENSIONS = {
    ".dat": "dat", ".txt": "dat", ".data": "dat",
    ".csv": "csv",
    ".coq": "coq",
    ".libsvm": "libsvm", ".svm": "libsvm", ".svmlight": "libsvm",
}


@dataclass(frozen=True)
class Limits:
    """What a data file may ask of the machine; each has a command-line option that raises it.

    ``max_digits`` (``--max-digits``): digits in one number.  ``max_exponent``
    (``--max-exponent``): |N| in ``1eN``.  ``max_data_digits`` (``--max-data-digits``): the
    examples are integers over one common denominator, so n × dim × (its digits) bounds their
    size; many distinct prime denominators make it explode.  The same budget bounds the digits
    of all the numbers read (``9e99999`` is 100,000 digits) and n × dim (a libsvm index of
    50,000,000 makes every row that long), checked before anything is expanded.
    ``max_entries`` (``--max-entries``): n × dim, the numbers of the expanded data.
    ``max_input_bytes`` (``--max-input-bytes``): the size of the file itself.

    >>> Limits().max_exponent
    100000
    """

    max_digits: int = MAX_DIGITS
    max_exponent: int = MAX_EXPONENT
    max_data_digits: int = MAX_DATA_DIGITS
    max_entries: int = MAX_ENTRIES
    max_input_bytes: int = MAX_INPUT_BYTES


def format_for_path(path: str) -> str:
    """The format implied by a file name's extension (``dat`` when it says nothing).

    >>> format_for_path("train.csv"), format_for_path("a.svm"), format_for_path("x")
    ('csv', 'libsvm', 'dat')
    """
    return _EXTENSIONS.get(os.path.splitext(path)[1].lower(), "dat")


def load(
    path: str | os.PathLike[str],
    format: str | None = None,
    *,
    labels: LabelScheme = "pm1",
    bias: bool = True,
    label_column: int | str | None = None,
    features: int | None = None,
    limits: Limits = Limits(),
) -> Dataset:
    """Read a data file exactly.

    ``format`` is one of :data:`FORMATS` (default: from the extension, else ``dat``).
    ``labels`` is ``"pm1"`` (labels ±1, also written ``+1``, ``1.0``, ``-1.0``) or ``"01"``
    (0 → −1, 1 → +1; coq files are always 0/1).  ``bias`` prepends x₀ = 1.  ``label_column``
    (csv only) is a 0-based column number (negative counts from the end) or a header name; the
    default is the last column.  ``features`` (libsvm only) fixes the number of features.
    """
    path = os.fspath(path)
    return loads(_read_bytes(path, limits.max_input_bytes), path=path, format=format or format_for_path(path), labels=labels,
                 bias=bias, label_column=label_column, features=features, limits=limits)


def read_text(path: str | os.PathLike[str], max_bytes: int = MAX_INPUT_BYTES) -> str:
    """A text file's content as strict UTF-8 (a byte-order mark dropped), with located errors.

    Raises :class:`~pla.dataset.DataError` for an unreadable file, a file larger than
    ``max_bytes``, a device that never ends, invalid UTF-8 or a NUL byte, naming the line.
    """
    path = os.fspath(path)
    return _decode(_read_bytes(path, max_bytes), path)


def _read_bytes(path: str, max_bytes: int = MAX_INPUT_BYTES) -> bytes:
    try:
        return read_bounded(path, max_bytes)
    except InputRefused as exc:
        raise DataError(path, 0, str(exc).removeprefix(shown_path(path) + ": ")) from None
    except OSError as exc:
        raise DataError(path, 0, f"cannot read file: {exc.strerror or exc}") from None


def loads(
    raw: bytes | str,
    *,
    path: str = "<data>",
    format: str = "dat",
    labels: LabelScheme = "pm1",
    bias: bool = True,
    label_column: int | str | None = None,
    features: int | None = None,
    limits: Limits = Limits(),
) -> Dataset:
    """Parse the text of a data file (bytes are decoded as strict UTF-8); see :func:`load`.

    >>> loads("0 1 1\\n1 0 0\\n", format="dat", labels="01").labels
    (1, -1)
    """
    if format not in FORMATS:
        raise DataError(path, 0, f"unknown format {format!r} (choose from {', '.join(FORMATS)})")
    if labels not in ("pm1", "01"):
        raise DataError(path, 0, f"unknown label scheme {labels!r} (pm1 or 01)")
    text = _decode(raw, path)
    if len(raw) >= FAST_PATH_MIN_BYTES and format != "libsvm":
        # Whole regular files at once; None means "irregular somewhere: read it carefully".
        data = raw if isinstance(raw, bytes) and b"\r" not in raw else text.encode("utf-8")
        fast = fast_dataset(data, format, labels="01" if format == "coq" else labels, bias=bias,
                            path=path, label_column=label_column,
                            max_data_digits=limits.max_data_digits,
                            max_entries=limits.max_entries)
        if fast is not None:
            return fast
    lines = list(_data_lines(text))
    if not text.strip():
        raise DataError(path, 1, "empty file")
    if not lines:
        raise DataError(path, text.count("\n") + 1, "no data (only blank or comment lines)")
    reader = _Reader(path, "01" if format == "coq" else labels, limits)
    if format == "dat":
        parsed = _parse_dat(lines, reader)
    elif format == "csv":
        parsed = _parse_csv(lines, reader, label_column)
    elif format == "coq":
        parsed = _parse_coq(lines, reader, text.count("\n") + 1)
    else:
        parsed = _parse_libsvm(lines, reader, features)
    return _assemble(parsed, reader, bias=bias, source=path)


# ----------------------------------------------------------------------------- internals
@dataclass(frozen=True)
class _Parsed:
    rows: list[list[tuple[int, int]]]
    labels: list[int]


class _Reader:
    """Turns tokens into exact numbers and labels, raising located errors."""

    def __init__(self, path: str, labels: str, limits: Limits = Limits()) -> None:
        self.path = path
        self.labels = labels
        self.limits = limits
        self.row_lines: list[int] = []   # the line of each example's label, in order
        self.digits = 0                  # about how many digits the numbers read so far have
        self.entries = 0                 # how many numbers were read so far

    def error(self, line: int, message: str) -> DataError:
        return DataError(self.path, line, message)

    def number(self, token: str, line: int, what: str = "value") -> tuple[int, int]:
        try:
            num, den = parse_number(token, max_digits=self.limits.max_digits,
                                    max_exponent=self.limits.max_exponent)
        except NumberError as exc:
            raise self.error(line, f"{what}: {exc}") from None
        self.entries += 1
        if self.entries > self.limits.max_entries:
            raise self.error(line, f"more than {self.limits.max_entries:,} numbers "
                                   "(see --max-entries)")
        self.digits += (num.bit_length() + den.bit_length()) * 30103 // 100000 + 1
        if self.digits > self.limits.max_data_digits:
            raise self.error(line, f"the numbers up to here have about {self.digits:,} digits, "
                                   f"more than the limit of {self.limits.max_data_digits:,} "
                                   "(see --max-data-digits)")
        return num, den

    def label(self, token: str, line: int) -> int:
        self.row_lines.append(line)
        num, den = self.number(token, line, "label")
        if den == 1:
            if self.labels == "pm1" and num in (1, -1):
                return num
            if self.labels == "01" and num in (0, 1):
                return 1 if num == 1 else -1
        allowed = "0 or 1" if self.labels == "01" else "+1 or -1 (use --labels 01 for 0/1 labels)"
        shown = token if len(token) <= 20 else token[:20] + "..."
        raise self.error(line, f"label {shown!r} is not {allowed}")


def _decode(raw: bytes | str, path: str) -> str:
    if isinstance(raw, str):
        text = raw
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            raise DataError(path, line, f"invalid UTF-8 (byte {exc.start})") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:  # Windows (CR LF) and old Mac (CR alone) line ends are line ends
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise DataError(path, line, "binary data (NUL byte)")
    return text


def _data_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, stripped text) of every line that is neither blank nor a # comment."""
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, stripped


def _parse_dat(lines: list[tuple[int, str]], reader: _Reader) -> _Parsed:
    rows: list[list[tuple[int, int]]] = []
    labels: list[int] = []
    width = None
    for number, line in lines:
        tokens = line.split()
        if width is None:
            width = len(tokens)
            if width < 2:
                raise reader.error(number, "expected features and a label, found 1 column")
        elif len(tokens) != width:
            raise reader.error(number, f"expected {width} columns, found {len(tokens)}")
        rows.append([reader.number(tok, number) for tok in tokens[:-1]])
        labels.append(reader.label(tokens[-1], number))
    return _Parsed(rows, labels)


def _parse_csv(
    lines: list[tuple[int, str]], reader: _Reader, label_column: int | str | None
) -> _Parsed:
    first_number, first_line = lines[0]
    first_fields = [f.strip() for f in first_line.split(",")]
    header: list[str] | None = None
    if all(not is_number(f) for f in first_fields):
        header = first_fields
        lines = lines[1:]
        if not lines:
            raise reader.error(first_number, "no data after the header row")
    width = len(header) if header is not None else len(first_fields)
    if width < 2:
        raise reader.error(first_number, "expected features and a label, found 1 column")
    column = _label_index(label_column, header, width, reader, first_number)
    rows: list[list[tuple[int, int]]] = []
    labels: list[int] = []
    for number, line in lines:
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != width:
            raise reader.error(number, f"expected {width} columns, found {len(fields)}")
        row = []
        for i, field_text in enumerate(fields):
            if not field_text:
                raise reader.error(number, f"empty field in column {i + 1}")
            if i != column:
                row.append(reader.number(field_text, number, f"column {i + 1}"))
        rows.append(row)
        labels.append(reader.label(fields[column], number))
    return _Parsed(rows, labels)


def _label_index(
    label_column: int | str | None, header: list[str] | None, width: int, reader: _Reader, line: int
) -> int:
    if label_column is None:
        return width - 1
    if isinstance(label_column, str):
        try:
            label_column = int(label_column)
        except ValueError:
            if header is None or label_column not in header:
                raise reader.error(line, f"no column named {label_column!r} in the header") from None
            return header.index(label_column)
    if not -width <= label_column < width:
        raise reader.error(line, f"label column {label_column} is outside the {width} columns")
    return label_column % width


def _parse_coq(lines: list[tuple[int, str]], reader: _Reader, last_line: int) -> _Parsed:
    def count(index: int, what: str) -> int:
        if index >= len(lines):
            raise reader.error(last_line, f"missing the {what} on line {index + 1} of a coq file")
        number, text = lines[index]
        num, den = reader.number(text, number, what)
        if den != 1 or num < 0:
            raise reader.error(number, f"{what} must be a non-negative integer, not {text!r}")
        return num

    n = count(0, "number of examples")
    d = count(1, "number of features")
    if n == 0:
        raise reader.error(lines[0][0], "a coq file with 0 examples has no data")
    expected = 2 + n * (d + 1)
    if len(lines) < expected:
        found = (len(lines) - 2) // (d + 1)
        raise reader.error(last_line, f"the header says {n} examples of {d} features, "
                                      f"but the file ends after {found} complete "
                                      f"example{'' if found == 1 else 's'}")
    if len(lines) > expected:
        raise reader.error(lines[expected][0], f"more lines than the header's {n} examples "
                                               f"of {d} features")
    rows: list[list[tuple[int, int]]] = []
    labels: list[int] = []
    position = 2
    for _ in range(n):
        number, text = lines[position]
        labels.append(reader.label(text, number))
        row = []
        for k in range(1, d + 1):
            number, text = lines[position + k]
            row.append(reader.number(text, number))
        rows.append(row)
        position += d + 1
    return _Parsed(rows, labels)


def _parse_libsvm(
    lines: list[tuple[int, str]], reader: _Reader, features: int | None
) -> _Parsed:
    sparse_rows: list[dict[int, tuple[int, int]]] = []
    labels: list[int] = []
    top = 0
    for number, line in lines:
        tokens = line.split()
        labels.append(reader.label(tokens[0], number))
        entries: dict[int, tuple[int, int]] = {}
        previous = 0
        for token in tokens[1:]:
            index_text, sep, value_text = token.partition(":")
            if not sep or not index_text.isdigit() or not index_text.isascii():
                raise reader.error(number, f"expected index:value, found {token[:30]!r}")
            index = int(index_text)
            if index < 1:
                raise reader.error(number, f"feature index {index} (indices start at 1)")
            if index <= previous:
                raise reader.error(number, f"feature index {index} after {previous} "
                                           "(indices must increase)")
            if features is not None and index > features:
                raise reader.error(number, f"feature index {index} > --features {features}")
            if index >= reader.limits.max_entries:
                raise reader.error(number, f"feature index {index:,}: every example would have "
                                           f"that many coordinates, more than the limit of "
                                           f"{reader.limits.max_entries:,} (see --max-entries)")
            entries[index] = reader.number(value_text, number, f"feature {index}")
            previous = index
        top = max(top, previous)
        sparse_rows.append(entries)
    d = features if features is not None else top
    if d == 0:
        raise reader.error(lines[0][0], "no features in any example")
    if len(sparse_rows) * (d + 1) > reader.limits.max_entries:
        raise reader.error(lines[-1][0], f"{len(sparse_rows):,} examples x {d + 1:,} coordinates "
                                         f"exceed the limit of {reader.limits.max_entries:,} "
                                         "numbers (see --max-entries)")
    zero = (0, 1)
    rows = [[entries.get(i, zero) for i in range(1, d + 1)] for entries in sparse_rows]
    return _Parsed(rows, labels)


def _assemble(parsed: _Parsed, reader: _Reader, *, bias: bool, source: str) -> Dataset:
    dim = len(parsed.rows[0]) + (1 if bias else 0)
    budget = reader.limits.max_data_digits
    scale = 1
    for row, line in zip(parsed.rows, reader.row_lines):
        for _, den in row:
            if scale % den:
                scale = lcm(scale, den)
                digits = scale.bit_length() * 30103 // 100000 + 1
                if len(parsed.rows) * dim * digits > budget:
                    raise reader.error(line, (
                        f"the common denominator of the values up to here has about {digits} "
                        f"digits; {len(parsed.rows)} examples x {dim} coordinates x {digits} "
                        f"digits exceeds the limit of {budget} (see --max-data-digits)"))
    int_rows = [[num * (scale // den) if den != scale else num for num, den in row]
                for row in parsed.rows]
    if bias:
        int_rows = [[scale] + row for row in int_rows]
    return Dataset.from_integers(int_rows, scale, parsed.labels, bias=bias, source=source)
