"""Export the built-in kernel theorems to Coq (``pla proof --coq DIR``): one ``.v`` file each.

Each :class:`verify.kernel.Theorem` becomes one Coq theorem over an abstract real
inner-product space (``InnerProduct.v``: a Section with ``Context {V : Type}
{IP : InnerProductSpace V}``), stated from the theorem's public fields (vectors, naturals,
hypotheses, the per-step family, conclusions).  Its proof follows the kernel derivation line by
line; every step is discharged by Coq's own tactics, with the kernel's certificates as hints:

- a link ``a <= b`` with certificate ``p (b - a) = sum(terms) + sum(m_j (l_j - r_j))`` becomes
  ``by_certificate_le p``: the identity is proven by ``ring``/``field`` (modulo the declared
  rewriting rules, after the vector definitions and bilinearity), every term's sign by
  ``Rmult_le_pos``/``pow2_ge_0``/``dot_nonneg``, and the rest by ``lra``;
- a lemma use applies the exported lemma (its file is imported) to the same arguments;
- an induction is Coq's ``induction`` on ``nat``.

This module only writes text: it is not trusted.  Coq checks the result.

>>> from verify.proofs import check_builtin_proofs
>>> [r] = [r for r in check_builtin_proofs(("cauchy-schwarz",))]
>>> text = theorem_file(r.theorem)
>>> "Theorem cauchy_schwarz" in text and "Qed." in text
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from verify.kernel import (Chain, Derivation, Fact, Induction, LemmaUse, NormSq, Rewrite, Square,
                           VectorDef, dot as kernel_dot)

__all__ = ["coq_name", "theorem_file", "export_theorems", "theorem_file_texts", "ExportError"]

#: Names a symbol may not take in Coq (R is the type of the reals).
_RESERVED = {"R": "R_", "S": "S_", "O": "O_", "V": "V_", "IP": "IP_", "dot": "dot_", "i": "i_"}


class ExportError(ValueError):
    """The exporter met a kernel object it cannot write as Coq."""


def coq_name(theorem_name: str) -> str:
    """The Coq identifier of a kernel theorem name.

    >>> coq_name("inner-product-bound-eta")
    'inner_product_bound_eta'
    """
    return re.sub(r"[^A-Za-z0-9_]", "_", theorem_name)


def _sympy() -> Any:
    import sympy

    return sympy


def _ident(name: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return _RESERVED.get(name, name)


def _fact_ident(prefix: str, name: str) -> str:
    text = name
    for a, b in ((">=", "_ge_"), ("<=", "_le_"), ("!=", "_ne_"), (">", "_gt_"), ("<", "_lt_"),
                 ("^", "_pow"), ("+", "_plus_"), ("-", "_"), ("=", "_eq_")):
        text = text.replace(a, b)
    return prefix + re.sub(r"[^A-Za-z0-9_]", "_", text).strip("_")


@dataclass
class _Vars:
    """The symbols of one theorem, by kind."""

    vectors: set[str]
    naturals: set[str] = field(default_factory=set)
    vector_families: set[str] = field(default_factory=set)
    scalar_families: set[str] = field(default_factory=set)
    scalars: set[str] = field(default_factory=set)


class _Printer:
    """sympy expressions as Coq terms (R scalars, V vectors, nat indices)."""

    def __init__(self, variables: _Vars) -> None:
        self.v = variables

    def index(self, e: Any) -> str:
        sp = _sympy()
        e = sp.expand(sp.S(e))
        if e.is_Integer:
            if e < 0:
                raise ExportError(f"negative index {e}")
            return f"{e}%nat"
        if isinstance(e, sp.Symbol):
            return _ident(e.name)
        constant, rest = e.as_coeff_Add()
        if isinstance(rest, sp.Symbol) and constant.is_Integer and constant > 0:
            text = _ident(rest.name)
            for _ in range(int(constant)):
                text = f"(S {text})"
            return text
        raise ExportError(f"cannot write the index {e}")

    def atom(self, e: Any) -> str:
        sp = _sympy()
        if isinstance(e, sp.Symbol):
            return _ident(e.name)
        if isinstance(e, sp.Indexed):
            return f"({_ident(str(e.base.label))} {self.index(e.indices[0])})"
        raise ExportError(f"{e} is not a vector atom")

    def is_vector_atom(self, e: Any) -> bool:
        sp = _sympy()
        if isinstance(e, sp.Symbol):
            return e.name in self.v.vectors
        if isinstance(e, sp.Indexed):
            return str(e.base.label) in self.v.vectors
        return False

    def vector(self, e: Any) -> str:
        sp = _sympy()
        terms = []
        for term in sp.Add.make_args(sp.expand(sp.S(e))):
            if term == 0:
                continue
            factors = sp.Mul.make_args(term)
            atoms = [f for f in factors if self.is_vector_atom(f)]
            if len(atoms) != 1:
                raise ExportError(f"{term} is not a scalar multiple of one vector")
            coeff = sp.Mul(*[f for f in factors if f is not atoms[0]])
            text = self.atom(atoms[0])
            terms.append(text if coeff == 1 else f"(vscale {self.scalar(coeff)} {text})")
        if not terms:
            return "vzero"
        out = terms[-1]
        for t in reversed(terms[:-1]):
            out = f"(vadd {t} {out})"
        return out

    def scalar(self, e: Any) -> str:
        sp = _sympy()
        Dot = type(kernel_dot(sp.Symbol("a"), sp.Symbol("b")))
        e = sp.S(e)
        if e.is_Integer:
            return f"({e})" if e < 0 else str(e)
        if e.is_Rational:
            return f"({e.p} / {e.q})"
        if isinstance(e, Dot):
            return f"(dot {self.vector(e.args[0])} {self.vector(e.args[1])})"
        if isinstance(e, sp.Symbol):
            if e.name in self.v.naturals:
                return f"(INR {_ident(e.name)})"
            if e.name in self.v.vectors:
                raise ExportError(f"vector {e} used as a scalar")
            return _ident(e.name)
        if isinstance(e, sp.Indexed):
            return f"({_ident(str(e.base.label))} {self.index(e.indices[0])})"
        if isinstance(e, sp.Add):
            return "(" + " + ".join(self.scalar(a) for a in e.args) + ")"
        if isinstance(e, sp.Mul):
            return "(" + " * ".join(self.scalar(a) for a in e.args) + ")"
        if isinstance(e, sp.Pow) and e.exp.is_Integer:
            n = int(e.exp)
            if n >= 0:
                return f"({self.scalar(e.base)} ^ {n})"
            base = self.scalar(e.base)
            return f"(Rinv {base})" if n == -1 else f"(Rinv ({base} ^ {-n}))"
        raise ExportError(f"cannot write {e} in Coq")

    def fact(self, f: Fact) -> str:
        return f"{self.scalar(f.lhs)} {f.rel} {self.scalar(f.rhs)}"

    def hyp(self, content: Any) -> str:
        if isinstance(content, Fact):
            return self.fact(content)
        if isinstance(content, Rewrite):
            power = "" if content.power == 1 else f" ^ {content.power}"
            return f"{self.scalar(content.target)}{power} = {self.scalar(content.rhs)}"
        if isinstance(content, VectorDef):
            return f"{self.vector(content.vector)} = {self.vector(content.value)}"
        raise ExportError(f"unknown hypothesis {content!r}")


def _normal(f: Fact) -> tuple[Any, str]:
    sp = _sympy()
    lhs, rhs = sp.S(f.lhs), sp.S(f.rhs)
    if f.rel in ("<=", "<"):
        return rhs - lhs, ">=0" if f.rel == "<=" else ">0"
    if f.rel in (">=", ">"):
        return lhs - rhs, ">=0" if f.rel == ">=" else ">0"
    return lhs - rhs, "=0"


def _subst(content: Any, sigma: dict) -> Any:
    sp = _sympy()
    if isinstance(content, Fact):
        return Fact(sp.S(content.lhs).xreplace(sigma), content.rel, sp.S(content.rhs).xreplace(sigma))
    if isinstance(content, Rewrite):
        return Rewrite(sp.S(content.target).xreplace(sigma), content.power,
                       sp.S(content.rhs).xreplace(sigma))
    if isinstance(content, VectorDef):
        return VectorDef(sp.S(content.vector).xreplace(sigma), sp.S(content.value).xreplace(sigma))
    return sp.S(content).xreplace(sigma)


def _exprs(content: Any) -> list[Any]:
    if isinstance(content, Fact):
        return [content.lhs, content.rhs]
    if isinstance(content, Rewrite):
        return [content.target, content.rhs]
    if isinstance(content, VectorDef):
        return [content.vector, content.value]
    return [content]


def _variables(theorem: Any) -> _Vars:
    """Sort the statement's symbols into vectors, families, scalars and naturals."""
    sp = _sympy()
    v = _Vars(vectors=set(theorem.vectors))
    v.naturals = {str(n) for n in theorem.naturals}
    contents = [h.content for h in theorem.hyps] + list(theorem.conclusions)
    bound = set()
    if theorem.family is not None:
        contents += [h.content for h in theorem.family.hyps]
        bound.add(str(theorem.family.index))
    for content in contents:
        for e in _exprs(content):
            e = sp.S(e)
            for ind in e.atoms(sp.Indexed):
                label = str(ind.base.label)
                (v.vector_families if label in v.vectors else v.scalar_families).add(label)
                for s in ind.indices[0].free_symbols:
                    v.naturals.add(s.name)
    for content in contents:
        for e in _exprs(content):
            for s in sp.S(e).free_symbols:
                if isinstance(s, sp.Symbol) and not isinstance(s, sp.Dummy):
                    name = s.name
                    if name in v.vector_families or name in v.scalar_families:
                        continue
                    if name in v.naturals or name in v.vectors:
                        continue
                    if any(name == str(i.base.label) for i in sp.S(e).atoms(sp.Indexed)):
                        continue
                    v.scalars.add(name)
    v.naturals -= bound
    v.scalars -= {s for s in v.scalars if s in v.vector_families | v.scalar_families}
    return v


