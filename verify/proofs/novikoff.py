"""Novikoff's convergence proof of PLA as kernel-checked derivations (theorems 1-6).

Each ``*_theorem`` function builds a :class:`verify.kernel.Theorem` from the checked lemmas it
uses (``lemmas`` maps a theorem name to its :class:`~verify.kernel.CheckedTheorem`).  The builders
take the learning rate ``eta`` (``None`` means the plain update w + y x) and whether w_0 = 0, so
the variants of :mod:`verify.proofs.variants` reuse them.

>>> from verify.kernel import check_theorem
>>> check_theorem(inner_step_theorem({})).steps
2
"""

from __future__ import annotations

from typing import Any

from verify.kernel import (
    Certificate, Chain, Derivation, EqTerm, Fact, Family, Hyp, Induction, LemmaUse, Link, NormSq,
    Rewrite, Square, Term, Theorem, VectorDef,
)
from verify.proofs.symbols import proof_symbols

__all__ = [
    "step_hyps", "inner_step_theorem", "inner_bound_theorem", "norm_step_theorem",
    "norm_bound_theorem", "cauchy_schwarz_theorem", "novikoff_theorem",
]

VECTORS = ("w_f", "w", "x")


def by(*terms: Term, eq: tuple = (), div: tuple = ()) -> Certificate:
    """Shorthand for a :class:`Certificate`; ``eq`` holds ``(multiplier, name)`` pairs."""
    return Certificate(tuple(terms), tuple(EqTerm(m, n) for m, n in eq), tuple(div))


def step_hyps(eta: Any = None) -> dict[str, Hyp]:
    """The hypotheses about update t: the update rule, labels, margin, mistake, radius."""
    s = proof_symbols()
    f, w, x, y, t = s.f, s.w, s.x, s.y, s.t
    move = y[t] * x[t] if eta is None else eta * y[t] * x[t]
    rule = "w_{t+1} = w_t + y_t x_t" if eta is None else "w_{t+1} = w_t + eta y_t x_t"
    return {
        "update": Hyp("update", VectorDef(w[t + 1], w[t] + move), f"the PLA update {rule}"),
        "label": Hyp("label", Rewrite(y[t], 2, 1), "labels are +1 or -1, so y_t^2 = 1"),
        "margin": Hyp("margin", Fact(s.rho, "<=", y[t] * s.dot(f, x[t])),
                      "w_f separates the data with margin rho"),
        "mistake": Hyp("mistake", Fact(y[t] * s.dot(w[t], x[t]), "<=", 0),
                       "update t corrects a mistake"),
        "radius": Hyp("radius", Fact(s.dot(x[t], x[t]), "<=", s.R ** 2),
                      "R bounds the length of every example"),
    }


def _eta_parts(eta: Any) -> tuple[Any, tuple[str, ...], tuple[Hyp, ...]]:
    if eta is None:
        return 1, (), ()
    return eta, ("eta>0",), (Hyp("eta>0", Fact(eta, ">", 0), "the learning rate is positive"),)


def _title(title: str, eta: Any, w0_zero: bool = True) -> str:
    return title + ("" if eta is None else ", with a learning rate") + \
        ("" if w0_zero else ", from any w_0")


def _suffix(eta: Any, w0_zero: bool = True) -> str:
    return ("" if eta is None else "-eta") + ("" if w0_zero else "-w0")


def inner_step_theorem(lemmas: dict, eta: Any = None) -> Theorem:
    """Theorem 1: each update raises w_f . w by at least rho (eta*rho with a learning rate)."""
    s = proof_symbols()
    f, w, x, y, t, rho = s.f, s.w, s.x, s.y, s.t, s.rho
    e, eta_f, eta_h = _eta_parts(eta)
    h = step_hyps(eta)
    chain = Chain("grow", s.dot(f, w[t + 1]), (
        Link("=", s.dot(f, w[t]) + e * y[t] * s.dot(f, x[t]),
             note="the update rule and bilinearity"),
        Link(">=", s.dot(f, w[t]) + e * rho, by(Term(1, eta_f + ("margin",))),
             note="the margin of w_f" + ("" if eta is None else ", times eta > 0")),
    ))
    return Theorem(
        name="inner-product-step" + _suffix(eta), title=_title("The inner product grows", eta),
        vectors=VECTORS, naturals=(), hyps=(h["update"], h["margin"]) + eta_h,
        conclusions=(Fact(s.dot(f, w[t + 1]), ">=", s.dot(f, w[t]) + e * rho),),
        proof=Derivation((chain,)),
        summary="Every update moves w towards the separator w_f by at least the margin.")


