"""The cost of `pla run --check`, part by part, side by side, as ratios.

1. Plain runs against monitored runs (on_update hook, and paranoid on_step) in-process.
2. The monitor per update, with and without its int64 carrier, on the same recorded updates;
   the deferred monitor checking each block at once (session 40) and one update at a time.
3. The certificate of the default w_f on the 400 × 1000 rational set: the near-max-margin w
   (float proposal + kernel separator and dual-bound checks) against the exact max-margin w*.
4. Parts of the float proposal and of the kernel, each against what it replaced (issue 29):
   the Gram active set in float64 (numpy LU) and in float32 (scipy's LAPACK), on the
   1,000 × 1,000 and 400 × 1000 shapes; ``import scipy.linalg`` against loading its LAPACK
   module alone, in fresh processes; the kernel's int64 products by matmul and by einsum.
5. The set-up's small parts (issue 29, session 37), each against what it replaced: the row
   norms by ``(M * M).sum(axis=1)`` and by einsum; integer sparse multipliers through one
   Fraction each (as before) and taken as they are; ``pla audit`` of a 20,000-update trace
   with every number text parsed afresh (as before) and remembered per text; quadprog's
   working sets from the mean direction alone (as before) and with the least-squares fit's
   rows added, a first working set twice as large (session 39), and the first set from the
   fit refitted twice on its own nearest rows (session 40), on the 10,000 × 100 and
   100,000 × 10 sets of ``scaling.py`` and five more generated sets.

Run: .venv/bin/python benchmarks/check_overhead.py   (target from the speed issue: <= 1.5x)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pla
from pla.generate import separable_data
from verify.checks.monitor import Monitor
from verify.search.certificates import certify, max_margin, near_max_margin

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engines import generate  # noqa: E402

CASES = [(1000, 5, "1/100"), (2000, 10, "1/200"), (5000, 3, "1/200")]
REPEATS = 3


def best(fn) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def runs() -> None:
    print(f"{'N':>6} {'d':>3} {'order':>8} {'updates':>8} {'plain s':>9} {'check s':>9} "
          f"{'paranoid s':>10} {'check/plain':>11} {'paranoid/plain':>14}")
    for n, d, margin in CASES:
        rows, labels = separable_data(n, d, margin, seed=1)
        ds = pla.Dataset.from_rows(rows, labels)
        s = certify(ds)
        for order in ("cyclic", "random"):
            options = pla.RunOptions(order=order, seed=3)
            plain = best(lambda: pla.run(ds, options=options, keep_steps=False))

            def checked(paranoid: bool) -> None:
                monitor = Monitor(ds, options, s.w, rho=s.rho, R2=s.R2, paranoid=paranoid)
                hook = {"on_step": monitor} if paranoid else {"on_update": monitor.on_update}
                monitor.finish(pla.run(ds, options=options, keep_steps=False, **hook))

            check = best(lambda: checked(False))
            paranoid = best(lambda: checked(True))
            updates = pla.run(ds, options=options, keep_steps=False).updates
            print(f"{n:>6} {d:>3} {order:>8} {updates:>8} {plain:>9.3f} {check:>9.3f} "
                  f"{paranoid:>10.3f} {check / plain:>11.2f} {paranoid / plain:>14.2f}")


def monitor_per_update() -> None:
    """The monitor alone on recorded updates: the int64 carrier against Python integers."""
    from scaling import separable

    ds = separable(10_000, 100, 203)
    s = near_max_margin(ds)
    updates: list[tuple] = []
    pla.run(ds, keep_steps=False, on_update=lambda *a: updates.append(a))

    def replay(carrier: bool) -> None:
        monitor = Monitor(ds, pla.RunOptions(), s.w)
        if not carrier:
            monitor._int64_updates = 0
        for record in updates:
            monitor.on_update(*record)

    fast, slow = best(lambda: replay(True)), best(lambda: replay(False))
    engine = best(lambda: pla.run(ds, keep_steps=False))
    print(f"\nmonitor on {len(updates):,} recorded updates of 10,000 x 100 data: int64 carrier "
          f"{fast / len(updates) * 1e6:.1f} us/update, Python integers "
          f"{slow / len(updates) * 1e6:.1f} us/update, ratio {slow / fast:.2f}; the engine's "
          f"run {engine / len(updates) * 1e6:.1f} us/update (monitor / engine "
          f"{fast / engine:.2f})")

    def deferred(blocks: bool) -> None:
        monitor = Monitor(ds, pla.RunOptions(), s.w)
        if not blocks:                       # every block to the one-by-one path (session 39)
            monitor._checked_as_block = lambda pending: False
        for record in updates:
            monitor.on_update_deferred(*record)
        monitor.check_pending()

    t = alternating({"one": lambda: deferred(False), "block": lambda: deferred(True)})
    print(f"deferred monitor (pla run --check), CPU medians of alternating runs: each update on "
          f"its own {t['one'] / len(updates) * 1e6:.1f} us/update, a block at once "
          f"(session 40) {t['block'] / len(updates) * 1e6:.1f} us/update, ratio "
          f"{t['one'] / t['block']:.2f}")


def certificates() -> None:
    """The default w_f's certificate on the 400 x 1000 set: near-max-margin against exact."""
    X, y = generate(400, 1000, "coq", 7)
    ds = pla.Dataset.from_rows(X, y)
    near_s = best(lambda: near_max_margin(ds))
    exact_s = best(lambda: max_margin(ds))
    near, exact = near_max_margin(ds), max_margin(ds)
    print(f"\n400 x 1000 rational set: near-max-margin certificate {near_s:.3f} s (integer bound "
          f"{near.tightest_updates}), exact max-margin {exact_s:.3f} s (integer bound "
          f"{exact.bound_updates}), ratio {exact_s / near_s:.1f}")


