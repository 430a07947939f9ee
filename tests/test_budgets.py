"""Non-separable data never hang: --max-updates and --timeout both end a run with exit 3."""

from __future__ import annotations

import json
import time

import pla
from tests.cli_runner import pla_cli

XOR = pla.Dataset.from_rows([[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1])


def test_timeout_in_the_api():
    for engine in pla.ENGINES:
        start = time.monotonic()
        result = pla.run(XOR, max_updates=10**12, timeout=0.2, engine=engine, keep_steps=False)
        assert time.monotonic() - start < 30
        # how far the run got depends on the machine's speed (under load it may be 0 updates)
        assert not result.halted and result.stopped_by == "timeout"
        assert result.updates < 10**12 and result.w == pla.run(
            XOR, max_updates=result.updates, engine=engine).w


def test_budget_reason_in_the_api():
    result = pla.run(XOR, max_updates=9)
    assert (result.halted, result.stopped_by, result.updates) == (False, "max-updates", 9)
    assert pla.run(XOR.subset([0, 2])).stopped_by is None


def test_timeout_on_the_command_line_and_the_trace_audits(tmp_path):
    # Independent of the machine's speed: XOR never halts and 10**9 updates take far longer
    # than the generous time budget, so the run is always stopped by the timeout; where it
    # stops (how many updates) is not checked, only that what was recorded audits.  On a
    # machine so loaded that reading and preparing took the whole budget, the documented
    # set-up stop is what must happen instead.
    data = tmp_path / "xor.dat"
    data.write_text("0 0 -1\n1 1 -1\n0 1 1\n1 0 1\n")
    trace = tmp_path / "t.jsonl"
    done = pla_cli("run", str(data), "--timeout", "4", "--max-updates", "1000000000",
                   "--json", "--trace", str(trace))
    assert done.code == 3, done.err
    if not done.out.strip():
        assert "before the first update" in done.err and not trace.exists()
        return
    out = json.loads(done.out)
    assert out["halted"] is False and out["stopped_by"] == "timeout"
    assert "--timeout 4 s" in done.err.splitlines()[-1]
    audit = pla_cli("audit", str(trace), "--data", str(data), "--json")
    assert audit.code == 0, audit.out + audit.err
    assert json.loads(audit.out)["updates"] == out["updates"]


def test_bad_timeouts_are_usage_errors(tmp_path):
    data = tmp_path / "x.dat"
    data.write_text("1 1\n")
    for value in ("0", "-1", "soon", "inf", "nan"):
        done = pla_cli("run", str(data), "--timeout", value)
        assert done.code == 2 and "Traceback" not in done.err, value
