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
        assert not result.halted and result.stopped_by == "timeout" and result.updates > 0


def test_budget_reason_in_the_api():
    result = pla.run(XOR, max_updates=9)
    assert (result.halted, result.stopped_by, result.updates) == (False, "max-updates", 9)
    assert pla.run(XOR.subset([0, 2])).stopped_by is None


def test_timeout_on_the_command_line_and_the_trace_audits(tmp_path):
    data = tmp_path / "xor.dat"
    data.write_text("0 0 -1\n1 1 -1\n0 1 1\n1 0 1\n")
    trace = tmp_path / "t.jsonl"
    done = pla_cli("run", str(data), "--timeout", "0.3", "--max-updates", "1000000000",
                   "--json", "--trace", str(trace))
    assert done.code == 3, done.err
    out = json.loads(done.out)
    assert out["halted"] is False and out["stopped_by"] == "timeout"
    assert "--timeout 0.3 s" in done.err.splitlines()[-1]
    audit = pla_cli("audit", str(trace), "--data", str(data))
    assert audit.code == 0, audit.out + audit.err


def test_bad_timeouts_are_usage_errors(tmp_path):
    data = tmp_path / "x.dat"
    data.write_text("1 1\n")
    for value in ("0", "-1", "soon", "inf", "nan"):
        done = pla_cli("run", str(data), "--timeout", value)
        assert done.code == 2 and "Traceback" not in done.err, value
