"""Claims in Markdown: the claim language, its parser, and the pytest plugin.

In Jupyter, ``%load_ext verify.claims`` adds the ``%%claim`` cell magic
(:mod:`verify.claims.notebooks`).

Role: translates claims into kernel theorems and reports the kernel's verdicts. May import
:mod:`verify.kernel`, :mod:`verify.search` (proposals only) and :mod:`pla`; never decides a
verdict itself.

>>> check_claim_text("2 + 2 == 4").status
'proved'
"""

from verify.claims.checker import (
    ClaimSyntaxError, Verdict, check_claim_text, decide_claim, parse_claim,
)
from verify.claims.documents import (
    FileClaim, check_markdown_file, check_markdown_files, check_markdown_text,
)
from verify.claims.fences import ClaimBlock, find_claim_blocks

__all__ = ["Verdict", "ClaimBlock", "FileClaim", "decide_claim", "find_claim_blocks",
           "check_claim_text", "check_markdown_file", "check_markdown_files", "parse_claim",
           "check_markdown_text", "ClaimSyntaxError"]


def load_ipython_extension(ipython: object) -> None:
    """``%load_ext verify.claims``: the ``%%claim`` cell magic (:mod:`verify.claims.notebooks`)."""
    from verify.claims.notebooks import load_ipython_extension as load

    load(ipython)
