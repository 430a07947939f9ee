"""Untrusted: the Cauchy–Schwarz lines of a claim about vectors (issue 25, norms).

Role: proposes.  For each pair of declared vectors ``u, v`` of a claim whose goals need it (a
goal of degree two or more in the inner products, or a ``norm``, ``sqrt`` or ``Abs`` of an
inner product), it writes lines the kernel checks with its existing rules and adds their
conclusions to the facts the certificate search may use:

- ``dot(u, v)**2 <= dot(u, u)*dot(v, v)``, by ``cases`` on the sign of ``-dot(v, v)``:
  when ``dot(v, v) > 0``, ``dot(v, v)*(dot(u,u)*dot(v,v) - dot(u,v)**2) = dot(w, w)`` with
  ``w = dot(v, v)*u - dot(u, v)*v`` (``positive-divisor``, ``norm-nonneg``); when
  ``-dot(v, v) >= 0``, ``(dot(u, u) + 2)*(dot(u,u)*dot(v,v) - dot(u,v)**2) = dot(w, w) +
  (-dot(v, v))`` with ``w = dot(u, v)*u - (dot(u, u) + 1)*v`` and ``dot(u, u) + 2 > 0``;
- when ``norm(u)`` and ``norm(v)`` are atoms of the claim, ``norm(u)*norm(v) >= dot(u, v)``
  and ``norm(u)*norm(v) >= -dot(u, v)``, each by ``cases`` on the sign of the right side
  (where it is ``>= 0``, by ``compare-squares`` with the line above; else directly).

The kernel checks every line (:mod:`verify.kernel.derivations`), so a bug here can make a
claim unproved, never proved.

>>> from verify.claims.parser import parse_claim
>>> from verify.claims.propose import _Prover
>>> prover = _Prover(parse_claim("vectors: u, v\\nAbs(dot(u, v)) <= norm(u)*norm(v)"))
>>> prover.assumptions(); prover.goal_domains()
>>> lines, text = cauchy_schwarz_lines(prover)
>>> [type(line).__name__ for line in lines]
['CaseSplit', 'CaseSplit', 'CaseSplit']
>>> text.split("; ")[-1]
'|dot(u, v)| <= norm(u)*norm(v)'
"""

from __future__ import annotations

from typing import Any

from verify.claims.propose import _Prover

__all__ = ["cauchy_schwarz_lines", "needs_cauchy_schwarz"]


def needs_cauchy_schwarz(prover: _Prover) -> bool:
    """Whether a goal of the claim may need Cauchy–Schwarz: an atom (sqrt or Abs) of an inner
    product, or a term of degree two or more in the inner products of two declared vectors.

    >>> from verify.claims.parser import parse_claim
    >>> needs_cauchy_schwarz(_Prover(parse_claim("vectors: u, v\\ndot(u, v) <= dot(u, u)")))
    False
    """
    sp, Dot = prover.sp, prover.kernel.Dot
    if len(prover.claim.vectors) < 2:
        return False
    if any(sp.S(a.argument).has(Dot) for a in prover.statement.atoms):
        return True
    for goal in prover.statement.goals:
        form = prover.scalar_form(sp.S(goal.lhs) - sp.S(goal.rhs))
        dots = [d for d in prover.dots.values() if d in form.free_symbols]
        try:
            if dots and sp.Poly(form, *dots).total_degree() >= 2:
                return True
        except sp.PolynomialError:  # an inner product in a denominator: not a polynomial
            continue
    return False


def cauchy_schwarz_lines(prover: _Prover) -> tuple[tuple, str]:
    """(kernel lines, text) of the Cauchy–Schwarz facts the claim's goals may need (none when
    :func:`needs_cauchy_schwarz` says they need none); their conclusions join the prover's
    derived facts, so the goals' certificates may cite them."""
    if not needs_cauchy_schwarz(prover):
        return (), ""
    kernel = prover.kernel
    vectors = [prover.tr.expr(("sym", v)) for v in prover.claim.vectors]
    norms = {a.argument.args[0]: a for a in prover.statement.atoms
             if a.kind == "sqrt" and isinstance(a.argument, kernel.Dot)
             and a.argument.args[0] == a.argument.args[1] and a.symbol in prover.defined}
    lines: list = []
    texts: list[str] = []
    for i, u in enumerate(vectors):
        for j, v in enumerate(vectors[i + 1:]):
            name = f"cauchy_schwarz_{i}_{i + 1 + j}"
            lines.append(_squared_line(kernel, name, u, v))
            prover.derive(name, prover.sp.expand(kernel.dot(u, u) * kernel.dot(v, v)
                                                 - kernel.dot(u, v) ** 2))
            texts.append(_squared_text(u, v))
            if u in norms and v in norms:
                product = norms[u].symbol * norms[v].symbol
                facts = (_nonneg_name(kernel, norms[u]), _nonneg_name(kernel, norms[v]))
                for sign, suffix in ((1, "above"), (-1, "below")):
                    line = f"{name}_norms_{suffix}"
                    lines.append(_norm_line(kernel, line, product, sign * kernel.dot(u, v),
                                            facts))
                    prover.derive(line, prover.sp.expand(product - sign * kernel.dot(u, v)))
                texts.append(f"|dot({u}, {v})| <= norm({u})*norm({v})")
    return tuple(lines), "Cauchy-Schwarz: " + "; ".join(texts)


