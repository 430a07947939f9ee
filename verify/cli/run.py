"""``pla run``: one exact PLA run, with its steps, trace and summary."""

from __future__ import annotations

import argparse
import time
from contextlib import contextmanager, nullcontext
from dataclasses import replace
import json
import sys
from collections import deque
from fractions import Fraction
from typing import Any, Iterator, Sequence

import pla
from pla.dataset import Dataset
from pla.defaults import RUN_DEFAULTS
from pla.exact import NumberError, format_count, format_vector, parse_fraction
from pla.perceptron import DEFAULT_MAX_UPDATES, Result, RunOptions, Step
from pla.files import shown_path
from pla.trace import (MAX_TRACE_BYTES, TraceWriter, header_record, step_record,
                       summary_record)
from verify.cli.usage import UsageError
from verify.cli.data_arguments import (add_data_arguments, load_dataset, non_negative_int,
                                            positive_int, positive_seconds)

__all__ = ["register", "handle", "options_from_args", "result_json",
           "STEPS_HEAD", "STEPS_TAIL"]

#: ``--steps`` shows the first STEPS_HEAD and the last STEPS_TAIL updates of a long run.
STEPS_HEAD = 20
STEPS_TAIL = 5
#: Data up to this many entries (n x dim) get the non-separability check before the run.
NOTICE_BEFORE_RUN_MAX_ENTRIES = 20_000
#: Data above this many entries (n x dim) get no non-separability search after a run that did
#: not halt: the exact LP would need gigabytes (measured: 6.6 GB for 2 x 5,000,000).
NOTICE_AFTER_RUN_MAX_ENTRIES = 1_000_000
#: The probe run before the non-separability search allows this many updates per example.
PROBE_UPDATES_PER_EXAMPLE = 10

ZERO_CONVENTION_TEXT = {
    "mistake": "a zero score is a mistake (y w.x <= 0)",
    "positive": "sign(0) = +1",
    "negative": "sign(0) = -1",
    "correct": "a zero score is never a mistake (y w.x < 0)",
}


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "run", help="run PLA exactly on a data file",
        description="Run the Perceptron Learning Algorithm in exact arithmetic on DATA and "
                    "report the final w, the number of updates and epochs.  Exit code 3 when "
                    "--max-updates is reached without halting.",
    )
    add_data_arguments(parser)
    group = parser.add_argument_group("the algorithm")
    group.add_argument("--order", choices=pla.ORDERS, default=RUN_DEFAULTS["order"],
                       help="cyclic: 1..N, update and go on, halt after N consecutive "
                            "correct points; first: rescan from the first point after every "
                            "update; random-cycle: one seeded permutation, then cyclic; random: "
                            f"a seeded random point at each visit (default {RUN_DEFAULTS['order']})")
    group.add_argument("--seed", type=int, default=RUN_DEFAULTS["seed"],
                       help=f"seed for the random orders (default {RUN_DEFAULTS['seed']})")
    add_eta_and_w0_arguments(group, RUN_DEFAULTS)
    group.add_argument("--zero", choices=pla.ZERO_CONVENTIONS, default=RUN_DEFAULTS["zero"],
                       help="what a zero score w.x means: mistake (default: y w.x <= 0 is a "
                            "mistake), positive (sign(0) = +1), negative (sign(0) = -1), correct "
                            "(only y w.x < 0 is a mistake; from w0 = 0 nothing ever updates)")
    group.add_argument("--max-updates", type=non_negative_int, default=None,
                       metavar="N", help=f"stop after N updates (default {DEFAULT_MAX_UPDATES:,}); exit code 3. "
                                         "Without --max-updates or --timeout, a run that a "
                                         "kernel-checked Gordan certificate shows cannot halt "
                                         "under --zero is not started (exit code 3)")
    group.add_argument("--timeout", type=positive_seconds, metavar="SECONDS",
                       default=RUN_DEFAULTS["timeout"],
                       help="stop a run that has not halted after SECONDS (like --max-updates: "
                            "halted false, exit code 3)")
    group.add_argument("--engine", choices=pla.ENGINES, default=RUN_DEFAULTS["engine"],
                       help="default (integer arithmetic) or reference (plain Fractions)")
    out = parser.add_argument_group("output")
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--steps", action="store_true",
                     help=f"print a table of the updates (the first {STEPS_HEAD} and last "
                          f"{STEPS_TAIL} of a longer run)")
    out.add_argument("--max-trace-bytes", type=positive_int, default=MAX_TRACE_BYTES,
                     metavar="N", help="with --trace: stop the run like a budget (stopped_by "
                     f"max-trace-bytes) once the trace holds N bytes (default {MAX_TRACE_BYTES:,})")
    out.add_argument("--trace", metavar="FILE.jsonl",
                     help="write every step as JSON Lines (header, one line per update, summary)")
    proof = parser.add_argument_group("proof checks")
    proof.add_argument("--check", action="store_true",
                       help="check every inequality of the convergence proof exactly at every "
                            "update (exit code 4 and one line on stderr if one fails).  The "
                            "report counts the proof's inequalities: 9 per update with w_f (5 "
                            "without), plus 2 to 4 at the end; the same count `pla audit` "
                            "reports (comparisons of the engine's vectors are not counted)")
    proof.add_argument("--wf", default="maxmargin", metavar="maxmargin|maxmargin-exact|lp|final|FILE",
                       help="the reference separator w_f of the proof: maxmargin (default; the "
                            "tightest integer bound: the exact max-margin w* on small data, on "
                            "data of over 20,000 numbers a rounded float w* whose integer bound "
                            "the kernel proves equal to w*'s), maxmargin-exact (the exact w* "
                            "always), lp (a linear-programming "
                            "separator), final (the run's own final w, run then replayed) or a "
                            "file of weights (one number per line, bias first)")
    proof.add_argument("--paranoid", action="store_true",
                       help="with --check: also compare every vector of every update (w_t, "
                            "x_n, w_t+1) instead of the score at each update and the vectors "
                            "periodically")
    proof.add_argument("--coq", metavar="FILE.v",
                       help="with --check: write the data, the certificate of w_f and this run's "
                            "updates as a Coq file in which coqc replays the run and checks its "
                            "update count against Novikoff's bound (runs from w0 = 0 counting a "
                            "zero score as a mistake)")
    from verify.cli.run_experiments import add_arguments as add_repeated_runs_arguments
    add_repeated_runs_arguments(parser)  # --runs K --jobs J --quiet (verify/cli/run_experiments.py)
    parser.set_defaults(handler=handle)
    return parser


