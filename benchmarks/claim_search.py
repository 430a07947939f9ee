"""The quick counterexample search before the kernel: its size against the site's claims.

Every claim block of docs/*.md is decided with the quick search of
:data:`verify.claims.verdict.QUICK_POINTS` points (since session 39) and with 4,500 points (the
number before), alternating, in this process (CPU time, medians of ``--rounds``).  Both must
give the same verdicts, counterexamples, reasons and certificates: the search only proposes,
and after a failed proof the wider search of ``extra_points`` runs anyway; the ratio says how
much of a site build's claim checking the larger quick search cost.

Run: .venv/bin/python benchmarks/claim_search.py [--rounds 2]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEFORE_POINTS = 4500


def decide_site(points: int) -> tuple[float, list[tuple]]:
    """CPU seconds to decide every claim of docs/*.md with ``points`` quick points, and what
    was decided (location, status, counterexample, reason, certificate) per claim."""
    import verify.claims.verdict as verdict
    from verify.claims.documents import check_markdown_files

    default = verdict.decide_claim.__defaults__
    verdict.decide_claim.__defaults__ = (points, *default[1:])
    try:
        start = time.process_time()
        found = check_markdown_files(sorted((ROOT / "docs").glob("*.md")))
        seconds = time.process_time() - start
    finally:
        verdict.decide_claim.__defaults__ = default
    return seconds, [(c.location, c.verdict.status, c.verdict.counterexample, c.verdict.reason,
                      c.verdict.certificate) for c in found]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    from verify.claims.verdict import QUICK_POINTS

    decide_site(QUICK_POINTS)                 # imports and sympy's caches warmed, not timed
    times: dict[int, list[float]] = {QUICK_POINTS: [], BEFORE_POINTS: []}
    decided: dict[int, list[tuple]] = {}
    for _ in range(args.rounds):
        for points in times:
            seconds, decided[points] = decide_site(points)
            times[points].append(seconds)
    same = decided[QUICK_POINTS] == decided[BEFORE_POINTS]
    quick, before = (statistics.median(times[p]) for p in (QUICK_POINTS, BEFORE_POINTS))
    counts = Counter(row[1] for row in decided[QUICK_POINTS])
    print(f"the site's {len(decided[QUICK_POINTS])} claims "
          f"({', '.join(f'{v} {k}' for k, v in sorted(counts.items()))}), CPU medians of "
          f"{args.rounds} alternating rounds:")
    print(f"  quick search of {BEFORE_POINTS:,} points: {before:6.1f} s")
    print(f"  quick search of {QUICK_POINTS:,} points:   {quick:6.1f} s   ratio {before / quick:.2f}")
    print(f"  same verdicts, counterexamples, reasons and certificates: {same}")
    if not same:
        raise SystemExit("the two searches decided differently")


if __name__ == "__main__":
    main()
