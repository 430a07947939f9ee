"""Attacks on `pla homework hw1` (review): bad input is one line and exit 2, at once."""

from __future__ import annotations

from tests.cli_runner import pla_cli


def test_homework_refuses_non_separable_data_at_once(tmp_path) -> None:
    """XOR as DATA: 1 + 2 x 2000 checked runs each went to the 1,000,000-update budget
    (minutes on 4 points, no output); the Gordan certificate is already known."""
    xor = tmp_path / "xor.dat"
    xor.write_text("0 0 1\n1 1 1\n0 1 -1\n1 0 -1\n")
    out = pla_cli("homework", "hw1", str(xor), "--runs", "2", timeout=60)
    assert out.code == 2, out.err
    assert len(out.err.strip().splitlines()) == 1 and "Traceback" not in out.err
    assert "xor.dat: not linearly separable" in out.err and out.out == ""


def test_homework_bad_test_file_is_one_line_with_file_and_line(tmp_path) -> None:
    good = tmp_path / "good.dat"
    good.write_text("1 1 1\n2 2 1\n-1 -1 -1\n")
    bad = tmp_path / "bad.dat"
    bad.write_text("1 1 1\n2 x 1\n")
    out = pla_cli("homework", "hw1", str(good), str(good), str(bad), "--runs", "2")
    assert out.code == 2 and len(out.err.strip().splitlines()) == 1
    assert "bad.dat:2:" in out.err and out.out == ""
