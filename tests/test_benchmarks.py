"""The engine benchmark runs (quick shapes), records what it claims, and feeds the docs tables.

Timings are not asserted (they belong to the benchmark); correctness verdicts are.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sitebuild.benchmark_tables import MARKER, benchmark_markdown, expand_benchmark_marker

ROOT = Path(__file__).resolve().parent.parent


def test_quick_benchmark_runs_and_the_docs_tables_render(tmp_path):
    output = tmp_path / "engines.json"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "engines.py"), "--quick",
                           "--repeat", "1", "--output", str(output)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(output.read_text())
    assert report["date"] and report["machine"]["cpus"] and report["quick"]
    for row in report["shapes"]:
        engines = row["engines"]
        assert engines["fast"]["same_w"] and row["halted"]
        assert engines["reference"].get("same_w", True)          # measured: identical w
        if row["kind"] == "integer":                             # floats are exact there
            for peer in ("float-loop", "float-block", "sklearn"):
                assert engines[peer]["identical_w"] and engines[peer]["separates"]
    assert all(entry["same"] for entry in report["files"]["reading"].values())
    assert all(entry["exit_code"] == 0 for entry in report["files"]["process"].values())
    assert all(r["same_steps_as_reference"] and r["same_as_before"] for r in report["float_data"])
    page = expand_benchmark_marker("# B\n\n<!-- benchmark-tables -->\n", output)
    assert not MARKER.search(page) and "| exact, fast engine (default) |" in page
    assert "x fast" in done.stdout and "results written" in done.stdout


def test_the_committed_results_file_renders():
    results = ROOT / "benchmarks" / "results" / "engines.json"
    report = json.loads(results.read_text())
    text = benchmark_markdown(report)
    assert report["date"][:10] in text and report["machine"]["cpu"] in text
    assert text.count("### ") == len(report["shapes"]) + 2 + bool(report.get("float_data"))


def test_the_float_data_table_shows_identical_runs_and_the_ratio():
    report = json.loads((ROOT / "benchmarks" / "results" / "engines.json").read_text())
    rows = report["float_data"]
    assert {r["data"].split(",")[0] for r in rows} == {"breast cancer", "standard normal (10"}
    assert all(r["same_steps_as_reference"] and r["same_as_before"] for r in rows)
    table = benchmark_markdown(report).split("### Float-valued data")[1]
    for r in rows:
        assert f"| {r['data']} | {r['updates']:,} |" in table and "**NO**" not in table


def test_the_committed_scaling_results_render_as_a_table_and_a_figure(tmp_path):
    from sitebuild.scaling_benchmark import (MARKER as SCALING, draw_scaling_figure,
                                             expand_scaling_marker)

    results = ROOT / "benchmarks" / "results" / "scaling.json"
    report = json.loads(results.read_text())
    page = expand_scaling_marker("# S\n\n<!-- scaling-benchmark -->\n", results)
    assert not SCALING.search(page) and report["date"][:10] in page
    measured = [r for r in report["grid"] if "engines" in r]
    assert measured and page.count("\n| ") >= len(report["grid"]) + 1
    for row in measured:        # the checked runs agreed with the plain runs, exactly
        assert row["updates"] >= 0 and row["engines"]["exact"]["seconds"] > 0
        if "seconds" in row["engines"]["reference"]:
            assert row["engines"]["reference"]["same_w"]
    assert all(p["ratio_wall"] > 0 for p in report["processes"].values())
    figure = draw_scaling_figure(results, tmp_path)
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_committed_memory_peaks_render_with_the_numpy_process_for_scale():
    from sitebuild.scaling_benchmark import expand_scaling_marker

    results = ROOT / "benchmarks" / "results" / "scaling.json"
    memory = json.loads(results.read_text())["memory"]
    page = expand_scaling_marker("# S\n\n<!-- scaling-benchmark -->\n", results)
    for label, peak in memory["peak_bytes"].items():
        assert f"| {label} | {peak / 2**20:.1f} | " in page
    assert {"pla run", "pla run --check", "numpy loadtxt (the data held)"} <= set(
        memory["peak_bytes"])


def test_the_committed_whole_process_comparison_with_numpy_renders():
    from sitebuild.scaling_benchmark import expand_scaling_marker

    results = ROOT / "benchmarks" / "results" / "scaling.json"
    versus = json.loads(results.read_text())["versus_numpy"]
    page = expand_scaling_marker("# S\n\n<!-- scaling-benchmark -->\n", results)
    assert len(versus) == 4 and any("vec400_1" in label for label in versus)
    for label, r in versus.items():
        assert f"| {label} | {r['pla_cpu_seconds']:.3f} s |" in page and r["ratio_median"] > 0


def test_the_committed_check_by_shape_renders_every_shape():
    from sitebuild.scaling_benchmark import expand_scaling_marker

    results = ROOT / "benchmarks" / "results" / "scaling.json"
    checks = json.loads(results.read_text())["check_by_shape"]
    page = expand_scaling_marker("# S\n\n<!-- scaling-benchmark -->\n", results)
    assert len(checks["whole_process"]) == 5 and len(checks["in_process"]) == 3
    for label, r in checks["whole_process"].items():
        assert f"| {label} | {r['run_cpu_seconds']:.3f} s | {r['check_cpu_seconds']:.3f} s | " \
               f"{r['ratio_median']:.2f}× |" in page
    for label, r in checks["in_process"].items():
        assert f"| {label} | {r['run_cpu_seconds']:.3f} s | {r['setup_cpu_seconds']:.3f} s | " \
               f"{r['setup_over_run']:.1f}× |" in page


def test_the_committed_standard_facts_render_one_row_per_claim_of_the_page():
    """docs/benchmarks.md carries no hand-copied figure: its marker becomes the summary and one
    row per claim of benchmarks/results/standard_facts.json, which has every block of
    docs/standard-facts.md."""
    from sitebuild.standard_facts_table import MARKER as FACTS, expand_standard_facts_marker

    results = ROOT / "benchmarks" / "results" / "standard_facts.json"
    page = (ROOT / "docs" / "benchmarks.md").read_text()
    assert FACTS.search(page) and "| `abs-above` |" not in page
    text = expand_standard_facts_marker(page, results)
    ids = [r["id"] for r in json.loads(results.read_text())["claims"]]
    assert ids == [line.split(": ")[1] for line in
                   (ROOT / "docs" / "standard-facts.md").read_text().splitlines()
                   if line.startswith("id: ")]
    assert all(f"| `{i}` |" in text for i in ids) and "all as expected" in text


def test_the_committed_instruction_counts_render_one_row_per_shape():
    """benchmarks/instructions.py's results (callgrind counts of whole processes): one row per
    shape of scaling.py's check-by-shape table, each ratio the quotient of its two counts."""
    import doctest

    import sitebuild.instruction_counts as module
    from sitebuild.instruction_counts import MARKER as COUNTS, expand_instruction_counts_marker

    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
    results = ROOT / "benchmarks" / "results" / "instructions.json"
    report = json.loads(results.read_text())
    page = expand_instruction_counts_marker("# I\n\n<!-- instruction-counts -->\n", results)
    assert not COUNTS.search(page) and report["date"] in page
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from scaling import CHECK_SHAPES
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    assert len(report["shapes"]) == len(CHECK_SHAPES)
    for label, row in report["shapes"].items():
        assert row["ratio"] == row["check_instructions"] / row["run_instructions"]
        assert f"| {label.replace(' x ', ' × ')} |" in page
        assert f"**{row['ratio']:.2f}×**" in page
