"""Audit a Coq file pla-verify wrote: re-derive its text from the data, compare, then let coqc
check it (``pla audit FILE.v --data DATA`` and ``pla audit DIR``).

What ``coqc`` accepts is only as good as the definitions the theorems speak about: a file whose
``rows`` were edited, or whose ``data`` was redefined as ``dataset scale (firstn 1 rows)``, still
compiles, about other data.  The audit therefore compares the file with the text pla writes for
the data it is given, line by line, and names the first line that differs.  The comparison
covers the proofs too (stricter than comparing the statements only: a proof block may hold
vernacular commands, a ``Notation`` for example, that change how later statements read).  Then
``coqc`` checks a private copy of exactly the compared text against the bundled library
(compiled in a temporary directory), with ``Print Assumptions`` of every theorem of the file.

This module compares and runs ``coqc``; it decides nothing about the mathematics: Coq does.

>>> first_difference("a\\nb\\nc\\n", "a\\nB\\nc\\n")
Difference(line=2, expected='b', found='B')
>>> first_difference("a\\n", "a\\n") is None
True
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Mapping

from pla.files import write_text

__all__ = ["Difference", "CoqVerdict", "first_difference", "theorem_names", "coq_check",
           "coq_check_directory", "AuditError"]

#: The only axioms an exported kernel theorem may rest on (docs/checked-twice.md): those of the
#: standard library's classical real numbers.  Certificate and run files must be closed.
REAL_NUMBER_AXIOMS = frozenset({"ClassicalDedekindReals.sig_forall_dec",
                                "FunctionalExtensionality.functional_extensionality_dep"})
CLOSED = "Closed under the global context"
_THEOREM = re.compile(r"^(?:Theorem|Lemma|Corollary)\s+([A-Za-z_][A-Za-z0-9_']*)\b", re.MULTILINE)
_AXIOM_LINE = re.compile(r"([A-Za-z_][\w.']*)\s*(?::.*)?")


class AuditError(RuntimeError):
    """coqc is missing or the library does not compile (the audit cannot decide)."""


@dataclass(frozen=True)
class Difference:
    """The first line (1-based) where the file differs from what pla writes; None for a line
    that is missing on that side."""

    line: int
    expected: str | None
    found: str | None

    def __str__(self) -> str:
        expected = "end of file" if self.expected is None else repr(_short(self.expected))
        found = "end of file" if self.found is None else repr(_short(self.found))
        return f"line {self.line}: pla writes {expected}, the file has {found}"


def _short(text: str, width: int = 100) -> str:
    return text if len(text) <= width else text[:width] + "..."


@dataclass(frozen=True)
class CoqVerdict:
    """What coqc said: accepted (exit 0), the axioms of every printed theorem (empty when all
    are closed), how many ``Print Assumptions`` ran, and coqc's message on failure."""

    accepted: bool
    axioms: frozenset[str]
    printed: int
    message: str

    @property
    def closed(self) -> bool:
        return self.accepted and not self.axioms and self.printed > 0


#: Lines that hold a value proposed by floating point (the near-max-margin w_f, its margin and
#: multipliers): another machine's floats may round differently, and any value Coq accepts
#: there proves the same statements (the same N, about the same data), so such a line need
#: only have the form pla writes.  Every other line must be equal.
PROPOSED_VALUES = (
    re.compile(r"\(\* the separator w_f = W / \d+ \*\)"),
    re.compile(r"Definition w_f : vec := qvec \d+ \[(?:-?\d+(?:; -?\d+)*)?\]%Z\."),
    re.compile(r"Definition rho : Q := Qmake \(-?\d+\) \d+\."),
    re.compile(r"Definition alpha : list Z := \[(?:-?\d+(?:; -?\d+)*)?\]%Z\."),
)


def _same_line(expected: str, found: str) -> bool:
    if expected == found:
        return True
    return any(form.fullmatch(expected) and form.fullmatch(found) for form in PROPOSED_VALUES)


def first_difference(expected: str, found: str) -> Difference | None:
    """The first differing line of two texts, or None when they are equal (a line holding a
    float-proposed value, :data:`PROPOSED_VALUES`, need only have the same form).

    >>> first_difference("Definition rho : Q := Qmake (1) 2.", "Definition rho : Q := Qmake (3) 7.")
    >>> first_difference("Definition N : Z := 5.", "Definition N : Z := 6.").line
    1
    """
    if expected == found:
        return None
    a, b = expected.split("\n"), found.split("\n")
    for number, (x, y) in enumerate(zip(a, b), start=1):
        if not _same_line(x, y):
            return Difference(number, x, y)
    if len(a) == len(b):
        return None
    number = min(len(a), len(b)) + 1
    return Difference(number, a[number - 1] if len(a) >= number else None,
                      b[number - 1] if len(b) >= number else None)


