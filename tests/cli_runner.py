"""Run the ``pla`` command line in a subprocess, as a user would."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Completed:
    code: int
    out: str
    err: str


def pla_cli(*args: str, stdin: str | None = None, timeout: float = 120) -> Completed:
    """Run ``pla ARGS...`` with this interpreter and return exit code, stdout and stderr."""
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from verify.cli import main; sys.exit(main())", *args],
        input=stdin, capture_output=True, text=True, timeout=timeout,
    )
    return Completed(proc.returncode, proc.stdout, proc.stderr)


def pla_here(capsys, *args: str) -> Completed:
    """``pla ARGS...`` run in this process (``verify.cli.main``, as the console script runs it),
    its output read from pytest's ``capsys``: exit code, stdout and stderr."""
    from verify.cli import main

    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return Completed(code, out, err)
