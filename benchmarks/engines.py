"""Exact PLA against its peers, side by side in one run: speed ratios, memory, and who is right.

On generated separable data of several shapes (N from 10² to 10⁵, d from 2 to 10³, decimal and
rational entries) this script runs, on the same data and with the same visiting rule (cyclic,
w₀ = 0, η = 1, a zero score is a mistake):

- ``fast``: the default exact engine (:mod:`pla.fast_engine`);
- ``reference``: the Fraction reference engine -- only where it finishes within the time budget
  (``--reference-budget``), from an estimate made on the fast run; otherwise it is reported as
  skipped, never extrapolated;
- ``float-loop``: a float64 numpy PLA written the usual way (one point per Python iteration);
- ``float-block``: a float64 numpy PLA with the fast engine's block scan, minus the exactness;
- ``sklearn``: scikit-learn's ``Perceptron(shuffle=False, eta0=1, penalty=None,
  fit_intercept=False, tol=None, max_iter=<the exact run's epochs>)`` on the data with the bias
  column, which follows the same trajectory in exact arithmetic.

For each it prints the time (best of ``--repeat``), the ratio to the fast engine, the peak memory
(tracemalloc, a separate run) and whether the final w is right: exactly equal for the exact
engines; for the float peers, whether w equals the exact w rounded to float64, and whether it
*separates the data exactly* (checked in exact integer arithmetic) -- a float run that stops on
a w that does not separate the data, or never stops, is the case for exactness.

It also times reading a 400 × 1000 file (rationals, decimals) and the whole ``pla run`` and
``pla run --check`` processes on it.  Results go to ``benchmarks/results/engines.json`` (date,
machine, load) which the docs page ``docs/benchmarks.md`` turns into tables at build time.

Run: ``make bench`` (minutes), or ``.venv/bin/python benchmarks/engines.py --quick``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

import numpy as np

import pla
from pla.fast_engine import EngineStats, run_fast
from pla.perceptron import RunOptions

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "engines.json"

#: (name, N, d, kind): kind "decimal" = 3-decimal entries in [-1, 1]; "rational" = p/q with
#: q ≤ 12 (common scale 27720); "coq" = Coq-benchmark style p % q with q | 100; "integer" =
#: integers in [-100, 100] (integer-representable: float peers compute exactly there).
SHAPES = [
    ("N=100, d=2, decimal", 100, 2, "decimal"),
    ("N=1000, d=10, decimal", 1000, 10, "decimal"),
    ("N=1000, d=100, integer", 1000, 100, "integer"),
    ("N=1000, d=100, rational", 1000, 100, "rational"),
    ("N=400, d=1000, rational (Coq benchmark)", 400, 1000, "coq"),
    ("N=10000, d=20, rational", 10_000, 20, "rational"),
    ("N=100000, d=2, decimal", 100_000, 2, "decimal"),
    ("N=100000, d=10, rational", 100_000, 10, "rational"),
    ("N=100000, d=10, integer", 100_000, 10, "integer"),
]
QUICK_SHAPES = [
    ("N=100, d=2, decimal", 100, 2, "decimal"),
    ("N=200, d=30, rational", 200, 30, "rational"),
    ("N=100, d=200, rational (Coq style)", 100, 200, "coq"),
    ("N=300, d=20, integer", 300, 20, "integer"),
]


# ----------------------------------------------------------------------------- data
def generate(n: int, d: int, kind: str, seed: int) -> tuple[list[list[Fraction]], list[int]]:
    """Separable data: labels from a random integer hyperplane, points closer to it than a small
    margin dropped (so that PLA halts in a moderate number of updates).  Exact throughout."""
    rng = np.random.default_rng(seed)
    w = rng.integers(-5, 6, size=d + 1)
    w[1] = w[1] or 1
    if kind == "decimal":
        grid = np.full(d, 1000)
    elif kind == "integer":
        grid = np.full(d, 1)
    elif kind == "coq":
        grid = np.full(d, 100)
    else:
        grid = rng.integers(1, 13, size=d)
    span = 100 * grid if kind == "integer" else grid    # numerators in [-span, span]
    rows: list[np.ndarray] = []
    labels: list[np.ndarray] = []
    norm = float(np.sqrt((w[1:] ** 2).sum()))
    gap = 0.02 * norm * (1 if d <= 100 else np.sqrt(d) / 10) * (100 if kind == "integer" else 1)
    count = 0
    common = int(np.lcm.reduce(grid))
    while count < n:
        numerators = rng.integers(-span, span + 1, size=(2 * (n - count) + 16, d))
        # exact score times the common scale: w0*common + Σ w_i * num_i * (common / grid_i)
        scaled = numerators * (common // grid)
        score = w[0] * common + scaled @ w[1:]
        keep = np.abs(score) >= gap * common
        numerators, score = numerators[keep], score[keep]
        take = min(n - count, numerators.shape[0])
        rows.append(numerators[:take])
        labels.append(np.where(score[:take] > 0, 1, -1))
        count += take
    num = np.concatenate(rows)
    y = np.concatenate(labels).tolist()
    X = [[Fraction(int(a), int(g)) for a, g in zip(row, grid)] for row in num.tolist()]
    return X, y


def write_file(path: Path, X: list[list[Fraction]], y: list[int], kind: str) -> None:
    with open(path, "w") as handle:
        if kind == "coq":
            handle.write(f"{len(X)}\n{len(X[0])}\n")
            for row, label in zip(X, y):
                handle.write(f"{1 if label > 0 else 0}\n")
                handle.writelines(f"{v.numerator} % {v.denominator}\n" for v in row)
        elif kind == "decimal":
            for row, label in zip(X, y):
                handle.write(" ".join(f"{float(v):.3f}" for v in row) + f" {label:+d}\n")
        else:
            for row, label in zip(X, y):
                handle.write(" ".join(str(v) for v in row) + f" {label:+d}\n")


# ----------------------------------------------------------------------------- float peers
def float_loop(X: np.ndarray, y: np.ndarray, max_visits: int) -> tuple[np.ndarray, int, bool]:
    """The usual numpy PLA: one point per iteration, cyclic, halt after N correct in a row."""
    n = X.shape[0]
    w = np.zeros(X.shape[1])
    clean = i = updates = 0
    for _ in range(max_visits):
        if y[i] * (X[i] @ w) <= 0:
            w += y[i] * X[i]
            updates += 1
            clean = 0
        else:
            clean += 1
            if clean == n:
                return w, updates, True
        i = i + 1 if i + 1 < n else 0
    return w, updates, False


def float_block(X: np.ndarray, y: np.ndarray, max_updates: int) -> tuple[np.ndarray, int, bool]:
    """The fast engine's block scan in float64, without any exactness guard."""
    n = X.shape[0]
    w = np.zeros(X.shape[1])
    position, updates, block = 0, 0, 16
    clean = 0
    while updates <= max_updates:
        size = min(block, n - position, n - clean)
        margins = y[position:position + size] * (X[position:position + size] @ w)
        hits = np.flatnonzero(margins <= 0)
        if hits.size:
            j = int(hits[0])
            i = position + j
            w += y[i] * X[i]
            updates += 1
            clean = 0
            block = max(16, min(1 << 15, 2 * (j + 1)))
            position = i + 1 if i + 1 < n else 0
        else:
            clean += size
            if clean >= n:
                return w, updates, True
            block = min(1 << 15, 2 * block)
            position = (position + size) % n
    return w, updates, False


