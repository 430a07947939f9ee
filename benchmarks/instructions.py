"""Instructions of ``pla run --check`` against ``pla run``, whole processes, side by side.

On this 2-core VM the CPU time of one ``pla run`` of the 10,000 × 100 set swings between about
1.0 and 1.6 s from one process to the next, so a check/run ratio of CPU times moves by ±0.3 from
one round to the next (``scaling.py`` takes medians of alternating rounds, which still swing).
The number of instructions a process executes does not depend on the machine's load: valgrind's
callgrind counts them (its ``Collected`` total).  For each shape of ``scaling.py``'s
check-by-shape table (the same generated files: same generator, same seeds) this counts one
``pla run`` and one ``pla run --check`` process -- and, with ``--before-pla``, the same two of
another installation (the code before a change) -- two processes at a time, and prints the
ratios.  Valgrind runs a process about 50 times slower: minutes per shape.

Writes ``benchmarks/results/instructions.json`` (the Benchmarks page shows it).  Needs valgrind
(``make valgrind`` installs it when missing; without it this script stops and says so).
Run: ``make valgrind && .venv/bin/python benchmarks/instructions.py [--shapes 10000x100 ...]``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engines import generate, machine, write_file  # noqa: E402
from scaling import CHECK_SHAPES, ONE_BLAS_THREAD  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "instructions.json"
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def instructions(command: list[str]) -> int:
    """The instructions callgrind counts for ``command`` (a whole process, one BLAS thread; a
    wrapper script that execs Python is followed, and the last program's count is taken)."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           "--trace-children=yes", *command], capture_output=True, text=True, env=ONE_BLAS_THREAD,
                          check=False)
    found = _COLLECTED.findall(done.stderr)
    if done.returncode != 0 or not found:
        raise SystemExit(f"valgrind failed on {' '.join(command)}:\n{done.stderr[-2000:]}")
    return int(found[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", nargs="*", metavar="NxD",
                        help="only these shapes of the table (e.g. 10000x100); default: all")
    parser.add_argument("--before-pla", metavar="PATH",
                        help="another installation's pla (the code before a change)")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("benchmarks/instructions.py needs valgrind: run `make valgrind` (Debian's "
              "valgrind, installed only when missing)", file=sys.stderr)
        return 2
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "pla"),
                    str(ROOT / "verify")], check=True, capture_output=True)
    installs = [("", str(Path(sys.executable).parent / "pla"))]
    if args.before_pla:
        installs.append(("before_", args.before_pla))
    rows: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for k, (n, d, kind) in enumerate(CHECK_SHAPES):
            if args.shapes and f"{n}x{d}" not in args.shapes:
                continue
            label = f"{n:,} x {d:,} {'integers' if kind == 'integer' else kind}"
            X, y = generate(n, d, kind, 390 + k)          # (scaling.py's check-by-shape files)
            path = Path(tmp) / f"check-{k}.dat"
            write_file(path, X, y, kind)
            data = [str(path), "--format", "coq"] if kind == "coq" else [str(path)]
            commands = {f"{prefix}{name}": [pla, "run", *data, *extra]
                        for prefix, pla in installs
                        for name, extra in (("run", []), ("check", ["--check"]))}
            print(f"... {label}: {len(commands)} processes under valgrind", file=sys.stderr,
                  flush=True)
            with ThreadPoolExecutor(max_workers=2) as pool:
                counts = dict(zip(commands, pool.map(instructions, commands.values())))
            row: dict[str, float] = {}
            for prefix, _ in installs:
                row[f"{prefix}run_instructions"] = counts[f"{prefix}run"]
                row[f"{prefix}check_instructions"] = counts[f"{prefix}check"]
                row[f"{prefix}ratio"] = counts[f"{prefix}check"] / counts[f"{prefix}run"]
            rows[label] = row
            before = f"  (before: {row['before_ratio']:.3f}x)" if args.before_pla else ""
            print(f"  {label:28} run {row['run_instructions'] / 1e9:6.3f} G  check "
                  f"{row['check_instructions'] / 1e9:6.3f} G  {row['ratio']:.3f}x{before}",
                  flush=True)
            _write(args.output, rows)           # (after each shape: minutes apart)
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


def _write(output: Path, rows: dict[str, dict[str, float]]) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps({
        "date": datetime.date.today().isoformat(), "machine": machine(),
        "tool": "valgrind --tool=callgrind (Collected: instructions executed)",
        "shapes": rows}, indent=1) + "\n")


if __name__ == "__main__":
    raise SystemExit(main())
