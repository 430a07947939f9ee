"""The (statement, proof) the claims checker hands the kernel, captured for attacks that forge
parts of them (tests/test_attacks_claim_display.py, tests/test_attacks_stop34_review.py)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from verify import kernel
from verify.claims import check_claim_text


@contextmanager
def recording_check_claim(seen: list) -> Iterator[None]:
    """verify.kernel.check_claim, recording the (statement, proof) the claims checker hands it."""
    honest = kernel.check_claim

    def recording(statement: Any, proof: Any) -> Any:
        seen.append((statement, proof))
        return honest(statement, proof)

    kernel.check_claim = recording
    try:
        yield
    finally:
        del kernel.check_claim  # back to the kernel's lazily resolved name


def proved_claim(text: str) -> tuple[Any, Any]:
    """The statement and proof of a claim the checker proves, as the kernel received them."""
    seen: list = []
    with recording_check_claim(seen):
        verdict = check_claim_text(text)
    assert verdict.status == "proved", verdict.explain()
    return seen[-1]
