"""``pla certify``: is a data set linearly separable?  An exact certificate either way.

Exit codes: 0 the data certificate was checked (separable or not) or the given ``--weights``
separate the data; 1 the given ``--weights`` do not separate the data; 2 bad input.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Sequence

from pla.files import shown_path
from pla.exact import format_count, format_vector
from verify.present.numbers import FOLDED_NOTE, bound_text, equals_text, number_text
from verify.cli.data_arguments import add_data_arguments, load_dataset

__all__ = ["register", "handle", "certificate_json"]

#: Rows listed in the text output before "... (--json shows all)".
SHOWN_ROWS = 12


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "certify", help="prove that data are (or are not) linearly separable",
        description="Decide exactly whether DATA are linearly separable and print a certificate "
                    "checked by the trusted kernel: the max-margin separator w* with its KKT "
                    "multipliers (and Novikoff's bound R^2 ||w*||^2 / rho^2, the smallest over "
                    "all separators), or a Gordan certificate lambda >= 0, lambda != 0, "
                    "sum lambda_n y_n x_n = 0 proving that no separator exists (and, for each "
                    "--zero convention, exactly what that says about PLA halting).  With --weights, check the given weights exactly instead.  Exit code "
                    "0 when the certificate checks or the given weights separate, 1 when the "
                    "given weights do not separate, 2 on bad input.",
    )
    add_data_arguments(parser)
    parser.add_argument("--weights", metavar="FILE",
                        help="check these weights (one number per line, bias first; decimals "
                             "are read exactly) and report their minimum margin or the first "
                             "row they misclassify")
    parser.add_argument("--method", choices=("maxmargin", "lp"), default="maxmargin",
                        help="the separator to certify: maxmargin (default) or lp (a "
                             "linear-programming separator, scaled to minimum margin 1)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object (every number exact)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print every number exactly (default: a number longer than 40 "
                             "characters is folded to 6 significant digits and its size)")
    parser.add_argument("--coq", metavar="FILE.v",
                        help="also write the data and the certificate as a Coq file whose "
                             "theorems coqc checks by computation (see --coq-lib)")
    parser.add_argument("--coq-lib", metavar="DIR",
                        help="with --coq: also write the Coq library and its Makefile into DIR "
                             "(as `pla proof --coq DIR` does; a directory holding files pla "
                             "did not write is refused without --force)")
    parser.add_argument("--force", action="store_true",
                        help="with --coq-lib: replace files in DIR that pla did not write")
    parser.set_defaults(handler=handle)
    return parser


def _rows(indices: Sequence[int], values: Sequence[Any] | None = None,
          exact: bool = False) -> str:
    shown = list(indices[:SHOWN_ROWS])
    text = ", ".join(str(i + 1) for i in shown)
    if values is not None:
        text += " with " + ", ".join(number_text(values[i], exact) for i in shown)
    if len(indices) > SHOWN_ROWS:
        text += f", ... ({len(indices)} rows; --json shows all)"
    return text




def certificate_json(certificate: Any) -> dict[str, Any]:
    """The ``separable`` / ``certificate`` / ``bound`` fields of ``pla certify --json``."""
    return certificate.to_json()


def _certificate_lines(certificate: Any, labels: Sequence[int] = (), exact: bool = False
                       ) -> list[str]:
    """The text of a certificate; long numbers folded (:mod:`verify.present.numbers`) unless
    ``exact`` (``-v``)."""
    def num(value: Any) -> str:
        return number_text(value, exact)

    def equals(value: Any) -> str:
        return equals_text(value, exact)

    def vector(values: Sequence[Any]) -> str:
        return f"({', '.join(str(v) for v in values)})" if exact else format_vector(values)

    if not certificate.separable:
        from verify.cli.gordan_halting import halting_sentence

        support = certificate.support
        support_labels = [labels[i] for i in support] if labels else []
        return [
            "verdict   NOT linearly separable: Gordan certificate checked by the kernel",
            f"lambda    rows {_rows(support, certificate.lam, exact)} (1-based; lambda = 0 "
            "elsewhere)",
            "          lambda >= 0, lambda != 0 and sum_n lambda_n y_n x_n = 0, so for every w",
            "          sum_n lambda_n y_n w.x_n = 0: some of these rows has y_n w.x_n <= 0 and no w",
            "          separates the data; `pla pocket` keeps the best w it meets.",
        ] + [f"{'halting' if k == 0 else '':<10}{halting_sentence(zero, support_labels)}"
             for k, zero in enumerate(("mistake", "positive", "negative", "correct"))]
    if certificate.kind == "max-margin":
        lines = [
            "verdict   linearly separable: max-margin certificate checked by the kernel",
            "          (KKT of min ||w||^2/2 s.t. y_n w.x_n >= 1: alpha >= 0, w* = sum_n alpha_n "
            "y_n x_n,",
            "          y_n w*.x_n >= 1, alpha_n (y_n w*.x_n - 1) = 0; bias = ordinary coordinate)",
            f"w*        {vector(certificate.w)}   (bias first)",
            f"support   rows {_rows(certificate.support, certificate.alpha, exact)} (1-based: "
            "alpha_n)",
        ]
    else:
        lines = [
            f"verdict   linearly separable: {certificate.kind} separator checked by the kernel"
            + (f" ({certificate.note})" if certificate.note else ""),
            f"w         {vector(certificate.w)}   (bias first)",
        ]
    name = "w*" if certificate.kind == "max-margin" else "w"
    lines += [
        f"rho       min y_n {name}.x_n {equals(certificate.rho)} (row {certificate.argmin + 1})",
        f"R^2       max ||x_n||^2 {equals(certificate.R2)}",
        f"{'||' + name + '||^2':<10}{num(certificate.norm2)}",
        f"gamma^2   rho^2 / ||{name}||^2 {equals(certificate.gamma2)}",
        f"bound     R^2 ||{name}||^2 / rho^2 = (R/gamma)^2 {equals(certificate.bound)}: PLA from "
        "w0 = 0 makes",
    ]
    tight = certificate.kind == "max-margin" or (certificate.kind == "near-max-margin"
                                                 and certificate.tightest_updates is not None)
    smallest = "; no separator gives a smaller bound" if tight else ""
    lines.append(f"          T ≤ {bound_text(certificate.bound_updates)} updates on these data "
                 f"(any order, any eta){smallest}")
    return lines


def handle(args: argparse.Namespace) -> int:
    from verify.search.certificates import certify, check_weights
    from verify.checks.checked_run import read_weights

    dataset = load_dataset(args)
    weights = read_weights(args.weights, dataset.dim) if args.weights else None
    certificate = certify(dataset, method=args.method)
    verdict = check_weights(dataset, weights) if weights is not None else None
    if args.json:
        fields: dict[str, Any] = {"data": dataset.source, "data_sha256": dataset.fingerprint,
                                  "n": dataset.n, "dim": dataset.dim}
        fields.update(certificate_json(certificate))
        if verdict is not None:
            fields["weights"] = {
                "file": args.weights, "w": [str(v) for v in verdict.w],
                "separates": verdict.separates, "row": verdict.row,
                "margin": str(verdict.margin),
            }
            if verdict.separator is not None:
                fields["weights"].update(gamma2=str(verdict.separator.gamma2),
                                         bound=str(verdict.separator.bound))
        print(json.dumps(fields, indent=2))
    else:
        bias = " (+ bias x0 = 1)" if dataset.bias else ""
        print(f"data      {shown_path(dataset.source)}: {format_count(dataset.n, 'example')}, "
              f"{format_count(dataset.d, 'feature')}{bias}, "
              f"sha256 {dataset.fingerprint[:16]}")
        if verdict is None:
            text = "\n".join(_certificate_lines(certificate, dataset.labels, args.verbose))
            print(text + (f"\n{'':<10}{FOLDED_NOTE}" if "≈" in text else ""))
        else:
            print(f"weights   {shown_path(args.weights)}: {format_vector(verdict.w)}   (bias first)")
            if verdict.separates:
                s = verdict.separator
                print("verdict   the given w separates the data (checked exactly by the kernel)")
                print(f"rho       min y_n w.x_n = {number_text(verdict.margin, args.verbose)} "
                      f"(row {verdict.row + 1}), gamma^2 = {number_text(s.gamma2, args.verbose)}")
                print(f"bound     R^2 ||w||^2 / rho^2 = {number_text(s.bound, args.verbose)} "
                      f"(T ≤ {bound_text(s.bound_updates)} updates)")
            else:
                print(f"verdict   the given w does NOT separate the data: row {verdict.row + 1} "
                      f"(1-based) has y_n w.x_n = {number_text(verdict.margin, args.verbose)} <= 0")
            data = ("separable" if certificate.separable else
                    "NOT separable (Gordan certificate checked; `pla certify` without --weights "
                    "shows it)")
            print(f"data      {data}")
    if args.coq or args.coq_lib:
        _write_coq(args, dataset, certificate, echo=not args.json)
    if verdict is not None and not verdict.separates:
        return 1
    return 0


def _write_coq(args: argparse.Namespace, dataset: Any, certificate: Any, echo: bool) -> None:
    """``--coq FILE.v`` (and ``--coq-lib DIR``): write the Coq certificate and the library."""
    import sys

    from verify.cli.usage import UsageError
    from pla.files import SafeOutput, refuse_foreign_directory
    from verify.coq.certificate_files import certificate_file, coq_certificate
    from verify.coq.library import MARKER, check_command, write_library

    if not args.coq:
        raise UsageError("--coq-lib needs --coq FILE.v")
    if not args.coq.endswith(".v"):
        raise UsageError(f"--coq: {args.coq} must end in .v (Coq reads only .v files)")
    # The one write path: refused before anything is written when FILE.v is an input (the data
    # or the weights, however named), a directory or a block device.
    if args.coq_lib:
        refuse_foreign_directory(args.coq_lib, MARKER, force=args.force)
    with SafeOutput(args.coq, inputs=[args.data, args.weights]) as out:
        if args.coq_lib:
            write_library(args.coq_lib, force=args.force)
        out.write(certificate_file(dataset, coq_certificate(dataset, certificate)))
        out.commit()
    directory = args.coq_lib or "DIR"
    steps = f"make -C {directory} && {check_command(directory, args.coq)}"
    if not args.coq_lib:
        steps = f"pla proof --coq DIR && {steps}"
    print(f"coq       wrote {args.coq}; check it with: {steps}",
          file=sys.stdout if echo else sys.stderr)
