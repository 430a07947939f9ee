"""One reading of Markdown for every front end: blocks, ids, dependencies.

``pla claims`` (and the pre-commit hook, which runs it), ``pytest --claims`` and the mkdocs
plugin all read Markdown through this module, so they check the same claims and fail the same
ones:

1. :func:`find_file_claims`: the claim blocks a renderer shows, and the hidden ones refused
   (:mod:`verify.claims.fences`), each parsed once; an ``id:`` given by two blocks (anywhere in
   the files checked together, hidden blocks included) is an error on *every* such block;
2. :class:`ClaimResolution`: the verdict of each claim (decided on demand, once) and its
   problems: its own verdict is not the expected one, or a claim it ``uses:`` (transitively) is
   missing, given twice, or not fully verified.

>>> found = find_file_claims("```claim\\nid: a\\nx**2 >= x\\n```\\n\\n"
...                          "```claim\\nuses: a\\nx**2 >= 0\\n```\\n", "notes.md")
>>> [c.location for c in found]
['notes.md:1:a', 'notes.md:6']
>>> [c.problems for c in check_found(found)][1]
("uses 'a' (notes.md:1), which is not fully verified",)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable

from verify.claims.fences import ClaimBlock, find_claim_blocks
from verify.claims.parser import Claim, ClaimSyntaxError, parse_claim

#: ``decide_all(decide, claims)``: ``[decide(c) for c in claims]``, computed anywhere.
DecideAll = Callable[[Callable[["FoundClaim"], object], list["FoundClaim"]], list[object]]

__all__ = ["FoundClaim", "FileClaim", "ClaimResolution", "find_file_claims", "check_found",
           "check_markdown_text", "check_markdown_texts", "check_markdown_file",
           "check_markdown_files", "decide_found", "own_problems", "DecideAll"]


@dataclass(frozen=True)
class FoundClaim:
    """A claim block of a file before any verdict: the block, the parsed claim (None when the
    parser refused it: ``syntax_error``) and ``error``, the reason the *document* makes it no
    claim (hidden, unclosed, an id given twice; empty when none)."""

    path: str
    block: ClaimBlock
    claim: Claim | None
    syntax_error: str = ""
    error: str = ""
    #: the verdict of a block with too many assumptions (``search limit reached``), or None
    limited: object = field(default=None, compare=False)

    @property
    def line(self) -> int:
        return self.block.line

    @property
    def ident(self) -> str:
        return self.claim.ident if self.claim is not None else ""

    @property
    def place(self) -> str:
        """``path:LINE``; in a notebook's cell ``nb.ipynb:cell K:line LINE``."""
        return _place(self.path, self.line)

    @property
    def location(self) -> str:
        """``place[:id]``."""
        return self.place + (f":{self.ident}" if self.ident else "")


def _place(path: str, line: int) -> str:
    """``path:LINE``, or ``nb.ipynb:cell K:line LINE`` in a notebook's cell (path
    ``nb.ipynb:cell K``, see :mod:`verify.claims.notebooks`)."""
    return f"{path}:line {line}" if ".ipynb:cell " in path else f"{path}:{line}"


@dataclass(frozen=True)
class FileClaim:
    """One claim of a Markdown file with its verdict; ``problems`` lists why it fails
    (empty when it has its expected verdict and everything it uses is fully verified)."""

    path: str
    line: int
    block: ClaimBlock
    verdict: object = field(compare=False)
    problems: tuple[str, ...] = ()

    @property
    def ident(self) -> str:
        return self.verdict.claim.ident if self.verdict.claim else ""

    @property
    def place(self) -> str:
        """``path:LINE``; in a notebook's cell ``nb.ipynb:cell K:line LINE``."""
        return _place(self.path, self.line)

    @property
    def location(self) -> str:
        """``place[:id]``."""
        return self.place + (f":{self.ident}" if self.ident else "")

    @property
    def passed(self) -> bool:
        return not self.problems


