"""Ctrl-C during a traced run: exit 130 and a valid trace whose last line says it is incomplete."""

from __future__ import annotations

import hashlib
import json
import signal
import subprocess
import sys
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
