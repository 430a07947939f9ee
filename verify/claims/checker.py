"""Claims in Markdown files: every ```claim block decided, and the ``uses:`` between claims.

The path of one claim is parse (:mod:`verify.claims.parser`) -> elaborate (trusted, small:
:mod:`verify.claims.elaborate`) -> propose (untrusted: :mod:`verify.claims.propose`,
:mod:`verify.claims.induction`, :mod:`verify.search.claim_certificates`) -> kernel
(:func:`verify.kernel.check_claim`) -> verdict (:mod:`verify.claims.verdict`); refutation by
exact evaluation is :mod:`verify.claims.refute`.  This module runs it over Markdown files.

>>> [c.verdict.status for c in check_markdown_text("```claim\\n2 + 2 == 4\\n```\\n")]
['proved']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from verify.claims.elaborate import domain_conditions
from verify.claims.fences import ClaimBlock, find_claim_blocks
from verify.claims.parser import ClaimSyntaxError, parse_claim
from verify.claims.propose import _constant_root_certificate, _Prover
from verify.claims.verdict import STATUSES, Verdict, _prove, check_claim_text, decide_claim

__all__ = ["Verdict", "ClaimBlock", "FileClaim", "decide_claim", "find_claim_blocks",
           "check_claim_text", "check_markdown_file", "check_markdown_files", "parse_claim",
           "ClaimSyntaxError", "STATUSES", "resolve_dependencies", "check_markdown_text",
           "domain_conditions", "own_problems", "_prove", "_Prover", "_constant_root_certificate"]


@dataclass(frozen=True)
class FileClaim:
    """One claim of a Markdown file with its verdict; ``problems`` lists why it fails
    (empty when it has its expected verdict and everything it uses is fully verified)."""

    path: str
    line: int
    block: ClaimBlock
    verdict: Verdict = field(compare=False)
    problems: tuple[str, ...] = ()

    @property
    def ident(self) -> str:
        return self.verdict.claim.ident if self.verdict.claim else ""

    @property
    def location(self) -> str:
        """``path:LINE[:id]``."""
        return f"{self.path}:{self.line}" + (f":{self.ident}" if self.ident else "")

    @property
    def passed(self) -> bool:
        return not self.problems


def own_problems(verdict: Verdict, block: ClaimBlock) -> list[str]:
    """Why a claim fails on its own (not through ``uses:``): its block, or its verdict."""
    if block.error:
        return [block.error]
    if verdict.as_expected:
        return []
    if verdict.status == "invalid":
        return [f"invalid: {verdict.reason}"]
    if verdict.expected == "proved":
        return [verdict.explain()]
    return [f"expected {verdict.expected}, got {verdict.explain()}"]


def resolve_dependencies(claims: list[FileClaim]) -> list[FileClaim]:
    """Mark every claim that uses (transitively) an unknown, failing or non-proved claim.

    A claim is *fully verified* when it is proved and everything it uses is fully verified.
    """
    by_id: dict[str, FileClaim] = {}
    out = list(claims)
    duplicate: dict[int, str] = {}
    for i, c in enumerate(claims):
        if c.ident:
            if c.ident in by_id:
                duplicate[i] = f"id {c.ident!r} already used at {by_id[c.ident].path}:" \
                               f"{by_id[c.ident].line}"
            else:
                by_id[c.ident] = c
    memo: dict[str, bool] = {}

    def fully(ident: str, stack: tuple) -> bool:
        if ident in memo:
            return memo[ident]
        if ident in stack or ident not in by_id:
            return False
        c = by_id[ident]
        result = c.verdict.status == "proved" and c.passed and all(
            fully(u, stack + (ident,)) for u in c.verdict.claim.uses)
        memo[ident] = result
        return result

    for i, c in enumerate(claims):
        problems = list(c.problems)
        if i in duplicate:
            problems.append(duplicate[i])
        uses = c.verdict.claim.uses if c.verdict.claim else ()
        for u in uses:
            if u not in by_id:
                problems.append(f"uses {u!r}, which is no claim's id")
            elif not fully(u, (c.ident,)):
                problems.append(f"uses {u!r} ({by_id[u].path}:{by_id[u].line}), which is not "
                                f"fully verified")
        out[i] = FileClaim(c.path, c.line, c.block, c.verdict, tuple(problems))
    return out


def check_markdown_text(text: str, path: str = "<text>") -> list[FileClaim]:
    """Decide every claim block of Markdown text (dependencies resolved within it)."""
    found = []
    for b in find_claim_blocks(text):
        verdict = check_claim_text(b.body) if not b.error else \
            Verdict("invalid", None, reason=b.error)
        found.append(FileClaim(path, b.line, b, verdict, tuple(own_problems(verdict, b))))
    return found


def check_markdown_file(path: str | Path) -> list[FileClaim]:
    """Decide every claim block of a Markdown file (dependencies resolved within the file; read
    with :func:`pla.files.read_bounded`: at most 256 MiB, never a device that does not end)."""
    return resolve_dependencies(check_markdown_text(_read_markdown(path), str(path)))


def check_markdown_files(paths: list[str | Path]) -> list[FileClaim]:
    """Decide every claim block of several files; ``uses:`` may name a claim of any of them."""
    found: list[FileClaim] = []
    for path in paths:
        found.extend(check_markdown_text(_read_markdown(path), str(path)))
    return resolve_dependencies(found)


def _read_markdown(path: str | Path) -> str:
    from pla.files import read_bounded

    return read_bounded(path).decode("utf-8")
