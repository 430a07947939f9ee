"""Seeded multi-run experiments: many PLA or Pocket runs, in parallel, identical whatever ``jobs`` is.

Run k (k = 0, 1, ..., K−1) of an experiment with base seed S uses the seed

    seed_k = S + 1_000_003 · k

(:func:`run_seed`), so run 0 is exactly the single run ``--seed S``, every run's seed is printed
in the results (and can be replayed alone with ``--seed seed_k``), and experiments with
different base seeds below 1,000,003 share no run.  Each run depends on its own seed only; the
worker processes receive whole runs and the results are put back in the order of k, so the
outcome is the same for every number of processes.

>>> from pla.dataset import Dataset
>>> from pla.perceptron import RunOptions
>>> ds = Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> study = repeat_pla(ds, RunOptions(order="random-cycle"), runs=4, seed=0)
>>> [r.seed for r in study.runs]
[0, 1000003, 2000006, 3000009]
>>> [r.updates for r in study.runs], study.mean_updates
([11, 7, 11, 4], Fraction(33, 4))
"""

from __future__ import annotations

import math
import os
import signal
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Executor

from pla.dataset import Dataset
from pla.defaults import POCKET_DEFAULTS, REPEAT_DEFAULTS, RUN_DEFAULTS
from pla.perceptron import OptionError, RunOptions, run

if TYPE_CHECKING:  # pla.pocket (and numpy) are imported when Pocket runs are asked for
    from pla.pocket import PocketOptions, PocketProblem, PocketResult

__all__ = [
    "SEED_STRIDE", "run_seed", "run_seeds", "parallel_map", "PlaRun", "PlaExperiment",
    "repeat_pla", "pla_run_summary", "PocketExperiment", "repeat_pocket", "histogram",
    "error_series", "distribution_of_test_errors", "default_jobs", "repeat", "ALGORITHMS",
]

#: Run k of an experiment with base seed S uses S + SEED_STRIDE·k (a prime; see the module doc).
SEED_STRIDE = 1_000_003

R = TypeVar("R")
ProgressCallback = Callable[[int, int], None]


def run_seed(base: int, k: int) -> int:
    """The seed of run ``k`` (0-based) of an experiment with base seed ``base``.

    >>> run_seed(0, 0), run_seed(0, 2), run_seed(7, 1)
    (0, 2000006, 1000010)
    """
    return base + SEED_STRIDE * k


def run_seeds(base: int, runs: int) -> list[int]:
    """The seeds of runs 0..runs−1.

    >>> run_seeds(5, 3)
    [5, 1000008, 2000011]
    """
    if runs < 1:
        raise OptionError("the number of runs must be at least 1")
    return [run_seed(base, k) for k in range(runs)]


def default_jobs() -> int:
    """The number of CPUs this process may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _run_chunk(task: Callable[[int], R], item: tuple[int, Sequence[int]]) -> tuple[int, list[R]]:
    index, seeds = item
    return index, [task(seed) for seed in seeds]


def _ignore_interrupts() -> None:
    """Worker initializer: Ctrl-C is handled by the parent, which then stops the workers
    (with SIGTERM, whose default action ends them whatever handler the parent installed)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def parallel_map(task: Callable[[int], R], seeds: Sequence[int], jobs: int = 1,
                 on_progress: ProgressCallback | None = None,
                 executor: Executor | None = None) -> list[R]:
    """``[task(s) for s in seeds]``, computed by ``jobs`` processes, or by ``executor`` (any
    :class:`concurrent.futures.Executor`: a Dask ``Client.get_executor()``, Ray's, a process
    pool); the result is in seed order, the same whatever computes it.

    ``task`` must be picklable when ``jobs > 1`` or with an executor (a top-level function or a
    :func:`functools.partial` of one).  ``on_progress(done, total)`` is called in this process
    as runs complete.  An exception raised by a run is raised here; on any exception, and on
    Ctrl-C (which the workers leave to this process), the worker processes are terminated, or
    the executor's pending futures cancelled.  Workers that cannot be started (a thread or a
    process refused under ``ulimit -v``) raise :class:`~pla.runs.OptionError` with one line
    saying so.

    >>> parallel_map(abs, [-3, 1, -2], jobs=1)
    [3, 1, 2]
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(2) as pool:
    ...     parallel_map(abs, [-3, 1, -2], executor=pool)
    [3, 1, 2]
    """
    if jobs < 1:
        raise OptionError("jobs must be at least 1")
    total = len(seeds)
    if executor is not None:
        return _executor_map(task, seeds, executor, on_progress)
    if jobs == 1 or total <= 1:
        results = []
        for seed in seeds:
            results.append(task(seed))
            if on_progress is not None:
                on_progress(len(results), total)
        return results
    workers = min(jobs, total)
    chunks = _chunks(seeds, workers)
    import multiprocessing       # here, not at the top: a plain `pla run` does not need it

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    done_runs = 0
    parts: dict[int, list[R]] = {}
    try:
        pool = context.Pool(workers, initializer=_ignore_interrupts)
    except (RuntimeError, OSError) as exc:   # "can't start new thread", a fork without memory
        raise OptionError(f"cannot start {workers} worker processes ({exc}): give fewer --jobs "
                          "(--jobs 1 runs in this process) or more memory") from None
    with pool:  # exit: terminate()
        for index, part in pool.imap_unordered(partial(_run_chunk, task), chunks):
            parts[index] = part
            done_runs += len(part)
            if on_progress is not None:
                on_progress(done_runs, total)
    return [result for index in range(len(chunks)) for result in parts[index]]


