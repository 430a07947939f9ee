"""The cost of `pla run --check`: plain runs and monitored runs side by side, as ratios.

Run: .venv/bin/python benchmarks/check_overhead.py   (target from the speed issue: <= 1.5x)
"""

from __future__ import annotations

import time

import pla
from pla.generate import separable_data
from verify.search.certificates import certify
from verify.checks.monitor import Monitor

CASES = [(1000, 5, "1/100"), (2000, 10, "1/200"), (5000, 3, "1/200")]
REPEATS = 3


def best(fn) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
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


if __name__ == "__main__":
    main()
