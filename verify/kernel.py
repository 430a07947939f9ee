"""The trusted kernel of pla-verify: the only code that decides what is true.

Everything else (solvers, certificate search, counterexample search, rendering, the claim parser)
only *proposes* objects; this module checks them exactly, with no solver, no float and no I/O.
It has two sections:

- ``# --- derivations ---``: derivation steps, inductions and theorems over sympy polynomials
  (equalities after declared rewriting rules, inequalities with Positivstellensatz-style
  certificates, vector facts through bilinearity and symmetry of an abstract inner product);
- ``# --- certificates ---``: checks of separators, max-margin (KKT) and Gordan certificates.

sympy is imported lazily (:func:`_sympy`), so ``import verify.kernel`` stays cheap.

>>> import verify.kernel as kernel
>>> kernel.KernelError.__name__
'KernelError'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

__all__ = [
    "KernelError", "DerivationError", "Fact", "Rewrite", "VectorDef", "Hyp", "Family",
    "Square", "NormSq", "Term", "EqTerm", "Certificate", "Link", "Chain", "LemmaUse",
    "Derivation", "Induction", "Theorem", "CheckedTheorem", "check_theorem", "dot",
    "KERNEL_RULES",
]


class KernelError(Exception):
    """Base class of everything the kernel rejects."""


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


def dot(u: Any, v: Any) -> Any:
    """The (inert) inner product ``Dot(u, v)`` of two vector expressions.

    >>> import sympy
    >>> f, x = sympy.symbols("f x")
    >>> dot(f, 2 * x)
    Dot(f, 2*x)
    """
    return _dot_class()(u, v)


def __getattr__(name: str) -> Any:  # PEP 562: ``kernel.Dot`` without importing sympy eagerly
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
        sp = _sympy()
        lhs, rhs = sp.S(self.lhs), sp.S(self.rhs)
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
class Derivation:
    """A sequence of lines; each line's fact is available to the later lines under its name."""

    lines: tuple[Chain | LemmaUse, ...]


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
    """A theorem the kernel has checked. Only :func:`check_theorem` creates one.

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


class _Context:
    """What is available while checking one derivation (internal, mutable)."""

    def __init__(self, theorem: Theorem, naturals: tuple, hyps: tuple[Hyp, ...],
                 families: tuple[Family, ...]) -> None:
        sp = _sympy()
        self.theorem = theorem
        self.vectors = frozenset(theorem.vectors)
        self.naturals = frozenset(naturals)
        self.families = families
        self.facts: dict[str, tuple[Any, str]] = {}
        self.rewrites: list[tuple[str, Rewrite]] = []
        self.vecdefs: dict[Any, tuple[str, Any]] = {}
        self.rules: set[str] = set()
        self.declared: set[str] = set()
        self.lemmas: set[str] = set()
        self.steps = 0
        for n in sorted(naturals, key=str):
            self.facts[f"{n}>=0"] = (sp.S(n), ">=0")
        for hyp in hyps:
            self.add_hyp(hyp)

    def add_hyp(self, hyp: Hyp) -> None:
        if hyp.name in self.facts or any(hyp.name == n for n, _ in self.rewrites):
            raise DerivationError(f"hypothesis name {hyp.name!r} used twice")
        content = hyp.content
        if isinstance(content, Fact):
            expr, kind = content.normal()
            _require_polynomial(expr, f"hypothesis {hyp.name}")
            self.check_scalar(_sympy().S(content.lhs))
            self.check_scalar(_sympy().S(content.rhs))
            self.facts[hyp.name] = (expr, kind)
        elif isinstance(content, Rewrite):
            if not (isinstance(content.power, int) and content.power >= 1):
                raise DerivationError(f"rule {hyp.name}: power must be a positive int")
            self.rewrites.append((hyp.name, content))
        elif isinstance(content, VectorDef):
            if not self.is_vector(content.vector):
                raise DerivationError(f"rule {hyp.name}: {content.vector} is not a vector atom")
            self.vecdefs[content.vector] = (hyp.name, content.value)
        else:
            raise DerivationError(f"hypothesis {hyp.name}: unknown kind")

    def is_vector(self, atom: Any) -> bool:
        sp = _sympy()
        if isinstance(atom, sp.Symbol):
            return atom.name in self.vectors
        if isinstance(atom, sp.Indexed):
            return str(atom.base.label) in self.vectors
        return False

    # -- normal forms -------------------------------------------------------------------------
    def vector_terms(self, v: Any) -> list[tuple[Any, Any]]:
        """``v`` as ``[(scalar coefficient, vector atom)]`` after the vector definitions."""
        sp = _sympy()
        v = sp.S(v)
        for _ in range(32):
            new = sp.S(v.xreplace({k: val for k, (_, val) in self.vecdefs.items()}))
            if new == v:
                break
            for k, (name, _) in self.vecdefs.items():
                if v.has(k):
                    self.declared.add(name)
                    self.rules.add("vector-definition")
            v = new
        else:
            raise DerivationError("vector definitions do not terminate")
        out = []
        for term in sp.Add.make_args(sp.expand(v)):
            if term == 0:
                continue
            factors = sp.Mul.make_args(term)
            vecs = [f for f in factors if self.is_vector(f)]
            if len(vecs) != 1:
                raise DerivationError(f"{term} is not a scalar multiple of one vector atom")
            coeff = sp.Mul(*[f for f in factors if f is not vecs[0]])
            self.check_scalar(coeff)
            out.append((coeff, vecs[0]))
        return out

    def bilinear(self, u: Any, v: Any) -> Any:
        sp = _sympy()
        Dot = _dot_class()
        self.rules.update(("bilinearity", "symmetry"))
        total = sp.S(0)
        for cu, a in self.vector_terms(u):
            for cv, b in self.vector_terms(v):
                pair = sorted((a, b), key=sp.default_sort_key)
                total += cu * cv * Dot(*pair)
        return total

    def check_scalar(self, e: Any) -> None:
        """Vector atoms may occur only inside Dot."""
        Dot = _dot_class()
        if isinstance(e, Dot):
            return
        if self.is_vector(e):
            raise DerivationError(f"vector {e} used as a scalar")
        for arg in e.args:
            self.check_scalar(arg)

    def normal(self, e: Any) -> Any:
        """The normal form: vector definitions, bilinearity, symmetry, expansion, rewrites."""
        sp = _sympy()
        Dot = _dot_class()
        e = sp.S(e)
        self.rules.add("ring")
        for _ in range(16):
            before = e
            if e.has(Dot):
                e = e.replace(lambda a: isinstance(a, Dot), lambda a: self.bilinear(*a.args))
            self.check_scalar(e)
            e = sp.expand(e)
            for name, rule in self.rewrites:
                e = self.reduce(e, name, rule)
            if e == before:
                return e
        raise DerivationError("rewriting does not terminate")

    def reduce(self, e: Any, name: str, rule: Rewrite) -> Any:
        sp = _sympy()
        for _ in range(64):
            out, changed = [], False
            for term in sp.Add.make_args(e):
                coeff, exponent = term.as_coeff_exponent(rule.target)
                if exponent.is_Integer and exponent >= rule.power and not coeff.has(rule.target):
                    out.append(coeff * rule.target ** (exponent - rule.power) * rule.rhs)
                    changed = True
                else:
                    out.append(term)
            if not changed:
                return e
            self.rules.add("rewrite")
            self.declared.add(name)
            e = sp.expand(sp.Add(*out))
        raise DerivationError(f"rule {name} does not terminate")

    def same(self, a: Any, b: Any) -> bool:
        sp = _sympy()
        numerator, _ = sp.fraction(sp.together(sp.S(a) - sp.S(b)))
        return self.normal(numerator) == 0

    # -- facts ---------------------------------------------------------------------------------
    def fact(self, name: str, kinds: tuple[str, ...]) -> Any:
        if name not in self.facts:
            raise DerivationError(f"no hypothesis or earlier line named {name!r}")
        expr, kind = self.facts[name]
        if kind not in kinds:
            raise DerivationError(f"{name!r} is a {kind} fact, a {'/'.join(kinds)} fact is needed")
        return expr

    def available(self, expr: Any, kind: str) -> bool:
        sp = _sympy()
        constant = sp.S(expr)
        if constant.is_Rational:  # rule "ring": a numeral's sign is evaluated exactly
            return {">=0": constant >= 0, ">0": constant > 0, "=0": constant == 0}[kind]
        accepted = {">=0": (">=0", ">0", "=0"), ">0": (">0",), "=0": ("=0",)}[kind]
        for e, k in self.facts.values():
            if k in accepted and self.same(e, expr):
                return True
            if kind != ">0" and k == "=0" and self.same(e, -expr):
                return True
        return False


def _require_polynomial(e: Any, what: str) -> None:
    sp = _sympy()
    _, den = sp.fraction(sp.together(sp.S(e)))
    if den.free_symbols:
        raise DerivationError(f"{what} must be a polynomial, it has the denominator {den}")


def _rational(c: Any, what: str) -> Any:
    sp = _sympy()
    if isinstance(c, Fraction):
        c = sp.Rational(c.numerator, c.denominator)
    c = sp.S(c)
    if not c.is_Rational:
        raise DerivationError(f"{what}: coefficient {c} is not a rational number")
    return c


def _check_link(ctx: _Context, a: Any, link: Link) -> None:
    """Check ``a link.rel link.expr`` with the link's certificate."""
    sp = _sympy()
    cert = link.certificate
    b = sp.S(link.expr)
    if link.rel in (">=", ">"):
        a, b = b, a  # a >= b  is  b <= a
    ctx.check_scalar(sp.S(a))
    ctx.check_scalar(b)
    p = sp.S(1)
    for name in cert.divisors:
        p *= ctx.fact(name, (">0",))
        ctx.rules.add("positive-divisor")
    for side in (a, b):
        _, den = sp.fraction(sp.together(side))
        _, rest = sp.fraction(sp.cancel(p / den))
        if rest.free_symbols:
            raise DerivationError(f"the denominator {den} is not covered by positive divisors")
    numerator, den = sp.fraction(sp.together(b - a))
    scaled = sp.cancel(p / den) * numerator  # = p * (b - a)
    total = sp.S(0)
    strict = False
    if link.rel == "=" and cert.terms:
        raise DerivationError("an equality step takes no inequality terms")
    for term in cert.terms:
        coeff = _rational(term.coeff, "certificate")
        if coeff < 0:
            raise DerivationError(f"certificate coefficient {coeff} is negative")
        value, all_strict = coeff, True
        for factor in term.factors:
            if isinstance(factor, str):
                e = ctx.fact(factor, (">=0", ">0"))
                _require_polynomial(e, f"certificate factor {factor}")
                all_strict &= ctx.facts[factor][1] == ">0"
                value *= e
                ctx.rules.add("nonneg-combination")
            elif isinstance(factor, Square):
                _require_polynomial(factor.expr, "a squared term")
                value *= sp.S(factor.expr) ** 2
                all_strict = False
                ctx.rules.add("squares")
            elif isinstance(factor, NormSq):
                value *= ctx.bilinear(factor.vector, factor.vector)
                all_strict = False
                ctx.rules.add("norm-nonneg")
            else:
                raise DerivationError(f"unknown certificate factor {factor!r}")
        strict |= all_strict and coeff > 0
        total += value
    for eq in cert.eq_terms:
        _require_polynomial(eq.multiplier, "an equality multiplier")
        total += sp.S(eq.multiplier) * ctx.fact(eq.name, ("=0",))
        ctx.rules.add("equality-combination")
    if link.rel in ("<", ">") and not strict:
        raise DerivationError("a strict step needs a positive term made of > 0 facts only")
    remainder = ctx.normal(scaled - total)
    if remainder != 0:
        raise DerivationError(f"certificate does not match: p*(b - a) - certificate = {remainder}")
    ctx.steps += 1


