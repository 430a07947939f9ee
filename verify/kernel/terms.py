"""Trusted base: the objects derivations are made of (facts, terms, certificates, theorems).

Imports only :mod:`verify.kernel.errors` and sympy (lazily).

>>> Fact(1, "<=", 2).rel
'<='
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from verify.kernel.errors import KernelError

# --- derivations ---
#
# Objects: scalar expressions are sympy polynomials (rational functions only where a positive
# divisor covers every denominator) over real symbols, natural-number indices and *dot atoms*
# ``Dot(a, b)`` of vector atoms.  Vector atoms are the symbols / indexed families a theorem
# declares in ``vectors``; they may occur only inside ``Dot``.  Everything a theorem states holds
# for every value of its free symbols and every real inner-product space of any dimension,
# because the kernel uses nothing about vectors beyond these rules:
#
#   bilinearity      Dot(a*u + b*v, z) = a*Dot(u, z) + b*Dot(v, z)   (a, b scalars)
#   symmetry         Dot(u, v) = Dot(v, u)
#   norm-nonneg      Dot(v, v) >= 0 for every vector expression v
#
# A check never evaluates numbers in a particular dimension.

#: The kernel's inference rules, as listed in each theorem's trusted base.
KERNEL_RULES = {
    "ring": "polynomial identity: both sides expand to the same polynomial",
    "rewrite": "replace equals by equals with a declared rule target**k = rhs",
    "vector-definition": "replace a vector atom by its declared definition",
    "bilinearity": "Dot is linear in each argument",
    "symmetry": "Dot(u, v) = Dot(v, u)",
    "norm-nonneg": "Dot(v, v) >= 0 for every vector expression v",
    "squares": "q**2 >= 0 for every real polynomial q",
    "nonneg-combination": "a sum of nonnegative rationals times products of hypotheses >= 0 is >= 0",
    "equality-combination": "polynomial multiples of equalities (lhs - rhs = 0) may be added",
    "positive-divisor": "p*(b - a) >= 0 and p > 0 give b - a >= 0 (p a product of positive facts)",
    "transitivity": "a chain a R1 b R2 c ... gives a R c",
    "naturals-nonneg": "a natural-number index is >= 0",
    "lemma": "a checked theorem, instantiated by a substitution whose hypotheses are all available",
    "induction": "P(0) and P(t) => P(t+1) for every natural t give P(T) for every natural T",
    "cases": "a fact proved once with e >= 0 and once with e < 0 (both cases stated by the "
             "kernel, so they cover every real e) holds",
    "compare-squares": "a >= 0, b >= 0 and a**2 >= b**2 (> b**2) give a >= b (a > b)",
    "antisymmetry": "a <= b and a >= b give a = b",
}

_RELATIONS = ("<=", "<", "=", ">=", ">")


@lru_cache(maxsize=1)
def _sympy() -> Any:
    import sympy

    return sympy


@lru_cache(maxsize=1)
def _dot_class() -> Any:
    sp = _sympy()

    class Dot(sp.Function):
        """Inner product of two vector expressions (inert; the kernel normalises it)."""

        nargs = 2

        def _latex(self, printer: Any, exp: Any = None) -> str:
            a, b = self.args
            if a == b:
                text = r"\lVert %s \rVert^{2}" % printer._print(a)
                return text if exp is None else r"\left(%s\right)^{%s}" % (text, exp)
            text = r"%s \cdot %s" % (printer._print(a), printer._print(b))
            return text if exp is None else r"\left(%s\right)^{%s}" % (text, exp)

    return Dot


def _as_sympy(e: Any) -> Any:
    """``e`` as a sympy object; a string is refused (it is never parsed, i.e. never evaluated)."""
    sp = _sympy()
    try:
        return sp.sympify(e, strict=True)
    except sp.SympifyError:
        raise DerivationError(f"{type(e).__name__} {e!r} is not an expression") from None


def dot(u: Any, v: Any) -> Any:
    """The (inert) inner product ``Dot(u, v)`` of two vector expressions.

    >>> import sympy
    >>> f, x = sympy.symbols("f x")
    >>> dot(f, 2 * x)
    Dot(f, 2*x)
    """
    return _dot_class()(u, v)


def __getattr__(name: str) -> Any:  # PEP 562: ``Dot`` without importing sympy eagerly
    if name == "Dot":
        return _dot_class()
    raise AttributeError(name)


class DerivationError(KernelError):
    """A derivation step, line, induction or theorem that the kernel rejects."""


@dataclass(frozen=True)
class Fact:
    """``lhs rel rhs`` with rel one of ``<= < = >= >``."""

    lhs: Any
    rel: str
    rhs: Any

    def __post_init__(self) -> None:
        if self.rel not in _RELATIONS:
            raise DerivationError(f"unknown relation {self.rel!r}")

    def normal(self) -> tuple[Any, str]:
        """``(e, kind)`` with kind ``>=0``, ``>0`` or ``=0`` meaning ``e >= 0`` etc."""
        lhs, rhs = _as_sympy(self.lhs), _as_sympy(self.rhs)
        if self.rel in ("<=", "<"):
            return rhs - lhs, ">=0" if self.rel == "<=" else ">0"
        if self.rel in (">=", ">"):
            return lhs - rhs, ">=0" if self.rel == ">=" else ">0"
        return lhs - rhs, "=0"


@dataclass(frozen=True)
class Rewrite:
    """The rewriting rule ``target**power = rhs`` (rhs of lower degree in target), e.g. y**2 = 1."""

    target: Any
    power: int
    rhs: Any


@dataclass(frozen=True)
class VectorDef:
    """The definition ``vector = value`` of a vector atom, e.g. w[t+1] = w[t] + y[t]*x[t]."""

    vector: Any
    value: Any


@dataclass(frozen=True)
class Hyp:
    """A named hypothesis: a :class:`Fact`, a :class:`Rewrite` or a :class:`VectorDef`."""

    name: str
    content: Fact | Rewrite | VectorDef
    note: str = ""


@dataclass(frozen=True)
class Family:
    """Hypotheses that hold at every index ``0 <= index < upper`` (e.g. every update t < T)."""

    index: Any
    upper: Any
    hyps: tuple[Hyp, ...]


@dataclass(frozen=True)
class Square:
    """Certificate factor ``expr**2`` (>= 0 by the rule ``squares``)."""

    expr: Any


@dataclass(frozen=True)
class NormSq:
    """Certificate factor ``Dot(v, v)`` of a vector expression v (>= 0 by ``norm-nonneg``)."""

    vector: Any


@dataclass(frozen=True)
class Term:
    """``coeff * product(factors)``; coeff a nonnegative rational, factors hypothesis names
    (of ``>= 0`` / ``> 0`` facts), :class:`Square` or :class:`NormSq`."""

    coeff: Any
    factors: tuple = ()


@dataclass(frozen=True)
class EqTerm:
    """``multiplier * (lhs - rhs)`` of the equality fact ``name`` (any polynomial multiplier)."""

    multiplier: Any
    name: str


@dataclass(frozen=True)
class Certificate:
    """Why ``a rel b`` holds: ``p * (b - a) = sum(terms) + sum(eq_terms)`` after the rules,
    with ``p`` the product of the ``> 0`` facts named in ``divisors`` (1 if none).
    For ``=`` the terms must be empty; for a strict relation one term must be strictly
    positive (a positive coefficient times ``> 0`` facts only)."""

    terms: tuple[Term, ...] = ()
    eq_terms: tuple[EqTerm, ...] = ()
    divisors: tuple[str, ...] = ()


@dataclass(frozen=True)
class Link:
    """One step ``previous rel expr`` of a :class:`Chain`, with its certificate."""

    rel: str
    expr: Any
    certificate: Certificate = Certificate()
    note: str = ""


@dataclass(frozen=True)
class Chain:
    """``start rel1 e1 rel2 e2 ...``; proves the fact ``start R last`` (by transitivity)."""

    name: str
    start: Any
    links: tuple[Link, ...]
    note: str = ""


@dataclass(frozen=True)
class LemmaUse:
    """The conclusion number ``conclusion`` of a checked lemma, instantiated by ``substitution``
    (pairs ``(symbol, expression)``); every instantiated hypothesis must be available."""

    name: str
    lemma: "CheckedTheorem"
    substitution: tuple = ()
    conclusion: int = 0
    note: str = ""


@dataclass(frozen=True)
class CaseSplit:
    """``conclusion`` by cases on the sign of the polynomial ``expr``: ``nonneg`` derives it
    with the fact ``expr >= 0``, ``negative`` with ``expr < 0``, each case fact available in its
    derivation under the line's ``name`` (the kernel states both cases itself, so they cover
    every value).  After the line, ``name`` is the conclusion."""

    name: str
    expr: Any
    conclusion: Fact
    nonneg: "Derivation"
    negative: "Derivation"
    note: str = ""


@dataclass(frozen=True)
class SquareCompare:
    """``larger rel smaller`` (rel ``>=`` or ``>``) from the available facts larger >= 0,
    smaller >= 0 and larger**2 - smaller**2 >= 0 (> 0 for ``>``): squaring both sides."""

    name: str
    larger: Any
    rel: str
    smaller: Any
    note: str = ""


@dataclass(frozen=True)
class Antisymmetry:
    """``lhs = rhs`` from the available facts lhs <= rhs and lhs >= rhs."""

    name: str
    lhs: Any
    rhs: Any
    note: str = ""


@dataclass(frozen=True)
class Derivation:
    """A sequence of lines; each line's fact is available to the later lines under its name."""

    lines: tuple[Chain | LemmaUse | CaseSplit | SquareCompare | Antisymmetry, ...]


