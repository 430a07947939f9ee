"""The fast (vectorised) reading path gives the same data sets and the same errors as the careful
line-by-line parser, on regular and irregular files alike."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

import pla
import pla.formats as formats
from pla.bulk_numbers import read_numbers
from pla.exact import NumberError, parse_number
from tests.test_formats import BAD


def read_both(content: bytes, format: str, labels: str = "pm1", bias: bool = True):
    """(fast outcome, careful outcome): a Dataset or the (line, message) of the DataError."""
    outcomes = []
    for threshold in (0, 10**12):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(formats, "FAST_PATH_MIN_BYTES", threshold)
            try:
                outcomes.append(formats.loads(content, path="f", format=format, labels=labels,
                                              bias=bias))
            except pla.DataError as exc:
                outcomes.append((exc.line, exc.message))
    return outcomes


# ------------------------------------------------------------------ tokens
#: Integers, decimals and ratios as people write them, plus near misses.
number_texts = st.one_of(
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.builds(lambda s, a, b: f"{s}{a}.{b}", st.sampled_from(["", "-", "+"]),
              st.integers(0, 10**9), st.integers(0, 10**12)),
    st.builds(lambda s, a: f"{s}.{a}", st.sampled_from(["", "-"]), st.integers(0, 999)),
    st.builds(lambda a, sep, b: f"{a}{sep}{b}", st.integers(-(10**19), 10**19),
              st.sampled_from(["/", "%"]), st.integers(-(10**19), 10**19)),
    st.sampled_from(["5.", "-0", "+7", "1e3", "nan", "1/0", "--1", "1.2.3", ".", "-", "x",
                     "2/-4", "0.000", "1/2/3", "%1", "1%", "007", "٣"]),
)


@settings(max_examples=300)
@given(st.lists(number_texts, min_size=1, max_size=8))
def test_tokens_read_in_bulk_equal_tokens_read_one_by_one(tokens):
    bulk = read_numbers(" ".join(tokens).encode())
    try:
        one_by_one = [Fraction(*parse_number(t)) for t in tokens]
    except NumberError:
        one_by_one = None
    if bulk is not None:          # the fast path may decline, but never disagrees
        assert one_by_one is not None
        assert [Fraction(int(n), int(d)) for n, d in zip(bulk.num, bulk.den)] == one_by_one


# ------------------------------------------------------------------ whole files
cells = st.one_of(
    st.integers(-999, 999).map(str),
    st.builds(lambda a, b: f"{a}/{b}", st.integers(-99, 99), st.integers(1, 99)),
    st.builds(lambda a: f"{a / 100:.2f}", st.integers(-999, 999)),
)
spoilers = st.sampled_from(["nan", "1e2", "1/0", "x", "", "#c", "1 2", " ", "2.5.1", "9" * 25])


@st.composite
def table_files(draw, format: str) -> bytes:
    n = draw(st.integers(1, 6))
    d = draw(st.integers(1, 4))
    rows = [[draw(cells) for _ in range(d)] for _ in range(n)]
    labels = [draw(st.sampled_from(["1", "-1", "+1", "1.0", "0", "2"])) for _ in range(n)]
    if draw(st.booleans()):                      # spoil one cell (or not)
        r, c = draw(st.integers(0, n - 1)), draw(st.integers(0, d - 1))
        rows[r][c] = draw(spoilers)
    sep = "," if format == "csv" else draw(st.sampled_from([" ", "\t", "  "]))
    lines = [sep.join(row + [label]) for row, label in zip(rows, labels)]
    if format == "csv" and draw(st.booleans()):
        lines.insert(0, ",".join([f"x{i}" for i in range(d)] + ["y"]))
    if draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(["", "  ", "# c"])))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    return (end.join(lines) + end).encode()


@st.composite
def coq_files(draw) -> bytes:
    n = draw(st.integers(1, 5))
    d = draw(st.integers(1, 4))
    header = [str(n + draw(st.sampled_from([0, 0, 0, 1, -1]))), str(d)]
    body = []
    for _ in range(n):
        body.append(draw(st.sampled_from(["0", "1", "1", "0", "2"])))
        for _ in range(d):
            a, b = draw(st.integers(-100, 100)), draw(st.integers(1, 100))
            body.append(draw(st.sampled_from([f"{a} % {b}", f"{a}/{b}", f"{a}", f"{a}  %  {b}"])))
    if draw(st.booleans()):
        body[draw(st.integers(0, len(body) - 1))] = draw(spoilers)
    return ("\n".join(header + body) + "\n").encode()


@settings(max_examples=150)
@given(st.sampled_from(["dat", "csv"]).flatmap(lambda f: st.tuples(st.just(f), table_files(f))),
       st.sampled_from(["pm1", "01"]), st.booleans())
def test_fast_and_careful_paths_agree_on_tables(case, labels, bias):
    format, content = case
    fast, careful = read_both(content, format, labels, bias)
    assert fast == careful


@settings(max_examples=100)
@given(coq_files(), st.booleans())
def test_fast_and_careful_paths_agree_on_coq_files(content, bias):
    fast, careful = read_both(content, "coq", bias=bias)
    assert fast == careful


@pytest.mark.parametrize("name, content, line, message", BAD)
def test_bad_files_give_the_same_located_error_on_the_fast_path(name, content, line, message):
    format = formats.format_for_path(name)
    fast, careful = read_both(content.encode(), format)
    assert fast == careful == (line, careful[1]) and message in careful[1]


def test_big_regular_files_take_the_fast_path(monkeypatch, tmp_path):
    """A file above the size threshold is read without the per-token parser."""
    calls = []
    monkeypatch.setattr(formats, "parse_number", lambda t: calls.append(t) or parse_number(t))
    rows = "\n".join(" ".join(f"{(7 * i + j) % 200 - 100}/{1 + (i + j) % 50}" for j in range(30))
                     + (" 1" if i % 2 else " -1") for i in range(400))
    path = tmp_path / "big.dat"
    path.write_text(rows + "\n")
    ds = pla.load(path)
    assert (ds.n, ds.d) == (400, 30) and calls == []
    coq = tmp_path / "big.coq"
    lines = ["400", "30"]
    for i in range(400):
        lines.append(str(i % 2))
        lines += [f"{(3 * i + j) % 201 - 100} % 100" for j in range(30)]
    coq.write_text("\n".join(lines) + "\n")
    assert pla.load(coq).n == 400 and calls == []


@pytest.mark.parametrize("content", [
    "1 2,,1\n3,4,-1\n", ",1 2,1\n3,4,-1\n", "1,2 3,\n3,4,-1\n", "1,2,1\n3 4,,-1\n",
    "1,2,1\n,3 4,-1\n", "a,b,y\n1 2,,1\n",
])
def test_csv_fields_holding_two_numbers_or_none_are_refused_alike(content):
    fast, careful = read_both(content.encode(), "csv")
    assert fast == careful and isinstance(careful, tuple)


@settings(max_examples=30)
@given(st.lists(st.lists(number_texts, min_size=1, max_size=5), min_size=1, max_size=30),
       st.integers(min_value=1, max_value=40))
def test_reading_in_chunks_changes_nothing(lines, chunk):
    """Chunks end at line breaks (or run on past a long line); tokens and line numbers agree."""
    import pla.bulk_numbers as bulk

    data = "\n".join(" ".join(line) for line in lines).encode()
    whole = read_numbers(data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bulk, "_CHUNK", chunk)
        chunked = read_numbers(data)
    if whole is None:
        assert chunked is None
    else:
        assert chunked is not None
        for field in ("num", "den", "line"):
            assert getattr(whole, field).tolist() == getattr(chunked, field).tolist()


# ------------------------------------------------------------------ integer tables, int64 edges
#: Integers at the edges that matter: int64 (±2⁶³), float64 exactness (±2⁵³), the fast
#: reader's 18-character limit (±10¹⁸), and far beyond; written plainly, with "+", with zeros.
edge_values = st.one_of(
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**63 - 1, 2**63, 2**53, 2**53 + 1, 10**18 - 1, 10**18, 10**17, 0])
    .flatmap(lambda v: st.integers(v - 2, v + 2))
    .flatmap(lambda v: st.sampled_from([v, -v])),
)
integer_texts = st.one_of(
    edge_values.map(str),
    edge_values.map(lambda v: f"+{v}" if v >= 0 else str(v)),
    edge_values.map(lambda v: ("-" if v < 0 else "") + "00" + str(abs(v))),
)


@settings(max_examples=300)
@given(st.integers(2, 4).flatmap(
    lambda d: st.lists(st.lists(integer_texts, min_size=d, max_size=d), min_size=1,
                       max_size=5)))
def test_integer_tables_are_read_exactly_or_left_to_the_exact_readers(rows):
    """Every value is the exact integer written, never wrapped or rounded; a token longer than
    18 characters (2⁶³ and beyond, or 10¹⁸) is never read by numpy's int64 reader."""
    from pla.bulk_numbers import read_integer_table

    table = read_integer_table("\n".join(" ".join(row) for row in rows).encode())
    if any(len(t) > 18 for row in rows for t in row):
        assert table is None
    else:
        assert table is not None and table.dtype.name == "int64"
        assert table.tolist() == [[int(t) for t in row] for row in rows]