def _binders(v: _Vars) -> list[tuple[str, str]]:
    """(Coq name, Coq type) of every statement variable, in a fixed order."""
    out = []
    plain_vectors = sorted(v.vectors - v.vector_families)
    out += [(_ident(n), "V") for n in plain_vectors]
    out += [(_ident(n), "nat -> V") for n in sorted(v.vector_families)]
    out += [(_ident(n), "nat -> R") for n in sorted(v.scalar_families)]
    out += [(_ident(n), "R") for n in sorted(v.scalars)]
    out += [(_ident(n), "nat") for n in sorted(v.naturals)]
    return out


@dataclass
class _Statement:
    name: str
    binders: list[tuple[str, str]]
    ground: list[tuple[str, str]]      # (hypothesis ident, Coq proposition)
    family: list[tuple[str, str]]      # (family ident, Coq proposition with forall)
    conclusions: list[str]

    def text(self) -> str:
        lines = [f"Theorem {self.name} :"]
        lines.append("  forall " + " ".join(f"({n} : {t})" for n, t in self.binders) + ",")
        for _, prop in self.ground + self.family:
            lines.append(f"  {prop} ->")
        lines.append("  " + " /\\\n  ".join(self.conclusions) + ".")
        return "\n".join(lines)


def _statement(theorem: Any) -> tuple[_Statement, _Vars, _Printer]:
    v = _variables(theorem)
    pr = _Printer(v)
    ground = [(_fact_ident("H_", h.name), pr.hyp(h.content)) for h in theorem.hyps]
    family = []
    if theorem.family is not None:
        idx = _ident(str(theorem.family.index))
        upper = pr.index(theorem.family.upper)
        for h in theorem.family.hyps:
            family.append((_fact_ident("F_", h.name),
                           f"(forall {idx} : nat, ({idx} < {upper})%nat -> {pr.hyp(h.content)})"))
    conclusions = [pr.fact(c) for c in theorem.conclusions]
    binders = _binders(v)
    if not binders:
        binders = [("_unused", "unit")]
    return _Statement(coq_name(theorem.name), binders, ground, family, conclusions), v, pr


