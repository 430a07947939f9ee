"""Exact PLA: two engines (a Fraction reference and the integer default) that agree step for step.

The rule (Rosenblatt; the notes' PLA): start at w₀ (default 0); find a mistake (xₙ, yₙ); update
w ← w + η·yₙ·xₙ; stop when there is no mistake.  Every update is recorded as a :class:`Step`.

>>> from pla.dataset import Dataset
>>> ds = Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> r = run(ds, order="first")
>>> r.updates, r.halted, [str(v) for v in r.w]
(7, True, ['-3', '1', '1'])
>>> [s.index + 1 for s in r.steps]      # the textbook's sequence x1, x3, x3, x3, x1, x3, x3
[1, 3, 3, 3, 1, 3, 3]
"""

from __future__ import annotations

import random
from fractions import Fraction
from time import monotonic
from typing import Callable, Sequence

from pla.dataset import Dataset
from pla.defaults import RUN_DEFAULTS
from pla.exact import to_fraction
from pla.fast_engine import run_fast
from pla.runs import (
    DEFAULT_MAX_UPDATES, ENGINES, ORDERS, ZERO_CONVENTIONS, Budget, OptionError, Result,
    RunOptions, Step, StepCallback, is_mistake, visiting_order,
)

__all__ = [
    "ORDERS", "ZERO_CONVENTIONS", "ENGINES", "DEFAULT_MAX_UPDATES",
    "RunOptions", "Step", "Result", "Budget", "is_mistake", "run", "OptionError",
    "visiting_order",
]


def run(
    dataset: Dataset,
    order: str = RUN_DEFAULTS["order"],
    *,
    seed: int = RUN_DEFAULTS["seed"],
    eta: object = RUN_DEFAULTS["eta"],
    w0: Sequence[object] | None = RUN_DEFAULTS["w0"],
    zero: str = RUN_DEFAULTS["zero"],
    max_updates: int = RUN_DEFAULTS["max_updates"],
    engine: str = RUN_DEFAULTS["engine"],
    keep_steps: bool = True,
    on_step: StepCallback | None = None,
    options: RunOptions | None = None,
    on_update: Callable[[int, int, int, Fraction], None] | None = None,
    on_scaled_update: Callable[[int, int, int, int, int], None] | None = None,
    timeout: float | None = RUN_DEFAULTS["timeout"],
    extra_budget: tuple[str, Callable[[], bool]] | None = None,
) -> Result:
    """Run PLA exactly on ``dataset``.

    ``order``: ``cyclic`` (visit 1..N, update on a mistake and go on with the next point, halt
    after N consecutive correct points), ``first`` (after each update rescan from the first
    point), ``random-cycle`` (one permutation from ``seed``, then cyclic), ``random`` (a random
    point from ``seed`` at each visit; halts as soon as no mistake is left).  ``eta`` is a
    positive rational, ``w0`` the initial weights (bias first), ``zero`` the sign(0) convention
    (see :func:`is_mistake`).  At most ``max_updates`` updates: a run that needs more ends with
    ``halted=False``.  ``epochs`` counts passes over the data as in the pass-based formulation
    (a cyclic run whose updates all fall in its first two passes has 3 epochs); for ``first`` it
    counts scans from the first point; for ``random`` it is ⌈visits / N⌉ (at least 1).

    ``engine="default"`` is the fast exact engine (:mod:`pla.fast_engine`: vectorised block
    scans proved exact before each block, big integers otherwise); ``"reference"`` uses plain Fractions.  Both
    give the same steps.  ``on_step`` gets each :class:`Step` (vectors of Fractions, built only
    when asked for); ``on_update(t, index, y, score)`` is a cheap per-update hook that builds no
    vectors (``score`` = wₜ·xₙ exactly); ``on_scaled_update(t, index, y, s, unit)`` is the same
    hook with the score as two ints, wₜ·xₙ = s / unit (unit > 0, not reduced), so that no
    Fraction is built per update (the checked run's monitor listens on it).  ``timeout``
    (seconds) stops a run that has not halted by then, like the update budget: ``halted=False``, ``stopped_by="timeout"``.
    ``extra_budget`` = (reason, test): ``test()`` is asked before each update and, when true,
    stops the run the same way with ``stopped_by=reason`` (``pla run --max-trace-bytes``).

    >>> from pla.dataset import Dataset
    >>> ds = Dataset.from_rows([[1], [-1]], [1, -1], bias=False)
    >>> r = run(ds, eta="1/2")
    >>> r.w, r.updates, r.epochs
    ((Fraction(1, 2),), 1, 2)
    """
    if options is None:
        options = RunOptions(order=order, seed=seed, eta=eta, w0=w0,
                             zero=zero, max_updates=max_updates)
    options.initial_weights(dataset.dim)  # validates the length of w0
    if engine not in ENGINES:
        raise OptionError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
    steps: list[Step] = []
    callback: StepCallback | None
    if keep_steps and on_step is not None:
        def callback(step: Step) -> None:
            steps.append(step)
            on_step(step)
    elif keep_steps:
        callback = steps.append
    else:
        callback = on_step
    budget = Budget(options.max_updates, None if timeout is None else monotonic() + timeout,
                    extra_budget)
    if engine == "reference":
        if on_update is not None:
            callback = _with_update_hook(callback, on_update)
        if on_scaled_update is not None:
            callback = _with_update_hook(callback, lambda t, index, y, score: on_scaled_update(
                t, index, y, score.numerator, score.denominator))
        w, updates, epochs, halted = _reference_engine(dataset, options, callback, budget)
    else:
        w, updates, epochs, halted = run_fast(dataset, options, callback, on_update=on_update,
                                              on_scaled_update=on_scaled_update,
                                              budget=budget)
    return Result(w=w, updates=updates, epochs=epochs, halted=halted, options=options,
                  steps=tuple(steps), stopped_by=None if halted else budget.reason,
                  dataset=dataset)


