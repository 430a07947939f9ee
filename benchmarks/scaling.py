"""How the exact engine and the checked run scale: n, d and updates, against float peers.

On generated separable data (3-decimal coordinates in [−1, 1], a bias column, labels from a
random integer hyperplane, points closer to it than a small geometric margin dropped, so that
PLA makes many updates) with n ∈ {10³, 10⁴, 10⁵} and d ∈ {10, 100, 1000}, this script times,
side by side in one run (medians of ``--repeat``; one timing where a single run is long):

- ``exact``: ``pla.run`` (the fast exact engine), data already in memory;
- ``checked``: what ``pla run --check`` adds in-process: the kernel-checked certificate for
  w_f (max-margin by default, an LP separator where the exact search is too costly; the
  ``wf_kind`` column says which) and the per-update monitor, every inequality at every update;
- ``float-block``: a float64 numpy PLA with the same block scan (no exactness guard);
- ``float-loop``: the usual float64 numpy PLA, one point per Python iteration (only where it
  visits at most ``--loop-visits`` points);
- ``sklearn``: scikit-learn's ``Perceptron`` for the exact run's number of epochs;
- ``reference``: the Fraction engine, only where its estimated time is within
  ``--reference-budget`` (else reported as skipped, never extrapolated).

Peak memory is tracemalloc's peak for the exact and the checked run (a separate run).  Growth
exponents are least-squares fits of log(time) on log n, log d (and on log updates).  Then whole
processes: ``pla run`` and ``pla run --check`` alternately (medians of ≥ 3) on the 400 × 1000
Coq-format set of ``benchmarks/engines.py``, on HW1-sized data (400 × 4) and on a run with about
10⁵ updates.

Results go to ``benchmarks/results/scaling.json``, which the Benchmarks page turns into a
table and a figure at build time.  Run: ``make bench`` or
``.venv/bin/python benchmarks/scaling.py [--quick]``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

import pla
from pla.fast_engine import EngineStats, run_fast
from verify.cli.command import BLAS_THREAD_VARIABLES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engines import (float_block, float_loop, generate, machine, peak_memory,  # noqa: E402
                     sklearn_perceptron, write_file)

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "scaling.json"
GRID_N = (1_000, 10_000, 100_000)
GRID_D = (10, 100, 1000)
QUICK_N = (300, 1_000)
QUICK_D = (5, 30)
#: The geometric margin of the generated data (small: many updates).
MARGIN = 0.01
#: A 10,000 × 100 set with about 10⁵ updates for the whole-process timings (100,786 updates).
HUNDRED_THOUSAND_MARGIN = 0.002
HUNDRED_THOUSAND_SEED = 7


def separable(n: int, d: int, seed: int, margin: float = MARGIN) -> pla.Dataset:
    """n points of 3-decimal coordinates in [−1, 1]^d at geometric distance ≥ margin from a
    random integer hyperplane (decided exactly in int64), as an exact Dataset (scale 1000)."""
    rng = np.random.default_rng(seed)
    w = rng.integers(-5, 6, size=d + 1)
    w[1] = w[1] or 1
    norm = float(np.sqrt((w[1:] ** 2).sum()))
    parts, labels, count = [], [], 0
    while count < n:
        X = rng.integers(-1000, 1001, size=(2 * (n - count) + 16, d))
        score = w[0] * 1000 + X @ w[1:]                 # exact: |score| < 2^63
        keep = np.abs(score) >= margin * 1000 * norm
        X, score = X[keep][: n - count], score[keep][: n - count]
        parts.append(X)
        labels.append(np.where(score > 0, 1, -1))
        count += X.shape[0]
    X = np.concatenate(parts)
    rows = np.hstack([np.full((n, 1), 1000, dtype=np.int64), X])
    return pla.Dataset.from_integers(rows.tolist(), 1000, np.concatenate(labels).tolist(),
                                     bias=True)


def timed(action: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Median time of ``repeat`` runs (one run when the first takes more than 2 s)."""
    times, value = [], None
    for k in range(repeat):
        started = time.perf_counter()
        value = action()
        times.append(time.perf_counter() - started)
        if k == 0 and times[0] > 2:
            break
    return statistics.median(times), value