class _Context:
    """What a derivation has available: facts (ident, normal form, kind), rules, definitions."""

    def __init__(self, pr: _Printer) -> None:
        self.pr = pr
        self.facts: dict[str, tuple[str, Any, str]] = {}
        self.rules: list[str] = []
        self.vecdefs: list[str] = []
        self.exprs: list[Any] = []
        self.used: set[str] = set()

    def fresh(self, base: str) -> str:
        name, k = base, 1
        while name in self.used:
            k += 1
            name = f"{base}{k}"
        self.used.add(name)
        return name

    def add_hyp(self, name: str, ident: str, content: Any) -> None:
        self.used.add(ident)
        if isinstance(content, Fact):
            e, kind = _normal(content)
            self.facts[name] = (ident, e, kind)
            self.exprs += _exprs(content)
        elif isinstance(content, Rewrite):
            self.rules.append(ident)
            self.exprs += _exprs(content)
        elif isinstance(content, VectorDef):
            self.vecdefs.append(ident)
            self.exprs += _exprs(content)

    def add_fact(self, name: str, ident: str, fact: Fact) -> None:
        e, kind = _normal(fact)
        self.facts[name] = (ident, e, kind)
        self.exprs += _exprs(fact)

    def fact(self, name: str) -> tuple[str, Any, str]:
        if name not in self.facts:
            raise ExportError(f"no fact named {name!r}")
        return self.facts[name]

    def atoms(self, extra: Iterable[Any]) -> list[str]:
        """Every vector atom in sight, sorted the way the kernel sorts inner products."""
        sp = _sympy()
        found = set()
        for e in list(self.exprs) + list(extra):
            e = sp.S(e)
            labels = {i.base.label for i in e.atoms(sp.Indexed)}
            for a in e.atoms(sp.Symbol, sp.Indexed):
                if a not in labels and self.pr.is_vector_atom(a):
                    found.add(a)
        return [self.pr.atom(a) for a in sorted(found, key=sp.default_sort_key)]