def alternating(actions: dict, rounds: int = 9) -> dict:
    """The median CPU time of each action over ``rounds`` rounds, the actions taking turns."""
    import statistics

    times: dict = {name: [] for name in actions}
    for _ in range(rounds):
        for name, action in actions.items():
            started = time.process_time()
            action()
            times[name].append(time.process_time() - started)
    return {name: statistics.median(values) for name, values in times.items()}


def proposal_parts() -> None:
    """Section 4 of the module doc: CPU-time medians of alternating runs, as ratios."""
    import statistics
    import subprocess

    import numpy as np

    from verify.search import certificates as search
    from verify.search.mixed_precision_gram import mixed_precision_active_set

    print("\nthe float proposal's Gram active set (CPU ms, medians of 9 alternating runs):")
    for n, d, kind in ((1000, 1000, "decimal"), (400, 1000, "coq")):
        X, y = generate(n, d, kind, 390 + (n == 400) * 3)
        A = search._signed_float_matrix(pla.Dataset.from_rows(X, y))
        first = np.zeros(n, dtype=bool)
        first[search._smallest(A @ A.sum(axis=0), round(search.GRAM_FIRST_FREE_FRACTION * n))] \
            = True

        def float64() -> None:
            H = A @ A.T
            H += 1.0
            search._primal_dual_active_set(H, first, 60)

        t = alternating({"float64": float64,
                         "float32": lambda: mixed_precision_active_set(A, first)})
        print(f"  {n:,} x {d:,} {kind}: float64 (numpy LU) {t['float64'] * 1e3:.1f} ms, float32 "
              f"+ refinement {t['float32'] * 1e3:.1f} ms, ratio {t['float64'] / t['float32']:.2f}")

    def process_seconds(code: str) -> float:
        out = subprocess.run([sys.executable, "-c", "import time, numpy; s = time.process_time()"
                              f"; {code}; print(time.process_time() - s)"],
                             capture_output=True, text=True, check=True).stdout
        return float(out)

    loads: dict = {"scipy.linalg": [], "lapack()": []}
    for _ in range(5):
        loads["scipy.linalg"].append(process_seconds("import scipy.linalg"))
        loads["lapack()"].append(process_seconds(
            "from verify.search.mixed_precision_gram import lapack; lapack()"))
    a, b = (statistics.median(loads[k]) for k in ("scipy.linalg", "lapack()"))
    print(f"  in a fresh process after numpy: import scipy.linalg {a * 1e3:.0f} ms, "
          f"lapack() {b * 1e3:.0f} ms, ratio {a / b:.1f}")

    rng = np.random.default_rng(0)
    M = rng.integers(-1000, 1001, size=(1000, 1001))
    u = rng.integers(-2**40, 2**40, size=1000)
    v = rng.integers(-2**40, 2**40, size=1001)
    t = alternating({"matmul T": lambda: M.T @ u, "einsum T": lambda: np.einsum("ij,i->j", M, u),
                     "matmul": lambda: M @ v, "einsum": lambda: np.einsum("ij,j->i", M, v)},
                    rounds=41)
    print(f"  int64 products of a 1,000 x 1,001 matrix: transposed matmul "
          f"{t['matmul T'] * 1e3:.2f} ms, einsum {t['einsum T'] * 1e3:.2f} ms, ratio "
          f"{t['matmul T'] / t['einsum T']:.1f}; not transposed {t['matmul'] * 1e3:.2f} ms, "
          f"{t['einsum'] * 1e3:.2f} ms, ratio {t['matmul'] / t['einsum']:.1f}")


