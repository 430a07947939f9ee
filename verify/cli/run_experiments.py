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

from pla.exact import format_count
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
        print(f"pla: {stuck:,} of {format_count(len(study.runs), 'run')} stopped at --max-updates "
              f"{options.max_updates:,} without halting; {_what_is_known(dataset, args)}",
              file=sys.stderr)
        return 3
    return 0


def experiment_json(dataset: Dataset, study: PlaExperiment) -> dict[str, Any]:
    """The ``--json`` object of ``pla run --runs``.

    ``min_updates``/``max_updates``/``mean_updates`` are statistics over the runs; the update
    budget is ``options.max_updates``.
    """
    return {
        **study.to_json(),
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


def _what_is_known(dataset: Dataset, args: argparse.Namespace) -> str:
    """After runs stopped by the budget: a certificate either way on data small enough to
    decide in passing (:mod:`verify.cli.stopped_runs`), else how to decide it."""
    from verify.cli.run import NOTICE_BEFORE_RUN_MAX_ENTRIES
    from verify.cli.stopped_runs import unknown_sentence
    from verify.present.numbers import bound_text

    if dataset.n * dataset.dim > NOTICE_BEFORE_RUN_MAX_ENTRIES:
        return unknown_sentence(dataset, args.data)
    from verify.search.certificates import certify

    try:
        certificate = certify(dataset)
    except Exception:  # untrusted search failed: say nothing unchecked
        return unknown_sentence(dataset, args.data)
    if not certificate.separable:
        return (f"the data are NOT linearly separable (Gordan certificate checked by the "
                f"kernel: `pla certify {shown_path(args.data)}`)")
    return (f"the data ARE linearly separable ({certificate.kind} certificate checked by the "
            f"kernel): PLA from w0 = 0 halts after at most T ≤ "
            f"{bound_text(certificate.bound_updates)} updates (Novikoff's bound)")