def _orient(atoms: list[str]) -> str:
    out = []
    for i, a in enumerate(atoms):
        for b in atoms[i + 1:]:
            out.append(f"rewrite ?(dot_sym {b} {a})")
    return "; ".join(out)


def _product_proof(leaves: list[str], strict: bool) -> str:
    lemma = "Rmult_lt_0_compat" if strict else "Rmult_le_pos"
    if len(leaves) == 1:
        return leaves[0]
    return f"apply {lemma}; [{_product_proof(leaves[:-1], strict)} | {leaves[-1]}]"


def _identity_proof(ctx: _Context, atoms: list[str], uses_division: bool) -> str:
    parts = []
    if ctx.vecdefs:
        parts.append("repeat rewrite " + ", ".join(f"?{d}" for d in ctx.vecdefs))
    parts.append("ip_expand")
    orient = _orient(atoms)
    if orient:
        parts.append(orient)
    rules = f" [{' '.join(ctx.rules)}]" if ctx.rules else ""
    if uses_division:
        parts.append(f"field{rules}; nonzero")
    else:
        parts.append(f"first [ring{rules} | (field{rules}; nonzero)]")
    return "; ".join(parts)


def _link_proof(ctx: _Context, a: Any, link: Any, indent: str) -> list[str]:
    """Coq lines proving ``a link.rel link.expr`` from the link's certificate."""
    sp = _sympy()
    pr = ctx.pr
    b = sp.S(link.expr)
    cert = link.certificate
    rel = link.rel
    lo, hi = (b, sp.S(a)) if rel in (">=", ">") else (sp.S(a), b)
    strict = rel in ("<", ">")
    goal = f"{pr.scalar(a)} {rel} {pr.scalar(b)}"
    out = [f"{indent}assert ({ctx.fresh('step')} : {goal}).", f"{indent}{{"]
    ind = indent + "  "
    if rel == ">=":
        out.append(f"{ind}apply Rle_ge.")
    elif rel == ">":
        out.append(f"{ind}apply Rlt_gt.")
    divisors = [ctx.fact(n)[1] for n in cert.divisors]
    p_text = " * ".join(f"({pr.scalar(d)})" for d in divisors) if divisors else "1"
    p_proof = _product_proof(["lra"] * len(divisors), True) if divisors else "lra"
    lemma = {"=": "by_certificate_eq"}.get(rel, "by_certificate_lt" if strict else "by_certificate_le")
    # the certificate's terms and equality terms
    term_texts, term_lines, extra_exprs = [], [], []
    for term in cert.terms:
        coeff = sp.Rational(term.coeff) if not hasattr(term.coeff, "is_Rational") else term.coeff
        coeff = sp.nsimplify(coeff) if not getattr(coeff, "is_Rational", False) else coeff
        leaves_text = [pr.scalar(coeff)]
        leaf_proofs = ["lra"]
        all_strict = True
        for factor in term.factors:
            if isinstance(factor, str):
                ident, e, kind = ctx.fact(factor)
                all_strict &= kind == ">0"
                leaves_text.append(f"({pr.scalar(e)})")
                leaf_proofs.append("lra")
            elif isinstance(factor, Square):
                all_strict = False
                leaves_text.append(f"({pr.scalar(factor.expr)} ^ 2)")
                leaf_proofs.append("apply pow2_ge_0")
                extra_exprs.append(factor.expr)
            elif isinstance(factor, NormSq):
                all_strict = False
                vec = pr.vector(factor.vector)
                leaves_text.append(f"(dot {vec} {vec})")
                leaf_proofs.append("apply dot_nonneg")
                extra_exprs.append(factor.vector)
            else:
                raise ExportError(f"unknown certificate factor {factor!r}")
        text = " * ".join(leaves_text)
        use_strict = strict and all_strict and coeff > 0
        name = ctx.fresh("sign")
        rel_text = "<" if use_strict else "<="
        term_lines.append(f"{ind}assert ({name} : 0 {rel_text} {text}) by "
                          f"({_product_proof(leaf_proofs, use_strict)}).")
        term_texts.append(text)
    zero_lines = []
    for eq in cert.eq_terms:
        ident, e, kind = ctx.fact(eq.name)
        e_text = f"({pr.scalar(e)})"
        zname = ctx.fresh("zero")
        zero_lines.append((zname, f"{ind}assert ({zname} : {e_text} = 0) by lra."))
        term_texts.append(f"{pr.scalar(eq.multiplier)} * {e_text}")
        extra_exprs.append(eq.multiplier)
    total = " + ".join(term_texts) if term_texts else "0"
    lhs = f"({p_text}) * ({pr.scalar(hi)} - {pr.scalar(lo)})"
    uses_division = "Rinv" in lhs or "Rinv" in total
    atoms = ctx.atoms([a, b] + extra_exprs)
    heq = ctx.fresh("identity")
    out += term_lines
    out += [line for _, line in zero_lines]
    out.append(f"{ind}assert ({heq} : {lhs} = {total}) by ({_identity_proof(ctx, atoms, uses_division)}).")
    for zname, _ in zero_lines:
        out.append(f"{ind}rewrite {zname} in {heq}.")
    out.append(f"{ind}apply ({lemma} ({p_text})); [{p_proof} | lra].")
    out.append(f"{indent}}}")
    return out