def sklearn_perceptron(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    model = Perceptron(penalty=None, alpha=0.0, fit_intercept=False, max_iter=max(1, epochs),
                       tol=None, shuffle=False, eta0=1.0, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    return model.coef_[0].copy()


def separates_exactly(w: np.ndarray, ds: pla.Dataset) -> bool:
    """Whether the float vector w (read exactly as binary fractions) separates ds, exactly."""
    if not np.all(np.isfinite(w)):
        return False
    fractions = [Fraction(float(v)) for v in w]
    common = max(f.denominator for f in fractions)
    W = [f.numerator * (common // f.denominator) for f in fractions]
    return all(y * sum(a * b for a, b in zip(W, row)) > 0 for row, y in zip(ds.rows, ds.labels))


# ----------------------------------------------------------------------------- float data
def float_data_sets(quick: bool) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Float-valued data as a scikit-learn user has it: breast cancer standardised (569 × 30)
    and a standard-normal 10⁴ × 100 set labelled by a random hyperplane (10³ × 20 with --quick)."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    rng = np.random.default_rng(29)
    n, d = (1000, 20) if quick else (10_000, 100)
    G = rng.standard_normal((n, d))
    h = rng.standard_normal(d + 1)
    return [("breast cancer, standardised (569 × 30)", StandardScaler().fit_transform(X),
             np.where(y > 0, 1, -1)),
            (f"standard normal ({n:,} × {d})", G, np.where(G @ h[1:] + h[0] > 0, 1, -1))]


def bench_float_data(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Per-update cost of the exact engine on float data against the float64 block-scan PLA
    with the same visiting order (cyclic, w₀ = 0, η = 1), both stopped by the same update
    budget: the median over alternating runs of the CPU-time ratio, and the engine before this
    filter (Python integers, ``carriers="bigint"``) on a smaller budget."""
    from pla.estimators import exact_rows

    budget = 2_000 if args.quick else 20_000
    before_budget = budget // 10
    rows = []
    for name, X, y in float_data_sets(args.quick):
        started = time.process_time()
        ds = pla.Dataset.from_rows(exact_rows(X), y.tolist())
        build = time.process_time() - started
        Xf = np.hstack([np.ones((X.shape[0], 1)), X])
        yf = y.astype(np.float64)
        options = RunOptions(max_updates=budget)
        exact_costs, float_costs, ratios = [], [], []
        for _ in range(args.repeat):
            started = time.process_time()
            w, updates, _epochs, _halted = run_fast(ds, options)
            exact_cost = (time.process_time() - started) / max(updates, 1)
            started = time.process_time()
            wf, float_updates, _ = float_block(Xf, yf, budget)
            float_cost = (time.process_time() - started) / max(float_updates, 1)
            exact_costs.append(exact_cost)
            float_costs.append(float_cost)
            ratios.append(exact_cost / float_cost)
        stats = EngineStats()
        run_fast(ds, options, stats=stats)
        started = time.process_time()
        before = run_fast(ds, RunOptions(max_updates=before_budget), carriers="bigint")
        before_cost = (time.process_time() - started) / max(before[1], 1)
        same = run_fast(ds, RunOptions(max_updates=before_budget))
        reference_steps = before_budget // 10
        reference = pla.run(ds, max_updates=reference_steps, engine="reference", keep_steps=True)
        filtered = pla.run(ds, max_updates=reference_steps, keep_steps=True)
        rows.append({
            "data": name, "n": int(X.shape[0]), "d": int(X.shape[1]),
            "scale_bits": ds.scale.bit_length(), "dataset_seconds": build,
            "budget": budget, "updates": updates,
            "exact_update_seconds": float(np.median(exact_costs)),
            "float_update_seconds": float(np.median(float_costs)),
            "ratio_median": float(np.median(ratios)), "ratios": ratios,
            "float_same_updates": float_updates == updates,
            "exact_checks": stats.bigint_blocks, "certified_blocks": stats.float_blocks,
            "before_budget": before_budget, "before_update_seconds": before_cost,
            "same_as_before": same == before,
            "reference_updates": reference_steps,
            "same_steps_as_reference": filtered.steps == reference.steps
            and filtered.w == reference.w,
        })
    return rows


def print_float_data(rows: list[dict[str, Any]]) -> None:
    print("\nfloat-valued data (per update, median of alternating runs):")
    print(f"  {'data':42} {'updates':>8} {'exact µs':>9} {'float µs':>9} {'ratio':>6} "
          f"{'before µs':>10}  same as reference")
    for r in rows:
        print(f"  {r['data']:42} {r['updates']:8} {r['exact_update_seconds'] * 1e6:9.1f} "
              f"{r['float_update_seconds'] * 1e6:9.1f} {r['ratio_median']:6.2f} "
              f"{r['before_update_seconds'] * 1e6:10.1f}  "
              f"{'yes' if r['same_steps_as_reference'] and r['same_as_before'] else 'NO'}")


# ----------------------------------------------------------------------------- measuring
def best_time(action: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, value = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        value = action()
        best = min(best, time.perf_counter() - started)
    return best, value


def peak_memory(action: Callable[[], Any]) -> int:
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def bench_shape(name: str, n: int, d: int, kind: str, args: argparse.Namespace,
                seed: int) -> dict[str, Any]:
    X, y = generate(n, d, kind, seed)
    ds = pla.Dataset.from_rows(X, y)
    Xf = np.array([[1.0] + [float(v) for v in row] for row in X])
    yf = np.array(y, dtype=np.float64)
    options = RunOptions()
    stats = EngineStats()
    # The first run also builds the data set's int64 matrix (cached on the Dataset; pla.load's
    # fast path builds it while reading); later runs reuse it, as the float peers reuse theirs.
    cold_time, _ = best_time(lambda: pla.run(ds, keep_steps=False), 1)
    fast_time, exact = best_time(lambda: pla.run(ds, keep_steps=False), args.repeat)
    run_fast(ds, options, stats=stats)
    row: dict[str, Any] = {
        "shape": name, "n": n, "d": d, "kind": kind, "scale": ds.scale,
        "updates": exact.updates, "epochs": exact.epochs, "halted": exact.halted,
        "visits_scanned": stats.rows_scanned,
        "carriers": {"float64": stats.float_blocks, "int64": stats.int64_blocks,
                     "bigint": stats.bigint_blocks},
        "engines": {},
    }
    engines = row["engines"]
    engines["fast"] = {"seconds": fast_time, "cold_seconds": cold_time, "same_w": True,
                       "separates": True,
                       "peak_bytes": peak_memory(lambda: pla.run(ds, keep_steps=False))}
    # Reference: estimated from the visits the fast run scanned (≈ dim Fraction products each).
    estimate = stats.rows_scanned * ds.dim * args.fraction_cost
    if estimate <= args.reference_budget:
        ref_time, ref = best_time(lambda: pla.run(ds, keep_steps=False, engine="reference"), 1)
        engines["reference"] = {"seconds": ref_time, "same_w": ref.w == exact.w and
                                ref.updates == exact.updates, "separates": ref.halted}
    else:
        engines["reference"] = {"skipped": f"estimated {estimate:.0f} s > budget "
                                           f"{args.reference_budget:.0f} s"}
    w_float = np.array([float(v) for v in exact.w])
    max_visits = max(10 * exact.epochs * n, 10 * n)
    loop_time, (w_loop, loop_updates, loop_halted) = best_time(
        lambda: float_loop(Xf, yf, max_visits), 1 if n * exact.epochs > 200_000 else args.repeat)
    engines["float-loop"] = _float_verdict(loop_time, w_loop, w_float, loop_halted, ds,
                                           loop_updates, peak_memory(
                                               lambda: float_loop(Xf, yf, max_visits)))
    block_time, (w_block, block_updates, block_halted) = best_time(
        lambda: float_block(Xf, yf, 10 * max(exact.updates, 100)), args.repeat)
    engines["float-block"] = _float_verdict(block_time, w_block, w_float, block_halted, ds,
                                            block_updates, peak_memory(
                                                lambda: float_block(Xf, yf, 10 * exact.updates)))
    sk_time, w_sk = best_time(lambda: sklearn_perceptron(Xf, yf, exact.epochs), args.repeat)
    engines["sklearn"] = _float_verdict(sk_time, w_sk, w_float, True, ds, None, peak_memory(
        lambda: sklearn_perceptron(Xf, yf, exact.epochs)))
    for entry in engines.values():
        if "seconds" in entry:
            entry["ratio_to_fast"] = entry["seconds"] / fast_time
    return row


def _float_verdict(seconds: float, w: np.ndarray, w_exact: np.ndarray, halted: bool,
                   ds: pla.Dataset, updates: int | None, peak: int) -> dict[str, Any]:
    """Float peers: ``same_w`` compares with the exact w rounded (9 significant digits of the
    largest entry); ``identical_w`` is bit-for-bit equality with the exact w rounded to float64."""
    tolerance = 1e-9 * max(1.0, float(np.max(np.abs(w_exact))))
    return {"seconds": seconds,
            "same_w": bool(w.shape == w_exact.shape and np.all(np.abs(w - w_exact) <= tolerance)),
            "identical_w": bool(np.array_equal(w, w_exact)),
            "separates": separates_exactly(w, ds), "halted": halted, "updates": updates,
            "peak_bytes": peak}


def bench_files(directory: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Reading 400 × 1000 files, and whole `pla run` / `pla run --check` processes."""
    n, d = (100, 200) if args.quick else (400, 1000)
    out: dict[str, Any] = {"n": n, "d": d, "reading": {}, "process": {}}
    X, y = generate(n, d, "coq", 7)
    files = {"coq (p % q)": directory / "data.coq", "dat (p/q)": directory / "rational.dat"}
    write_file(files["coq (p % q)"], X, y, "coq")
    write_file(files["dat (p/q)"], X, y, "rational")
    Xd, yd = generate(n, d, "decimal", 8)
    files["dat (decimals)"] = directory / "decimal.dat"
    write_file(files["dat (decimals)"], Xd, yd, "decimal")
    import pla.formats as formats

    for label, path in files.items():
        fast_time, ds = best_time(lambda: pla.load(path), args.repeat)
        threshold = formats.FAST_PATH_MIN_BYTES
        formats.FAST_PATH_MIN_BYTES = 1 << 62
        try:
            careful_time, careful = best_time(lambda: pla.load(path), 1)
        finally:
            formats.FAST_PATH_MIN_BYTES = threshold
        out["reading"][label] = {"bytes": path.stat().st_size, "seconds": fast_time,
                                 "careful_seconds": careful_time, "same": careful == ds}
    pla_command = [str(Path(sys.executable).parent / "pla")]
    coq = str(files["coq (p % q)"])
    # A given w_f (the run's own final w, in a file): --check then costs only the monitor.
    final = pla.run(pla.load(coq), keep_steps=False).w
    wf_file = directory / "wf.txt"
    wf_file.write_text("\n".join(str(v) for v in final) + "\n")
    # as an installed package runs: bytecode compiled once (see benchmarks/scaling.py)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "pla"),
                    str(ROOT / "verify")], check=True, capture_output=True)
    for label, extra in (("pla run", []),
                         ("pla run --check --wf FILE (the monitor)", ["--check", "--wf",
                                                                       str(wf_file)]),
                         ("pla run --check (default w_f: near-max-margin + monitor)",
                          ["--check"]),
                         ("pla run --check --wf maxmargin-exact (exact w* + monitor)",
                          ["--check", "--wf", "maxmargin-exact"])):
        out["process"][label] = _process_time(pla_command + ["run", coq, "--format", "coq"]
                                              + extra, args.repeat + 2)
    baseline = _process_time([sys.executable, "-c", "pass"], args.repeat + 2)
    out["process"]["python -c pass"] = baseline
    return out


def _process_time(command: list[str], repeat: int) -> dict[str, Any]:
    walls, cpus, code = [], [], None
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True)
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        code = done.returncode
    return {"wall_seconds": min(walls), "cpu_seconds": min(cpus), "exit_code": code}


def machine() -> dict[str, Any]:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import sklearn

    return {"cpu": model, "cpus": os.cpu_count(), "system": platform.platform(),
            "python": platform.python_version(), "numpy": np.__version__,
            "scikit-learn": sklearn.__version__,
            "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None}


# ----------------------------------------------------------------------------- output
def print_report(report: dict[str, Any]) -> None:
    print(f"machine: {report['machine']['cpu']}, {report['machine']['cpus']} CPUs, "
          f"load {report['machine']['load_average']}")
    for row in report["shapes"]:
        print(f"\n{row['shape']}: {row['updates']} updates, {row['epochs']} epochs, "
              f"scale {row['scale'] if row['scale'] < 10**12 else '~10^%d' % len(str(row['scale']))}")
        print(f"  {'engine':12} {'seconds':>10} {'x fast':>9} {'peak MiB':>9}  same w   separates")
        for name, e in row["engines"].items():
            if "skipped" in e:
                print(f"  {name:12} skipped: {e['skipped']}")
                continue
            peak = f"{e['peak_bytes'] / 2**20:9.2f}" if "peak_bytes" in e else f"{'-':>9}"
            print(f"  {name:12} {e['seconds']:10.4f} {e['ratio_to_fast']:9.2f} {peak}  "
                  f"{'yes' if e['same_w'] else 'NO':6}   "
                  f"{'yes' if e['separates'] else 'NO (not a separator)'}")
    files = report["files"]
    print(f"\nreading {files['n']} x {files['d']} files:")
    for label, r in files["reading"].items():
        print(f"  {label:16} {r['seconds']:.3f} s (careful parser {r['careful_seconds']:.3f} s, "
              f"{r['careful_seconds'] / r['seconds']:.1f}x; same data: {r['same']})")
    print("whole processes (best wall / CPU):")
    for label, r in files["process"].items():
        print(f"  {label:18} {r['wall_seconds']:.3f} s / {r['cpu_seconds']:.3f} s "
              f"(exit {r['exit_code']})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small shapes (a smoke test)")
    parser.add_argument("--repeat", type=int, default=3, help="best of K timings (3)")
    parser.add_argument("--reference-budget", type=float, default=60.0, metavar="SECONDS",
                        help="run the Fraction reference only when estimated below this")
    parser.add_argument("--fraction-cost", type=float, default=2e-6, metavar="SECONDS",
                        help="estimated cost of one Fraction product in the reference (2e-6)")
    parser.add_argument("--output", type=Path, default=RESULTS, help="results JSON file")
    parser.add_argument("--float-data-only", action="store_true",
                        help="measure only the float-data table and update it in --output")
    args = parser.parse_args(argv)
    if args.float_data_only:
        report = json.loads(args.output.read_text()) if args.output.exists() else {}
        report["float_data"] = bench_float_data(args)
        report["float_data_machine"] = machine()
        report["float_data_date"] = datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds")
        print_float_data(report["float_data"])
        args.output.write_text(json.dumps(report, indent=1) + "\n")
        print(f"\nresults written to {args.output}")
        return 0
    shapes = QUICK_SHAPES if args.quick else SHAPES
    started = time.time()
    report: dict[str, Any] = {
        "benchmark": "engines",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(), "quick": args.quick, "shapes": [],
    }
    for k, (name, n, d, kind) in enumerate(shapes):
        print(f"... {name}", file=sys.stderr, flush=True)
        report["shapes"].append(bench_shape(name, n, d, kind, args, seed=100 + k))
    with tempfile.TemporaryDirectory() as directory:
        report["files"] = bench_files(Path(directory), args)
    print("... float-valued data", file=sys.stderr, flush=True)
    report["float_data"] = bench_float_data(args)
    report["float_data_machine"] = report["machine"]
    report["float_data_date"] = report["date"]
    report["seconds_total"] = time.time() - started
    print_report(report)
    print_float_data(report["float_data"])
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=1) + "\n")
    print(f"\nresults written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
