"""Variants of the convergence proof (theorem 7): a learning rate, a non-zero start, and the
normalised margin against the unnormalised one.

>>> from verify.kernel import check_theorem
>>> check_theorem(margins_theorem({})).steps
4
"""

from __future__ import annotations

from verify.kernel import Fact, Family, Hyp, LemmaUse, Link, NormSq, Rewrite, Square, Term, \
    Theorem, VectorDef, Chain, Derivation, Induction
from verify.proofs.novikoff import VECTORS, by, run_hyps
from verify.proofs.symbols import proof_symbols

__all__ = ["eta_bound_theorem", "eta_scaling_theorem", "w0_bound_theorem", "margins_theorem"]


def eta_bound_theorem(lemmas: dict) -> Theorem:
    """With a learning rate eta > 0 the bound is the same: T <= R^2 ||w_f||^2 / rho^2."""
    s = proof_symbols()
    f, w, T, R, rho, eta = s.f, s.w, s.T, s.R, s.rho, s.eta
    D, W, F = s.dot(f, w[T]), s.dot(w[T], w[T]), s.dot(f, f)
    family, ground = run_hyps(eta)
    hyps = ground + (Hyp("F>0", Fact(F, ">", 0), "w_f is not the zero vector"),)
    lines = (
        LemmaUse("inner", lemmas["inner-product-bound-eta"], note="theorem 2 with eta"),
        LemmaUse("norm", lemmas["norm-bound-eta"], note="theorem 4 with eta"),
        Chain("T>0", T, (Link(">", 0, by(Term(1, ("T>=1",)), Term(1))),)),
        LemmaUse("cs", lemmas["cauchy-schwarz"], ((s.sp.Symbol("a"), w[T]),
                                                  (s.sp.Symbol("b"), f)), note="theorem 5"),
        Chain("squared", T ** 2 * eta ** 2 * rho ** 2, (
            Link("<=", D ** 2, by(Term(1, (Square(D - T * eta * rho),)),
                                  Term(2, ("T>=0", "eta>0", "rho>0", "inner"))),
                 note="w_f . w_T >= T eta rho >= 0"),
            Link("<=", F * W, by(Term(1, ("cs",))), note="Cauchy-Schwarz"),
            Link("<=", F * T * eta ** 2 * R ** 2, by(Term(1, (NormSq(f), "norm"))),
                 note="theorem 4 with eta"),
        )),
        Chain("cleared", T * rho ** 2, (
            Link("<=", R ** 2 * F, by(Term(1, ("squared",)), div=("T>0", "eta>0", "eta>0")),
                 note="divide by T eta^2 > 0: eta cancels"),)),
        Chain("bound", T, (
            Link("<=", R ** 2 * F / rho ** 2, by(Term(1, ("cleared",)), div=("rho>0", "rho>0")),
                 note="divide by rho^2 > 0"),)),
    )
    return Theorem(
        name="eta-bound", title="A learning rate does not change the bound",
        vectors=VECTORS, naturals=(T,), hyps=hyps, family=family,
        conclusions=(Fact(T, "<=", R ** 2 * F / rho ** 2),), proof=Derivation(lines),
        summary="Both sides of the argument scale by eta, which cancels.")


