"""The table of ``docs/benchmarks.md``'s section on standard facts, from the committed results.

The ``<!-- standard-facts-table -->`` marker is replaced by a summary line and one row per claim
of ``benchmarks/results/standard_facts.json`` (written by ``benchmarks/standard_facts.py``):
the page never carries a hand-copied figure.  Nothing is timed at build time.

>>> report = {"claims": [{"id": "am-gm", "expected": "proved", "verdict": "proved",
...                       "seconds": 0.14, "cpu_seconds": 0.12}],
...           "target_seconds": 2.0, "import_seconds": 0.9, "load_average": [0.9, 0.92]}
>>> print(standard_facts_markdown(report))
Measured with a load average of 0.9 on the 2 cores during the run (importing the checker took 0.9 s): 1 proved, all as expected; 1 of 1 claims under 2.0 s (slowest `am-gm`, 0.14 s; 0.1 s for the whole page).
<BLANKLINE>
| claim | expected | verdict | seconds | CPU seconds |
|---|---|---|---|---|
| `am-gm` | proved | proved | 0.14 | 0.12 |
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from verify.claims.verdict import STATUSES

__all__ = ["MARKER", "standard_facts_markdown", "expand_standard_facts_marker"]

MARKER = re.compile(r"<!--\s*standard-facts-table\s*-->")


def standard_facts_markdown(report: dict[str, Any]) -> str:
    """The summary line and the table of one run of ``benchmarks/standard_facts.py``."""
    rows, target = report["claims"], report["target_seconds"]
    counts = Counter(r["verdict"] for r in rows)
    verdicts = ", ".join(f"{counts[v]} {v}" for v in STATUSES if counts[v])
    unexpected = [r["id"] for r in rows if r["verdict"] != r["expected"]]
    slowest = max(rows, key=lambda r: r["seconds"])
    under = sum(r["seconds"] < target for r in rows)
    summary = (f"Measured with a load average of {report['load_average'][0]} on the 2 cores "
               f"during the run (importing the checker took {report['import_seconds']:.1f} s): "
               f"{verdicts}, "
               f"{'all as expected' if not unexpected else 'not as expected: ' + ', '.join(unexpected)}; "
               f"{under} of {len(rows)} claims under {target} s (slowest `{slowest['id']}`, "
               f"{slowest['seconds']:.2f} s; {sum(r['seconds'] for r in rows):.1f} s for the "
               f"whole page).")
    lines = ["| claim | expected | verdict | seconds | CPU seconds |", "|---|---|---|---|---|"]
    lines += [f"| `{r['id']}` | {r['expected']} | {r['verdict']} | {r['seconds']:.2f} | "
              f"{r['cpu_seconds']:.2f} |" for r in rows]
    return summary + "\n\n" + "\n".join(lines)


def expand_standard_facts_marker(markdown: str, results: Path) -> str:
    """Replace the marker by the summary and table of ``results`` (a JSON file)."""
    report = json.loads(Path(results).read_text(encoding="utf-8"))
    return MARKER.sub(lambda _: standard_facts_markdown(report), markdown)
