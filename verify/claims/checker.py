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

from verify.claims.documents import (FileClaim, check_markdown_file, check_markdown_files,
                                     check_markdown_text)
from verify.claims.elaborate import domain_conditions
from verify.claims.fences import ClaimBlock, find_claim_blocks
from verify.claims.parser import ClaimSyntaxError, parse_claim
from verify.claims.propose import _constant_root_certificate, _Prover
from verify.claims.verdict import STATUSES, Verdict, _prove, check_claim_text, decide_claim

__all__ = ["Verdict", "ClaimBlock", "FileClaim", "decide_claim", "find_claim_blocks",
           "check_claim_text", "check_markdown_file", "check_markdown_files", "parse_claim",
           "ClaimSyntaxError", "STATUSES", "check_markdown_text",
           "domain_conditions", "_prove", "_Prover", "_constant_root_certificate"]
