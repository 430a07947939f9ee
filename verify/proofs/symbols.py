"""The symbols the built-in proofs share, built lazily (sympy is imported on first use).

Vectors are *atoms*: ``w_f`` (a separating weight vector), the family ``w`` (``w[t]`` is the
weight vector before update t), the family ``x`` (``x[t]`` is the example used at update t).
Scalars: labels ``y[t]``, the margin ``rho``, the radius ``R``, the learning rate ``eta``, the
update counters ``t`` and ``T``.  Only inner products of vectors ever occur, as ``Dot(u, v)``.

>>> s = proof_symbols()
>>> str(s.dot(s.f, s.w[s.t + 1]))
'Dot(w_f, w[t + 1])'
"""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

__all__ = ["proof_symbols", "LATEX_NAMES"]


@lru_cache(maxsize=1)
def proof_symbols() -> SimpleNamespace:
    """A namespace of the shared sympy symbols and the ``dot`` constructor."""
    import sympy as sp

    from verify.kernel import dot

    real = {"real": True}
    return SimpleNamespace(
        sp=sp,
        dot=dot,
        f=sp.Symbol("w_f"),
        w=sp.IndexedBase("w"),
        x=sp.IndexedBase("x"),
        y=sp.IndexedBase("y"),
        t=sp.Symbol("t", **real),
        T=sp.Symbol("T", **real),
        rho=sp.Symbol("rho", **real),
        gamma=sp.Symbol("gamma", **real),
        R=sp.Symbol("R", **real),
        eta=sp.Symbol("eta", **real),
        norm_f=sp.Symbol("norm_wf", **real),
        norm_w=sp.Symbol("norm_wT", **real),
        norm_w0=sp.Symbol("norm_w0", **real),
        root_T=sp.Symbol("sqrt_T", **real),
        s=sp.IndexedBase("s"),
        pocket=sp.IndexedBase("p"),
        mistakes=sp.IndexedBase("m"),
    )


#: How the renderer prints the symbols whose names are not valid LaTeX by themselves.
LATEX_NAMES = {
    "norm_wf": r"\lVert w_{f} \rVert",
    "norm_wT": r"\lVert w_{T} \rVert",
    "norm_w0": r"\lVert w_{0} \rVert",
    "sqrt_T": r"\sqrt{T}",
}
