"""JSON Lines traces of a run, written so that a crash never leaves a corrupt file.

A trace is a header line, one line per update and a final summary line.  Exact numbers are
strings (``"3/4"``).  Every line carries ``prev``, the SHA-256 of the previous line's text (null on
the header), so truncation, reordering, duplication and editing break the chain.  Lines go to a
temporary file beside the target, which is renamed into place only when the trace is closed:
normally with a ``summary`` line, or on interruption with an ``incomplete`` line.

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
import tempfile
from fractions import Fraction
from typing import Any, Iterable

__all__ = [
    "TRACE_FORMAT", "TRACE_VERSION", "TraceWriter", "line_hash", "exact_list", "step_record",
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


def header_record(dataset: Any, options: Any, engine: str = "default") -> dict[str, Any]:
    """The header line for a run of ``options`` on ``dataset``."""
    return {
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
            "engine": engine,
        },
    }


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


class TraceWriter:
    """Writes a hash-chained JSON Lines trace atomically (temporary file, then rename).

    Use as a context manager; call :meth:`close` with the summary record.  Leaving the block
    without closing (an exception, Ctrl-C) ends the file with an ``incomplete`` line naming the
    reason and still renames it into place, so the trace stays valid JSON Lines.
    """

    def __init__(self, path: str | os.PathLike[str], header: dict[str, Any]) -> None:
        self.path = os.fspath(path)
        directory = os.path.dirname(os.path.abspath(self.path))
        fd, self._tmp = tempfile.mkstemp(prefix=".trace-", suffix=".tmp", dir=directory)
        self._file = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        self._prev: str | None = None
        self.lines = 0
        self._closed = False
        self.write(header)

    def write(self, record: dict[str, Any]) -> None:
        """Append one record, chaining it to the previous line."""
        record = dict(record)
        record["prev"] = self._prev
        text = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
        self._file.write(text + "\n")
        self._prev = line_hash(text)
        self.lines += 1

    def close(self, summary: dict[str, Any]) -> None:
        """Write the summary (with the count of lines before it) and move the file into place."""
        self._finish(dict(summary, lines=self.lines))

    def abort(self, reason: str) -> None:
        """End the trace with an ``incomplete`` line and move it into place.

        An interruption may land between writing a line and remembering its hash, or in the
        middle of a line, so the chain is re-read from the file itself: a partial last line is
        dropped and ``prev`` is the hash of the last complete line.
        """
        if self._closed:
            return
        self._file.flush()
        with open(self._tmp, "rb+") as handle:
            content = handle.read()
            keep = content.rfind(b"\n") + 1
            handle.truncate(keep)
        complete = content[:keep].decode("utf-8").splitlines()
        self._prev = line_hash(complete[-1]) if complete else None
        self.lines = len(complete)
        self._file.seek(0, os.SEEK_END)
        self._finish({"kind": "incomplete", "reason": reason, "lines": self.lines})

    def discard(self) -> None:
        """Remove the temporary file without producing a trace."""
        if not self._closed:
            self._closed = True
            self._file.close()
            os.unlink(self._tmp)

    def _finish(self, record: dict[str, Any]) -> None:
        if self._closed:
            return
        self.write(record)
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        os.replace(self._tmp, self.path)
        self._closed = True

    def __enter__(self) -> "TraceWriter":
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if not self._closed:
            reason = "interrupted" if exc_type is KeyboardInterrupt else (
                f"stopped by {exc_type.__name__}" if exc_type is not None else "not closed")
            self.abort(reason)
