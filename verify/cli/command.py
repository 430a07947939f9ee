"""The ``pla`` command line: composes :mod:`pla` (the algorithms) and :mod:`verify` (the checks).

Each subcommand lives in ``verify/cli/<name>.py`` and exposes ``register(subparsers)``; its
handler, set with ``set_defaults(handler=...)``, returns the exit code.

Exit codes: one table, :data:`verify.cli.exit_codes.EXIT_CODES`.  The verdict decides the exit
code whatever happens to standard output: a reader that leaves (``pla claims x.md | head``) or a
full device shortens the output, never turns a failure into 0.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from typing import Any, NoReturn, Sequence

from verify.cli import exit_codes
from verify.cli.usage import UsageError

__all__ = ["main", "run_main", "build_parser", "COMMANDS"]

#: Subcommand modules under verify.cli, in the order ``pla --help`` lists them.
COMMANDS = ("run", "make_data", "certify", "audit", "pocket", "homework", "proof", "claims")


class OneLineParser(argparse.ArgumentParser):
    """argparse, except that a usage error is one line, ``pla: error: ...`` (no usage block),
    with a pointer to ``--help``; exit code 2."""

    def error(self, message: str) -> NoReturn:
        print(f"pla: error: {message} (see `{self.prog} --help`)", file=sys.stderr)
        raise SystemExit(exit_codes.USAGE)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (used by ``main`` and by the generated CLI reference)."""
    parser = OneLineParser(
        prog="pla",
        description="Exact Perceptron Learning Algorithm runs, checked against the convergence "
                    "proof at every step.",
        epilog=exit_codes.exit_codes_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from pla import __version__
    parser.add_argument("--version", action="version", version=f"pla-verify {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMANDS:
        importlib.import_module(f"verify.cli.{name}").register(subparsers)
    return parser


class GuardedStdout:
    """Standard output that never raises: when the reader has left (a closed pipe) or the
    device is full, the rest of the output is dropped and the error remembered, so that the
    command's verdict still decides the exit code."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.error: OSError | None = None

    def write(self, text: str) -> int:
        if self.error is None:
            try:
                return self.stream.write(text)
            except OSError as exc:
                self._drop(exc)
        return len(text)

    def flush(self) -> None:
        if self.error is None:
            try:
                self.stream.flush()
            except OSError as exc:
                self._drop(exc)

    def _drop(self, exc: OSError) -> None:
        self.error = exc
        try:  # whatever is still buffered goes nowhere, also at interpreter exit
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


#: The signals the command's own handlers turned into exceptions (:func:`_terminate`,
#: :func:`_interrupt`): an exception that reaches :func:`_main` after one of them is that
#: signal's, whatever it became on its way out (an extension module's import turns it into an
#: ImportError: ``PyCapsule_Import could not import module "datetime"`` from numpy's import).
_SIGNALLED: list[int] = []


def _terminate(signum: int, frame: Any) -> None:
    from pla.files import Terminated
    _SIGNALLED.append(signum)
    raise Terminated()


def _interrupt(signum: int, frame: Any) -> None:
    _SIGNALLED.append(signum)
    raise KeyboardInterrupt()


def _signal_again(unraisable: Any) -> None:
    """``sys.unraisablehook`` while the command runs: a signal's exception raised where Python
    cannot propagate it (a weakref callback of the import machinery, a ``__del__``) would be
    printed as "Exception ignored" with a traceback and then lost; the signal is delivered again
    instead, so its handler raises in the next ordinary frame and the command stops cleanly.
    It is sent from another thread once this hook has returned: raised in the hook (or in the
    thread start it waits for), the handler's exception would be lost the same way."""
    import threading

    from pla.files import Terminated

    signum = signal.SIGTERM if isinstance(unraisable.exc_value, Terminated) else \
        signal.SIGINT if isinstance(unraisable.exc_value, KeyboardInterrupt) else None
    if signum is None:
        sys.__unraisablehook__(unraisable)
    else:
        threading.Thread(target=_send_once_out_of_the_hook,
                         args=(signum, threading.get_ident())).start()


def _send_once_out_of_the_hook(signum: int, thread: int) -> None:
    """Send ``signum`` to this process as soon as ``thread`` is no longer in
    :func:`_signal_again` (a loaded machine can keep it there for milliseconds)."""
    import time

    while _in_the_hook(sys._current_frames().get(thread)):
        time.sleep(0.001)
    os.kill(os.getpid(), signum)


def _in_the_hook(frame: Any) -> bool:
    """Whether ``frame`` or one of its callers is :func:`_signal_again`.

    >>> import inspect
    >>> _in_the_hook(inspect.currentframe())
    False
    """
    while frame is not None:
        if frame.f_code is _signal_again.__code__:
            return True
        frame = frame.f_back
    return False


#: What a signal that lands during start-up says, and its exit code (nothing is written yet).
_START_UP_EXITS = {signal.SIGTERM: ("pla: terminated (SIGTERM)\n", exit_codes.TERMINATED),
                   signal.SIGINT: ("pla: interrupted\n", exit_codes.INTERRUPTED)}


def _exit_during_start_up(signum: int, frame: Any) -> None:
    """SIGTERM or SIGINT before the command's handlers are in place (during the imports):
    nothing has been written, so say so in one line and exit at once -- no traceback."""
    message, code = _START_UP_EXITS[signum]
    os.write(2, message.encode())
    os._exit(code)


def _own_signals() -> dict[int, Any]:
    """Install the start-up handlers first thing (main thread, handlers left at their defaults
    only); return the handlers to restore."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return {}
    defaults = {signal.SIGTERM: signal.SIG_DFL, signal.SIGINT: signal.default_int_handler}
    return {signum: signal.signal(signum, _exit_during_start_up)
            for signum, default in defaults.items() if signal.getsignal(signum) == default}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pla`` console script; returns (and exits with) the exit code."""
    previous = _own_signals()
    original_stdout, original_hook = sys.stdout, sys.unraisablehook
    guarded = GuardedStdout(original_stdout)
    sys.stdout = guarded
    if previous:  # the command owns the signals, so also their exceptions nobody can catch
        sys.unraisablehook = _signal_again
    try:
        code = _main(argv, previous)
        guarded.flush()
    finally:
        sys.stdout, sys.unraisablehook = original_stdout, original_hook
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if guarded.error is not None and not isinstance(guarded.error, BrokenPipeError):
        print(f"pla: error: standard output: cannot write: "
              f"{guarded.error.strerror or guarded.error}", file=sys.stderr)
        if code == exit_codes.OK:
            code = exit_codes.USAGE
    return code


def _main(argv: Sequence[str] | None, owned: dict[int, Any]) -> int:
    from pla.dataset import DataError
    from pla.files import InputRefused, OutputRefused, Terminated, shown_path
    from pla.perceptron import OptionError

    # Exact results may have more digits than CPython's default int<->str limit (4300); every
    # reader bounds the digits of what it parses itself (--max-digits).
    sys.set_int_max_str_digits(0)
    _SIGNALLED.clear()
    try:
        # The imports are done and the handlers below catch what a signal raises: from here a
        # signal unwinds (a trace ends with an incomplete line).
        if signal.SIGTERM in owned:
            signal.signal(signal.SIGTERM, _terminate)
        if signal.SIGINT in owned:
            signal.signal(signal.SIGINT, _interrupt)
        parser = build_parser()
        args = parser.parse_args(argv)
        return args.handler(args)
    except (DataError, OptionError, UsageError, InputRefused, OutputRefused) as exc:
        print(f"pla: error: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    except Terminated:
        print("pla: terminated (SIGTERM)", file=sys.stderr)
        return exit_codes.TERMINATED
    except KeyboardInterrupt:
        print("pla: interrupted", file=sys.stderr)
        return exit_codes.INTERRUPTED
    except MemoryError:
        print("pla: error: out of memory (see the limits on docs/reliability.md)",
              file=sys.stderr)
        return exit_codes.USAGE
    except OSError as exc:  # e.g. a fork that fails, a file that vanished
        where = f"{shown_path(exc.filename)}: " if exc.filename else ""
        print(f"pla: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return exit_codes.USAGE
    except Exception as exc:
        if _SIGNALLED:                  # (a signal's exception, changed on its way out)
            message, code = _START_UP_EXITS[_SIGNALLED[0]]
            sys.stderr.write(message)
            return code
        # A proof violation can only come from the kernel, imported by whatever raised it: it
        # is looked up here rather than imported, so that `pla run` without --check does not
        # import the kernel (~70 ms of a whole process).
        steps = sys.modules.get("verify.kernel.steps")
        if steps is None or not isinstance(exc, steps.ProofViolation):
            raise
        print(f"pla: proof violation: {exc}", file=sys.stderr)
        return exit_codes.PROOF_VIOLATION


#: BLAS thread pools the ``pla`` command keeps to one thread unless the environment says
#: otherwise: its float work (certificate proposals) is small dense algebra, where a second
#: BLAS thread waits for the core the exact engine needs (docs/benchmarks.md measures it).
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def run_main() -> None:  # pragma: no cover - console-script shim
    for name in BLAS_THREAD_VARIABLES:   # before numpy is imported: it reads them once
        os.environ.setdefault(name, "1")
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
