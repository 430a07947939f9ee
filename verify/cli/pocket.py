"""``pla pocket``: the exact Pocket algorithm, one run or K seeded runs in parallel, checked.

Every run is checked independently (:mod:`verify.checks.pocket`): the pocket's mistakes never
increase, PLA replayed by :func:`pla.run` reaches the pocket and the last wₜ, and the trusted
kernel recounts the training and test mistakes.  Exit codes: 0 ok, 2 bad input, 4 a check failed.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from typing import TYPE_CHECKING

import pla
from pla.files import shown_path
from pla.dataset import Dataset
from pla.defaults import POCKET_DEFAULTS
from pla.exact import format_count, format_vector
from verify.cli.data_arguments import add_data_arguments, load_dataset, non_negative_int
from verify.cli.run import add_eta_and_w0_arguments
from verify.cli.experiment_output import (
    add_run_count_arguments, check_runs_need_random_order, exact_and_decimal, experiment_executor,
    jobs_from_args, progress_bar, seed_rule_text, workers_text,
)

if TYPE_CHECKING:  # imported by the handler: building the parser stays cheap (no numpy, kernel)
    from pla.experiments import PocketExperiment
    from pla.pocket import PocketOptions, PocketResult

#: pla.pocket.COMPARES (checked by the tests), spelled out so that the parser needs no numpy.
COMPARE_CHOICES = ("pocket", "previous")

__all__ = ["register", "handle", "experiment_json", "run_json", "pocket_coq_text"]

def register(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "pocket", help="the Pocket algorithm for non-separable data (many seeded runs)",
        description="Run PLA for --updates N updates and keep in the pocket the w with the "
                    "fewest training mistakes met so far (replaced only by a w with strictly "
                    "fewer; the pocket starts as w0).  Errors are exact (mistakes / N).  With "
                    "--runs K, K independent runs with derived seeds, over --jobs processes; "
                    "every run is checked (the kernel recounts the mistakes, pla.run replays "
                    "the walk).  Exit code 4 when a check fails.",
    )
    add_data_arguments(parser, name="train", help="the training data file")
    parser.add_argument("--test", metavar="TEST",
                        help="test data (read with the same options): report the test error")
    group = parser.add_argument_group("the algorithm")
    group.add_argument("--updates", type=non_negative_int, required=True, metavar="N",
                       help="number of PLA updates (visits that find a mistake); fewer when "
                            "some w_t makes no training mistake")
    group.add_argument("--order", choices=pla.ORDERS, default=POCKET_DEFAULTS["order"],
                       help="random-cycle: one seeded permutation, then cyclic; "
                            "random: a seeded random point at each visit (a visit to a correct "
                            "point is not an update); cyclic: 1..N; first: rescan from the "
                            f"first point after every update (default {POCKET_DEFAULTS['order']})")
    group.add_argument("--seed", type=int, default=POCKET_DEFAULTS["seed"],
                       help=f"base seed (default {POCKET_DEFAULTS['seed']})")
    group.add_argument("--compare", choices=COMPARE_CHOICES, default=POCKET_DEFAULTS["compare"],
                       help="pocket (default, the algorithm): w_t+1 replaces the pocket when it "
                            "makes strictly fewer mistakes than the pocket; previous: the "
                            "literal variant of one of the notes, strictly fewer than w_t")
    group.add_argument("--last", action="store_true",
                       help="report the last w_t instead of the pocket (for comparison)")
    add_eta_and_w0_arguments(group, POCKET_DEFAULTS)
    group.add_argument("--zero", choices=pla.ZERO_CONVENTIONS, default=POCKET_DEFAULTS["zero"],
                       help="what a zero score means, on training and test data (default: "
                            "y w.x <= 0 is a mistake)")
    runs = parser.add_argument_group("repeated runs")
    add_run_count_arguments(runs, runs_default=1)
    out = parser.add_argument_group("output")
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--coq", metavar="FILE.v",
                     help="one run (--runs 1), --zero mistake: also write the training data, "
                          "the returned w and the theorem that it makes exactly its reported "
                          "training mistakes, as a Coq file coqc checks by computation")
    parser.set_defaults(handler=handle)
    return parser


def options_from_args(args: argparse.Namespace) -> PocketOptions:
    """The :class:`PocketOptions` described by the arguments."""
    from pla.pocket import PocketOptions
    from verify.cli.run import eta_and_w0_from_args

    eta, w0 = eta_and_w0_from_args(args)
    return PocketOptions(updates=args.updates, order=args.order, eta=eta, w0=w0, zero=args.zero,
                         compare=args.compare, keep="last" if args.last else POCKET_DEFAULTS["keep"])


def handle(args: argparse.Namespace) -> int:
    from pla.experiments import repeat_pocket
    from pla.pocket import PocketInvariantViolation
    from verify.checks.pocket import PocketCheckFailed, checked_pocket_run

    train = load_dataset(args, "train")
    test = load_dataset(args, "test") if args.test else None
    options = options_from_args(args)
    if args.coq:
        _check_coq_arguments(args, options)
    check_runs_need_random_order(args.runs, options.order)
    jobs = jobs_from_args(args)
    try:
        with experiment_executor(args) as executor, progress_bar(args, "pocket runs") as bar:
            study = repeat_pocket(train, options, args.runs, seed=args.seed, test=test, jobs=jobs,
                                  on_progress=bar, task=checked_pocket_run, executor=executor)
    except (PocketCheckFailed, PocketInvariantViolation) as exc:
        print(f"pla: {exc}", file=sys.stderr)
        return 4
    if args.json:
        print(json.dumps(experiment_json(train, test, study), indent=2))
    else:
        print_experiment(train, test, study, args, workers_text(args, jobs))
    if args.coq:
        _write_coq(args, train, study.runs[0], echo=not args.json)
    return 0


def _check_coq_arguments(args: argparse.Namespace, options: PocketOptions) -> None:
    from verify.cli.usage import UsageError

    if not args.coq.endswith(".v"):
        raise UsageError(f"--coq: {args.coq} must end in .v (Coq reads only .v files)")
    if args.runs != 1:
        raise UsageError("--coq writes one run: use --runs 1")
    if options.zero != "mistake":
        raise UsageError("--coq needs --zero mistake: the Coq count takes y w.x <= 0 as a "
                         "mistake")


def pocket_coq_text(train: Dataset, options: PocketOptions, seed: int) -> str:
    """The Coq file ``pla pocket TRAIN --coq F.v`` writes for these options and base seed: the
    checked run made again (``pla audit F.v --data TRAIN`` compares a file with it)."""
    from pla.experiments import repeat_pocket
    from verify.checks.pocket import checked_pocket_run
    from verify.coq.pocket_files import pocket_file

    result = repeat_pocket(train, options, 1, seed=seed, task=checked_pocket_run).runs[0]
    return pocket_file(train, result.w, result.mistakes)


def _write_coq(args: argparse.Namespace, train: Dataset, result: PocketResult,
               echo: bool) -> None:
    """Write the checked run's returned w and its training mistakes (:mod:`verify.coq.pocket_files`)."""
    from pla.files import write_text
    from verify.coq.library import check_command
    from verify.coq.pocket_files import pocket_file

    write_text(args.coq, pocket_file(train, result.w, result.mistakes),
               inputs=[path for path in (args.train, args.test) if path])
    print(f"coq      wrote {args.coq}; check it with: pla proof --coq DIR && make -C DIR && "
          f"{check_command('DIR', args.coq)}", file=sys.stdout if echo else sys.stderr)