def _squared_line(kernel: Any, name: str, u: Any, v: Any) -> Any:
    """``dot(u, v)**2 <= dot(u, u)*dot(v, v)`` by cases on the sign of ``-dot(v, v)``."""
    a, b, c = kernel.dot(v, v), kernel.dot(u, v), kernel.dot(u, u)
    goal = kernel.Fact(b ** 2, "<=", c * a)
    positive = f"{name}_positive"
    zero_case = kernel.Derivation((
        kernel.Chain(positive, c + 2, (kernel.Link(">", 0, kernel.Certificate(
            (kernel.Term(2, ()), kernel.Term(1, (kernel.NormSq(u),))))),)),
        kernel.Chain(f"{name}_zero", b ** 2, (kernel.Link("<=", c * a, kernel.Certificate(
            (kernel.Term(1, (kernel.NormSq(b * u - (c + 1) * v),)), kernel.Term(1, (name,))),
            divisors=(positive,))),)),
    ))
    positive_case = kernel.Derivation((
        kernel.Chain(f"{name}_nonzero", b ** 2, (kernel.Link("<=", c * a, kernel.Certificate(
            (kernel.Term(1, (kernel.NormSq(a * u - b * v),)),), divisors=(name,))),)),
    ))
    return kernel.CaseSplit(name, -a, goal, zero_case, positive_case)


def _squared_text(u: Any, v: Any) -> str:
    """The Cauchy–Schwarz line as a reader checks it (both cases of the split).

    >>> print(_squared_text("u", "v"))
    dot(u, v)**2 <= dot(u, u)*dot(v, v) by cases on dot(v, v): if > 0, \
dot(v, v)*(dot(u, u)*dot(v, v) - dot(u, v)**2) = dot(z, z) for z = dot(v, v)*u - dot(u, v)*v; \
if <= 0, (dot(u, u) + 2)*(dot(u, u)*dot(v, v) - dot(u, v)**2) = dot(z, z) - dot(v, v) for \
z = dot(u, v)*u - (dot(u, u) + 1)*v
    """
    a, b, c = f"dot({v}, {v})", f"dot({u}, {v})", f"dot({u}, {u})"
    gap = f"{c}*{a} - {b}**2"
    return (f"{b}**2 <= {c}*{a} by cases on {a}: if > 0, {a}*({gap}) = dot(z, z) for "
            f"z = {a}*{u} - {b}*{v}; if <= 0, ({c} + 2)*({gap}) = dot(z, z) - {a} for "
            f"z = {b}*{u} - ({c} + 1)*{v}")


def _norm_line(kernel: Any, name: str, product: Any, e: Any, facts: tuple[str, str]) -> Any:
    """``norm(u)*norm(v) >= e`` (``e = ±dot(u, v)``) by cases on the sign of ``e``."""
    both = kernel.Term(1, facts)
    nonneg = kernel.Derivation((
        kernel.Chain(f"{name}_product", product,
                     (kernel.Link(">=", 0, kernel.Certificate((both,))),)),
        kernel.SquareCompare(f"{name}_squares", product, ">=", e),
    ))
    negative = kernel.Derivation((
        kernel.Chain(f"{name}_direct", product, (kernel.Link(">=", e, kernel.Certificate(
            (both, kernel.Term(1, (name,))))),)),
    ))
    return kernel.CaseSplit(name, e, kernel.Fact(product, ">=", e), nonneg, negative)


def _nonneg_name(kernel: Any, atom: Any) -> str:
    """The name of the atom's hypothesis ``atom >= 0`` (the kernel's own definition)."""
    return kernel.atom_definitions(atom)[0].name