def _chunks(seeds: Sequence[int], workers: int) -> list[tuple[int, list[int]]]:
    """The seeds cut into numbered chunks, about 16 per worker (fewer, larger messages)."""
    size = max(1, math.ceil(len(seeds) / (workers * 16)))
    return [(index, list(seeds[start:start + size]))
            for index, start in enumerate(range(0, len(seeds), size))]


def _executor_map(task: Callable[[int], R], seeds: Sequence[int], executor: Executor,
                  on_progress: ProgressCallback | None) -> list[R]:
    from concurrent.futures import FIRST_COMPLETED, wait

    chunks = _chunks(seeds, max(1, _executor_workers(executor)))
    futures = {executor.submit(_run_chunk, task, chunk): chunk[0] for chunk in chunks}
    parts: dict[int, list[R]] = {}
    done_runs = 0
    try:
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                index, part = future.result()
                parts[index] = part
                done_runs += len(part)
                if on_progress is not None:
                    on_progress(done_runs, len(seeds))
    except BaseException:  # a failed run or Ctrl-C: nothing more is computed for this call
        for future in futures:
            future.cancel()
        raise
    return [result for index in range(len(chunks)) for result in parts[index]]


def _executor_workers(executor: Executor) -> int:
    """How many workers an executor has, as far as it says (Dask's client, a pool), else 4."""
    client = getattr(executor, "_client", None)
    if client is not None:  # distributed.cfexecutor.ClientExecutor
        try:
            return len(client.scheduler_info().get("workers", {})) or 4
        except Exception:  # noqa: BLE001 - a scheduler that does not answer: guess
            return 4
    return int(getattr(executor, "_max_workers", 4) or 4)


# ----------------------------------------------------------------------------- PLA experiments
@dataclass(frozen=True)
class PlaRun:
    """One PLA run of an experiment: its seed, number of updates and epochs, whether it halted."""

    seed: int
    updates: int
    epochs: int
    halted: bool


def pla_run_summary(dataset: Dataset, options: RunOptions, engine: str, seed: int) -> PlaRun:
    """Run PLA once with ``options`` and this seed (no steps kept)."""
    result = run(dataset, options=replace(options, seed=seed), engine=engine, keep_steps=False)
    return PlaRun(seed=seed, updates=result.updates, epochs=result.epochs, halted=result.halted)


