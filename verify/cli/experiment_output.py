"""Shared pieces of the multi-run commands (``pla pocket``, ``pla run --runs``): options, numbers.

>>> decimal_text(Fraction(1, 3))
'0.3333'
>>> exact_and_decimal(Fraction(61, 500))
'0.1220 (61/500)'
"""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, Iterator

from pla.files import shown_path
from pla.experiments import SEED_STRIDE, default_jobs
from verify.cli.usage import UsageError
from verify.cli.data_arguments import non_negative_int, positive_int
from verify.cli.progress_bar import ProgressBar, progress_enabled

__all__ = ["decimal_text", "exact_and_decimal", "add_run_count_arguments",
           "add_backend_arguments", "jobs_from_args",
           "experiment_executor", "workers_text",
           "check_runs_need_random_order",
           "progress_bar", "seed_rule_text", "gordan_certificate",
           "certificate_notice",
           "run_count", "job_count", "MAX_RUNS", "MAX_JOBS"]


def decimal_text(value: Fraction, places: int = 4) -> str:
    """``value`` rounded (half to even, exactly) to ``places`` decimals, as text.

    >>> decimal_text(Fraction(-1, 8), 2), decimal_text(Fraction(2), 1)
    ('-0.12', '2.0')
    """
    scaled = round(Fraction(value) * 10**places)
    sign = "-" if scaled < 0 else ""
    whole, rest = divmod(abs(scaled), 10**places)
    return f"{sign}{whole}.{rest:0{places}d}" if places else f"{sign}{whole}"


