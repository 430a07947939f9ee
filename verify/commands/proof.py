"""``pla proof``: check every built-in theorem with the kernel; optionally write the pages."""

from __future__ import annotations

import argparse
import json
import os
import tempfile
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
                             '"failed": N}')
    parser.add_argument("--out", metavar="DIR",
                        help="write one Markdown page per theorem (and index.md) into DIR")
    parser.set_defaults(handler=handle)
    return parser


def handle(args: argparse.Namespace) -> int:
    from verify.cli import UsageError
    from verify.proofs import builtin_proofs, check_builtin_proofs

    known = {p.name for p in builtin_proofs()}
    for name in args.names:
        if name not in known:
            raise UsageError(f"no built-in theorem named {name!r} (known: "
                             f"{', '.join(sorted(known))})")
    results = check_builtin_proofs(tuple(args.names) if args.names else None)
    failed = sum(1 for r in results if r.checked is None)
    smt = None  # the optional z3 cross-check is not built yet (see docs/trusted-base.md)
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
        }, indent=2))
    else:
        width = max(len(r.name) for r in results)
        header = f"{'theorem':<{width}}  group  steps  status    time"
        if smt is not None:
            header += "   z3"
        print(header)
        for r in results:
            status = "checked" if r.checked else "FAILED"
            row = (f"{r.name:<{width}}  {r.group:>5}  {r.checked.steps if r.checked else 0:>5}"
                   f"  {status:<8}  {r.seconds * 1000:5.0f} ms")
            if smt is not None:
                s = smt.get(r.name, {})
                row += f"   {s.get('confirmed', 0)}/{s.get('steps', 0)}"
            print(row)
        for r in results:
            if r.error:
                print(f"pla: proof {r.name}: {r.error}")
        print(f"{len(results) - failed} of {len(results)} theorems checked"
              + (f", {failed} FAILED" if failed else ""))
    if args.out:
        if failed:
            print("pla: --out: nothing written because a theorem failed")
        else:
            _write_pages(Path(args.out))
    return 1 if failed else 0


def _write_pages(out: Path) -> None:
    """Write the pages atomically (each file via a temporary file and a rename)."""
    from verify.cli import UsageError
    from verify.render import proof_pages

    pages = proof_pages()
    try:
        out.mkdir(parents=True, exist_ok=True)
        for path, text in pages.items():
            target = out / Path(path).name
            fd, tmp = tempfile.mkstemp(dir=out, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, target)
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror}") from None


def _smt_report(results: list) -> dict:
    from verify.cli import UsageError

    try:
        from verify.smt_check import smt_check_theorem
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise UsageError(f"--smt needs the [smt] extra (z3-solver): {exc}") from None
    return {r.name: smt_check_theorem(r.checked) for r in results if r.checked}