malformed = st.sampled_from(["1.5", "3/4", "1e3", "+-1", "-", "1-2", "0x1f", "nan", "٣", "1_0",
                             "", "1 2", "9" * 40, "-" + "9" * 19, str(2**63), str(-(2**63))])


@settings(max_examples=200)
@given(st.integers(1, 3).flatmap(
    lambda d: st.lists(st.lists(integer_texts, min_size=d, max_size=d), min_size=1,
                       max_size=5)),
       st.booleans(), st.data())
def test_integer_files_agree_with_the_careful_parser(rows, spoil, data):
    """Whole files of edge integers, with or without one malformed cell (a fraction, a decimal,
    an exponent, a stray sign, a missing or extra number): the fast path gives the careful
    parser's exact data set, or its error on the same line."""
    labels = [data.draw(st.sampled_from(["1", "-1", "+1"])) for _ in rows]
    lines = [row + [label] for row, label in zip(rows, labels)]
    if spoil:
        r = data.draw(st.integers(0, len(lines) - 1))
        lines[r][data.draw(st.integers(0, len(lines[r]) - 1))] = data.draw(malformed)
    content = ("\n".join(" ".join(line) for line in lines) + "\n").encode()
    fast, careful = read_both(content, "dat")
    assert fast == careful
    if isinstance(fast, pla.Dataset):
        assert fast.rows == careful.rows and fast.scale == careful.scale


def test_a_big_integer_file_keeps_one_int64_matrix_and_exact_overflow(tmp_path):
    """A regular integer file over the fast-path size is held as one int64 matrix (no Python
    rows until asked for); one value beyond int64 sends it to exact Python integers."""
    lines = [f"{(7 * i) % 201 - 100} {(3 * i) % 101 - 50} {1 if i % 3 else -1}"
             for i in range(5000)]
    path = tmp_path / "ints.dat"
    path.write_text("\n".join(lines) + "\n")
    ds = pla.load(path)
    assert ds.int64_rows is not None and "rows" not in ds.__dict__
    fast, careful = read_both(path.read_bytes(), "dat")
    assert ds.rows[1] == (1, -93, -47) and ds.rows == fast.rows == careful.rows
    lines[4000] = f"{2**63} 1 -1"
    path.write_text("\n".join(lines) + "\n")
    big = pla.load(path)
    assert big.int64_rows is None and big.rows[4000] == (1, 2**63, 1)
    assert big.rows[:4000] == ds.rows[:4000]
