"""``pla proof``: check every built-in theorem with the kernel; optionally write the pages."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

__all__ = ["register", "handle"]


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "proof", help="check the convergence proof, step by step, with the trusted kernel",
        description="Check every built-in theorem (Novikoff's proof of PLA, its variants and "
                    "Pocket) with the trusted kernel and print one row per theorem. Exit 1 if "
                    "any step fails.",
    )
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="check only these theorems (and the lemmas they use)")
    parser.add_argument("--json", action="store_true",
                        help='print {"theorems": [{"name", "steps", "verified", "rules"}...], '
                             '"failed": N} (with --smt: an "smt" object per theorem and in '
                             'total)')
    parser.add_argument("--smt", action="store_true",
                        help="after the kernel, ask z3 about every step too (a second opinion; "
                             "needs the smt extra: pip install 'pla-verify[smt]'); exit 1 if z3 "
                             "refutes a step the kernel accepted")
    parser.add_argument("--smt-timeout", metavar="MS", type=int, default=None,
                        help="z3's time limit per step in milliseconds (default 2000); a step "
                             "that runs out is reported as unknown")
    parser.add_argument("--out", metavar="DIR",
                        help="write one Markdown page per theorem (and index.md) into DIR")
    parser.add_argument("--coq", metavar="DIR",
                        help="write every theorem as a Coq file, the Coq library and a Makefile "
                             "into DIR (then `make -C DIR` checks them all with coqc); DIR must "
                             "be new, empty or written by pla before, unless --force")
    parser.add_argument("--force", action="store_true",
                        help="with --coq: replace files in DIR that pla did not write (such as "
                             "your own Makefile)")
    parser.set_defaults(handler=handle)
    return parser


def handle(args: argparse.Namespace) -> int:
    from verify.cli.usage import UsageError
    from verify.proofs import builtin_proofs, check_builtin_proofs

    known = {p.name for p in builtin_proofs()}
    for name in args.names:
        if name not in known:
            raise UsageError(f"no built-in theorem named {name!r} (known: "
                             f"{', '.join(sorted(known))})")
    want_smt, smt_timeout = getattr(args, "smt", False), getattr(args, "smt_timeout", None)
    if smt_timeout is not None and not want_smt:
        raise UsageError("--smt-timeout needs --smt")
    if smt_timeout is not None and smt_timeout <= 0:
        raise UsageError(f"--smt-timeout must be a positive number of milliseconds, "
                         f"not {smt_timeout}")
    if want_smt:
        from verify.search.smt import smt_available

        if not smt_available():
            raise UsageError("--smt needs z3, which is not installed: "
                             "pip install 'pla-verify[smt]'")
    if getattr(args, "coq", None):   # refused before the work, not after it
        from pla.files import refuse_foreign_directory
        from verify.coq.library import MARKER

        refuse_foreign_directory(args.coq, MARKER, force=getattr(args, "force", False))
    results = check_builtin_proofs(tuple(args.names) if args.names else None)
    failed = sum(1 for r in results if r.checked is None)
    smt = _smt_report(results, smt_timeout) if want_smt else None
    disagreements = sum(c["refuted"] + (c["hypotheses"] == "contradictory")
                        for c in (smt or {}).values())
    if args.json:
        print(json.dumps({
            "theorems": [{
                "name": r.name, "group": r.group,
                "steps": r.checked.steps if r.checked else 0,
                "verified": r.checked is not None,
                "rules": list(r.checked.rules) + [f"declared:{d}" for d in r.checked.declared]
                if r.checked else [],
                "lemmas": list(r.checked.lemmas) if r.checked else [],
                "seconds": round(r.seconds, 4),
                **({"error": r.error} if r.error else {}),
                **({"smt": smt[r.name]} if smt and r.name in smt else {}),
            } for r in results],
            "failed": failed,
            **({"smt": {k: sum(c[k] for c in smt.values())
                        for k in ("steps", "confirmed", "unknown", "refuted")}} if smt else {}),
        }, indent=2))
    else:
        width = max(len(r.name) for r in results)
        header = f"{'theorem':<{width}}  group  steps  status    time"
        if smt is not None:
            header += "       z3"
        print(header)
        for r in results:
            status = "checked" if r.checked else "FAILED"
            row = (f"{r.name:<{width}}  {r.group:>5}  {r.checked.steps if r.checked else 0:>5}"
                   f"  {status:<8}  {r.seconds * 1000:5.0f} ms")
            if smt is not None:
                s = smt.get(r.name, {})
                row += f"   {_smt_cell(s)}"
            print(row)
        for r in results:
            if r.error:
                print(f"pla: proof {r.name}: {r.error}")
        for name, s in (smt or {}).items():
            for step in s["disagreements"]:
                model = ", ".join(f"{k} = {v}" for k, v in step["model"])
                print(f"pla: proof {name}: z3 REFUTES {step['where']}: {step['statement']}"
                      f" (counterexample: {model})")
            if s["hypotheses"] == "contradictory":
                print(f"pla: proof {name}: z3 finds the hypotheses contradictory "
                      f"(every step would hold vacuously)")
        print(f"{len(results) - failed} of {len(results)} theorems checked"
              + (f", {failed} FAILED" if failed else ""))
        if smt is not None:
            total = {k: sum(c[k] for c in smt.values())
                     for k in ("steps", "confirmed", "unknown", "refuted")}
            print(f"z3: {total['confirmed']} of {total['steps']} steps confirmed, "
                  f"{total['unknown']} unknown, {total['refuted']} refuted"
                  + (" -- z3 DISAGREES with the kernel; the kernel decides, but this is a bug "
                     "in one of them" if disagreements else ""))
    if args.out:
        if failed:
            print("pla: --out: nothing written because a theorem failed")
        else:
            _write_pages(Path(args.out))
    if getattr(args, "coq", None):
        if failed:
            print("pla: --coq: nothing written because a theorem failed")
        else:
            _write_coq(args.coq, results, echo=not args.json,
                       force=getattr(args, "force", False))
    return 1 if failed or disagreements else 0


def _write_pages(out: Path) -> None:
    """Write the pages, each through :class:`pla.files.SafeOutput` (atomic, never over a
    directory or a device)."""
    from pla.files import OutputRefused, SafeOutput, shown_path
    from verify.present.render import proof_pages

    pages = proof_pages()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputRefused(f"{shown_path(out)}: cannot write: {exc.strerror}") from None
    for path, text in pages.items():
        with SafeOutput(out / Path(path).name) as page:
            page.write(text)
            page.commit()


def _write_coq(directory: str, results: list, echo: bool = True, force: bool = False) -> None:
    """Write the Coq files (:mod:`verify.coq.theorem_files`) and say how to check them (on
    stdout, or on stderr when stdout holds JSON)."""
    import sys

    from verify.cli.usage import UsageError
    from verify.coq.theorem_files import export_theorems

    files = export_theorems(directory, results, force=force)
    print(f"coq: wrote {len(files)} theorem files, the library and a Makefile to {directory}; "
          f"check them with: make -C {directory}", file=sys.stdout if echo else sys.stderr)


def _smt_cell(counts: dict) -> str:
    """The z3 column: ``confirmed/steps``, then what was not confirmed."""
    cell = f"{counts['confirmed']}/{counts['steps']}"
    extra = [f"{counts[k]} {k}" for k in ("unknown", "refuted") if counts[k]]
    if counts["hypotheses"] != "satisfiable":
        extra.append(f"hypotheses {counts['hypotheses']}")
    return cell + (f" ({', '.join(extra)})" if extra else "")


def _smt_report(results: list, timeout_ms: int | None) -> dict:
    """z3's counts per checked theorem (the kernel's verdict is not changed by them)."""
    from verify.search.smt import DEFAULT_TIMEOUT_MS, smt_check_theorem

    out = {}
    for r in results:
        if r.checked is None:
            continue
        check = smt_check_theorem(r.checked, timeout_ms or DEFAULT_TIMEOUT_MS)
        out[r.name] = {
            **check.counts(),
            "hypotheses": check.hypotheses,
            "seconds": round(check.seconds, 4),
            "disagreements": [{"where": s.where, "statement": s.statement,
                               "model": [list(pair) for pair in s.model]}
                              for s in check.steps if s.status == "refuted"],
        }
    return out
