"""Audit a recorded PLA run: replay its trace exactly against the data and the proof.

:func:`audit` reads a JSON Lines trace written by ``pla run --trace`` (format in
:mod:`pla.trace`) and checks, line by line, stopping at the first failure:

- the hash chain: every line's ``prev`` is the SHA-256 of the previous line's text;
- the header: format and version, the data fingerprint, n, d, dim, bias, valid options;
- every step: the numbering t = 0, 1, 2, …, the row and its label, x equal to the data row,
  wₜ equal to the previous wₜ₊₁ (w₀ for the first), the score recomputed exactly, that the
  update was a mistake under the recorded sign(0) convention, and wₜ₊₁ = wₜ + η yₙ xₙ;
- the order rule: ``cyclic`` / ``random-cycle`` -- the recorded row is the next mistake in the
  visiting order (:func:`pla.perceptron.visiting_order`, the specification), so no mistake was
  skipped; ``first`` -- the first mistake from row 0; ``random`` -- the seeded picks
  (``random.Random(seed).randrange(N)`` per visit) replayed, and no step after the weights
  became mistake-free;
- every inequality of the convergence proof (:class:`verify.checks.monitor.Monitor`, paranoid mode);
- the summary: the number of updates, the final w, ``halted`` (true: the final w makes no
  mistake, so the run really ended clean; false: the budget was used up while a mistake was
  left), the epochs and the line count.

Every number is written in canonical exact form (``str(Fraction)``); any other spelling is a
failure.  The hash chain detects edits of every line but the last; the replay detects any
change to a number that the data and the algorithm determine -- which is every number in the
trace -- so a trace forged consistently without the chain still fails unless it *is* the run.

A trace whose last line is ``incomplete`` (the run was interrupted) is reported as
``incomplete`` when everything before that line holds.

>>> import os, tempfile, pla
>>> from pla.trace import TraceWriter, header_record, step_record, summary_record
>>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> path = os.path.join(tempfile.mkdtemp(), "t.jsonl")
>>> options = pla.RunOptions(order="first")
>>> with TraceWriter(path, header_record(ds, options)) as tw:
...     result = pla.run(ds, options=options, on_step=lambda s: tw.write(step_record(s)))
...     tw.close(summary_record(result))
>>> report = audit(path, ds)
>>> report.status, report.steps, report.failure
('ok', 7, None)
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import lcm
from operator import mul
from typing import Any, Iterator

__all__ = ["audit", "audit_text", "AuditReport", "AuditFailure", "TraceUnreadable",
           "EXIT_INCOMPLETE"]

#: Exit code of ``pla audit`` for a trace of an interrupted run whose recorded part holds.
EXIT_INCOMPLETE = 5

_STEP_KEYS = {"kind", "t", "index", "y", "x", "score", "w_before", "w_after", "prev"}
_SUMMARY_KEYS = {"kind", "updates", "epochs", "halted", "stopped_by", "w", "lines", "prev"}
_INCOMPLETE_KEYS = {"kind", "reason", "lines", "prev"}


#: JSON nesting deeper than this is refused before parsing (a genuine line nests 3 deep).
MAX_TRACE_DEPTH = 8
#: Digits of a bare JSON number (t, index, counts; exact values are strings, bounded by
#: --max-digits): a longer one is refused before it is converted.
MAX_TRACE_INT_DIGITS = 30

_JSON_ESCAPE = re.compile(r"\\.", re.DOTALL)  # one escape pair: fixed width, no backtracking
_JSON_BRACKET = re.compile(r"[\[\]{}]")
#: Bytes of a line beyond what its numbers need (keys, the hash, the reason of an
#: ``incomplete`` line); with the numbers' digits this bounds every genuine line.
LINE_OVERHEAD = 4096


class TraceUnreadable(ValueError):
    """The input is not a pla-verify trace at all (missing, not text, no header line)."""


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_TRACE_INT_DIGITS:
        raise _Fail("format", f"a JSON number with {len(text):,} digits (at most "
                              f"{MAX_TRACE_INT_DIGITS} in a trace; exact values are strings)")
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > MAX_TRACE_INT_DIGITS:
        raise _Fail("format", f"a JSON number of {len(text):,} characters")
    return float(text)


def _trace_json(line: str) -> Any:
    """One trace line parsed, with bounded nesting and bounded bare numbers (raises _Fail)."""
    depth = deepest = 0
    # Linear in the line: drop escape pairs, then every other piece between quotes is outside
    # a string (no regex over whole strings, which backtracked and copied).
    outside = "".join(_JSON_ESCAPE.sub("", line).split('"')[0::2])
    for match in _JSON_BRACKET.finditer(outside):
        bracket = match.group()
        depth += 1 if bracket in "[{" else -1
        if depth > deepest:
            deepest = depth
            if deepest > MAX_TRACE_DEPTH:
                raise _Fail("format", f"JSON nested more than {MAX_TRACE_DEPTH} deep")
    try:
        return json.loads(line, parse_int=_bounded_int, parse_float=_bounded_float)
    except (ValueError, RecursionError):
        raise _Fail("format", "not valid JSON") from None


@dataclass(frozen=True)
class AuditFailure:
    """The first check that failed: ``line`` (1-based), a short ``check`` name and the message."""

    line: int
    check: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.check}: {self.message}"


@dataclass(frozen=True)
class AuditReport:
    """The verdict: ``status`` is ``ok``, ``failed`` or ``incomplete``."""

    status: str
    lines: int
    steps: int
    checks: int
    failure: AuditFailure | None = None
    incomplete_reason: str | None = None
    halted: bool | None = None
    updates: int | None = None
    epochs: int | None = None
    proof: Any = None   # the MonitorReport of the replay (ok traces)


class _Fail(Exception):
    def __init__(self, check: str, message: str) -> None:
        super().__init__(message)
        self.check = check
        self.message = message


def _exact(value: Any, what: str, index: int | None = None) -> Fraction:
    """A canonical exact number string ("3/4", "-2") as a Fraction (``what`` names it in an
    error, with ``[index]`` when it is an entry of a vector).

    >>> _exact("-3/4", "score"), _exact("2", "x", 1)
    (Fraction(-3, 4), Fraction(2, 1))
    >>> _exact("6/8", "x", 1)
    Traceback (most recent call last):
    verify.checks.audit._Fail: x[1] = '6/8' is not in canonical form '3/4'
    """
    if type(value) is str:                 # (what JSON gives: a builtin str, nothing else)
        # (short texts are remembered: a trace repeats them; a long one, which a header's w₀
        # may hold, is parsed each time and never kept alive after the audit)
        number = _canonical_number(value) if len(value) <= _REMEMBERED_LENGTH else \
            _canonical_number.__wrapped__(value)
        if type(number) is not str:
            return number
        problem = number
    else:
        problem = f" must be an exact number string, not {value!r}"
    raise _Fail("format", f"{what if index is None else f'{what}[{index}]'}{problem}")


#: Number texts up to this many characters are remembered, the last 4,096 of them (a few
#: hundred kilobytes at most).
_REMEMBERED_LENGTH = 40


@lru_cache(maxsize=4096)
def _canonical_number(text: str) -> Fraction | str:
    """The Fraction a canonical exact number string stands for, or what is wrong with it (a
    text that follows the name of the value).  Remembered per text: a trace repeats its
    numbers (the data's coordinates in every step), and a Fraction is immutable.

    >>> _canonical_number("-3/4"), _canonical_number("0.5"), _canonical_number("x")
    (Fraction(-3, 4), " = '0.5' is not in canonical form '1/2'", ": 'x' is not a number")
    """
    from pla.exact import NumberError, parse_fraction

    try:
        f = parse_fraction(text)
    except NumberError as exc:
        return f": {exc}"
    if str(f) != text:
        return f" = {text!r} is not in canonical form {str(f)!r}"
    return f


def _vector(value: Any, dim: int, what: str) -> list[Fraction]:
    if type(value) is not list or len(value) != dim:
        raise _Fail("format", f"{what} must be a list of {dim} exact numbers")
    return [_exact(v, what, i) for i, v in enumerate(value)]


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Fail("format", f"{what} must be an integer, not {value!r}")
    return value


def _mistake(S: int, y: int, zero: str) -> bool:
    """The mistake rule on the sign of S = (positive multiple of) w·x; independent of pla."""
    if S != 0:
        return (S > 0) != (y > 0)
    return {"mistake": True, "positive": y < 0, "negative": y > 0, "correct": False}[zero]


class _Replay:
    """The audit's own exact replay state: w = W / D over the data rows (x = row / L)."""

    def __init__(self, dataset: Any, options: Any) -> None:
        self.rows, self.labels, self.L = dataset.rows, dataset.labels, dataset.scale
        self.N = dataset.n
        self.options = options
        self.zero = options.zero
        eta = options.eta
        w0 = options.initial_weights(dataset.dim)
        self.D = lcm(eta.denominator * self.L, *(v.denominator for v in w0))
        self.k = self.D * eta.numerator // (eta.denominator * self.L)
        self.W = [int(v * self.D) for v in w0]
        self.order = options.order
        if self.order in ("cyclic", "random-cycle"):
            from pla.perceptron import visiting_order   # the specification of the order
            self.visit_order = visiting_order(self.N, options)
        self.visit = 0                 # cyclic: absolute visit counter
        self.last_update_visit = -1
        self.rng = random.Random(options.seed)
        self.visits = 0                # random: picks so far
        self.updates = 0
        self.row_bits = max((abs(x).bit_length() for row in self.rows for x in row), default=0)

    def score(self, i: int) -> int:
        return sum(map(mul, self.W, self.rows[i]))

    def is_mistake(self, i: int) -> bool:
        return _mistake(self.score(i), self.labels[i], self.zero)

    def first_mistake(self) -> int | None:
        return next((i for i in range(self.N) if self.is_mistake(i)), None)

    def next_update(self) -> int | None:
        """The row the algorithm updates next, or None when it halts (no mistake left).

        Advances the visiting state as the engine would when it finds that mistake.
        """
        if self.order in ("cyclic", "random-cycle"):
            for j in range(self.N):
                i = self.visit_order[(self.visit + j) % self.N]
                if self.is_mistake(i):
                    self.visit += j
                    return i
            return None
        if self.order == "first":
            return self.first_mistake()
        if self.first_mistake() is None:
            return None
        while True:
            i = self.rng.randrange(self.N)
            self.visits += 1
            if self.is_mistake(i):
                return i

    def apply(self, i: int) -> None:
        ky = self.k * self.labels[i]
        self.W = [w + ky * x for w, x in zip(self.W, self.rows[i])]
        if self.order in ("cyclic", "random-cycle"):
            self.last_update_visit = self.visit
            self.visit += 1
        self.updates += 1

    def epochs(self, halted: bool) -> int:
        N = self.N
        if self.order in ("cyclic", "random-cycle"):
            if halted:
                return 1 if self.last_update_visit < 0 else self.last_update_visit // N + 2
            return self.visit // N + 1
        if self.order == "first":
            return self.updates + 1
        return max(1, -(-self.visits // N))

    def weights(self) -> list[Fraction]:
        return [Fraction(v, self.D) for v in self.W]


def audit(path: str, dataset: Any, wf: str = "maxmargin",
          max_bytes: int | None = None) -> AuditReport:
    """Audit the trace file at ``path`` against ``dataset``; see the module documentation.

    The file is read one line at a time, in memory bounded by the longest line a genuine trace
    of these data can hold (:meth:`_Audit.line_limit`, from the dimension and the digits of the
    numbers so far): a longer line fails before it is decoded or parsed.  Raises
    :class:`TraceUnreadable` when the file is not a readable pla-verify trace, is larger than
    ``max_bytes`` (default :data:`pla.files.MAX_INPUT_BYTES`) or is a device that never ends.
    """
    from pla.files import MAX_INPUT_BYTES, InputRefused, open_bounded, shown_path

    limit = max_bytes or MAX_INPUT_BYTES
    try:
        handle = open_bounded(path, limit)
    except InputRefused as exc:
        raise TraceUnreadable(str(exc)) from None
    except OSError as exc:
        raise TraceUnreadable(f"{shown_path(path)}: cannot read: {exc.strerror}") from None
    state = _Audit(dataset, wf)
    with handle:
        return _audit_lines(_file_lines(handle, state, path, limit), state, path)


def audit_text(text: str, dataset: Any, wf: str = "maxmargin", path: str = "<trace>"
               ) -> AuditReport:
    """Audit a trace given as text (see :func:`audit`)."""
    state = _Audit(dataset, wf)
    return _audit_lines(_text_lines(text, state), state, path)


def _too_long(length: int, limit: int) -> _Fail:
    return _Fail("format", f"a line of {length:,}+ bytes, longer than any genuine line of this "
                           f"trace can be (at most {limit:,} here, from the dimension and the "
                           "digits of its numbers)")


def _file_lines(handle: Any, state: "_Audit", path: str, max_bytes: int) -> Iterator[str]:
    """The lines of an open binary file, each checked against ``state.line_limit()`` before
    more than that is read, decoded or parsed; at most ``max_bytes`` in all."""
    from pla.files import shown_path

    total = 0
    while True:
        limit = state.line_limit()
        raw = handle.readline(limit + 2)
        if not raw:
            return
        total += len(raw)
        if total > max_bytes:
            raise TraceUnreadable(f"{shown_path(path)}: more than the limit of {max_bytes:,} "
                                  "bytes (see --max-input-bytes)")
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        if len(raw) > limit:
            raise _too_long(len(raw), limit)
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _Fail("format", "not UTF-8 text") from None


def _text_lines(text: str, state: "_Audit") -> Iterator[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        limit = state.line_limit()
        if len(line) > limit:
            raise _too_long(len(line), limit)
        yield line


def _audit_lines(lines: Iterator[str], state: "_Audit", path: str) -> AuditReport:
    """The audit of a trace's lines (an iterator that may raise :class:`_Fail`)."""
    from pla.files import shown_path
    path = shown_path(path)
    try:
        first = next(lines, None)
        if first is None:
            raise TraceUnreadable(f"{path}:1: empty file, not a pla-verify trace")
        header = _trace_json(first)
    except _Fail as failure:
        raise TraceUnreadable(f"{path}:1: {failure.message}, not a pla-verify trace") from None
    if not isinstance(header, dict) or header.get("kind") != "header" or \
            header.get("format") != "pla-verify-trace":
        raise TraceUnreadable(f"{path}:1: not a pla-verify trace header")
    if header.get("version") != 1:
        raise TraceUnreadable(f"{path}:1: unsupported trace version {header.get('version')!r}")
    previous = first
    try:
        state.header(header)
        state.count_bytes(first)
        for line in lines:
            if state.ended:
                raise _Fail("structure", "a line after the trace's last line "
                                         f"({state.ended} line)")
            record = _trace_json(line)
            if not isinstance(record, dict):
                raise _Fail("format", "not a JSON object")
            expected = hashlib.sha256(previous.encode("utf-8")).hexdigest()
            state.checks += 1
            if record.get("prev") != expected:
                raise _Fail("hash chain", "prev is not the SHA-256 of the previous line "
                                          "(a line was edited, removed, inserted or reordered)")
            state.record(record, state.lines + 1)
            state.count_bytes(line)
            previous = line
        if not state.ended:
            raise _Fail("structure", "the trace ends without a summary or incomplete line "
                                     "(truncated)")
    except _Fail as failure:
        # the line being read (every line before it held); the header until it held
        line_number = state.lines + 1 if state.monitor is not None else 1
        return AuditReport("failed", line_number, state.replay.updates if state.replay else 0,
                           state.checks, AuditFailure(line_number, failure.check,
                                                      failure.message))
    lines_read = state.lines
    if state.ended == "incomplete":
        return AuditReport("incomplete", lines_read, state.replay.updates, state.checks,
                           incomplete_reason=state.reason)
    return AuditReport("ok", lines_read, state.replay.updates, state.checks,
                       halted=state.halted, updates=state.replay.updates,
                       epochs=state.epochs, proof=state.proof)


class _Audit:
    def __init__(self, dataset: Any, wf: str) -> None:
        self.dataset = dataset
        self.wf = wf
        self.checks = 0
        self.replay: _Replay | None = None
        self.monitor: Any = None
        self.ended: str | None = None
        self.reason: str | None = None
        self.halted: bool | None = None
        self.epochs: int | None = None
        self.proof: Any = None
        self.lines = 1
        self.max_trace_bytes: int | None = None
        self.bytes = 0                 # bytes of the lines so far, newlines included

    def count_bytes(self, line: str) -> None:
        """Add one checked line to the byte count (``max_trace_bytes`` is checked on it)."""
        self.bytes += len(line.encode("utf-8")) + 1

    def line_limit(self) -> int:
        """The most bytes the next line of a genuine trace can hold: the header's by the
        largest numbers a reader accepts; a later line's by the digits of the data, the current
        weights and one more update (every number of a line is at most that long)."""
        from pla.exact import MAX_DIGITS

        dim = self.dataset.dim
        if self.replay is None:
            return LINE_OVERHEAD + dim * (2 * MAX_DIGITS + 8)
        replay = self.replay
        numerator = (max((abs(w) for w in replay.W), default=0).bit_length()
                     + replay.k.bit_length() + replay.row_bits + dim.bit_length() + 2)
        denominator = replay.D.bit_length() + replay.L.bit_length() + 1
        digits = (numerator + denominator) * 30103 // 100000 + 8
        return LINE_OVERHEAD + (3 * dim + 1) * digits

    def header(self, h: dict[str, Any]) -> None:
        from pla.perceptron import ENGINES, OptionError, RunOptions

        ds = self.dataset
        if h.get("prev") is not None:
            raise _Fail("hash chain", "the header's prev must be null")
        if h.get("data_sha256") != ds.fingerprint:
            raise _Fail("data", f"the trace was made on other data (sha256 "
                                f"{str(h.get('data_sha256'))[:16]}, --data has "
                                f"{ds.fingerprint[:16]})")
        for key, value in (("n", ds.n), ("d", ds.d), ("dim", ds.dim), ("bias", ds.bias)):
            if h.get(key) != value or type(h.get(key)) is not type(value):
                raise _Fail("data", f"{key} = {h.get(key)!r}, the data have {value!r}")
        o = h.get("options")
        keys = {"order", "seed", "eta", "w0", "zero", "max_updates", "engine"}
        if not isinstance(o, dict) or set(o) not in (keys, keys | {"timeout"},
                                                     keys | {"timeout", "max_trace_bytes"}):
            raise _Fail("format", "options must have order, seed, eta, w0, zero, max_updates, "
                                  "engine (and timeout, max_trace_bytes)")
        if "max_trace_bytes" in o:
            self.max_trace_bytes = _int(o["max_trace_bytes"], "max_trace_bytes")
            if self.max_trace_bytes < 1:
                raise _Fail("format", "max_trace_bytes must be a positive integer")
        timeout = o.get("timeout")
        if timeout is not None and (type(timeout) not in (int, float) or not timeout > 0
                                    or timeout == float("inf")):
            raise _Fail("format", f"timeout must be null or a positive number of seconds, not "
                                  f"{timeout!r}")
        self.timeout = timeout
        eta = _exact(o["eta"], "eta")
        w0 = None if o["w0"] is None else tuple(_vector(o["w0"], ds.dim, "w0"))
        if o["engine"] not in ENGINES:
            raise _Fail("format", f"unknown engine {o['engine']!r}")
        try:
            options = RunOptions(order=o["order"], seed=_int(o["seed"], "seed"), eta=eta, w0=w0,
                                 zero=o["zero"], max_updates=_int(o["max_updates"],
                                                                  "max_updates"))
        except (OptionError, TypeError) as exc:
            raise _Fail("format", f"options: {exc}") from None
        self.checks += 3
        self.options = options
        self.replay = _Replay(ds, options)
        from verify.checks.checked_run import WfError, prepare_monitor
        from verify.checks.monitor import ProofViolation
        try:
            self.monitor = prepare_monitor(ds, options, self.wf, paranoid=True)
        except ProofViolation as exc:
            raise _Fail("proof", str(exc)) from None
        except WfError as exc:  # pragma: no cover - 'final' is refused by the CLI
            raise _Fail("proof", str(exc)) from None

    def _replay(self) -> _Replay:
        if self.replay is None:  # header() always sets it first
            raise _Fail("structure", "a line before the header")
        return self.replay

    def record(self, r: dict[str, Any], line: int) -> None:
        kind = r.get("kind")
        if kind == "step":
            if self.max_trace_bytes is not None and self.bytes >= self.max_trace_bytes:
                raise _Fail("budget", f"an update after the trace held {self.bytes:,} bytes, "
                                      f"max_trace_bytes = {self.max_trace_bytes:,}")
            self.step(r)
        elif kind == "summary":
            self.summary(r)
        elif kind == "incomplete":
            if set(r) != _INCOMPLETE_KEYS:
                raise _Fail("format", f"an incomplete line has exactly {sorted(_INCOMPLETE_KEYS)}")
            if _int(r["lines"], "lines") != self.lines:
                raise _Fail("summary", f"lines = {r['lines']}, but {self.lines} lines precede it")
            self.ended, self.reason = "incomplete", str(r["reason"])
        else:
            raise _Fail("format", f"unknown line kind {kind!r}")
        self.lines += 1

    def step(self, r: dict[str, Any]) -> None:
        from pla.perceptron import Step
        from verify.checks.monitor import ProofViolation

        replay, ds = self._replay(), self.dataset
        if set(r) != _STEP_KEYS:
            raise _Fail("format", f"a step line has exactly {sorted(_STEP_KEYS)}")
        t = _int(r["t"], "t")
        if t != replay.updates:
            raise _Fail("step", f"t = {t}, expected {replay.updates}")
        if replay.updates >= self.options.max_updates:
            raise _Fail("budget", f"update t = {t} is beyond max_updates = "
                                  f"{self.options.max_updates}")
        n = _int(r["index"], "index")
        if not 0 <= n < ds.n:
            raise _Fail("step", f"index {n} is not a row (0..{ds.n - 1})")
        y = _int(r["y"], "y")
        if y != ds.labels[n]:
            raise _Fail("step", f"y = {y}, but row {n + 1} has label {ds.labels[n]}")
        x = _vector(r["x"], ds.dim, "x")
        if x != list(ds.X[n]):
            raise _Fail("step", f"x is not row {n + 1} of the data")
        before = _vector(r["w_before"], ds.dim, "w_before")
        D, L = replay.D, replay.L
        if before != replay.weights():
            raise _Fail("step", f"w_before = ({', '.join(map(str, before))}) is not the previous "
                                f"w_after ({', '.join(map(str, replay.weights()))}; w0 for t = 0)")
        score = _exact(r["score"], "score")
        S = replay.score(n)
        if score != Fraction(S, D * L):
            raise _Fail("arithmetic", f"score = {score}, but w_t.x = {Fraction(S, D * L)}")
        if not _mistake(S, y, self.options.zero):
            raise _Fail("mistake", f"y w_t.x = {Fraction(y * S, D * L)} is not a mistake under "
                                   f"the {self.options.zero!r} convention")
        expected = replay.next_update()
        if expected is None:
            raise _Fail("order", f"no mistake is left: the {self.options.order} run halts "
                                 "before this update")
        if expected != n:
            raise _Fail("order", f"the {self.options.order} order updates row {expected + 1} "
                                 f"next, the trace records row {n + 1}")
        replay.apply(n)
        after = _vector(r["w_after"], ds.dim, "w_after")
        if after != replay.weights():
            raise _Fail("arithmetic", f"w_after = ({', '.join(map(str, after))}), but w_before + "
                                      f"eta*y*x = ({', '.join(map(str, replay.weights()))})")
        self.checks += 9
        try:
            self.monitor(Step(t, n, y, tuple(x), score, tuple(before), tuple(after)))
        except ProofViolation as exc:
            raise _Fail("proof", str(exc)) from None

    def summary(self, r: dict[str, Any]) -> None:
        from pla.perceptron import Result
        from verify.checks.monitor import ProofViolation

        replay = self._replay()
        if set(r) != _SUMMARY_KEYS:
            raise _Fail("format", f"a summary line has exactly {sorted(_SUMMARY_KEYS)}")
        updates = _int(r["updates"], "updates")
        if updates != replay.updates:
            raise _Fail("summary", f"updates = {updates}, the trace has {replay.updates} steps")
        w = _vector(r["w"], self.dataset.dim, "w")
        if w != replay.weights():
            raise _Fail("summary", "w is not the last w_after")
        halted = r["halted"]
        if not isinstance(halted, bool):
            raise _Fail("format", "halted must be true or false")
        if halted:
            bad = replay.first_mistake()
            if bad is not None:
                raise _Fail("summary", f"halted = true, but row {bad + 1} is still a mistake")
        stopped_by = r["stopped_by"]
        if halted and stopped_by is not None:
            raise _Fail("summary", f"halted = true, but stopped_by = {stopped_by!r}")
        if not halted and stopped_by not in ("max-updates", "timeout", "max-trace-bytes"):
            raise _Fail("summary", "halted = false needs stopped_by max-updates, timeout or "
                                   "max-trace-bytes")
        if stopped_by == "max-trace-bytes" and (self.max_trace_bytes is None
                                                or self.bytes < self.max_trace_bytes):
            raise _Fail("budget", f"stopped_by = 'max-trace-bytes', but the trace holds "
                                  f"{self.bytes:,} bytes before its summary, below "
                                  f"max_trace_bytes = {self.max_trace_bytes}")
        if stopped_by == "timeout" and self.timeout is None:
            raise _Fail("budget", "stopped_by = 'timeout', but the header records no time "
                                  "budget (options.timeout is null)")
        if not halted:
            if stopped_by == "max-updates" and updates != self.options.max_updates:
                raise _Fail("summary", f"halted = false after {updates} updates, below "
                                       f"max_updates = {self.options.max_updates}")
            if updates > self.options.max_updates:
                raise _Fail("summary", f"{updates} updates, above "
                                       f"max_updates = {self.options.max_updates}")
            if replay.next_update() is None:
                raise _Fail("summary", "halted = false, but no mistake is left")
        epochs = replay.epochs(halted)
        if _int(r["epochs"], "epochs") != epochs:
            raise _Fail("summary", f"epochs = {r['epochs']}, the replay gives {epochs}")
        if _int(r["lines"], "lines") != self.lines:
            raise _Fail("summary", f"lines = {r['lines']}, but {self.lines} lines precede it")
        self.checks += 6
        result = Result(w=tuple(w), updates=updates, epochs=epochs, halted=halted,
                        options=self.options)
        try:
            self.proof = self.monitor.finish(result)
        except ProofViolation as exc:
            raise _Fail("proof", str(exc)) from None
        self.checks += self.proof.checks
        self.ended, self.halted, self.epochs = "summary", halted, epochs