def checked(ds: pla.Dataset) -> tuple[Any, Any, float]:
    """What ``pla run --check`` does in-process; returns (result, report, certificate seconds)."""
    from verify.checks.checked_run import prepare_monitor

    started = time.perf_counter()
    monitor = prepare_monitor(ds, pla.RunOptions())
    certificate = time.perf_counter() - started
    result = pla.run(ds, keep_steps=False, on_update=monitor.on_update)
    return result, monitor.finish(result), certificate


def bench_shape(n: int, d: int, args: argparse.Namespace, seed: int) -> dict[str, Any]:
    row: dict[str, Any] = {"n": n, "d": d}
    if n * (d + 1) > args.max_entries:
        row["skipped"] = (f"{n} x {d + 1} = {n * (d + 1):,} numbers > --max-entries "
                          f"{args.max_entries:,} (Python integers: memory)")
        return row
    ds = separable(n, d, seed)
    stats = EngineStats()
    run_fast(ds, pla.RunOptions(), stats=stats)
    exact_time, exact = timed(lambda: pla.run(ds, keep_steps=False), args.repeat)
    row.update(updates=exact.updates, epochs=exact.epochs, halted=exact.halted,
               visits=stats.rows_scanned)
    engines: dict[str, Any] = {"exact": {"seconds": exact_time}}
    check_time = None
    if n * (d + 1) <= args.check_max_entries:
        check_time, (result, report, certificate) = timed(lambda: checked(ds), args.repeat)
        if result.w != exact.w or report.violations:
            raise RuntimeError(f"n={n} d={d}: the checked run differs from the plain run")
        engines["checked"] = {"seconds": check_time, "certificate_seconds": certificate,
                              "monitor_seconds": max(0.0, check_time - certificate - exact_time),
                              "wf_kind": report.wf_kind, "checks": report.checks,
                              "bound_updates": report.bound_updates}
    else:
        engines["checked"] = {"skipped": f"{n * (d + 1):,} numbers > --check-max-entries "
                                         f"{args.check_max_entries:,}: beyond the exact "
                                         "max-margin limit the certificate is a dense float LP "
                                         "(minutes, GBs)", "wf_kind": "not run"}
    if not args.no_memory:
        engines["exact"]["peak_bytes"] = peak_memory(lambda: pla.run(ds, keep_steps=False))
        if check_time is not None and check_time < 5:
            engines["checked"]["peak_bytes"] = peak_memory(lambda: checked(ds))
    Xf = np.array(ds.rows, dtype=np.float64) / ds.scale
    yf = np.array(ds.labels, dtype=np.float64)
    block_time, (wb, _, block_halted) = timed(
        lambda: float_block(Xf, yf, 10 * max(exact.updates, 100)), args.repeat)
    engines["float-block"] = {"seconds": block_time, "halted": bool(block_halted)}
    if not args.no_memory:
        engines["float-block"]["peak_bytes"] = peak_memory(
            lambda: float_block(Xf, yf, 10 * max(exact.updates, 100)))
    if stats.rows_scanned <= args.loop_visits:
        loop_time, (_, _, loop_halted) = timed(
            lambda: float_loop(Xf, yf, 10 * stats.rows_scanned + 10 * n), 1)
        engines["float-loop"] = {"seconds": loop_time, "halted": bool(loop_halted)}
    else:
        engines["float-loop"] = {"skipped": f"{stats.rows_scanned:,} visits > --loop-visits "
                                            f"{args.loop_visits:,}"}
    sk_time, _ = timed(lambda: sklearn_perceptron(Xf, yf, exact.epochs), args.repeat)
    engines["sklearn"] = {"seconds": sk_time}
    estimate = stats.rows_scanned * ds.dim * args.fraction_cost
    if estimate <= args.reference_budget:
        ref_time, ref = timed(lambda: pla.run(ds, keep_steps=False, engine="reference"), 1)
        engines["reference"] = {"seconds": ref_time, "same_w": ref.w == exact.w}
    else:
        engines["reference"] = {"skipped": f"estimated {estimate:.0f} s > budget "
                                           f"{args.reference_budget:.0f} s"}
    for entry in engines.values():
        if "seconds" in entry:
            entry["ratio_to_exact"] = entry["seconds"] / exact_time
    row["engines"] = engines
    row["exact_over_float_block"] = exact_time / block_time
    row["checked_over_exact"] = None if check_time is None else check_time / exact_time
    return row


