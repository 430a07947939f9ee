"""Render checked theorems and claim verdicts to Markdown with LaTeX (sympy's printer).

The pages are produced from the checked objects at docs build time (``docs/hooks/proofs.py``),
never copied by hand: a broken step stops the build instead of being published.

>>> pages = proof_pages()
>>> sorted(pages)[:2]
['proofs/cauchy-schwarz.md', 'proofs/eta-bound.md']
>>> "Checked by the kernel" in pages["proofs/novikoff.md"]
True
"""

from __future__ import annotations

from typing import Any

__all__ = ["latex", "render_fact", "render_theorem_markdown", "proof_pages", "render_claim",
           "RELATION_LATEX"]

RELATION_LATEX = {"<=": r"\le", "<": "<", "=": "=", ">=": r"\ge", ">": ">", "==": "=",
                  "!=": r"\ne"}


def latex(expr: Any) -> str:
    """LaTeX of a kernel expression (dot atoms as inner products, norms as ``\\|v\\|``)."""
    import sympy as sp

    from verify.proofs.symbols import LATEX_NAMES

    expr = sp.S(expr)
    names = {s: LATEX_NAMES[s.name] for s in expr.free_symbols
             if isinstance(s, sp.Symbol) and s.name in LATEX_NAMES}
    return sp.latex(expr, symbol_names=names)


def render_fact(fact: Any) -> str:
    """``lhs rel rhs`` in LaTeX."""
    return f"{latex(fact.lhs)} {RELATION_LATEX[fact.rel]} {latex(fact.rhs)}"


def _hyp_row(hyp: Any) -> str:
    from verify.kernel import Fact, Rewrite, VectorDef

    c = hyp.content
    if isinstance(c, Fact):
        kind, formula = "fact", render_fact(c)
    elif isinstance(c, Rewrite):
        kind, formula = "rewriting rule", f"{latex(c.target ** c.power)} = {latex(c.rhs)}"
    elif isinstance(c, VectorDef):
        kind, formula = "vector definition", f"{latex(c.vector)} = {latex(c.value)}"
    else:  # pragma: no cover - the kernel knows no other kind
        kind, formula = "?", "?"
    return f"- `{hyp.name}` ({kind}): ${formula}$" + (f" — {_prose(hyp.note)}" if hyp.note else "")


def _prose(text: str) -> str:
    """A note as Markdown-safe prose (code span for formula-like text)."""
    return f"`{text}`" if any(ch in text for ch in "|_^*<>") else text


def _certificate_text(cert: Any) -> str:
    parts = []
    for term in cert.terms:
        factors = []
        for f in term.factors:
            if isinstance(f, str):
                factors.append(f"[{f}]")
            elif hasattr(f, "expr"):
                factors.append(f"({f.expr})^2")
            else:
                factors.append(f"||{f.vector}||^2")
        parts.append(" * ".join([str(term.coeff)] + factors) if factors else str(term.coeff))
    for eq in cert.eq_terms:
        parts.append(f"({eq.multiplier}) * [{eq.name}]")
    text = " + ".join(parts)
    if cert.divisors:
        p = " * ".join(f"[{d}]" for d in cert.divisors)
        text = f"{p} * (b - a) = {text or '0'}"
    elif text:
        text = f"b - a = {text}"
    return text


def _render_line(line: Any) -> list[str]:
    from verify.kernel import Chain

    out = []
    if isinstance(line, Chain):
        out.append(f"**`{line.name}`**: ${latex(line.start)}$" +
                   (f" — {_prose(line.note)}" if line.note else ""))
        out.append("")
        for link in line.links:
            cert = _certificate_text(link.certificate)
            why = _prose(link.note) if link.note else (
                "the declared rules" if link.rel == "=" else "")
            out.append(f"1. ${RELATION_LATEX[link.rel]} {latex(link.expr)}$"
                       + (f" — {why}" if why else "")
                       + (f"; certificate `{cert}`" if cert else "; by the rules"))
        out.append("")
    else:
        sigma = ", ".join(f"${latex(k)} \\mapsto {latex(v)}$" for k, v in line.substitution)
        fact = line.lemma.theorem.conclusions[line.conclusion]
        out.append(f"**`{line.name}`**: ${render_fact(fact_subst(fact, line.substitution))}$ "
                   f"— by [{line.lemma.theorem.name}]({line.lemma.theorem.name}.md)"
                   + (f" with {sigma}" if sigma else "")
                   + (f" ({_prose(line.note)})" if line.note else ""))
        out.append("")
    return out