@dataclass(frozen=True)
class Induction:
    """Proof of conclusions P(variable) for every natural ``variable``: ``base`` proves P(0),
    ``step`` proves P(index + 1) from ``IH`` = P(index) (``IH1``, ``IH2``... for several)."""

    variable: Any
    index: Any
    base: Derivation
    step: Derivation


@dataclass(frozen=True)
class Theorem:
    """Hypotheses (and optionally a family of per-step hypotheses) imply the conclusions."""

    name: str
    title: str
    vectors: tuple[str, ...]
    naturals: tuple
    hyps: tuple[Hyp, ...]
    conclusions: tuple[Fact, ...]
    proof: Derivation | Induction
    family: Family | None = None
    summary: str = ""


_KERNEL_TOKEN = object()


@dataclass(frozen=True)
class CheckedTheorem:
    """A theorem the kernel has checked. Only :func:`check_theorem` creates one, and only the
    very objects it returned count as checked (:func:`is_checked`): a copy, a
    ``dataclasses.replace`` or an object edited in place is refused as a lemma.

    ``rules``: kernel inference rules used (see :data:`KERNEL_RULES`); ``declared``: the
    theorem's hypotheses used as rewriting rules; ``lemmas``: every lemma it rests on,
    transitively; ``steps``: number of checked steps.
    """

    theorem: Theorem
    rules: tuple[str, ...]
    declared: tuple[str, ...]
    lemmas: tuple[str, ...]
    steps: int
    token: object = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.token is not _KERNEL_TOKEN:
            raise KernelError("a CheckedTheorem can only be created by kernel.check_theorem")
