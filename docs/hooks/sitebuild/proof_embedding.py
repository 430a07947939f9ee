"""Embed a generated, kernel-checked proof page into a lecture-note page.

The marker ``<!-- pla: proof NAME -->`` on a line of its own is replaced by the body of the
generated page ``proofs/NAME.md`` (:func:`verify.present.render.proof_pages`, checked by the kernel
at build time): its title line is dropped, its headings are moved down two levels so they
nest under the page's own section, and its relative links are rewritten so that they still
point to the same pages from the embedding page's folder.

>>> pages = {"proofs/demo.md": "# 6. Demo\\n\\n## Proof\\n\\nby [lemma](lemma.md#top)\\n"}
>>> print(embed_proofs("Intro\\n<!-- pla: proof demo -->\\nEnd\\n", "notes/x.md", lambda: pages))
Intro
<BLANKLINE>
#### Proof
<BLANKLINE>
by [lemma](../proofs/lemma.md#top)
<BLANKLINE>
End
<BLANKLINE>
"""

from __future__ import annotations

import posixpath
import re
from typing import Callable

__all__ = ["PROOF_MARKER", "UnknownProof", "embed_proofs"]

PROOF_MARKER = re.compile(r"^<!-- pla: proof ([\w.-]+) -->[ \t]*$", re.MULTILINE)
_LINK = re.compile(r"\]\((?![a-z]+:|/|#)([^)\s]+)\)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


class UnknownProof(KeyError):
    """A page asked for a proof that :func:`verify.present.render.proof_pages` does not generate."""

    def __str__(self) -> str:
        return str(self.args[0])


def _relink(line: str, page_dir: str) -> str:
    def replace(match: re.Match[str]) -> str:
        target, _, anchor = match.group(1).partition("#")
        resolved = posixpath.normpath(posixpath.join("proofs", target))
        relative = posixpath.relpath(resolved, page_dir or ".")
        return f"]({relative}{'#' + anchor if anchor else ''})"

    return _LINK.sub(replace, line)


def _nested_body(markdown: str, page_dir: str) -> str:
    out: list[str] = []
    fence: str | None = None
    title_dropped = False
    for line in markdown.splitlines():
        opened = _FENCE.match(line)
        if fence is not None:
            out.append(line)
            if opened and opened.group(1)[0] == fence[0]:
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            out.append(line)
            continue
        if not title_dropped and line.startswith("# "):
            title_dropped = True
            continue
        if line.startswith("#"):
            line = "##" + line
        out.append(_relink(line, page_dir))
    return "\n".join(out).strip("\n") + "\n"


def embed_proofs(markdown: str, page_src_uri: str, proof_pages: Callable[[], dict[str, str]]) -> str:
    """Replace every proof marker of ``markdown`` (the page ``page_src_uri``).

    ``proof_pages`` is called only when the page has a marker.
    """
    if not PROOF_MARKER.search(markdown):
        return markdown
    pages = proof_pages()
    page_dir = posixpath.dirname(page_src_uri)

    def replace(match: re.Match[str]) -> str:
        path = f"proofs/{match.group(1)}.md"
        if path not in pages:
            raise UnknownProof(f"no generated proof {path} (known: "
                               f"{', '.join(sorted(p for p in pages if p != 'proofs/index.md'))})")
        return "\n" + _nested_body(pages[path], page_dir)

    return PROOF_MARKER.sub(replace, markdown)
