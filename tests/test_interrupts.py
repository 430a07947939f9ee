"""Ctrl-C during a traced run: exit 130 and a valid trace whose last line says it is
incomplete; Ctrl-C during runs on a local Dask cluster: exit 130, one line, nothing left."""

from __future__ import annotations

import hashlib
import json
import os
import pty
import re
import signal
import subprocess
import sys
import threading
import time


def test_sigint_leaves_a_valid_incomplete_trace(tmp_path):
    data = tmp_path / "xor.dat"
    data.write_text("0 0 -1\n1 1 -1\n0 1 1\n1 0 1\n")
    trace = tmp_path / "run.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from verify.cli import main; sys.exit(main())",
         "run", str(data), "--trace", str(trace), "--max-updates", "100000000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 60
    # Wait until the run is under way (its temporary trace file exists and grows).
    while time.monotonic() < deadline:
        temps = [p for p in tmp_path.iterdir() if p.name.startswith(".trace-")]
        if temps and temps[0].stat().st_size > 10_000:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    lines = trace.read_text().splitlines()
    records = [json.loads(line) for line in lines]       # every line is valid JSON
    assert records[0]["kind"] == "header"
    assert records[-1]["kind"] == "incomplete" and records[-1]["reason"] == "interrupted"
    assert all(r["kind"] == "step" for r in records[1:-1]) and len(records) > 3
    for previous, record in zip(lines, records[1:]):
        assert record["prev"] == hashlib.sha256(previous.encode()).hexdigest()
    assert records[-1]["lines"] == len(lines) - 1
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".trace-")]


def _session_processes(session: int) -> list[str]:
    """The command lines of the processes still alive in a session (none once it is over)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline") as f:
                cmdline = f.read().replace("\0", " ")
        except (OSError, IndexError):  # not a process, or gone meanwhile
            continue
        if fields[0] != "Z" and int(fields[3]) == session:
            found.append(f"{entry}: {cmdline[:160]}")
    return found


def test_ctrl_c_cancels_pocket_runs_on_a_local_dask_cluster(tmp_path):
    """A terminal's Ctrl-C (SIGINT to the whole foreground group: pla and the cluster's
    workers) in the middle of ``pla pocket --cluster local:2``: exit 130 long before the runs
    could end, one line on stderr after the progress bar is erased, nothing on stdout, no
    traceback (a worker's included), and no process of the run left behind."""
    data = tmp_path / "d.dat"
    data.write_text("".join(f"{(7 * k) % 19 - 9} {(11 * k) % 17 - 8} {1 if k % 3 else -1}\n"
                            for k in range(60)))
    controller, terminal = pty.openpty()  # stderr is a terminal: the progress bar is drawn
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from verify.cli import main; sys.exit(main())",
         "pocket", str(data), "--runs", "4000", "--updates", "400", "--order", "random",
         "--json", "--cluster", "local:2"],
        stdout=subprocess.PIPE, stderr=terminal, start_new_session=True, cwd=tmp_path)
    os.close(terminal)
    shown = bytearray()

    def read_terminal() -> None:
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # the last writer closed it
                return
            if not chunk:
                return
            shown.extend(chunk)

    reader = threading.Thread(target=read_terminal, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 300
        while not re.search(rb"pocket runs \[[#.]+\] +[1-9]\d*/4000", bytes(shown)):
            assert proc.poll() is None and time.monotonic() < deadline, bytes(shown)[-2000:]
            time.sleep(0.1)
        workers = _session_processes(proc.pid)
        assert len(workers) >= 3, workers  # pla and its two worker processes (at least)
        os.killpg(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=120)  # 4,000 runs take minutes; exit 130: not ended
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    reader.join(timeout=30)
    os.close(controller)
    err = bytes(shown).decode()
    assert proc.returncode == 130, err[-2000:]
    assert "Traceback" not in err and "WARNING" not in err, err[-2000:]
    assert err.rsplit("\x1b[K", 1)[-1] == "pla: interrupted\r\n"  # the bar erased, one line
    assert out == b"" and sorted(p.name for p in tmp_path.iterdir()) == ["d.dat"]
    deadline = time.monotonic() + 60
    while _session_processes(proc.pid):  # the resource tracker ends once its pipe closes
        assert time.monotonic() < deadline, _session_processes(proc.pid)
        time.sleep(0.2)


def test_a_run_started_with_sigint_ignored_gives_its_tests_python_handling(tmp_path):
    """A background job of a non-interactive shell (``bash .ci/run &``) starts with SIGINT
    ignored, and so does every process it starts: each xdist worker's first test then found
    SIG_IGN and warned of a leak that was none (the Ctrl-C tests need Python's handling).  The
    suite's conftest restores it first thing in every process of the run, and says so once."""
    (tmp_path / "test_started.py").write_text(
        "import signal\n"
        "AT_IMPORT = signal.getsignal(signal.SIGINT)\n"
        "def test_python_handles_sigint_from_the_start():\n"
        "    assert AT_IMPORT is signal.default_int_handler\n"
        "    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider",
         "-n", "1", "-W", "error::pytest.PytestWarning", str(tmp_path / "test_started.py")],
        cwd=root, capture_output=True, text=True, timeout=120,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SIGINT was ignored when this run started" in done.stdout
