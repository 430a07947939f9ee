"""Fuzzing the weights-file reader (``--weights``, ``--wf FILE``): weights or a located error."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, strategies as st

import pla
from verify.checks.checked_run import read_weights

LINES = st.sampled_from(["1", "-0.5", "1/3", "# c", "", "  2.5e-3  ", "nan", "x", "1 2", "\ufeff1",
                         "0.1000000000000000055511151231257827", "inf", "1/0", "3 # w0"])


def check(tmp_path, raw: bytes, dim: int | None) -> None:
    path = tmp_path / "w.txt"
    path.write_bytes(raw)
    try:
        w = read_weights(str(path), dim)
    except pla.DataError as exc:
        assert str(exc).startswith(str(path) + ":") and "\n" not in str(exc)
        assert exc.line >= 1
        return
    assert all(isinstance(v, Fraction) for v in w) and (dim is None or len(w) == dim)


@given(st.lists(LINES, max_size=6), st.none() | st.integers(1, 4))
def test_line_soup(tmp_path_factory, lines, dim):
    check(tmp_path_factory.mktemp("w"), "\n".join(lines).encode(), dim)


@given(st.binary(max_size=200))
def test_random_bytes(tmp_path_factory, raw):
    check(tmp_path_factory.mktemp("w"), raw, None)


def test_float_text_is_read_exactly(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("0.1\n-2.5e-1\n")
    assert read_weights(str(path)) == (Fraction(1, 10), Fraction(-1, 4))