@dataclass(frozen=True)
class PlaExperiment:
    """K seeded PLA runs: the runs in order of k, and exact statistics of their update counts."""

    runs: tuple[PlaRun, ...]
    options: RunOptions
    base_seed: int

    @property
    def counts(self) -> list[int]:
        """Number of updates of each run."""
        return [r.updates for r in self.runs]

    @property
    def mean_updates(self) -> Fraction:
        """Exact mean number of updates."""
        return Fraction(sum(self.counts), len(self.runs))

    @property
    def min_updates(self) -> int:
        return min(self.counts)

    @property
    def max_updates(self) -> int:
        return max(self.counts)

    @property
    def halted_runs(self) -> int:
        """How many runs halted (found w with no mistake) within the budget."""
        return sum(1 for r in self.runs if r.halted)

    def to_json(self) -> dict[str, Any]:
        """The experiment as JSON-ready values (exact numbers as strings).

        >>> from pla.dataset import Dataset
        >>> study = repeat(Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1]), 2,
        ...                order="random-cycle")
        >>> study.to_json()["mean_updates"], [r["seed"] for r in study.to_json()["runs"]]
        ('9', [0, 1000003])
        """
        o = self.options
        return {
            "runs": [{"seed": r.seed, "updates": r.updates, "epochs": r.epochs, "halted": r.halted}
                     for r in self.runs],
            "mean_updates": str(self.mean_updates),
            "min_updates": self.min_updates,
            "max_updates": self.max_updates,
            "halted_runs": self.halted_runs,
            "seed": self.base_seed,
            "seed_rule": f"run k uses seed + {SEED_STRIDE}*k",
            "options": {key: value for key, value in o.to_json().items() if key != "seed"},
        }


def repeat_pla(dataset: Dataset, options: RunOptions, runs: int, *, seed: int = 0, jobs: int = 1,
               engine: str = "default", on_progress: ProgressCallback | None = None,
               executor: Executor | None = None) -> PlaExperiment:
    """``runs`` PLA runs with seeds :func:`run_seeds` (``seed``, runs); ``options.seed`` is ignored.
    ``jobs`` local processes, or ``executor`` (see :func:`parallel_map`): the same result."""
    options.initial_weights(dataset.dim)
    task = partial(pla_run_summary, dataset, options, engine)
    results = parallel_map(task, run_seeds(seed, runs), jobs, on_progress, executor)
    return PlaExperiment(runs=tuple(results), options=replace(options, seed=seed), base_seed=seed)


# ----------------------------------------------------------------------------- Pocket experiments
@dataclass(frozen=True)
class PocketExperiment:
    """K seeded Pocket runs, in order of k, with exact error statistics."""

    runs: tuple[PocketResult, ...]
    options: PocketOptions
    base_seed: int
    has_test: bool = field(default=False)

    @property
    def train_errors(self) -> list[Fraction]:
        return [r.error for r in self.runs]

    @property
    def test_errors(self) -> list[Fraction]:
        """Test errors of the runs (empty without test data)."""
        return [e for e in (r.test_error for r in self.runs) if e is not None]

    @property
    def mean_train_error(self) -> Fraction:
        return sum(self.train_errors, Fraction(0)) / len(self.runs)

    @property
    def mean_test_error(self) -> Fraction | None:
        errors = self.test_errors
        return sum(errors, Fraction(0)) / len(errors) if errors else None

    @property
    def mean_pocket_updates(self) -> Fraction:
        return Fraction(sum(r.pocket_updates for r in self.runs), len(self.runs))

    def to_json(self) -> dict[str, Any]:
        """The experiment as JSON-ready values (exact errors as strings).

        >>> from pla.dataset import Dataset
        >>> study = repeat(Dataset.from_rows([[0], [1], [2], [3]], [-1, 1, -1, 1]), 3,
        ...                algorithm="pocket", updates=10, seed=1)
        >>> study.to_json()["mean_train_error"], study.to_json()["order"]
        ('1/3', 'random-cycle')
        """
        o = self.options
        train_errors, test_errors = self.train_errors, self.test_errors
        mean_test = self.mean_test_error
        return {
            "runs": [r.to_json() for r in self.runs],
            "mean_train_error": str(self.mean_train_error),
            "mean_test_error": None if mean_test is None else str(mean_test),
            "min_train_error": str(min(train_errors)),
            "max_train_error": str(max(train_errors)),
            "min_test_error": str(min(test_errors)) if test_errors else None,
            "max_test_error": str(max(test_errors)) if test_errors else None,
            "mean_pocket_updates": str(self.mean_pocket_updates),
            "updates": o.updates,
            "returned": o.keep,
            "compare": o.compare,
            "order": o.order,
            "seed": self.base_seed,
            "seed_rule": f"run k uses seed + {SEED_STRIDE}*k",
            "eta": str(o.eta),
            "w0": None if o.w0 is None else [str(v) for v in o.w0],
            "zero": o.zero,
        }


