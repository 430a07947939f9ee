"""Pocket speed: 2,000 runs × 50 updates on 500 × 4 data, test error on 500 more points.

The homework-sized experiment the issue asks to finish "well under a minute" on a 2-core
machine.  Measured side by side in one process, on the same data (``pla make-data`` with 10 %
flipped labels, so the data are not separable):

- the Pocket engine alone (``PocketProblem.run``), 1 and 2 processes;
- the engine plus every independent check of ``pla pocket`` (pla.run replay, kernel recount),
  1 and 2 processes -- what the command does -- and the same on a 2-worker Dask
  ``LocalCluster`` (``--cluster local:2``; its start and stop timed on their own row);
- the whole ``pla pocket ... --runs 2000 --jobs 2`` command line (process start included);
- the Fraction reference engine on a sample of runs, to show what the integer engine buys.

Every configuration must give the same runs (checked here); the ratios are what matter, the
absolute times depend on the machine and on its load.

Run: ``make bench-pocket`` (or ``.venv/bin/python benchmarks/pocket_runs.py [--runs K]``).  The
results are also written to ``benchmarks/results/pocket_runs.json`` (date, machine, load), which
the Pocket page of the site shows (``docs/hooks/pocket.py``); nothing is timed at build time.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pla
from pla.experiments import default_jobs, repeat_pocket, run_seeds
from pla.noise import noisy_data
from pla.pocket import PocketOptions, PocketProblem, reference_pocket
from verify.checks.pocket import checked_pocket_run


def _data() -> tuple[pla.Dataset, pla.Dataset]:
    rows, labels, test_rows, test_labels = noisy_data(500, 4, 0, "1/10", seed=2024, test_n=500)
    return (pla.Dataset.from_rows(rows, labels, source="train"),
            pla.Dataset.from_rows(test_rows, test_labels, source="test"))


def _timed(label: str, action, results: dict) -> float:
    started = time.perf_counter()
    results[label] = action()
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--updates", type=int, default=50)
    parser.add_argument("--reference-sample", type=int, default=20,
                        help="runs of the Fraction reference engine to time (default 20)")
    parser.add_argument("--no-cluster", action="store_true",
                        help="skip the 2-worker Dask LocalCluster (needs pla-verify[cluster])")
    parser.add_argument("--json-out", default=str(Path(__file__).parent / "results" /
                                                  "pocket_runs.json"),
                        help="where to write the results (default benchmarks/results/"
                             "pocket_runs.json); '-' for nowhere")
    args = parser.parse_args(argv)
    train, test = _data()
    options = PocketOptions(updates=args.updates, order="random-cycle")
    cpus = default_jobs()
    print(f"Pocket benchmark: {args.runs} runs x {args.updates} updates, train {train.n} x "
          f"{train.d}, test {test.n}; {cpus} CPU(s) available")
    problem = PocketProblem.prepare(train, options, test)
    print(f"integer engine: int64 fast path = {problem.int64} (bound checked once per problem)")
    load_before = os.getloadavg()
    print("load average before: " + " ".join(f"{v:.2f}" for v in load_before))

    results: dict[str, object] = {}
    rows = []
    for label, jobs, task in (("engine only", 1, None), ("engine only", 2, None),
                              ("engine + checks", 1, checked_pocket_run),
                              ("engine + checks", 2, checked_pocket_run)):
        key = f"{label}, {jobs} process(es)"
        seconds = _timed(key, lambda: repeat_pocket(train, options, args.runs, test=test,
                                                    jobs=jobs, task=task).runs, results)
        rows.append((key, seconds))
    if not args.no_cluster:  # the same runs on a 2-worker Dask LocalCluster (issue 30)
        from pla.cluster import dask_executor

        started = time.perf_counter()
        with dask_executor("local:2") as executor:
            key = "engine + checks, Dask LocalCluster, 2 workers"
            seconds = _timed(key, lambda: repeat_pocket(
                train, options, args.runs, test=test, task=checked_pocket_run,
                executor=executor).runs, results)
        rows.append((key, seconds))
        rows.append(("Dask LocalCluster start and stop (2 workers)",
                     time.perf_counter() - started - seconds))
    reference_runs = [r for r in results.values()]
    first = reference_runs[0]
    if any(r != first for r in reference_runs):
        print("MISMATCH: configurations gave different runs", file=sys.stderr)
        return 1

    with tempfile.TemporaryDirectory() as tmp:
        for path, ds in ((Path(tmp) / "train.dat", train), (Path(tmp) / "test.dat", test)):
            with open(path, "w") as handle:
                for row, y in zip(ds.X, ds.labels):
                    handle.write(" ".join(str(v) for v in row[1:]) + f" {y:+d}\n")
        command = [sys.executable, "-c", "import sys; from verify.cli import main; "
                   "sys.exit(main())", "pocket", str(Path(tmp) / "train.dat"), "--test",
                   str(Path(tmp) / "test.dat"), "--updates", str(args.updates), "--runs",
                   str(args.runs), "--jobs", "2", "--json", "--quiet"]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        cli_seconds = time.perf_counter() - started
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return 1
        rows.append(("pla pocket command line, --jobs 2", cli_seconds))

    sample = run_seeds(0, args.reference_sample)
    started = time.perf_counter()
    slow = [reference_pocket(train, options, seed, test) for seed in sample]
    reference_seconds = time.perf_counter() - started
    if slow != list(first)[: len(sample)]:  # type: ignore[call-overload]
        print("MISMATCH: reference engine differs", file=sys.stderr)
        return 1
    per_run_reference = reference_seconds / len(sample)
    rows.append((f"Fraction reference engine, 1 process (extrapolated from {len(sample)} runs)",
                 per_run_reference * args.runs))

    base = rows[0][1]
    width = max(len(label) for label, _ in rows)
    print()
    print(f"{'configuration'.ljust(width)}  {'seconds':>9}  {'ms/run':>7}  {'x engine':>8}")
    for label, seconds in rows:
        print(f"{label.ljust(width)}  {seconds:9.2f}  {1000 * seconds / args.runs:7.2f}  "
              f"{seconds / base:8.2f}")
    print()
    load_after = os.getloadavg()
    print("load average after:  " + " ".join(f"{v:.2f}" for v in load_after))
    print("all configurations gave identical runs (same seeds, same exact results)")
    if args.json_out != "-":
        import numpy

        report = {
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "runs": args.runs, "updates": args.updates, "train_n": train.n, "d": train.d,
            "test_n": test.n, "int64": problem.int64, "identical_runs": True,
            "reference_sample": len(sample),
            "machine": {"cpus": cpus, "python": platform.python_version(),
                        "numpy": numpy.__version__, "processor": platform.machine(),
                        "load_average_before": [round(v, 2) for v in load_before],
                        "load_average_after": [round(v, 2) for v in load_after]},
            "rows": [{"configuration": label, "seconds": round(seconds, 3)}
                     for label, seconds in rows],
        }
        out = Path(args.json_out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report, indent=2) + "\n")
        print(f"results written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
