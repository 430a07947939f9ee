"""End to end: ``pla run --check``, ``pla certify`` and ``pla audit``, with their exit codes."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tests.cli_runner import pla_cli
from verify.cli import main

SEPARABLE = "3 3\t+1\n4 3\t+1\n1 1\t-1\n"
XOR = "0 0\t+1\n1 1\t+1\n0 1\t-1\n1 0\t-1\n"


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "sep.dat").write_text(SEPARABLE)
    (tmp_path / "xor.dat").write_text(XOR)
    (tmp_path / "good.w").write_text("-3\n1\n1\n")
    (tmp_path / "bad.w").write_text("# bias first\n1\n1\n1\n")
    (tmp_path / "float.w").write_text("-2.9999999999999996\n1.0000000000000002\n0.9999999999999998\n")
    (tmp_path / "broken.w").write_text("1\nnan\n1\n")
    return tmp_path


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_run_check_text_and_json(files, capsys):
    code, out, err = run(capsys, "run", files / "sep.dat", "--order", "first", "--check")
    assert code == 0 and "max-margin" in out and "0 violations" in out
    assert "T <= R^2 ||w_f||^2 / rho^2 = (R/gamma)^2 = 117" in out
    code, out, _ = run(capsys, "run", files / "sep.dat", "--order", "first", "--check", "--json")
    data = json.loads(out)
    assert code == 0 and data["updates"] == 7
    assert data["wf"] == ["-2", "1/2", "1/2"] and data["wf_kind"] == "max-margin"
    assert (data["rho"], data["R2"], data["gamma2"], data["bound"]) == ("1", "26", "2/9", "117")
    assert data["violations"] == 0 and data["checks"] == 67   # 7 * 9 + 4 (test_monitor)


def test_run_check_variants(files, capsys):
    for extra in (["--wf", "final"], ["--wf", "lp"], ["--wf", files / "good.w"], ["--paranoid"],
                  ["--w0", "1,2,-1", "--eta", "1/2", "--paranoid", "--steps"],
                  ["--order", "random", "--seed", "3", "--trace", files / "t.jsonl"]):
        code, out, err = run(capsys, "run", files / "sep.dat", "--check", *extra)
        assert code == 0, (extra, err)
    code, out, _ = run(capsys, "run", files / "sep.dat", "--check", "--w0", "1,2,-1", "--json")
    data = json.loads(out)
    assert data["classical_bound_applies"] is False and data["violations"] == 0
    code, out, _ = run(capsys, "run", files / "sep.dat", "--check", "--w0", "1,2,-1")
    assert "does NOT apply" in out and "generalised bound" in out


def test_proof_violation_is_one_line_and_exit_4(files):
    done = pla_cli("run", str(files / "sep.dat"), "--check", "--wf", str(files / "bad.w"))
    assert done.code == 4
    assert done.err.startswith("pla: proof violation: ") and done.err.count("\n") == 1
    assert "w_f is a separator" in done.err and "-3 > 0 is false" in done.err


def test_run_check_usage_errors(files, capsys):
    code, _, err = run(capsys, "run", files / "xor.dat", "--check", "--wf", "final",
                       "--max-updates", "20")
    assert code == 2 and "--wf final needs a run that halts" in err
    code, _, err = run(capsys, "run", files / "sep.dat", "--paranoid")
    assert code == 2 and "need --check" in err
    code, _, err = run(capsys, "run", files / "sep.dat", "--check", "--wf", files / "broken.w")
    assert code == 2 and err.startswith("pla: error: ") and "broken.w:2:" in err


def test_run_check_on_non_separable_data_exit_3(files, capsys):
    code, out, _ = run(capsys, "run", files / "xor.dat", "--check", "--max-updates", "40")
    assert code == 3 and "not linearly separable" in out and "0 violations" in out


def test_certify_separable_and_not(files, capsys):
    code, out, _ = run(capsys, "certify", files / "sep.dat")
    assert code == 0 and "linearly separable: max-margin certificate" in out
    assert "w*        (-2, 1/2, 1/2)" in out and "T ≤ 117 updates" in out
    code, out, _ = run(capsys, "certify", files / "sep.dat", "--json")
    data = json.loads(out)
    assert data["separable"] is True and data["bound"] == "117"
    assert data["certificate"]["kind"] == "max-margin"
    assert data["certificate"]["alpha"] == ["5/4", "0", "13/4"]
    code, out, _ = run(capsys, "certify", files / "xor.dat", "--json")
    data = json.loads(out)
    assert code == 0 and data["separable"] is False
    assert data["certificate"] == {"kind": "gordan", "lambda": ["1", "1", "1", "1"],
                                   "support": [0, 1, 2, 3]}
    code, out, _ = run(capsys, "certify", files / "xor.dat")
    assert "NOT linearly separable" in out and "PLA cannot halt" in out and "pocket" in out


def test_certify_weights_exit_codes(files, capsys):
    code, out, _ = run(capsys, "certify", files / "sep.dat", "--weights", files / "float.w")
    assert code == 0 and "separates" in out
    code, out, _ = run(capsys, "certify", files / "sep.dat", "--weights", files / "bad.w",
                       "--json")
    data = json.loads(out)
    assert code == 1 and data["weights"]["separates"] is False
    assert data["weights"]["row"] == 2 and data["weights"]["margin"] == "-3"
    code, out, _ = run(capsys, "certify", files / "sep.dat", "--weights", files / "bad.w")
    assert code == 1 and "does NOT separate the data: row 3 (1-based) has y_n w.x_n = -3" in out
    code, _, err = run(capsys, "certify", files / "sep.dat", "--weights", files / "broken.w")
    assert code == 2 and "broken.w:2:" in err
    (files / "short.w").write_text("1\n2\n")
    code, _, err = run(capsys, "certify", files / "sep.dat", "--weights", files / "short.w")
    assert code == 2 and "2 weights" in err


def test_audit_exit_codes(files, capsys):
    trace = files / "t.jsonl"
    assert run(capsys, "run", files / "sep.dat", "--order", "random", "--trace", trace)[0] == 0
    code, out, _ = run(capsys, "audit", trace, "--data", files / "sep.dat")
    assert code == 0 and "OK, every check holds" in out
    code, out, _ = run(capsys, "audit", trace, "--data", files / "sep.dat", "--json")
    data = json.loads(out)
    assert data["ok"] is True and data["proof"]["violations"] == 0
    lines = trace.read_text().splitlines()
    record = json.loads(lines[2])
    record["w_after"][1] = str(Fraction(record["w_after"][1]) + Fraction(1, 1000))
    lines[2] = json.dumps(record, separators=(",", ":"))
    (files / "bad.jsonl").write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "audit", files / "bad.jsonl", "--data", files / "sep.dat")
    assert code == 1 and "FAILED at line 3" in out
    code, _, err = run(capsys, "audit", files / "missing.jsonl", "--data", files / "sep.dat")
    assert code == 2 and err.startswith("pla: error:")
    code, out, _ = run(capsys, "audit", trace, "--data", files / "xor.dat", "--json")
    assert code == 1 and json.loads(out)["failure"]["check"] == "data"


def test_audit_incomplete_exit_5(files, capsys):
    trace = files / "t.jsonl"
    run(capsys, "run", files / "sep.dat", "--order", "first", "--trace", trace)
    lines = trace.read_text().splitlines()
    summary = json.loads(lines[-1])
    incomplete = {"kind": "incomplete", "reason": "interrupted", "lines": summary["lines"],
                  "prev": summary["prev"]}
    (files / "cut.jsonl").write_text("\n".join(lines[:-1] + [json.dumps(
        incomplete, separators=(",", ":"))]) + "\n")
    code, out, _ = run(capsys, "audit", files / "cut.jsonl", "--data", files / "sep.dat")
    assert code == 5 and "INCOMPLETE" in out and "interrupted" in out


def test_violation_before_the_run_writes_no_trace(files):
    done = pla_cli("run", str(files / "sep.dat"), "--check", "--wf", str(files / "bad.w"),
                   "--trace", str(files / "v.jsonl"))
    assert done.code == 4 and not (files / "v.jsonl").exists()
    assert not list(files.glob(".trace-*"))
