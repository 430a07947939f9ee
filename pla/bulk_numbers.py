"""Reading many exact numbers at once: a vectorised tokenizer for regular numeric text.

A data file of 400 × 1000 rationals has 400,000 numbers; parsing them one by one in Python takes
most of a second.  :func:`read_numbers` reads a whole buffer with a few numpy passes instead, for
the regular case -- tokens that are integers (``-7``), decimals (``0.25``, ``.5``, ``5.``) or
ratios (``3/4``, ``3%4``) of at most 18 digits per part, separated by spaces, tabs and newlines --
and returns ``None`` as soon as anything else appears (a letter, an exponent, a comment, a long
number, a zero denominator, a stray sign).  The caller then uses the careful token-by-token
parser, which accepts everything this one accepts with the same values, and produces the exact
located error for bad input.

Every value is exact: digits are combined in int64 with at most 18 digits per part (< 10¹⁸ <
2⁶³), never through a float.

>>> numbers = read_numbers(b"1 -0.25 3/4\\n+5. 7%-2\\n")
>>> numbers.num.tolist(), numbers.den.tolist(), numbers.line.tolist()
([1, -25, 3, 5, -7], [1, 100, 4, 1, 2], [1, 1, 1, 2, 2])
>>> read_numbers(b"1 2e3\\n") is None          # exponents: the careful parser's job
True

Tables of integers have a faster path still, :func:`read_integer_table`: numpy's C reader
(``loadtxt`` into int64), used only where its result is provably exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Numbers", "read_numbers", "read_integer_table", "MAX_PART_DIGITS"]

#: Digits allowed in one part (numerator digits or denominator digits) on the fast path.
MAX_PART_DIGITS = 18

_CHUNK = 1 << 18          # bytes per vectorised pass: bounded memory (~40 bytes per byte)


@dataclass(frozen=True)
class Numbers:
    """Tokens of a buffer as exact numbers ``num[k] / den[k]`` (``den > 0``, not reduced), with
    the 1-based line number of each token."""

    num: Any
    den: Any
    line: Any

    @property
    def count(self) -> int:
        return int(self.num.shape[0])


def read_numbers(data: bytes, first_line: int = 1) -> Numbers | None:
    """All whitespace-separated numeric tokens of ``data``, or ``None`` when anything is outside
    the regular grammar (see the module docstring).  ``first_line`` numbers the first line.

    >>> read_numbers(b"  12\\t-3/6 \\r\\n\\n.5\\n", first_line=10).line.tolist()
    [10, 10, 12]
    >>> [read_numbers(t) for t in (b"1/0", b"--1", b"1.2.3", b"1/2.5", b"-", b"1" * 19)]
    [None, None, None, None, None, None]
    """
    import numpy as np

    pieces = []
    start, line = 0, first_line
    size = len(data)
    while start < size:
        stop = min(size, start + _CHUNK)
        if stop < size:
            cut = data.rfind(b"\n", start, stop)
            stop = cut + 1 if cut >= start else data.find(b"\n", stop) + 1 or size
        chunk = data[start:stop]
        piece = _read_chunk(np, chunk, line)
        if piece is None:
            return None
        pieces.append(piece)
        line += chunk.count(b"\n")
        start = stop
    if not pieces:
        empty = np.zeros(0, dtype=np.int64)
        return Numbers(empty, empty.copy(), empty.copy())
    if len(pieces) == 1:
        return pieces[0]
    # One field at a time, each piece's array dropped once copied: the peak is the pieces plus
    # one joined field, not the pieces plus all three.
    fields = [[p.num for p in pieces], [p.den for p in pieces], [p.line for p in pieces]]
    del pieces, piece
    joined = []
    for parts in fields:
        joined.append(np.concatenate(parts))
        parts.clear()
    return Numbers(*joined)


def read_integer_table(data: bytes) -> Any | None:
    """The table of integers in ``data`` as an int64 matrix (one row per non-blank line), or
    ``None`` when ``data`` is anything else: then :func:`read_numbers` and the careful parser
    decide, with the same values and the located errors.

    Exact by construction, whatever numpy's reader does with other text: every byte is a digit,
    a sign or whitespace (no dot, no exponent, no letter), and every token has at most
    ``MAX_PART_DIGITS`` = 18 characters, so every value lies within ±(10¹⁸ − 1), inside int64
    (< 2⁶³): nothing can overflow, wrap or round.  numpy's int64 reader refuses a stray sign or
    a ragged table (then ``None``), and the number of values is checked against the number of
    tokens.  Longer integers (``2**63`` and beyond) take the other readers, as Python integers.

    >>> read_integer_table(b"1 -2 +1\\n\\n30 007 -1\\r\\n").tolist()
    [[1, -2, 1], [30, 7, -1]]
    >>> [read_integer_table(t) for t in (b"1 2.5\\n", b"1 2\\n3\\n", b"1 +-2\\n", b"9" * 19, b"")]
    [None, None, None, None, None]
    """
    import io

    import numpy as np

    if not data or data.translate(None, b"0123456789+- \t\r\n"):   # a byte of anything else
        return None
    b = np.frombuffer(data, dtype=np.uint8)
    space = (b == 32) | (b == 9) | (b == 10)
    carriage = np.flatnonzero(b == 13)
    if carriage.shape[0]:                                  # \r only as part of \r\n
        if carriage[-1] + 1 >= b.shape[0] or np.any(b[carriage + 1] != 10):
            return None
        space[carriage] = True
    token = ~space
    del space
    tokens = int(token[0]) + int(np.count_nonzero(token[1:] > token[:-1]))   # token starts
    # No run of more than 18 token bytes: runs[p] says "token bytes at p .. p + width − 1",
    # the width doubled (then topped up) on boolean arrays, no positions held.
    runs, width = token, 1
    while width < MAX_PART_DIGITS + 1 and runs.shape[0]:
        step = min(width, MAX_PART_DIGITS + 1 - width)
        runs, width = runs[:-step] & runs[step:], width + step
    if tokens == 0 or np.any(runs):
        return None
    del runs, token
    try:
        table = np.loadtxt(io.BytesIO(data), dtype=np.int64, ndmin=2, comments=None,
                           encoding="ascii")
    except ValueError:                             # a stray sign, a ragged table
        return None
    if table.size != tokens or table.shape[1] < 2:
        return None
    return table


def _read_chunk(np: Any, chunk: bytes, first_line: int) -> Numbers | None:
    b = np.frombuffer(chunk, dtype=np.uint8)
    n = b.shape[0]
    digit = (b >= 48) & (b <= 57)
    sign = (b == 43) | (b == 45)                      # + -
    dot = b == 46
    slash = (b == 47) | (b == 37)                     # / %
    sep = (b == 32) | (b == 9) | (b == 10) | (b == 13)
    if not np.all(digit | sign | dot | slash | sep):
        return None
    token = ~sep
    prev_token = np.empty(n, dtype=bool)
    prev_token[0] = False
    prev_token[1:] = token[:-1]
    starts = token & ~prev_token
    start_pos = np.flatnonzero(starts)
    T = start_pos.shape[0]
    if T == 0:
        empty = np.zeros(0, dtype=np.int64)
        return Numbers(empty, empty.copy(), empty.copy())

    def shifted(mask: Any, by: int) -> Any:       # mask of position p + by (False outside)
        out = np.zeros(n, dtype=bool)
        if by > 0:
            out[:-by] = mask[by:]
        else:
            out[-by:] = mask[:by]
        return out

    next_digit = shifted(digit, 1)
    # A sign opens a token (then a digit or a dot follows) or follows a slash (then a digit).
    sign_ok = (starts & (next_digit | shifted(dot, 1))) | (shifted(slash, -1) & next_digit)
    if np.any(sign & ~sign_ok):
        return None
    # A slash sits between a digit and a digit or sign.
    if np.any(slash & ~(shifted(digit, -1) & (next_digit | shifted(sign, 1)))):
        return None
    def running_count(mask: Any) -> Any:          # how many of mask[0..p] are set, for each p
        return np.cumsum(mask.view(np.uint8), dtype=np.int32)

    tid = running_count(starts)
    tid -= 1                                          # token id of every byte
    dot_pos = np.flatnonzero(dot)
    slash_pos = np.flatnonzero(slash)                 # at most one per token, in token order
    dots = np.bincount(tid[dot_pos], minlength=T)
    slashes = np.bincount(tid[slash_pos], minlength=T)
    if np.any(dots > 1) or np.any(slashes > 1) or np.any((dots + slashes) > 1):
        return None

    # Digits: which part (before or after the slash), and whether after the dot.  Each token
    # has at most one slash and one dot, so "after" compares with that token's slash/dot.
    digit_pos = np.flatnonzero(digit)
    dtid = tid[digit_pos]
    nowhere = np.int64(n)                              # after every digit of the chunk
    slash_at = np.full(T, nowhere, dtype=np.int64)
    slash_at[tid[slash_pos]] = slash_pos
    dot_at = np.full(T, nowhere, dtype=np.int64)
    dot_at[tid[dot_pos]] = dot_pos
    after_slash = digit_pos > slash_at[dtid]
    after_dot = digit_pos > dot_at[dtid]
    del tid, slash_at, dot_at, sign_ok, next_digit, token, prev_token
    key = dtid.astype(np.int64) * 2 + after_slash     # non-decreasing along digit_pos
    if key.shape[0] == 0:
        return None
    boundary = np.empty(key.shape[0], dtype=bool)
    boundary[0] = True
    boundary[1:] = key[1:] != key[:-1]
    run_start = np.flatnonzero(boundary)
    run_end = np.empty_like(run_start)
    run_end[:-1] = run_start[1:]
    run_end[-1] = key.shape[0]
    lengths = run_end - run_start
    if np.any(lengths > MAX_PART_DIGITS):
        return None
    run_key = key[run_start]
    part0 = run_key % 2 == 0
    if int(np.count_nonzero(part0)) != T:            # a token without a digit before any slash
        return None
    run_of_digit = running_count(boundary)
    run_of_digit -= 1
    exponent = run_end[run_of_digit]
    del run_of_digit
    exponent -= 1
    exponent -= np.arange(key.shape[0])
    powers = 10 ** np.arange(MAX_PART_DIGITS + 1, dtype=np.int64)   # up to 10¹⁸ < 2⁶³
    values = (b[digit_pos].astype(np.int64) - 48) * powers[exponent]
    part_values = np.add.reduceat(values, run_start)

    whole = part_values[part0]                        # one per token, in token order
    num = np.where(b[start_pos] == 45, -whole, whole)
    frac = np.bincount(dtid[after_dot], minlength=T)
    den = powers[frac] if frac.shape[0] else frac
    if np.any(slashes):
        ratio_tokens = run_key[~part0] // 2
        denominator = part_values[~part0]
        negative = b[slash_pos + 1] == 45
        if np.any(denominator == 0):
            return None
        num[ratio_tokens] = np.where(negative, -num[ratio_tokens], num[ratio_tokens])
        den = den.copy()
        den[ratio_tokens] = denominator
    line = running_count(b == 10)[start_pos].astype(np.int64) + first_line
    return Numbers(num.astype(np.int64), den.astype(np.int64), line.astype(np.int64))
