"""``pla run --runs K``: K seeded PLA runs (random orders), in parallel, with exact statistics.

Wired into ``pla run`` by :func:`add_arguments` and :func:`handle_runs` (called from
:mod:`verify.cli.run` when ``--runs`` is given).  Exit code 3 when some run reached
``--max-updates`` without halting.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from typing import TYPE_CHECKING

from pla.files import shown_path
from pla.dataset import Dataset
from pla.experiments import SEED_STRIDE, histogram, repeat_pla
from pla.perceptron import RunOptions

if TYPE_CHECKING:
    from pla.experiments import PlaExperiment
from verify.cli.usage import UsageError
from verify.cli.experiment_output import (
    add_run_count_arguments, check_runs_need_random_order, exact_and_decimal, experiment_executor,
    jobs_from_args, progress_bar, seed_rule_text, workers_text,
)

__all__ = ["add_arguments", "handle_runs", "check_runs_arguments", "experiment_json", "HISTOGRAM_BINS", "BAR_WIDTH"]

#: The human histogram has at most this many bins, and bars at most BAR_WIDTH characters.
HISTOGRAM_BINS = 20
BAR_WIDTH = 40


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--runs``, ``--jobs``, ``--cluster``, ``--quiet`` for ``pla run``."""
    group = parser.add_argument_group(
        "repeated runs", "with --runs K: K runs with seeds derived from --seed; mean, min, max "
                         "and a histogram of the update counts")
    add_run_count_arguments(group, runs_default=None)


def check_runs_arguments(args: argparse.Namespace) -> None:
    """The options that cannot go with ``--runs`` (checked before the data are read)."""
    for flag, given in (("--steps", args.steps), ("--trace", args.trace)):
        if given:
            raise UsageError(f"{flag} shows one run; it cannot be combined with --runs")
    if getattr(args, "check", False):
        raise UsageError("--check with --runs: the runs are made in worker processes that keep "
                         "only their counts, so there are no steps to check; check one of them "
                         f"with --seed S + {SEED_STRIDE}*k --check (k = 0..K-1)")


def handle_runs(args: argparse.Namespace, dataset: Dataset, options: RunOptions) -> int:
    """Carry out ``pla run --runs K``; returns the exit code."""
    check_runs_arguments(args)
    check_runs_need_random_order(args.runs, options.order)
    jobs = jobs_from_args(args)
    with experiment_executor(args) as executor, progress_bar(args, "PLA runs") as bar:
        study = repeat_pla(dataset, options, args.runs, seed=options.seed, jobs=jobs,
                           engine=args.engine, on_progress=bar, executor=executor)
    if args.json:
        print(json.dumps(experiment_json(dataset, study), indent=2))
    else:
        print_experiment(dataset, study, workers_text(args, jobs))
    stuck = len(study.runs) - study.halted_runs
    if stuck:
        print(f"pla: {stuck} of {len(study.runs)} runs stopped at --max-updates "
              f"{options.max_updates} without halting; the data may not be linearly separable: "
              "see `pla certify` and `pla pocket`", file=sys.stderr)
        return 3
    return 0


def experiment_json(dataset: Dataset, study: PlaExperiment) -> dict[str, Any]:
    """The ``--json`` object of ``pla run --runs``.

    ``min_updates``/``max_updates``/``mean_updates`` are statistics over the runs; the update
    budget is ``options.max_updates``.
    """
    o = study.options
    return {
        "runs": [{"seed": r.seed, "updates": r.updates, "epochs": r.epochs, "halted": r.halted}
                 for r in study.runs],
        "mean_updates": str(study.mean_updates),
        "min_updates": study.min_updates,
        "max_updates": study.max_updates,
        "halted_runs": study.halted_runs,
        "seed": study.base_seed,
        "seed_rule": f"run k uses seed + {SEED_STRIDE}*k",
        "options": {
            "order": o.order, "eta": str(o.eta),
            "w0": None if o.w0 is None else [str(v) for v in o.w0],
            "zero": o.zero, "max_updates": o.max_updates,
        },
        "n": dataset.n,
        "d": dataset.d,
        "dim": dataset.dim,
        "bias": dataset.bias,
        "data_sha256": dataset.fingerprint,
        "source": dataset.source,
    }


def print_experiment(dataset: Dataset, study: PlaExperiment, workers: str) -> None:
    """The human summary: statistics and a text histogram of the update counts."""
    o = study.options
    runs = len(study.runs)
    bias = " (+ bias x0 = 1)" if dataset.bias else ""
    print(f"data     {shown_path(dataset.source)}: {dataset.n} examples, {dataset.d} features{bias}, "
          f"sha256 {dataset.fingerprint[:16]}")
    w0 = "0" if o.w0 is None else "(" + ", ".join(str(v) for v in o.w0) + ")"
    print(f"options  order {o.order}, eta {o.eta}, w0 {w0}, zero {o.zero}, "
          f"max-updates {o.max_updates}")
    print(f"runs     {runs} ({seed_rule_text(study.base_seed, runs)}), "
          f"{workers}; {study.halted_runs} halted")
    print(f"updates  mean {exact_and_decimal(study.mean_updates, 2)}, min {study.min_updates}, "
          f"max {study.max_updates}")
    bins = histogram(study.counts, HISTOGRAM_BINS)
    most = max(count for _, _, count in bins)
    labels = [str(low) if low == high else f"{low}-{high}" for low, high, _ in bins]
    width = max(len(label) for label in labels)
    print()
    print("updates".rjust(width) + "  runs")
    for label, (_, _, count) in zip(labels, bins):
        bar = "#" * (BAR_WIDTH * count // most) if most else ""
        if count and not bar:
            bar = "."
        print(f"{label.rjust(width)}  {str(count).rjust(len(str(runs)))} {bar}".rstrip())
