"""Trusted base: checks derivation steps, inductions and theorems (:func:`check_theorem`).

Imports only the kernel's own modules and sympy (lazily).

>>> import verify.kernel as kernel
>>> check_theorem is kernel.check_theorem
True
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from verify.kernel.errors import KernelError
from verify.kernel.exact import exact_fraction, is_exact_int
from verify.kernel.inputs import snapshot
from verify.kernel.terms import (
    _KERNEL_TOKEN, _RELATIONS, Chain, CheckedTheorem, Derivation, DerivationError, Fact, Family,
    Hyp, Induction, LemmaUse, Link, NormSq, Rewrite, Square, Theorem, VectorDef, _dot_class,
    _sympy,
)
from verify.kernel.registry import _issue, is_checked

__all__ = ["check_theorem"]


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
    number = exact_fraction(c)
    if number is not None:  # the one exact-number check (rebuilt of builtin ints)
        c = sp.Rational(number.numerator, number.denominator)
    elif isinstance(c, (int, Fraction)):
        raise DerivationError(f"{what}: coefficient {c!r} is not a rational number (an int or a "
                              f"Fraction of ints)")
    if not (isinstance(c, sp.Rational) and type(c).__module__ == "sympy.core.numbers"):
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
    if not is_checked(lemma):
        raise DerivationError(f"line {use.name}: lemma is not a checked theorem (not an object this "
                              f"kernel returned, or copied or edited since)")
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
    >>> from verify.kernel.terms import Certificate, Term
    >>> a, b = sympy.symbols("a b", real=True)
    >>> thm = Theorem("demo", "demo", (), (), (Hyp("ha", Fact(a, ">=", 0)),
    ...     Hyp("hb", Fact(b, ">=", 0))), (Fact((a + b)**2, ">=", a**2 + b**2),),
    ...     Derivation((Chain("c", (a + b)**2, (Link(">=", a**2 + b**2,
    ...         Certificate((Term(2, ("ha", "hb")),))),)),)))
    >>> check_theorem(thm).steps
    1
    """
    sp = _sympy()
    theorem = snapshot(theorem)  # checked copy: exact kernel types, every expression walked
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
    return _issue(CheckedTheorem(
        theorem=theorem,
        rules=tuple(sorted(rules)),
        declared=tuple(sorted(set().union(*(c.declared for c in contexts)))),
        lemmas=tuple(sorted(set().union(*(c.lemmas for c in contexts)))),
        steps=sum(c.steps for c in contexts),
        token=_KERNEL_TOKEN,
    ))


