"""How many assumptions a claim block has, counted on its text before anything is parsed or
built: a block over :data:`MAX_ASSUMPTIONS` is ``unproved: search limit reached`` at once
(:func:`verify.claims.verdict.search_limit_verdict`).  Untrusted: a mistake here can only make a
claim unproved, never proved.

>>> assumption_count("assume: " + ", ".join(["x >= 0"] * 3) + "\\nx >= 0")
3
"""

from __future__ import annotations

import re

from verify.claims.fences import markdown_lines

__all__ = ["MAX_ASSUMPTIONS", "assumption_count", "without_assumptions"]

MAX_ASSUMPTIONS = 1000  # relations in the assume: lines, counted on the text before parsing


_COMPARISON = re.compile(r"<=|>=|==|!=|[<>=≤≥≠]")


def assumption_count(block: str) -> int:
    """An upper bound on the relations of a block's ``assume:`` lines, counted on the text
    (its comparison operators) before anything is parsed or built.

    >>> assumption_count("assume: a >= 0, 0 <= b <= 1\\na + b >= 0")
    3
    """
    return sum(len(_COMPARISON.findall(line)) for line in markdown_lines(block)
               if line.strip().startswith("assume:"))


def without_assumptions(block: str) -> str:
    """The block with its ``assume:`` lines blanked (the header and the claim kept, at their
    line numbers).

    >>> without_assumptions("id: x\\nassume: a >= 0\\na >= 0")
    'id: x\\n\\na >= 0'
    """
    return "\n".join("" if line.strip().startswith("assume:") else line
                     for line in markdown_lines(block))
