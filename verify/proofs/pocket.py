"""The Pocket algorithm never gets worse (theorem 8).

Mistake counts are integers: ``p[t]`` is the number of training mistakes of the pocket weights
after t steps, ``m[t]`` that of PLA's current weights w_t.  The pocket rule: after update t the
pocket takes w_{t+1} (``s[t] = 1``) exactly when w_{t+1} makes fewer mistakes, else it keeps its
weights (``s[t] = 0``).  Since counts are integers, "fewer" is ``m[t+1] <= p[t] - 1``.

>>> from verify.kernel import check_theorem
>>> check_theorem(pocket_step_theorem({})).steps
4
"""

from __future__ import annotations

from verify.kernel import Chain, Derivation, Fact, Family, Hyp, Induction, LemmaUse, Link, \
    Rewrite, Square, Term, Theorem
from verify.proofs.novikoff import by
from verify.proofs.symbols import proof_symbols

__all__ = ["pocket_hyps", "pocket_step_theorem", "pocket_bound_theorem"]


def pocket_hyps() -> tuple[Hyp, ...]:
    """The pocket rule at step t."""
    s = proof_symbols()
    p, m, sel, t = s.pocket, s.mistakes, s.s, s.t
    return (
        Hyp("select", Rewrite(p[t + 1], 1, sel[t] * m[t + 1] + (1 - sel[t]) * p[t]),
            "the new pocket is w_{t+1} if s_t = 1, else the old pocket"),
        Hyp("binary", Rewrite(sel[t], 2, sel[t]), "s_t is 0 or 1"),
        Hyp("swap", Fact(sel[t] * (p[t] - m[t + 1] - 1), ">=", 0),
            "s_t = 1 only if w_{t+1} makes fewer mistakes (counts are integers)"),
        Hyp("keep", Fact((1 - sel[t]) * (m[t + 1] - p[t]), ">=", 0),
            "s_t = 0 only if w_{t+1} makes no fewer mistakes"),
    )


def pocket_step_theorem(lemmas: dict) -> Theorem:
    """One step: the pocket's mistake count does not increase and is at most w_{t+1}'s."""
    s = proof_symbols()
    p, m, sel, t = s.pocket, s.mistakes, s.s, s.t
    mixed = sel[t] * m[t + 1] + (1 - sel[t]) * p[t]
    lines = (
        Chain("no-worse", p[t + 1], (
            Link("=", mixed, note="the pocket rule"),
            Link("<=", p[t], by(Term(1, ("swap",)), Term(1, (Square(sel[t]),))),
                 note="s_t (p_t - m_{t+1}) = s_t (p_t - m_{t+1} - 1) + s_t^2 >= 0"),
        )),
        Chain("as-good", p[t + 1], (
            Link("=", mixed, note="the pocket rule"),
            Link("<=", m[t + 1], by(Term(1, ("keep",))),
                 note="m_{t+1} - p_{t+1} = (1 - s_t)(m_{t+1} - p_t) >= 0"),
        )),
    )
    return Theorem(
        name="pocket-step", title="One Pocket step never gets worse",
        vectors=(), naturals=(), hyps=pocket_hyps(),
        conclusions=(Fact(p[t + 1], "<=", p[t]), Fact(p[t + 1], "<=", m[t + 1])),
        proof=Derivation(lines),
        summary="The pocket's mistake count never increases, and the pocket is never worse "
                "than the current PLA weights.")


def pocket_bound_theorem(lemmas: dict) -> Theorem:
    """By induction: after T steps the pocket makes at most as many mistakes as at the start."""
    s = proof_symbols()
    p, t, T = s.pocket, s.t, s.T
    step = Derivation((
        LemmaUse("grow", lemmas["pocket-step"], note="one Pocket step"),
        Chain("next", p[t + 1], (
            Link("<=", p[t], by(Term(1, ("grow",))), note="one Pocket step"),
            Link("<=", p[0], by(Term(1, ("IH",))), note="induction hypothesis"),
        )),
    ))
    base = Derivation((Chain("base", p[0], (Link("=", p[0], note="nothing to prove"),)),))
    return Theorem(
        name="pocket-bound", title="The pocket's mistake count never increases",
        vectors=(), naturals=(T,), hyps=(), family=Family(t, T, pocket_hyps()),
        conclusions=(Fact(p[T], "<=", p[0]),), proof=Induction(T, t, base, step),
        summary="By induction on the number of steps.")
