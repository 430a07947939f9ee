"""The scaling section of the Benchmarks page: a table and a figure from the committed results.

``benchmarks/scaling.py`` (``make bench``) writes ``benchmarks/results/scaling.json``; the page
``docs/benchmarks.md`` holds the marker ``<!-- scaling-benchmark -->``, which the hook
``docs/hooks/benchmarks.py`` replaces with :func:`scaling_markdown`, and the figure
``figures/scaling.png`` is drawn from the same file by :func:`draw_scaling_figure` (matplotlib,
Agg).  Nothing is timed during the build.

>>> report = {"date": "2026-01-01T00:00:00+00:00", "machine": {"cpu": "CPU", "cpus": 2,
...           "load_average": [1.0, 1.0, 1.0]}, "margin": 0.01, "grid": [], "exponents": {},
...           "processes": {}}
>>> "Recorded on 2026-01-01" in scaling_markdown(report)
True
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

__all__ = ["MARKER", "FIGURE", "scaling_markdown", "expand_scaling_marker",
           "draw_scaling_figure"]

MARKER = re.compile(r"<!--\s*scaling-benchmark\s*-->")
#: The figure's name in the site (``figures/scaling.png``).
FIGURE = "scaling.png"
_NAMES = {"exact": "exact (pla.run)", "checked": "exact + --check (certificate + monitor)",
          "float-block": "float64 numpy, block scan", "float-loop": "float64 numpy, point by point",
          "sklearn": "scikit-learn Perceptron", "reference": "Fraction reference"}


def _time(entry: dict[str, Any]) -> str:
    if "seconds" not in entry:
        return "skipped"
    s = entry["seconds"]
    return f"{s:.2f} s" if s >= 1 else f"{s * 1000:.1f} ms"


def _wf_name(kind: str) -> str:
    """The w_f column: a near-max-margin w_f's long report (its bracket) shortened.

    >>> _wf_name("near-max-margin: the max-margin bound ... lies in [1, 2] ..., 1")
    'near-max-margin (max-margin integer bound)'
    >>> _wf_name("max-margin")
    'max-margin'
    """
    if kind.startswith("near-max-margin:"):
        return "near-max-margin (max-margin integer bound)"
    return kind


def scaling_markdown(report: dict[str, Any]) -> str:
    """The Markdown of the scaling section for one results report."""
    m = report["machine"]
    lines = [f"Recorded on {report['date'][:10]} on {m['cpu']} ({m['cpus']} CPUs, load average "
             f"{', '.join(f'{v:.1f}' for v in m['load_average'] or [])}); generated separable "
             f"data with geometric margin {report['margin']}, medians.", ""]
    lines += ["| n | d | updates | exact | + --check | check / exact | float block | "
              "exact / float | float loop | sklearn | Fraction | peak (check) | w_f |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in report["grid"]:
        if "skipped" in r:
            lines.append(f"| {r['n']:,} | {r['d']:,} | | skipped: {r['skipped']} | | | | | | | "
                         "| | |")
            continue
        e = r["engines"]
        ratio = r.get("checked_over_exact")
        peak = e["checked"].get("peak_bytes")
        lines.append(
            f"| {r['n']:,} | {r['d']:,} | {r['updates']:,} | {_time(e['exact'])} | "
            f"{_time(e['checked'])} | {'-' if ratio is None else f'{ratio:.2f}'} | "
            f"{_time(e['float-block'])} | {r['exact_over_float_block']:.2f} | "
            f"{_time(e['float-loop'])} | {_time(e['sklearn'])} | {_time(e['reference'])} | "
            f"{'-' if peak is None else f'{peak / 2**20:.1f} MiB'} | "
            f"{_wf_name(e['checked'].get('wf_kind', ''))} |")
    lines.append("")
    fits = [(k, v) for k, v in report["exponents"].items() if v]
    if fits:
        lines += ["Growth (least-squares fit over the measured shapes):", ""]
        for name, fit in fits:
            lines.append(f"- {_NAMES.get(name, name)}: time ∝ n^{fit['n']:.2f} · "
                         f"d^{fit['d']:.2f}; against updates alone ∝ updates^{fit['updates']:.2f}")
        lines.append("")
    if report["processes"]:
        lines += ["Whole processes, `pla run` and `pla run --check` alternately (medians):", "",
                  "| data | pla run | pla run --check | ratio (wall) | ratio (CPU) |",
                  "|---|---:|---:|---:|---:|"]
        for label, p in report["processes"].items():
            lines.append(f"| {label} | {p['run']['wall_seconds']:.3f} s | "
                         f"{p['check']['wall_seconds']:.3f} s | {p['ratio_wall']:.2f} | "
                         f"{p['ratio_cpu']:.2f} |")
        lines.append("")
    memory = report.get("memory")
    if memory:
        m = report.get("memory_machine", report["machine"])
        lines += [f"Peak resident memory of whole processes on {memory['n']:,} × {memory['d']} "
                  f"integers (medians; recorded {report.get('memory_date', report['date'])[:10]} on "
                  f"{m['cpu']}; *before* is the code before the change that reduced it):", "",
                  "| process | peak MiB | over numpy's |", "|---|---:|---:|"]
        numpy_peak = memory["peak_bytes"].get("numpy loadtxt (the data held)")
        for label, peak in memory["peak_bytes"].items():
            ratio = f"{peak / numpy_peak:.2f}×" if numpy_peak else "–"
            lines.append(f"| {label} | {peak / 2**20:.1f} | {ratio} |")
        lines.append("")
    versus = report.get("versus_numpy")
    if versus:
        m = report.get("versus_numpy_machine", report["machine"])
        load = f", load average {m['load_average'][0]:.1f}" if m.get("load_average") else ""
        lines += ["Whole `pla run` processes against a numpy process that reads the same file "
                  "with `loadtxt` (the Coq-format file: its tokens split and read as floats) "
                  "and runs the float64 block-scan PLA (CPU-time medians of alternating runs "
                  f"on {m['cpu']}{load}; *before* is the code before issue 29's part 2):",
                  "", "| data | pla run | numpy loadtxt + float PLA | ratio (median) | "
                  "ratio before the change |", "|---|---:|---:|---:|---:|"]
        for label, r in versus.items():
            before = f"{r['before_ratio_median']:.2f}×" if "before_ratio_median" in r else "–"
            lines.append(f"| {label} | {r['pla_cpu_seconds']:.3f} s | "
                         f"{r['numpy_cpu_seconds']:.3f} s | {r['ratio_median']:.2f}× | "
                         f"{before} |")
        lines.append("")
    checks = report.get("check_by_shape")
    if checks:
        m = report.get("check_by_shape_machine", report["machine"])
        load = f", load average {m['load_average'][0]:.1f}" if m.get("load_average") else ""
        lines += ["`pla run --check` against `pla run` by shape, whole processes (CPU-time "
                  f"medians of the per-round ratios of alternating runs on {m['cpu']}{load}; "
                  "*before* is the code before the last pass of issue 29's part 3, the one "
                  "described last above):",
                  "", "| data | pla run | pla run --check | ratio | ratio before |",
                  "|---|---:|---:|---:|---:|"]
        for label, r in checks["whole_process"].items():
            before = f"{r['before_ratio_median']:.2f}×" if "before_ratio_median" in r else "–"
            lines.append(f"| {label} | {r['run_cpu_seconds']:.3f} s | "
                         f"{r['check_cpu_seconds']:.3f} s | {r['ratio_median']:.2f}× | "
                         f"{before} |")
        lines += ["", "In one process with the engine loaded (one BLAS thread, as in `pla`): "
                  "the check's set-up (w_f's certificate, checked by the kernel, and the "
                  "monitor), the whole check (set-up, monitored run, end check) and the floor "
                  "(the monitor alone for that w_f: the kernel's validation of the data, margins "
                  "and norms, no search) over the plain run (CPU-time medians):",
                  "", "| data | run | set-up | set-up / run | check / run | floor / run | "
                  "before: set-up / run | before: check / run |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for label, r in checks["in_process"].items():
            before = (f"{r['before_setup_over_run']:.1f}× | {r['before_check_over_run']:.1f}×"
                      if "before_setup_over_run" in r else "– | –")
            floor = f"{r['floor_over_run']:.1f}×" if "floor_over_run" in r else "–"
            lines.append(f"| {label} | {r['run_cpu_seconds']:.3f} s | "
                         f"{r['setup_cpu_seconds']:.3f} s | {r['setup_over_run']:.1f}× | "
                         f"{r['check_over_run']:.1f}× | {floor} | {before} |")
        lines.append("")
    return "\n".join(lines)


def expand_scaling_marker(markdown: str, results: Path) -> str:
    """Replace the marker with the section built from ``results`` (a JSON file)."""
    report = json.loads(Path(results).read_text(encoding="utf-8"))
    return MARKER.sub(lambda _: scaling_markdown(report), markdown)


def draw_scaling_figure(results: Path, directory: Path) -> Path:
    """``directory/scaling.png``: time against updates (log–log), one line per engine."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    report = json.loads(Path(results).read_text(encoding="utf-8"))
    rows = [r for r in report["grid"] if "engines" in r and r["updates"] > 0]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.0))
    for engine, style in (("exact", "o-"), ("checked", "s-"), ("float-block", "^--"),
                          ("sklearn", "v--"), ("reference", "x:")):
        points = sorted((r["updates"], r["engines"][engine]["seconds"], r["d"]) for r in rows
                        if "seconds" in r["engines"].get(engine, {}))
        if points:
            axes[0].plot([p[0] for p in points], [p[1] for p in points], style,
                         label=_NAMES[engine], markersize=4)
    axes[0].set_xscale("log")
    axes[0].set_yscale("log")
    axes[0].set_xlabel("updates of the run")
    axes[0].set_ylabel("seconds (in-process)")
    axes[0].legend(fontsize=7)
    axes[0].set_title("time against updates, every shape", fontsize=9)
    for d in sorted({r["d"] for r in rows}):
        points = sorted((r["n"], r["exact_over_float_block"]) for r in rows if r["d"] == d)
        axes[1].plot([p[0] for p in points], [p[1] for p in points], "o-", label=f"d = {d}")
    axes[1].axhline(1.0, color="#888888", linewidth=0.8)
    axes[1].set_xscale("log")
    axes[1].set_xlabel("n (examples)")
    axes[1].set_ylabel("exact time / float64 block-scan time")
    axes[1].legend(fontsize=7)
    axes[1].set_title("the price of exactness", fontsize=9)
    for ax in axes:
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / FIGURE
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
