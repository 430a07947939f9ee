"""Reading data exactly, in every format, and refusing bad input with a located one-line error."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

import pla
from pla.exact import NumberError, parse_number
from tests.cli_runner import pla_cli


def write(tmp_path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", newline="")
    return str(path)


# ------------------------------------------------------------------ numbers
@pytest.mark.parametrize("text, value", [
    ("0.97681", Fraction(97681, 100000)), ("1e-3", Fraction(1, 1000)), ("-2.5E+2", -250),
    ("3/6", Fraction(1, 2)), ("-3/-6", Fraction(1, 2)), ("7 % 2", Fraction(7, 2)), ("+1", 1),
    (".5", Fraction(1, 2)), ("5.", 5), ("0.1", Fraction(1, 10)), ("-0", 0), ("1.0", 1),
])
def test_numbers_are_exact(text, value):
    assert Fraction(*parse_number(text)) == value


@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-Infinity", "abc", "1/0", "1e", ".", "",
                                  "0x10", "1_000", "١", "²", "1e999999", "--1", "1/2/3"])
def test_non_numbers_are_refused(text):
    with pytest.raises(NumberError):
        parse_number(text)


@given(st.fractions(max_denominator=10**6))
def test_fraction_text_round_trips(value):
    assert Fraction(*parse_number(str(value))) == value


@given(st.decimals(allow_nan=False, allow_infinity=False, places=6))
def test_decimal_text_is_read_exactly(value):
    assert Fraction(*parse_number(str(value))) == Fraction(value)


# ------------------------------------------------------------------ formats
def test_dat_homework_format(tmp_path):
    path = write(tmp_path, "hw.dat", "0.97681 0.10723 0.64385 0.29556\t1\n"
                                     "0.67194 0.2418 0.83075 0.42741\t-1\n")
    ds = pla.load(path)
    assert (ds.n, ds.d, ds.dim, ds.labels) == (2, 4, 5, (1, -1))
    assert ds.X[0] == (1, Fraction(97681, 100000), Fraction(10723, 100000),
                       Fraction(64385, 100000), Fraction(29556, 100000))
    assert ds.X[1][2] == Fraction(2418, 10000)


def test_tolerated_layout(tmp_path):
    content = "\ufeff# a comment\r\n\r\n  1\t 2   +1  \r\n# another\r\n3 4 -1.0\r\n\r\n"
    ds = pla.load(write(tmp_path, "x.dat", content))
    assert ds.X == ((1, 1, 2), (1, 3, 4)) and ds.labels == (1, -1)


def test_no_bias(tmp_path):
    ds = pla.load(write(tmp_path, "x.dat", "1 2 1\n"), bias=False)
    assert ds.X == ((1, 2),) and ds.d == 2 and ds.dim == 2


def test_csv_header_and_label_column(tmp_path):
    path = write(tmp_path, "x.csv", "label,a,b\n1,0.5,1/3\n-1,2,3\n")
    ds = pla.load(path, label_column="label")
    assert ds.X[0] == (1, Fraction(1, 2), Fraction(1, 3)) and ds.labels == (1, -1)
    same = pla.load(path, label_column=0)
    assert same.fingerprint == ds.fingerprint
    plain = pla.load(write(tmp_path, "y.csv", "0.5,1/3,1\n2,3,-1\n"))
    assert plain.fingerprint == ds.fingerprint


def test_coq_format(tmp_path):
    content = "2\n3\n1\n1/2\n3 % 4\n-2\n0\n0.25\n7\n1e1\n"
    ds = pla.load(write(tmp_path, "b.coq", content))
    assert ds.labels == (1, -1)
    assert ds.X == ((1, Fraction(1, 2), Fraction(3, 4), -2), (1, Fraction(1, 4), 7, 10))


def test_libsvm_format(tmp_path):
    ds = pla.load(write(tmp_path, "s.svm", "+1 1:0.5 3:2\n-1 2:1\n"))
    assert ds.X == ((1, Fraction(1, 2), 0, 2), (1, 0, 1, 0)) and ds.labels == (1, -1)
    wide = pla.load(write(tmp_path, "t.libsvm", "1 2:1\n"), features=5)
    assert wide.d == 5


def test_01_labels(tmp_path):
    ds = pla.load(write(tmp_path, "z.dat", "1 2 0\n3 4 1\n"), labels="01")
    assert ds.labels == (-1, 1)


def test_formats_agree_on_the_same_data(tmp_path):
    dat = pla.load(write(tmp_path, "a.dat", "0.5 -1 1\n2 3 -1\n"))
    csv = pla.load(write(tmp_path, "a.csv", "1/2,-1,+1\n2,3,-1\n"))
    coq = pla.load(write(tmp_path, "a.coq", "2\n2\n1\n1/2\n-1\n0\n2\n3\n"))
    svm = pla.load(write(tmp_path, "a.svm", "1 1:0.5 2:-1\n-1 1:2 2:3\n"))
    assert dat.fingerprint == csv.fingerprint == coq.fingerprint == svm.fingerprint


def test_format_option_overrides_the_extension(tmp_path):
    path = write(tmp_path, "data.txt", "1,2,1\n")
    assert pla.load(path, "csv").X == ((1, 1, 2),)


# ------------------------------------------------------------------ bad input
BAD = [
    ("nan.dat", "1 2 1\n3 nan 1\n", 2, "not a finite number"),
    ("inf.dat", "1 2 1\n\n-inf 2 1\n", 3, "not a finite number"),
    ("word.dat", "1 2 1\n1 x 1\n", 2, "is not a number"),
    ("cols.dat", "1 2 1\n1 1\n", 2, "expected 3 columns, found 2"),
    ("label.dat", "1 2 1\n1 2 2\n", 2, "label '2' is not +1 or -1"),
    ("label01.dat", "1 2 1\n1 2 0\n", 2, "use --labels 01"),
    ("empty.dat", "", 1, "empty file"),
    ("blank.dat", "\n  \n", 1, "empty file"),
    ("comments.dat", "# nothing\n\n# here\n", 4, "no data"),
    ("zero.dat", "1/0 1 1\n", 1, "zero denominator"),
    ("one.dat", "1\n", 1, "found 1 column"),
    ("cols.csv", "a,b,y\n1,2,1\n1,2\n", 3, "expected 3 columns, found 2"),
    ("field.csv", "1,,1\n", 1, "empty field in column 2"),
    ("short.coq", "2\n2\n1\n1\n2\n", 6, "ends after 1 complete example"),
    ("long.coq", "1\n1\n1\n5\n0\n", 5, "more lines than"),
    ("label.coq", "1\n1\n-1\n5\n", 3, "label '-1' is not 0 or 1"),
    ("count.coq", "x\n1\n", 1, "number of examples"),
    ("index.svm", "1 0:1\n", 1, "indices start at 1"),
    ("order.svm", "1 2:1 1:1\n", 1, "indices must increase"),
    ("pair.svm", "1 2=1\n", 1, "expected index:value"),
]


@pytest.mark.parametrize("name, content, line, message", BAD)
def test_bad_input_is_located(tmp_path, name, content, line, message):
    path = write(tmp_path, name, content)
    with pytest.raises(pla.DataError) as info:
        pla.load(path)
    assert info.value.line == line and info.value.path == path
    assert message in info.value.message


def test_invalid_utf8_is_located(tmp_path):
    path = write(tmp_path, "bin.dat", b"1 2 1\n3 4 1\n5 \xff 1\n")
    with pytest.raises(pla.DataError) as info:
        pla.load(path)
    assert info.value.line == 3 and "invalid UTF-8" in info.value.message


@pytest.mark.parametrize("name, content, line, message", [BAD[0], BAD[3], BAD[6], BAD[13]])
def test_cli_reports_bad_input_in_one_line(tmp_path, name, content, line, message):
    path = write(tmp_path, name, content)
    done = pla_cli("run", path)
    assert done.code == 2 and done.out == ""
    assert done.err.count("\n") == 1 and "Traceback" not in done.err
    assert done.err.startswith(f"pla: error: {path}:{line}: ") and message in done.err


def test_cli_missing_file(tmp_path):
    done = pla_cli("run", str(tmp_path / "nope.dat"))
    assert done.code == 2 and "cannot read file" in done.err and done.err.count("\n") == 1