# ----------------------------------------------------------------------------- JSON
def run_json(result: PocketResult) -> dict[str, Any]:
    """One run: the returned w's exact errors and how the pocket evolved."""
    return result.to_json()


def experiment_json(train: Dataset, test: Dataset | None, study: PocketExperiment
                    ) -> dict[str, Any]:
    """The ``--json`` object of ``pla pocket``."""
    from verify.checks.pocket import checks_made

    return {
        **study.to_json(),
        "n": train.n,
        "d": train.d,
        "dim": train.dim,
        "bias": train.bias,
        "data_sha256": train.fingerprint,
        "source": train.source,
        "test_n": None if test is None else test.n,
        "test_sha256": None if test is None else test.fingerprint,
        "test_source": None if test is None else test.source,
        "checks": list(checks_made(study.options.compare)),
    }


# ----------------------------------------------------------------------------- human output


def print_experiment(train: Dataset, test: Dataset | None, study: PocketExperiment,
                     args: argparse.Namespace, workers: str) -> None:
    from verify.cli.run import ZERO_CONVENTION_TEXT
    from verify.checks.pocket import checks_made

    o = study.options
    runs = study.runs
    bias = " (+ bias x0 = 1)" if train.bias else ""
    print(f"data     {shown_path(train.source)}: {format_count(train.n, 'example')}, "
          f"{format_count(train.d, 'feature')}{bias}, "
          f"sha256 {train.fingerprint[:16]}")
    if test is not None:
        print(f"test     {shown_path(test.source)}: {format_count(test.n, 'example')}, sha256 {test.fingerprint[:16]}")
    w0 = "0" if o.w0 is None else format_vector(o.w0)
    compare = "the pocket" if o.compare == "pocket" else "the previous w_t (literal variant)"
    print(f"options  {format_count(o.updates, 'update')}, order {o.order}, eta {o.eta}, w0 {w0}; "
          f"{ZERO_CONVENTION_TEXT[o.zero]}; w_t+1 compared with {compare}")
    returned = "the last w_t (--last)" if o.keep == "last" else "the pocket"
    if len(runs) == 1:
        r = runs[0]
        print(f"runs     1 ({seed_rule_text(study.base_seed, 1)}); returned: {returned}")
        halted = " (stopped early: w_t makes no training mistake)" if r.updates < o.updates else ""
        print(f"pocket   w_{r.pocket_t}, replaced {format_count(r.pocket_updates, 'time')} in "
              f"{format_count(r.updates, 'update')}{halted}")
        print(f"w        {format_vector(r.w)}   (bias first)")
        print(f"train    error {exact_and_decimal(r.error)}: {r.mistakes} of {r.n} mistakes "
              f"(the last w_{r.updates} makes {r.last_mistakes})")
        if r.test_error is not None:
            print(f"test     error {exact_and_decimal(r.test_error)}: {r.test_mistakes} of "
                  f"{r.test_n} mistakes")
    else:
        print(f"runs     {len(runs)} ({seed_rule_text(study.base_seed, len(runs))}), "
              f"{workers}; returned: {returned}")
        table = [("", "mean", "min", "max")]
        errors = study.train_errors
        table.append(("train error", exact_and_decimal(study.mean_train_error),
                      exact_and_decimal(min(errors)), exact_and_decimal(max(errors))))
        if study.has_test:
            tests = study.test_errors
            mean_test = study.mean_test_error
            table.append(("test error", exact_and_decimal(mean_test) if mean_test is not None
                          else "-", exact_and_decimal(min(tests)), exact_and_decimal(max(tests))))
        replaced = [r.pocket_updates for r in runs]
        table.append(("pocket replaced", exact_and_decimal(study.mean_pocket_updates, 2),
                      str(min(replaced)), str(max(replaced))))
        widths = [max(len(row[i]) for row in table) for i in range(4)]
        for row in table:
            print("  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                   for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        early = sum(1 for r in runs if r.updates < o.updates)
        if early:
            print(f"         {early} run(s) stopped early: some w_t made no training mistake")
    print("checked  on every run: " + ";\n         ".join(checks_made(o.compare)))