def eta_scaling_theorem(lemmas: dict) -> Theorem:
    """From w_0 = 0 the run with rate eta is eta times the run with rate 1 (same mistakes)."""
    s = proof_symbols()
    sp = s.sp
    u, v, x, y, t, T, eta = sp.IndexedBase("u"), sp.IndexedBase("v"), s.x, s.y, s.t, s.T, s.eta
    z = sp.Symbol("z")
    family = Family(t, T, (
        Hyp("update-1", VectorDef(u[t + 1], u[t] + y[t] * x[t]), "the run with rate 1"),
        Hyp("update-eta", VectorDef(v[t + 1], v[t] + eta * y[t] * x[t]),
            "the run with rate eta, on the same examples"),
    ))
    hyps = (Hyp("u0", VectorDef(u[0], 0), "u_0 = 0"), Hyp("v0", VectorDef(v[0], 0), "v_0 = 0"))
    base = Derivation((Chain("base", s.dot(z, v[0]), (
        Link("=", eta * s.dot(z, u[0]), note="u_0 = v_0 = 0"),)),))
    step = Derivation((Chain("next", s.dot(z, v[t + 1]), (
        Link("=", s.dot(z, v[t]) + eta * y[t] * s.dot(z, x[t]), note="update rule"),
        Link("=", eta * s.dot(z, u[t]) + eta * y[t] * s.dot(z, x[t]),
             by(eq=((-1, "IH"),)), note="induction hypothesis"),
        Link("=", eta * s.dot(z, u[t + 1]), note="update rule"),
    )),))
    return Theorem(
        name="eta-scaling", title="A learning rate only rescales the run",
        vectors=("u", "v", "x", "z"), naturals=(T,), hyps=hyps, family=family,
        conclusions=(Fact(s.dot(z, v[T]), "=", eta * s.dot(z, u[T])),),
        proof=Induction(T, t, base, step),
        summary="For every vector z, z . v_T = eta z . u_T, so v_T = eta u_T; with eta > 0 every "
                "score y x . v_T has the sign of y x . u_T, so both runs make the same "
                "mistakes and the same number of updates.")


def w0_bound_theorem(lemmas: dict) -> Theorem:
    """From any w_0 with w_f . w_0 >= 0: T <= R^2 ||w_f||^2/rho^2 + ||w_f|| ||w_0|| / rho."""
    s = proof_symbols()
    f, w, T, R, rho = s.f, s.w, s.T, s.R, s.rho
    nf, n0 = s.norm_f, s.norm_w0
    D, W, F = s.dot(f, w[T]), s.dot(w[T], w[T]), s.dot(f, f)
    c, W0 = s.dot(f, w[0]), s.dot(w[0], w[0])
    family, ground = run_hyps(w0_zero=False)
    hyps = ground + (
        Hyp("c>=0", Fact(c, ">=", 0), "w_0 does not point away from w_f"),
        Hyp("nf>0", Fact(nf, ">", 0), "||w_f|| > 0"),
        Hyp("nf^2", Rewrite(nf, 2, F), "||w_f|| is the length of w_f"),
        Hyp("n0>=0", Fact(n0, ">=", 0), "||w_0|| >= 0"),
        Hyp("n0^2", Rewrite(n0, 2, W0), "||w_0|| is the length of w_0"),
    )
    lines = (
        LemmaUse("inner", lemmas["inner-product-bound-w0"], note="theorem 2 from w_0"),
        LemmaUse("norm", lemmas["norm-bound-w0"], note="theorem 4 from w_0"),
        Chain("T>0", T, (Link(">", 0, by(Term(1, ("T>=1",)), Term(1))),)),
        Chain("F>0", F, (Link(">", 0, by(Term(1, ("nf>0", "nf>0")))),)),
        LemmaUse("cs", lemmas["cauchy-schwarz"], ((s.sp.Symbol("a"), w[T]),
                                                  (s.sp.Symbol("b"), f)), note="theorem 5"),
        Chain("quadratic", (c + T * rho) ** 2, (
            Link("<=", D ** 2, by(Term(1, (Square(D - c - T * rho),)), Term(2, ("c>=0", "inner")),
                                  Term(2, ("T>=0", "rho>0", "inner"))),
                 note="w_f . w_T >= w_f . w_0 + T rho >= 0"),
            Link("<=", F * W, by(Term(1, ("cs",))), note="Cauchy-Schwarz"),
            Link("<=", F * (W0 + T * R ** 2), by(Term(1, (NormSq(f), "norm"))),
                 note="theorem 4 from w_0"),
        )),
        Chain("Q", T ** 2 * rho ** 2, (
            Link("<=", (c + T * rho) ** 2, by(Term(1, (Square(c),)),
                                              Term(2, ("c>=0", "T>=0", "rho>0"))),
                 note="w_f . w_0 >= 0"),
            Link("<=", F * (W0 + T * R ** 2), by(Term(1, ("quadratic",))), note="above"),
        )),
        Chain("u+A>0", T * rho + nf * n0, (
            Link(">", 0, by(Term(1, ("T>0", "rho>0")), Term(1, ("nf>0", "n0>=0")))),)),
        Chain("bound", T, (
            Link("<=", R ** 2 * F / rho ** 2 + nf * n0 / rho,
                 by(Term(1, ("rho>0", "Q")), Term(1, ("nf>0", "n0>=0", Square(R), NormSq(f))),
                    div=("rho>0", "rho>0", "u+A>0")),
                 note="u = T rho solves u^2 <= A^2 + K u (A = ||w_f|| ||w_0||, "
                      "K = R^2||w_f||^2/rho), so u <= K + A"),)),
    )
    return Theorem(
        name="w0-bound", title="Starting from a non-zero w_0",
        vectors=VECTORS, naturals=(T,), hyps=hyps, family=family,
        conclusions=(Fact((c + T * rho) ** 2, "<=", F * (W0 + T * R ** 2)),
                     Fact(T, "<=", R ** 2 * F / rho ** 2 + nf * n0 / rho)),
        proof=Derivation(lines),
        summary="The generalised bound; with w_0 = 0 it is Novikoff's bound.")