def add_eta_and_w0_arguments(group: Any, defaults: Any) -> None:
    """``--eta P/Q`` and ``--w0 zero|V0,V1,...`` of ``pla run`` and ``pla pocket``, with the
    defaults of :mod:`pla.defaults`."""
    group.add_argument("--eta", default=str(defaults["eta"]), metavar="P/Q",
                       help=f"positive rational learning rate (default {defaults['eta']})")
    w0 = "zero" if defaults["w0"] is None else ",".join(str(v) for v in defaults["w0"])
    group.add_argument("--w0", default=w0, metavar="zero|V0,V1,...",
                       help=f"initial weights, exact, bias first (default {w0})")


def eta_and_w0_from_args(args: argparse.Namespace) -> tuple[Fraction, tuple[Fraction, ...] | None]:
    """The exact ``--eta`` and ``--w0`` (None for ``zero``) of ``pla run`` and ``pla pocket``."""
    try:
        eta = parse_fraction(args.eta)
    except NumberError as exc:
        raise UsageError(f"--eta: {exc}") from None
    w0: tuple[Fraction, ...] | None = None
    if args.w0.strip().lower() != "zero":
        try:
            w0 = tuple(parse_fraction(v) for v in args.w0.split(","))
        except NumberError as exc:
            raise UsageError(f"--w0: {exc}") from None
    return eta, w0


def options_from_args(args: argparse.Namespace) -> RunOptions:
    """The :class:`RunOptions` described by ``pla run``'s arguments."""
    eta, w0 = eta_and_w0_from_args(args)
    max_updates = DEFAULT_MAX_UPDATES if args.max_updates is None else args.max_updates
    return RunOptions(order=args.order, seed=args.seed, eta=eta, w0=w0, zero=args.zero,
                      max_updates=max_updates)


class _StepWindow:
    """Keeps the first ``head`` and last ``tail`` steps of a run in bounded memory."""

    def __init__(self, head: int, tail: int) -> None:
        self.head: list[Step] = []
        self.tail: deque[Step] = deque(maxlen=tail)
        self.limit = head
        self.count = 0

    def __call__(self, step: Step) -> None:
        self.count += 1
        if len(self.head) < self.limit:
            self.head.append(step)
        else:
            self.tail.append(step)