def _chain_fact(ctx: _Context, chain: Chain) -> tuple[Any, str]:
    sp = _sympy()
    if not chain.links:
        raise DerivationError(f"line {chain.name}: empty chain")
    rels = {link.rel for link in chain.links}
    if not rels <= set(_RELATIONS):
        raise DerivationError(f"line {chain.name}: unknown relation in {sorted(rels)}")
    if rels & {"<=", "<"} and rels & {">=", ">"}:
        raise DerivationError(f"line {chain.name}: chain mixes <= and >=")
    previous = sp.S(chain.start)
    for i, link in enumerate(chain.links, 1):
        try:
            _check_link(ctx, previous, link)
        except KernelError as exc:
            raise DerivationError(f"line {chain.name}, step {i} ({link.rel}): {exc}") from None
        previous = sp.S(link.expr)
    if len(chain.links) > 1:
        ctx.rules.add("transitivity")
    if rels == {"="}:
        rel = "="
    elif rels & {"<=", "<"}:
        rel = "<" if "<" in rels else "<="
    else:
        rel = ">" if ">" in rels else ">="
    return Fact(chain.start, rel, chain.links[-1].expr).normal()


def _substitute(obj: Any, sigma: dict) -> Any:
    sp = _sympy()
    if isinstance(obj, Fact):
        return Fact(sp.S(obj.lhs).xreplace(sigma), obj.rel, sp.S(obj.rhs).xreplace(sigma))
    if isinstance(obj, Rewrite):
        return Rewrite(sp.S(obj.target).xreplace(sigma), obj.power, sp.S(obj.rhs).xreplace(sigma))
    if isinstance(obj, VectorDef):
        return VectorDef(sp.S(obj.vector).xreplace(sigma), sp.S(obj.value).xreplace(sigma))
    return sp.S(obj).xreplace(sigma)