def _with_update_hook(callback: StepCallback | None,
                      on_update: Callable[[int, int, int, Fraction], None]) -> StepCallback:
    def both(step: Step) -> None:
        on_update(step.t, step.index, step.y, step.score)
        if callback is not None:
            callback(step)
    return both


# ----------------------------------------------------------------------------- reference engine
def _reference_engine(
    ds: Dataset, options: RunOptions, on_step: StepCallback | None, budget: Budget | None = None
) -> tuple[tuple[Fraction, ...], int, int, bool]:
    """Plain Fractions, every score recomputed from scratch: slow and obviously right."""
    X, Y, N = ds.X, ds.labels, ds.n
    eta, zero = options.eta, options.zero
    budget = budget if budget is not None else Budget(options.max_updates)
    w = list(options.initial_weights(ds.dim))
    updates = 0

    def score(i: int) -> Fraction:
        return sum((wi * xi for wi, xi in zip(w, X[i])), Fraction(0))

    def update(i: int, s: Fraction) -> None:
        nonlocal w, updates
        new = [wi + eta * Y[i] * xi for wi, xi in zip(w, X[i])]
        if on_step is not None:
            on_step(Step(updates, i, Y[i], X[i], s, tuple(w), tuple(new)))
        w = new
        updates += 1

    if options.order in ("cyclic", "random-cycle"):
        order = visiting_order(N, options)
        position, clean, current_pass, last_update_pass = 0, 0, 1, 0
        while clean < N:
            i = order[position]
            s = score(i)
            if is_mistake(s, Y[i], zero):
                if budget.exhausted(updates):
                    return tuple(w), updates, current_pass, False
                update(i, s)
                clean, last_update_pass = 0, current_pass
            else:
                clean += 1
            position += 1
            if position == N:
                position, current_pass = 0, current_pass + 1
        return tuple(w), updates, last_update_pass + 1, True

    if options.order == "first":
        scans = 0
        while True:
            scans += 1
            found = next(((i, s) for i in range(N)
                          if is_mistake(s := score(i), Y[i], zero)), None)
            if found is None:
                return tuple(w), updates, scans, True
            if budget.exhausted(updates):
                return tuple(w), updates, scans, False
            update(*found)

    # random: a seeded pick among all points at each visit; halt when no mistake is left.
    rng = random.Random(options.seed)
    visits = 0
    while any(is_mistake(score(i), Y[i], zero) for i in range(N)):
        i = rng.randrange(N)
        visits += 1
        s = score(i)
        if is_mistake(s, Y[i], zero):
            if budget.exhausted(updates):
                return tuple(w), updates, max(1, -(-visits // N)), False
            update(i, s)
    return tuple(w), updates, max(1, -(-visits // N)), True
