"""The verdict and decision time of every claim on docs/standard-facts.md, in one run.

Each claim block of the page (facts, false twins and the facts out of reach) is decided once,
the same way `pla claims` decides it; the table gives its id, expected and actual verdict and
the wall time, and the summary counts the claims over the 2 s target of issue 25.
Writes benchmarks/results/standard_facts.json, which docs/benchmarks.md quotes.

Run: .venv/bin/python benchmarks/standard_facts.py   (target: each claim under 2 s)
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from verify.claims.checker import find_claim_blocks
from verify.claims.verdict import check_claim_text

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "standard-facts.md"
OUT = ROOT / "benchmarks" / "results" / "standard_facts.json"
TARGET_SECONDS = 2.0


def main() -> None:
    rows = []
    print(f"{'id':<28} {'expected':>9} {'verdict':>9} {'seconds':>8}")
    for block in find_claim_blocks(PAGE.read_text(encoding="utf-8")):
        start = time.perf_counter()
        verdict = check_claim_text(block.body)
        seconds = time.perf_counter() - start
        ident = verdict.claim.ident if verdict.claim else f"line {block.line}"
        rows.append({"id": ident, "line": block.line, "expected": verdict.expected,
                     "verdict": verdict.status, "seconds": round(seconds, 3),
                     "headline": verdict.headline()})
        print(f"{ident:<28} {verdict.expected:>9} {verdict.status:>9} {seconds:8.2f}", flush=True)
    slow = [r for r in rows if r["seconds"] >= TARGET_SECONDS]
    wrong = [r for r in rows if r["verdict"] != r["expected"]]
    by_status = {s: sum(r["verdict"] == s for r in rows) for s in ("proved", "refuted", "unproved")}
    print(f"{len(rows)} claims: {by_status}; {len(wrong)} not as expected; {len(slow)} over "
          f"{TARGET_SECONDS} s (slowest {max(r['seconds'] for r in rows):.2f} s, total "
          f"{sum(r['seconds'] for r in rows):.1f} s)")
    OUT.write_text(json.dumps({"claims": rows, "target_seconds": TARGET_SECONDS}, indent=1) + "\n")


if __name__ == "__main__":
    main()