def _hyp_available(ctx: _Context, content: Any) -> bool:
    sp = _sympy()
    if isinstance(content, Fact):
        return ctx.available(*content.normal())
    if isinstance(content, Rewrite):
        return any(r.target == content.target and r.power == content.power
                   and ctx.same(r.rhs, content.rhs) for _, r in ctx.rewrites)
    if isinstance(content, VectorDef):
        if content.vector not in ctx.vecdefs:
            return False
        return sp.expand(ctx.vecdefs[content.vector][1] - content.value) == 0
    return False


def _mentions(content: Any, symbols: tuple) -> bool:
    sp = _sympy()
    if isinstance(content, Fact):
        parts = (content.lhs, content.rhs)
    elif isinstance(content, Rewrite):
        parts = (content.target, content.rhs)
    else:
        parts = (content.vector, content.value)
    return any(sp.S(x).has(s) for x in parts for s in symbols)


def _is_natural(ctx: _Context, e: Any) -> bool:
    sp = _sympy()
    e = sp.expand(sp.S(e))
    constant, rest = e.as_coeff_Add()
    if not (constant.is_Integer and constant >= 0):
        return False
    return rest == 0 or rest in ctx.naturals


def _use_lemma(ctx: _Context, use: LemmaUse) -> tuple[Any, str]:
    sp = _sympy()
    lemma = use.lemma
    if not isinstance(lemma, CheckedTheorem) or lemma.token is not _KERNEL_TOKEN:
        raise DerivationError(f"line {use.name}: lemma is not a checked theorem")
    thm = lemma.theorem
    sigma = dict(use.substitution)
    for key, value in sigma.items():
        if not isinstance(key, sp.Symbol):
            raise DerivationError(f"line {use.name}: can only substitute symbols, not {key}")
        if key.name in thm.vectors:
            ctx.vector_terms(value)  # must be a vector expression here
        else:
            _require_polynomial(value, f"line {use.name}: substituted value")
            ctx.check_scalar(sp.S(value))
    for v in thm.vectors:
        if v not in ctx.vectors and sp.Symbol(v) not in sigma:
            raise DerivationError(f"line {use.name}: lemma vector {v} is not a vector here")
    if isinstance(thm.proof, Induction):
        image = sp.S(thm.proof.variable).xreplace(sigma)
        if not _is_natural(ctx, image):
            raise DerivationError(f"line {use.name}: {image} is not a natural number here")
    for n in thm.naturals:
        if not _is_natural(ctx, sp.S(n).xreplace(sigma)):
            raise DerivationError(f"line {use.name}: {n} must map to a natural number")
    for hyp in thm.hyps:
        if not _hyp_available(ctx, _substitute(hyp.content, sigma)):
            raise DerivationError(f"line {use.name}: hypothesis {hyp.name} of {thm.name} "
                                  f"is not available after the substitution")
    if thm.family is not None:
        bound = sp.Dummy("i")
        inner = {**sigma, thm.family.index: bound}
        upper = sp.S(thm.family.upper).xreplace(sigma)
        if not any(sp.expand(fam.upper - upper) == 0
                   and _family_covers(ctx, fam, thm.family, inner, bound)
                   for fam in ctx.families):
            raise DerivationError(f"line {use.name}: the per-step hypotheses of {thm.name} "
                                  f"are not available for every step")
    if not 0 <= use.conclusion < len(thm.conclusions):
        raise DerivationError(f"line {use.name}: {thm.name} has no conclusion {use.conclusion}")
    ctx.rules.add("lemma")
    ctx.lemmas.update((thm.name, *lemma.lemmas))
    ctx.steps += 1
    expr, kind = _substitute(thm.conclusions[use.conclusion], sigma).normal()
    return expr, kind