def exponents(rows: list[dict[str, Any]], engine: str) -> dict[str, float] | None:
    """Least-squares exponents of time ~ n^a d^b, and of time ~ updates^c."""
    points = [(r["n"], r["d"], r["updates"], r["engines"][engine]["seconds"]) for r in rows
              if "engines" in r and "seconds" in r["engines"].get(engine, {})
              and r["updates"] > 0]
    if len(points) < 3:
        return None
    A = np.array([[1.0, math.log(n), math.log(d)] for n, d, _, _ in points])
    t = np.array([math.log(s) for *_, s in points])
    (_, a, b), *_ = np.linalg.lstsq(A, t, rcond=None)
    U = np.array([[1.0, math.log(u)] for _, _, u, _ in points])
    (_, c), *_ = np.linalg.lstsq(U, t, rcond=None)
    return {"n": float(a), "d": float(b), "updates": float(c)}


def processes(directory: Path, args: argparse.Namespace,
              many: dict[str, Any] | None) -> dict[str, Any]:
    """Whole ``pla run`` and ``pla run --check`` processes, alternating, medians."""
    cases: dict[str, list[str]] = {}
    n, d = (100, 200) if args.quick else (400, 1000)
    X, y = generate(n, d, "coq", 7)
    coq = directory / "data.coq"
    write_file(coq, X, y, "coq")
    cases[f"{n} x {d} rational (Coq format)"] = [str(coq), "--format", "coq"]
    X, y = generate(400, 4, "decimal", 8)
    hw1 = directory / "hw1.dat"
    write_file(hw1, X, y, "decimal")
    cases["HW1-sized: 400 x 4 decimals"] = [str(hw1)]
    def write_dat(ds: pla.Dataset, name: str) -> str:
        path = directory / name
        with open(path, "w") as handle:
            for row, label in zip(ds.rows, ds.labels):
                handle.write(" ".join(f"{v / 1000:.3f}" for v in row[1:]) + f" {label:+d}\n")
        return str(path)

    if many is not None:
        ds = separable(many["n"], many["d"], many["seed"])
        cases[f"{many['n']} x {many['d']}: {many['updates']:,} updates"] = [
            write_dat(ds, "many.dat")]
    if not args.quick:               # the "runs with 10^5 updates": a smaller margin
        ds = separable(10_000, 100, HUNDRED_THOUSAND_SEED, margin=HUNDRED_THOUSAND_MARGIN)
        updates = pla.run(ds, keep_steps=False).updates
        cases[f"10000 x 100, margin {HUNDRED_THOUSAND_MARGIN}: {updates:,} updates"] = [
            write_dat(ds, "hundred-thousand.dat")]
    # as an installed package would run: bytecode compiled once (an editable install, or
    # PYTHONDONTWRITEBYTECODE, would otherwise compile the extra modules of --check every time)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "pla"),
                    str(ROOT / "verify")], check=True, capture_output=True)
    pla_command = str(Path(sys.executable).parent / "pla")
    out: dict[str, Any] = {}
    for label, data in cases.items():
        print(f"... process: {label}", file=sys.stderr, flush=True)
        runs: dict[str, list[tuple[float, float]]] = {"run": [], "check": []}
        for _ in range(max(3, args.repeat)):
            for kind, extra in (("run", []), ("check", ["--check"])):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                started = time.perf_counter()
                done = subprocess.run([pla_command, "run", *data, *extra], capture_output=True)
                wall = time.perf_counter() - started
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                if done.returncode != 0:
                    raise RuntimeError(f"pla run {' '.join(extra)} failed: {done.stderr!r}")
                runs[kind].append((wall, cpu))
        entry = {kind: {"wall_seconds": statistics.median(w for w, _ in v),
                        "cpu_seconds": statistics.median(c for _, c in v)}
                 for kind, v in runs.items()}
        entry["ratio_wall"] = entry["check"]["wall_seconds"] / entry["run"]["wall_seconds"]
        entry["ratio_cpu"] = entry["check"]["cpu_seconds"] / entry["run"]["cpu_seconds"]
        out[label] = entry
    return out