def inner_bound_theorem(lemmas: dict, eta: Any = None, w0_zero: bool = True) -> Theorem:
    """Theorem 2: by induction from w_0 = 0, w_f . w_T >= T rho."""
    s = proof_symbols()
    f, w, t, T, rho = s.f, s.w, s.t, s.T, s.rho
    e, _, eta_h = _eta_parts(eta)
    h = step_hyps(eta)
    start = 0 if w0_zero else s.dot(f, w[0])
    ground = ((Hyp("w0", VectorDef(w[0], 0), "PLA starts from w_0 = 0"),) if w0_zero else ()) \
        + eta_h
    grow = lemmas["inner-product-step" + _suffix(eta)]
    step = Derivation((
        LemmaUse("grow", grow, note="theorem 1 at update t"),
        Chain("next", s.dot(f, w[t + 1]), (
            Link(">=", s.dot(f, w[t]) + e * rho, by(Term(1, ("grow",))), note="theorem 1"),
            Link(">=", start + t * e * rho + e * rho, by(Term(1, ("IH",))),
                 note="induction hypothesis"),
            Link("=", start + (t + 1) * e * rho, note="algebra"),
        )),
    ))
    base = Derivation((Chain("base", s.dot(f, w[0]), (
        Link("=", start, note="w_0 = 0" if w0_zero else "nothing to prove"),)),))
    return Theorem(
        name="inner-product-bound" + _suffix(eta, w0_zero),
        title=_title("The inner product after T updates", eta, w0_zero),
        vectors=VECTORS, naturals=(T,), hyps=ground,
        family=Family(t, T, (h["update"], h["margin"])),
        conclusions=(Fact(s.dot(f, w[T]), ">=", start + T * e * rho),),
        proof=Induction(T, t, base, step),
        summary="Summing theorem 1 over the updates, by induction on T.")


def norm_step_theorem(lemmas: dict, eta: Any = None) -> Theorem:
    """Theorem 3: ||w_{t+1}||^2 <= ||w_t||^2 + R^2 (eta^2 R^2 with a learning rate)."""
    s = proof_symbols()
    w, x, y, t, R = s.w, s.x, s.y, s.t, s.R
    e, eta_f, eta_h = _eta_parts(eta)
    h = step_hyps(eta)
    nw, nw1 = s.dot(w[t], w[t]), s.dot(w[t + 1], w[t + 1])
    cross = 2 * e * y[t] * s.dot(w[t], x[t])
    radius_term = Term(1, ("radius",)) if eta is None else Term(1, (Square(eta), "radius"))
    chain = Chain("grow", nw1, (
        Link("=", nw + cross + e ** 2 * y[t] ** 2 * s.dot(x[t], x[t]),
             note="the update rule, bilinearity and symmetry"),
        Link("=", nw + cross + e ** 2 * s.dot(x[t], x[t]), note="y_t^2 = 1"),
        Link("<=", nw + e ** 2 * s.dot(x[t], x[t]), by(Term(2, eta_f + ("mistake",))),
             note="update t corrects a mistake"),
        Link("<=", nw + e ** 2 * R ** 2, by(radius_term), note="||x_t|| <= R"),
    ))
    return Theorem(
        name="norm-step" + _suffix(eta), title=_title("The norm grows slowly", eta),
        vectors=VECTORS, naturals=(),
        hyps=(h["update"], h["label"], h["mistake"], h["radius"]) + eta_h,
        conclusions=(Fact(nw1, "<=", nw + e ** 2 * R ** 2),),
        proof=Derivation((chain,)),
        summary="An update on a mistake adds at most R^2 to the squared length of w.")


def norm_bound_theorem(lemmas: dict, eta: Any = None, w0_zero: bool = True) -> Theorem:
    """Theorem 4: by induction from w_0 = 0, ||w_T||^2 <= T R^2."""
    s = proof_symbols()
    w, t, T, R = s.w, s.t, s.T, s.R
    e, _, eta_h = _eta_parts(eta)
    h = step_hyps(eta)
    start = 0 if w0_zero else s.dot(w[0], w[0])
    ground = ((Hyp("w0", VectorDef(w[0], 0), "PLA starts from w_0 = 0"),) if w0_zero else ()) \
        + eta_h
    grow = lemmas["norm-step" + _suffix(eta)]
    step = Derivation((
        LemmaUse("grow", grow, note="theorem 3 at update t"),
        Chain("next", s.dot(w[t + 1], w[t + 1]), (
            Link("<=", s.dot(w[t], w[t]) + e ** 2 * R ** 2, by(Term(1, ("grow",))),
                 note="theorem 3"),
            Link("<=", start + t * e ** 2 * R ** 2 + e ** 2 * R ** 2, by(Term(1, ("IH",))),
                 note="induction hypothesis"),
            Link("=", start + (t + 1) * e ** 2 * R ** 2, note="algebra"),
        )),
    ))
    base = Derivation((Chain("base", s.dot(w[0], w[0]), (
        Link("=", start, note="w_0 = 0" if w0_zero else "nothing to prove"),)),))
    return Theorem(
        name="norm-bound" + _suffix(eta, w0_zero), title=_title("The norm after T updates", eta, w0_zero),
        vectors=VECTORS, naturals=(T,), hyps=ground,
        family=Family(t, T, (h["update"], h["label"], h["mistake"], h["radius"])),
        conclusions=(Fact(s.dot(w[T], w[T]), "<=", start + T * e ** 2 * R ** 2),),
        proof=Induction(T, t, base, step),
        summary="Summing theorem 3 over the updates, by induction on T.")


