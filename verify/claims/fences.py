"""Finding the ```claim blocks of Markdown text as a renderer shows them (never silent).

A fenced block is a claim when its info string *names* ``claim``: ```` ```claim ````,
```` ``` claim ````, ```` ```claim title="…" ````, ```` ```{.claim} ````, ```` ```{ .claim #id } ````
and the same with ``~~~``.  Which blocks a reader *sees* as claims is decided by a CommonMark
parser (markdown-it-py, the rules GitHub renders by): claims in blockquotes (``> ```claim``),
in list items and nested lists are found with the body the renderer shows.  Two kinds of block
are found by the lines alone, because CommonMark reads them as indented code while the site's
Markdown (admonitions, tabs) renders them as claims: a claim fence indented inside such a block
is checked too.

Never silent: every line that opens a claim fence is either checked or refused with an
``error`` naming its line:

- inside an HTML comment or a raw HTML block: a renderer hides it (or shows it as raw text),
  so the reader never sees the claim that would be checked;
- shown as paragraph text (a fence CommonMark does not read as one);
- never closed.

Only the content of *other* fenced blocks (a ```` ~~~markdown ```` example) is skipped: it is
shown as code, not as a claim.

>>> [b.line for b in find_claim_blocks("x\\n```claim\\na >= a\\n```\\n")]
[2]
>>> [(b.line, b.body) for b in find_claim_blocks("> ```claim\\n> a >= a\\n> ```\\n")]
[(1, 'a >= a')]
>>> [b.line for b in find_claim_blocks("- item\\n\\n    ```{.claim}\\n    a >= a\\n    ```\\n")]
[3]
>>> find_claim_blocks("~~~markdown\\n```claim\\na >= a\\n```\\n~~~\\n")
[]
>>> find_claim_blocks("<!--\\n```claim\\na >= a\\n```\\n-->\\n")[0].error
'a claim block inside an HTML comment or raw HTML block is hidden by Markdown renderers: move it out of the HTML or delete it'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ClaimBlock", "find_claim_blocks", "names_claim", "markdown_lines"]

_LINE_END = re.compile(r"\r\n|\r|\n")
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_CLAIM_INFO = re.compile(r"^\s*(?:claim(?=$|[\s{])|\{[^}]*(?<![\w-])\.claim(?![\w-])[^}]*\})")
# What may stand before a fence on its line: indentation, blockquote markers, list markers.
_CONTAINER = re.compile(r"^(?:[ \t]*>|[ \t]*(?:[-+*]|\d{1,9}[.)])(?=[ \t])|[ \t]+)")
HIDDEN = ("a claim block inside an HTML comment or raw HTML block is hidden by Markdown "
          "renderers: move it out of the HTML or delete it")
AS_TEXT = ("this line opens a claim fence but a Markdown renderer shows it as paragraph text "
           "(start the fence on its own line, after a blank line)")


@dataclass(frozen=True)
class ClaimBlock:
    """A claim block: the 1-based line of its opening fence, its body as the renderer shows it,
    the line of its closing fence, an ``error`` if it is malformed or hidden, and the text
    before the fence on its opening line (``prefix``: indentation, ``>``, a list marker)."""

    line: int
    body: str
    end_line: int = 0
    error: str = ""
    prefix: str = ""

    @property
    def continuation(self) -> str:
        """The prefix that keeps a following line inside the same containers (list markers
        become spaces, blockquote markers stay).

        >>> ClaimBlock(1, "", prefix="> - ").continuation
        '>   '
        """
        return re.sub(r"(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)", lambda m: " " * len(m.group()),
                      self.prefix)


def markdown_lines(text: str) -> list[str]:
    """The lines of ``text`` as CommonMark reads them: a line ends at ``\\n``, ``\\r\\n`` or
    ``\\r`` only.  (``str.splitlines`` also ends a line at ``\\x0b``, ``\\x0c``,
    ``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028`` and ``\\u2029``, which a renderer shows *inside* a
    line: ``# comment\\x1cassume: x >= 5`` would hide an assumption, and every line number after
    such a character would point at the wrong line.)

    >>> markdown_lines("a\\x1cb\\r\\nc\\rd\\n")
    ['a\\x1cb', 'c', 'd']
    """
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def names_claim(info: str) -> bool:
    """True when a fence's info string names ``claim``.

    >>> [names_claim(s) for s in ("claim", " claim", 'claim title="x"', "{.claim}",
    ...                           "{ .claim #a }", "claims", "python", "{.claimx}")]
    [True, True, True, True, True, False, False, False]
    """
    return bool(_CLAIM_INFO.match(info))


def _split_container(line: str) -> tuple[str, str]:
    """(container prefix, rest) of a line: ``"> - ```claim"`` gives ``("> - ", "```claim")``."""
    end = 0
    while True:
        match = _CONTAINER.match(line[end:])
        if not match or not match.group():
            break
        end += len(match.group())
    return line[:end], line[end:]


def _opens_claim(rest: str) -> bool:
    match = _FENCE.match(rest)
    return bool(match and names_claim(match.group("info")))


def find_claim_blocks(text: str) -> list[ClaimBlock]:
    """Every claim block a renderer shows, and every hidden one with its error (see the
    module docstring)."""
    from markdown_it import MarkdownIt
    from markdown_it.common.utils import unescapeAll

    text = text.removeprefix("\ufeff")  # a byte-order mark: renderers drop it too
    lines = markdown_lines(text)
    tokens = [t for t in MarkdownIt("commonmark").parse(text) if t.map is not None]
    indented = {b.line: b for b in _indented_claim_blocks(lines)}
    # the renderer's own reading of each info string (entities decoded: ```cl&#97;im is claim)
    opened = {t.map[0] for t in tokens if t.type == "fence" and names_claim(unescapeAll(t.info))}
    blocks = []
    for i, line in enumerate(lines):
        prefix, rest = _split_container(line)
        if not _opens_claim(rest) and i not in opened:
            continue
        token = next((t for t in tokens if t.map[0] <= i < t.map[1] and t.type in
                      ("fence", "code_block", "html_block")), None)
        if token is not None and token.type == "fence":
            if token.map[0] == i and i in opened:
                blocks.append(_shown_block(token, lines, prefix))
            continue  # inside another fence: shown as code, not as a claim
        if token is not None and token.type == "html_block":
            blocks.append(_unshown_block(lines, i, prefix, HIDDEN))
        elif i + 1 in indented:
            blocks.append(indented[i + 1])  # an admonition's or a tab's claim (see above)
        elif token is None:
            blocks.append(_unshown_block(lines, i, prefix, AS_TEXT))
    return blocks


def _unshown_block(lines: list[str], i: int, prefix: str, error: str) -> ClaimBlock:
    """The claim block opened at line ``i`` that a renderer does not show, refused."""
    fence = _FENCE.match(_split_container(lines[i])[1]).group("fence")  # type: ignore[union-attr]
    j = i + 1
    while j < len(lines) and not _closes(_split_container(lines[j])[1], fence):
        j += 1
    body = "\n".join(_split_container(line)[1] for line in lines[i + 1:j])
    return ClaimBlock(i + 1, body, j + 1, error, prefix)


def _shown_block(token: object, lines: list[str], prefix: str) -> ClaimBlock:
    """A fence the renderer shows as a claim, with the renderer's body."""
    first, end = token.map  # type: ignore[attr-defined]
    last = _split_container(lines[end - 1])[1] if end - 1 > first else ""
    closed = end - 1 > first and _closes(last, token.markup)  # type: ignore[attr-defined]
    error = "" if closed else f"the claim fence opened at line {first + 1} is never closed"
    body = token.content.rstrip("\n")  # type: ignore[attr-defined]
    return ClaimBlock(first + 1, body, end, error, prefix)


def _indented_claim_blocks(lines: list[str]) -> list[ClaimBlock]:
    """Claim fences found by their lines alone, at any indentation (the content of other
    fences skipped): the reading of Markdown with admonitions and tabs."""
    blocks = []
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match or (match.group("fence")[0] == "`" and "`" in match.group("info")):
            i += 1
            continue
        fence, indent = match.group("fence"), match.group("indent")
        j = i + 1
        while j < len(lines) and not _closes(lines[j], fence):
            j += 1
        if names_claim(match.group("info")):
            body = [line[len(indent):] if line.startswith(indent) else line.lstrip()
                    for line in lines[i + 1:j]]
            error = "" if j < len(lines) else \
                f"the claim fence opened at line {i + 1} is never closed"
            blocks.append(ClaimBlock(i + 1, "\n".join(body), j + 1, error, indent))
        i = j + 1
    return blocks


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return (stripped.startswith(fence[0] * len(fence)) and not stripped.strip(fence[0]))
