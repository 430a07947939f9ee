"""Finding the ```claim blocks of Markdown text, in every common fence syntax (never silent).

A fenced block is a claim when its info string *names* ``claim``: ```` ```claim ````,
```` ``` claim ````, ```` ```claim title="…" ````, ```` ```{.claim} ````, ```` ```{ .claim #id } ````
and the same with ``~~~``, at any indentation (inside admonitions, lists and tabs).  The
content of any other fenced block is not Markdown and is skipped (a claim shown inside a
```` ~~~markdown ```` example is not checked).  A claim fence that is never closed is returned
as a block with an ``error``, so the run fails naming it instead of skipping it.

>>> [b.line for b in find_claim_blocks("x\\n```claim\\na >= a\\n```\\n")]
[2]
>>> [b.line for b in find_claim_blocks("- item\\n\\n    ```{.claim}\\n    a >= a\\n    ```\\n")]
[3]
>>> find_claim_blocks("~~~markdown\\n```claim\\na >= a\\n```\\n~~~\\n")
[]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ClaimBlock", "find_claim_blocks", "names_claim"]

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_CLAIM_INFO = re.compile(r"^\s*(?:claim(?=$|[\s{])|\{[^}]*(?<![\w-])\.claim(?![\w-])[^}]*\})")


@dataclass(frozen=True)
class ClaimBlock:
    """A claim block: the 1-based line of its opening fence, its body (dedented by the fence's
    indentation), the line of its closing fence, and an ``error`` if it is malformed."""

    line: int
    body: str
    end_line: int = 0
    error: str = ""


def names_claim(info: str) -> bool:
    """True when a fence's info string names ``claim``.

    >>> [names_claim(s) for s in ("claim", " claim", 'claim title="x"', "{.claim}",
    ...                           "{ .claim #a }", "claims", "python", "{.claimx}")]
    [True, True, True, True, True, False, False, False]
    """
    return bool(_CLAIM_INFO.match(info))


def find_claim_blocks(text: str) -> list[ClaimBlock]:
    """Every fenced block whose info string names ``claim`` (see the module docstring)."""
    blocks = []
    lines = text.splitlines()
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
            blocks.append(ClaimBlock(i + 1, "\n".join(body), j + 1, error))
        i = j + 1
    return blocks


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return (stripped.startswith(fence[0] * len(fence)) and not stripped.strip(fence[0]))