def _family_covers(ctx: _Context, fam: Family, wanted: Family, inner: dict, bound: Any) -> bool:
    local = _Context(ctx.theorem, tuple(ctx.naturals), (), ())
    local.vectors = ctx.vectors
    for hyp in fam.hyps:
        local.add_hyp(Hyp(hyp.name, _substitute(hyp.content, {fam.index: bound})))
    return all(_hyp_available(local, _substitute(h.content, inner)) for h in wanted.hyps)


def _check_derivation(ctx: _Context, derivation: Derivation, goals: tuple[Fact, ...]) -> None:
    for line in derivation.lines:
        if line.name in ctx.facts:
            raise DerivationError(f"line name {line.name!r} used twice")
        if isinstance(line, Chain):
            ctx.facts[line.name] = _chain_fact(ctx, line)
        elif isinstance(line, LemmaUse):
            ctx.facts[line.name] = _use_lemma(ctx, line)
        else:
            raise DerivationError(f"unknown line {line!r}")
    for goal in goals:
        ctx.check_scalar(_sympy().S(goal.lhs))
        ctx.check_scalar(_sympy().S(goal.rhs))
        if not ctx.available(*goal.normal()):
            raise DerivationError(f"conclusion {goal.lhs} {goal.rel} {goal.rhs} is not derived")