def _chain_rel(chain: Chain) -> str:
    rels = {link.rel for link in chain.links}
    if rels == {"="}:
        return "="
    if rels & {"<=", "<"}:
        return "<" if "<" in rels else "<="
    return ">" if ">" in rels else ">="


def _lemma_use(ctx: _Context, use: LemmaUse, indent: str, exported: dict[str, Any]) -> tuple[Fact, list[str]]:
    sp = _sympy()
    thm = use.lemma.theorem
    sigma = dict(use.substitution)
    lemma_vars = _variables(thm)
    args = []
    for name, _ in _binders(lemma_vars):
        original = next((s for s in sigma if _ident(str(s)) == name), None)
        if original is None:
            args.append(name)
        elif str(original) in lemma_vars.vectors:
            args.append(ctx.pr.vector(sigma[original]))
        elif str(original) in lemma_vars.naturals:
            args.append(ctx.pr.index(sigma[original]))
        else:
            args.append(ctx.pr.scalar(sigma[original]))
    if not _binders(lemma_vars):
        args.append("tt")
    holes = len(thm.hyps) + (len(thm.family.hyps) if thm.family is not None else 0)
    n = len(thm.conclusions)
    k = use.conclusion
    space = " V IP" if thm.vectors else ""
    applied = f"(@{coq_name(thm.name)}{space} {' '.join(args)}{' ltac:(solve_hyp)' * holes})"
    term = "Hl"
    for _ in range(k):
        term = f"(proj2 {term})"
    if k < n - 1:
        term = f"(proj1 {term})"
    fact = _subst(thm.conclusions[k], sigma)
    ident = _fact_ident("L_", use.name)
    ctx.used.add(ident)
    lines = [f"{indent}assert ({ident} : {ctx.pr.fact(fact)}).",
             f"{indent}{{ pose proof {applied} as Hl. pose proof {term} as Hc. solve_goal. }}"]
    return fact, lines