def fact_subst(fact: Any, substitution: tuple) -> Any:
    """The fact with the substitution applied."""
    import sympy as sp

    from verify.kernel import Fact

    sigma = dict(substitution)
    return Fact(sp.S(fact.lhs).xreplace(sigma), fact.rel, sp.S(fact.rhs).xreplace(sigma))


def render_theorem_markdown(checked: Any, number: str = "") -> str:
    """The Markdown page of one checked theorem: statement, hypotheses, every step with its
    justification and certificate, the checked mark and the trusted base."""
    from verify.kernel import KERNEL_RULES, Induction

    thm = checked.theorem
    out = [f"# {number + ' ' if number else ''}{thm.title}", ""]
    out.append(f"!!! success \"Checked by the kernel: {checked.steps} steps\"")
    out.append(f"    Theorem `{thm.name}`. Every step below was checked mechanically by "
               f"`verify.kernel.check_theorem` when this page was built.")
    out.append("")
    if thm.summary:
        out += [thm.summary, ""]
    out.append("## Statement")
    out.append("")
    scope = []
    if thm.vectors:
        scope.append("for vectors " + ", ".join(f"${latex(_vec(v))}$" for v in thm.vectors)
                     + " in any real inner-product space (every dimension)")
    if thm.naturals:
        scope.append("for every natural number " + ", ".join(f"${latex(n)}$"
                                                           for n in thm.naturals))
    out.append(("For all real values of the other symbols" + (", " if scope else "")
                + "; ".join(scope) + ": if the hypotheses hold, then"))
    out.append("")
    for fact in thm.conclusions:
        out.append(f"$$ {render_fact(fact)} $$")
        out.append("")
    out += _pinned_block(thm.name)
    out.append("## Hypotheses")
    out.append("")
    if thm.hyps:
        out += [_hyp_row(h) for h in thm.hyps]
        out.append("")
    if thm.family is not None:
        fam = thm.family
        out.append(f"For every update ${latex(fam.index)}$ with "
                   f"$0 \\le {latex(fam.index)} < {latex(fam.upper)}$:")
        out.append("")
        out += [_hyp_row(h) for h in fam.hyps]
        out.append("")
    if not thm.hyps and thm.family is None:
        out += ["None.", ""]
    out.append("## Proof")
    out.append("")
    proof = thm.proof
    if isinstance(proof, Induction):
        T, t = proof.variable, proof.index
        out.append(f"By induction on ${latex(T)}$.")
        out.append("")
        out.append(f"### Base case ${latex(T)} = 0$")
        out.append("")
        for line in proof.base.lines:
            out += _render_line(line)
        out.append(f"### Step: from ${latex(T)} = {latex(t)}$ (hypothesis `IH`) to "
                   f"${latex(T)} = {latex(t + 1)}$")
        out.append("")
        for line in proof.step.lines:
            out += _render_line(line)
    else:
        for line in proof.lines:
            out += _render_line(line)
    out.append("In a certificate, `[name]` is the nonnegative side of the named hypothesis or "
               "line (for `a <= b` it is `b - a`), `(q)^2` a square, `||v||^2` a squared norm; "
               "`[p] * (b - a)` means the step was multiplied by the positive factors `p`.")
    out.append("")
    out.append("## Trusted base")
    out.append("")
    out.append("Kernel rules used:")
    out.append("")
    out += [f"- `{rule}`: {KERNEL_RULES[rule]}" for rule in checked.rules]
    out.append("")
    if checked.declared:
        out.append("Declared rewriting rules used: " +
                   ", ".join(f"`{d}`" for d in checked.declared) + ".")
        out.append("")
    if checked.lemmas:
        out.append("Lemmas (checked theorems, transitively): " +
                   ", ".join(f"[{name}]({name}.md)" for name in checked.lemmas) + ".")
    else:
        out.append("Lemmas: none.")
    out.append("")
    return "\n".join(out)


