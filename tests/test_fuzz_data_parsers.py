"""Fuzzing the data parsers: any bytes give a Dataset or a located DataError, nothing else.

Bounded by the hypothesis profile (``ci`` in ``make test``; ``make fuzz`` runs the long profile).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, strategies as st

import pla

TOKENS = st.sampled_from([
    "0", "1", "-1", "+1", "1.0", "-1.0", "0.5", "1/3", "-2/7", "3 % 4", "1e-3", "2E+2", ".5",
    "5.", "nan", "inf", "1/0", "x", "#", "1:2", "2:0.5", ",", "", " ", "\t", "\r", "\ufeff",
    "１", "1_0", "0x1", "--1", "1e99999999", "١",
])
SEPARATORS = st.sampled_from([" ", "\t", ",", "  ", ", "])
LINES = st.lists(TOKENS, max_size=6).flatmap(
    lambda toks: SEPARATORS.map(lambda sep: sep.join(toks)))
TEXTS = st.lists(LINES, max_size=8).map("\n".join)


def check(raw: bytes | str, **kwargs) -> None:
    try:
        ds = pla.loads(raw, path="fuzz", **kwargs)
    except pla.DataError as exc:
        assert str(exc).startswith("fuzz:") and "\n" not in str(exc)
        assert exc.line >= 1
        return
    assert ds.n >= 1 and all(y in (1, -1) for y in ds.labels)
    assert all(isinstance(v, Fraction) for row in ds.X for v in row)


@given(TEXTS, st.sampled_from(pla.FORMATS), st.sampled_from(["pm1", "01"]), st.booleans())
def test_token_soup(text, fmt, labels, bias):
    check(text, format=fmt, labels=labels, bias=bias)


@given(st.binary(max_size=300), st.sampled_from(pla.FORMATS))
def test_random_bytes(raw, fmt):
    check(raw, format=fmt)


@given(st.lists(st.lists(st.fractions(max_denominator=50), min_size=1, max_size=4),
                min_size=1, max_size=6).filter(lambda rows: len({len(r) for r in rows}) == 1),
       st.data())
def test_written_data_reads_back_exactly_in_every_format(rows, data):
    labels = data.draw(st.lists(st.sampled_from([1, -1]), min_size=len(rows),
                                max_size=len(rows)))
    expected = pla.Dataset.from_rows(rows, labels)
    dat = "\n".join(" ".join(map(str, r)) + f" {y}" for r, y in zip(rows, labels))
    csv = "\n".join(",".join(map(str, r)) + f",{y}" for r, y in zip(rows, labels))
    svm = "\n".join(f"{y} " + " ".join(f"{i + 1}:{v}" for i, v in enumerate(r))
                    for r, y in zip(rows, labels))
    coq = f"{len(rows)}\n{len(rows[0])}\n" + "".join(
        f"{1 if y > 0 else 0}\n" + "".join(f"{v}\n" for v in r) for r, y in zip(rows, labels))
    for text, fmt in ((dat, "dat"), (csv, "csv"), (svm, "libsvm"), (coq, "coq")):
        got = pla.loads(text, format=fmt, features=len(rows[0]) if fmt == "libsvm" else None)
        assert got.fingerprint == expected.fingerprint, fmt
