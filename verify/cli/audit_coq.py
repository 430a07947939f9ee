"""``pla audit F.v --data DATA`` and ``pla audit DIR``: a Coq file compared with what pla writes,
then checked by coqc (:mod:`verify.coq.file_audit`).

Exit codes: 0 every line is what pla writes and coqc accepts the file with ``Print Assumptions``
closed (certificate and run files, large data written packed included) or listing only the
documented axioms of the real numbers (theorem files); 1 a line differs or coqc rejects the
file or an assumption is left; 2 unreadable input or no coqc.

>>> file_kind("Definition updated_rows : list BinNums.N := [0]%N.")
'run'
>>> file_kind("Definition N : Z := 3.")
'certificate'
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from typing import Any

from pla.files import shown_path

__all__ = ["file_kind", "handle_coq_file", "handle_coq_directory"]

#: Refuse a Coq file larger than this many bytes before reading it (a 400 x 1000 certificate is
#: a few megabytes).
MAX_COQ_FILE_BYTES = 512 * 1024 * 1024


def file_kind(text: str) -> str:
    """``run`` for a run file (``pla run --check --coq``), ``pocket`` for ``pla pocket --coq``,
    else ``certificate``.  Only chooses which text to re-derive: the comparison decides."""
    if "\nDefinition updated_rows " in "\n" + text:
        return "run"
    return "pocket" if "\nTheorem training_mistakes " in "\n" + text else "certificate"


def _read(path: str, limit: int) -> str:
    from verify.cli.usage import UsageError

    try:
        if os.path.getsize(path) > limit:
            raise UsageError(f"{shown_path(path)}: larger than {limit} bytes")
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except UnicodeDecodeError:
        raise UsageError(f"{shown_path(path)}: not a UTF-8 text file") from None
    except OSError as exc:
        raise UsageError(f"{shown_path(path)}: cannot read: {exc.strerror}") from None


def _expected_file(args: argparse.Namespace, dataset: Any, kind: str) -> str:
    from pla.defaults import POCKET_DEFAULTS, RUN_DEFAULTS
    from verify.cli.usage import UsageError

    if kind == "pocket":
        from verify.cli.pocket import options_from_args, pocket_coq_text

        if args.updates is None:
            raise UsageError("pla audit POCKET.v needs the --updates N the file was written "
                             "with (and its --order, --seed, --eta, --w0, --compare, --last)")
        args.order = args.order or POCKET_DEFAULTS["order"]
        args.zero = "mistake"
        return pocket_coq_text(dataset, options_from_args(args), args.seed)
    if kind == "run":
        from verify.cli.run import options_from_args
        from verify.cli.run_coq import expected_run_file

        args.order = args.order or RUN_DEFAULTS["order"]
        args.w0, args.zero = "zero", "mistake"
        return expected_run_file(dataset, options_from_args(args), args.wf)
    from verify.coq.certificate_files import certificate_file, coq_certificate
    from verify.search.certificates import certify

    return certificate_file(dataset, coq_certificate(dataset, certify(dataset, method=args.method)))


def _verdict_fields(verdict: Any) -> dict[str, Any]:
    return {"accepted": verdict.accepted, "closed": verdict.closed,
            "axioms": sorted(verdict.axioms), "theorems_printed": verdict.printed,
            "message": verdict.message}


def _verdict_line(verdict: Any, theorems: int, allowed: frozenset[str] = frozenset()) -> str:
    if not verdict.accepted:
        return "coq      REJECTED by coqc: " + " ".join(verdict.message.split())[-400:]
    if verdict.closed:
        return f"coq      accepted by coqc; Print Assumptions of all {theorems} theorems: closed"
    if verdict.axioms and verdict.axioms <= allowed:
        return ("coq      accepted by coqc; Print Assumptions lists only the documented axioms "
                "of the real numbers: " + ", ".join(sorted(verdict.axioms)))
    return ("coq      accepted by coqc, but Print Assumptions lists: "
            + (", ".join(sorted(verdict.axioms)) or "nothing printed"))


def handle_coq_file(args: argparse.Namespace) -> int:
    """Audit one certificate or run file against ``--data``."""
    from verify.cli.data_arguments import load_dataset
    from verify.cli.usage import UsageError
    from verify.coq.file_audit import AuditError, coq_check, first_difference, theorem_names

    if not args.data:
        raise UsageError("pla audit FILE.v needs --data DATA (the data the file speaks about)")
    text = _read(args.trace, MAX_COQ_FILE_BYTES)
    dataset = load_dataset(args)
    kind = file_kind(text)
    expected = _expected_file(args, dataset, kind)
    difference = first_difference(expected, text)
    verdict = None
    if difference is None:
        try:
            verdict = coq_check(text)
        except AuditError as exc:
            raise UsageError(str(exc)) from None
    theorems = len(theorem_names(text))
    ok = difference is None and verdict is not None and verdict.closed and \
        verdict.printed >= theorems
    name = shown_path(args.trace)
    if args.json:
        print(json.dumps({
            "file": args.trace, "kind": kind, "data_sha256": dataset.fingerprint, "ok": ok,
            "difference": None if difference is None else {
                "line": difference.line, "expected": difference.expected,
                "found": difference.found},
            "coq": None if verdict is None else _verdict_fields(verdict)}, indent=2))
    elif difference is not None:
        print(f"audit    {name}: FAILED: not the {kind} file pla writes for "
              f"{shown_path(args.data)} (sha256 {dataset.fingerprint[:16]}): {difference}")
    else:
        print(f"audit    {name}: every line is the {kind} file pla writes for "
              f"{shown_path(args.data)} (sha256 {dataset.fingerprint[:16]}, "
              f"{text.count(chr(10))} lines)")
        print(_verdict_line(verdict, theorems))
    return 0 if ok else 1


def handle_coq_directory(args: argparse.Namespace) -> int:
    """Audit ``pla proof --coq DIR``: the library and every theorem file present compared with
    what pla writes, then the whole directory compiled (a private copy) with make."""
    from verify.cli.usage import UsageError
    from verify.coq.file_audit import (REAL_NUMBER_AXIOMS, AuditError, coq_check_directory,
                                       first_difference)
    from verify.coq.library import write_library
    from verify.coq.theorem_files import theorem_file_texts

    directory = args.trace
    try:
        present = sorted(os.listdir(directory))
    except OSError as exc:
        raise UsageError(f"{shown_path(directory)}: cannot read: {exc.strerror}") from None
    known = theorem_file_texts()
    theorems = {name: known[name] for name in present if name in known}
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="pla-audit-") as work:
        write_library(work, theorems)
        expected = sorted(os.listdir(work))
        for name in present:
            if name.endswith(".v") and name not in expected:
                problems.append(f"{name}: not a file `pla proof --coq` writes")
        for name in expected:
            path = os.path.join(directory, name)
            if not os.path.isfile(path):
                problems.append(f"{name}: missing")
                continue
            with open(os.path.join(work, name), encoding="utf-8") as handle:
                want = handle.read()
            difference = first_difference(want, _read(path, MAX_COQ_FILE_BYTES))
            if difference is not None:
                problems.append(f"{name}: {difference}")
    verdict = None
    if not problems:
        try:
            verdict = coq_check_directory(theorems)
        except AuditError as exc:
            raise UsageError(str(exc)) from None
    ok = (not problems and verdict is not None and verdict.accepted
          and verdict.axioms <= REAL_NUMBER_AXIOMS and verdict.printed == len(theorems))
    name = shown_path(directory)
    if args.json:
        print(json.dumps({"directory": directory, "ok": ok, "theorem_files": sorted(theorems),
                          "differences": problems,
                          "coq": None if verdict is None else _verdict_fields(verdict)},
                         indent=2))
    elif problems:
        print(f"audit    {name}: FAILED: {problems[0]}"
              + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    else:
        print(f"audit    {name}: the library and {len(theorems)} theorem files are what "
              "`pla proof --coq` writes")
        print(_verdict_line(verdict, len(theorems), REAL_NUMBER_AXIOMS))
    return 0 if ok else 1