def execute(dataset: Dataset, options: RunOptions, args: argparse.Namespace,
            extra_callbacks: Sequence[Any] = (), on_update: Any = None,
            timeout: float | None = None, on_scaled_update: Any = None
            ) -> tuple[Result, _StepWindow | None]:
    """Run with the callbacks the output options need (steps window, trace writer);
    ``timeout``: the seconds left of ``--timeout`` (default: all of it)."""
    timeout = args.timeout if timeout is None else timeout
    window = _StepWindow(STEPS_HEAD, STEPS_TAIL) if args.steps else None
    callbacks: list[Any] = list(extra_callbacks)
    if window is not None:
        callbacks.append(window)
    writer = None
    if args.trace:
        from verify.checks.checked_run import WF_CHOICES

        inputs = [args.data] + ([args.wf] if args.wf not in WF_CHOICES else [])
        header = header_record(dataset, options, args.engine, timeout=args.timeout,
                               max_trace_bytes=args.max_trace_bytes)
        writer = TraceWriter(args.trace, header, inputs=inputs, max_bytes=args.max_trace_bytes)
        callbacks.append(lambda step: writer.write(step_record(step)))
    with writer if writer is not None else nullcontext():
        result = pla.run(dataset, options=options, engine=args.engine, keep_steps=False,
                         on_step=_fan_out(callbacks), on_update=on_update,
                         on_scaled_update=on_scaled_update, timeout=timeout,
                         extra_budget=None if writer is None else ("max-trace-bytes",
                                                                   writer.full))
        if writer is not None:
            writer.close(summary_record(result))
    return result, window


def _fan_out(callbacks: Sequence[Any]) -> Any:
    if not callbacks:
        return None
    if len(callbacks) == 1:
        return callbacks[0]

    def call_all(step: Step) -> None:
        for callback in callbacks:
            callback(step)
    return call_all


def _probe_halts(dataset: Dataset, options: RunOptions) -> bool:
    """Whether a short run (at most PROBE_UPDATES_PER_EXAMPLE × N updates) halts."""
    probe = replace(options, max_updates=min(options.max_updates,
                                             PROBE_UPDATES_PER_EXAMPLE * dataset.n))
    return pla.run(dataset, options=probe, keep_steps=False).halted


class SetUpTimeout(Exception):
    """``--timeout`` expired while the data were read and the run prepared."""


@contextmanager
def _within(seconds: float | None) -> Iterator[None]:
    """Raise :class:`SetUpTimeout` in the block after ``seconds`` (SIGALRM; main thread only)."""
    import signal
    import threading
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum: int, frame: Any) -> None:
        raise SetUpTimeout()
    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def handle(args: argparse.Namespace) -> int:
    """``pla run``: ``--timeout`` bounds reading and preparing as well as the updates."""
    started = time.monotonic()
    if args.runs is not None:  # usage errors before any work
        from verify.cli.run_experiments import check_runs_arguments
        check_runs_arguments(args)
    try:
        with _within(args.timeout):
            dataset = load_dataset(args)
            options = options_from_args(args)
            options.initial_weights(dataset.dim)
            prepared = _prepare(dataset, options, args)
    except SetUpTimeout:
        data = shown_path(args.data)
        print(f"pla: stopped by --timeout {args.timeout:g} s while reading and preparing the "
              f"data, before the first update; nothing is known about the data yet: `pla certify "
              f"{data}` decides whether they are linearly separable", file=sys.stderr)
        from verify.cli.exit_codes import NOT_HALTED
        return NOT_HALTED
    if isinstance(prepared, int):
        return prepared
    notice_first, gordan, monitor = prepared
    remaining = (None if args.timeout is None else
                 max(args.timeout - (time.monotonic() - started), 1e-6))
    return _run_and_report(dataset, options, args, notice_first, gordan, monitor, remaining)


def _prepare(dataset: Dataset, options: RunOptions, args: argparse.Namespace) -> Any:
    """Everything before the first update: the exit code when there is nothing to run (a
    certificate that PLA cannot halt, ``--runs``), else (notice_first, the Gordan certificate
    whose notice was printed or None, monitor)."""
    # Non-separable data (kernel-checked Gordan certificate): say so before running when the
    # search is cheap; on larger data only after a run that did not halt (a halting run proves
    # separability, and the search would cost far more than the run).  A short probe run
    # first: when it halts the data are separable and the search (and its scipy import) is
    # skipped, which keeps `pla run` on ordinary data fast.
    from verify.cli.experiment_output import certificate_notice, gordan_certificate
    notice_first = dataset.n * dataset.dim <= NOTICE_BEFORE_RUN_MAX_ENTRIES
    certificate = None
    if notice_first and not _probe_halts(dataset, options):
        certificate = gordan_certificate(dataset)
        if certificate is not None:
            from verify.cli.gordan_halting import cannot_halt
            budget_given = args.max_updates is not None or args.timeout is not None
            support_labels = [dataset.labels[i] for i in certificate.support]
            stop = not budget_given and cannot_halt(options.zero, support_labels)
            notice = certificate_notice(certificate, dataset, args.data,
                                        None if stop else options.max_updates, options.zero)
            print(notice, file=sys.stderr)
            if stop:
                return _stop_at_once(dataset, certificate, args)
    if args.runs is not None:
        from verify.cli.run_experiments import handle_runs
        return handle_runs(args, dataset, options)
    return notice_first, certificate, _proof_monitor(dataset, options, args)


