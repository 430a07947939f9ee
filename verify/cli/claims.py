"""``pla claims FILE.md...``: decide every ```claim block of Markdown files."""

from __future__ import annotations

import argparse
import json
from typing import Any

from pla.files import shown_path

__all__ = ["register", "handle"]


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "claims", help="prove or refute the ```claim blocks of Markdown files",
        description="Decide every ```claim block: proved (a certificate checked by the kernel), "
                    "refuted (an exact counterexample) or unproved. Exit 1 unless every claim "
                    "is proved.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="Markdown files")
    parser.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    parser.set_defaults(handler=handle)
    return parser


def handle(args: argparse.Namespace) -> int:
    from verify.claims import check_markdown_file
    from verify.cli.usage import UsageError

    found = []
    for path in args.files:
        try:
            found.extend(check_markdown_file(path))
        except OSError as exc:
            raise UsageError(f"{shown_path(path)}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise UsageError(f"{shown_path(path)}: not UTF-8 text") from None
    bad = [c for c in found if not c.verdict.ok]
    if args.json:
        print(json.dumps({"claims": [{
            "file": c.path, "line": c.line, "status": c.verdict.status,
            "certificate": c.verdict.certificate,
            "counterexample": {k: str(v) for k, v in c.verdict.counterexample.items()}
            if c.verdict.counterexample else None,
            "reason": c.verdict.reason} for c in found], "failed": len(bad)}, indent=2))
    else:
        for c in found:
            print(f"{shown_path(c.path)}:{c.line}: {c.verdict.explain()}")
        print(f"{len(found) - len(bad)} of {len(found)} claims proved")
    return 1 if bad else 0
