"""The timing table of the Pocket page, from the committed results of ``make bench-pocket``.

``benchmarks/pocket_runs.py`` writes ``benchmarks/results/pocket_runs.json``; the marker
``<!-- pocket-benchmark -->`` in ``docs/pocket.md`` is replaced (by ``docs/hooks/pocket.py``)
with :func:`pocket_benchmark_markdown` of that file.  Nothing is timed during the docs build:
the page shows the recorded run, with its date, machine and load.

>>> report = {"date": "2026-01-01T00:00:00+00:00", "runs": 2000, "updates": 50, "train_n": 500,
...           "d": 4, "test_n": 500, "int64": True, "identical_runs": True,
...           "machine": {"cpus": 2, "python": "3.11.7", "numpy": "2.4.6", "processor": "x86_64",
...                       "load_average_before": [1.0, 1.0, 1.0]},
...           "rows": [{"configuration": "engine only, 1 process(es)", "seconds": 1.5},
...                    {"configuration": "pla pocket command line, --jobs 2", "seconds": 6.0}]}
>>> print(pocket_benchmark_markdown(report).splitlines()[-1])
| pla pocket command line, --jobs 2 | 6.00 | 3.00 | 4.00× |
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

__all__ = ["MARKER", "pocket_benchmark_markdown", "expand_pocket_benchmark"]

MARKER = re.compile(r"<!--\s*pocket-benchmark\s*-->")


def pocket_benchmark_markdown(report: dict[str, Any]) -> str:
    """A sentence saying when and where, then one table row per configuration."""
    machine = report["machine"]
    load = " ".join(f"{v:.2f}" for v in machine.get("load_average_before", []))
    lines = [
        f"Recorded on {report['date'][:10]} with `make bench-pocket`: {report['runs']:,} runs × "
        f"{report['updates']} updates on {report['train_n']} × {report['d']} data, test error on "
        f"{report['test_n']} points; {machine['cpus']} CPU(s), Python {machine['python']}, "
        f"numpy {machine['numpy']}, load average {load or 'unknown'} when it started (the machine "
        f"is shared, so absolute times vary; the ratios are the point). int64 fast path: "
        f"{'yes' if report['int64'] else 'no'}; every configuration gave "
        f"{'identical runs' if report['identical_runs'] else 'DIFFERENT RUNS'}.",
        "",
        "| configuration | seconds | ms per run | × engine alone |",
        "|---|---:|---:|---:|",
    ]
    rows = report["rows"]
    base = rows[0]["seconds"]
    for row in rows:
        seconds = row["seconds"]
        lines.append(f"| {row['configuration']} | {seconds:.2f} | "
                     f"{1000 * seconds / report['runs']:.2f} | {seconds / base:.2f}× |")
    return "\n".join(lines)


def expand_pocket_benchmark(markdown: str, results: Path) -> str:
    """Replace the marker with the table of ``results`` (a missing file is an error)."""
    if not MARKER.search(markdown):
        return markdown
    report = json.loads(results.read_text(encoding="utf-8"))
    return MARKER.sub(lambda _: pocket_benchmark_markdown(report), markdown)
