"""Trusted base: checks derivation steps, inductions and theorems (:func:`check_theorem`).

Imports only the kernel's own modules and sympy (lazily).

>>> import verify.kernel as kernel
>>> check_theorem is kernel.check_theorem
True
"""

from __future__ import annotations

from typing import Any

from verify.kernel.context import _Context, _divides, _require_polynomial
from verify.kernel.errors import KernelError
from verify.kernel.exact import exact_fraction
from verify.kernel.inputs import _shown, snapshot
from verify.kernel.terms import (
    _KERNEL_TOKEN, _RELATIONS, Antisymmetry, CaseSplit, Chain, CheckedTheorem, Derivation,
    DerivationError, Fact, Family, Hyp, Induction, LemmaUse, Link, NormSq, Rewrite, Square,
    SquareCompare, Theorem, VectorDef, _sympy,
)
from verify.kernel.registry import _issue, is_checked

__all__ = ["check_theorem"]


def _rational(c: Any, what: str) -> Any:
    """A certificate coefficient as a sympy Rational.  The snapshot made every coefficient a
    Fraction of builtin ints (:meth:`verify.kernel.inputs._Copier.coefficient`, which also
    takes sympy's own rationals, by type identity); anything else is refused here too."""
    number = exact_fraction(c)
    if number is None:
        raise DerivationError(f"{what}: coefficient {_shown(c, repr)} is not a rational number")
    return _sympy().Rational(number.numerator, number.denominator)


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
        if not _divides(den, p):
            raise DerivationError(f"the denominator {den} is not covered by positive divisors")
        # divisors as written (together cancels x/x)
        ctx.require_defined(side, lambda: f"in {side}")
    numerator, den = sp.fraction(sp.together(b - a))
    scaled = sp.cancel(p / den) * numerator  # = p * (b - a)
    total = sp.S(0)
    strict = False
    if link.rel == "=" and cert.terms:
        raise DerivationError("an equality step takes no inequality terms")
    for term in cert.terms:
        coeff = _rational(term.coeff, "certificate")
        if coeff < 0:
            raise DerivationError(f"certificate coefficient {_shown(coeff)} is negative")
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
        raise DerivationError(f"certificate does not match: p*(b - a) - certificate = "
                              f"{_shown(remainder)}")     # (capped: any digit limit, any size)
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


def _case_split(ctx: _Context, line: CaseSplit) -> tuple[Any, str]:
    """Rule ``cases``: the conclusion, derived once with ``e >= 0`` and once with ``e < 0``."""
    sp = _sympy()
    e = sp.S(line.expr)
    _require_polynomial(e, f"line {line.name}: the split expression")
    ctx.check_scalar(e)
    goal = line.conclusion
    for case, derivation in ((Fact(e, ">=", 0), line.nonneg), (Fact(e, "<", 0), line.negative)):
        branch = ctx.branch()
        branch.facts[line.name] = case.normal()
        try:
            _check_derivation(branch, derivation, (goal,))
        except KernelError as exc:
            raise DerivationError(f"line {line.name}, case {e} {case.rel} 0: {exc}") from None
        ctx.steps = branch.steps
    ctx.rules.add("cases")
    return goal.normal()


def _square_compare(ctx: _Context, line: SquareCompare) -> tuple[Any, str]:
    """Rule ``compare-squares``: a >= 0, b >= 0, a**2 - b**2 >= 0 (> 0) give a >= b (a > b)."""
    sp = _sympy()
    if line.rel not in (">=", ">"):
        raise DerivationError(f"line {line.name}: squaring concludes >= or >, not {line.rel}")
    a, b = sp.S(line.larger), sp.S(line.smaller)
    needed = ((a, ">=0", f"{a} >= 0"), (b, ">=0", f"{b} >= 0"),
              (a ** 2 - b ** 2, ">=0" if line.rel == ">=" else ">0",
               f"({a})**2 {line.rel} ({b})**2"))
    for side in (a, b):
        _require_polynomial(side, f"line {line.name}: a squared side")
        ctx.require_defined(side, lambda: f"line {line.name}")
        ctx.check_scalar(side)
    for expr, kind, shown in needed:
        value = ctx.normal(expr)  # rule "ring": a numeral after the rewrites is evaluated exactly
        if not (ctx.available(value, kind) if value.is_Rational else ctx.available(expr, kind)):
            raise DerivationError(f"line {line.name}: squaring both sides needs {shown}, "
                                  f"which is not available")
    ctx.rules.add("compare-squares")
    ctx.steps += 1
    return Fact(a, line.rel, b).normal()


def _antisymmetry(ctx: _Context, line: Antisymmetry) -> tuple[Any, str]:
    """Rule ``antisymmetry``: lhs <= rhs and lhs >= rhs give lhs = rhs."""
    sp = _sympy()
    a, b = sp.S(line.lhs), sp.S(line.rhs)
    for side in (a, b):
        ctx.check_scalar(side)
        ctx.require_defined(side, lambda: f"line {line.name}")
    for expr, shown in ((b - a, f"{a} <= {b}"), (a - b, f"{a} >= {b}")):
        if not ctx.available(expr, ">=0"):
            raise DerivationError(f"line {line.name}: {a} = {b} needs {shown}, which is not "
                                  f"available")
    ctx.rules.add("antisymmetry")
    ctx.steps += 1
    return Fact(a, "=", b).normal()


def _check_derivation(ctx: _Context, derivation: Derivation, goals: tuple[Fact, ...]) -> None:
    for line in derivation.lines:
        if line.name in ctx.facts:
            raise DerivationError(f"line name {line.name!r} used twice")
        if isinstance(line, Chain):
            ctx.facts[line.name] = _chain_fact(ctx, line)
        elif isinstance(line, LemmaUse):
            ctx.facts[line.name] = _use_lemma(ctx, line)
        elif isinstance(line, CaseSplit):
            ctx.facts[line.name] = _case_split(ctx, line)
        elif isinstance(line, SquareCompare):
            ctx.facts[line.name] = _square_compare(ctx, line)
        elif isinstance(line, Antisymmetry):
            ctx.facts[line.name] = _antisymmetry(ctx, line)
        else:
            raise DerivationError(f"unknown line {line!r}")
    for goal in goals:
        for side in (goal.lhs, goal.rhs):
            ctx.check_scalar(_sympy().S(side))
            ctx.require_defined(side,
                                lambda: f"conclusion {goal.lhs} {goal.rel} {goal.rhs}")
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
        for c in theorem.conclusions:  # as written: substituting T may cancel a divisor
            for side in (c.lhs, c.rhs):
                base.require_defined(
                    side, lambda: f"{theorem.name}: conclusion {c.lhs} {c.rel} {c.rhs}")
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