def check_theorem(theorem: Theorem) -> CheckedTheorem:
    """Check every step of ``theorem``; return a :class:`CheckedTheorem` or raise
    :class:`DerivationError` naming the failing line and step.

    >>> import sympy
    >>> a, b = sympy.symbols("a b", real=True)
    >>> thm = Theorem("demo", "demo", (), (), (Hyp("ha", Fact(a, ">=", 0)),
    ...     Hyp("hb", Fact(b, ">=", 0))), (Fact((a + b)**2, ">=", a**2 + b**2),),
    ...     Derivation((Chain("c", (a + b)**2, (Link(">=", a**2 + b**2,
    ...         Certificate((Term(2, ("ha", "hb")),))),)),)))
    >>> check_theorem(thm).steps
    1
    """
    sp = _sympy()
    proof = theorem.proof
    if isinstance(proof, Derivation):
        families = (theorem.family,) if theorem.family else ()
        ctx = _Context(theorem, theorem.naturals, theorem.hyps, families)
        _check_derivation(ctx, proof, theorem.conclusions)
        contexts = [ctx]
    elif isinstance(proof, Induction):
        T, t = proof.variable, proof.index
        if T not in theorem.naturals:
            raise DerivationError(f"{theorem.name}: induction variable {T} is not a natural")
        fam = theorem.family
        if fam is not None and sp.S(fam.upper) != T:
            raise DerivationError(f"{theorem.name}: per-step hypotheses must run to {T}")
        for hyp in theorem.hyps:
            if _mentions(hyp.content, (T, t)):
                raise DerivationError(f"{theorem.name}: hypothesis {hyp.name} mentions the "
                                      f"induction variable {T} or index {t}")
        for hyp in fam.hyps if fam else ():
            if _mentions(hyp.content, (T,) if fam.index == t else (T, t)):
                raise DerivationError(f"{theorem.name}: per-step hypothesis {hyp.name} "
                                      f"mentions {T} or {t}")
        if any(_mentions(c, (t,)) for c in theorem.conclusions):
            raise DerivationError(f"{theorem.name}: the induction index {t} must be fresh")
        others = tuple(n for n in theorem.naturals if n != T)
        base = _Context(theorem, others, theorem.hyps, ())
        _check_derivation(base, proof.base, tuple(_substitute(c, {T: 0})
                                                  for c in theorem.conclusions))
        step_hyps = theorem.hyps
        if fam is not None:
            step_hyps += tuple(Hyp(h.name, _substitute(h.content, {fam.index: t}), h.note)
                               for h in fam.hyps)
        names = ["IH"] if len(theorem.conclusions) == 1 else \
            [f"IH{k}" for k in range(1, len(theorem.conclusions) + 1)]
        step_hyps += tuple(Hyp(n, _substitute(c, {T: t}))
                           for n, c in zip(names, theorem.conclusions))
        step = _Context(theorem, others + (t,), step_hyps, ())
        _check_derivation(step, proof.step, tuple(_substitute(c, {T: t + 1})
                                                  for c in theorem.conclusions))
        contexts = [base, step]
        step.rules.add("induction")
    else:
        raise DerivationError(f"{theorem.name}: unknown proof kind")
    rules = set().union(*(c.rules for c in contexts))
    return CheckedTheorem(
        theorem=theorem,
        rules=tuple(sorted(rules)),
        declared=tuple(sorted(set().union(*(c.declared for c in contexts)))),
        lemmas=tuple(sorted(set().union(*(c.lemmas for c in contexts)))),
        steps=sum(c.steps for c in contexts),
        token=_KERNEL_TOKEN,
    )