def setup_parts() -> None:
    """Section 5 of the module doc: CPU-time medians of alternating runs, as ratios."""
    import subprocess
    import tempfile
    from math import lcm

    import numpy as np

    from verify.checks import audit
    from verify.kernel.data_checks import _exact_number
    from verify.kernel.row_facts import sparse_multipliers
    from verify.search.certificates import _signed_float_matrix, _working_set_qp

    print("\nthe set-up's small parts (CPU, medians of alternating runs):")
    rng = np.random.default_rng(0)
    M = rng.integers(-1000, 1001, size=(1000, 1001))
    t = alternating({"sum": lambda: (M * M).sum(axis=1),
                     "einsum": lambda: np.einsum("ij,ij->i", M, M)}, rounds=41)
    print(f"  row norms of a 1,000 x 1,001 int64 matrix: (M * M).sum {t['sum'] * 1e3:.2f} ms, "
          f"einsum {t['einsum'] * 1e3:.2f} ms, ratio {t['sum'] / t['einsum']:.1f}")

    alpha = {int(n): int(a) for n, a in zip(rng.choice(1000, 631, replace=False),
                                            rng.integers(1, 2**50, size=631))}

    def through_fractions() -> None:      # what sparse_multipliers did for every value before
        pairs = sorted(alpha.items())
        numbers = [_exact_number(value, f"alpha[{row}]") for row, value in pairs]
        E = lcm(*(v.denominator for v in numbers))
        [(row, v.numerator * (E // v.denominator)) for (row, _), v in zip(pairs, numbers)]

    t = alternating({"fractions": through_fractions,
                     "ints": lambda: sparse_multipliers(alpha, 1000, "alpha")}, rounds=41)
    print(f"  631 integer multipliers {{row: alpha}}: through Fractions {t['fractions'] * 1e3:.2f} "
          f"ms, taken as they are {t['ints'] * 1e3:.2f} ms, ratio "
          f"{t['fractions'] / t['ints']:.1f}")

    for n, d, kind, seed in ((10_000, 100, "decimal", 392), (100_000, 10, "integer", 390),
                             (20_000, 60, "decimal", 7), (3_000, 30, "decimal", 1),
                             (5_000, 150, "decimal", 2), (20_000, 150, "decimal", 3),
                             (10_000, 50, "integer", 4)):
        X, y = generate(n, d, kind, seed)
        A = _signed_float_matrix(pla.Dataset.from_rows(X, y))
        t = alternating({"mean": lambda: _working_set_qp(A, fitted_start=False, first_factor=1),
                         "fitted": lambda: _working_set_qp(A, first_factor=1, refits=0),
                         "twice": lambda: _working_set_qp(A, first_factor=2, refits=0),
                         "refitted": lambda: _working_set_qp(A, first_factor=2)}, rounds=5)
        print(f"  quadprog working sets, {n:,} x {d:,} {kind}: from the mean direction "
              f"{t['mean'] * 1e3:.0f} ms, with the least-squares fit's rows "
              f"{t['fitted'] * 1e3:.0f} ms (ratio {t['mean'] / t['fitted']:.2f}), a first set "
              f"twice as large {t['twice'] * 1e3:.0f} ms (ratio to the last "
              f"{t['fitted'] / t['twice']:.2f}), from the fit refitted twice "
              f"{t['refitted'] * 1e3:.0f} ms (ratio to the last "
              f"{t['twice'] / t['refitted']:.2f})")

    xor = pla.Dataset.from_rows([[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1])
    with tempfile.TemporaryDirectory() as scratch:
        data, trace = Path(scratch) / "xor.dat", Path(scratch) / "xor.jsonl"
        data.write_text("0 0 -1\n1 1 -1\n0 1 1\n1 0 1\n")
        subprocess.run([sys.executable, "-c", "import sys; from verify.cli import run_main; "
                        "sys.exit(run_main())", "run", str(data), "--max-updates", "20000",
                        "--trace", str(trace)], capture_output=True, check=False)
        remembered = audit._canonical_number

        def audited() -> None:
            report = audit.audit(str(trace), xor)
            if (report.status, report.steps) != ("ok", 20_000):
                raise SystemExit(f"the benchmark's trace did not audit: {report}")

        def afresh() -> None:             # every number text parsed again, as before
            audit._canonical_number = remembered.__wrapped__
            try:
                audited()
            finally:
                audit._canonical_number = remembered

        def cached() -> None:
            remembered.cache_clear()      # (each audit starts with nothing remembered)
            audited()

        t = alternating({"afresh": afresh, "cached": cached}, rounds=5)
    print(f"  pla audit of a 20,000-update XOR trace: every number parsed afresh "
          f"{t['afresh']:.2f} s, remembered per text {t['cached']:.2f} s, ratio "
          f"{t['afresh'] / t['cached']:.2f}")


def main() -> None:
    runs()
    monitor_per_update()
    certificates()
    proposal_parts()
    setup_parts()


if __name__ == "__main__":
    main()