def margins_theorem(lemmas: dict) -> Theorem:
    """The normalised margin gamma (||w_f|| = 1) and the unnormalised rho give the same bound."""
    s = proof_symbols()
    sp = s.sp
    f, rho, gamma, R, nf = s.f, s.rho, s.gamma, s.R, s.norm_f
    fhat, x, y = sp.Symbol("f_hat"), sp.Symbol("x"), sp.Symbol("y", real=True)
    F = s.dot(f, f)
    hyps = (
        Hyp("nf>0", Fact(nf, ">", 0), "||w_f|| > 0"),
        Hyp("nf^2", Rewrite(nf, 2, F), "||w_f|| is the length of w_f"),
        Hyp("f_hat", VectorDef(fhat, f / nf), "the normalised separator w_f / ||w_f||"),
        Hyp("margin", Fact(rho, "<=", y * s.dot(f, x)), "example (x, y) has margin rho"),
        Hyp("rho>0", Fact(rho, ">", 0), "the margin is positive"),
        Hyp("gamma", Fact(gamma * nf, "=", rho), "gamma = rho / ||w_f||"),
    )
    lines = (
        Chain("unit", s.dot(fhat, fhat), (
            Link("=", 1, by(div=("nf>0", "nf>0")), note="w_f . w_f / ||w_f||^2 = 1"),)),
        Chain("margin-hat", gamma, (
            Link("<=", y * s.dot(fhat, x), by(Term(1, ("margin",)), eq=((-1, "gamma"),),
                                              div=("nf>0",)),
                 note="divide y w_f . x >= rho by ||w_f||"),)),
        Chain("gamma>0", gamma, (
            Link(">", 0, by(Term(1, ("rho>0",)), eq=((1, "gamma"),), div=("nf>0",))),)),
        Chain("same-bound", R ** 2 * F / rho ** 2, (
            Link("=", R ** 2 / gamma ** 2,
                 by(eq=((-R ** 2 * (gamma * nf + rho), "gamma"),),
                    div=("rho>0", "rho>0", "gamma>0", "gamma>0")),
                 note="rho = gamma ||w_f||"),)),
    )
    return Theorem(
        name="margins", title="Normalised and unnormalised margins agree",
        vectors=("w_f", "f_hat", "x"), naturals=(), hyps=hyps,
        conclusions=(Fact(s.dot(fhat, fhat), "=", 1),
                     Fact(gamma, "<=", y * s.dot(fhat, x)),
                     Fact(R ** 2 * F / rho ** 2, "=", R ** 2 / gamma ** 2)),
        proof=Derivation(lines),
        summary="Notes that normalise ||w_f|| = 1 and use gamma, and notes that keep w_f and "
                "use rho, state the same bound: the unit vector w_f/||w_f|| has margin "
                "gamma = rho/||w_f||, and R^2||w_f||^2/rho^2 = (R/gamma)^2.")
