"""The trusted kernel of pla-verify: the only code that decides what is true.

Role: decides. Imports nothing of the project outside ``verify.kernel`` (a test enforces it).

Everything else (solvers, certificate search, counterexample search, rendering, the claim parser)
only *proposes* objects; the modules of this package check them exactly, with no solver, no
float and no I/O:

- :mod:`verify.kernel.terms`: the objects of derivations (facts, terms, certificates, theorems);
- :mod:`verify.kernel.inputs`: what may enter: every theorem is copied into the kernel's own
  classes and every expression walked (rational polynomials over plain real symbols and Dot);
- :mod:`verify.kernel.statements`: the canonical text of a statement (:func:`statement_text`);
- :mod:`verify.kernel.context`: the context of one derivation (its facts, rules, the normal
  form of an expression, whether a fact is available);
- :mod:`verify.kernel.derivations`: derivation steps, inductions and theorems over sympy
  polynomials (equalities after declared rewriting rules, inequalities with
  Positivstellensatz-style certificates, vector facts through bilinearity and symmetry of an
  abstract inner product);
- :mod:`verify.kernel.claim_statements`: a Markdown claim's own statement and the check that a
  proof proves exactly it (hypotheses compared by canonical text; Sum goals by an induction
  theorem the kernel builds with fresh names);
- :mod:`verify.kernel.claim_display`: a claim's statement as the reader writes it, printed by the
  kernel from what it proved (:func:`statement_display`);
- :mod:`verify.kernel.powers`: symbolic powers ``x**n`` of a claim and the induction theorem
  the kernel builds for them;
- :mod:`verify.kernel.exact`: the one check that a number entering the kernel is exact;
- :mod:`verify.kernel.registry`: the theorems the kernel has checked (:func:`is_checked`);
- :mod:`verify.kernel.certificates`: separators, max-margin (KKT), Gordan certificates and
  mistake counts, in integers (no sympy; matrix–vector products by python-flint);
- :mod:`verify.kernel.row_facts`: the per-row facts of a checked run (‖xₙ‖², yₙ w_f·xₙ: R²
  and ρ) from one checked copy of the data, and sparse multipliers {row: αₙ};
- :mod:`verify.kernel.steps`: the per-update inequalities of a checked run (``pla run
  --check``, ``pla audit``), in integers.

sympy is imported lazily, so ``import verify.kernel`` stays cheap.

>>> import verify.kernel as kernel
>>> kernel.KernelError.__name__
'KernelError'
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from verify.kernel.certificates import (
    ZERO_RULES, CertificateError, MarginFacts, check_dual_bound, check_gordan, check_max_margin,
    check_max_margin_separator, check_mistake_count, check_separator, count_mistakes,
    row_products, squared_norms, squared_radius,
)
from verify.kernel.errors import KernelError
from verify.kernel.steps import ProofViolation, StepConstants

#: The derivation and claims half of the kernel, imported on first use: a checked run
#: (certificates and steps above) needs none of it, and its dataclasses cost tens of ms of
#: every ``pla run --check`` process.
_ON_FIRST_USE = {
    "verify.kernel.claim_statements": (
        "Atom", "CheckedClaim", "ClaimProof", "ClaimStatement", "Domain", "Goal", "SumGoal",
        "atom_definitions", "check_claim", "check_vacuous", "sum_theorem"),
    "verify.kernel.claim_display": ("statement_display",),
    "verify.kernel.derivations": ("check_theorem",),
    "verify.kernel.powers": ("Power", "power_lower_bound", "power_theorem"),
    "verify.kernel.terms": (
        "KERNEL_RULES", "Antisymmetry", "CaseSplit", "Certificate", "Chain", "CheckedTheorem",
        "Derivation", "DerivationError", "EqTerm", "Fact", "Family", "Hyp", "Induction", "LemmaUse", "Link",
        "NormSq", "Rewrite", "Square", "SquareCompare", "Term", "Theorem", "VectorDef", "dot"),
    "verify.kernel.registry": ("is_checked",),
    "verify.kernel.statements": ("statement_text",),
}

__all__ = [
    "KernelError", "DerivationError", "Fact", "Rewrite", "VectorDef", "Hyp", "Family",
    "Square", "NormSq", "Term", "EqTerm", "Certificate", "Link", "Chain", "LemmaUse",
    "CaseSplit", "SquareCompare", "Antisymmetry", "Derivation", "Induction", "Theorem",
    "CheckedTheorem", "check_theorem", "dot",
    "KERNEL_RULES", "is_checked", "statement_text",
    "CertificateError", "MarginFacts", "check_separator", "check_max_margin", "check_gordan",
    "squared_radius", "ZERO_RULES", "count_mistakes", "check_mistake_count",
    "check_max_margin_separator", "check_dual_bound", "row_products",
    "squared_norms", "ProofViolation", "StepConstants",
    "Atom", "Domain", "Goal", "SumGoal", "ClaimStatement", "ClaimProof", "CheckedClaim",
    "atom_definitions", "check_claim", "check_vacuous", "statement_display", "sum_theorem",
    "Power", "power_lower_bound", "power_theorem",
]


def __getattr__(name: str) -> Any:  # PEP 562: ``kernel.Dot`` without importing sympy eagerly
    if name == "Dot":
        from verify.kernel.terms import _dot_class

        return _dot_class()
    if f"verify.kernel.{name}" in _ON_FIRST_USE:     # the module itself (``kernel.terms``)
        return import_module(f"verify.kernel.{name}")
    for module, names in _ON_FIRST_USE.items():
        if name in names:
            # not cached here: the name always follows the module in sys.modules, so a module
            # imported again (pytester's in-process runs, IPython's autoreload) never leaves
            # the kernel with two classes of one name
            return getattr(import_module(module), name)
    raise AttributeError(f"module 'verify.kernel' has no attribute {name!r}")
