"""The ``pla`` command line: composes :mod:`pla` (the algorithms) and :mod:`verify` (the checks).

Each subcommand lives in ``verify/cli/<name>.py`` and exposes ``register(subparsers)``; its
handler, set with ``set_defaults(handler=...)``, returns the exit code.

Exit codes: 0 ok; 1 a check on given weights, a claim or a proof failed; 2 bad input or usage;
3 ``--max-updates`` reached without halting; 4 a proof inequality was violated; 5 ``pla audit``:
the trace is incomplete (an interrupted run); 130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Sequence

from verify.cli.usage import UsageError

__all__ = ["main", "run_main", "build_parser", "COMMANDS"]

#: Subcommand modules under verify.cli, in the order ``pla --help`` lists them.
COMMANDS = ("run", "make_data", "certify", "audit", "pocket", "proof", "claims")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (used by ``main`` and by the generated CLI reference)."""
    parser = argparse.ArgumentParser(
        prog="pla",
        description="Exact Perceptron Learning Algorithm runs, checked against the convergence "
                    "proof at every step.",
    )
    from pla import __version__
    parser.add_argument("--version", action="version", version=f"pla-verify {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMANDS:
        importlib.import_module(f"verify.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pla`` console script; returns (and exits with) the exit code."""
    from pla.dataset import DataError
    from pla.perceptron import OptionError
    from verify.checks.monitor import ProofViolation

    # Exact results may have more digits than CPython's default int<->str limit (4300).
    sys.set_int_max_str_digits(0)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = args.handler(args)
    except DataError as exc:
        print(f"pla: error: {exc}", file=sys.stderr)
        code = 2
    except (OptionError, UsageError) as exc:
        print(f"pla: error: {exc}", file=sys.stderr)
        code = 2
    except ProofViolation as exc:
        print(f"pla: proof violation: {exc}", file=sys.stderr)
        code = 4
    except KeyboardInterrupt:
        print("pla: interrupted", file=sys.stderr)
        code = 130
    except BrokenPipeError:  # `pla run ... | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return code


def run_main() -> None:  # pragma: no cover - console-script shim
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