def _pinned_block(name: str) -> list[str]:
    """The reviewed statement of a built-in theorem as pinned in verify/proofs/statements.toml
    (the page is built only when the proved statement equals it)."""
    from verify.proofs.pinned import pinned_digests, pinned_statements

    text = pinned_statements().get(name)
    if text is None:
        return []
    out = [f'??? note "Pinned statement (SHA-256 `{pinned_digests()[name][:16]}…`)"',
           "    What was proved is compared, as this exact text, with the reviewed statement in "
           "`verify/proofs/statements.toml` (see [the trusted base](../trusted-base.md"
           "#pinned-statements)); the page exists only because they are equal.", "",
           "    ```text"]
    out += ["    " + line for line in text.splitlines()]
    return out + ["    ```", ""]


def _vec(name: str) -> Any:
    import sympy as sp

    return sp.Symbol(name)


def proof_pages() -> dict[str, str]:
    """``{path: markdown}`` for ``proofs/index.md`` and one page per built-in theorem.

    Raises :class:`verify.kernel.DerivationError` if any built-in theorem fails: a broken
    step breaks the build.
    """
    from verify.kernel import DerivationError
    from verify.proofs import GROUPS, check_builtin_proofs

    results = check_builtin_proofs()
    failed = [r for r in results if r.checked is None]
    if failed:
        raise DerivationError(f"theorem {failed[0].name} failed: {failed[0].error}")
    pages = {}
    index = ["# Checked proofs", "",
             "Every theorem below is checked step by step by the trusted kernel "
             "(see [the trusted base](../trusted-base.md)) each time this site is built; "
             "`pla proof` runs the same checks, and `pla proof --smt` also asks z3 about "
             "every step ([a second opinion](../trusted-base.md#a-second-opinion-pla-proof-smt), "
             "never a replacement for the kernel).", "",
             "| group | theorem | name | steps | status |", "|---|---|---|---|---|"]
    for r in results:
        pages[f"proofs/{r.name}.md"] = render_theorem_markdown(r.checked, f"{r.group}.")
        index.append(f"| {r.group}. {GROUPS[r.group]} | [{r.checked.theorem.title}]"
                     f"({r.name}.md) | `{r.name}` | {r.checked.steps} | checked |")
    index.append("")
    pages["proofs/index.md"] = "\n".join(index)
    return pages


def render_claim(body: str, verdict: Any) -> str:
    """A claim block rendered with its verdict, as a Markdown admonition."""
    kind = {"proved": "success", "refuted": "failure", "unproved": "warning",
            "vacuous": "warning", "invalid": "failure"}[verdict.status]
    claim = verdict.claim
    name = f" {claim.ident}" if claim is not None and claim.ident else ""
    expected = "" if claim is None or claim.expect == "proved" else \
        f" (expected {claim.expect})"
    lines = [f"!!! {kind} \"Claim{name} {verdict.status}{expected}\""]
    if claim is not None:
        if claim.uses:
            lines.append(f"    Uses {', '.join(claim.uses)}.")
            lines.append("")
        for r in claim.assumptions:
            lines.append(f"    Assume ${_relation_latex(r)}$.")
            lines.append("")
        lines.append("    $$ " + r" \quad ".join(_relation_latex(g) for g in claim.goals) + " $$")
        lines.append("")
    else:
        lines.append("    ```text")
        lines += ["    " + line for line in body.splitlines()]
        lines.append("    ```")
        lines.append("")
    detail = verdict.explain()
    title = {"proved": "Certificate (checked by the kernel)", "refuted": "Counterexample"}.get(
        verdict.status, "Why")
    lines.append(f"    ??? note \"{title}\"")  # collapsible (pymdownx.details)
    lines.append("")
    lines.append(f"        `{detail}`" if "`" not in detail else f"        {detail}")
    return "\n".join(lines) + "\n"


def _relation_latex(r: Any) -> str:
    import sympy as sp

    from verify.claims.checker import _Translation

    class _Shown(_Translation):
        """Translation for display: sqrt/Abs as themselves, nothing evaluated (x/x stays)."""

        def atom(self, e: tuple) -> Any:
            arg = self.expr(e[1], evaluate=False)
            return sp.Pow(arg, sp.Rational(1, 2), evaluate=False) if e[0] == "sqrt" else \
                sp.Abs(arg, evaluate=False)

    tr = _Shown()
    if r.op == "integer":
        return rf"{sp.latex(tr.expr(r.lhs))} \in \mathbb{{Z}}"
    lhs, rhs = tr.expr(r.lhs, evaluate=False), tr.expr(r.rhs, evaluate=False)
    return f"{sp.latex(lhs)} {RELATION_LATEX[r.op]} {sp.latex(rhs)}"
