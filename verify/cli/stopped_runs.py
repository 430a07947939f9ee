"""What ``pla run`` says when a budget (``--max-updates``, ``--timeout``) stops a run: what is
known about the data, or how it can be known.

- a Gordan certificate (found before the run, or after it): the data are not separable, and
  the notice printed with the certificate says what that means for halting;
- a separator (the ``--check`` monitor's w_f, or a certificate computed now on data small
  enough): the data are separable, and Novikoff's bound says how many updates suffice;
- otherwise (data too large to decide in passing): not known, and how to decide it, roughly how
  long that takes.

>>> from pla.runs import Result, RunOptions
>>> stopped = Result(w=(), updates=1, epochs=1, halted=False, options=RunOptions(max_updates=1),
...                  stopped_by="max-updates")
>>> print(separable_sentence(stopped, 117, "max-margin", from_w0=True))
the data ARE linearly separable (max-margin certificate checked by the kernel): PLA from w0 = 0 halts after at most T ≤ 117 updates (Novikoff's bound), so --max-updates 117 is enough
"""

from __future__ import annotations

from typing import Any

from pla.exact import format_count
from pla.files import shown_path
from verify.present.numbers import bound_text

__all__ = ["budget_text", "stopped_message", "separable_sentence", "unknown_sentence",
           "CERTIFICATE_SECONDS_PER_MILLION_NUMBERS"]

#: Seconds a kernel-checked certificate of separable data takes per million numbers (n × dim),
#: rounded up from benchmarks/results/scaling.json (0.5 to 1.8 s per million numbers for the
#: near-max-margin w_f of ``pla run --check`` on data of 10⁴ to 10⁷ numbers).
CERTIFICATE_SECONDS_PER_MILLION_NUMBERS = 2


def budget_text(result: Any, args: Any) -> str:
    """The budget that stopped ``result``: ``--timeout 0.3 s``, ``--max-updates 1,000`` or
    ``--max-trace-bytes 268,435,456: the trace is full``."""
    if result.stopped_by == "timeout":
        return f"--timeout {args.timeout:g} s"
    if result.stopped_by == "max-trace-bytes":
        return f"--max-trace-bytes {args.max_trace_bytes:,}: the trace is full"
    return f"--max-updates {result.options.max_updates:,}"


def separable_sentence(result: Any, bound: int, kind: str, from_w0: bool) -> str:
    """The data are separable: the bound, and whether the budget would have been enough.

    ``from_w0``: the bound is that of this run's w₀ (w₀ = 0, or the ``--check`` monitor's
    generalised bound); otherwise it is the bound from w₀ = 0 only.
    """
    proved = f"the data ARE linearly separable ({kind} certificate checked by the kernel): "
    if not from_w0:
        return (proved + f"PLA from w0 = 0 halts after at most T ≤ {bound_text(bound)} "
                f"updates (Novikoff's bound); `pla run --check` gives the bound from this w0")
    if result.options.w0 is None:
        proved += f"PLA from w0 = 0 halts after at most T ≤ {bound_text(bound)} updates " \
                  "(Novikoff's bound)"
    else:
        proved += f"this run halts after at most T ≤ {bound_text(bound)} updates (the " \
                  "generalised bound from this w0)"
    if result.stopped_by != "max-updates":
        return proved + f"; this run made {format_count(result.updates, 'update')} of them"
    return proved + f", so --max-updates {bound:,} is enough"


def unknown_sentence(dataset: Any, data_argument: str) -> str:
    """Nothing decided: how to decide it, and roughly how long the certificate takes."""
    numbers = dataset.n * dataset.dim
    seconds = max(1, round(CERTIFICATE_SECONDS_PER_MILLION_NUMBERS * numbers / 1e6))
    data = shown_path(data_argument)
    return (f"whether the data are linearly separable is not known yet: `pla run {data} "
            f"--check` and `pla certify {data}` decide it with a kernel-checked certificate "
            f"(for separable data of {numbers:,} numbers, roughly {format_count(seconds, 'second')}: "
            f"about {CERTIFICATE_SECONDS_PER_MILLION_NUMBERS} s per million numbers in "
            f"benchmarks/scaling.py)")


def stopped_message(result: Any, args: Any, what_is_known: str) -> str:
    """The one line on stderr: where the run stopped, which budget, what is known."""
    return (f"pla: stopped after {format_count(result.updates, 'update')} without halting "
            f"({budget_text(result, args)}); {what_is_known}")
