"""A small progress bar for long multi-run commands, drawn on stderr only when it is a terminal.

>>> import io
>>> stream = io.StringIO()
>>> bar = ProgressBar("runs", stream=stream, enabled=True, width=10, min_interval=0)
>>> bar(5, 10); bar(10, 10); bar.close()
>>> stream.getvalue().split("\\r")[1].rstrip()
'runs [#####.....]  5/10  50%'
>>> ProgressBar("runs", stream=io.StringIO()).enabled      # not a terminal: hidden
False
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressBar", "progress_enabled"]


def progress_enabled(stream: TextIO, quiet: bool) -> bool:
    """Whether to draw: not ``--quiet`` and ``stream`` is a terminal."""
    if quiet:
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class ProgressBar:
    """``bar(done, total)`` redraws one line (at most every ``min_interval`` s, and at the end).

    Use as the ``on_progress`` callback of :func:`pla.experiments.parallel_map`; call
    :meth:`close` (or use ``with``) to erase the line before printing results.
    """

    def __init__(self, label: str, *, stream: TextIO | None = None, enabled: bool | None = None,
                 width: int = 30, min_interval: float = 0.1) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.enabled = progress_enabled(self.stream, False) if enabled is None else enabled
        self.label = label
        self.width = width
        self.min_interval = min_interval
        self.started = time.monotonic()
        self._last_draw = float("-inf")
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self._last_draw < self.min_interval:
            return
        self._last_draw = now
        filled = self.width * done // total if total else self.width
        percent = 100 * done // total if total else 100
        digits = len(str(total))
        line = (f"{self.label} [{'#' * filled}{'.' * (self.width - filled)}] "
                f"{done:>{digits}}/{total} {percent:3d}%")
        elapsed = now - self.started
        if elapsed >= 1:
            line += f"  {elapsed:.0f} s"
        self.stream.write("\r" + line)
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Erase the bar's line."""
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False

    def __enter__(self) -> "ProgressBar":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