def exact_and_decimal(value: Fraction, places: int = 4) -> str:
    """A rounded decimal for reading, followed by the exact value: ``0.1220 (61/500)``."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value)
    return f"{decimal_text(value, places)} ({value})"


#: At most this many runs (every run's result is kept in memory, about 200 bytes each).
MAX_RUNS = 1_000_000
#: At most this many worker processes.
MAX_JOBS = 256


def run_count(text: str) -> int:
    """argparse type of ``--runs``: 1 ≤ K ≤ MAX_RUNS.

    >>> run_count("10")
    10
    """
    value = positive_int(text)
    if value > MAX_RUNS:
        raise argparse.ArgumentTypeError(f"at most {MAX_RUNS:,} runs (every run's result is "
                                         f"kept in memory), not {value:,}")
    return value


def job_count(text: str) -> int:
    """argparse type of ``--jobs``: 0 ≤ J ≤ MAX_JOBS.

    >>> job_count("0")
    0
    """
    value = non_negative_int(text)
    if value > MAX_JOBS:
        raise argparse.ArgumentTypeError(f"at most {MAX_JOBS} worker processes, not {value:,}")
    return value


def add_run_count_arguments(group: argparse._ArgumentGroup, *, runs_default: int | None) -> None:
    """``--runs K``, then :func:`add_backend_arguments`."""
    group.add_argument("--runs", type=run_count, default=runs_default, metavar="K",
                       help=f"K independent runs (at most {MAX_RUNS:,}); run k uses the seed "
                            f"S + {SEED_STRIDE:,}*k (k = 0..K-1), so run 0 is the single run "
                            "with --seed S" + (f" (default {runs_default})" if runs_default
                                               else ""))
    add_backend_arguments(group, "runs")


def add_backend_arguments(group: argparse._ArgumentGroup, work: str) -> None:
    """``--jobs J``, ``--cluster SPEC`` and ``--quiet``: who computes the ``work`` (runs,
    claims) and whether a progress bar is drawn; the results never depend on them."""
    group.add_argument("--jobs", type=job_count, default=1, metavar="J",
                       help=f"worker processes (default 1; 0 = one per CPU; at most {MAX_JOBS}); "
                            "the results do not depend on J")
    group.add_argument("--cluster", metavar="SPEC", default=None,
                       help=f"compute the {work} on a Dask cluster instead of --jobs processes: "
                            "tcp://HOST:8786 (a running dask scheduler) or local:N (start N "
                            "local workers); needs pip install 'pla-verify[cluster]'; the "
                            "results do not depend on it")
    group.add_argument("--quiet", action="store_true",
                       help="no progress bar (it is drawn on stderr only when stderr is a "
                            "terminal)")


def check_runs_need_random_order(runs: int, order: str) -> None:
    """K > 1 runs differ only through their seeds, which only the random orders use."""
    if runs > 1 and not order.startswith("random"):
        raise UsageError(f"--runs {runs} with --order {order}: the seed has no effect on this "
                         "order, so every run would be the same; use --order random-cycle or "
                         "--order random")


def jobs_from_args(args: argparse.Namespace) -> int:
    """``--jobs``, with 0 meaning one process per available CPU."""
    return args.jobs if args.jobs > 0 else default_jobs()


@contextmanager
def experiment_executor(args: argparse.Namespace) -> Iterator[Any]:
    """None (the runs go to ``--jobs`` local processes), or with ``--cluster SPEC`` the
    executor of a Dask client (:func:`pla.cluster.dask_executor`; Dask imported only then; a
    bad SPEC, a missing Dask or a silent scheduler is an :class:`pla.OptionError`, exit 2)."""
    spec = getattr(args, "cluster", None)
    if spec is None:
        yield None
        return
    from pla.cluster import dask_executor

    with dask_executor(spec) as executor:
        yield executor


def workers_text(args: argparse.Namespace, jobs: int) -> str:
    """Who made the runs, for the human output: ``2 processes`` or ``Dask cluster local:2``.

    >>> workers_text(argparse.Namespace(cluster=None), 1)
    '1 process'
    """
    spec = getattr(args, "cluster", None)
    if spec is not None:
        return f"Dask cluster {spec}"
    return f"{jobs} process{'es' if jobs > 1 else ''}"


def progress_bar(args: argparse.Namespace, label: str) -> ProgressBar:
    """A bar on stderr, enabled when stderr is a terminal and ``--quiet`` is not given."""
    return ProgressBar(label, stream=sys.stderr,
                       enabled=progress_enabled(sys.stderr, getattr(args, "quiet", False)))


def seed_rule_text(seed: int, runs: int) -> str:
    """How the seeds of the runs were derived, for the human output.

    >>> seed_rule_text(3, 1), seed_rule_text(0, 2000)
    ('seed 3', 'seeds 0 + 1000003*k, k = 0..1999')
    """
    if runs == 1:
        return f"seed {seed}"
    return f"seeds {seed} + {SEED_STRIDE}*k, k = 0..{runs - 1}"


def certificate_notice(found: Any, dataset: Any, data_argument: str, max_updates: int | None,
                       zero: str) -> str:
    """A message for data certified non-separable (a kernel-checked Gordan certificate
    ``found``), saying exactly what that proves about halting under ``zero``
    (:mod:`verify.cli.gordan_halting`); ``max_updates`` None: the run is not started, so nothing
    is said about where it stops."""
    from verify.cli.gordan_halting import cannot_halt, halting_sentence

    support_labels = [dataset.labels[i] for i in found.support]
    rows = len(found.support)
    if max_updates is None:
        then = ""
    elif cannot_halt(zero, support_labels):
        then = f"; it will stop at --max-updates {max_updates:,}"
    else:
        then = f"; it may halt or stop at --max-updates {max_updates:,}"
    return (f"pla: the data are NOT linearly separable: no w classifies every example (a Gordan "
            f"certificate, lambda >= 0 on {rows} rows with sum lambda_n y_n x_n = 0, checked by "
            f"the kernel)\n"
            f"pla: {halting_sentence(zero, support_labels)}{then}\n"
            f"pla: `pla certify {shown_path(data_argument)}` shows the certificate; "
            f"`pla pocket {shown_path(data_argument)} --updates N` keeps the best w it meets")


def gordan_certificate(dataset: Any) -> Any:
    """The kernel-checked Gordan certificate of ``dataset`` (``NonSeparable``), or None when the
    data are separable, the search fails, or no certificate code is available."""
    try:
        from verify.search.certificates import NonSeparable, certify
    except ModuleNotFoundError:  # pragma: no cover - certificates not part of this build
        return None
    try:
        verdict = certify(dataset, method="lp")
    except Exception:  # untrusted search failed: say nothing rather than something unchecked
        return None
    return verdict if isinstance(verdict, NonSeparable) else None