# --- certificates ---
#
# Exact checks of the certificates about a labelled data set.  The data are given in the exact
# form :class:`pla.Dataset` keeps them: integer ``rows`` over one common positive ``scale``
# (xₙ = rowsₙ / scale, bias coordinate included when the data have one) and ``labels`` ±1.
# Weights and multipliers are ints or Fractions (a float is refused).  Every check is integer
# arithmetic after clearing denominators; nothing here searches for anything.

__all__ += [
    "CertificateError", "MarginFacts", "check_separator", "check_max_margin", "check_gordan",
    "squared_radius",
]


class CertificateError(KernelError):
    """A certificate the kernel rejects; ``index`` is the 0-based data row at fault, if any.

    >>> str(CertificateError("row 2: y w.x = -1 <= 0", index=2))
    'row 2: y w.x = -1 <= 0'
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


@dataclass(frozen=True)
class MarginFacts:
    """What :func:`check_separator` established: ρ = min yₙ w·xₙ > 0, first attained at ``argmin``."""

    rho: Fraction
    argmin: int


def _exact_number(value: Any, what: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise CertificateError(f"{what} is {value!r} ({type(value).__name__}); "
                               "the kernel accepts only ints and Fractions")
    return Fraction(value)


def _over_common_denominator(values: Any, length: int, what: str) -> tuple[list[int], int]:
    """Exact numbers vᵢ as (integers Vᵢ, D > 0) with vᵢ = Vᵢ / D."""
    numbers = [_exact_number(v, f"{what}[{i}]") for i, v in enumerate(values)]
    if len(numbers) != length:
        raise CertificateError(f"{what} has {len(numbers)} entries, expected {length}")
    D = 1
    for v in numbers:
        D = D * v.denominator // _gcd(D, v.denominator)
    return [v.numerator * (D // v.denominator) for v in numbers], D


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


def _idot(u: Any, v: Any) -> int:
    return sum(a * b for a, b in zip(u, v))


def _check_data(rows: Any, scale: Any, labels: Any) -> int:
    if isinstance(scale, bool) or not isinstance(scale, int) or scale <= 0:
        raise CertificateError(f"scale must be a positive int, not {scale!r}")
    if len(rows) == 0 or len(rows) != len(labels):
        raise CertificateError(f"{len(rows)} rows and {len(labels)} labels")
    dim = len(rows[0])
    for n, (row, y) in enumerate(zip(rows, labels)):
        if y != 1 and y != -1 or isinstance(y, bool):
            raise CertificateError(f"label of row {n} is {y!r}, not +1 or -1", index=n)
        if len(row) != dim or any(isinstance(v, bool) or not isinstance(v, int) for v in row):
            raise CertificateError(f"row {n} is not {dim} ints", index=n)
    return dim


def squared_radius(rows: Any, scale: int) -> Fraction:
    """R² = maxₙ ‖xₙ‖² with xₙ = rowsₙ / scale.

    >>> squared_radius([[1, 2], [3, 0]], 2)
    Fraction(9, 4)
    """
    return Fraction(max(_idot(row, row) for row in rows), scale * scale)


def check_separator(rows: Any, scale: int, labels: Any, w: Any) -> MarginFacts:
    """Accept ``w`` when yₙ w·xₙ > 0 for every row; return ρ = minₙ yₙ w·xₙ and where it is attained.

    Rejects with :class:`CertificateError` naming the first row with yₙ w·xₙ ≤ 0.

    >>> check_separator([[1, 2], [1, -1]], 1, [1, -1], [0, 1])
    MarginFacts(rho=Fraction(1, 1), argmin=1)
    >>> check_separator([[1, 2], [1, -1]], 1, [1, -1], [1, 0])
    Traceback (most recent call last):
    verify.kernel.CertificateError: row 1: y w.x = -1 <= 0: w does not separate the data
    """
    dim = _check_data(rows, scale, labels)
    W, D = _over_common_denominator(w, dim, "w")
    best, argmin = None, -1
    for n, (row, y) in enumerate(zip(rows, labels)):
        s = y * _idot(W, row)
        if s <= 0:
            raise CertificateError(f"row {n}: y w.x = {Fraction(s, D * scale)} <= 0: w does not "
                                   "separate the data", index=n)
        if best is None or s < best:
            best, argmin = s, n
    return MarginFacts(Fraction(best, D * scale), argmin)  # type: ignore[arg-type]


def check_max_margin(rows: Any, scale: int, labels: Any, w: Any, alpha: Any) -> Fraction:
    """Accept ``w`` as the solution of min ½‖w‖² s.t. yₙ w·xₙ ≥ 1 by its KKT conditions.

    The multipliers ``alpha`` (one per row) must satisfy, exactly: αₙ ≥ 0 (dual feasibility),
    w = Σ αₙ yₙ xₙ (stationarity), yₙ w·xₙ ≥ 1 (primal feasibility) and
    αₙ (yₙ w·xₙ − 1) = 0 (complementary slackness).  The problem is convex, so these conditions
    prove that ``w`` is its unique optimum.  Returns ‖w‖².

    >>> check_max_margin([[1, 2], [1, -1]], 1, [1, -1], [Fraction(-1, 3), Fraction(2, 3)],
    ...                  [Fraction(1, 9), Fraction(4, 9)])
    Fraction(5, 9)
    >>> check_max_margin([[1, 2], [1, -1]], 1, [1, -1], [0, 1], [0, 1])
    Traceback (most recent call last):
    verify.kernel.CertificateError: stationarity: w != sum_n alpha_n y_n x_n in coordinate 0
    """
    dim = _check_data(rows, scale, labels)
    W, D = _over_common_denominator(w, dim, "w")
    A, E = _over_common_denominator(alpha, len(rows), "alpha")
    for n, a in enumerate(A):
        if a < 0:
            raise CertificateError(f"dual feasibility: alpha[{n}] = {Fraction(a, E)} < 0", index=n)
    # stationarity: W/D = Σ (Aₙ/E) yₙ rowₙ / scale  <=>  W·E·scale = D·Σ Aₙ yₙ rowₙ
    combination = [0] * dim
    for a, y, row in zip(A, labels, rows):
        if a:
            ay = a * y
            for i, v in enumerate(row):
                combination[i] += ay * v
    for i in range(dim):
        if W[i] * E * scale != D * combination[i]:
            raise CertificateError(f"stationarity: w != sum_n alpha_n y_n x_n in coordinate {i}")
    unit = D * scale  # yₙ w·xₙ = yₙ W·rowₙ / unit
    for n, (a, y, row) in enumerate(zip(A, labels, rows)):
        s = y * _idot(W, row)
        if s < unit:
            raise CertificateError(f"primal feasibility: row {n}: y w.x = {Fraction(s, unit)} < 1",
                                   index=n)
        if a and s != unit:
            raise CertificateError(f"complementary slackness: row {n}: alpha = {Fraction(a, E)} "
                                   f"> 0 but y w.x = {Fraction(s, unit)} != 1", index=n)
    return Fraction(_idot(W, W), D * D)


def check_gordan(rows: Any, scale: int, labels: Any, lam: Any) -> None:
    """Accept ``lam`` as a proof of non-separability: λ ≥ 0, λ ≠ 0 and Σ λₙ yₙ xₙ = 0.

    (Gordan: then Σ λₙ yₙ w·xₙ = 0 for every w, so no w has every yₙ w·xₙ > 0.)

    >>> check_gordan([[1, 0], [1, 0]], 1, [1, -1], [1, 1])
    >>> check_gordan([[1, 0], [1, 0]], 1, [1, -1], [1, 2])
    Traceback (most recent call last):
    verify.kernel.CertificateError: sum_n lambda_n y_n x_n != 0 in coordinate 0
    """
    dim = _check_data(rows, scale, labels)
    L, _ = _over_common_denominator(lam, len(rows), "lambda")
    for n, v in enumerate(L):
        if v < 0:
            raise CertificateError(f"lambda[{n}] < 0", index=n)
    if not any(L):
        raise CertificateError("lambda = 0 proves nothing")
    total = [0] * dim
    for v, y, row in zip(L, labels, rows):
        if v:
            vy = v * y
            for i, x in enumerate(row):
                total[i] += vy * x
    for i in range(dim):
        if total[i]:
            raise CertificateError(f"sum_n lambda_n y_n x_n != 0 in coordinate {i}")


# --- certificates: mistake counts (added for `pla pocket`; small, self-contained) ---------------
__all__ += ["ZERO_RULES", "count_mistakes", "check_mistake_count"]

#: sign(0) conventions: a zero score y·w·x = 0 is a mistake ("mistake"), a mistake only for y = −1
#: ("positive": sign(0) = +1), only for y = +1 ("negative": sign(0) = −1), never ("correct").
ZERO_RULES = ("mistake", "positive", "negative", "correct")


def count_mistakes(rows: Any, scale: int, labels: Any, w: Any, zero: str = "mistake") -> int:
    """The exact number of rows that ``w`` gets wrong (a nonzero score is wrong when y·w·x < 0).

    >>> count_mistakes([[1, 1], [1, 2], [1, 3]], 1, [1, -1, 1], [-2, 1])
    2
    >>> count_mistakes([[1, 1], [1, 2], [1, 3]], 1, [1, -1, 1], [-2, 1], zero="correct")
    1
    """
    dim = _check_data(rows, scale, labels)
    if zero not in ZERO_RULES:
        raise CertificateError(f"unknown zero convention {zero!r}")
    W, _ = _over_common_denominator(w, dim, "w")
    mistakes = 0
    for row, y in zip(rows, labels):
        s = _idot(W, row)  # same sign as w·x (W = D·w, row = scale·x, D, scale > 0)
        if s != 0:
            mistakes += (s > 0) != (y > 0)
        else:
            mistakes += zero == "mistake" or (zero == "positive" and y < 0) or \
                (zero == "negative" and y > 0)
    return mistakes


def check_mistake_count(rows: Any, scale: int, labels: Any, w: Any, claimed: int,
                        zero: str = "mistake") -> None:
    """Accept the claim that ``w`` makes exactly ``claimed`` mistakes on the data.

    >>> check_mistake_count([[1, 1], [1, 2]], 1, [1, -1], [0, 1], 1)
    >>> check_mistake_count([[1, 1], [1, 2]], 1, [1, -1], [0, 1], 0)
    Traceback (most recent call last):
    verify.kernel.CertificateError: w makes 1 mistakes, not the claimed 0
    """
    actual = count_mistakes(rows, scale, labels, w, zero)
    if actual != claimed:
        raise CertificateError(f"w makes {actual} mistakes, not the claimed {claimed}")
