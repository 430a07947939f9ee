"""JSON Lines traces of a run, written so that a crash never leaves a corrupt file.

A trace is a header line, one line per update and a final summary line.  Exact numbers are
strings (``"3/4"``).  Every line carries ``prev``, the SHA-256 of the previous line's text (null on
the header), so truncation, reordering, duplication and editing break the chain.  Lines go to a
temporary file beside the target, which is renamed into place only when the trace is closed:
normally with a ``summary`` line, or on interruption with an ``incomplete`` line
(:class:`~pla.files.SafeOutput`: an input, a directory or a device is never replaced).

>>> import tempfile, os, json
>>> path = os.path.join(tempfile.mkdtemp(), "t.jsonl")
>>> with TraceWriter(path, {"kind": "header"}) as tw:
...     tw.write({"kind": "step", "t": 0})
...     tw.close({"kind": "summary"})
>>> [json.loads(line)["kind"] for line in open(path)]
['header', 'step', 'summary']
"""

from __future__ import annotations

import hashlib
import json
import os
from fractions import Fraction
from typing import Any, Iterable

from pla.files import MAX_INPUT_BYTES, OutputRefused, SafeOutput, Terminated, signals_deferred

__all__ = [
    "TRACE_FORMAT", "TRACE_VERSION", "MAX_TRACE_BYTES", "TraceWriter", "line_hash", "exact_list", "step_record",
    "header_record", "summary_record",
]

TRACE_FORMAT = "pla-verify-trace"
TRACE_VERSION = 1


def line_hash(line: str) -> str:
    """SHA-256 (hex) of one trace line's text, without its newline."""
    return hashlib.sha256(line.encode("utf-8")).hexdigest()


def exact_list(values: Iterable[Fraction | int]) -> list[str]:
    """Exact numbers as strings: ``[Fraction(1, 2), 3] -> ['1/2', '3']``.

    >>> exact_list([Fraction(1, 2), 3])
    ['1/2', '3']
    """
    return [str(v) for v in values]


def header_record(dataset: Any, options: Any, engine: str = "default",
                  timeout: float | None = None,
                  max_trace_bytes: int | None = None) -> dict[str, Any]:
    """The header line for a run of ``options`` on ``dataset`` (``timeout``: the time budget in
    seconds, ``max_trace_bytes``: the trace's size budget, recorded so that an audit can tell a
    run stopped by them from one cut short)."""
    header = {
        "kind": "header",
        "format": TRACE_FORMAT,
        "version": TRACE_VERSION,
        "data_sha256": dataset.fingerprint,
        "n": dataset.n,
        "d": dataset.d,
        "dim": dataset.dim,
        "bias": dataset.bias,
        "options": {
            "order": options.order,
            "seed": options.seed,
            "eta": str(options.eta),
            "w0": None if options.w0 is None else exact_list(options.w0),
            "zero": options.zero,
            "max_updates": options.max_updates,
            "timeout": timeout,
            "engine": engine,
        },
    }
    if max_trace_bytes is not None:
        header["options"]["max_trace_bytes"] = max_trace_bytes  # type: ignore[index]
    return header


def step_record(step: Any) -> dict[str, Any]:
    """The line for one :class:`~pla.perceptron.Step`."""
    return {
        "kind": "step",
        "t": step.t,
        "index": step.index,
        "y": step.y,
        "x": exact_list(step.x),
        "score": str(step.score),
        "w_before": exact_list(step.w_before),
        "w_after": exact_list(step.w_after),
    }


def summary_record(result: Any) -> dict[str, Any]:
    """The final line for a :class:`~pla.perceptron.Result`."""
    return {
        "kind": "summary",
        "updates": result.updates,
        "epochs": result.epochs,
        "halted": result.halted,
        "stopped_by": result.stopped_by,
        "w": exact_list(result.w),
    }


#: The default of ``--max-trace-bytes``: a run stops (like a budget, ``stopped_by =
#: "max-trace-bytes"``) once its trace holds this many bytes.
MAX_TRACE_BYTES = MAX_INPUT_BYTES   # so that `pla audit` reads any trace written by default


