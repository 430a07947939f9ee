"""The table of instruction counts on the Benchmarks page, from ``benchmarks/results/instructions.json``.

``benchmarks/instructions.py`` writes the results file (valgrind's callgrind counts the
instructions of whole ``pla run`` and ``pla run --check`` processes); nothing is counted at
build time.

>>> report = {"date": "2026-11-27", "machine": {"cpu": "AMD EPYC", "cpus": 2},
...           "shapes": {"10,000 x 100 decimal": {
...               "run_instructions": 3.97e9, "check_instructions": 4.93e9, "ratio": 1.2415,
...               "before_run_instructions": 3.97e9, "before_check_instructions": 5.27e9,
...               "before_ratio": 1.3275}}}
>>> print(instruction_counts_markdown(report).splitlines()[2])
| 10,000 × 100 decimal | 3.97 × 10⁹ | 4.93 × 10⁹ | **1.24×** | 1.33× |
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

__all__ = ["MARKER", "instruction_counts_markdown", "expand_instruction_counts_marker"]

MARKER = re.compile(r"<!--\s*instruction-counts\s*-->")


def _billions(count: float) -> str:
    return f"{count / 1e9:.2f} × 10⁹"


def instruction_counts_markdown(report: dict[str, Any]) -> str:
    """The table (and the line under it) for a results file's ``report``."""
    before = any("before_ratio" in row for row in report["shapes"].values())
    lines = ["| data | `pla run` | `pla run --check` | `--check` / `run` |"
             + (" before this pass |" if before else ""),
             "|---|---|---|---|" + ("---|" if before else "")]
    for label, row in report["shapes"].items():
        cells = [label.replace(" x ", " × "), _billions(row["run_instructions"]),
                 _billions(row["check_instructions"]), f"**{row['ratio']:.2f}×**"]
        if before:
            cells.append(f"{row['before_ratio']:.2f}×" if "before_ratio" in row else "–")
        lines.append("| " + " | ".join(cells) + " |")
    machine = report.get("machine", {})
    lines.append("")
    lines.append(f"Instructions executed by one whole process of each (valgrind's callgrind), "
                 f"counted by `benchmarks/instructions.py` on {report['date']} "
                 f"({machine.get('cpu', 'unknown CPU')}, {machine.get('cpus', '?')} cores).")
    return "\n".join(lines)


def expand_instruction_counts_marker(markdown: str, results: Path) -> str:
    """``markdown`` with the marker replaced by the table of ``results``."""
    report = json.loads(Path(results).read_text())
    return MARKER.sub(lambda _: instruction_counts_markdown(report), markdown)