def repeat_pocket(train: Dataset, options: PocketOptions, runs: int, *, seed: int = 0,
                  test: Dataset | None = None, jobs: int = 1,
                  on_progress: ProgressCallback | None = None,
                  task: Callable[[PocketProblem, int], PocketResult] | None = None,
                  executor: Executor | None = None) -> PocketExperiment:
    """``runs`` Pocket runs with seeds :func:`run_seeds` (``seed``, runs), on ``jobs`` local
    processes or on ``executor`` (see :func:`parallel_map`): the same result.

    ``task(problem, seed)`` runs one seed (default :meth:`PocketProblem.run`); a caller can pass
    a picklable function that runs and then checks each run in the worker processes.

    >>> from pla.dataset import Dataset
    >>> ds = Dataset.from_rows([[0], [1], [2], [3]], [-1, 1, -1, 1])
    >>> from pla.pocket import PocketOptions
    >>> study = repeat_pocket(ds, PocketOptions(updates=10), runs=3, seed=1)
    >>> [str(e) for e in study.train_errors], str(study.mean_train_error)
    (['1/4', '1/2', '1/4'], '1/3')
    """
    from pla.pocket import PocketProblem

    problem = PocketProblem.prepare(train, options, test)
    work = partial(task if task is not None else _run_problem, problem)
    results = parallel_map(work, run_seeds(seed, runs), jobs, on_progress, executor)
    return PocketExperiment(runs=tuple(results), options=options, base_seed=seed,
                            has_test=test is not None)


def _run_problem(problem: PocketProblem, seed: int) -> PocketResult:
    return problem.run(seed)


# ----------------------------------------------------------------------------- the public entry
#: What :func:`repeat` repeats: ``pla run --runs K`` or ``pla pocket --runs K``.
ALGORITHMS: tuple[str, ...] = ("run", "pocket")


def repeat(dataset: Dataset, runs: int, *, algorithm: str = "run",
           jobs: int = REPEAT_DEFAULTS["jobs"], on_progress: ProgressCallback | None = None,
           **options: Any) -> PlaExperiment | PocketExperiment:
    """``runs`` seeded runs of :func:`pla.run` (``algorithm="run"``, as ``pla run --runs K``) or
    of :func:`pla.pocket` (``algorithm="pocket"``, as ``pla pocket --runs K``).

    ``options`` are the keyword arguments of that function, with the same defaults
    (:mod:`pla.defaults`): ``order``, ``seed`` (the base seed S: run k uses
    S + 1,000,003·k), ``eta``, ``w0``, ``zero``, then ``max_updates`` and ``engine`` for
    PLA, ``updates`` (required), ``compare``, ``keep`` and ``test`` for Pocket.  ``jobs``
    worker processes (0: one per CPU) give the same result as one.  As on the command line,
    several runs need a random order (the seed is all that differs between them).

    >>> from pla.dataset import Dataset
    >>> ds = Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    >>> [r.updates for r in repeat(ds, 4, order="random-cycle").runs]
    [11, 7, 11, 4]
    >>> repeat(ds, 4)
    Traceback (most recent call last):
    ...
    pla.runs.OptionError: 4 runs with order cyclic: the seed has no effect on this order, so every run would be the same; use order random-cycle or random
    """
    if algorithm not in ALGORITHMS:
        raise OptionError(f"unknown algorithm {algorithm!r} (choose from {', '.join(ALGORITHMS)})")
    if not isinstance(runs, int) or isinstance(runs, bool) or runs < 1:
        raise OptionError(f"runs must be a positive integer, not {runs!r}")
    if not isinstance(jobs, int) or jobs < 0:
        raise OptionError(f"jobs must be a non-negative integer, not {jobs!r}")
    jobs = jobs if jobs > 0 else default_jobs()
    if algorithm == "run":
        run_options, seed, engine = _repeated_run_options(**options)
        _need_random_order(runs, run_options.order)
        return repeat_pla(dataset, run_options, runs, seed=seed, jobs=jobs, engine=engine,
                          on_progress=on_progress)
    pocket_options, seed, test = _repeated_pocket_options(**options)
    _need_random_order(runs, pocket_options.order)
    return repeat_pocket(dataset, pocket_options, runs, seed=seed, test=test, jobs=jobs,
                         on_progress=on_progress)


def _need_random_order(runs: int, order: str) -> None:
    if runs > 1 and not order.startswith("random"):
        raise OptionError(f"{runs} runs with order {order}: the seed has no effect on this "
                          "order, so every run would be the same; use order random-cycle or "
                          "random")


