"""The verdict and decision time of every claim on docs/standard-facts.md, in one run.

Each claim block of the page (facts, false twins and the facts out of reach) is decided once,
the same way `pla claims` decides it; the table gives its id, expected and actual verdict, the
wall time and the CPU time of this process (the wall time grows with the machine's load, the
CPU time hardly), and the summary counts the claims over the 2 s target of issue 25.  The
one-time import of the checker (sympy, scipy's LP solver), which `pla claims` pays once per
run, is measured first and reported apart, so that it is not charged to the first claim.
Writes benchmarks/results/standard_facts.json, which docs/benchmarks.md quotes.

Run: .venv/bin/python benchmarks/standard_facts.py   (target: each claim under 2 s)
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "standard-facts.md"
OUT = ROOT / "benchmarks" / "results" / "standard_facts.json"
TARGET_SECONDS = 2.0


def main() -> None:
    load_before = os.getloadavg()[0]   # 1-minute load average of the machine (2 cores here)
    start = time.perf_counter()
    import sympy  # noqa: F401  (imported by the first claim, not by verify.claims)
    from scipy.optimize import linprog  # noqa: F401  (the LP solver of the certificate search)

    import verify.claims.induction  # noqa: F401
    import verify.kernel.claim_statements  # noqa: F401
    import verify.claims.propose_roots  # noqa: F401
    from verify.claims.checker import find_claim_blocks
    from verify.claims.verdict import check_claim_text
    import_seconds = time.perf_counter() - start
    print(f"importing the checker (sympy, scipy): {import_seconds:.2f} s, once per run")
    rows = []
    print(f"{'id':<28} {'expected':>9} {'verdict':>9} {'seconds':>8} {'cpu':>6}")
    for block in find_claim_blocks(PAGE.read_text(encoding="utf-8")):
        start, cpu = time.perf_counter(), time.process_time()
        verdict = check_claim_text(block.body)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        ident = verdict.claim.ident if verdict.claim else f"line {block.line}"
        rows.append({"id": ident, "line": block.line, "expected": verdict.expected,
                     "verdict": verdict.status, "seconds": round(seconds, 3),
                     "cpu_seconds": round(cpu, 3), "headline": verdict.headline()})
        print(f"{ident:<28} {verdict.expected:>9} {verdict.status:>9} {seconds:8.2f} {cpu:6.2f}",
              flush=True)
    slow = [r for r in rows if r["seconds"] >= TARGET_SECONDS]
    wrong = [r for r in rows if r["verdict"] != r["expected"]]
    by_status = {s: sum(r["verdict"] == s for r in rows) for s in ("proved", "refuted", "unproved")}
    print(f"{len(rows)} claims: {by_status}; {len(wrong)} not as expected; {len(slow)} over "
          f"{TARGET_SECONDS} s (slowest {max(r['seconds'] for r in rows):.2f} s, total "
          f"{sum(r['seconds'] for r in rows):.1f} s; CPU: slowest "
          f"{max(r['cpu_seconds'] for r in rows):.2f} s, total "
          f"{sum(r['cpu_seconds'] for r in rows):.1f} s)")
    load = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    print(f"load average (1 min) before and after: {load[0]}, {load[1]}")
    OUT.write_text(json.dumps({"claims": rows, "target_seconds": TARGET_SECONDS,
                               "import_seconds": round(import_seconds, 3),
                               "load_average": load}, indent=1) + "\n")


if __name__ == "__main__":
    main()
