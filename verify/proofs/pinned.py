"""The pinned statements of the built-in theorems: what each one is *supposed* to say.

Role: part of the verdict of ``pla proof`` (and of the site build): a built-in theorem counts
as checked only when the kernel accepted its proof **and** the canonical text of what was
proved (:func:`verify.kernel.statement_text`, printed by the kernel from the checked copy) is
exactly the reviewed text in ``verify/proofs/statements.toml``, whose SHA-256 is stored next
to it.  A proof script that weakens a bound, drops or adds a hypothesis, or adds an extra
conclusion therefore fails with a message naming the theorem and the first line that differs.

To change a statement on purpose: edit the proof script, run
``python -m verify.proofs.pinned`` (it prints the new TOML), review the difference, and
replace ``statements.toml`` with it.

>>> pins = pinned_statements()
>>> pins["novikoff"].splitlines()[0]
'theorem novikoff'
>>> statement_digest(pins["novikoff"]) == pinned_digests()["novikoff"]
True
"""

from __future__ import annotations

import hashlib
import sys
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["PINNED_FILE", "pinned_statements", "statement_digest", "pinned_difference",
           "pinned_digests", "pinned_toml"]

#: The reviewed, human-readable statements (one TOML table per theorem).
PINNED_FILE = Path(__file__).with_name("statements.toml")


def statement_digest(text: str) -> str:
    """The SHA-256 (hex) of a statement text, as stored in ``statements.toml``."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def _load() -> dict[str, dict[str, str]]:
    with PINNED_FILE.open("rb") as handle:
        data = tomllib.load(handle)
    return {name: {"statement": entry["statement"].strip("\n"), "sha256": entry["sha256"]}
            for name, entry in data.items()}


def pinned_statements() -> dict[str, str]:
    """``{theorem name: pinned statement text}``."""
    return {name: entry["statement"] for name, entry in _load().items()}


def pinned_digests() -> dict[str, str]:
    """``{theorem name: stored SHA-256}``."""
    return {name: entry["sha256"] for name, entry in _load().items()}


def pinned_difference(name: str, checked: Any) -> str | None:
    """None when the checked theorem states exactly its pinned statement; else why not (the
    theorem's name and the first differing line, pinned vs proved).

    >>> pinned_difference("no-such-theorem", None)
    'no-such-theorem: no pinned statement in statements.toml'
    """
    from verify.kernel import is_checked, statement_text

    entry = _load().get(name)
    if entry is None:
        return f"{name}: no pinned statement in statements.toml"
    if statement_digest(entry["statement"]) != entry["sha256"]:
        return f"{name}: the pinned statement does not match its SHA-256 in statements.toml"
    if not is_checked(checked):
        return f"{name}: not a theorem the kernel checked"
    proved = statement_text(checked.theorem)
    if proved == entry["statement"]:
        return None
    pinned_lines, proved_lines = entry["statement"].splitlines(), proved.splitlines()
    for i in range(max(len(pinned_lines), len(proved_lines))):
        want = pinned_lines[i] if i < len(pinned_lines) else "(nothing)"
        got = proved_lines[i] if i < len(proved_lines) else "(nothing)"
        if want != got:
            return (f"{name}: the proved statement is not the pinned one: pinned "
                    f"'{want}', proved '{got}'")
    return f"{name}: the proved statement is not the pinned one"  # pragma: no cover


def pinned_toml(checked: list[tuple[str, Any]]) -> str:
    """The text of ``statements.toml`` for ``(name, checked theorem)`` pairs (to review)."""
    from verify.kernel import statement_text

    out = ["# The statements of the built-in theorems, reviewed by a human.",
           "# `pla proof` (and the site build) fails when a proved statement differs from its",
           "# pin.  Regenerate with `python -m verify.proofs.pinned` after reviewing a change.",
           ""]
    for name, done in checked:
        text = statement_text(done.theorem)
        out += [f"[{name}]", f'sha256 = "{statement_digest(text)}"',
                f"statement = '''\n{text}\n'''", ""]
    return "\n".join(out)


def main() -> int:
    """Print the TOML of the statements proved now (checking proofs without the pins)."""
    from verify.kernel import check_theorem
    from verify.proofs import builtin_proofs

    checked: dict[str, Any] = {}
    for proof in builtin_proofs():
        checked[proof.name] = check_theorem(proof.build(checked))
    sys.stdout.write(pinned_toml(list(checked.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
