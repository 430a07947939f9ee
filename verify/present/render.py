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
           "theorem_numbers", "RELATION_LATEX"]

RELATION_LATEX = {"<=": r"\le", "<": "<", "=": "=", ">=": r"\ge", ">": ">", "==": "=",
                  "!=": r"\ne"}


# Symbols whose names are for the code: how a reader sees them (f_hat = w_f / ||w_f||).
_SHOWN_NAMES = {"f_hat": r"\hat{w}_{f}"}


def latex(expr: Any) -> str:
    """LaTeX of a kernel expression (dot atoms as inner products, norms as ``\\|v\\|``)."""
    import sympy as sp

    from verify.proofs.symbols import LATEX_NAMES

    expr = sp.S(expr)
    known = {**LATEX_NAMES, **_SHOWN_NAMES}
    names = {s: known[s.name] for s in expr.free_symbols
             if isinstance(s, sp.Symbol) and s.name in known}
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
        kind, formula = "rewriting rule", _rewrite_latex(c)
    elif isinstance(c, VectorDef):
        kind, formula = "vector definition", f"{latex(c.vector)} = {latex(c.value)}"
    else:  # pragma: no cover - the kernel knows no other kind
        kind, formula = "?", "?"
    return (f"- **[{_label(hyp.name)}]** {kind}: ${formula}$"
            + (f" — {_prose(hyp.note)}" if hyp.note else ""))


def _rewrite_latex(rule: Any) -> str:
    r"""``target^power = rhs``; when both sides print alike (a length ``‖w‖`` named by a symbol
    and ``w·w``), the right-hand side is written as the inner product it is.

    >>> import sympy as sp
    >>> from verify.kernel import Rewrite, dot
    >>> w, n = sp.Symbol("w_f"), sp.Symbol("norm_wf")
    >>> _rewrite_latex(Rewrite(n, 2, dot(w, w)))
    '\\lVert w_{f} \\rVert^{2} = w_{f} \\cdot w_{f}'
    """
    lhs, rhs = latex(rule.target ** rule.power), latex(rule.rhs)
    if _unbraced(lhs) == _unbraced(rhs) and len(getattr(rule.rhs, "args", ())) == 2:
        a, b = rule.rhs.args
        rhs = f"{latex(a)} \\cdot {latex(b)}"
    return f"{lhs} = {rhs}"


def _unbraced(tex: str) -> str:
    return tex.replace("{", "").replace("}", "")


def _label(name: str) -> str:
    """A hypothesis or line name as Markdown text (escaped where Markdown would act).

    >>> _label("nf^2"), _label("rho>0")
    ('nf^2', 'rho&gt;0')
    """
    return name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace(
        "*", "\\*").replace("_", "\\_")


_GREEK = {"rho": "ρ", "gamma": "γ", "eta": "η"}


def _prose(text: str) -> str:
    """A note (ASCII maths in prose) as readable text: norms, relations, Greek letters, square
    roots, squares, subscripts and inner products written as they are printed.

    >>> _prose("w_f . w_T >= T rho >= 0")
    'w<sub>f</sub>·w<sub>T</sub> ≥ T ρ ≥ 0'
    >>> _prose("(sqrt(T) R - ||w_T||) = T R^2 - ||w_{t+1}||^2; Dot is linear")
    '(√T R − ‖w<sub>T</sub>‖) = T R² − ‖w<sub>t+1</sub>‖²; the inner product is linear'
    >>> _prose("Dot(u, v) = Dot(v, u)")
    'u·v = v·u'
    >>> _prose("||w_f|| > 0; q**2 >= 0; p*(b - a)")
    '‖w<sub>f</sub>‖ &gt; 0; q<sup>2</sup> ≥ 0; p·(b − a)'
    """
    import re

    text = re.sub(r"Dot\((\w+), (\w+)\)", r"\1 . \2", text)
    text = re.sub(r"\bDot\b", "the inner product", text)
    text = text.replace("&", "&amp;").replace("=>", "⇒").replace("<=", "≤").replace(">=", "≥").replace("!=", "≠")
    text = text.replace("<", "&lt;").replace(">", "&gt;")
    text = text.replace("||", "‖")
    text = re.sub(r"\*\*(\w+)", r"<sup>\1</sup>", text)
    text = re.sub(r"sqrt\((\w+)\)", r"√\1", text)
    text = re.sub(r"sqrt\(", "√(", text)
    for word, letter in _GREEK.items():
        text = re.sub(rf"\b{word}\b", letter, text)
    text = re.sub(r"\^2\b", "²", text)
    text = re.sub(r"_\{([^{}]+)\}", r"<sub>\1</sub>", text)
    text = re.sub(r"_(\w)", r"<sub>\1</sub>", text)
    text = re.sub(r"(?<=[\w>)‖])\s*\.\s*(?=[\w(‖])", "·", text)
    text = re.sub(r"(?<=\s)-(?=\s)", "−", text)
    text = text.replace("*", "·")
    return text