def find_file_claims(text: str, path: str = "<text>") -> list[FoundClaim]:
    """Every claim block of Markdown text, parsed, with duplicate ids refused."""
    from verify.claims.assumption_count import without_assumptions
    from verify.claims.verdict import search_limit_verdict

    found = []
    for block in find_claim_blocks(text):
        limited = search_limit_verdict(block.body)
        try:
            if limited is not None:   # too many assumptions: the header only, for the id
                found.append(FoundClaim(path, block, parse_claim(without_assumptions(
                    block.body)), error=block.error, limited=limited))
                continue
            found.append(FoundClaim(path, block, parse_claim(block.body), error=block.error))
        except ClaimSyntaxError as exc:
            found.append(FoundClaim(path, block, None, f"{exc.message} (line {exc.line} of the "
                                                       f"block)", block.error))
    return _refuse_duplicate_ids(found)


def _refuse_duplicate_ids(found: list[FoundClaim]) -> list[FoundClaim]:
    where: dict[str, list[FoundClaim]] = {}
    for c in found:
        if c.ident:
            where.setdefault(c.ident, []).append(c)
    out = []
    for c in found:
        same = where.get(c.ident, [])
        if len(same) > 1 and not c.error:
            places = " and ".join(str(s.line) for s in same)
            places = f"lines {places}" if len({s.path for s in same}) == 1 else \
                " and ".join(f"{s.path}:{s.line}" for s in same)
            c = replace(c, error=f"id {c.ident!r} is given twice ({places})")
        out.append(c)
    return out


def decide_found(found: FoundClaim) -> object:
    """The verdict of one found claim (``invalid`` for a document error or a syntax error)."""
    from verify.claims.verdict import Verdict, decide_claim

    if found.error or found.claim is None:
        return Verdict("invalid", found.claim, reason=found.error or found.syntax_error)
    if found.limited is not None:
        return found.limited
    return decide_claim(found.claim)


def own_problems(verdict: Any, error: str = "") -> list[str]:
    """Why a claim fails by itself (not through ``uses:``): the document's ``error`` (hidden,
    unclosed, an id given twice), or its verdict when it is not the expected one."""
    if error:
        return [error]
    if verdict.as_expected:
        return []
    if verdict.status == "invalid":
        return [f"invalid: {verdict.reason}"]
    if verdict.expected == "proved":
        return [verdict.explain()]
    return [f"expected {verdict.expected}, got {verdict.explain()}"]


