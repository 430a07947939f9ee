"""``pla claims PATH...``: decide every ```claim block of Markdown files (and directories).

Exit codes: 0 every claim has its expected verdict (proved unless ``expect:`` says otherwise)
and everything it uses is fully verified; 1 some claim does not; 2 the only problems are
blocks that are not claims (a parse error such as ``1/0``, an unclosed fence), each reported as
``pla: error: FILE:LINE: ...``, or a path cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pla.files import read_bounded, shown_path

__all__ = ["register", "handle", "markdown_files"]


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "claims", help="prove or refute the ```claim blocks of Markdown files",
        description="Decide every ```claim block: proved (a certificate checked by the kernel, "
                    "with its domain conditions), refuted (an exact counterexample), vacuous "
                    "(contradictory assumptions) or unproved. Exit 1 unless every claim has "
                    "its expected verdict; exit 2 when the only problems are malformed blocks, "
                    "or when no Markdown file is found (nothing to check).",
    )
    parser.add_argument("files", nargs="+", metavar="PATH",
                        help="Markdown files, or directories searched for *.md")
    parser.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    parser.set_defaults(handler=handle)
    return parser


def markdown_files(paths: list[str]) -> list[Path]:
    """The files named, and every ``*.md`` / ``*.markdown`` under the directories named.

    >>> markdown_files([])
    []
    """
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.suffix.lower() in (".md", ".markdown")
                              and f.is_file()))
        else:
            out.append(p)
    return out


def handle(args: argparse.Namespace) -> int:
    from verify.claims.checker import check_markdown_text, resolve_dependencies
    from verify.cli.usage import UsageError

    texts = []
    files = markdown_files(args.files)
    if not files:   # nothing to check is an error, as it is for pytest
        raise UsageError(f"no Markdown files (*.md, *.markdown) in "
                         f"{', '.join(shown_path(p) for p in args.files)}: nothing to check")
    for path in files:   # every file is read once, before any claim is decided
        try:
            texts.append((path, read_bounded(path).decode("utf-8")))
        except OSError as exc:
            raise UsageError(f"{shown_path(path)}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise UsageError(f"{shown_path(path)}: not UTF-8 text") from None
    found = resolve_dependencies([claim for path, text in texts
                                  for claim in check_markdown_text(text, str(path))])
    invalid = [c for c in found if c.verdict.status == "invalid" or c.block.error]
    failed = [c for c in found if not c.passed and c not in invalid]
    if args.json:
        print(json.dumps({"claims": [{
            "file": c.path, "line": c.line, "id": c.ident or None, "status": c.verdict.status,
            "expected": c.verdict.expected, "passed": c.passed,
            "certificate": c.verdict.certificate, "domain": list(c.verdict.domain),
            "counterexample": {k: str(v) for k, v in c.verdict.counterexample.items()}
            if c.verdict.counterexample is not None else None,
            "uses": list(c.verdict.claim.uses) if c.verdict.claim else [],
            "reason": c.verdict.reason, "problems": list(c.problems)} for c in found],
            "failed": len(failed) + len(invalid)}, indent=2))
    else:
        for c in found:
            note = "" if c.passed or c in invalid else f"  [FAILS: {'; '.join(c.problems)}]"
            print(f"{shown_path(c.location)}: {c.verdict.explain()}{note}")
        passed = len(found) - len(failed) - len(invalid)
        print(f"{passed} of {len(found)} claims as expected")
    for c in invalid:
        print(f"pla: error: {shown_path(c.path)}:{c.line}: {c.block.error or c.verdict.reason}",
              file=sys.stderr)
    if failed:
        return 1
    return 2 if invalid else 0
