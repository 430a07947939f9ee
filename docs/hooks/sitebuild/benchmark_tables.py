"""The tables of the Benchmarks page, generated at build time from the committed results file.

``benchmarks/engines.py`` (``make bench``) writes ``benchmarks/results/engines.json``; the docs
page ``docs/benchmarks.md`` holds the marker ``<!-- benchmark-tables -->``, which the hook
``docs/hooks/benchmarks.py`` replaces with :func:`benchmark_markdown` of that file.  Nothing is
measured during the docs build: the page shows the recorded run, with its date and machine.

>>> report = {"date": "2026-01-01T00:00:00+00:00", "quick": False, "seconds_total": 1.0,
...           "machine": {"cpu": "CPU", "cpus": 2, "python": "3.11", "numpy": "2",
...                       "scikit-learn": "1", "load_average": [1.0, 1.0, 1.0]},
...           "shapes": [], "files": {"n": 1, "d": 1, "reading": {}, "process": {}}}
>>> "Recorded on 2026-01-01" in benchmark_markdown(report)
True
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

__all__ = ["MARKER", "benchmark_markdown", "expand_benchmark_marker", "ENGINE_NAMES"]

MARKER = re.compile(r"<!--\s*benchmark-tables\s*-->")

#: How the engines are named on the page.
ENGINE_NAMES = {
    "fast": "exact, fast engine (default)",
    "reference": "exact, Fraction reference",
    "float-loop": "float64 numpy, point by point",
    "float-block": "float64 numpy, block scan",
    "sklearn": "scikit-learn Perceptron",
}


def _seconds(value: float) -> str:
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.1f} ms"
    return f"{value * 1e6:.0f} µs"


def _mib(value: int | None) -> str:
    return "–" if value is None else f"{value / 2**20:.2f}"


def _ratio(value: float) -> str:
    return f"{value:.2f}×" if value < 10 else f"{value:,.0f}×"


def _verdict(entry: dict[str, Any], exact: bool) -> tuple[str, str]:
    if exact:
        same = "yes (exactly)" if entry["same_w"] else "**NO**"
    elif entry["same_w"]:
        same = "yes (bit for bit)" if entry.get("identical_w") else "yes (after rounding)"
    else:
        same = "**no**"
    if not entry.get("halted", True):
        separates = "**never halted** (budget reached)"
    else:
        separates = "yes" if entry["separates"] else "**NO**: the final w misclassifies a point"
    return same, separates


def benchmark_markdown(report: dict[str, Any]) -> str:
    """Markdown tables for one results file of ``benchmarks/engines.py``."""
    m = report["machine"]
    load = m.get("load_average")
    lines = [
        f"Recorded on {report['date'][:10]} ({report['date']}) on {m['cpu']}, {m['cpus']} CPUs; "
        f"Python {m['python']}, numpy {m['numpy']}, scikit-learn {m['scikit-learn']}"
        + (f"; load average {load[0]:.1f} when the run started" if load else "")
        + f"; the whole benchmark took {report['seconds_total']:.0f} s."
        + (" **Quick (smoke-test) shapes only.**" if report.get("quick") else ""),
        "",
    ]
    lines += _summary(report)
    for row in report["shapes"]:
        scale = row["scale"]
        scale_text = str(scale) if scale < 10**12 else f"about 10^{len(str(scale)) - 1}"
        carriers = row.get("carriers", {})
        used = ", ".join(f"{k} {v}" for k, v in carriers.items() if v) or "none"
        lines += [
            f"### {row['shape']}",
            "",
            f"{row['updates']:,} updates, {row['epochs']:,} epochs, common scale {scale_text}; "
            f"blocks scanned by the fast engine per carrier: {used}."
            + (f" The fast engine's first run, which also builds the data set's int64 matrix "
               f"(then cached; `pla.load` builds it while reading), took "
               f"{_seconds(row['engines']['fast']['cold_seconds'])}."
               if "cold_seconds" in row["engines"].get("fast", {}) else ""),
            "",
            "| engine | time | × fast engine | peak MiB | same final w | w separates the data "
            "(checked exactly) |",
            "|---|---:|---:|---:|---|---|",
        ]
        for name, entry in row["engines"].items():
            label = ENGINE_NAMES.get(name, name)
            if "skipped" in entry:
                lines.append(f"| {label} | skipped: {entry['skipped']} | | | | |")
                continue
            same, separates = _verdict(entry, name in ("fast", "reference"))
            lines.append(f"| {label} | {_seconds(entry['seconds'])} | "
                         f"{_ratio(entry['ratio_to_fast'])} | {_mib(entry.get('peak_bytes'))} | "
                         f"{same} | {separates} |")
        lines.append("")
    files = report["files"]
    lines += [
        f"### Reading a {files['n']} × {files['d']} file",
        "",
        "| file | size | fast path | careful parser | speed-up | same data set |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for label, entry in files["reading"].items():
        lines.append(f"| {label} | {entry['bytes'] / 2**20:.1f} MiB | "
                     f"{_seconds(entry['seconds'])} | {_seconds(entry['careful_seconds'])} | "
                     f"{_ratio(entry['careful_seconds'] / entry['seconds'])} | "
                     f"{'yes' if entry['same'] else '**NO**'} |")
    lines += [
        "",
        f"### Whole processes on the {files['n']} × {files['d']} coq file",
        "",
        "| command | wall time (best) | CPU time (best) | exit code |",
        "|---|---:|---:|---:|",
    ]
    for label, entry in files["process"].items():
        lines.append(f"| `{label}` | {_seconds(entry['wall_seconds'])} | "
                     f"{_seconds(entry['cpu_seconds'])} | {entry['exit_code']} |")
    lines += _float_data(report)
    return "\n".join(lines) + "\n"


def _float_data(report: dict[str, Any]) -> list[str]:
    """The float-valued data table (``engines.py --float-data-only`` records it on its own)."""
    rows = report.get("float_data")
    if not rows:
        return []
    m = report.get("float_data_machine", report["machine"])
    load = m.get("load_average")
    lines = [
        "",
        "### Float-valued data: the certified float filter",
        "",
        f"Recorded on {report.get('float_data_date', report['date'])[:10]} on {m['cpu']}, "
        f"{m['cpus']} CPUs" + (f", load average {load[0]:.1f} (a shared, loaded machine: the "
                               "ratios are medians of alternating runs)" if load else "") + ". "
        "Cost per update of the exact engine and of the float64 block scan with the same "
        "visiting order (cyclic, w₀ = 0, η = 1), both stopped by the same update budget; "
        "*before* is the engine without the filter (Python integers), on a tenth of the budget.",
        "",
        "| data | updates | exact, per update | float64 block scan, per update | ratio (median) "
        "| before, per update | exact decisions | same steps as the reference |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        same = r["same_steps_as_reference"] and r["same_as_before"]
        lines.append(
            f"| {r['data']} | {r['updates']:,} | {_seconds(r['exact_update_seconds'])} | "
            f"{_seconds(r['float_update_seconds'])} | {_ratio(r['ratio_median'])} | "
            f"{_seconds(r['before_update_seconds'])} | {r['exact_checks']:,} | "
            f"{'yes' if same else '**NO**'} (first {r['reference_updates']:,} updates) |")
    return lines


def _summary(report: dict[str, Any]) -> list[str]:
    """One bullet per peer: the range of its time relative to the fast engine."""
    ranges: dict[str, list[float]] = {}
    wrong: list[str] = []
    for row in report["shapes"]:
        for name, entry in row["engines"].items():
            if name != "fast" and "ratio_to_fast" in entry:
                ranges.setdefault(name, []).append(entry["ratio_to_fast"])
                if not entry["same_w"] or not entry["separates"] or not entry.get("halted", True):
                    wrong.append(f"{ENGINE_NAMES.get(name, name)} on {row['shape']}")
    if not ranges:
        return []
    lines = ["**Summary** (time of each engine divided by the fast exact engine's, over the "
             "shapes below; above 1 the fast engine is faster):", ""]
    for name, values in ranges.items():
        lines.append(f"- {ENGINE_NAMES.get(name, name)}: {_ratio(min(values))} to "
                     f"{_ratio(max(values))} ({len(values)} shapes)")
    lines.append("")
    if wrong:
        lines += ["Float runs that did not end on the exact w (or on a separator): "
                  + "; ".join(wrong) + ".", ""]
    return lines


def expand_benchmark_marker(markdown: str, results: Path) -> str:
    """Replace the marker with the tables of ``results`` (a JSON file)."""
    report = json.loads(Path(results).read_text(encoding="utf-8"))
    return MARKER.sub(lambda _: benchmark_markdown(report), markdown)
