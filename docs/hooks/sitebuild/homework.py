"""The Homework page (docs/homework.md): the HW1 questions of "Machine Learning Foundations",
answered at build time on data the project makes in the same shape.

The questions are :data:`verify.cli.homework.QUESTIONS` (the ``pla homework hw1`` command runs
them on the reader's own files).  The page's data are *samples*, named ``sample_*.dat`` so that
no one takes their answers for the homework's: they are made by the real ``pla make-data``
command with the arguments in :data:`SEPARABLE_DATA` and :data:`NOISY_DATA` -- the same
commands the page shows (a test checks that they agree).  Each question is a :class:`Question`: the ``pla`` options that encode its
conventions, run through the experiment machinery of :mod:`pla.experiments` (the code behind
``pla run --runs`` and ``pla pocket --runs``, with the same seeds: run k uses seed 0 + 1000003·k),
so every answer is exact and equals what the page's commands print.  ``docs/hooks/homework.py``
replaces ``<!-- homework-answers -->`` and ``<!-- homework-variants -->`` by the tables below and
adds the histogram ``figures/homework-update-counts.png``.

>>> [q.number for q in QUESTIONS]
[15, 16, 17, 18, 19, 20]
>>> QUESTIONS[3].command("sample_18_train.dat", "sample_18_test.dat")
'pla pocket sample_18_train.dat --test sample_18_test.dat --updates 50 --order random --zero negative --runs 2000'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from verify.cli.homework import QUESTIONS, RUNS, Question

__all__ = ["SEPARABLE_DATA", "NOISY_DATA", "RUNS", "Question", "QUESTIONS", "VARIANTS",
           "Answer", "HomeworkData", "make_homework_data", "answer", "answer_all",
           "answers_table", "variants_table", "update_counts_figure", "ANSWERS_MARKER",
           "VARIANTS_MARKER", "SAMPLE_CAPTION", "SAMPLE_ROW_NOTE", "expand_homework_markers"]

#: ``pla make-data ... sample_15.dat``: 400 separable points in 4 dimensions.
SEPARABLE_DATA = ("--n", "400", "--d", "4", "--margin", "1/20", "--seed", "15")
#: ``pla make-data ... sample_18_train.dat``: 500 + 500 points in 4 dimensions, 10% labels flipped.
NOISY_DATA = ("--n", "500", "--d", "4", "--margin", "0", "--flip", "1/10", "--seed", "18",
              "--test-out", "sample_18_test.dat")

ANSWERS_MARKER = re.compile(r"<!--\s*homework-answers\s*-->")
VARIANTS_MARKER = re.compile(r"<!--\s*homework-variants\s*-->")


#: What changes if a convention differs: (question, what differs, options).
VARIANTS = (
    Question(15, "run", ("--order", "cyclic"), "pla's default sign(0): a zero score is a mistake"),
    Question(15, "run", ("--order", "first", "--zero", "negative"),
             "rescan from the first point after every update"),
    Question(16, "runs", ("--order", "random-cycle"),
             "pla's default sign(0): a zero score is a mistake"),
)


@dataclass(frozen=True)
class HomeworkData:
    """The three data sets (exact :class:`pla.Dataset`) and their files."""

    separable: Any
    train: Any
    test: Any
    directory: Path


@dataclass(frozen=True)
class Answer:
    """The exact answer to one :class:`Question`.

    ``value`` is the number of updates (``run``), the mean number of updates (``runs``) or
    the mean test error (``pocket``), exact; ``counts`` the update count of every run
    (``runs`` only); ``halted`` how many runs ended with no mistake left.
    """

    question: Question
    value: Fraction
    runs: int
    halted: int
    counts: tuple[int, ...] = ()


def make_homework_data(directory: Path) -> HomeworkData:
    """Make the page's files with the real ``pla make-data`` (as the page does) and load them."""
    import pla
    from sitebuild.commands import CommandFailed, run_command

    directory.mkdir(parents=True, exist_ok=True)
    for argv in (["pla", "make-data", *SEPARABLE_DATA, "sample_15.dat"],
                 ["pla", "make-data", *NOISY_DATA, "sample_18_train.dat"]):
        made = run_command(argv, directory)
        if made.status != 0:
            raise CommandFailed(made.display, made.status, 0, made.output)
    return HomeworkData(separable=pla.load(str(directory / "sample_15.dat")),
                        train=pla.load(str(directory / "sample_18_train.dat")),
                        test=pla.load(str(directory / "sample_18_test.dat")), directory=directory)


