"""Issue 19: outputs that never clobber, inputs that cannot exhaust memory, write errors without
tracebacks; and the verdict deciding the exit code whatever happens to standard output."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import signal
import stat
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import given, settings, strategies as st

import pla
from pla.dataset import DataError
from pla.files import (InputRefused, OutputRefused, SafeOutput, read_bounded, shown_path)
from pla.formats import Limits
from pla.trace import TraceWriter, header_record, step_record, summary_record
from tests.cli_runner import pla_cli

XOR = "0 0 -1\n1 1 -1\n0 1 1\n1 0 1\n"
TEXTBOOK = "3 3 +1\n4 3 +1\n1 1 -1\n"
PLA = [sys.executable, "-c", "import sys; from verify.cli import main; sys.exit(main())"]


def write(path, text):
    path.write_text(text)
    return str(path)


def temporaries(directory):
    return [p.name for p in directory.iterdir()
            if p.name.startswith((".pla-", ".trace-", ".data-"))]


def one_line_error(done, *needles):
    assert "Traceback" not in done.err, done.err
    lines = done.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pla: error: "), done.err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


# ------------------------------------------------------------------ outputs that never clobber
@pytest.mark.parametrize("spelling", ["same", "dot", "hardlink", "symlink"])
def test_a_trace_never_replaces_the_data(tmp_path, spelling):
    data = write(tmp_path / "d.dat", TEXTBOOK)
    target = {"same": data, "dot": str(tmp_path / "." / "d.dat"),
              "hardlink": str(tmp_path / "hard.dat"), "symlink": str(tmp_path / "soft.dat")}
    if spelling == "hardlink":
        os.link(data, target["hardlink"])
    if spelling == "symlink":
        os.symlink(data, target["symlink"])
    done = pla_cli("run", data, "--trace", target[spelling])
    assert done.code == 2
    one_line_error(done, "refusing to overwrite an input")
    assert open(data).read() == TEXTBOOK
    assert not temporaries(tmp_path)


def test_a_trace_never_replaces_the_wf_file(tmp_path):
    data = write(tmp_path / "d.dat", TEXTBOOK)
    wf = write(tmp_path / "wf.txt", "-3\n1\n1\n")
    done = pla_cli("run", data, "--check", "--wf", wf, "--trace", wf)
    assert done.code == 2 and open(wf).read() == "-3\n1\n1\n"


def test_make_data_refuses_the_same_file_twice(tmp_path):
    out = str(tmp_path / "a.dat")
    done = pla_cli("make-data", out, "--flip", "1/10", "--test-out", out)
    assert done.code == 2
    one_line_error(done, "named twice")
    assert not os.path.exists(out)


@pytest.mark.parametrize("command", ["run", "make-data"])
def test_devices_and_fifos_are_written_in_place(tmp_path, command):
    data = write(tmp_path / "d.dat", TEXTBOOK)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(open(fifo, "rb").read()))
    reader.start()
    args = (["run", data, "--trace"] if command == "run" else ["make-data", "--n", "5"])
    done = pla_cli(*args, str(fifo))
    reader.join(timeout=60)
    assert done.code == 0, done.err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)          # still a FIFO, not a regular file
    assert received and received[0].count(b"\n") >= 5
    done = pla_cli(*args, "/dev/null")
    assert done.code == 0 and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_directory_is_refused(tmp_path):
    data = write(tmp_path / "d.dat", TEXTBOOK)
    for args in (["run", data, "--trace", str(tmp_path)], ["make-data", str(tmp_path)]):
        done = pla_cli(*args)
        assert done.code == 2
        one_line_error(done, "a directory")
    assert not temporaries(tmp_path)


@pytest.mark.parametrize("case", ["full-device", "file-size-limit", "long-name"])
def test_write_errors_are_one_line_and_leave_nothing(tmp_path, case):
    data = write(tmp_path / "d.dat", XOR)
    target = {"full-device": "/dev/full", "file-size-limit": str(tmp_path / "t.jsonl"),
              "long-name": str(tmp_path / ("a" * 300))}[case]

    def limit_file_size() -> None:
        if case == "file-size-limit":
            resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))
    proc = subprocess.run(PLA + ["run", data, "--trace", target, "--max-updates", "1000"],
                          capture_output=True, text=True, timeout=120, preexec_fn=limit_file_size)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    line = proc.stderr.strip().splitlines()[-1]
    assert line.startswith("pla: error: ") and "cannot write" in line
    assert {"full-device": "No space left", "file-size-limit": "File too large",
            "long-name": "File name too long"}[case] in line
    assert not temporaries(tmp_path) and not os.path.exists(str(tmp_path / "t.jsonl"))


def test_standard_output_on_a_full_device(tmp_path):
    data = write(tmp_path / "d.dat", TEXTBOOK)
    with open("/dev/full", "w") as full:
        proc = subprocess.run(PLA + ["run", data], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == "pla: error: standard output: cannot write: No space left on device"


# ------------------------------------------------------------------ the verdict decides the code
REFUTED = "```claim\nassume: x >= 0\nx**2 >= x\n```\n"


@pytest.mark.parametrize("command", ["claims", "audit", "certify"])
def test_a_closed_pipe_never_turns_a_failure_into_0(tmp_path, command):
    data = write(tmp_path / "d.dat", TEXTBOOK)
    if command == "claims":
        args = ["claims", write(tmp_path / "refuted.md", REFUTED * 200)]
    elif command == "audit":
        trace = tmp_path / "t.jsonl"
        assert pla_cli("run", data, "--trace", str(trace)).code == 0
        lines = trace.read_text().splitlines()
        lines[2] = lines[2].replace('"y":-1', '"y":1')
        trace.write_text("\n".join(lines) + "\n")
        args = ["audit", str(trace), "--data", data]
    else:
        args = ["certify", data, "--weights", write(tmp_path / "w.txt", "1\n1\n1\n")]
    reader_gone = subprocess.run(
        ["bash", "-c", 'set -o pipefail; "$@" | true', "bash", *PLA, *args],
        capture_output=True, text=True, timeout=300)
    assert reader_gone.returncode == 1, reader_gone.stderr
    assert "Traceback" not in reader_gone.stderr


# ------------------------------------------------------------------ signals
def _run_until_trace_grows(tmp_path, data):
    proc = subprocess.Popen(PLA + ["run", data, "--trace", str(tmp_path / "run.jsonl"),
                                   "--max-updates", "100000000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        temps = [p for p in tmp_path.iterdir() if p.name.startswith(".trace-")]
        if temps and temps[0].stat().st_size > 10_000:
            break
        time.sleep(0.05)
    return proc


def test_sigterm_leaves_a_valid_incomplete_trace_and_exit_143(tmp_path):
    data = write(tmp_path / "xor.dat", XOR)
    proc = _run_until_trace_grows(tmp_path, data)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "Traceback" not in err and "terminated" in err
    lines = (tmp_path / "run.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert records[-1]["kind"] == "incomplete"
    assert records[-1]["reason"] == "terminated (SIGTERM)"
    for previous, record in zip(lines, records[1:]):
        assert record["prev"] == hashlib.sha256(previous.encode()).hexdigest()
    assert not temporaries(tmp_path)
    audit = pla_cli("audit", str(tmp_path / "run.jsonl"), "--data", data)
    assert audit.code == 5


def test_a_signal_during_the_finish_is_deferred_until_the_trace_is_complete(tmp_path,
                                                                            monkeypatch):
    ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    path = tmp_path / "t.jsonl"
    real_fsync = os.fsync

    def interrupted_fsync(fd: int) -> None:
        os.kill(os.getpid(), signal.SIGINT)           # Ctrl-C lands during the fsync
        time.sleep(0.01)
        real_fsync(fd)
    with pytest.raises(KeyboardInterrupt):
        with TraceWriter(path, header_record(ds, pla.RunOptions())) as tw:
            result = pla.run(ds, on_step=lambda s: tw.write(step_record(s)))
            monkeypatch.setattr(os, "fsync", interrupted_fsync)
            tw.close(summary_record(result))
    kinds = [json.loads(line)["kind"] for line in path.read_text().splitlines()]
    assert kinds[-1] == "summary" and "incomplete" not in kinds
    from verify.checks.audit import audit
    assert audit(str(path), ds).status == "ok"


# ------------------------------------------------------------------ bounded inputs
@pytest.mark.parametrize("where", ["data", "weights", "wf", "test", "audit", "claims"])
def test_devices_that_never_end_are_refused_everywhere(tmp_path, where):
    data = write(tmp_path / "d.dat", TEXTBOOK)
    args = {"data": ["run", "/dev/zero"],
            "weights": ["certify", data, "--weights", "/dev/urandom"],
            "wf": ["run", data, "--check", "--wf", "/dev/zero"],
            "test": ["pocket", data, "--test", "/dev/zero", "--updates", "3"],
            "audit": ["audit", "/dev/zero", "--data", data],
            "claims": ["claims", "/dev/zero"]}[where]
    done = pla_cli(*args, timeout=60)
    assert done.code == 2
    one_line_error(done, "never ends")


def test_a_huge_sparse_file_is_refused_by_its_size(tmp_path):
    big = tmp_path / "big.dat"
    with open(big, "wb") as handle:
        handle.truncate(8 * 2**30)                      # 8 GB, no blocks on disk
    started = time.monotonic()
    done = pla_cli("run", str(big))
    assert done.code == 2 and time.monotonic() - started < 60
    one_line_error(done, "--max-input-bytes")
    small = write(tmp_path / "small.dat", TEXTBOOK * 10)
    assert pla_cli("run", small, "--max-input-bytes", "20").code == 2
    assert pla_cli("run", small, "--max-input-bytes", "1000").code == 0


def test_read_bounded_reads_pipes_up_to_the_limit():
    with pytest.raises(InputRefused):
        read_bounded("/dev/zero")
    r, w = os.pipe()
    os.write(w, b"x" * 100)
    os.close(w)
    with pytest.raises(InputRefused, match="limit of 50"):
        read_bounded(f"/dev/fd/{r}", 50)
    os.close(r)


def test_a_small_libsvm_file_with_a_huge_index_is_refused_before_expansion(tmp_path):
    done = pla_cli("run", write(tmp_path / "x.libsvm", "+1 50000000:1\n-1 1:1\n"))
    assert done.code == 2
    one_line_error(done, "x.libsvm:1:", "--max-entries")
    rows = "".join(f"{'+1' if k % 2 else '-1'} 400000:1\n" for k in range(30))
    done = pla_cli("run", write(tmp_path / "y.libsvm", rows))
    assert done.code == 2
    one_line_error(done, "--max-entries")


def test_numbers_that_expand_count_against_the_digit_budget(tmp_path):
    text = "".join(f"9e99999 {'+1' if k % 2 else '-1'}\n" for k in range(30))
    done = pla_cli("run", write(tmp_path / "e.dat", text), "--max-data-digits", "1000000")
    assert done.code == 2
    one_line_error(done, "e.dat:10:", "--max-data-digits")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.sampled_from([1, -1])), min_size=1,
                max_size=12),
       st.integers(20, 2000))
def test_the_digit_budget_is_an_upper_bound_property(rows, budget):
    text = "".join(f"1e{e} {y:+d}\n" for e, y in rows)
    try:
        ds = pla.formats.loads(text, limits=Limits(max_data_digits=budget))
    except DataError as exc:
        assert "--max-data-digits" in str(exc)
        return
    digits = sum(len(str(v)) for row in ds.rows for v in row[1:])
    assert digits <= budget + len(rows) * 2


@pytest.mark.parametrize("args, needle", [
    (["--runs", "1000000000", "--order", "random"], "at most 1,000,000 runs"),
    (["--runs", "4", "--order", "random", "--jobs", "100000"], "at most 256"),
])
def test_runs_and_jobs_are_capped(tmp_path, args, needle):
    done = pla_cli("run", write(tmp_path / "d.dat", TEXTBOOK), *args)
    assert done.code == 2
    one_line_error(done, needle)


def test_timeout_covers_reading_and_preparing(tmp_path):
    rows = "".join(f"{'9' * 150000} {'+1' if k % 2 else '-1'}\n" for k in range(40))
    started = time.monotonic()
    done = pla_cli("run", write(tmp_path / "slow.dat", rows), "--check", "--timeout", "0.2")
    assert done.code == 3 and "before the first update" in done.err
    assert time.monotonic() - started < 60


# ------------------------------------------------------------------ the trace reader
def _trace(tmp_path):
    data = write(tmp_path / "d.dat", TEXTBOOK)
    trace = tmp_path / "t.jsonl"
    assert pla_cli("run", data, "--order", "first", "--trace", str(trace)).code == 0
    return data, trace


def test_the_trace_reader_bounds_depth_and_number_length(tmp_path):
    data, trace = _trace(tmp_path)
    deep = write(tmp_path / "deep.jsonl", "[" * 100000 + "]" * 100000 + "\n")
    done = pla_cli("audit", deep, "--data", data)
    assert done.code == 2
    one_line_error(done, "nested")
    lines = trace.read_text().splitlines()
    lines[1] = lines[1].replace('"t":0', '"t":' + "1" * 100)
    long_number = write(tmp_path / "long.jsonl", "\n".join(lines) + "\n")
    done = pla_cli("audit", long_number, "--data", data)
    assert done.code == 1 and "100 digits" in done.out
    lines[1] = lines[1].replace('"t":' + "1" * 100, '"t":' + "1" * 3_000_000)
    huge = write(tmp_path / "huge.jsonl", "\n".join(lines) + "\n")
    done = pla_cli("audit", huge, "--data", data)
    assert done.code == 1 and "line 2: format" in done.out
    assert "longer than any genuine line of this trace" in done.out


def test_expect_options_pin_the_promised_outcome(tmp_path):
    data, trace = _trace(tmp_path)
    ok = pla_cli("audit", str(trace), "--data", data, "--expect-updates", "7",
                 "--expect-halted", "yes")
    assert ok.code == 0
    for args in (["--expect-updates", "8"], ["--expect-halted", "no"]):
        done = pla_cli("audit", str(trace), "--data", data, *args)
        assert done.code == 1 and "NOT AS EXPECTED" in done.out


def test_a_timeout_summary_needs_the_recorded_budget(tmp_path):
    """A genuine trace cut short and re-sealed as 'stopped by timeout' is caught when the header
    records no time budget (the chain re-sealed consistently)."""
    ds = pla.Dataset.from_rows([[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1])
    options = pla.RunOptions(max_updates=50)
    path = tmp_path / "cut.jsonl"
    for timeout, status in ((None, "failed"), (2.0, "ok")):
        with TraceWriter(path, header_record(ds, options, timeout=timeout)) as tw:
            result = pla.run(ds, options=options.__class__(max_updates=5),
                             on_step=lambda s: tw.write(step_record(s)))
            record = summary_record(result)
            record["stopped_by"] = "timeout"
            tw.close(record)
        from verify.checks.audit import audit
        report = audit(str(path), ds)
        assert report.status == status, report.failure
        if status == "failed":
            assert report.failure.check == "budget"


# ------------------------------------------------------------------ smaller points
@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(-9, 9), st.integers(-9, 9), st.sampled_from(["+1", "-1"])),
                min_size=1, max_size=8),
       st.sampled_from(["\r", "\r\n"]))
def test_cr_line_ends_read_like_lf(rows, end):
    text = "".join(f"{a} {b} {y}\n" for a, b, y in rows)
    other = text.replace("\n", end)
    assert pla.formats.loads(other).fingerprint == pla.formats.loads(text).fingerprint


def test_usage_errors_are_one_line(tmp_path):
    data = write(tmp_path / "d.dat", TEXTBOOK)
    for args in (["run"], ["run", data, "--order", "sideways"], ["frobnicate"],
                 ["run", data, "--bogus"]):
        done = pla_cli(*args)
        assert done.code == 2
        one_line_error(done, "--help")


def test_file_names_with_control_characters_are_quoted(tmp_path):
    name = tmp_path / "evil\n\x1b[31m.dat"
    name.write_text("1 x +1\n")
    done = pla_cli("run", str(name))
    assert done.code == 2 and "\x1b" not in done.err
    one_line_error(done, "\\x1b[31m")
    assert shown_path("plain.dat") == "plain.dat"


def test_safe_output_removes_its_temporary_file_on_any_error(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(RuntimeError):
        with SafeOutput(target) as out:
            out.write("partial")
            raise RuntimeError("boom")
    assert not target.exists() and not temporaries(tmp_path)
    with pytest.raises(OutputRefused):
        SafeOutput(tmp_path)