#: The measuring wrapper: one child process, its peak resident set (KiB on Linux).
_PEAK = ("import resource, subprocess, sys; "
         "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
         "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def peak_rss(command: list[str]) -> int:
    """Peak resident memory in bytes of one process running ``command`` (a fresh wrapper, so
    no earlier child's peak counts)."""
    done = subprocess.run([sys.executable, "-c", _PEAK, *command], capture_output=True,
                          text=True, check=True)
    code, kib = done.stdout.split()
    if code != "0":
        raise RuntimeError(f"{' '.join(command)} exited with {code}")
    return int(kib) * 1024


#: The process ``pla run``'s peak memory is compared with: numpy holding the same data.
NUMPY_MEMORY_LABEL = "numpy loadtxt (the data held)"


def memory_peaks(directory: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Peak RSS of whole processes on 100,000 × 10 integers (1,000 × 10 with --quick):
    ``pla run``, ``pla run --check``, and a numpy process holding the same data (loadtxt);
    ``--before-pla`` adds the same commands of another installation (the code before a change),
    alternating with these; medians of ``--repeat``."""
    n = 1_000 if args.quick else 100_000
    rng = np.random.default_rng(31)
    w = rng.integers(-5, 6, size=11)
    w[1] = w[1] or 1
    X = rng.integers(-100, 101, size=(3 * n, 10))
    score = w[0] + X @ w[1:]
    keep = np.abs(score) >= 30
    X, score = X[keep][:n], score[keep][:n]
    path = directory / "integers.dat"
    with open(path, "w") as handle:
        for row, s in zip(X.tolist(), score.tolist()):
            handle.write(" ".join(map(str, row)) + (" +1\n" if s > 0 else " -1\n"))
    commands: dict[str, list[str]] = {}
    installs = [("", str(Path(sys.executable).parent / "pla"))]
    if args.before_pla:
        installs.insert(0, ("before: ", args.before_pla))
    for prefix, pla_command in installs:
        commands[f"{prefix}pla run"] = [pla_command, "run", str(path)]
        commands[f"{prefix}pla run --check"] = [pla_command, "run", str(path), "--check"]
    commands[NUMPY_MEMORY_LABEL] = [
        sys.executable, "-c", f"import numpy; a = numpy.loadtxt({str(path)!r})"]
    peaks: dict[str, list[int]] = {label: [] for label in commands}
    for _ in range(max(1, args.repeat)):
        for label, command in commands.items():
            peaks[label].append(peak_rss(command))
    return {"n": n, "d": 10, "peak_bytes": {k: int(statistics.median(v))
                                             for k, v in peaks.items()}}


#: The float64 block-scan PLA of the numpy processes (the visiting order of the exact engine,
#: cyclic) on ``a``: the features, then the ±1 label, one example per row.
NUMPY_BLOCK_PLA = """
X = np.hstack([np.ones((a.shape[0], 1)), a[:, :-1]]); y = a[:, -1]
n = X.shape[0]; w = np.zeros(X.shape[1]); pos = clean = 0; block = 16
for _ in range(10**6):
    size = min(block, n - pos, n - clean)
    hits = np.flatnonzero(y[pos:pos + size] * (X[pos:pos + size] @ w) <= 0)
    if hits.size:
        i = pos + int(hits[0]); w += y[i] * X[i]; clean = 0
        block = max(16, min(1 << 15, 2 * (int(hits[0]) + 1))); pos = i + 1 if i + 1 < n else 0
    else:
        clean += size
        if clean >= n:
            break
        block = min(1 << 15, 2 * block); pos = (pos + size) % n
"""
#: The numpy process ``pla run`` is compared with: read the file with ``loadtxt`` and run the
#: block-scan PLA, nothing imported beyond numpy.
NUMPY_PLA = """
import sys, numpy as np
a = np.loadtxt(sys.argv[1])
""" + NUMPY_BLOCK_PLA
#: The same for a Coq-format file (``n``, ``d``, then per example its 0/1 label and d lines
#: ``p % q``): every token read by numpy as a float, the features p/q, the labels 2·label − 1.
NUMPY_COQ_PLA = """
import sys, numpy as np
t = open(sys.argv[1], "rb").read().replace(b"%", b" ").split()
n, d = int(t[0]), int(t[1])
v = np.array(t[2:], dtype=np.float64).reshape(n, 2 * d + 1)
a = np.hstack([v[:, 1::2] / v[:, 2::2], 2 * v[:, :1] - 1])
""" + NUMPY_BLOCK_PLA


def alternating_cpu(commands: dict[str, list[str]], rounds: int) -> dict[str, list[float]]:
    """CPU seconds of each command's whole process, ``rounds`` times, the commands alternating
    within each round (so that a change of load hits all of them alike)."""
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(command, capture_output=True, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return cpu


def versus_numpy(directory: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Whole ``pla run`` processes against the numpy loadtxt + float PLA process on the same
    file, alternating, CPU-time medians of ``--repeat``: 100,000 × 10 integers, 1,000 × 1,000
    and 10,000 × 100 3-decimal data (smaller with --quick); ``--before-pla`` adds another
    installation's ``pla run`` (the code before a change) to the alternation."""
    shapes = [(1_000, 10, "integer"), (100, 100, "decimal"), (100, 200, "coq")] if args.quick \
        else [(100_000, 10, "integer"), (1_000, 1_000, "decimal"), (10_000, 100, "decimal"),
              (400, 1_000, "coq")]
    pla_command = str(Path(sys.executable).parent / "pla")
    out: dict[str, Any] = {}
    for k, (n, d, kind) in enumerate(shapes):
        label = f"{n:,} x {d:,} " + {"integer": "integers", "decimal": "3-decimal",
                                     "coq": "Coq format (vec400_1's shape)"}[kind]
        print(f"... versus numpy: {label}", file=sys.stderr, flush=True)
        # the Coq set is engines.py's (seed 7), as in the whole-process --check timings
        X, y = generate(n, d, kind, 7 if kind == "coq" else 290 + k)
        path = directory / f"versus-{k}.{'coq' if kind == 'coq' else 'dat'}"
        write_file(path, X, y, kind)
        data = [str(path), "--format", "coq"] if kind == "coq" else [str(path)]
        numpy_program = NUMPY_COQ_PLA if kind == "coq" else NUMPY_PLA
        commands = {"pla run": [pla_command, "run", *data],
                    "numpy": [sys.executable, "-c", numpy_program, str(path)]}
        if args.before_pla:
            commands["before: pla run"] = [args.before_pla, "run", *data]
        cpu = alternating_cpu(commands, max(3, args.repeat))
        ratios = [a / b for a, b in zip(cpu["pla run"], cpu["numpy"])]
        out[label] = {"pla_cpu_seconds": statistics.median(cpu["pla run"]),
                      "numpy_cpu_seconds": statistics.median(cpu["numpy"]),
                      "ratio_median": statistics.median(ratios)}
        if args.before_pla:
            out[label]["before_ratio_median"] = statistics.median(
                a / b for a, b in zip(cpu["before: pla run"], cpu["numpy"]))
    return out


#: What ``pla run --check`` adds in one process with the engine loaded: the set-up
#: (``prepare_monitor``: w_f's certificate, checked by the kernel, and the monitor) and the
#: monitored run with its end check, against the plain run; medians of argv[3] timings.  One
#: untimed check first (imports), then each timing on the data loaded afresh (the kernel's
#: memos of the last data set do not carry over from one timing to the next).  It runs with one
#: BLAS thread, as the ``pla`` command does (:data:`verify.cli.command.BLAS_THREAD_VARIABLES`):
#: on a loaded 2-core machine a second thread of the float proposal's dense solves spins for
#: the core the other one needs (CPU time 2–4× that of one thread).  ``floor``: the monitor
#: alone for the w_f just found, on the data loaded afresh -- the kernel's validation and
#: conversion of the data, the margins and norms: what checking any w_f costs, with no search.
IN_PROCESS_CHECK = """
import json, statistics, sys, time
import pla
from pla.formats import load
from verify.checks.checked_run import prepare_monitor
prepare_monitor(load(sys.argv[1], format=sys.argv[2]), pla.RunOptions())
from verify.checks.monitor import Monitor
times = {"run": [], "setup": [], "monitored": [], "floor": []}
for _ in range(int(sys.argv[3])):
    ds = load(sys.argv[1], format=sys.argv[2]); ds.int64_rows
    started = time.process_time(); result = pla.run(ds, keep_steps=False)
    times["run"].append(time.process_time() - started)
    started = time.process_time(); monitor = prepare_monitor(ds, pla.RunOptions())
    times["setup"].append(time.process_time() - started)
    started = time.process_time()
    monitor.finish(pla.run(ds, keep_steps=False, on_update=monitor.on_update))
    times["monitored"].append(time.process_time() - started)
    ds = load(sys.argv[1], format=sys.argv[2]); ds.int64_rows
    started = time.process_time(); Monitor(ds, pla.RunOptions(), monitor.wf)
    times["floor"].append(time.process_time() - started)
print(json.dumps({k: statistics.median(v) for k, v in times.items()}))
"""


#: The environment of the ``pla`` command's BLAS pools (one thread unless set otherwise).
ONE_BLAS_THREAD = {**os.environ, **{name: os.environ.get(name, "1")
                                    for name in BLAS_THREAD_VARIABLES}}


#: The shapes of the --check by shape table (n, d, kind); the k-th is generated with seed 390 + k
#: (``benchmarks/instructions.py`` counts the same files' instructions).
CHECK_SHAPES = [(100_000, 10, "integer"), (1_000, 1_000, "decimal"), (10_000, 100, "decimal"),
                (400, 1_000, "coq"), (400, 4, "decimal")]


def check_by_shape(directory: Path, args: argparse.Namespace) -> dict[str, Any]:
    """``pla run --check`` against ``pla run`` on every shape: whole processes (alternating,
    CPU-time medians of the per-round ratios) on 100,000 × 10 integers, 1,000 × 1,000 and
    10,000 × 100 3-decimal data, the 400 × 1000 Coq-format set and HW1-sized data; and in one
    process (the engine loaded) the check's set-up against the run on 400 × 1000,
    1,000 × 1,000 and 100,000 × 10.  ``--before-pla`` adds another installation (the code
    before a change) to both alternations."""
    shapes = [(1_000, 10, "integer"), (100, 100, "decimal"), (100, 200, "coq")] if args.quick \
        else CHECK_SHAPES
    in_process = {(1_000, 10), (100, 200), (100_000, 10), (1_000, 1_000), (400, 1_000)}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "pla"),
                    str(ROOT / "verify")], check=True, capture_output=True)
    installs = [("", str(Path(sys.executable).parent / "pla"))]
    if args.before_pla:
        installs.append(("before: ", args.before_pla))
    out: dict[str, Any] = {"whole_process": {}, "in_process": {}}
    for k, (n, d, kind) in enumerate(shapes):
        label = f"{n:,} x {d:,} {'integers' if kind == 'integer' else kind}"
        print(f"... --check by shape: {label}", file=sys.stderr, flush=True)
        X, y = generate(n, d, kind, 390 + k)
        path = directory / f"check-{k}.dat"
        write_file(path, X, y, kind)
        data = [str(path), "--format", "coq"] if kind == "coq" else [str(path)]
        commands = {f"{prefix}{name}": [command, "run", *data, *extra]
                    for prefix, command in installs
                    for name, extra in (("run", []), ("check", ["--check"]))}
        cpu = alternating_cpu(commands, max(3, args.repeat))
        entry: dict[str, Any] = {}
        for prefix, _ in installs:
            entry[f"{prefix}run_cpu_seconds"] = statistics.median(cpu[f"{prefix}run"])
            entry[f"{prefix}check_cpu_seconds"] = statistics.median(cpu[f"{prefix}check"])
            entry[f"{prefix}ratio_median"] = statistics.median(
                a / b for a, b in zip(cpu[f"{prefix}check"], cpu[f"{prefix}run"]))
        out["whole_process"][label] = {k.replace("before: ", "before_"): v
                                       for k, v in entry.items()}
        if (n, d) not in in_process:
            continue
        timings: dict[str, list[dict[str, float]]] = {prefix: [] for prefix, _ in installs}
        for _ in range(2):
            for prefix, command in installs:
                python = str(Path(command).parent / "python")
                done = subprocess.run([python, "-c", IN_PROCESS_CHECK, str(path),
                                       "coq" if kind == "coq" else "dat", str(args.repeat)],
                                      capture_output=True, text=True, check=True,
                                      env=ONE_BLAS_THREAD, cwd=directory)
                # (cwd: ``python -c`` puts its working directory first on sys.path, so run from
                # a checkout it would import that checkout's code, not the installation's)
                timings[prefix].append(json.loads(done.stdout))
        row: dict[str, Any] = {}
        for prefix, _ in installs:
            key = prefix.replace("before: ", "before_")
            medians = {part: statistics.median(t[part] for t in timings[prefix])
                       for part in ("run", "setup", "monitored", "floor")}
            row.update({f"{key}{part}_cpu_seconds": v for part, v in medians.items()})
            row[f"{key}setup_over_run"] = medians["setup"] / medians["run"]
            row[f"{key}check_over_run"] = (medians["setup"] + medians["monitored"]) / \
                medians["run"]
            row[f"{key}floor_over_run"] = medians["floor"] / medians["run"]
        out["in_process"][label] = row
    return out


