"""Independent checks of a Pocket run: the kernel recounts, PLA replays.

:func:`checked_pocket_run` runs one seed of a :class:`pla.pocket.PocketProblem` and then checks,
by code that shares nothing with the Pocket engine:

1. **the pocket's mistake count never increases** (for the real algorithm, ``compare="pocket"``):
   the recorded sequence is non-increasing; and it is not taken from the engine: the kernel
   recounts the training mistakes of *every* visited wₜ (replayed below), the pocket rule is
   applied again to those counts, and the pocket's history, its time ``pocket_t`` (for
   ``compare="pocket"``: the first best wₜ visited) and its reported mistakes must be the
   recomputed ones, so a forged history fails;
2. **the pocket is one of the visited weight vectors**: replaying PLA with :func:`pla.run`
   (same order, seed, η, w₀, sign(0) convention) for ``pocket_t`` updates gives exactly the
   pocket, and for ``updates`` updates exactly the last wₜ;
3. **the reported training mistakes are exact**: the trusted kernel
   (:func:`verify.kernel.check_mistake_count`) recounts the mistakes of the returned vector on the
   training data (and on the test data when there are any).

Any failure raises :class:`PocketCheckFailed` naming the check, the run's seed and the values.

>>> from pla.dataset import Dataset
>>> from pla.pocket import PocketOptions, PocketProblem
>>> ds = Dataset.from_rows([[0], [1], [2], [3]], [-1, 1, -1, 1])
>>> problem = PocketProblem.prepare(ds, PocketOptions(updates=10, order="random"))
>>> checked_pocket_run(problem, 5).mistakes
1
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pla
from pla.pocket import PocketProblem, PocketResult
from verify import kernel

__all__ = ["PocketCheckFailed", "CHECKS", "checks_made", "checked_pocket_run",
           "check_pocket_result"]

#: The checks :func:`checked_pocket_run` makes, as the CLI reports them (the first one only for
#: the real algorithm, ``compare="pocket"``; see :func:`checks_made`).
CHECKS = (
    "the pocket's training mistakes never increased",
    "pla.run replayed the walk to the pocket and to the last w_t (the pocket is a visited w_t)",
    "the kernel recounted the training (and test) mistakes of the returned w",
)


def checks_made(compare: str) -> tuple[str, ...]:
    """The checks made on runs with this comparison rule.

    >>> len(checks_made("pocket")), len(checks_made("previous"))
    (3, 2)
    """
    return CHECKS if compare == "pocket" else CHECKS[1:]


class PocketCheckFailed(RuntimeError):
    """An independent check of a Pocket run failed."""

    def __init__(self, check: str, seed: int, values: str) -> None:
        super().__init__(f"pocket check failed (run with seed {seed}): {check}: {values}")
        self.check = check
        self.seed = seed
        self.values = values

    def __reduce__(self) -> tuple[Any, tuple[str, int, str]]:  # survives worker processes
        return (type(self), (self.check, self.seed, self.values))


def checked_pocket_run(problem: PocketProblem, seed: int) -> PocketResult:
    """Run one seed of ``problem`` and check the result (see the module docstring)."""
    result = problem.run(seed)
    check_pocket_result(problem, result)
    return result


def check_pocket_result(problem: PocketProblem, result: PocketResult) -> None:
    """Check ``result`` (a run of ``problem``) independently; raise :class:`PocketCheckFailed`."""
    options = result.options
    seed = result.seed
    history = result.pocket_mistakes
    if options.compare == "pocket":
        for t in range(1, len(history)):
            if history[t] > history[t - 1]:
                raise PocketCheckFailed("the pocket's mistakes increased", seed,
                                        f"after update {t}: {history[t]} > {history[t - 1]}")
    # replay PLA with the reference implementation of the walk (pla.run), independently,
    # keeping every visited w_t (t = 0..updates)
    train = problem.train
    run_options = options.run_options(seed, result.updates)
    walk: list[tuple[Fraction, ...]] = [tuple(Fraction(v) for v in run_options.w0)
                                        if run_options.w0 else (Fraction(0),) * train.dim]
    replay = pla.run(train, options=run_options, keep_steps=False,
                     on_step=lambda step: walk.append(step.w_after))
    pocket_replayed = walk[result.pocket_t] if 0 <= result.pocket_t < len(walk) else None
    if replay.updates != result.updates or replay.w != result.last_w:
        raise PocketCheckFailed("replaying PLA does not reach the last w_t", seed,
                                f"pla.run: {replay.updates} updates, w = {_show(replay.w)}; "
                                f"pocket run: {result.updates} updates, w = {_show(result.last_w)}")
    if pocket_replayed != result.pocket_w:
        raise PocketCheckFailed("the pocket is not the visited w_t it claims to be", seed,
                                f"w_{result.pocket_t} = {_show(pocket_replayed)}, pocket = "
                                f"{_show(result.pocket_w)}")
    _check_history(train, options, result, walk)
    try:
        kernel.check_mistake_count(train.rows, train.scale, train.labels, list(result.w),
                                   result.mistakes, options.zero)
        if problem.test is not None and result.test_mistakes is not None:
            test = problem.test
            kernel.check_mistake_count(test.rows, test.scale, test.labels, list(result.w),
                                       result.test_mistakes, options.zero)
    except kernel.KernelError as exc:
        raise PocketCheckFailed("the kernel's recount differs", seed, str(exc)) from None


def _check_history(train: Any, options: Any, result: PocketResult,
                   walk: list[tuple[Fraction, ...]]) -> None:
    """The kernel recounts the training mistakes of every visited w_t; from those counts alone
    the pocket rule is applied again: the pocket's history, its time and its mistakes must be
    the recomputed ones (for ``compare="pocket"`` the pocket is then the first best w_t)."""
    seed = result.seed
    if len(result.walk_mistakes) != len(walk):
        raise PocketCheckFailed("the walk's recorded mistake counts have the wrong length", seed,
                                f"{len(result.walk_mistakes)} counts for {len(walk)} w_t")
    for t, (w, claimed) in enumerate(zip(walk, result.walk_mistakes)):
        try:
            kernel.check_mistake_count(train.rows, train.scale, train.labels, list(w), claimed,
                                       options.zero)
        except kernel.KernelError as exc:
            raise PocketCheckFailed(f"the kernel's recount of w_{t}'s mistakes differs", seed,
                                    str(exc)) from None
    counts = result.walk_mistakes
    pocket_t, history = 0, [counts[0]]
    for t in range(1, len(counts)):
        if counts[t] < (counts[pocket_t] if options.compare == "pocket" else counts[t - 1]):
            pocket_t = t
        history.append(counts[pocket_t])
    if tuple(history) != tuple(result.pocket_mistakes):
        first = next((t for t, (a, b) in enumerate(zip(history, result.pocket_mistakes))
                      if a != b), min(len(history), len(result.pocket_mistakes)))
        raise PocketCheckFailed("the pocket's mistake history is not the recomputed one", seed,
                                f"after update {first}: recomputed "
                                f"{history[first:first + 1]}, reported "
                                f"{list(result.pocket_mistakes[first:first + 1])}")
    if result.pocket_t != pocket_t:
        raise PocketCheckFailed("the pocket is not the w_t the pocket rule keeps", seed,
                                f"recomputed w_{pocket_t} ({counts[pocket_t]} mistakes), "
                                f"reported w_{result.pocket_t}")
    if options.compare == "pocket" and counts[pocket_t] != min(counts):
        raise PocketCheckFailed("the pocket is not the best w_t visited", seed,
                                f"w_{pocket_t}: {counts[pocket_t]} mistakes, best {min(counts)}")
    returned = len(counts) - 1 if options.keep == "last" else pocket_t
    if result.n != train.n:  # the printed error rate is mistakes / n
        raise PocketCheckFailed("the error rate's denominator is not the number of examples",
                                seed, f"n = {result.n}, the data have {train.n}")
    if result.mistakes != counts[returned]:
        raise PocketCheckFailed("the reported training mistakes are not the returned w_t's", seed,
                                f"w_{returned}: {counts[returned]} mistakes, reported "
                                f"{result.mistakes}")


def _show(w: tuple[Fraction, ...]) -> str:
    return "(" + ", ".join(str(v) for v in w) + ")"
