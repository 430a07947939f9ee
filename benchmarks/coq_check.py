"""How long the second checker takes: export a certificate (and a run) and let coqc check it.

For each data shape (400 x 4 decimals, and the Coq perceptron project's rational benchmark
shapes 50, 200, 400 x 1000 and 100 x 3200): make the data, time ``pla certify`` alone, then
``pla certify --coq`` (the default certificate: a near-max-margin w_f with short entries and
its dual multipliers whenever it proves the same N; and an LP separator), ``pla run --check
--coq``, then ``coqc`` on each file; and the whole-run file of a run of at least 10^4 updates.
The library is compiled once first (``make -j``); last, the same 100 x 1000 entries read by
Coq as integer literals, as bytes in words (``Packed.v``) and as primitive integers.  The
1-minute load average is recorded at the start, per shape and at the end.  CPU seconds of every child process are measured (``resource.RUSAGE_CHILDREN``),
so a busy machine changes them less than wall-clock times.  A check that runs longer than
``--limit`` seconds is stopped and recorded as such.  Writes ``benchmarks/results/coq.json``,
which the page "Checked twice" of the docs shows as a table.

    .venv/bin/python benchmarks/coq_check.py [--quick] [--limit SECONDS] [--output FILE]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLA = [sys.executable, "-c", "import sys; from verify.cli import main; sys.exit(main())"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(argv: list[str], limit: float, cwd: Path) -> dict:
    """Run argv; its CPU and wall seconds, or ``stopped`` after ``limit`` seconds."""
    cpu, wall = _children_cpu(), time.monotonic()
    try:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return {"stopped_after_s": limit}
    out = {"cpu_s": round(_children_cpu() - cpu, 2), "wall_s": round(time.monotonic() - wall, 2),
           "exit_code": done.returncode}
    if done.returncode != 0:
        out["error"] = (done.stdout + done.stderr)[-500:]
    return out


def coq_style_data(work: Path, n: int, d: int, seed: int = 7) -> str:
    """Separable rational data in the Coq perceptron project's format (``p % q``, q | 100),
    made by :func:`benchmarks.engines.generate` (the shapes of that project's benchmarks)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from engines import generate, write_file

    X, y = generate(n, d, "coq", seed)
    name = f"data_{n}x{d}.coq"
    write_file(work / name, X, y, "coq")
    return name


def long_run_data(work: Path, updates: int) -> str | None:
    """Separable data on which cyclic PLA makes about ``updates`` updates (a small margin)."""
    for margin in ("1/200", "1/400", "1/800", "1/1600", "1/3200"):
        name = f"long_{margin.replace('/', '_')}.dat"
        subprocess.run(PLA + ["make-data", "--n", "400", "--d", "4", "--margin", margin,
                              "--seed", "3", name], cwd=work, check=True, capture_output=True)
        done = subprocess.run(PLA + ["run", name, "--json"], cwd=work, capture_output=True,
                              text=True)
        if done.returncode == 0 and json.loads(done.stdout)["updates"] >= updates:
            return name
    return None


def encoding_files(work: Path, n: int = 100, d: int = 1000, seed: int = 5) -> dict[str, str]:
    """The same n x d entries in [-100, 100] as a Coq definition three ways: integer literals,
    bytes in 64-byte words (``Packed.v``, what pla writes for large data) and Coq's primitive
    63-bit integers (7 entries a word; Print Assumptions then lists the primitives)."""
    import random

    sys.path.insert(0, str(ROOT))
    from verify.coq.certificate_files import packed_rows_literal, rows_literal

    rng = random.Random(seed)
    rows = [[rng.randint(-100, 100) for _ in range(d)] for _ in range(n)]
    labels = [1] * n
    head = "From Coq Require Import ZArith List PrimInt63.\nFrom PLA Require Import Certificates "
    words = []
    for row in rows:
        line = []
        for start in range(0, d, 7):
            word = 0
            for v in row[start:start + 7]:
                word = (word << 8) | (v + 128)
            line.append(str(word))
        words.append("[" + "; ".join(line) + "]")
    texts = {
        "integer literals": head + "Packed.\nImport ListNotations.\nDefinition rows := "
        + rows_literal(rows, labels) + "%Z.\n",
        "bytes, 64 to a word (Packed.v)": head + "Packed.\nImport ListNotations.\n"
        "Definition rows := " + packed_rows_literal(rows, labels, 1, 128) + ".\n",
        "primitive 63-bit integers": head + "Packed.\nImport ListNotations.\n"
        "Definition rows := [" + ";\n".join(words) + "]%uint63.\n",
    }
    names = {}
    for k, (label, text) in enumerate(texts.items()):
        names[label] = f"Encoding{k}.v"
        (work / names[label]).write_text(text)
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the 400 x 4 shape")
    parser.add_argument("--limit", type=float, default=300.0,
                        help="stop one coqc after this many seconds (default 300)")
    parser.add_argument("--output", default=str(ROOT / "benchmarks" / "results" / "coq.json"))
    args = parser.parse_args()
    # (n, d, kind): "make-data" = pla make-data decimals; "coq" = the Coq perceptron project's
    # rational benchmarks' shapes and format
    shapes = [(400, 4, "make-data")] if args.quick else [
        (400, 4, "make-data"), (50, 1000, "coq"), (200, 1000, "coq"), (400, 1000, "coq"),
        (100, 3200, "coq")]
    report: dict = {
        "date": datetime.date.today().isoformat(),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "coqc": subprocess.run(["coqc", "--version"], capture_output=True,
                                           text=True).stdout.split("\n")[0]},
        "limit_s": args.limit, "shapes": [],
        "load_average_1min": {"start": round(os.getloadavg()[0], 2)},
    }
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        subprocess.run(PLA + ["proof", "--coq", "coq", "novikoff"], cwd=work, check=True,
                       capture_output=True)
        report["library"] = timed(["make", "-s", f"-j{os.cpu_count() or 1}", "-C", "coq",
                                   "Vectors.vo", "Perceptron.vo",
                                   "Certificates.vo", "Runs.vo", "Packed.vo"], args.limit, work)
        for n, d, kind in shapes:
            if kind == "coq":
                data = coq_style_data(work, n, d)
            else:
                data = f"data_{n}x{d}.dat"
                subprocess.run(PLA + ["make-data", "--n", str(n), "--d", str(d), "--margin",
                                      "1/50", "--seed", "3", data], cwd=work, check=True,
                               capture_output=True)
            row: dict = {"n": n, "d": d, "data": kind, "files": {},
                         "load_average_1min": round(os.getloadavg()[0], 2)}
            row["certify"] = timed(PLA + ["certify", data], args.limit, work)
            jobs = {"certificate (default)": ["certify", data, "--coq", "mm.v"]}
            if d < 100:
                jobs["certificate, LP w_f"] = ["certify", data, "--method", "lp", "--coq", "lp.v"]
            jobs["run (cyclic)"] = ["run", data, "--check", "--coq", "run.v"]
            for label, command in jobs.items():
                row["files"][label] = export_and_check(command, args.limit, work)
                print(f"{n} x {d}  {label:<24} certify {row['certify']}  "
                      f"{row['files'][label]}", flush=True)
            report["shapes"].append(row)
        if not args.quick:
            data = long_run_data(work, 10_000)
            if data is not None:
                long = export_and_check(["run", data, "--check", "--coq", "long.v"], args.limit,
                                        work)
                updates = subprocess.run(PLA + ["run", data, "--json"], cwd=work,
                                         capture_output=True, text=True)
                long["updates"] = json.loads(updates.stdout)["updates"]
                report["long_run"] = long
                print(f"long run  {long}", flush=True)
            report["encodings"] = {"entries": 100 * 1000}
            for label, name in encoding_files(work).items():
                report["encodings"][label] = timed(["coqc", "-q", "-R", "coq", "PLA", name],
                                                   args.limit, work)
                print(f"encoding  {label:<32} {report['encodings'][label]}", flush=True)
        report["load_average_1min"]["end"] = round(os.getloadavg()[0], 2)
    Path(args.output).write_text(json.dumps(report, indent=2) + "\n")
    print(f"results written to {args.output}")


def export_and_check(command: list[str], limit: float, work: Path) -> dict:
    """``pla COMMAND`` (which writes a Coq file, its last argument), then coqc on that file."""
    export = timed(PLA + command, limit, work)
    file = command[-1]
    size = (work / file).stat().st_size if (work / file).exists() else 0
    check = timed(["coqc", "-q", "-R", "coq", "PLA", file], limit, work)
    return {"export": export, "coqc": check, "bytes": size}


if __name__ == "__main__":
    main()