def print_check_by_shape(rows: dict[str, Any]) -> None:
    print("\n--check against run, whole processes (CPU, medians of per-round ratios):")
    for label, r in rows["whole_process"].items():
        before = f" (before: {r['before_ratio_median']:.2f}x)" if "before_ratio_median" in r \
            else ""
        print(f"  {label:28} run {r['run_cpu_seconds']:6.3f} s  check "
              f"{r['check_cpu_seconds']:6.3f} s  {r['ratio_median']:5.2f}x{before}")
    print("in one process (engine loaded, one BLAS thread as in `pla`): the check's set-up and the whole check over the run:")
    for label, r in rows["in_process"].items():
        before = (f" (before: {r['before_setup_over_run']:.1f}x, "
                  f"{r['before_check_over_run']:.1f}x)" if "before_setup_over_run" in r else "")
        print(f"  {label:28} run {r['run_cpu_seconds']:6.3f} s  set-up "
              f"{r['setup_cpu_seconds']:6.3f} s  set-up/run {r['setup_over_run']:5.1f}x  "
              f"check/run {r['check_over_run']:5.1f}x  floor/run "
              f"{r.get('floor_over_run', math.nan):4.1f}x{before}")


def print_versus_numpy(rows: dict[str, Any]) -> None:
    print("\nwhole processes: pla run vs numpy loadtxt + float PLA (CPU, medians):")
    for label, r in rows.items():
        before = (f" (before: {r['before_ratio_median']:.2f}x)"
                  if "before_ratio_median" in r else "")
        print(f"  {label:32} {r['pla_cpu_seconds']:7.3f} s {r['numpy_cpu_seconds']:7.3f} s "
              f"{r['ratio_median']:6.2f}x{before}")