def _run_and_report(dataset: Dataset, options: RunOptions, args: argparse.Namespace,
                    notice_first: bool, gordan: Any, monitor: Any,
                    timeout: float | None) -> int:
    with_vectors = monitor is not None and (args.paranoid or args.steps or args.trace)
    callbacks: list[Any] = [monitor] if with_vectors else []
    deferred = monitor is not None and not with_vectors
    # (an interrupt or an engine error with updates kept unchecked: they are checked first)
    with monitor.deferred_checks() if deferred else nullcontext() as on_update:
        updated_rows: list[int] = []
        on_scaled_update = None
        if args.coq:
            from verify.cli.run_coq import record_updated_rows
            callbacks, on_update = record_updated_rows(args, options, callbacks, on_update,
                                                       updated_rows)
        elif deferred:           # (the same checks, and no Fraction built per update)
            on_update, on_scaled_update = None, monitor.on_scaled_update_deferred
        result, window = execute(dataset, options, args, extra_callbacks=callbacks,
                                 on_update=on_update, on_scaled_update=on_scaled_update,
                                 timeout=timeout)
    report = monitor.finish(result) if monitor is not None else None
    if args.json:
        fields = result_json(dataset, result)
        if report is not None:
            from verify.checks.checked_run import report_json
            fields.update(report_json(report))
        print(json.dumps(fields, indent=2))
    else:
        if window is not None:
            print_steps(window)
        print_summary(dataset, result, args)
        if report is not None:
            from verify.checks.checked_run import report_lines
            print("\n".join(report_lines(report)))
    if args.coq:
        from verify.cli.run_coq import write_run_file
        write_run_file(args, dataset, options, monitor, updated_rows, echo=not args.json)
    if not result.halted:
        print(_what_is_known(dataset, options, args, result, gordan, notice_first, report),
              file=sys.stderr)
        return 3
    return 0


def _what_is_known(dataset: Dataset, options: RunOptions, args: argparse.Namespace,
                   result: Result, gordan: Any, notice_first: bool, report: Any) -> str:
    """The line that ends a run stopped by its budget (:mod:`verify.cli.stopped_runs`): a
    certificate either way when one is known or cheap (printing the non-separability notice
    when it is new), else how to get one."""
    from verify.cli.gordan_halting import cannot_halt
    from verify.cli.stopped_runs import separable_sentence, stopped_message, unknown_sentence

    def as_certified(certificate: Any) -> str:
        support = [dataset.labels[i] for i in certificate.support]
        if cannot_halt(options.zero, support):
            return "as the certificate above says it must"
        return "the certificate above says what is known about halting under --zero " \
               f"{options.zero}"

    if gordan is not None:   # found before the run; its notice is printed
        return stopped_message(result, args, as_certified(gordan))
    if report is not None and report.wf is not None:   # the --check monitor's w_f separates
        return stopped_message(result, args, separable_sentence(
            result, report.bound_updates, report.wf_kind.split(":")[0].split(" (")[0],
            from_w0=True))
    entries = dataset.n * dataset.dim
    certificate = None
    if entries <= NOTICE_AFTER_RUN_MAX_ENTRIES:
        from verify.search.certificates import certify
        try:
            certificate = certify(dataset, method="maxmargin" if notice_first else "lp")
        except Exception:  # untrusted search failed: say nothing unchecked
            certificate = None
    if certificate is None:
        return stopped_message(result, args, unknown_sentence(dataset, args.data))
    if not certificate.separable:
        from verify.cli.experiment_output import certificate_notice
        print(certificate_notice(certificate, dataset, args.data, options.max_updates,
                                 options.zero), file=sys.stderr)
        return stopped_message(result, args, as_certified(certificate))
    return stopped_message(result, args, separable_sentence(
        result, certificate.bound_updates, certificate.kind, from_w0=options.w0 is None))


