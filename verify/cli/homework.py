"""``pla homework hw1 DATA [TRAIN TEST]``: questions 15-20 of homework 1 on your files, checked.

Homework 1 of "Machine Learning Foundations" (NTU) asks, on one separable file, for the update
count of the naive cyclic PLA (15) and the mean count over 2000 random cycles with η = 1 (16)
and η = 0.5 (17); on a noisy training file and a test file, for the mean test error over 2000
runs of Pocket after 50 updates (18), of the last w after 50 updates (19) and of Pocket after
100 updates (20).  :data:`QUESTIONS` holds each question as ``pla`` options (the homework's
conventions: sign(0) = -1, w₀ = 0, x₀ = 1); this command runs them and prints every answer
exactly, with the seeds of its runs, and checks every run:

- PLA runs (15-17) as ``pla run --check`` does: every inequality of the convergence proof,
  exactly, at every update, against one kernel-checked max-margin separator of the data;
- Pocket runs (18-20) as ``pla pocket`` does: the pocket's mistakes never increase, ``pla.run``
  replays the walk, the kernel recounts the training and test mistakes.

A failed check is exit code 4 with one line naming the question, the run's seed and the
inequality.  The Homework page of the documentation shows the same questions (it imports
:data:`QUESTIONS`) answered on generated sample data.

>>> [q.number for q in QUESTIONS]
[15, 16, 17, 18, 19, 20]
>>> QUESTIONS[1].command("hw1_15_train.dat")
'pla run hw1_15_train.dat --order random-cycle --zero negative --runs 2000'
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

__all__ = ["Question", "QUESTIONS", "RUNS", "QuestionAnswer", "register", "handle",
           "answer_pla_question", "answer_pocket_question", "checked_pla_run"]

#: Runs of every repeated experiment (the homework's 2000).
RUNS = 2000


@dataclass(frozen=True)
class Question:
    """One homework question as ``pla`` options.

    ``kind`` is ``run`` (one PLA run), ``runs`` (PLA, ``RUNS`` seeded runs) or ``pocket``
    (Pocket, ``RUNS`` seeded runs, test error).  ``options`` are the ``pla`` command-line
    options, in order; ``asks`` says what the question asks for.
    """

    number: int
    kind: str
    options: tuple[str, ...]
    asks: str

    def command(self, data: str, test: str | None = None, runs: int = RUNS) -> str:
        """The ``pla`` command that answers the question on file ``data`` (and ``test``)."""
        if self.kind == "pocket":
            return " ".join(("pla", "pocket", data, "--test", str(test), *self.options,
                             "--runs", str(runs)))
        repeated = ("--runs", str(runs)) if self.kind == "runs" else ()
        return " ".join(("pla", "run", data, *self.options, *repeated))

    def option(self, name: str, default: str) -> str:
        """The value of ``--name`` in :attr:`options` (``default`` when absent)."""
        flag = f"--{name}"
        return self.options[self.options.index(flag) + 1] if flag in self.options else default


QUESTIONS = (
    Question(15, "run", ("--order", "cyclic", "--zero", "negative"),
             "number of updates of the naive cycle"),
    Question(16, "runs", ("--order", "random-cycle", "--zero", "negative"),
             "average number of updates over 2000 random cycles"),
    Question(17, "runs", ("--order", "random-cycle", "--zero", "negative", "--eta", "1/2"),
             "the same with eta = 0.5"),
    Question(18, "pocket", ("--updates", "50", "--order", "random", "--zero", "negative"),
             "average test error of the pocket after 50 updates"),
    Question(19, "pocket", ("--updates", "50", "--order", "random", "--zero", "negative",
                            "--last"),
             "average test error of w_50, the last w instead of the pocket"),
    Question(20, "pocket", ("--updates", "100", "--order", "random", "--zero", "negative"),
             "average test error of the pocket after 100 updates"),
)


@dataclass(frozen=True)
class QuestionAnswer:
    """The exact answer to one question on the reader's files, and what was checked.

    ``value``: the update count (15), the mean update count (16, 17) or the mean test error
    (18-20), exact; ``seeds``: the seed of every run; ``checks``: how many inequalities (PLA)
    or runs (Pocket) were checked; ``halted``: runs that ended with no training mistake.
    """

    question: Question
    value: Fraction
    seeds: tuple[int, ...]
    checks: int
    halted: int


def _run_options(question: Question) -> Any:
    import pla

    return pla.RunOptions(order=question.option("order", "cyclic"),
                          eta=Fraction(question.option("eta", "1")),
                          zero=question.option("zero", "mistake"))


def checked_pla_run(dataset: Any, options: Any, separator: Any, seed: int
                    ) -> tuple[int, int, bool, int]:
    """One PLA run with seed ``seed``, every proof inequality checked as ``pla run --check``
    does; (seed, updates, halted, inequalities checked).  Raises
    :class:`~verify.checks.monitor.ProofViolation` when one fails."""
    import pla
    from verify.checks.checked_run import prepare_monitor

    run_options = replace(options, seed=seed)
    monitor = prepare_monitor(dataset, run_options, separator=separator)
    with monitor.deferred_checks():
        result = pla.run(dataset, options=run_options, keep_steps=False,
                         on_scaled_update=monitor.on_scaled_update_deferred)
    report = monitor.finish(result)
    return seed, result.updates, result.halted, report.checks


def answer_pla_question(question: Question, dataset: Any, runs: int = RUNS, seed: int = 0,
                        jobs: int = 1, separator: Any = None) -> QuestionAnswer:
    """Answer question 15, 16 or 17 on ``dataset``, checking every run."""
    from functools import partial

    from pla.experiments import parallel_map, run_seeds
    from verify.checks.checked_run import reference_separator

    if separator is None:
        separator = reference_separator(dataset)
    seeds = [seed] if question.kind == "run" else list(run_seeds(seed, runs))
    task = partial(checked_pla_run, dataset, _run_options(question), separator)
    done = parallel_map(task, seeds, jobs if len(seeds) > 1 else 1)
    counts = [updates for _, updates, _, _ in done]
    return QuestionAnswer(question, Fraction(sum(counts), len(counts)), tuple(seeds),
                          sum(checks for *_, checks in done),
                          sum(1 for _, _, halted, _ in done if halted))


def answer_pocket_question(question: Question, train: Any, test: Any, runs: int = RUNS,
                           seed: int = 0, jobs: int = 1) -> QuestionAnswer:
    """Answer question 18, 19 or 20: ``runs`` Pocket runs, each checked as ``pla pocket`` does."""
    from pla.experiments import repeat_pocket
    from pla.pocket import PocketOptions
    from verify.checks.pocket import checked_pocket_run

    options = PocketOptions(updates=int(question.option("updates", "50")),
                            order=question.option("order", "random"),
                            zero=question.option("zero", "mistake"),
                            keep="last" if "--last" in question.options else "pocket")
    study = repeat_pocket(train, options, runs, seed=seed, test=test, jobs=jobs,
                          task=checked_pocket_run)
    errors = list(study.test_errors)
    return QuestionAnswer(question, sum(errors, Fraction(0)) / len(errors),
                          tuple(r.seed for r in study.runs), len(study.runs),
                          sum(1 for r in study.runs if r.halted))


def register(subparsers: Any) -> argparse.ArgumentParser:
    from verify.cli.data_arguments import add_data_arguments, positive_int
    from verify.cli.experiment_output import job_count

    parser = subparsers.add_parser(
        "homework", help="questions 15-20 of homework 1 on your files, every run checked",
        description="Run the PLA and Pocket questions of homework 1 of Machine Learning "
                    "Foundations with the homework's conventions (sign(0) = -1, w0 = 0, x0 = 1, "
                    "cyclic / random-cycle / random visits) and print every answer exactly, "
                    "with the seeds of its runs.  Questions 15-17 use DATA (the separable "
                    "file); 18-20 need TRAIN and TEST (the noisy files).  Every PLA run is "
                    "checked as `pla run --check` does, every Pocket run as `pla pocket` does; "
                    "exit code 4 when a check fails.",
    )
    parser.add_argument("homework", choices=("hw1",), help="the homework (hw1)")
    add_data_arguments(parser, help="the separable data of questions 15-17")
    parser.add_argument("train", metavar="TRAIN", nargs="?",
                        help="the noisy training data of questions 18-20")
    parser.add_argument("test", metavar="TEST", nargs="?",
                        help="the test data of questions 18-20")
    parser.add_argument("--runs", type=positive_int, default=RUNS, metavar="K",
                        help=f"runs of every repeated question (default {RUNS}, the homework's)")
    parser.add_argument("--seed", type=int, default=0,
                        help="base seed; run k uses seed S + 1000003*k (default 0)")
    parser.add_argument("--jobs", type=job_count, default=1, metavar="J",
                        help="worker processes (default 1; 0 = one per CPU); the answers do not "
                             "depend on J")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=handle)
    return parser


def _shown(answer: QuestionAnswer) -> str:
    from verify.cli.experiment_output import exact_and_decimal

    return exact_and_decimal(answer.value, 4 if answer.question.kind == "pocket" else 2)


def handle(args: argparse.Namespace) -> int:
    from verify.checks.monitor import ProofViolation
    from verify.checks.pocket import PocketCheckFailed
    from verify.cli.data_arguments import load_dataset
    from verify.cli.exit_codes import PROOF_VIOLATION
    from verify.cli.experiment_output import jobs_from_args, seed_rule_text
    from verify.cli.usage import UsageError

    if (args.train is None) != (args.test is None):
        raise UsageError("questions 18-20 need both TRAIN and TEST (give DATA alone for 15-17)")
    jobs = jobs_from_args(args)
    data = load_dataset(args, "data")
    train = load_dataset(args, "train") if args.train else None
    test = load_dataset(args, "test") if args.test else None
    answers: list[QuestionAnswer] = []
    question = QUESTIONS[0]
    try:
        from verify.checks.checked_run import reference_separator

        separator = reference_separator(data)
        if not separator.separable:        # else 2 x RUNS runs, each to its budget
            from pla.dataset import DataError

            raise DataError(args.data, None, "not linearly separable (Gordan certificate "
                            "checked by the kernel); questions 15-17 need the separable file")
        for question in QUESTIONS:
            if question.kind == "pocket":
                if train is not None:
                    answers.append(answer_pocket_question(question, train, test, args.runs,
                                                          args.seed, jobs))
            else:
                answers.append(answer_pla_question(question, data, args.runs, args.seed, jobs,
                                                   separator))
    except (ProofViolation, PocketCheckFailed) as exc:
        print(f"pla: error: question {question.number}: check failed: {exc}", file=sys.stderr)
        return PROOF_VIOLATION
    if args.json:
        print(json.dumps({"homework": args.homework, "answers": [
            {"question": a.question.number, "asks": a.question.asks, "value": str(a.value),
             "runs": len(a.seeds), "seeds": seed_rule_text(a.seeds[0], len(a.seeds)),
             "halted_runs": a.halted, "checked": a.checks,
             "command": a.question.command(args.data if a.question.kind != "pocket"
                                           else args.train, args.test, len(a.seeds))}
            for a in answers]}, indent=1))
        return 0
    for a in answers:
        what = "inequalities of the proof" if a.question.kind != "pocket" else "runs"
        print(f"Q{a.question.number}  {a.question.asks}: {_shown(a)}")
        print(f"     {len(a.seeds)} run{'s' if len(a.seeds) > 1 else ''} "
              f"({seed_rule_text(a.seeds[0], len(a.seeds))}), {a.halted} halted; "
              f"checked: {a.checks} {what}, 0 violations")
    if train is None:
        print("Q18-20 need TRAIN and TEST: pla homework hw1 DATA TRAIN TEST")
    return 0
