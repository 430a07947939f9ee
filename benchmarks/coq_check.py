"""How long the second checker takes: export a certificate (and a run) and let coqc check it.

For each data shape: make the data, ``pla certify --coq`` (exact max-margin separator, and an
LP separator), ``pla run --check --coq``, then ``coqc`` on each file; the library is compiled
once first.  CPU seconds of every child process are measured (``resource.RUSAGE_CHILDREN``),
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the 400 x 4 shape")
    parser.add_argument("--limit", type=float, default=300.0,
                        help="stop one coqc after this many seconds (default 300)")
    parser.add_argument("--output", default=str(ROOT / "benchmarks" / "results" / "coq.json"))
    args = parser.parse_args()
    shapes = [(400, 4)] if args.quick else [(400, 4), (400, 1000)]
    report: dict = {
        "date": datetime.date.today().isoformat(),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "coqc": subprocess.run(["coqc", "--version"], capture_output=True,
                                           text=True).stdout.split("\n")[0]},
        "limit_s": args.limit, "shapes": [],
    }
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        subprocess.run(PLA + ["proof", "--coq", "coq", "novikoff"], cwd=work, check=True,
                       capture_output=True)
        report["library"] = timed(["make", "-s", "-C", "coq", "Vectors.vo", "Perceptron.vo",
                                   "Certificates.vo", "Runs.vo"], args.limit, work)
        for n, d in shapes:
            data = f"data_{n}x{d}.dat"
            subprocess.run(PLA + ["make-data", "--n", str(n), "--d", str(d), "--margin", "1/50",
                                  "--seed", "3", data], cwd=work, check=True, capture_output=True)
            row: dict = {"n": n, "d": d, "files": {}}
            jobs = {
                "certificate, max-margin w_f": ["certify", data, "--coq", "mm.v"],
                "certificate, LP w_f": ["certify", data, "--method", "lp", "--coq", "lp.v"],
                "run (cyclic), max-margin w_f": ["run", data, "--check", "--coq", "run.v"],
            }
            for label, command in jobs.items():
                export = timed(PLA + command, args.limit, work)
                file = command[-1]
                size = (work / file).stat().st_size if (work / file).exists() else 0
                check = timed(["coqc", "-q", "-R", "coq", "PLA", file], args.limit, work)
                row["files"][label] = {"export": export, "coqc": check, "bytes": size}
                print(f"{n} x {d}  {label:<30} export {export}  coqc {check}  {size} bytes",
                      flush=True)
            report["shapes"].append(row)
    Path(args.output).write_text(json.dumps(report, indent=2) + "\n")
    print(f"results written to {args.output}")


if __name__ == "__main__":
    main()