def _bracket(name: str, facts: dict[str, str]) -> str:
    """``[h]``: the nonnegative side of hypothesis or line ``h`` -- the hypothesis itself when
    it is a fact of the page, else its label."""
    import re

    if name in facts:
        return f"\\left[\\,{facts[name]}\\,\\right]"
    simple = re.fullmatch(r"([A-Za-z])(>=|>)(\d+)", name)
    if simple:  # a natural-number index, nonnegative by the kernel rule naturals-nonneg
        relation = RELATION_LATEX[simple.group(2)]
        return f"\\left[\\,{simple.group(1)} {relation} {simple.group(3)}\\,\\right]"
    return "[\\text{%s}]" % name.replace("_", "\\_").replace("^", "\\^{}")


def _certificate_text(cert: Any, facts: dict[str, str] | None = None) -> str:
    """The certificate of a step in LaTeX: ``b - a`` as a nonnegative combination."""
    facts = facts or {}
    parts = []
    for term in cert.terms:
        factors = []
        for f in term.factors:
            if isinstance(f, str):
                factors.append(_bracket(f, facts))
            elif hasattr(f, "expr"):
                factors.append(f"\\left({latex(f.expr)}\\right)^{{2}}")
            else:
                factors.append(f"\\left\\lVert {latex(f.vector)} \\right\\rVert^{{2}}")
        coeff = latex(term.coeff)
        if factors:
            if coeff != "1":
                factors.insert(0, coeff if coeff.lstrip("-").replace("\\frac", "").strip("{}0123456789 ") == ""
                               and not coeff.startswith("-") else f"\\left({coeff}\\right)")
            parts.append(" ".join(factors))
        else:
            parts.append(coeff)
    for eq in cert.eq_terms:
        parts.append(f"\\left({latex(eq.multiplier)}\\right) {_bracket(eq.name, facts)}")
    text = " + ".join(parts)
    if cert.divisors:
        p = " ".join(_bracket(d, facts) for d in cert.divisors)
        text = f"{p} \\, (b - a) = {text or '0'}"
    elif text:
        text = f"b - a = {text}"
    return text


def _render_line(line: Any, facts: dict[str, str] | None = None) -> list[str]:
    from verify.kernel import Chain

    out = []
    if isinstance(line, Chain):
        out.append(f"**[{_label(line.name)}]** ${latex(line.start)}$" +
                   (f" — {_prose(line.note)}" if line.note else ""))
        out.append("")
        for link in line.links:
            cert = _certificate_text(link.certificate, facts)
            why = _prose(link.note) if link.note else (
                "the declared rules" if link.rel == "=" else "")
            out.append(f"1. ${RELATION_LATEX[link.rel]} {latex(link.expr)}$"
                       + (f" — {why}" if why else "")
                       + (f"; certificate ${cert}$" if cert else "; by the rules"))
        out.append("")
    else:
        sigma = ", ".join(f"${latex(k)} \\mapsto {latex(v)}$" for k, v in line.substitution)
        fact = line.lemma.theorem.conclusions[line.conclusion]
        out.append(f"**[{_label(line.name)}]** ${render_fact(fact_subst(fact, line.substitution))}$ "
                   f"— by [{line.lemma.theorem.name}]({line.lemma.theorem.name}.md)"
                   + (f" with {sigma}" if sigma else "")
                   + (f" ({_prose(line.note)})" if line.note else ""))
        out.append("")
    return out


