"""``pla run`` and ``pla make-data`` end to end: output contracts, exit codes, traces."""

from __future__ import annotations

import hashlib
import json
from hypothesis import given, strategies as st

import pla
from pla.generate import MarginTooLarge, separable_sample
from tests.cli_runner import pla_cli

TEXTBOOK = "3 3 1\n4 3 1\n1 1 -1\n"
XOR = "0 0 -1\n1 1 -1\n0 1 1\n1 0 1\n"


def data_file(tmp_path, content=TEXTBOOK, name="tb.dat") -> str:
    path = tmp_path / name
    path.write_text(content)
    return str(path)


def test_json_contract(tmp_path):
    done = pla_cli("run", data_file(tmp_path), "--order", "first", "--json")
    assert done.code == 0, done.err
    out = json.loads(done.out)
    assert out["updates"] == 7 and out["halted"] is True and out["w"] == ["-3", "1", "1"]
    assert (out["n"], out["d"], out["order"], out["eta"], out["zero"]) == (3, 2, "first", "1",
                                                                           "mistake")
    assert isinstance(out["epochs"], int)


def test_human_summary(tmp_path):
    done = pla_cli("run", data_file(tmp_path), "--order", "first")
    assert done.code == 0
    assert "halted: no mistake left after 7 updates" in done.out
    assert "(-3, 1, 1)" in done.out


def test_options_reach_the_engine(tmp_path):
    done = pla_cli("run", data_file(tmp_path), "--order", "first", "--eta", "1/2", "--json")
    assert json.loads(done.out)["w"] == ["-3/2", "1/2", "1/2"]
    done = pla_cli("run", data_file(tmp_path), "--w0", "1,0,0", "--json")
    out = json.loads(done.out)
    ds = pla.load(data_file(tmp_path))
    ref = pla.run(ds, w0=[1, 0, 0])
    assert out["w"] == [str(v) for v in ref.w] and out["w0"] == ["1", "0", "0"]
    done = pla_cli("run", data_file(tmp_path), "--zero", "correct", "--json")
    assert json.loads(done.out)["updates"] == 0


def test_budget_exit_code_3(tmp_path):
    done = pla_cli("run", data_file(tmp_path, XOR), "--max-updates", "100", "--json")
    assert done.code == 3
    out = json.loads(done.out)
    assert out["halted"] is False and out["updates"] == 100
    notice, last = done.err.splitlines()[:-1], done.err.splitlines()[-1]
    assert last.startswith("pla: stopped after 100 updates without halting")
    assert "NOT linearly separable" in notice[0]  # XOR is certified non-separable up front


def test_bad_options_exit_2(tmp_path):
    for args in (["--eta", "0"], ["--eta", "x"], ["--w0", "1,2"], ["--w0", "a,b,c"]):
        done = pla_cli("run", data_file(tmp_path), *args)
        assert done.code == 2 and done.err.startswith("pla: error:"), args
        assert "Traceback" not in done.err


def test_steps_table_is_truncated_for_long_runs(tmp_path):
    done = pla_cli("run", data_file(tmp_path, XOR), "--steps", "--max-updates", "60")
    assert done.code == 3
    assert "35 updates not shown" in done.out
    lines = [line for line in done.out.splitlines() if line.strip()[:1].isdigit()]
    assert len(lines) == 25


def test_trace_file(tmp_path):
    trace = tmp_path / "run.jsonl"
    done = pla_cli("run", data_file(tmp_path), "--order", "first", "--trace", str(trace))
    assert done.code == 0
    lines = trace.read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["kind"] for r in records] == ["header"] + ["step"] * 7 + ["summary"]
    header, summary = records[0], records[-1]
    assert header["data_sha256"] == pla.load(data_file(tmp_path)).fingerprint
    assert header["options"]["order"] == "first" and header["version"] == 1
    assert summary["w"] == ["-3", "1", "1"] and summary["updates"] == 7
    assert records[1]["score"] == "0" and records[1]["w_after"] == ["1", "3", "3"]
    assert header["prev"] is None
    for previous, record in zip(lines, records[1:]):
        assert record["prev"] == hashlib.sha256(previous.encode()).hexdigest()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".trace-")]


def test_make_data_then_run(tmp_path):
    out = tmp_path / "gen.dat"
    done = pla_cli("make-data", "--n", "30", "--d", "3", "--margin", "0.05", "--seed", "4",
                   str(out))
    assert done.code == 0, done.err
    ds = pla.load(str(out))
    assert ds.n == 30 and ds.d == 3
    again = tmp_path / "again.dat"
    pla_cli("make-data", "--n", "30", "--d", "3", "--margin", "0.05", "--seed", "4", str(again))
    assert again.read_text() == out.read_text()
    run = pla_cli("run", str(out), "--json")
    assert run.code == 0 and json.loads(run.out)["halted"] is True


@given(st.integers(1, 60), st.integers(1, 4), st.fractions(0, 1, max_denominator=20),
       st.integers(0, 10**6))
def test_generated_data_has_the_margin(n, d, margin, seed):
    try:
        sample = separable_sample(n, d, margin, seed=seed)
    except MarginTooLarge:
        return
    norm2 = sum(a * a for a in sample.w)
    for x, y in zip(sample.rows, sample.labels):
        s = sum(a * b for a, b in zip(sample.w, x)) + sample.b
        assert y * s > 0 and s * s >= margin * margin * norm2
        assert all(-1 <= v <= 1 and (v * 1000).denominator == 1 for v in x)


def test_make_data_refuses_an_impossible_margin(tmp_path):
    done = pla_cli("make-data", "--n", "5", "--margin", "5", str(tmp_path / "x.dat"))
    assert done.code == 2 and "too large" in done.err
    assert not (tmp_path / "x.dat").exists()


def test_help_lists_the_commands():
    done = pla_cli("--help")
    assert done.code == 0 and "run" in done.out and "make-data" in done.out


def test_a_reader_that_leaves_early_is_not_an_error(tmp_path):
    import subprocess
    import sys
    # One wide example: the --json output (20,001 weights) is larger than a pipe's buffer.
    data = data_file(tmp_path, " ".join(["3"] * 20_000) + " 1\n", name="wide.dat")
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from verify.cli import main; sys.exit(main())",
         "run", data, "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()          # like `pla run ... | head -1`
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_a_malformed_line_in_a_big_integer_file_is_one_located_line(tmp_path):
    """Above the fast-path size, a bad line (a stray sign, a fraction in an integer table, a
    missing number) still gives FILE:LINE and exit 2; a value beyond int64 runs exactly."""
    lines = [f"{i % 50 - 25} {(3 * i) % 41 - 20} {1 if i % 50 >= 25 else -1}" for i in range(4000)]
    for bad, message in (("4 +-2 1", "+-2"), ("4 1", "expected 3 columns"), ("1.5.2 3 1", "")):
        content = list(lines)
        content[2999] = bad
        done = pla_cli("run", data_file(tmp_path, "\n".join(content) + "\n", "big.dat"))
        assert done.code == 2 and done.out == ""
        assert done.err.count("\n") == 1 and ":3000:" in done.err and message in done.err
        assert "Traceback" not in done.err
    content = list(lines)
    content[0] = f"{-(2**63) - 1} 0 -1"          # the first update: w = −x₀, beyond int64
    done = pla_cli("run", data_file(tmp_path, "\n".join(content) + "\n", "big.dat"), "--json",
                   "--max-updates", "1")
    assert done.code == 3 and json.loads(done.out)["w"] == ["-1", str(2**63 + 1), "0"]
