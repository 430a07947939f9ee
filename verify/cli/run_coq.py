"""``pla run DATA --check --coq FILE.v``: record the run's updated rows and write the Coq file.

>>> rows = []
>>> hook = _recording(lambda t, i, y, s: None, rows)
>>> hook(0, 4, 1, 0); rows
[4]
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable

__all__ = ["record_updated_rows", "write_run_file", "run_certificate", "expected_run_file"]


def _recording(on_update: Callable[[int, int, int, Any], None], rows: list[int]
               ) -> Callable[[int, int, int, Any], None]:
    def hook(t: int, index: int, y: int, score: Any) -> None:
        rows.append(index)
        on_update(t, index, y, score)

    return hook


def record_updated_rows(args: argparse.Namespace, options: Any, callbacks: list[Any],
                        on_update: Any, rows: list[int]) -> tuple[list[Any], Any]:
    """Check that the run is one the Coq corollary speaks about, and add a recorder of the rows
    it updates on (to the cheap ``on_update`` hook when there is one, else to the step
    callbacks)."""
    from pla.files import SafeOutput
    from verify.cli.usage import UsageError

    if not args.coq.endswith(".v"):
        raise UsageError(f"--coq: {args.coq} must end in .v (Coq reads only .v files)")
    if options.w0 is not None and any(options.w0):
        raise UsageError("--coq needs --w0 zero: the Coq corollary is about runs from w0 = 0")
    if options.zero != "mistake":
        raise UsageError("--coq needs --zero mistake: the Coq corollary counts a zero score "
                         "as a mistake")
    # Refused before the run when FILE.v is an input, a directory or a block device.
    SafeOutput(args.coq, inputs=_inputs(args), others=[args.trace]).discard()
    if on_update is not None:
        return callbacks, _recording(on_update, rows)
    return callbacks + [lambda step: rows.append(step.index)], None


def _inputs(args: argparse.Namespace) -> list[str]:
    """The files ``pla run`` reads (the data and a weights file given as ``--wf``)."""
    from verify.checks.checked_run import WF_CHOICES

    return [args.data] + ([args.wf] if args.wf not in WF_CHOICES else [])


def write_run_file(args: argparse.Namespace, dataset: Any, options: Any, monitor: Any,
                   rows: list[int], echo: bool) -> None:
    """Write the run's Coq file (:mod:`verify.coq.run_files`) with the monitor's w_f."""
    from pla.files import write_text
    from verify.coq.library import check_command
    from verify.coq.run_files import run_file

    certificate = run_certificate(dataset, monitor, args.wf)
    write_text(args.coq, run_file(dataset, certificate, options.eta, rows),
               inputs=_inputs(args), others=[args.trace])
    print(f"coq      wrote {args.coq} ({len(rows)} updates); check it with: "
          f"pla proof --coq DIR && make -C DIR && {check_command('DIR', args.coq)}",
          file=sys.stdout if echo else sys.stderr)


def run_certificate(dataset: Any, monitor: Any, wf: str) -> Any:
    """The certificate a run file carries: the monitor's w_f (or a near-max-margin w_f with
    short entries and the same N, :func:`verify.coq.certificate_files.coq_certificate`), or
    (non-separable data) the Gordan certificate."""
    from verify.coq.certificate_files import coq_certificate
    from verify.search.certificates import certify, separator_for

    if monitor.wf is None:
        return certify(dataset)
    return coq_certificate(dataset, separator_for(dataset, monitor.wf, kind=wf))


def expected_run_file(dataset: Any, options: Any, wf: str = "maxmargin") -> str:
    """The run file ``pla run DATA --check --coq F.v`` writes for these data and options:
    the run is made again (it is deterministic: order, seed, eta, budget) and its updated rows
    recorded.  ``pla audit F.v --data DATA`` compares a file with this text.

    >>> import pla
    >>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    >>> "Definition T : Z := " in expected_run_file(ds, pla.RunOptions())
    True
    """
    import pla
    from verify.checks.checked_run import prepare_monitor
    from verify.coq.run_files import run_file

    monitor = prepare_monitor(dataset, options, wf)
    rows: list[int] = []
    pla.run(dataset, options=options, keep_steps=False,
            on_update=_recording(lambda t, i, y, score: None, rows))
    return run_file(dataset, run_certificate(dataset, monitor, wf), options.eta, rows)
