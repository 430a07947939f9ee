"""Reading inputs with bounded memory and writing outputs that never clobber anything.

Every file ``pla`` reads goes through :func:`read_bounded` (a size limit, devices that never end
refused) and every file it writes goes through :class:`SafeOutput`:

* a regular file (or a new name) is written to a temporary file in the same directory and
  renamed into place only when complete, with SIGINT and SIGTERM deferred during the finish
  (flush, fsync, rename), so a signal can neither leave a half-written file under the requested
  name nor land between the last record and the rename;
* a character device or a FIFO (``/dev/null``, ``/dev/stdout``, a pipe) is written in place: it
  is never replaced by a regular file;
* a directory, a block device, or the same file (same device and inode, however it is named) as
  an input of the command is refused with :class:`OutputRefused`;
* any OS error while writing (a full disk, ``ulimit -f``, a name too long) removes the temporary
  file and becomes one :class:`OutputRefused` line naming the path and the OS error.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "out.txt")
>>> with SafeOutput(path) as out:
...     out.write("hello\\n")
...     out.commit()
>>> read_bounded(path)
b'hello\\n'
>>> SafeOutput(path, inputs=[path])
Traceback (most recent call last):
...
pla.files.OutputRefused: ...out.txt: refusing to overwrite an input of this command
"""

from __future__ import annotations

import os
import signal
import stat
import tempfile
from contextlib import contextmanager
from typing import Any, Iterable, Iterator

__all__ = ["SafeOutput", "OutputRefused", "InputRefused", "Terminated", "read_bounded",
           "shown_path", "signals_deferred", "MAX_INPUT_BYTES"]

#: The default limit on the bytes of one input file (``--max-input-bytes`` raises it).
MAX_INPUT_BYTES = 256 * 2**20

_CHUNK = 2**20
_DEFERRED_SIGNALS = {signal.SIGINT, signal.SIGTERM}


class OutputRefused(Exception):
    """An output that cannot or must not be written; ``str`` is one line naming the path."""


class InputRefused(Exception):
    """An input that is not read (too large, a device that never ends); one line naming it."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread by the command line's handler so that it unwinds
    exactly like Ctrl-C (traces end with an ``incomplete`` line); exit code 143."""


