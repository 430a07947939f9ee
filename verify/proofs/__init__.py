"""The built-in theorems: Novikoff's convergence proof of PLA, its variants and Pocket.

Role: states theorems and proposes their derivations; the kernel decides. May import
:mod:`verify.kernel` only.

Every theorem is built from sympy objects and checked by :func:`verify.kernel.check_theorem`;
lemmas are passed to the theorems that use them as checked objects, so a theorem can only rest
on lemmas the kernel accepted.  The eight groups follow the issue that introduced them:

1. the inner product grows; 2. by induction w_f . w_T >= T rho; 3. the norm grows slowly;
4. by induction ||w_T||^2 <= T R^2; 5. Cauchy-Schwarz; 6. Novikoff's bound (three forms);
7. variants (learning rate, non-zero w_0, normalised margin); 8. Pocket.

>>> results = check_builtin_proofs()
>>> all(r.checked is not None for r in results), len({r.group for r in results})
(True, 8)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

__all__ = ["BuiltinProof", "ProofResult", "builtin_proofs", "check_builtin_proofs", "GROUPS"]

#: The eight groups of built-in theorems.
GROUPS = {
    1: "The inner product grows",
    2: "The inner product after T updates",
    3: "The norm grows slowly",
    4: "The norm after T updates",
    5: "Cauchy-Schwarz",
    6: "Novikoff's theorem",
    7: "Variants",
    8: "Pocket",
}


@dataclass(frozen=True)
class BuiltinProof:
    """A built-in theorem: its name, group (1-8) and builder ``build(lemmas) -> Theorem``."""

    name: str
    group: int
    build: Callable[[dict], Any]
    needs: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProofResult:
    """The outcome of checking one built-in theorem (``checked`` is None when it failed)."""

    name: str
    group: int
    theorem: Any
    checked: Any
    error: str | None
    seconds: float


def builtin_proofs() -> tuple[BuiltinProof, ...]:
    """All built-in theorems, each after the lemmas it needs."""
    from verify.proofs import novikoff as n, pocket as p, variants as v
    from verify.proofs.symbols import proof_symbols

    eta = lambda: proof_symbols().eta  # noqa: E731 - built lazily (sympy)
    return (
        BuiltinProof("inner-product-step", 1, n.inner_step_theorem),
        BuiltinProof("inner-product-bound", 2, n.inner_bound_theorem, ("inner-product-step",)),
        BuiltinProof("norm-step", 3, n.norm_step_theorem),
        BuiltinProof("norm-bound", 4, n.norm_bound_theorem, ("norm-step",)),
        BuiltinProof("cauchy-schwarz", 5, n.cauchy_schwarz_theorem),
        BuiltinProof("novikoff", 6, n.novikoff_theorem,
                     ("inner-product-bound", "norm-bound", "cauchy-schwarz")),
        BuiltinProof("inner-product-step-eta", 7, lambda L: n.inner_step_theorem(L, eta())),
        BuiltinProof("inner-product-bound-eta", 7, lambda L: n.inner_bound_theorem(L, eta()),
                     ("inner-product-step-eta",)),
        BuiltinProof("norm-step-eta", 7, lambda L: n.norm_step_theorem(L, eta())),
        BuiltinProof("norm-bound-eta", 7, lambda L: n.norm_bound_theorem(L, eta()),
                     ("norm-step-eta",)),
        BuiltinProof("eta-bound", 7, v.eta_bound_theorem,
                     ("inner-product-bound-eta", "norm-bound-eta", "cauchy-schwarz")),
        BuiltinProof("eta-scaling", 7, v.eta_scaling_theorem),
        BuiltinProof("inner-product-bound-w0", 7,
                     lambda L: n.inner_bound_theorem(L, w0_zero=False), ("inner-product-step",)),
        BuiltinProof("norm-bound-w0", 7, lambda L: n.norm_bound_theorem(L, w0_zero=False),
                     ("norm-step",)),
        BuiltinProof("w0-bound", 7, v.w0_bound_theorem,
                     ("inner-product-bound-w0", "norm-bound-w0", "cauchy-schwarz")),
        BuiltinProof("margins", 7, v.margins_theorem),
        BuiltinProof("pocket-step", 8, p.pocket_step_theorem),
        BuiltinProof("pocket-bound", 8, p.pocket_bound_theorem, ("pocket-step",)),
    )


def check_builtin_proofs(names: tuple[str, ...] | None = None) -> list[ProofResult]:
    """Build and check the built-in theorems in order (all, or ``names`` and what they need).

    A theorem counts as checked when the kernel accepts it and it states exactly its pinned
    statement (:mod:`verify.proofs.pinned`).  A theorem whose lemma failed is reported as
    failed without being checked.
    """
    from verify.kernel import KernelError, check_theorem
    from verify.proofs.pinned import pinned_difference

    proofs = builtin_proofs()
    wanted = set(names) if names is not None else {p.name for p in proofs}
    by_name = {p.name: p for p in proofs}
    unknown = wanted - set(by_name)
    if unknown:
        raise KeyError(f"no built-in theorem named {sorted(unknown)[0]!r}")
    pending = list(wanted)
    while pending:  # add what the wanted theorems need
        for need in by_name[pending.pop()].needs:
            if need not in wanted:
                wanted.add(need)
                pending.append(need)
    checked: dict[str, Any] = {}
    results = []
    for proof in proofs:
        if proof.name not in wanted:
            continue
        start = time.perf_counter()
        theorem, done, error = None, None, None
        missing = [need for need in proof.needs if need not in checked]
        if missing:
            error = f"rests on a lemma that failed: {missing[0]}"
        else:
            try:
                theorem = proof.build(checked)
                done = check_theorem(theorem)
                error = pinned_difference(proof.name, done)
            except KernelError as exc:
                done, error = None, str(exc)
            if error is None:
                checked[proof.name] = done
            else:
                done = None
        results.append(ProofResult(proof.name, proof.group, theorem, done, error,
                                   time.perf_counter() - start))
    return results