def theorem_names(text: str) -> list[str]:
    """The names of the theorems a Coq text states (at the start of a line).

    >>> theorem_names("Theorem a : True.\\nProof. exact I. Qed.\\nLemma b : True.")
    ['a', 'b']
    """
    return _THEOREM.findall(text)


def _coqc() -> str:
    path = shutil.which("coqc")
    if path is None:
        raise AuditError("coqc is not installed (`make coq` installs Debian's coq)")
    return path


def _build_library(directory: str, extra: Mapping[str, str] | None = None,
                   timeout: float = 1800) -> subprocess.CompletedProcess:
    from verify.coq.library import write_library

    write_library(directory, dict(extra or {}))
    # independent library files compile in parallel (the Makefile lists the dependencies)
    jobs = f"-j{max(1, min(4, os.cpu_count() or 1))}"
    return subprocess.run(["make", "-s", jobs, "-C", directory], capture_output=True, text=True,
                          timeout=timeout)


_LIBRARY: list[str] = []
_KEPT: list[tempfile.TemporaryDirectory] = []


def _compiled_library() -> str:
    """The bundled library compiled in a private temporary directory, once per process (and
    removed at exit)."""
    if not _LIBRARY:
        # removed when the object is collected at exit
        _KEPT.append(tempfile.TemporaryDirectory(prefix="pla-coq-library-"))
        directory = _KEPT[-1].name
        built = _build_library(directory)
        if built.returncode != 0:
            raise AuditError("the bundled Coq library does not compile: "
                             + (built.stdout + built.stderr)[-500:])
        _LIBRARY.append(directory)
    return _LIBRARY[0]


def _axioms(output: str) -> frozenset[str]:
    """The axiom names of every ``Axioms:`` block of coqc's output: ``name : type`` on one line,
    or ``name`` alone with its type on the next, indented, lines.  The block ends at the first
    other line (the next command's output: a ``Check`` prints its name, then ``:`` unindented).

    >>> sorted(_axioms("Axioms:\\nsub : int -> int\\nA.b\\n  : Prop\\nnext\\n:\\nTrue"))
    ['A.b', 'sub']
    """
    names = set()
    for block in output.split("Axioms:")[1:]:
        lines = block.split("\n")[1:]
        for k, line in enumerate(lines):
            if not line.strip():
                break
            if line[0].isspace():
                continue  # the type of the previous name, continued
            match = _AXIOM_LINE.fullmatch(line)
            following = lines[k + 1] if k + 1 < len(lines) else ""
            if match is not None and " : " in line:
                names.add(match.group(1))
            elif match is not None and following[:1].isspace() and \
                    following.strip().startswith(":"):
                names.add(match.group(1))
            else:
                break
    return frozenset(names)


def coq_check(text: str, timeout: float = 1800) -> CoqVerdict:
    """Compile ``text`` (a certificate or run file) with coqc against the bundled library,
    compiled in a temporary directory, and print the assumptions of each of its theorems."""
    coqc = _coqc()
    library = _compiled_library()
    with tempfile.TemporaryDirectory(prefix="pla-audit-") as work:
        names = theorem_names(text)
        probe = text + "\n" + "".join(f"Print Assumptions {n}.\n" for n in names)
        file = os.path.join(work, "Audited.v")
        write_text(file, probe)
        done = subprocess.run([coqc, "-q", "-R", library, "PLA", file], capture_output=True,
                              text=True, timeout=timeout, cwd=work)
    output = done.stdout
    printed = output.count(CLOSED) + output.count("Axioms:")
    return CoqVerdict(done.returncode == 0, _axioms(output), printed,
                      (done.stdout + done.stderr)[-800:] if done.returncode else "")


def coq_check_directory(files: Mapping[str, str], timeout: float = 3600) -> CoqVerdict:
    """Compile the library with ``files`` (theorem files, name -> text) in a temporary directory
    (``make``); every theorem file prints its assumptions."""
    _coqc()
    with tempfile.TemporaryDirectory(prefix="pla-audit-") as work:
        built = _build_library(work, files, timeout)
    output = built.stdout
    printed = output.count(CLOSED) + output.count("Axioms:")
    return CoqVerdict(built.returncode == 0, _axioms(output), printed,
                      (built.stdout + built.stderr)[-800:] if built.returncode else "")
