"""The exit codes of ``pla``: one table, from which ``pla --help``, the README and
docs/reliability.md are made (``tests/test_exit_codes.py`` checks that the two documents hold
exactly :func:`exit_codes_markdown`).

The verdict decides the exit code: a closed pipe or a full standard output may shorten what is
printed, never turn a failure into 0.

>>> NOT_HALTED, EXIT_CODES[NOT_HALTED].split(":")[0]
(3, 'not halted')
>>> print(exit_codes_markdown().splitlines()[2])
| 0 | ok: the run halted, every check held, the claims are proved, the file was written |
"""

from __future__ import annotations

__all__ = ["EXIT_CODES", "OK", "CHECK_FAILED", "USAGE", "NOT_HALTED", "PROOF_VIOLATION",
           "INCOMPLETE", "INTERRUPTED", "TERMINATED", "exit_codes_text", "exit_codes_markdown"]

OK = 0
CHECK_FAILED = 1
USAGE = 2
NOT_HALTED = 3
PROOF_VIOLATION = 4
INCOMPLETE = 5
INTERRUPTED = 130
TERMINATED = 143

#: Every exit code of ``pla`` and what it means.
EXIT_CODES: dict[int, str] = {
    OK: "ok: the run halted, every check held, the claims are proved, the file was written",
    CHECK_FAILED: "check failed: given weights do not separate, a claim is refuted or "
                  "unproved, a theorem fails, an audited trace fails or misses an --expect-*",
    USAGE: "bad input or usage, or an output that cannot be written: one line on stderr "
           "(`pla: error: ...`), nothing half-written",
    NOT_HALTED: "not halted: stopped at --max-updates or --timeout, or at once because a "
                "kernel-checked Gordan certificate shows that PLA cannot halt",
    PROOF_VIOLATION: "proof violation: an inequality of the convergence proof failed under "
                     "--check",
    INCOMPLETE: "incomplete: `pla audit` on the trace of an interrupted run (what it recorded "
                "holds)",
    INTERRUPTED: "interrupted (Ctrl-C, SIGINT); a --trace ends with an `incomplete` line",
    TERMINATED: "terminated (SIGTERM); a --trace ends with an `incomplete` line",
}


def exit_codes_text() -> str:
    """The exit codes as plain text, for the ``--help`` epilog.

    >>> exit_codes_text().splitlines()[1].split()[:2]
    ['0', 'ok:']
    """
    width = max(len(str(code)) for code in EXIT_CODES)
    return "exit codes:\n" + "\n".join(f"  {str(code).rjust(width)}  {meaning}"
                                       for code, meaning in EXIT_CODES.items())


def exit_codes_markdown() -> str:
    """The exit codes as a Markdown table (README.md and docs/reliability.md hold it)."""
    rows = [f"| {code} | {meaning} |" for code, meaning in EXIT_CODES.items()]
    return "\n".join(["| exit code | meaning |", "|---|---|", *rows])