def _repeated_run_options(*, order: str = RUN_DEFAULTS["order"], seed: int = RUN_DEFAULTS["seed"],
                          eta: object = RUN_DEFAULTS["eta"], w0: Sequence[object] | None = None,
                          zero: str = RUN_DEFAULTS["zero"],
                          max_updates: int = RUN_DEFAULTS["max_updates"],
                          engine: str = RUN_DEFAULTS["engine"]) -> tuple[RunOptions, int, str]:
    """The keyword arguments :func:`repeat` accepts for PLA (those of :func:`pla.run` that
    make sense for many runs), with :func:`pla.run`'s defaults."""
    options = RunOptions(order=order, seed=seed, eta=eta,
                         w0=w0, zero=zero, max_updates=max_updates)
    return options, seed, engine


def _repeated_pocket_options(*, updates: int, order: str = POCKET_DEFAULTS["order"],
                             seed: int = POCKET_DEFAULTS["seed"],
                             eta: object = POCKET_DEFAULTS["eta"],
                             w0: Sequence[object] | None = None,
                             zero: str = POCKET_DEFAULTS["zero"],
                             compare: str = POCKET_DEFAULTS["compare"],
                             keep: str = POCKET_DEFAULTS["keep"], test: Dataset | None = None
                             ) -> tuple[PocketOptions, int, Dataset | None]:
    """The keyword arguments :func:`repeat` accepts for Pocket, with :func:`pla.pocket`'s."""
    from pla.exact import to_fraction
    from pla.pocket import PocketOptions

    options = PocketOptions(updates=updates, order=order, eta=to_fraction(eta),
                            w0=w0,
                            zero=zero, compare=compare, keep=keep)
    return options, seed, test


# ----------------------------------------------------------------------------- series for figures
def histogram(values: Sequence[int], max_bins: int = 20) -> list[tuple[int, int, int]]:
    """Integer bins ``(low, high, count)`` (both ends included) covering min..max of ``values``.

    One bin per value when there are at most ``max_bins`` distinct values in the range,
    otherwise ``max_bins`` bins of equal integer width.

    >>> histogram([3, 5, 5, 4, 3])
    [(3, 3, 2), (4, 4, 1), (5, 5, 2)]
    >>> histogram(list(range(100)), max_bins=4)
    [(0, 24, 25), (25, 49, 25), (50, 74, 25), (75, 99, 25)]
    """
    if not values:
        return []
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / max_bins))
    bins = [[start, min(start + width - 1, high), 0] for start in range(low, high + 1, width)]
    for v in values:
        bins[(v - low) // width][2] += 1
    return [(a, b, c) for a, b, c in bins]


def error_series(result: PocketResult) -> tuple[list[Fraction], list[Fraction]]:
    """Exact training errors of wₜ and of the pocket after t updates, t = 0..updates.

    >>> from pla.dataset import Dataset
    >>> from pla.pocket import pocket
    >>> r = pocket(Dataset.from_rows([[0], [1], [2], [3]], [-1, 1, -1, 1]), 6, order="cyclic")
    >>> [[str(e) for e in series] for series in error_series(r)]
    [['1', '1/2', '1/2', '1/2', '1/2', '1/4', '1/2'], ['1', '1/2', '1/2', '1/2', '1/2', '1/4', '1/4']]
    """
    n = result.n
    return ([Fraction(m, n) for m in result.walk_mistakes],
            [Fraction(m, n) for m in result.pocket_mistakes])


def distribution_of_test_errors(experiment: PocketExperiment) -> list[tuple[Fraction, int]]:
    """How many runs reached each exact test error (training error without test data), sorted.

    >>> from pla.dataset import Dataset
    >>> ds = Dataset.from_rows([[0], [1], [2], [3]], [-1, 1, -1, 1])
    >>> from pla.pocket import PocketOptions
    >>> study = repeat_pocket(ds, PocketOptions(updates=5, order="random"), runs=5)
    >>> [(str(e), k) for e, k in distribution_of_test_errors(study)]
    [('1/4', 2), ('1/2', 3)]
    """
    errors = experiment.test_errors if experiment.has_test else experiment.train_errors
    counts: dict[Fraction, int] = {}
    for e in errors:
        counts[e] = counts.get(e, 0) + 1
    return sorted(counts.items())