class TraceWriter:
    """Writes a hash-chained JSON Lines trace through :class:`~pla.files.SafeOutput`.

    Use as a context manager; call :meth:`close` with the summary record.  Leaving the block
    without closing (Ctrl-C, SIGTERM, another exception) ends the file with an ``incomplete``
    line naming the reason and still moves it into place, so the trace stays valid JSON Lines.
    The finish (last record, fsync, rename) runs with signals deferred, so a trace ends with
    exactly one of ``summary`` or ``incomplete``.  An OS error while writing (a full disk)
    removes the temporary file and raises :class:`~pla.files.OutputRefused`.  ``inputs`` are
    the files the run reads: the trace may not replace any of them.  ``max_bytes``: see
    :meth:`full`.
    """

    def __init__(self, path: str | os.PathLike[str], header: dict[str, Any],
                 inputs: Iterable[Any] = (), max_bytes: int | None = None) -> None:
        self.path = os.fspath(path)
        self.max_bytes = max_bytes
        self._out = SafeOutput(self.path, inputs=inputs, prefix=".trace-")
        # (bytes, hash of the last line, lines) of what is written: one tuple, replaced by one
        # assignment, so an interruption sees either the state before a line or after it.
        self._state: tuple[int, str | None, int] = (0, None, 0)
        self._pending = self._state
        self._closed = False
        self.write(header)

    @property
    def lines(self) -> int:
        """The number of complete lines written."""
        return self._state[2]

    @property
    def bytes(self) -> int:
        """The number of bytes written (complete lines, newlines included)."""
        return self._state[0]

    def full(self) -> bool:
        """Whether the trace holds ``max_bytes`` or more (the run then stops like at a budget,
        before its next update)."""
        return self.max_bytes is not None and self._state[0] >= self.max_bytes

    def write(self, record: dict[str, Any]) -> None:
        """Append one record, chaining it to the previous line."""
        text = self._line(record)
        encoded = text.encode("utf-8")
        size, _, lines = self._state
        self._pending = (size + len(encoded) + 1, hashlib.sha256(encoded).hexdigest(), lines + 1)
        self._out.write(text + "\n")
        self._state = self._pending

    def _line(self, record: dict[str, Any]) -> str:
        record = dict(record)
        record["prev"] = self._state[1]
        return json.dumps(record, separators=(",", ":"), ensure_ascii=False)

    def close(self, summary: dict[str, Any]) -> None:
        """Write the summary (with the count of lines before it) and move the file into place."""
        with signals_deferred():
            self._finish(dict(summary, lines=self.lines))

    def abort(self, reason: str) -> None:
        """End the trace with an ``incomplete`` line and move it into place, in constant memory.

        An interruption may land in the middle of a line or between writing a line and
        remembering it, so the file's size decides: the size after the pending line means it
        is complete; any other size is cut back to the last line known complete.  Nothing is
        re-read.  (Written in place, to a device or a pipe, the remembered state is used.)
        """
        if self._closed:
            return
        with signals_deferred():
            if self._out.temporary is not None:
                try:
                    self._out.file.flush()
                    descriptor = self._out.file.fileno()
                    size = os.fstat(descriptor).st_size
                    if size == self._pending[0]:
                        self._state = self._pending
                    elif size != self._state[0]:
                        os.ftruncate(descriptor, self._state[0])
                    self._out.file.seek(0, os.SEEK_END)
                except OSError as exc:
                    self.discard()
                    raise self._out.refused(exc) from None
            self._finish({"kind": "incomplete", "reason": reason, "lines": self.lines})

    def discard(self) -> None:
        """Remove the temporary file without producing a trace."""
        if not self._closed:
            self._closed = True
            self._out.discard()

    def _finish(self, record: dict[str, Any]) -> None:
        if self._closed:
            return
        self._closed = True
        self._out.commit(self._line(record) + "\n")

    def __enter__(self) -> "TraceWriter":
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if self._closed:
            return
        if isinstance(exc, (OSError, OutputRefused)):
            self.discard()
            if isinstance(exc, OSError):
                raise self._out.refused(exc) from None
            return
        if exc_type is Terminated:
            reason = "terminated (SIGTERM)"
        elif exc_type is KeyboardInterrupt:
            reason = "interrupted"
        else:
            reason = f"stopped by {exc_type.__name__}" if exc_type is not None else "not closed"
        self.abort(reason)
