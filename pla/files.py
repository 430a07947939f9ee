"""Reading inputs with bounded memory and writing outputs that never clobber anything.

Every file ``pla`` reads goes through :func:`read_bounded` (a size limit, devices that never end
refused) and every file it writes goes through :class:`SafeOutput`:

* a regular file (or a new name) is written to a temporary file in the same directory and
  renamed into place only when complete, with SIGINT and SIGTERM deferred during the finish
  (flush, fsync, rename), so a signal can neither leave a half-written file under the requested
  name nor land between the last record and the rename;
* what is written in place or replaced is decided by the file's type (``stat``), never by its
  name: a character device, a FIFO or a socket (``/dev/null``, ``/dev/stdout`` on a terminal or
  a pipe) is written in place and never replaced by a regular file; a regular file is replaced
  (through a symbolic link: the file it points to) wherever it lives, under ``/dev/shm`` or
  ``/proc/self/cwd`` too, so writing twice never appends;
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
           "shown_path", "signals_deferred", "write_text", "open_bounded", "claim_directory",
           "refuse_foreign_directory", "MAX_INPUT_BYTES"]

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
    with open_bounded(path, max_bytes, option, buffering=0) as handle:
        chunks = bytearray()
        while True:
            chunk = handle.read(min(_CHUNK, max_bytes + 1 - len(chunks)))
            if not chunk:
                return bytes(chunks)
            chunks += chunk
            if len(chunks) > max_bytes:
                raise InputRefused(f"{name}: more than the limit of {max_bytes:,} bytes "
                                   f"(see {option})")


def open_bounded(path: str | os.PathLike[str], max_bytes: int = MAX_INPUT_BYTES,
                 option: str = "--max-input-bytes", buffering: int = -1) -> Any:
    """The file at ``path`` opened for binary reading, after the checks of
    :func:`read_bounded` (a regular file no larger than ``max_bytes``; no directory, block
    device or device that never ends); the caller reads it, in bounded pieces.

    >>> open_bounded("/")
    Traceback (most recent call last):
    ...
    pla.files.InputRefused: /: a directory, not a file
    """
    name = shown_path(path)
    try:
        handle = open(path, "rb", buffering=buffering)
    except IsADirectoryError:
        raise InputRefused(f"{name}: a directory, not a file") from None
    try:
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
    except BaseException:
        handle.close()
        raise
    return handle


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _is_own_stream(info: os.stat_result) -> bool:
    """Whether the file is this process's standard output or error (compared by inode)."""
    for descriptor in (1, 2):
        try:
            if _same_file(info, os.fstat(descriptor)):
                return True
        except OSError:
            continue
    return False


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
        # Decided by the file's type (stat), never by its name: a character device, a FIFO or
        # a socket is written in place (never replaced by a regular file); a regular file,
        # wherever it lives (/dev/shm, /proc/self/cwd/...), is replaced through a temporary
        # file beside its real path -- unless that path is not the same file (an open but
        # deleted file reached through /proc/self/fd/N), which is then truncated in place.
        # The command's own standard output or error (`--trace /dev/stdout > file`) is
        # appended to, like everything else the command prints there.
        own_stream = info is not None and _is_own_stream(info)
        self.in_place = info is not None and (own_stream or not self._replaceable(info, target))
        try:
            if self.in_place:
                mode = "w" if stat.S_ISREG(info.st_mode) and not own_stream else "a"  # type: ignore[union-attr]
                self.file = open(self.path, mode, encoding="utf-8", newline="\n")
            else:
                fd, self._tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp",
                                                 dir=os.path.dirname(target))
                self.file = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        except OSError as exc:
            raise self.refused(exc) from None
        self._target = target

    @staticmethod
    def _replaceable(info: os.stat_result, target: str) -> bool:
        """A regular file whose resolved path names that same file (so a rename can replace
        it)."""
        if not stat.S_ISREG(info.st_mode):
            return False
        try:
            return _same_file(info, os.stat(target))
        except OSError:
            return False

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
                    os.replace(self._tmp, self._target)
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


def write_text(path: str | os.PathLike[str], text: str, *, inputs: Iterable[Any] = (),
               others: Iterable[Any] = ()) -> None:
    """Write one whole text file through :class:`SafeOutput` (never over an input, a
    directory or a block device; nothing half-written; errors name ``path``).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "a.v")
    >>> write_text(path, "Check nat.\\n"); read_bounded(path)
    b'Check nat.\\n'
    """
    with SafeOutput(path, inputs=inputs, others=others) as out:
        out.write(text)
        out.commit()


def refuse_foreign_directory(directory: str | os.PathLike[str], marker: str, *,
                             force: bool = False, option: str = "--force") -> None:
    """The check of :func:`claim_directory` alone, writing nothing (so that a command can refuse
    before its work): raises :class:`OutputRefused` when ``directory`` exists and holds files
    but no ``marker``, unless ``force``; a missing directory is fine."""
    name = shown_path(directory)
    try:
        entries = sorted(os.listdir(directory))
    except FileNotFoundError:
        return
    except NotADirectoryError:
        raise OutputRefused(f"{name}: not a directory") from None
    except OSError as exc:
        raise OutputRefused(f"{name}: cannot write: {exc.strerror or exc}") from None
    if entries and marker not in entries and not force:
        shown = ", ".join(entries[:3]) + (", ..." if len(entries) > 3 else "")
        raise OutputRefused(f"{name}: holds files not written by pla ({shown}); give an empty "
                            f"or new directory, or {option} to replace them")


def claim_directory(directory: str | os.PathLike[str], marker: str, *, force: bool = False,
                    option: str = "--force") -> None:
    """Make ``directory`` ready for a set of files written by ``pla``: create it, or accept it
    when it is empty or holds the ``marker`` file (written there by an earlier ``pla``), or when
    ``force``; otherwise refuse (it holds someone else's files, such as their own Makefile).
    The marker is written (through :func:`write_text`) before anything else.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp(); claim_directory(d, ".written-by-pla"); claim_directory(d, ".written-by-pla")
    >>> _ = open(os.path.join(d, "Makefile"), "w").write("mine"); os.remove(os.path.join(d, ".written-by-pla"))
    >>> claim_directory(d, ".written-by-pla")
    Traceback (most recent call last):
    ...
    pla.files.OutputRefused: ...: holds files not written by pla (Makefile); give an empty or new directory, or --force to replace them
    """
    refuse_foreign_directory(directory, marker, force=force, option=option)
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise OutputRefused(f"{shown_path(directory)}: cannot write: {exc.strerror or exc}"
                            ) from None
    write_text(os.path.join(directory, marker),
               "This directory was written by pla-verify; pla may replace its files.\n")