def cauchy_schwarz_theorem(lemmas: dict) -> Theorem:
    """Theorem 5: (a.b)^2 <= ||a||^2 ||b||^2, derived from 0 <= || ||b||^2 a - (a.b) b ||^2."""
    s = proof_symbols()
    a, b = s.sp.Symbol("a"), s.sp.Symbol("b")
    ab, aa, bb = s.dot(a, b), s.dot(a, a), s.dot(b, b)
    chain = Chain("cs", ab ** 2, (
        Link("<=", aa * bb, by(Term(1, (NormSq(bb * a - ab * b),)), div=("b!=0",)),
             note="||b||^2 ((a.b)^2 - ||a||^2||b||^2) = -|| ||b||^2 a - (a.b) b ||^2 <= 0, "
                  "divided by ||b||^2 > 0"),
    ))
    return Theorem(
        name="cauchy-schwarz", title="Cauchy-Schwarz",
        vectors=("a", "b"), naturals=(),
        hyps=(Hyp("b!=0", Fact(bb, ">", 0), "b is not the zero vector"),),
        conclusions=(Fact(ab ** 2, "<=", aa * bb),),
        proof=Derivation((chain,)),
        summary="Derived from the nonnegativity of one squared norm; holds in every dimension.")


def run_hyps(eta: Any = None, w0_zero: bool = True) -> tuple[Family, tuple[Hyp, ...]]:
    """The per-update family and the shared ground hypotheses of a whole PLA run."""
    s = proof_symbols()
    T = s.T
    h = step_hyps(eta)
    family = Family(s.t, T, tuple(h[k] for k in ("update", "label", "margin", "mistake",
                                                  "radius")))
    ground = ((Hyp("w0", VectorDef(s.w[0], 0), "PLA starts from w_0 = 0"),) if w0_zero else ())
    ground += _eta_parts(eta)[2] + (
        Hyp("rho>0", Fact(s.rho, ">", 0), "the margin is positive"),
        Hyp("T>=1", Fact(T, ">=", 1), "at least one update was made"),
    )
    return family, ground


