"""``pla claims PATH...``: decide every ```claim block of Markdown files (and directories), and
of the Markdown cells of Jupyter notebooks (located ``nb.ipynb:cell 7:line 3``).

Exit codes: 0 every claim has its expected verdict (proved unless ``expect:`` says otherwise)
and everything it uses is fully verified; 1 some claim does not; 2 the only problems are
blocks that are not claims (a parse error such as ``1/0``, an unclosed fence), each reported as
``pla: error: FILE:LINE: ...``, or a path cannot be read.  With ``--coq DIR`` every proved
claim is also written as a Coq theorem into DIR and checked by coqc
(:mod:`verify.coq.claim_files`): a claim Coq refuses is exit 1.

A large tree is decided in parallel with ``--jobs J`` processes or on a Dask cluster
(``--cluster tcp://HOST:8786`` or ``local:N``, as ``pla pocket``): every file is read and every
block parsed here, each claim is decided by one worker (:meth:`ClaimResolution.decide_every
<verify.claims.documents.ClaimResolution.decide_every>`), and the verdicts come back in the
order of the claims, so the output is the same, byte for byte, whoever decided them.  A
progress bar is drawn on a terminal's stderr; Ctrl-C cancels what is pending (exit 130).
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from pathlib import Path
from typing import Any

from pla.files import read_bounded, shown_path
from verify.cli.experiment_output import add_backend_arguments

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
                        help="Markdown files or Jupyter notebooks, or directories searched for "
                             "*.md and *.ipynb")
    parser.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    parser.add_argument("--coq", metavar="DIR",
                        help="also write every proved claim as a Coq theorem with its proof "
                             "into DIR and check them all with coqc (make -C DIR); a claim "
                             "Coq refuses fails the run (exit 1)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also print each claim's full certificate (or reason) and domain")
    add_backend_arguments(parser.add_argument_group("deciding many claims"), "claims")
    parser.set_defaults(handler=handle)
    return parser


def markdown_files(paths: list[str]) -> list[Path]:
    """The files named, and every ``*.md`` / ``*.markdown`` / ``*.ipynb`` (Jupyter notebook,
    its Markdown cells) under the directories named, except Jupyter's checkpoints.

    >>> markdown_files([])
    []
    """
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*")
                              if f.suffix.lower() in (".md", ".markdown", ".ipynb")
                              and ".ipynb_checkpoints" not in f.parts and f.is_file()))
        else:
            out.append(p)
    return out


def verdict_lines(claim: Any, verbose: bool = False) -> str:
    """One line per claim (its verdict and statement), at most one hint line, and with
    ``verbose`` the full certificate; a failing claim says why once (the expected verdict, or
    the ``uses:`` problem), never the verdict twice.

    >>> from verify.claims.checker import check_markdown_text
    >>> block = "```claim\\nexpect: refuted\\nx**2 >= x\\n```\\n"
    >>> print(verdict_lines(check_markdown_text(block)[0]))
    <text>:1: refuted: x**2 >= x, at x = 1/2: x**2 = 1/4 < x = 1/2
    """
    from verify.claims.documents import own_problems

    verdict = claim.verdict
    line = f"{shown_path(claim.location)}: {verdict.headline()}"
    if not claim.passed and verdict.status != "invalid" and not claim.block.error:
        own = set(own_problems(verdict, claim.block.error))
        why = ([f"expected {verdict.expected}"] if not verdict.as_expected else []) + \
            [p for p in claim.problems if p not in own]
        line += f"  [FAILS: {'; '.join(why)}]"
    hint = verdict.hint()
    if hint:
        line += f"\n    hint: {hint}"
    if verbose:
        line += f"\n    {verdict.explain()}"
    return line


def handle(args: argparse.Namespace) -> int:
    from verify.cli.usage import UsageError

    from verify.claims.notebooks import NotebookError, markdown_pieces_of_text, piece_path

    texts = []
    files = markdown_files(args.files)
    if not files:   # nothing to check is an error, as it is for pytest
        raise UsageError(f"no Markdown files (*.md, *.markdown) in "
                         f"{', '.join(shown_path(p) for p in args.files)}: nothing to check")
    for path in files:   # every file is read once, before any claim is decided
        try:
            pieces = markdown_pieces_of_text(path, read_bounded(path).decode("utf-8"))
        except OSError as exc:
            raise UsageError(f"{shown_path(path)}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise UsageError(f"{shown_path(path)}: not UTF-8 text") from None
        except NotebookError as exc:
            raise UsageError(str(exc)) from None
        texts.extend((piece_path(path, piece), piece.text) for piece in pieces)
    found = decide_texts(texts, args)
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
            print(verdict_lines(c, getattr(args, "verbose", False)))
        passed = len(found) - len(failed) - len(invalid)
        print(f"{passed} of {len(found)} claims as expected")
    for c in invalid:
        print(f"pla: error: {shown_path(c.place)}: {c.block.error or c.verdict.reason}",
              file=sys.stderr)
    if args.coq:
        refused = coq_check(found, args.coq, quiet=args.json)
        for line in refused:
            print(f"pla: error: {line}", file=sys.stderr)
        if refused:
            return 1
    if failed:
        return 1
    return 2 if invalid else 0


def decide_texts(texts: list[tuple[str, str]], args: argparse.Namespace) -> list:
    """The claims of (path, Markdown) pairs, checked together; decided by ``--jobs``
    processes or on ``--cluster`` (the same verdicts), with a progress bar on a terminal."""
    from pla.experiments import parallel_map
    from verify.claims.documents import check_markdown_texts
    from verify.cli.experiment_output import experiment_executor, jobs_from_args, progress_bar

    with experiment_executor(args) as executor, progress_bar(args, "claims") as bar:
        return check_markdown_texts(texts, partial(
            parallel_map, jobs=jobs_from_args(args), on_progress=bar, executor=executor))


def coq_check(found: list, directory: str, quiet: bool = False) -> list[str]:
    """Check every proved claim of ``found`` a second time with Coq in ``directory``."""
    from verify.coq.claim_files import check_proved_claims

    refused = check_proved_claims(((shown_path(c.location), c.verdict) for c in found),
                                  directory)
    if not refused and not quiet:
        proved = sum(c.verdict.status == "proved" for c in found)
        print(f"Coq checked all {proved} proved claims (make -C {directory})")
    return refused