def shown_path(path: str | os.PathLike[str]) -> str:
    """A file name safe to print on one line: quoted when it holds control characters
    (newlines, terminal escape codes) or leading/trailing spaces, unchanged otherwise.

    >>> shown_path("data.dat")
    'data.dat'
    >>> shown_path("evil\\n\\x1b[31m.dat")
    "'evil\\\\n\\\\x1b[31m.dat'"
    """
    text = os.fspath(path)
    if isinstance(text, bytes):  # pragma: no cover - pla passes str paths
        text = text.decode("utf-8", "backslashreplace")
    if text.isprintable() and text == text.strip():
        return text
    return repr(text)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM for the duration of the block; deliver them when it ends.

    The handlers are swapped for one that only records the signal (a signal mask would not
    do: the kernel hands a process-directed signal to any thread that does not block it, such
    as a numerical library's worker threads).  Only the main thread can do this; elsewhere the
    block runs unprotected, as Python delivers signals to the main thread only.

    >>> with signals_deferred():
    ...     pass
    """
    import threading
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: Any) -> None:
        caught.append(signum)
    previous = {signum: signal.signal(signum, hold) for signum in _DEFERRED_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(caught):
            signal.raise_signal(signum)


def read_bounded(path: str | os.PathLike[str], max_bytes: int = MAX_INPUT_BYTES,
                 option: str = "--max-input-bytes") -> bytes:
    """The bytes of the file at ``path``, refusing more than ``max_bytes`` of them.

    A regular file is checked by its size before anything is read; a pipe or a terminal is read
    in chunks up to the limit; devices that never end (``/dev/zero``, ``/dev/urandom``),
    block devices and directories are refused.  Raises :class:`InputRefused` (too large, not a
    readable kind of file) or :class:`OSError` (cannot open or read).

    >>> read_bounded("/dev/zero")
    Traceback (most recent call last):
    ...
    pla.files.InputRefused: /dev/zero: a device, not a file (it never ends): refusing to read it
    """
    name = shown_path(path)
    with open(path, "rb", buffering=0) as handle:
        info = os.fstat(handle.fileno())
        if stat.S_ISDIR(info.st_mode):
            raise InputRefused(f"{name}: a directory, not a file")
        if stat.S_ISBLK(info.st_mode) or (stat.S_ISCHR(info.st_mode)
                                          and not os.isatty(handle.fileno())):
            raise InputRefused(f"{name}: a device, not a file (it never ends): refusing to "
                               "read it")
        if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
            raise InputRefused(f"{name}: {info.st_size:,} bytes, more than the limit of "
                               f"{max_bytes:,} (see {option})")
        chunks = bytearray()
        while True:
            chunk = handle.read(min(_CHUNK, max_bytes + 1 - len(chunks)))
            if not chunk:
                return bytes(chunks)
            chunks += chunk
            if len(chunks) > max_bytes:
                raise InputRefused(f"{name}: more than the limit of {max_bytes:,} bytes "
                                   f"(see {option})")


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


class SafeOutput:
    """One text output file, written so that nothing is lost or half-written (module docs).

    ``inputs`` are the files the command reads: the output may not be any of them (compared by
    device and inode).  ``others`` are the other outputs of the same command (compared by
    resolved name, as they may not exist yet).  ``prefix`` starts the temporary file's name.
    Use as a context manager; call :meth:`commit`
    when the content is complete.  Leaving the block without committing removes the temporary
    file; an ``OSError`` inside the block becomes :class:`OutputRefused`.
    """

    def __init__(self, path: str | os.PathLike[str], *, inputs: Iterable[Any] = (),
                 others: Iterable[Any] = (), prefix: str = ".pla-") -> None:
        self.path = os.fspath(path)
        self.name = shown_path(self.path)
        self.in_place = False
        self._tmp: str | None = None
        self._done = False
        target = os.path.realpath(self.path)
        for other in others:
            if other is not None and os.path.realpath(os.fspath(other)) == target:
                raise OutputRefused(f"{self.name}: named twice as an output of this command")
        try:
            info: os.stat_result | None = os.stat(self.path)
        except FileNotFoundError:
            info = None
        except OSError as exc:
            raise self.refused(exc) from None
        if info is not None:
            if stat.S_ISDIR(info.st_mode):
                raise OutputRefused(f"{self.name}: a directory; give a file name")
            if stat.S_ISBLK(info.st_mode):
                raise OutputRefused(f"{self.name}: a block device; refusing to write to it")
            for source in inputs:
                if source is None:
                    continue
                try:
                    if _same_file(info, os.stat(os.fspath(source))):
                        raise OutputRefused(f"{self.name}: refusing to overwrite an input of "
                                            "this command")
                except FileNotFoundError:
                    continue
            # A character device, a FIFO or a socket, or a regular file reached through
            # /dev/stdout, /dev/fd/N or /proc: written in place, never replaced.
            self.in_place = (not stat.S_ISREG(info.st_mode)
                             or self.path.startswith(("/dev/", "/proc/")))
        try:
            if self.in_place:
                self.file = open(self.path, "a", encoding="utf-8", newline="\n")
            else:
                fd, self._tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp",
                                                 dir=os.path.dirname(target))
                self.file = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        except OSError as exc:
            raise self.refused(exc) from None

    def refused(self, exc: OSError) -> OutputRefused:
        """The one-line error for an OS error on this output."""
        return OutputRefused(f"{self.name}: cannot write: {exc.strerror or exc}")

    @property
    def temporary(self) -> str | None:
        """The temporary file being written (None when writing in place)."""
        return self._tmp

    def write(self, text: str) -> None:
        """Append text (to the temporary file, or in place)."""
        try:
            self.file.write(text)
        except OSError as exc:
            self.discard()
            raise self.refused(exc) from None

    def commit(self, last: str = "") -> None:
        """Write ``last``, then flush, fsync and rename into place, with signals deferred."""
        if self._done:
            return
        with signals_deferred():
            try:
                if last:
                    self.file.write(last)
                self.file.flush()
                if not self.in_place:
                    os.fsync(self.file.fileno())
                self.file.close()
                if self._tmp is not None:
                    os.replace(self._tmp, os.path.realpath(self.path))
                    self._tmp = None
            except OSError as exc:
                self.discard()
                raise self.refused(exc) from None
            self._done = True

    def discard(self) -> None:
        """Give up: close and remove the temporary file (nothing appears under the name)."""
        if self._done:
            return
        self._done = True
        try:
            self.file.close()
        except OSError:
            pass
        if self._tmp is not None:
            try:
                os.unlink(self._tmp)
            except FileNotFoundError:
                pass
            self._tmp = None

    def __enter__(self) -> "SafeOutput":
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if not self._done:
            self.discard()
        if isinstance(exc, OSError):
            raise self.refused(exc) from None
