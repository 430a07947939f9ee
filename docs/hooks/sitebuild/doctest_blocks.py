"""A Markdown extension that shows doctest examples (``>>>`` blocks) as Python console code.

The project's docstrings put their runnable examples at top level (``>>> run(ds)`` followed by
the expected output), as plain doctests.  Markdown would render those lines as a paragraph;
this preprocessor wraps every such block (from a ``>>>`` line at the left margin to the next
blank line) in a ```` ```pycon ```` fence, so the API reference shows them as code and nothing
inside them is read as Markdown or maths.  Blocks already inside a fence are left alone.

Enabled in ``mkdocs.yml`` as ``sitebuild.doctest_blocks`` (mkdocstrings renders
docstrings with the site's Markdown extensions).

>>> import markdown
>>> html = markdown.markdown("Text.\\n>>> 1 + 1\\n2\\n\\nMore.",
...                          extensions=[DoctestBlockExtension(), "fenced_code"])
>>> "<code" in html and "1 + 1" in html
True
"""

from __future__ import annotations

import re

from markdown import Extension
from markdown.preprocessors import Preprocessor

__all__ = ["DoctestBlockExtension", "wrap_doctest_blocks", "makeExtension"]

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def wrap_doctest_blocks(lines: list[str]) -> list[str]:
    """Wrap each top-level ``>>>`` block of ``lines`` in a ``pycon`` fence.

    >>> wrap_doctest_blocks(["Intro", ">>> f()", "3", "", "end"])
    ['Intro', '', '```pycon', '>>> f()', '3', '```', '', 'end']
    """
    out: list[str] = []
    fence: str | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        opened = _FENCE.match(line)
        if fence is not None:
            out.append(line)
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            index += 1
            continue
        if opened:
            fence = opened.group(1)
            out.append(line)
            index += 1
            continue
        if line.startswith(">>>"):
            block = []
            while index < len(lines) and lines[index].strip():
                block.append(lines[index])
                index += 1
            out.extend(["", "```pycon", *block, "```"])  # a blank line or the end follows
            continue
        out.append(line)
        index += 1
    return out


class _DoctestBlockPreprocessor(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        return wrap_doctest_blocks(lines)


class DoctestBlockExtension(Extension):
    """Register the preprocessor before the fenced-code preprocessors run."""

    def extendMarkdown(self, md) -> None:  # noqa: N802 - Markdown's API name
        md.preprocessors.register(_DoctestBlockPreprocessor(md), "pla_doctest_blocks", 40)


def makeExtension(**kwargs: object) -> DoctestBlockExtension:  # noqa: N802 - Markdown's API name
    """Entry point used when the extension is named in ``mkdocs.yml``."""
    return DoctestBlockExtension(**kwargs)
