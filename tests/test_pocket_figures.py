"""The Pocket page's figures: drawn from the very data the page's ``pla make-data`` writes."""

from __future__ import annotations

import pla
from tests.cli_runner import pla_cli
from sitebuild.pocket_figures import POCKET_DATA, POCKET_FIGURES, draw_pocket_figures, pocket_data


def test_figure_data_are_the_pages_make_data_output(tmp_path):
    spec = POCKET_DATA
    done = pla_cli("make-data", "--n", str(spec["n"]), "--d", str(spec["d"]), "--margin",
                   spec["margin"], "--flip", spec["flip"], "--seed", str(spec["seed"]),
                   "--test-out", str(tmp_path / "test.dat"), str(tmp_path / "train.dat"))
    assert done.code == 0, done.err
    train, test = pocket_data(tmp_path / "figures")
    assert train.fingerprint == pla.load(str(tmp_path / "train.dat")).fingerprint
    assert test.fingerprint == pla.load(str(tmp_path / "test.dat")).fingerprint


def test_every_figure_is_drawn(tmp_path):
    written = draw_pocket_figures(tmp_path)
    assert sorted(p.name for p in written) == sorted(POCKET_FIGURES)
    for path in written:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def test_the_committed_benchmark_results_render_as_the_pages_table():
    from pathlib import Path

    from sitebuild.pocket_benchmark import expand_pocket_benchmark

    results = Path(__file__).resolve().parent.parent / "benchmarks" / "results" / "pocket_runs.json"
    page = expand_pocket_benchmark("before\n<!-- pocket-benchmark -->\nafter\n", results)
    assert "<!-- pocket-benchmark -->" not in page and "2,000 runs × 50 updates" in page
    assert "identical runs" in page
    assert page.count("\n| ") >= 6  # header row and one row per configuration