def _derivation(ctx: _Context, derivation: Derivation, goals: list[Fact], indent: str,
                exported: dict[str, Any]) -> list[str]:
    out = []
    for line in derivation.lines:
        if isinstance(line, Chain):
            rel = _chain_rel(line)
            fact = Fact(line.start, rel, line.links[-1].expr)
            ident = _fact_ident("L_", line.name)
            ctx.used.add(ident)
            out.append(f"{indent}assert ({ident} : {ctx.pr.fact(fact)}).")
            out.append(f"{indent}{{")
            previous = line.start
            for link in line.links:
                out += _link_proof(ctx, previous, link, indent + "  ")
                previous = link.expr
            out.append(f"{indent}  lra.")
            out.append(f"{indent}}}")
            ctx.add_fact(line.name, ident, fact)
        elif isinstance(line, LemmaUse):
            fact, lines = _lemma_use(ctx, line, indent, exported)
            out += lines
            ctx.add_fact(line.name, _fact_ident("L_", line.name), fact)
        else:
            raise ExportError(f"unknown line {line!r}")
    if goals:
        out.append(f"{indent}repeat split.")
        for goal in goals:
            out.append(f"{indent}all: try rewrite ?S_INR; try change (INR 0) with 0.")
        out.append(f"{indent}all: solve_goal.")
    return out


def theorem_file(theorem: Any, lemma_files: Iterable[str] = ()) -> str:
    """The Coq text of one kernel theorem (``lemma_files``: the Coq modules it imports)."""
    sp = _sympy()
    statement, v, pr = _statement(theorem)
    imports = " ".join(lemma_files)
    lines = [
        f"(* Kernel theorem {theorem.name!r}: {theorem.title}.",
        "   Written by `pla proof --coq` from the kernel derivation (untrusted text);",
        "   Coq checks every step. *)",
        "From Coq Require Import Reals Lra Psatz Lia.",
        "From PLA Require Import InnerProduct" + (f" {imports}" if imports else "") + ".",
        "Open Scope R_scope.",
        "",
        "Section Statement.",
        "Context {V : Type} {IP : InnerProductSpace V}.",
        "",
        statement.text(),
        "Proof.",
    ]
    proof = theorem.proof
    binder_names = [n for n, _ in statement.binders]
    ground_names = [n for n, _ in statement.ground]
    family_names = [n for n, _ in statement.family]
    ctx = _Context(pr)
    ctx.used.update(binder_names)
    if isinstance(proof, Derivation):
        lines.append("  intros " + " ".join(binder_names + ground_names + family_names) + ".")
        for h, ident in zip(theorem.hyps, ground_names):
            ctx.add_hyp(h.name, ident, h.content)
        for n in sorted(v.naturals):
            ident = ctx.fresh(_fact_ident("N_", n))
            lines.append(f"  pose proof (natural_nonneg {_ident(n)}) as {ident}.")
            ctx.add_fact(f"{n}>=0", ident, Fact(sp.Symbol(n), ">=", 0))
        lines += _derivation(ctx, proof, list(theorem.conclusions), "  ", {})
    elif isinstance(proof, Induction):
        T, t = str(proof.variable), str(proof.index)
        tT, tt = _ident(T), _ident(t)
        lines.append("  intros " + " ".join(binder_names + ground_names) + ".")
        lines.append(f"  induction {tT} as [|{tt} IH]; intros " + " ".join(family_names) + ".")
        # base: P(0)
        base = _Context(pr)
        base.used.update(binder_names + ground_names + family_names + ["IH", tt])
        for h, ident in zip(theorem.hyps, ground_names):
            base.add_hyp(h.name, ident, h.content)
        others = sorted(n for n in v.naturals if n != T)
        lines.append("  - (* base case *)")
        for n in others:
            ident = base.fresh(_fact_ident("N_", n))
            lines.append(f"    pose proof (natural_nonneg {_ident(n)}) as {ident}.")
            base.add_fact(f"{n}>=0", ident, Fact(sp.Symbol(n), ">=", 0))
        zero = {proof.variable: 0}
        goals0 = [_subst(c, zero) for c in theorem.conclusions]
        lines += _derivation(base, proof.base, goals0, "    ", {})
        # step: P(t) -> P(t+1)
        step = _Context(pr)
        step.pr = _Printer(_Vars(vectors=v.vectors, naturals=v.naturals | {t},
                                 vector_families=v.vector_families,
                                 scalar_families=v.scalar_families, scalars=v.scalars))
        step.used.update(binder_names + ground_names + family_names + ["IH", tt])
        lines.append("  - (* induction step *)")
        for h, ident in zip(theorem.hyps, ground_names):
            step.add_hyp(h.name, ident, h.content)
        for n in others + [t]:
            ident = step.fresh(_fact_ident("N_", n))
            lines.append(f"    pose proof (natural_nonneg {_ident(n)}) as {ident}.")
            step.add_fact(f"{n}>=0", ident, Fact(sp.Symbol(n), ">=", 0))
        tsym, Tsym = proof.index, proof.variable   # the theorem's own symbols, assumptions and all
        if theorem.family is not None:
            fam_index = theorem.family.index
            for h, fident in zip(theorem.family.hyps, family_names):
                content = _subst(h.content, {fam_index: tsym})
                ident = step.fresh(_fact_ident("H_", h.name))
                lines.append(f"    assert ({ident} : {step.pr.hyp(content)}) by (apply {fident}; lia).")
                step.add_hyp(h.name, ident, content)
            premises = " ".join(f"ltac:(intros i Hi; apply {f}; lia)" for f in family_names)
            joined = " /\\ ".join(step.pr.fact(_subst(c, {Tsym: tsym}))
                                   for c in theorem.conclusions)
            # The printer may order a product differently after T := t (rho*t vs t*rho), so
            # the hypothesis is restated up to arithmetic rather than matched syntactically.
            lines.append(f"    assert (IHt : {joined}) by (pose proof (IH {premises}) as K; "
                         "repeat match goal with [ H : _ /\\ _ |- _ ] => destruct H end; "
                         "repeat split; first [lra | nra]).")
        else:
            lines.append(f"    pose proof IH as IHt.")
        names = ["IH"] if len(theorem.conclusions) == 1 else \
            [f"IH{k}" for k in range(1, len(theorem.conclusions) + 1)]
        idents = [_fact_ident("I_", n) for n in names]
        if len(idents) == 1:
            lines.append(f"    pose proof IHt as {idents[0]}.")
        else:
            pattern = idents[-1]
            for ident in reversed(idents[:-1]):
                pattern = f"[{ident} {pattern}]"
            lines.append(f"    destruct IHt as {pattern}.")
        for n, ident, c in zip(names, idents, theorem.conclusions):
            step.used.add(ident)
            step.add_fact(n, ident, _subst(c, {Tsym: tsym}))
        goals1 = [_subst(c, {Tsym: tsym + 1}) for c in theorem.conclusions]
        lines += _derivation(step, proof.step, goals1, "    ", {})
    else:
        raise ExportError(f"{theorem.name}: unknown proof kind")
    lines += ["Qed.", "", "End Statement.", "", f"Print Assumptions {statement.name}.", ""]
    return "\n".join(lines)


