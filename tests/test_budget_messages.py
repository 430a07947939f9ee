"""What a run stopped by its budget says: a certificate either way when one is known or cheap,
the proven bound on separable data, how to decide it otherwise; counts with their noun."""

from __future__ import annotations

import warnings

import pytest

import verify
from verify.cli import run as run_command
from verify.cli.command import main

TEXTBOOK = "3 3 1\n4 3 1\n1 1 -1\n"          # separable, Novikoff's bound 117
XOR = "0 0 -1\n1 1 -1\n0 1 1\n1 0 1\n"       # not separable


def _pla(capsys, tmp_path, text, *args):
    data = tmp_path / "data.dat"
    data.write_text(text)
    code = main(["run", str(data), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_separable_data_stopped_by_the_update_budget_get_the_proven_bound(capsys, tmp_path):
    code, out, err = _pla(capsys, tmp_path, TEXTBOOK, "--max-updates", "1")
    assert code == 3
    assert "stopped at the budget after 1 update (1 epoch)" in out     # not "1 updates"
    last = err.strip().splitlines()[-1]
    assert last.startswith("pla: stopped after 1 update without halting (--max-updates 1); ")
    assert "the data ARE linearly separable" in last and "T ≤ 117 updates" in last
    assert "--max-updates 117 is enough" in last and "may not" not in err


def test_separable_data_from_another_w0_say_which_bound_holds(capsys, tmp_path):
    code, _, err = _pla(capsys, tmp_path, TEXTBOOK, "--max-updates", "2", "--w0", "1,0,0")
    assert code == 3 and "PLA from w0 = 0 halts after at most T ≤ 117" in err
    assert "`pla run --check` gives the bound from this w0" in err
    code, _, err = _pla(capsys, tmp_path, TEXTBOOK, "--max-updates", "2", "--w0", "1,0,0",
                        "--check")
    assert code == 3 and "this run halts after at most T ≤" in err and "generalised" in err


def test_non_separable_data_stopped_by_a_budget_say_it_must(capsys, tmp_path):
    code, _, err = _pla(capsys, tmp_path, XOR, "--max-updates", "5")
    lines = err.strip().splitlines()
    assert code == 3 and "NOT linearly separable" in err
    assert lines[-1] == ("pla: stopped after 5 updates without halting (--max-updates 5); as "
                         "the certificate above says it must")


def test_unknown_data_say_how_to_decide_and_roughly_how_long(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(run_command, "NOTICE_BEFORE_RUN_MAX_ENTRIES", 0)
    monkeypatch.setattr(run_command, "NOTICE_AFTER_RUN_MAX_ENTRIES", 0)
    code, _, err = _pla(capsys, tmp_path, TEXTBOOK, "--max-updates", "1")
    assert code == 3 and "not known yet" in err and "separable" in err
    assert "pla certify" in err and "roughly 1 second" in err and "9 numbers" in err


def test_a_timeout_during_the_run_gives_what_is_known(capsys, tmp_path, monkeypatch):
    # a budget that expires at once: the engine stops before its first update
    monkeypatch.setattr(run_command, "_within", lambda seconds: _nothing())
    code, out, err = _pla(capsys, tmp_path, TEXTBOOK, "--timeout", "1e-9")
    assert code == 3 and "(--timeout 1e-09 s); the data ARE linearly separable" in err
    assert "this run made 0 updates of them" in err


def _nothing():
    from contextlib import nullcontext
    return nullcontext()


def test_missing_file_has_no_line_number(capsys, tmp_path):
    code = main(["run", str(tmp_path / "nope.dat")])
    err = capsys.readouterr().err
    assert code == 2 and "nope.dat: cannot read file" in err and ":0:" not in err


def test_checked_estimator_warning_gives_the_bound_on_separable_data():
    clf = verify.CheckedPerceptron(max_updates=1)
    with pytest.warns(Warning) as caught:
        clf.fit([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    message = str(caught[0].message)
    assert "after 1 update with" in message and "linearly separable" in message
    assert "max_updates=117" in message


def test_plain_estimator_warning_says_how_to_know(recwarn):
    import pla
    pla.Perceptron(max_updates=1).fit([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    message = str(recwarn.pop().message)
    assert "after 1 update with" in message and "verify.certify" in message
    warnings.simplefilter("default")
