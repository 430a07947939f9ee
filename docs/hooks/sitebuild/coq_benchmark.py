"""The table of the page "Checked twice": how long coqc takes, from ``benchmarks/results/coq.json``.

``benchmarks/coq_check.py`` writes the results file; nothing is timed at build time.

>>> report = {"date": "2026-01-01", "machine": {"cpus": 2, "coqc": "The Coq Proof Assistant"},
...           "limit_s": 300, "library": {"cpu_s": 4.0, "wall_s": 5.0, "exit_code": 0},
...           "shapes": [{"n": 400, "d": 4, "files": {"certificate": {
...               "export": {"cpu_s": 1.5, "wall_s": 2.0, "exit_code": 0},
...               "coqc": {"cpu_s": 1.0, "wall_s": 1.2, "exit_code": 0}, "bytes": 9000}}}]}
>>> print(coq_benchmark_markdown(report).splitlines()[2])
| 400 × 4 | certificate | 9 kB | – | 1.5 s | 1.0 s (accepted) | 1.2 s |
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

__all__ = ["MARKER", "coq_benchmark_markdown", "expand_coq_benchmark_marker"]

MARKER = re.compile(r"<!--\s*coq-benchmark\s*-->")


def _cell(timing: dict[str, Any]) -> str:
    if "stopped_after_s" in timing:
        return f"> {timing['stopped_after_s']:g} s (stopped)"
    return f"{timing['cpu_s']:.1f} s"


def _wall_cell(timing: dict[str, Any]) -> str:
    if "stopped_after_s" in timing:
        return "–"
    return f"{timing['wall_s']:.1f} s"


def _load_text(report: dict[str, Any]) -> str:
    load = report.get("load_average_1min")
    if not load:
        return ""
    return (f" The machine was shared: its 1-minute load average was {load['start']:g} at the "
            f"start and {load.get('end', load['start']):g} at the end, so the wall-clock "
            "times are those of a loaded machine and the CPU seconds are the comparable "
            "numbers.")


def _encodings_text(report: dict[str, Any]) -> str:
    encodings = report.get("encodings")
    if not encodings:
        return ""
    parts = [f"{label}: {_cell(timing)}" for label, timing in encodings.items()
             if label != "entries"]
    return (f"\n\nReading the same {encodings['entries']:,} entries (coqc, CPU, the library's "
            "import included): " + "; ".join(parts) + ".")


def _check_cell(timing: dict[str, Any]) -> str:
    if "stopped_after_s" in timing:
        return _cell(timing)
    verdict = "accepted" if timing["exit_code"] == 0 else "REJECTED"
    return f"{_cell(timing)} ({verdict})"


def coq_benchmark_markdown(report: dict[str, Any]) -> str:
    """The Markdown table and its caption for one results report."""
    lines = ["| data | file | size | `pla certify` alone (CPU) | export (pla, CPU) | coqc (CPU) "
             "| coqc (wall) |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for shape in report["shapes"]:
        certify = _cell(shape["certify"]) if "certify" in shape else "–"
        name = f"{shape['n']} × {shape['d']}" + (" (Coq benchmark)" if shape.get("data") == "coq"
                                                   else "")
        for label, entry in shape["files"].items():
            lines.append(f"| {name} | {label} | "
                         f"{round(entry['bytes'] / 1000):,} kB | {certify} | "
                         f"{_cell(entry['export'])} | {_check_cell(entry['coqc'])} | "
                         f"{_wall_cell(entry['coqc'])} |")
    long = report.get("long_run")
    if long is not None:
        lines.append(f"| {long['updates']:,}-update run | whole-run file | "
                     f"{round(long['bytes'] / 1000):,} kB | – | {_cell(long['export'])} | "
                     f"{_check_cell(long['coqc'])} | {_wall_cell(long['coqc'])} |")
    machine = report["machine"]
    lines += ["", f"Measured on {report['date']} with {machine['coqc']} on a machine with "
              f"{machine['cpus']} CPUs (CPU seconds of each process; a check is stopped after "
              f"{report['limit_s']:g} s of wall-clock time). Compiling the library once: "
              f"{_cell(report['library'])} ({_wall_cell(report['library'])} wall).{_load_text(report)} "
              f"Reproduce with `.venv/bin/python benchmarks/coq_check.py`."
              + _encodings_text(report)]
    return "\n".join(lines)


def expand_coq_benchmark_marker(markdown: str, results: Path) -> str:
    """Replace the marker by the table of ``results`` (a JSON file)."""
    report = json.loads(Path(results).read_text(encoding="utf-8"))
    return MARKER.sub(lambda _: coq_benchmark_markdown(report), markdown)