def export_theorems(directory: str, results: Iterable[Any] | None = None, *,
                    force: bool = False) -> list[str]:
    """Write the library, one file per built-in theorem and the Makefile into ``directory``;
    return the theorem files' names (``pla proof --coq DIR``; ``force``: replace files that
    ``pla`` did not write, see :func:`verify.coq.library.write_library`)."""
    from verify.coq.library import write_library

    files = theorem_file_texts(results)
    write_library(directory, files, force=force)
    return list(files)


def theorem_file_texts(results: Iterable[Any] | None = None) -> dict[str, str]:
    """The theorem files (name -> text) ``pla proof --coq DIR`` writes for ``results`` (default:
    every built-in theorem, checked by the kernel first); ``pla audit DIR`` compares with them."""
    from verify.proofs import check_builtin_proofs

    results = list(results) if results is not None else check_builtin_proofs()
    files: dict[str, str] = {}
    for r in results:
        if r.checked is None:
            raise ExportError(f"{r.name}: the kernel did not accept it ({r.error})")
        lemmas = sorted({coq_name(u.lemma.theorem.name) for u in _lemma_uses(r.theorem)})
        module = "Theorem_" + coq_name(r.name)
        files[module + ".v"] = theorem_file(r.theorem, ["Theorem_" + l for l in lemmas])
    return files


def _lemma_uses(theorem: Any) -> list[LemmaUse]:
    proof = theorem.proof
    derivations = [proof] if isinstance(proof, Derivation) else [proof.base, proof.step]
    return [line for d in derivations for line in d.lines if isinstance(line, LemmaUse)]