def _line_facts(proof: Any) -> dict[str, str]:
    """``{line name: what the line proves}`` in LaTeX, for the certificates that cite lines."""
    from verify.kernel import Chain, Induction

    sections = [proof.base, proof.step] if isinstance(proof, Induction) else [proof]
    facts: dict[str, str] = {}
    for section in sections:
        for line in section.lines:
            if isinstance(line, Chain):
                relations = {link.rel for link in line.links} - {"=", "=="}
                if not relations:
                    relation = "="
                elif relations <= {"<=", "<"}:
                    relation = "<" if "<" in relations else "<="
                elif relations <= {">=", ">"}:
                    relation = ">" if ">" in relations else ">="
                else:
                    continue
                facts[line.name] = (f"{latex(line.start)} {RELATION_LATEX[relation]} "
                                    f"{latex(line.links[-1].expr)}")
            else:
                fact = line.lemma.theorem.conclusions[line.conclusion]
                facts[line.name] = render_fact(fact_subst(fact, line.substitution))
    return facts


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
    out.append(f"    Theorem {thm.name}. Every step below was checked mechanically by "
               f"the trusted kernel when this page was built.")
    out.append("")
    if thm.summary:
        out += [_prose(thm.summary), ""]
    facts = {h.name: render_fact(h.content) for h in (
        [*thm.hyps, *(thm.family.hyps if thm.family is not None else ())])
        if type(h.content).__name__ == "Fact"}
    facts.update(_line_facts(thm.proof))
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
            out += _render_line(line, facts)
        out.append(f"### Step: from ${latex(T)} = {latex(t)}$ (hypothesis [IH]) to "
                   f"${latex(T)} = {latex(t + 1)}$")
        out.append("")
        for line in proof.step.lines:
            out += _render_line(line, facts)
    else:
        for line in proof.lines:
            out += _render_line(line, facts)
    out.append("A certificate writes $b - a$, for a step from $a$ to $b$, as a sum of nonnegative "
               "terms: $[h]$ stands for the nonnegative side of hypothesis or line $h$ (for "
               "$u \\le v$ it is $v - u$), $(q)^{2}$ is a square and "
               "$\\lVert v \\rVert^{2}$ a squared norm; $[p]\\,(b - a) = \\dots$ means the step "
               "was first multiplied by the positive factors $[p]$.")
    out.append("")
    out.append("## Trusted base")
    out.append("")
    out.append("Kernel rules used:")
    out.append("")
    out += [f"- {rule}: {_prose(KERNEL_RULES[rule])}" for rule in checked.rules]
    out.append("")
    if checked.declared:
        out.append("Declared rewriting rules used: " +
                   ", ".join(f"[{_label(d)}]" for d in checked.declared) + ".")
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
             "| | theorem | statement (under the hypotheses of its page) | steps |",
             "|---|---|---|---|"]
    numbers = theorem_numbers([r.group for r in results])
    current_group = None
    for r, number in zip(results, numbers):
        pages[f"proofs/{r.name}.md"] = render_theorem_markdown(r.checked, number)
        if r.group != current_group and numbers.count(f"{r.group}.") == 0:
            current_group = r.group
            index.append(f"| **{r.group}.** | **{GROUPS[r.group]}** | | |")
        statement = r", \quad ".join(render_fact(f) for f in r.checked.theorem.conclusions)
        index.append(f"| {number} | [{r.checked.theorem.title}]({r.name}.md) | ${statement}$ "
                     f"| {r.checked.steps}, checked |")
    index.append("")
    pages["proofs/index.md"] = "\n".join(index)
    return pages


def theorem_numbers(groups: list[int]) -> list[str]:
    """Unique numbers for theorems in ``groups`` order: ``"6."`` for a group's only theorem,
    ``"7.1"``, ``"7.2"``, ... when a group has several.

    >>> theorem_numbers([1, 2, 7, 7, 7, 8, 8])
    ['1.', '2.', '7.1', '7.2', '7.3', '8.1', '8.2']
    """
    sizes = {g: groups.count(g) for g in groups}
    seen: dict[int, int] = {}
    numbers = []
    for g in groups:
        seen[g] = seen.get(g, 0) + 1
        numbers.append(f"{g}." if sizes[g] == 1 else f"{g}.{seen[g]}")
    return numbers


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

    if r.op == "integer":
        return rf"{sp.latex(_shown(r.lhs))} \in \mathbb{{Z}}"
    return f"{sp.latex(_shown(r.lhs))} {RELATION_LATEX[r.op]} {sp.latex(_shown(r.rhs))}"


def _shown(e: tuple) -> Any:
    """A parsed claim expression (the parser's plain tuples) as an unevaluated sympy
    expression for display: sqrt/Abs as themselves, nothing cancelled (x/x stays).

    >>> from fractions import Fraction
    >>> _shown(("div", ("sym", "x"), ("sym", "x")))
    x/x
    """
    import sympy as sp

    kind = e[0]
    if kind == "num":
        return sp.Rational(e[1].numerator, e[1].denominator)
    if kind == "sym":
        return sp.Symbol(e[1], real=True)
    if kind == "neg":
        return sp.Mul(-1, _shown(e[1]), evaluate=False)
    if kind == "sqrt":
        return sp.Pow(_shown(e[1]), sp.Rational(1, 2), evaluate=False)
    if kind == "abs":
        return sp.Abs(_shown(e[1]), evaluate=False)
    if kind == "sum":
        return sp.Sum(_shown(e[1]), (sp.Symbol(e[2], real=True), e[3], _shown(e[4])))
    if kind == "dot":
        from verify.kernel import dot

        return dot(_shown(e[1]), _shown(e[2]))
    if kind == "pow":
        return sp.Pow(_shown(e[1]), e[2], evaluate=False)
    a, b = _shown(e[1]), _shown(e[2])
    if kind == "add":
        return sp.Add(a, b, evaluate=False)
    if kind == "sub":
        return sp.Add(a, sp.Mul(-1, b, evaluate=False), evaluate=False)
    if kind == "mul":
        return sp.Mul(a, b, evaluate=False)
    return sp.Mul(a, sp.Pow(b, -1, evaluate=False), evaluate=False)