def answer(question: Question, data: HomeworkData, runs: int = RUNS, jobs: int = 1,
           pocket_studies: dict[tuple[str, ...], Any] | None = None) -> Answer:
    """Answer one question exactly with :mod:`pla.experiments` (seeds as ``--runs`` uses them).

    Pocket questions that differ only by ``--last`` share one experiment (pass the same
    ``pocket_studies`` dict): the walk is the same, ``--last`` only returns its last wₜ, whose
    test error is then counted exactly (:class:`pla.pocket.MistakeCounter`) -- what
    ``pla pocket --last`` prints, at half the cost.
    """
    import pla
    from pla.experiments import repeat_pla, repeat_pocket
    from pla.pocket import MistakeCounter, PocketOptions, integer_weights

    order, zero = question.option("order", "cyclic"), question.option("zero", "mistake")
    eta = Fraction(question.option("eta", "1"))
    if question.kind == "run":
        result = pla.run(data.separable, order, eta=eta, zero=zero, keep_steps=False)
        return Answer(question, Fraction(result.updates), 1, int(result.halted),
                      (result.updates,))
    if question.kind == "runs":
        study = repeat_pla(data.separable, pla.RunOptions(order=order, eta=eta, zero=zero),
                           runs, seed=0, jobs=jobs)
        return Answer(question, study.mean_updates, runs, study.halted_runs,
                      tuple(study.counts))
    updates = question.option("updates", "50")
    studies = pocket_studies if pocket_studies is not None else {}
    key = (updates, order, zero, str(eta))
    if key not in studies:
        options = PocketOptions(updates=int(updates), order=order, eta=eta, zero=zero)
        studies[key] = repeat_pocket(data.train, options, runs, seed=0, test=data.test,
                                     jobs=jobs)
    study = studies[key]
    if "--last" in question.options:
        counter = MistakeCounter(data.test, zero)
        errors = [Fraction(counter.count(integer_weights(r.last_w)), data.test.n)
                  for r in study.runs]
    else:
        errors = list(study.test_errors)
    mean = sum(errors, Fraction(0)) / len(errors)
    return Answer(question, mean, runs, sum(1 for r in study.runs if r.halted))


def answer_all(data: HomeworkData, runs: int = RUNS, jobs: int = 1
               ) -> tuple[tuple[Answer, ...], tuple[Answer, ...]]:
    """The answers to :data:`QUESTIONS` and to :data:`VARIANTS`."""
    studies: dict[tuple[str, ...], Any] = {}
    return (tuple(answer(q, data, runs, jobs, studies) for q in QUESTIONS),
            tuple(answer(q, data, runs, jobs, studies) for q in VARIANTS))


def _shown(a: Answer) -> str:
    value = a.value
    if a.question.kind == "run":
        return str(value)
    decimals = 4 if a.question.kind == "pocket" else 2
    exact = "" if value.denominator == 1 else f" (exactly {value})"
    return f"{float(value):.{decimals}f}{exact}"


def _files(question: Question) -> tuple[str, str | None]:
    if question.kind == "pocket":
        return "sample_18_train.dat", "sample_18_test.dat"
    return "sample_15.dat", None


#: The caption of the answers table, and the note in each of its rows: these are not the
#: homework's answers (a test checks that both are on the page).
SAMPLE_CAPTION = ("**Sample data, not the homework's answers.**  These numbers come from this "
                  "site's generated files `sample_15.dat`, `sample_18_train.dat` and "
                  "`sample_18_test.dat`; the course's own files give other numbers.  For yours, "
                  "run `pla homework hw1` on your files (above).")
SAMPLE_ROW_NOTE = "(sample data — not the homework's answer)"


def answers_table(answers: tuple[Answer, ...]) -> str:
    """The Markdown table of the answers on the sample data, with its warning caption, the
    warning in each row, and the command that reproduces each.

    >>> q = QUESTIONS[0]
    >>> print(answers_table((Answer(q, Fraction(9), 1, 1, (9,)),)).splitlines()[-1])
    | 15 | number of updates of the naive cycle | 9 (sample data — not the homework's answer) | `pla run sample_15.dat --order cyclic --zero negative` |
    """
    lines = [SAMPLE_CAPTION, "",
             "| question | asks | answer on the sample data | command on the sample files |",
             "|---|---|---|---|"]
    for a in answers:
        lines.append(f"| {a.question.number} | {a.question.asks} | {_shown(a)} {SAMPLE_ROW_NOTE} | "
                     f"`{a.question.command(*_files(a.question))}` |")
    return "\n".join(lines)


def variants_table(variants: tuple[Answer, ...], answers: tuple[Answer, ...]) -> str:
    """The Markdown table of the variants next to the homework's answers."""
    by_number = {a.question.number: a for a in answers}
    lines = ["| question | if instead ... | answer (sample data) | "
             "homework's convention (sample data) | command |",
             "|---|---|---|---|---|"]
    for v in variants:
        q = v.question
        lines.append(f"| {q.number} | {q.asks} | {_shown(v)} | {_shown(by_number[q.number])} | "
                     f"`{q.command(*_files(q))}` |")
    return "\n".join(lines)


def expand_homework_markers(markdown: str, answers: tuple[Answer, ...],
                            variants: tuple[Answer, ...]) -> str:
    """Replace the two markers of the page by their tables."""
    markdown = ANSWERS_MARKER.sub(lambda _: answers_table(answers), markdown)
    return VARIANTS_MARKER.sub(lambda _: variants_table(variants, answers), markdown)


def update_counts_figure(answers: tuple[Answer, ...]) -> Any:
    """Histogram of the update counts of question 16's runs (and 17's, which are the same)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pla.experiments import histogram

    by_number = {a.question.number: a for a in answers}
    q16, q17 = by_number[16], by_number[17]
    bins = histogram(list(q16.counts), max_bins=40)
    fig, ax = plt.subplots(figsize=(7.2, 3.8))
    ax.bar([(low + high) / 2 for low, high, _ in bins], [count for _, _, count in bins],
           width=[high - low + 1 for low, high, _ in bins], color="#1f77b4", edgecolor="white",
           linewidth=0.4)
    mean = q16.value
    ax.axvline(float(mean), color="#d62728", linewidth=1.5,
               label=f"mean {float(mean):.2f} (exactly {mean})")
    same = "identical" if q16.counts == q17.counts else "different"
    ax.set_xlabel("number of updates before PLA halts")
    ax.set_ylabel("runs")
    ax.set_title(f"{q16.runs} random cycles (seeds 0 + 1000003 k), sign(0) = -1; "
                 f"eta = 1/2 gives {same} counts", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