def print_memory(memory: dict[str, Any]) -> None:
    print(f"\npeak resident memory of whole processes, {memory['n']:,} x {memory['d']} integers "
          "(and over the numpy process's):")
    numpy_peak = memory["peak_bytes"].get(NUMPY_MEMORY_LABEL)
    for label, peak in memory["peak_bytes"].items():
        ratio = f" {peak / numpy_peak:6.2f}x" if numpy_peak else ""
        print(f"  {label:36} {peak / 2**20:8.1f} MiB{ratio}")


def print_report(report: dict[str, Any]) -> None:
    print(f"machine: {report['machine']['cpu']}, {report['machine']['cpus']} CPUs, load "
          f"{report['machine']['load_average']}")
    print(f"{'n':>7} {'d':>5} {'updates':>8} {'exact s':>8} {'checked':>8} {'x exact':>7} "
          f"{'float-blk':>9} {'exact/flt':>9} {'sklearn':>8} {'flt-loop':>8} {'Fraction':>9} "
          f"{'peak MiB':>8}  w_f")
    for r in report["grid"]:
        if "skipped" in r:
            print(f"{r['n']:>7} {r['d']:>5}  skipped: {r['skipped']}")
            continue
        e = r["engines"]

        def s(name: str) -> str:
            return f"{e[name]['seconds']:.3f}" if "seconds" in e[name] else "skip"
        mem = e["checked"].get("peak_bytes")
        ratio = r["checked_over_exact"]
        print(f"{r['n']:>7} {r['d']:>5} {r['updates']:>8} {s('exact'):>8} {s('checked'):>8} "
              f"{ratio if ratio is None else round(ratio, 2)!s:>7} {s('float-block'):>9} "
              f"{r['exact_over_float_block']:>9.2f} {s('sklearn'):>8} {s('float-loop'):>8} "
              f"{s('reference'):>9} {'-' if mem is None else f'{mem / 2**20:.1f}':>8}  "
              f"{e['checked']['wf_kind'][:30]}")
    for engine, fit in report["exponents"].items():
        if fit:
            print(f"growth {engine:12} time ~ n^{fit['n']:.2f} d^{fit['d']:.2f}; "
                  f"~ updates^{fit['updates']:.2f}")
    print("whole processes (medians, alternating):")
    for label, r in report["processes"].items():
        print(f"  {label:40} run {r['run']['wall_seconds']:.3f} s  check "
              f"{r['check']['wall_seconds']:.3f} s  check/run {r['ratio_wall']:.2f} wall, "
              f"{r['ratio_cpu']:.2f} CPU")


