"""``pla audit``: replay a recorded run (a ``--trace`` file) exactly and check everything.

Exit codes: 0 every check holds; 1 a check fails (the first failing line is reported: the trace
was tampered with, made on other data, or the run broke a rule or an inequality); 2 unreadable
input (no such file, not a pla-verify trace, bad data file); 5 the trace is *incomplete* (the run
was interrupted; everything it recorded holds, but it has no summary to check).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from pla.exact import format_count
import pla
from pla.files import shown_path
from verify.cli.usage import UsageError
from verify.cli.data_arguments import add_data_arguments, load_dataset, non_negative_int

__all__ = ["register", "handle", "audit_json"]


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "audit", help="replay a recorded run exactly and check every step",
        description="Replay TRACE (written by `pla run --trace`) against the data exactly: the "
                    "hash chain, the data fingerprint, every step (a genuine mistake under the "
                    "recorded convention, the update arithmetic, the order rule: no mistake "
                    "skipped), every inequality of the convergence proof, and the summary "
                    "(updates, final w, halted, epochs).  Reports the first failing line.  Exit "
                    "code 0 when everything holds, 1 when a check fails, 2 on unreadable input, "
                    "5 when the trace is incomplete (an interrupted run whose recorded part "
                    "holds).",
    )
    parser.add_argument("trace", metavar="TRACE.jsonl|FILE.v|DIR",
                        help="the trace file; or a Coq file written by `pla certify --coq`, "
                             "`pla run --check --coq` or `pla pocket --coq` (compared line by "
                             "line with what pla "
                             "writes for DATA, then checked by coqc); or the directory of "
                             "`pla proof --coq DIR`")
    add_data_arguments(parser, help="the data file the run (or the Coq file) was made on",
                       option=True, required=False)
    parser.add_argument("--wf", default="maxmargin", metavar="maxmargin|maxmargin-exact|lp|FILE",
                        help="the reference separator w_f for the proof inequalities "
                             "(default maxmargin)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    coq = parser.add_argument_group(
        "Coq files", "the options the file was written with (a certificate: --method; a run "
        "file: the run's --order, --seed, --eta, --max-updates and --wf; a pocket file: "
        "--updates, --order, --seed, --eta, --w0, --compare, --last)")
    coq.add_argument("--method", choices=("maxmargin", "lp"), default="maxmargin",
                     help="the separator of `pla certify --method` (default maxmargin)")
    coq.add_argument("--order", choices=pla.ORDERS, default=None,
                     help="the run's visiting order (default: that of pla run, cyclic, or of "
                          "pla pocket, random-cycle)")
    coq.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    coq.add_argument("--eta", default="1", metavar="P/Q", help="the run's rate (default 1)")
    coq.add_argument("--max-updates", type=non_negative_int, default=None, metavar="N",
                     help="the run's update budget (default: pla run's)")
    coq.add_argument("--updates", type=non_negative_int, default=None, metavar="N",
                     help="a pocket file: the --updates of `pla pocket` (required)")
    coq.add_argument("--w0", default="zero", metavar="zero|V0,V1,...",
                     help="a pocket file: the initial weights (default zero)")
    coq.add_argument("--compare", choices=("pocket", "previous"), default="pocket",
                     help="a pocket file: `pla pocket --compare` (default pocket)")
    coq.add_argument("--last", action="store_true",
                     help="a pocket file: written with `pla pocket --last`")
    expect = parser.add_argument_group(
        "what you were promised", "a trace shows a consistent run, not that the run was not cut "
        "short: a genuine trace truncated and re-sealed as 'stopped by timeout' is consistent. "
        "Pin the outcome you were promised (exit code 1 when the audited run differs)")
    expect.add_argument("--expect-updates", type=non_negative_int, metavar="N",
                        help="the run made exactly N updates")
    expect.add_argument("--expect-halted", choices=("yes", "no"),
                        help="the run halted (yes) or stopped at a budget (no)")
    parser.set_defaults(handler=handle)
    return parser


def audit_json(report: Any, trace: str) -> dict[str, Any]:
    """The ``--json`` object of an audit."""
    fields: dict[str, Any] = {
        "trace": trace, "status": report.status, "ok": report.status == "ok",
        "lines": report.lines, "steps": report.steps, "checks": report.checks,
        "failure": None if report.failure is None else {
            "line": report.failure.line, "check": report.failure.check,
            "message": report.failure.message},
    }
    if report.status == "incomplete":
        fields["incomplete_reason"] = report.incomplete_reason
    if report.status == "ok":
        fields.update(halted=report.halted, updates=report.updates, epochs=report.epochs)
        if report.proof is not None:
            from verify.checks.checked_run import report_json
            fields["proof"] = report_json(report.proof)
    return fields


def handle(args: argparse.Namespace) -> int:
    import os

    from verify.checks.audit import EXIT_INCOMPLETE, TraceUnreadable, audit

    if os.path.isdir(args.trace):
        from verify.cli.audit_coq import handle_coq_directory
        return handle_coq_directory(args)
    if args.trace.endswith(".v"):
        from verify.cli.audit_coq import handle_coq_file
        return handle_coq_file(args)
    if not args.data:
        raise UsageError("pla audit TRACE needs --data DATA (the data the run was made on)")
    if args.wf == "final":
        raise UsageError("pla audit --wf: use maxmargin, lp or a weights file")
    dataset = load_dataset(args)
    try:
        report = audit(args.trace, dataset, wf=args.wf, max_bytes=args.max_input_bytes)
    except TraceUnreadable as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        fields = audit_json(report, args.trace)
        if report.status == "ok":
            fields["not_as_expected"] = broken_promises(report, args)
        print(json.dumps(fields, indent=2))
    elif report.status == "ok":
        halted = ("halted: no mistake left" if report.halted else
                  "NOT halted: the budget was used up with a mistake left")
        print(f"audit    {shown_path(args.trace)}: OK, every check holds ({report.checks} checks on "
              f"{report.lines} lines)")
        print(f"run      {format_count(report.updates, 'update')}, "
              f"{format_count(report.epochs, 'epoch')}, {halted}")
        if report.proof is not None:
            from verify.checks.checked_run import report_lines
            print("\n".join(report_lines(report.proof)))
    elif report.status == "incomplete":
        print(f"audit    {shown_path(args.trace)}: INCOMPLETE: the run did not finish (reason: "
              f"{report.incomplete_reason}); the {report.steps} recorded updates hold "
              f"({report.checks} checks), but there is no summary to check")
    else:
        print(f"audit    {shown_path(args.trace)}: FAILED at {report.failure}")
    if report.status == "ok":
        broken = broken_promises(report, args)
        for promise in broken:
            print(f"audit    {shown_path(args.trace)}: NOT AS EXPECTED: {promise}")
        return 1 if broken else 0
    return EXIT_INCOMPLETE if report.status == "incomplete" else 1


def broken_promises(report: Any, args: argparse.Namespace) -> list[str]:
    """The ``--expect-updates``/``--expect-halted`` that the (consistent) run does not meet."""
    broken = []
    if args.expect_updates is not None and report.updates != args.expect_updates:
        broken.append(f"--expect-updates {args.expect_updates}, but the run made "
                      f"{format_count(report.updates, 'update')}")
    if args.expect_halted is not None and report.halted != (args.expect_halted == "yes"):
        broken.append(f"--expect-halted {args.expect_halted}, but the run "
                      + ("halted" if report.halted else "did not halt"))
    return broken
