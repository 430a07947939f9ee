"""``pla certify``: is a data set linearly separable?  An exact certificate either way.

Exit codes: 0 the data certificate was checked (separable or not) or the given ``--weights``
separate the data; 1 the given ``--weights`` do not separate the data; 2 bad input.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Sequence

from pla.files import shown_path
from pla.exact import format_vector
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
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--coq", metavar="FILE.v",
                        help="also write the data and the certificate as a Coq file whose "
                             "theorems coqc checks by computation (see --coq-lib)")
    parser.add_argument("--coq-lib", metavar="DIR",
                        help="with --coq: also write the Coq library and its Makefile into DIR "
                             "(as `pla proof --coq DIR` does)")
    parser.set_defaults(handler=handle)
    return parser


def _rows(indices: Sequence[int], values: Sequence[Any] | None = None) -> str:
    shown = list(indices[:SHOWN_ROWS])
    text = ", ".join(str(i + 1) for i in shown)
    if values is not None:
        text += " with " + ", ".join(str(values[i]) for i in shown)
    if len(indices) > SHOWN_ROWS:
        text += f", ... ({len(indices)} rows; --json shows all)"
    return text




def certificate_json(certificate: Any) -> dict[str, Any]:
    """The ``separable`` / ``certificate`` / ``bound`` fields of ``pla certify --json``."""
    if not certificate.separable:
        return {"separable": False,
                "certificate": {"kind": "gordan", "lambda": [str(v) for v in certificate.lam],
                                "support": list(certificate.support)}}
    body: dict[str, Any] = {"kind": certificate.kind, "w": [str(v) for v in certificate.w]}
    if certificate.alpha is not None:
        body["alpha"] = [str(v) for v in certificate.alpha]
        body["support"] = list(certificate.support)
    body.update(rho=str(certificate.rho), R2=str(certificate.R2), norm2=str(certificate.norm2),
                gamma2=str(certificate.gamma2))
    if certificate.note:
        body["note"] = certificate.note
    return {"separable": True, "certificate": body, "bound": str(certificate.bound),
            "bound_updates": certificate.bound_updates}


def _certificate_lines(certificate: Any, labels: Sequence[int] = ()) -> list[str]:
    if not certificate.separable:
        from verify.cli.gordan_halting import halting_sentence

        support = certificate.support
        support_labels = [labels[i] for i in support] if labels else []
        return [
            "verdict   NOT linearly separable: Gordan certificate checked by the kernel",
            f"lambda    rows {_rows(support, certificate.lam)} (1-based; lambda = 0 elsewhere)",
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
            f"w*        {format_vector(certificate.w)}   (bias first)",
            f"support   rows {_rows(certificate.support, certificate.alpha)} (1-based: alpha_n)",
        ]
    else:
        lines = [
            f"verdict   linearly separable: {certificate.kind} separator checked by the kernel"
            + (f" ({certificate.note})" if certificate.note else ""),
            f"w         {format_vector(certificate.w)}   (bias first)",
        ]
    name = "w*" if certificate.kind == "max-margin" else "w"
    lines += [
        f"rho       min y_n {name}.x_n = {certificate.rho} (row {certificate.argmin + 1})",
        f"R^2       max ||x_n||^2 = {certificate.R2}",
        f"{'||' + name + '||^2':<10}{certificate.norm2}",
        f"gamma^2   rho^2 / ||{name}||^2 = {certificate.gamma2}",
        f"bound     R^2 ||{name}||^2 / rho^2 = (R/gamma)^2 = {certificate.bound}: PLA from w0 = 0 "
        f"makes at most {certificate.bound_updates} updates",
    ]
    if certificate.kind == "max-margin":
        lines.append("          on these data (any order, any eta); no separator gives a "
                     "smaller bound")
    else:
        lines.append("          on these data (any order, any eta)")
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
        print(f"data      {shown_path(dataset.source)}: {dataset.n} examples, {dataset.d} features{bias}, "
              f"sha256 {dataset.fingerprint[:16]}")
        if verdict is None:
            print("\n".join(_certificate_lines(certificate, dataset.labels)))
        else:
            print(f"weights   {shown_path(args.weights)}: {format_vector(verdict.w)}   (bias first)")
            if verdict.separates:
                s = verdict.separator
                print("verdict   the given w separates the data (checked exactly by the kernel)")
                print(f"rho       min y_n w.x_n = {verdict.margin} (row {verdict.row + 1}), "
                      f"gamma^2 = {s.gamma2}")
                print(f"bound     R^2 ||w||^2 / rho^2 = {s.bound} (at most {s.bound_updates} "
                      f"updates)")
            else:
                print(f"verdict   the given w does NOT separate the data: row {verdict.row + 1} "
                      f"(1-based) has y_n w.x_n = {verdict.margin} <= 0")
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
    from verify.coq.certificate_files import certificate_file, coq_certificate
    from verify.coq.library import check_command, write_library, write_text_atomically

    if not args.coq:
        raise UsageError("--coq-lib needs --coq FILE.v")
    if not args.coq.endswith(".v"):
        raise UsageError(f"--coq: {args.coq} must end in .v (Coq reads only .v files)")
    try:
        if args.coq_lib:
            write_library(args.coq_lib)
        write_text_atomically(args.coq,
                              certificate_file(dataset, coq_certificate(dataset, certificate)))
    except OSError as exc:
        raise UsageError(f"--coq: cannot write {exc.filename}: {exc.strerror}") from None
    directory = args.coq_lib or "DIR"
    steps = f"make -C {directory} && {check_command(directory, args.coq)}"
    if not args.coq_lib:
        steps = f"pla proof --coq DIR && {steps}"
    print(f"coq       wrote {args.coq}; check it with: {steps}",
          file=sys.stdout if echo else sys.stderr)
