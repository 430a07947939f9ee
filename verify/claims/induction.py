"""Untrusted: proposes the base case and the step of a symbolic ``Sum`` claim.

Role: proposes.  The kernel builds the induction theorem itself from the claim's statement
(:func:`verify.kernel.sum_theorem`, with fresh names T, t, S that no name of the claim uses);
this module only fills in the two derivations, with certificates from
:mod:`verify.search.claim_certificates`, and :func:`verify.kernel.check_claim` checks them.

>>> from verify.claims.propose import _Prover
>>> from verify.claims.parser import parse_claim
>>> prover = _Prover(parse_claim("assume: n integer, n >= 0\\nSum(k, (k, 1, n)) == n*(n + 1)/2"))
>>> checked, text = prove_sum(prover)
>>> checked.shown
'for all integer n with n >= 0: Sum(k, (k, 1, n)) == (n + 1)*n/2'
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from verify.claims.propose import _Prover, _Unproved

__all__ = ["prove_sum", "prove_power"]


def prove_sum(prover: _Prover) -> tuple[Any, str]:
    """(the kernel's CheckedClaim, the proof's text) for the statement's Sum goal, or
    :class:`_Unproved` / a KernelError."""
    from verify.search.claim_certificates import find_certificate

    kernel, sp, tr = prover.kernel, prover.sp, prover.tr
    statement = prover.statement
    sg = statement.sum
    try:
        skeleton = kernel.sum_theorem(statement)
    except kernel.DerivationError as exc:  # the statement is no induction the kernel states
        raise _Unproved(str(exc)) from None
    T, t = skeleton.naturals[0], skeleton.proof.index
    hyps = {h.name: h.content for h in skeleton.hyps}
    family = {h.name: h.content for h in skeleton.family.hyps}
    S0 = hyps["empty"].lhs
    S = S0.base
    f = sp.expand(family["recurrence"].rhs - S[t])
    n, low, rel = sg.upper, sg.low, sg.rel
    if n in f.free_symbols:
        raise _Unproved(f"the summand cannot use {n}")

    def g_at(x: Any) -> Any:
        return sp.S(sg.closed).xreplace({n: x})

    def facts(contents: dict) -> tuple[list, dict]:
        ineqs, rewrites = [], {}
        for name, c in contents.items():
            if isinstance(c, kernel.Rewrite):
                rewrites[c.target] = (c.power, c.rhs)
            elif name not in ("empty", "recurrence"):
                expr, kind = c.normal()
                if kind != "=0":
                    ineqs.append((name, sp.expand(expr), kind == ">0"))
        return ineqs, rewrites

    outer, outer_rules = facts(hyps)
    inner, inner_rules = facts(family)
    sign = 1 if rel in ("<=", "=") else -1  # the fact we need is sign*(G - S) >= 0

    def certificate(remainder: Any, extra: list, rules: dict, eq: tuple) -> Any:
        remainder = sp.expand(remainder)
        if remainder == 0:
            return kernel.Certificate((), eq)
        if rel == "=":
            raise _Unproved(f"not an identity: the difference {tr.show(remainder)} is not 0")
        found = find_certificate(remainder, outer + extra, [], rules)
        if found is None:
            raise _Unproved(f"no certificate that {tr.show(remainder)} >= 0 (the increment of "
                            f"the closed form minus the summand, for every natural {t})")
        return kernel.Certificate(
            tuple(kernel.Term(c, tuple(fa if isinstance(fa, str) else kernel.Square(fa[1])
                                       for fa in factors)) for c, factors in found.terms),
            eq + tuple(kernel.EqTerm(m, name) for m, name in found.eq_terms))

    # base T = 0: sign*(G(low-1) - S[0]) = sign*G(low-1) - sign*(S[0] - 0)
    base_cert = certificate(sign * g_at(low - 1), [], outer_rules,
                            (kernel.EqTerm(-sign, "empty"),))
    base = kernel.Derivation((kernel.Chain("base", S0, (kernel.Link(rel, g_at(low - 1),
                                                                     base_cert),)),))
    # step: sign*(G(t+low) - S[t+1]) = IH + sign*(G(t+low) - G(t+low-1) - f) - sign*(recurrence)
    increment = sign * (g_at(t + low) - g_at(t + low - 1) - f)
    eq = (kernel.EqTerm(-sign, "recurrence"),)
    rules = {**outer_rules, **inner_rules}
    if rel == "=":
        step_cert = certificate(increment, [], rules, eq + (kernel.EqTerm(-1, "IH"),))
    else:
        found = certificate(increment, inner + [(f"{t}>=0", t, False)], rules, eq)
        step_cert = kernel.Certificate((kernel.Term(1, ("IH",)),) + found.terms,
                                       found.eq_terms)
    step = kernel.Derivation((kernel.Chain("step", S[t + 1], (kernel.Link(rel, g_at(t + low),
                                                                           step_cert),)),))
    main = replace(skeleton, proof=kernel.Induction(T, t, base, step))
    checked = kernel.check_claim(statement, kernel.ClaimProof((), main))
    m = tr.symbol(str(n))
    shown_inc = tr.show(sp.factor(sp.expand(g_at(m + 1) - g_at(m) - f.xreplace(
        {t: m + 1 - low}))))
    op = {"=": "==", "<=": "<=", ">=": ">="}[rel]
    need = {"=": "(identically)", "<=": ">= 0", ">=": "<= 0"}[rel]
    start = f"{n} = {low - 1}" if low != 1 else f"{n} = 0"
    bound = next((r.text for r in prover.claim.assumptions if _reads_lower_bound(r, str(n))),
                 f"{n} >= {low - 1}")
    return checked, (f"by induction on {n}, checked by the kernel: base {start}: empty sum 0 "
                     f"{op} {tr.show(g_at(low - 1))}; step: G({n} + 1) - G({n}) - f({n} + 1) = "
                     f"{shown_inc} {need} for {n} >= {low - 1}; {n} is {low - 1} + a natural "
                     f"number by '{bound}' and '{n} integer'")


def _reads_lower_bound(r: Any, n: str) -> bool:
    """True when the relation reads n >= c (or c <= n, n > c, c < n) for a constant c (the
    text shown; the kernel checks the bound itself)."""
    from verify.claims.parser import constant_value

    if r.op in (">=", ">") and r.lhs == ("sym", n):
        return constant_value(r.rhs) is not None
    return r.op in ("<=", "<") and r.rhs == ("sym", n) and constant_value(r.lhs) is not None


def prove_power(prover: _Prover) -> tuple[Any, str]:
    """(the kernel's CheckedClaim, the proof's text) for a claim with symbolic powers
    ``x**(n + c)``: fills in the base case and the step of the kernel's own induction theorem
    (:func:`verify.kernel.power_theorem`); :class:`_Unproved` / a KernelError otherwise."""
    kernel, sp, tr = prover.kernel, prover.sp, prover.tr
    try:
        skeleton = kernel.power_theorem(prover.statement)
    except kernel.DerivationError as exc:  # not a shape the kernel states
        raise _Unproved(str(exc)) from None
    T, t = skeleton.naturals[0], skeleton.proof.index
    starts = [h for h in skeleton.hyps if h.name.startswith("start") or h.name == "empty"]
    nexts = list(skeleton.family.hyps)
    outer, rules = [], {}
    for h in skeleton.hyps:
        if isinstance(h.content, kernel.Rewrite):
            rules[h.content.target] = (h.content.power, h.content.rhs)
        elif h not in starts:
            expr, kind = h.content.normal()
            if kind != "=0":
                outer.append((h.name, sp.expand(expr), kind == ">0"))

    def link(goal: Any, at: Any, defs: list, extra: list, eqs: list) -> Any:
        """The chain ``lhs rel rhs`` of ``goal`` at ``T = at``: each power's term replaced by
        its definition (an equality term), the rest searched."""
        lhs, rhs = (sp.S(x).xreplace({T: at}) for x in (goal.lhs, goal.rhs))
        big_minus_small = sp.expand(lhs - rhs if goal.rel in (">=", ">") else rhs - lhs)
        eq_terms, target = [], big_minus_small
        for h in defs:  # h: P[k] = value; normal form P[k] - value
            term, value = h.content.lhs, h.content.rhs
            replaced = sp.expand(target.xreplace({term: value}))
            multiplier = sp.cancel((target - replaced) / (term - value))
            if sp.fraction(multiplier)[1].free_symbols:
                raise _Unproved("a power occurs in a denominator")
            eq_terms.append(kernel.EqTerm(sp.expand(multiplier), h.name))
            target = replaced
        placeholders = {e: sp.Symbol(f"_seq{i}", real=True)
                        for i, e in enumerate(sorted(target.atoms(sp.Indexed), key=str))}
        back = {v: k for k, v in placeholders.items()}
        flat = sp.expand(target.xreplace(placeholders))
        hyps = [(n, sp.expand(sp.S(e).xreplace(placeholders)), s) for n, e, s in outer + extra]
        equalities = [(n, sp.expand(sp.S(e).xreplace(placeholders))) for n, e in eqs]
        if flat == 0 and goal.rel in ("=", ">=", "<="):
            return kernel.Link(goal.rel, rhs, kernel.Certificate((), tuple(eq_terms)))
        if flat.is_Rational and flat > 0 and goal.rel != "=":  # a positive constant
            return kernel.Link(goal.rel, rhs, kernel.Certificate((kernel.Term(flat, ()),),
                                                                 tuple(eq_terms)))
        from verify.search.claim_certificates import find_certificate

        found = find_certificate(flat, [] if goal.rel == "=" else hyps, equalities, rules,
                                 strict=goal.rel in ("<", ">"))
        if found is None:
            raise _Unproved(f"no certificate that {tr.show(flat.xreplace(back))} "
                            f"{'= 0' if goal.rel == '=' else '>= 0'} (at {T} = {at})")
        terms = tuple(kernel.Term(c, tuple(f if isinstance(f, str) else
                                           kernel.Square(sp.S(f[1]).xreplace(back))
                                           for f in factors)) for c, factors in found.terms)
        eq_terms += [kernel.EqTerm(sp.S(m).xreplace(back), name) for m, name in found.eq_terms]
        return kernel.Link(goal.rel, rhs, kernel.Certificate(terms, tuple(eq_terms)))

    def proof(conclusions: tuple) -> Any:
        """The induction proving ``conclusions`` (the goals, then any invariants)."""
        names = ["IH"] if len(conclusions) == 1 else \
            [f"IH{k}" for k in range(1, len(conclusions) + 1)]
        return _induction(kernel, sp, T, t, names, conclusions, starts, nexts, link)

    try:
        main = replace(skeleton, proof=proof(skeleton.conclusions))
    except _Unproved as first:
        # a stronger hypothesis: each power sequence P[T] >= 0 too (a**n <= b**n needs a**n >= 0
        # in the step); the kernel proves these invariants with the goals and drops them
        invariants = tuple(kernel.Fact(h.content.lhs.base[T], ">=", 0) for h in starts
                           if h.name.startswith("start")) + _closed_form(skeleton, kernel, sp)
        conclusions = skeleton.conclusions + invariants
        try:
            main = replace(skeleton, conclusions=conclusions, proof=proof(conclusions))
        except _Unproved:
            raise first from None
    checked = kernel.check_claim(prover.statement, kernel.ClaimProof((), main))
    return checked, _power_proof_text(prover, skeleton, main, nexts)


def _power_proof_text(prover: _Prover, skeleton: Any, main: Any, nexts: list) -> str:
    """How the induction of a claim with symbolic powers goes, in the reader's names: ``n``
    (the sum's upper bound for a sum), each power ``base**n``, the sum ``S(n)``."""
    kernel, sp, tr, statement = prover.kernel, prover.sp, prover.tr, prover.statement
    T, t = skeleton.naturals[0], skeleton.proof.index
    sg = statement.sum
    n = sg.upper if sg is not None else statement.powers[0].variable
    low = sg.low - 1 if sg is not None else kernel.power_lower_bound(statement.assumptions, n)
    bases = {h.content.lhs.base: sp.cancel(h.content.rhs / h.content.lhs.base[t]) for h in nexts
             if h.name.startswith("next")}
    exponent = tr.show(sp.S(n) - low)
    exponent = exponent if sp.S(low) == 0 else f"({exponent})"
    reader = {B[T]: sp.Symbol(f"({tr.show(b)})**{exponent}") for B, b in bases.items()}
    if sg is not None:
        reader[_sum_sequence(skeleton)[T]] = sp.Symbol(f"S({n})")
    extra = main.conclusions[len(skeleton.conclusions):]
    along = [f"{tr.show(sp.S(f.lhs).xreplace(reader))} {'=' if f.rel == '=' else f.rel} "
             f"{tr.show(sp.S(f.rhs).xreplace(reader).xreplace({T: sp.S(n) - low}))}"
             for f in extra]
    stronger = f"; proved along with it: {', '.join(along)}" if along else ""
    what = f"S({n}) the sum, empty at {n} = {low}" if sg is not None else \
        ", ".join(p.shown for p in statement.powers)
    return (f"by induction on {n} from {n} = {low}, checked by the kernel: {what}, each power "
            f"at {n} + 1 its base times its value at {n} (the induction hypothesis and "
            f"{n} >= {low} give the step{stronger})")


def _sum_sequence(skeleton: Any) -> Any:
    """The sequence S of a sum's induction theorem (its hypothesis ``empty``: S[0] = 0)."""
    return next(h.content.lhs.base for h in skeleton.hyps if h.name == "empty")


def _closed_form(skeleton: Any, kernel: Any, sp: Any) -> tuple:
    """For a sum whose summand is ``d0 + sum d_i*B_i[t]`` (``B_i[t] = base_i**t``): the closed
    form ``D*S[T] = D*(d0*T + sum c_i*(B_i[T] - 1))`` with ``c_i = d_i/(base_i - 1)`` and D
    the common denominator, as an invariant (the geometric sum's ``(1 - r)*S[T] = 1 - r**T``);
    () for anything else.  Only proposed: the kernel proves it with the claim, or refuses."""
    family = {h.name: h.content for h in skeleton.family.hyps} if skeleton.family else {}
    if "recurrence" not in family:
        return ()
    T, t = skeleton.naturals[0], skeleton.proof.index
    S = family["recurrence"].lhs.base
    f = sp.expand(family["recurrence"].rhs - S[t])
    sequences = [(c.lhs.base, sp.cancel(c.rhs / c.lhs.base[t])) for name, c in family.items()
                 if name.startswith("next")]
    terms = [B[t] for B, _ in sequences]
    try:
        poly = sp.Poly(f, *terms)
    except sp.PolynomialError:
        return ()
    if poly.total_degree() > 1 or t in f.free_symbols - set().union(*(x.free_symbols for x in terms)):
        return ()
    d0 = poly.coeff_monomial(1)
    closed = d0 * T
    for (B, base), term in zip(sequences, terms):
        d = poly.coeff_monomial(term)
        if d == 0:
            continue
        if sp.expand(base - 1) == 0:
            return ()
        closed += d / (base - 1) * (B[T] - 1)
    if t in sp.S(d0).free_symbols:
        return ()
    den = sp.fraction(sp.together(closed))[1]
    return (kernel.Fact(sp.expand(den * S[T]), "=", sp.expand(sp.cancel(den * closed))),)


def _induction(kernel: Any, sp: Any, T: Any, t: Any, names: list, conclusions: tuple,
               starts: list, nexts: list, link: Any) -> Any:
    """The kernel Induction of ``conclusions``: each at T = 0 from the start values, each at
    T = t + 1 from all of them at t (the induction hypotheses) and the recurrences."""
    base_lines, step_lines = [], []
    ihs = []
    for name, goal in zip(names, conclusions):
        expr, kind = kernel.Fact(sp.S(goal.lhs).xreplace({T: t}), goal.rel,
                                 sp.S(goal.rhs).xreplace({T: t})).normal()
        if kind == "=0":
            ihs.append((name, expr))
        else:
            ihs.append((name, expr, kind == ">0"))
    ineq_ihs = [h for h in ihs if len(h) == 3]
    eq_ihs = [h for h in ihs if len(h) == 2]
    for k, goal in enumerate(conclusions, 1):
        base_lines.append(kernel.Chain(f"base{k}", sp.S(goal.lhs).xreplace({T: 0}),
                                       (link(goal, 0, starts, [], []),)))
        at = {T: t + 1}
        nxt = [kernel.Hyp(h.name, h.content) for h in nexts]
        step_lines.append(kernel.Chain(f"step{k}", sp.S(goal.lhs).xreplace(at),
                                       (link(goal, t + 1, nxt, ineq_ihs + [(f"{t}>=0", t, False)],
                                             eq_ihs),)))
    return kernel.Induction(T, t, kernel.Derivation(tuple(base_lines)),
                            kernel.Derivation(tuple(step_lines)))
