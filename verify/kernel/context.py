"""Trusted base: the context of one derivation: its facts, rewriting rules and vector
definitions, the normal form of an expression, and whether a fact is available.

Imports only the kernel's own modules and sympy (lazily).

>>> import sympy
>>> from verify.kernel.terms import Theorem, Derivation
>>> x = sympy.Symbol("x", real=True)
>>> ctx = _Context(Theorem("t", "t", (), (), (Hyp("h", Fact(x, ">=", 1)),), (), Derivation(())),
...                (), (Hyp("h", Fact(x, ">=", 1)),), ())
>>> ctx.available(x - 1, ">=0"), ctx.available(x, ">=0")
(True, False)
"""

from __future__ import annotations

import copy
from typing import Any, Callable

from verify.kernel.exact import is_exact_int
from verify.kernel.terms import (
    DerivationError, Fact, Family, Hyp, Rewrite, Theorem, VectorDef, _dot_class, _sympy,
)

__all__ = ["_Context", "_require_polynomial"]


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
            if not (is_exact_int(content.power) and content.power >= 1):
                raise DerivationError(f"rule {hyp.name}: power must be a positive int")
            if not isinstance(content.target, (_sympy().Symbol, _sympy().Indexed, _dot_class())):
                raise DerivationError(f"rule {hyp.name}: the target {content.target} must be a "
                                      f"symbol, an indexed symbol or a Dot atom")
            self.rewrites.append((hyp.name, content))
        elif isinstance(content, VectorDef):
            if not self.is_vector(content.vector):
                raise DerivationError(f"rule {hyp.name}: {content.vector} is not a vector atom")
            self.vecdefs[content.vector] = (hyp.name, content.value)
        else:
            raise DerivationError(f"hypothesis {hyp.name}: unknown kind")

    def branch(self) -> "_Context":
        """A copy for one case of a split: its own facts; rules, lemmas and steps carry on."""
        other = copy.copy(self)
        other.facts = dict(self.facts)
        return other

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
    def require_defined(self, e: Any, what: Callable[[], str]) -> None:
        """Every divisor written in ``e`` is known nonzero: each irreducible factor of its
        numerator divides a ``> 0`` fact (its own denominators are written divisors too).
        ``together`` reads ``x/x`` as 1; as written it is undefined at x = 0.  ``what()`` names
        ``e`` in a refusal (called only then: printing costs, and may fail on a long integer)."""
        divisors = _written_divisors(e)
        if not divisors:                 # (most sides: nothing to look up)
            return
        sp = _sympy()
        positive = [expr for expr, kind in self.facts.values() if kind == ">0"]
        for base in divisors:
            numerator, _ = sp.fraction(sp.cancel(base))  # (expand leaves x - x unevaluated)
            if numerator == 0:
                raise DerivationError(f"{what()}: it divides by {base}, which is 0")
            for factor, _ in sp.factor_list(numerator)[1]:
                if not any(_divides(factor, p) for p in positive):  # (never a number)
                    raise DerivationError(f"{what()}: the written divisor {base} is not covered "
                                          f"by positive facts (none is a multiple of {factor})")

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


def _written_divisors(e: Any) -> list[Any]:
    """The base of every power ``base**(-k)`` (k > 0) *as written* in ``e``: in sums, products,
    powers, Dot atoms and indices, before ``together`` cancels ``x * x**(-1)``."""
    sp = _sympy()
    found, stack = [], [sp.S(e)]
    while stack:
        node = stack.pop()
        if isinstance(node, sp.Pow) and node.exp.p < 0:  # (walked: an integer, p a builtin
            found.append(node.base)                      # int, a forged -1 too)
        stack.extend(node.args)
    return found


def _divides(divisor: Any, p: Any) -> bool:
    """``p / divisor`` has no variable left in its denominator (``divisor`` is not 0)."""
    sp = _sympy()
    _, rest = sp.fraction(sp.cancel(p / divisor))
    return not rest.free_symbols
