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

__all__ = ["prove_sum"]


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