class ClaimResolution:
    """Verdicts and problems of claims checked together (one file, a site, a test session).

    Each verdict is decided when first needed (a pytest run that selects one claim decides it
    and the claims it uses, nothing else) and then kept.
    """

    def __init__(self, found: Iterable[FoundClaim],
                 decide: Callable[[FoundClaim], object] = decide_found) -> None:
        self.found = _refuse_duplicate_ids(list(found))
        self._decide = decide
        self._verdicts: dict[int, object] = {}
        self._fully: dict[str, bool] = {}
        self._by_id: dict[str, list[int]] = {}
        for i, c in enumerate(self.found):
            if c.ident:
                self._by_id.setdefault(c.ident, []).append(i)

    @property
    def decided(self) -> frozenset[int]:
        """The indices whose verdict has been decided so far."""
        return frozenset(self._verdicts)

    def verdict(self, i: int) -> object:
        """The verdict of the i-th claim."""
        if i not in self._verdicts:
            self._verdicts[i] = self._decide(self.found[i])
        return self._verdicts[i]

    def decide_every(self, decide_all: DecideAll) -> None:
        """Decide every claim not decided yet in one call ``decide_all(decide, claims)``, which
        returns the verdicts in the order of ``claims`` (``[decide(c) for c in claims]``
        computed anywhere: :func:`pla.experiments.parallel_map` on processes or a cluster).
        ``decide`` is a top-level function and the claims are frozen records: both pickle.
        """
        todo = [i for i in range(len(self.found)) if i not in self._verdicts]
        verdicts = decide_all(self._decide, [self.found[i] for i in todo])
        if len(verdicts) != len(todo):   # a mapper that loses or invents work: refuse it
            raise ValueError(f"decide_all returned {len(verdicts)} verdicts for {len(todo)} "
                             f"claims")
        self._verdicts.update(zip(todo, verdicts))

    def own_problems(self, i: int) -> list[str]:
        """Why the i-th claim fails by itself (not counting what it uses)."""
        return own_problems(self.verdict(i), self.found[i].error)

    def _fully_verified(self, ident: str, stack: tuple[str, ...]) -> bool:
        if ident in self._fully:
            return self._fully[ident]
        places = self._by_id.get(ident, [])
        if ident in stack or len(places) != 1:
            return False
        (i,) = places
        result = self.verdict(i).status == "proved" and not self.own_problems(i) and all(
            self._fully_verified(u, stack + (ident,)) for u in self.found[i].claim.uses)
        self._fully[ident] = result
        return result

    def problems(self, i: int) -> tuple[str, ...]:
        """Why the i-th claim is not fully verified as expected (empty when it is)."""
        out = self.own_problems(i)
        c = self.found[i]
        for used in (c.claim.uses if c.claim is not None else ()):
            places = self._by_id.get(used, [])
            if not places:
                out.append(f"uses {used!r}, which is no claim's id")
            elif len(places) > 1:
                out.append(f"uses {used!r}, which is not fully verified: its id is given "
                           f"twice")
            elif not self._fully_verified(used, (c.ident,)):
                other = self.found[places[0]]
                out.append(f"uses {used!r} ({other.path}:{other.line}), which is not fully "
                           f"verified")
        return tuple(out)

    def file_claim(self, i: int) -> FileClaim:
        """The i-th claim with its verdict and problems."""
        c = self.found[i]
        return FileClaim(c.path, c.line, replace(c.block, error=c.error), self.verdict(i),
                         self.problems(i))


def check_found(found: Iterable[FoundClaim],
                decide_all: DecideAll | None = None) -> list[FileClaim]:
    """Decide found claims checked together (``uses:`` may name any of them): one by one here,
    or all at once by ``decide_all`` (:meth:`ClaimResolution.decide_every`), the same verdicts.

    >>> found = find_file_claims("```claim\\nx**2 >= 0\\n```\\n```claim\\nx >= 1\\n```\\n")
    >>> mapped = check_found(found, lambda decide, claims: [decide(c) for c in claims])
    >>> [c.verdict for c in mapped] == [c.verdict for c in check_found(found)]
    True
    """
    resolution = ClaimResolution(found)
    if decide_all is not None:
        resolution.decide_every(decide_all)
    return [resolution.file_claim(i) for i in range(len(resolution.found))]


def check_markdown_texts(texts: Iterable[tuple[str, str]],
                         decide_all: DecideAll | None = None) -> list[FileClaim]:
    """Decide the claims of several (path, Markdown text) pairs checked together (all at once
    by ``decide_all`` when given: :func:`check_found`)."""
    return check_found((c for path, text in texts for c in find_file_claims(text, path)),
                       decide_all)


def check_markdown_text(text: str, path: str = "<text>") -> list[FileClaim]:
    """Decide every claim block of Markdown text (dependencies resolved within it)."""
    return check_markdown_texts([(path, text)])


def check_markdown_file(path: str | Path) -> list[FileClaim]:
    """Decide every claim block of a Markdown file (read with :func:`pla.files.read_bounded`:
    at most 256 MiB, never a device that does not end)."""
    return check_markdown_files([path])


def check_markdown_files(paths: list[str | Path]) -> list[FileClaim]:
    """Decide every claim block of several files; ``uses:`` may name a claim of any of them."""
    from pla.files import read_bounded

    return check_markdown_texts((str(p), read_bounded(p).decode("utf-8")) for p in paths)