def _stop_at_once(dataset: Dataset, certificate: Any, args: argparse.Namespace) -> int:
    """No run: the certificate shows it cannot halt and no budget was asked for (exit 3)."""
    from verify.cli.certify import certificate_json
    from verify.cli.exit_codes import NOT_HALTED

    if args.json:
        print(json.dumps({"updates": 0, "halted": False, "stopped_by": "gordan-certificate",
                          "zero": args.zero, "n": dataset.n, "d": dataset.d, "dim": dataset.dim,
                          "bias": dataset.bias, "data_sha256": dataset.fingerprint,
                          "source": dataset.source, **certificate_json(certificate)}, indent=2))
    nothing = "; nothing run" + (", no trace written" if args.trace else "")
    print(f"pla: stopped before the first update: the certificate above shows that PLA cannot "
          f"halt under --zero {args.zero}{nothing}; give --max-updates N or --timeout SECONDS "
          "to run anyway", file=sys.stderr)
    return NOT_HALTED


def _proof_monitor(dataset: Dataset, options: RunOptions, args: argparse.Namespace) -> Any:
    """The --check monitor (verify.checks.checked_run), or None without --check."""
    if not args.check:
        if args.paranoid or args.wf != "maxmargin" or args.coq:
            raise UsageError("--paranoid, --wf and --coq need --check")
        return None
    from verify.checks.checked_run import WfError, prepare_monitor
    try:
        return prepare_monitor(dataset, options, args.wf, paranoid=args.paranoid,
                               engine=args.engine)
    except WfError as exc:
        raise UsageError(str(exc)) from None


def result_json(dataset: Dataset, result: Result) -> dict[str, Any]:
    """The ``--json`` object of a run."""
    o = result.options
    return {
        "updates": result.updates,
        "epochs": result.epochs,
        "halted": result.halted,
        "stopped_by": result.stopped_by,
        "w": [str(v) for v in result.w],
        "n": dataset.n,
        "d": dataset.d,
        "dim": dataset.dim,
        "bias": dataset.bias,
        "order": o.order,
        "seed": o.seed,
        "eta": str(o.eta),
        "w0": None if o.w0 is None else [str(v) for v in o.w0],
        "zero": o.zero,
        "max_updates": o.max_updates,
        "data_sha256": dataset.fingerprint,
        "source": dataset.source,
    }




def print_steps(window: _StepWindow) -> None:
    """The ``--steps`` table."""
    rows = [("t", "n", "y", "w_t.x_n", "w_t", "w_t+1")]
    def row(s: Step) -> tuple[str, ...]:
        return (str(s.t), str(s.index + 1), f"{s.y:+d}", str(s.score),
                format_vector(s.w_before, 6), format_vector(s.w_after, 6))
    rows += [row(s) for s in window.head]
    skipped = window.count - len(window.head) - len(window.tail)
    gap_at = len(rows)
    rows += [row(s) for s in window.tail]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for k, r in enumerate(rows):
        if k == gap_at and skipped > 0:
            print(f"  ... {format_count(skipped, 'update')} not shown (--trace FILE.jsonl records them all) ...")
        print("  ".join(c.rjust(w) if i < 4 else c.ljust(w) for i, (c, w) in
                        enumerate(zip(r, widths))).rstrip())
    if window.count == 0:
        print("  (no updates: w0 already makes no mistake)")
    print()


def print_summary(dataset: Dataset, result: Result, args: argparse.Namespace) -> None:
    """The human summary of a run."""
    o = result.options
    bias = " (+ bias x0 = 1)" if dataset.bias else ""
    print(f"data     {shown_path(dataset.source)}: {format_count(dataset.n, 'example')}, "
          f"{format_count(dataset.d, 'feature')}{bias}, "
          f"sha256 {dataset.fingerprint[:16]}")
    seed = f", seed {o.seed}" if o.order.startswith("random") else ""
    w0 = "0" if o.w0 is None else format_vector(o.w0)
    print(f"options  order {o.order}{seed}, eta {o.eta}, w0 {w0}; {ZERO_CONVENTION_TEXT[o.zero]}")
    if result.halted:
        print(f"result   halted: no mistake left after {format_count(result.updates, 'update')} "
              f"({format_count(result.epochs, 'epoch')})")
    else:
        limit = "the time limit" if result.stopped_by == "timeout" else "the budget"
        print(f"result   NOT halted: stopped at {limit} after "
              f"{format_count(result.updates, 'update')} ({format_count(result.epochs, 'epoch')})")
    print(f"w        {format_vector(result.w)}   (bias first)")
    if args.trace:
        print(f"trace    {shown_path(args.trace)}")
