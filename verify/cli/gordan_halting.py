"""What a Gordan certificate proves about PLA halting, for each sign(0) convention.

A Gordan certificate λ ≥ 0, λ ≠ 0, Σ λₙ yₙ xₙ = 0 gives Σ λₙ yₙ w·xₙ = 0 for every w, so no w
has yₙ w·xₙ > 0 on all the rows with λₙ > 0 (the support).  PLA halts at a w that makes no
mistake, and what a mistake is depends on ``--zero``:

* ``mistake`` (yₙ w·xₙ ≤ 0 is a mistake): halting needs yₙ w·xₙ > 0 everywhere: impossible.
* ``positive`` (sign(0) = +1): halting needs w·xₙ ≥ 0 on the +1 rows and w·xₙ < 0 on the −1
  rows, so yₙ w·xₙ ≥ 0 everywhere; with Σ λₙ yₙ w·xₙ = 0 every support term is 0, which a −1
  row cannot be.  Impossible when the support has a −1 row; otherwise PLA may halt at a w with
  w·xₙ = 0 on the support.
* ``negative`` (sign(0) = −1): the mirror image: impossible when the support has a +1 row.
* ``correct`` (only yₙ w·xₙ < 0 is a mistake): any w with yₙ w·xₙ ≥ 0 everywhere halts (w = 0
  does), so the certificate says nothing about halting.

With the bias coordinate x₀ = 1, Σ λₙ yₙ = 0 forces both labels into the support, so PLA
cannot halt under ``mistake``, ``positive`` or ``negative``.

>>> cannot_halt("mistake", [1, 1]), cannot_halt("positive", [1, -1]), cannot_halt("correct", [1, -1])
(True, True, False)
>>> cannot_halt("negative", [-1, -1])
False
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["cannot_halt", "halting_sentence"]


def cannot_halt(zero: str, support_labels: Sequence[int]) -> bool:
    """Whether the certificate with these support labels proves that PLA under ``zero`` never
    halts (module docs)."""
    if zero == "mistake":
        return True
    if zero == "positive":
        return any(y < 0 for y in support_labels)
    if zero == "negative":
        return any(y > 0 for y in support_labels)
    return False


def halting_sentence(zero: str, support_labels: Sequence[int]) -> str:
    """One sentence, true for ``zero``, on what the certificate proves about halting.

    >>> halting_sentence("correct", [1, -1])[:60]
    'under --zero correct PLA may still halt: the certificate onl'
    """
    if cannot_halt(zero, support_labels):
        if zero == "mistake":
            why = "no w has y_n w.x_n > 0 on every row"
        else:
            strict = "-1" if zero == "positive" else "+1"
            why = (f"a halting w would need y_n w.x_n >= 0 on every row, hence = 0 on the "
                   f"certificate's rows, but a {strict} row needs a strict sign")
        return f"under --zero {zero} PLA cannot halt on these data ({why})"
    if zero == "correct":
        return ("under --zero correct PLA may still halt: the certificate only shows that no w "
                "has y_n w.x_n > 0 on every row, and a w with y_n w.x_n >= 0 everywhere (w = 0, "
                "for one) makes no mistake under this convention")
    return (f"under --zero {zero} PLA may still halt, at a w with w.x_n = 0 on the "
            "certificate's rows: the certificate only shows that no w has y_n w.x_n > 0 on "
            "every row")