def _update_one_part(args: argparse.Namespace) -> int:
    """--memory-only / --versus-numpy-only: measure that part alone, with its machine and
    date, and update it in the results file (the rest of the file is kept)."""
    report = json.loads(args.output.read_text()) if args.output.exists() else {}
    key, measure, show = (("versus_numpy", versus_numpy, print_versus_numpy)
                          if args.versus_numpy_only else
                          ("check_by_shape", check_by_shape, print_check_by_shape)
                          if args.check_only else ("memory", memory_peaks, print_memory))
    with tempfile.TemporaryDirectory() as directory:
        report[key] = measure(Path(directory), args)
    report[f"{key}_machine"] = machine()
    report[f"{key}_date"] = datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds")
    show(report[key])
    args.output.write_text(json.dumps(report, indent=1) + "\n")
    print(f"\nresults written to {args.output}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small shapes (a smoke test)")
    parser.add_argument("--repeat", type=int, default=3, help="medians of K timings (3)")
    parser.add_argument("--max-entries", type=int, default=11_000_000,
                        help="skip shapes with more numbers than this (memory)")
    parser.add_argument("--check-max-entries", type=int, default=11_000_000,
                        help="time the checked run only up to this many numbers")
    parser.add_argument("--loop-visits", type=int, default=500_000,
                        help="run the point-by-point float PLA only up to this many visits")
    parser.add_argument("--reference-budget", type=float, default=8.0, metavar="SECONDS")
    parser.add_argument("--fraction-cost", type=float, default=2e-6, metavar="SECONDS")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc runs")
    parser.add_argument("--output", type=Path, default=RESULTS)
    parser.add_argument("--memory-only", action="store_true",
                        help="measure only the peak memory of whole processes on 100,000 x 10 "
                             "integers, and update it in --output")
    parser.add_argument("--versus-numpy-only", action="store_true",
                        help="measure only whole pla run processes against numpy loadtxt + "
                             "float PLA processes, and update them in --output")
    parser.add_argument("--before-pla", metavar="PATH",
                        help="another installation's pla to measure side by side "
                             "(--memory-only, --versus-numpy-only, --check-only)")
    parser.add_argument("--check-only", action="store_true",
                        help="measure only pla run --check against pla run on every shape "
                             "(whole processes and in-process), and update it in --output")
    args = parser.parse_args(argv)
    if args.versus_numpy_only or args.memory_only or args.check_only:
        return _update_one_part(args)
    started = time.time()
    report: dict[str, Any] = {
        "benchmark": "scaling", "margin": MARGIN,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(), "quick": args.quick, "grid": [],
    }
    sizes_n, sizes_d = (QUICK_N, QUICK_D) if args.quick else (GRID_N, GRID_D)
    for k, (n, d) in enumerate((n, d) for n in sizes_n for d in sizes_d):
        print(f"... n={n} d={d}", file=sys.stderr, flush=True)
        row = bench_shape(n, d, args, seed=200 + k)
        row["seed"] = 200 + k
        report["grid"].append(row)
    report["exponents"] = {e: exponents(report["grid"], e)
                           for e in ("exact", "checked", "float-block", "sklearn")}
    measured = [r for r in report["grid"] if "updates" in r]
    measured = [r for r in measured if r["n"] * (r["d"] + 1) <= 2_000_000]   # a file of it
    many = min(measured, key=lambda r: abs(math.log(max(r["updates"], 1) / 1e5)), default=None)
    with tempfile.TemporaryDirectory() as directory:
        report["processes"] = processes(Path(directory), args, many)
        report["memory"] = memory_peaks(Path(directory), args)
        report["versus_numpy"] = versus_numpy(Path(directory), args)
        report["check_by_shape"] = check_by_shape(Path(directory), args)
    report["seconds_total"] = time.time() - started
    print_report(report)
    print_memory(report["memory"])
    print_versus_numpy(report["versus_numpy"])
    print_check_by_shape(report["check_by_shape"])
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=1) + "\n")
    print(f"\nresults written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