def novikoff_theorem(lemmas: dict) -> Theorem:
    """Theorem 6: T <= R^2 ||w_f||^2 / rho^2, (R/gamma)^2, and the cosine form."""
    s = proof_symbols()
    f, w, T, R, rho, gamma = s.f, s.w, s.T, s.R, s.rho, s.gamma
    nf, nw, sT = s.norm_f, s.norm_w, s.root_T
    D, W, F = s.dot(f, w[T]), s.dot(w[T], w[T]), s.dot(f, f)
    family, ground = run_hyps()
    hyps = ground + (
        Hyp("R>0", Fact(R, ">", 0), "the radius is positive"),
        Hyp("nf>0", Fact(nf, ">", 0), "||w_f|| > 0"),
        Hyp("nf^2", Rewrite(nf, 2, F), "||w_f|| is the length of w_f"),
        Hyp("nw>=0", Fact(nw, ">=", 0), "||w_T|| >= 0"),
        Hyp("nw^2", Rewrite(nw, 2, W), "||w_T|| is the length of w_T"),
        Hyp("sT>=0", Fact(sT, ">=", 0), "sqrt(T) >= 0"),
        Hyp("sT^2", Rewrite(sT, 2, T), "sqrt(T) squared is T"),
        Hyp("gamma", Fact(gamma * nf, "=", rho), "gamma = rho/||w_f||, the normalised margin"),
    )
    lines = (
        LemmaUse("inner", lemmas["inner-product-bound"], note="theorem 2"),
        LemmaUse("norm", lemmas["norm-bound"], note="theorem 4"),
        Chain("T>0", T, (Link(">", 0, by(Term(1, ("T>=1",)), Term(1))),)),
        Chain("F>0", F, (Link(">", 0, by(Term(1, ("nf>0", "nf>0")))),), note="w_f is not 0"),
        LemmaUse("cs", lemmas["cauchy-schwarz"], ((s.sp.Symbol("a"), w[T]),
                                                  (s.sp.Symbol("b"), f)),
                 note="theorem 5 with a = w_T, b = w_f"),
        Chain("squared", T ** 2 * rho ** 2, (
            Link("<=", D ** 2, by(Term(1, (Square(D - T * rho),)),
                                  Term(2, ("T>=0", "rho>0", "inner"))),
                 note="w_f . w_T >= T rho >= 0 (theorem 2)"),
            Link("<=", F * W, by(Term(1, ("cs",))), note="Cauchy-Schwarz"),
            Link("<=", F * T * R ** 2, by(Term(1, (NormSq(f), "norm"))), note="theorem 4"),
        )),
        Chain("cleared", T * rho ** 2, (
            Link("<=", R ** 2 * F, by(Term(1, ("squared",)), div=("T>0",)),
                 note="divide by T > 0"),)),
        Chain("bound", T, (
            Link("<=", R ** 2 * F / rho ** 2, by(Term(1, ("cleared",)), div=("rho>0", "rho>0")),
                 note="divide by rho^2 > 0"),)),
        Chain("gamma>0", gamma, (
            Link(">", 0, by(Term(1, ("rho>0",)), eq=((1, "gamma"),), div=("nf>0",)),
                 note="gamma ||w_f|| = rho > 0"),)),
        Chain("normalised", T, (
            Link("<=", R ** 2 * F / rho ** 2, by(Term(1, ("cleared",)), div=("rho>0", "rho>0")),
                 note="the bound"),
            Link("=", R ** 2 / gamma ** 2,
                 by(eq=((-R ** 2 * (gamma * nf + rho), "gamma"),),
                    div=("rho>0", "rho>0", "gamma>0", "gamma>0")),
                 note="rho = gamma ||w_f||"),
        )),
        Chain("D>0", D, (
            Link(">=", T * rho, by(Term(1, ("inner",))), note="theorem 2"),
            Link(">", 0, by(Term(1, ("T>0", "rho>0"))), note="T > 0 and rho > 0"),
        )),
        Chain("sum>0", nf * nw + D, (
            Link(">", 0, by(Term(1, ("nf>0", "nw>=0")), Term(1, ("D>0",)))),)),
        Chain("cs-root", nf * nw, (
            Link(">=", D, by(Term(1, ("cs",)), div=("sum>0",)),
                 note="(||w_f|| ||w_T|| - w_f.w_T)(||w_f|| ||w_T|| + w_f.w_T) >= 0 by "
                      "Cauchy-Schwarz; divide by the positive second factor"),)),
        Chain("nw>0", nw, (
            Link(">", 0, by(Term(1, ("cs-root",)), Term(1, ("D>0",)), div=("nf>0",)),
                 note="||w_f|| ||w_T|| >= w_f . w_T > 0"),)),
        Chain("cosine<=1", D / (nf * nw), (
            Link("<=", 1, by(Term(1, ("cs-root",)), div=("nf>0", "nw>0")),
                 note="Cauchy-Schwarz"),)),
        Chain("sT+1>0", sT + 1, (Link(">", 0, by(Term(1, ("sT>=0",)), Term(1))),)),
        Chain("sT>=1", sT, (
            Link(">=", 1, by(Term(1, ("T>=1",)), div=("sT+1>0",)),
                 note="(sqrt(T) - 1)(sqrt(T) + 1) = T - 1 >= 0"),)),
        Chain("sT>0", sT, (Link(">", 0, by(Term(1, ("sT>=1",)), Term(1))),)),
        Chain("sR+nw>0", sT * R + nw, (
            Link(">", 0, by(Term(1, ("sT>0", "R>0")), Term(1, ("nw>0",)))),)),
        Chain("norm-root", nw, (
            Link("<=", sT * R, by(Term(1, ("norm",)), div=("sR+nw>0",)),
                 note="(sqrt(T) R - ||w_T||)(sqrt(T) R + ||w_T||) = T R^2 - ||w_T||^2 >= 0"),)),
        Chain("cosine", sT * rho / (R * nf), (
            Link("<=", D / (nf * nw),
                 by(Term(1, ("R>0", "inner")), Term(1, ("rho>0", "sT>=0", "norm-root")),
                    div=("R>0", "nf>0", "nw>0")),
                 note="w_f . w_T >= T rho and ||w_T|| <= sqrt(T) R"),)),
    )
    return Theorem(
        name="novikoff", title="Novikoff's bound on the number of updates",
        vectors=VECTORS, naturals=(T,), hyps=hyps, family=family,
        conclusions=(
            Fact(T, "<=", R ** 2 * F / rho ** 2),
            Fact(T, "<=", R ** 2 / gamma ** 2),
            Fact(sT * rho / (R * nf), "<=", D / (nf * nw)),
            Fact(D / (nf * nw), "<=", 1),
        ),
        proof=Derivation(lines),
        summary="PLA on separable data makes at most R^2 ||w_f||^2 / rho^2 updates.")
