"""Mutation check: every mutant of every step of every built-in proof is rejected by the kernel.

Mutation operators (per chain link): flip the relation (<= <-> >=, < <-> >), perturb a
certificate coefficient (c -> c + 1), perturb the step's expression (e -> e + 1), shift the index
(t -> t + 1, or T -> T + 1 where t does not occur); per lemma use: shift the substitution of the
index; per theorem: drop each hypothesis (and each per-step hypothesis) in turn.
"""

from __future__ import annotations

import dataclasses as dc

import pytest

from verify.kernel import (Chain, Derivation, Induction, KernelError, LemmaUse, Link, Term,
                           check_theorem)
from verify.proofs import check_builtin_proofs
from verify.proofs.symbols import proof_symbols

#: Mutants that the kernel accepts, with the reason they are not errors. Empty: every mutant dies.
EXPLAINED_SURVIVORS: dict[str, str] = {}


def _with_lines(theorem, part, lines):
    proof = theorem.proof
    if isinstance(proof, Induction):
        return dc.replace(theorem, proof=dc.replace(proof, **{part: Derivation(tuple(lines))}))
    return dc.replace(theorem, proof=Derivation(tuple(lines)))


def _shift(expr):
    s = proof_symbols()
    expr = s.sp.S(expr)
    for index in (s.t, s.T):
        if expr.has(index):
            return expr.xreplace({index: index + 1})
    return None


def _link_mutants(link):
    flips = {"<=": ">=", ">=": "<=", "<": ">", ">": "<"}
    if link.rel in flips:
        yield "flip", dc.replace(link, rel=flips[link.rel])
    terms = link.certificate.terms
    if terms:
        bumped = (dc.replace(terms[0], coeff=terms[0].coeff + 1),) + terms[1:]
        yield "coefficient", dc.replace(link, certificate=dc.replace(link.certificate,
                                                                      terms=bumped))
    yield "perturb", dc.replace(link, expr=proof_symbols().sp.S(link.expr) + 1)
    shifted = _shift(link.expr)
    if shifted is not None:
        yield "shift", dc.replace(link, expr=shifted)


def _mutants(theorem):
    proof = theorem.proof
    parts = [("base", proof.base), ("step", proof.step)] if isinstance(proof, Induction) \
        else [("lines", proof)]
    for part, derivation in parts:
        lines = list(derivation.lines)
        for i, line in enumerate(lines):
            if isinstance(line, Chain):
                for j, link in enumerate(line.links):
                    for kind, mutant in _link_mutants(link):
                        links = list(line.links)
                        links[j] = mutant
                        new = lines.copy()
                        new[i] = dc.replace(line, links=tuple(links))
                        yield f"{part}:{line.name}:{j + 1}:{kind}", _with_lines(theorem, part, new)
            elif isinstance(line, LemmaUse):
                s = proof_symbols()
                sigma = dict(line.substitution)
                free = set().union(*(s.sp.S(c.lhs - c.rhs).free_symbols
                                     for c in line.lemma.theorem.conclusions))
                for index in (s.t, s.T):
                    if index not in free:
                        continue  # substituting a symbol the lemma does not use changes nothing
                    shifted = {**sigma, index: s.sp.S(sigma.get(index, index)) + 1}
                    new = lines.copy()
                    new[i] = dc.replace(line, substitution=tuple(shifted.items()))
                    yield f"{part}:{line.name}:shift-{index}", _with_lines(theorem, part, new)
    for k, hyp in enumerate(theorem.hyps):
        yield f"drop:{hyp.name}", dc.replace(theorem, hyps=theorem.hyps[:k] + theorem.hyps[k + 1:])
    if theorem.family is not None:
        fam = theorem.family
        for k, hyp in enumerate(fam.hyps):
            yield f"drop-step:{hyp.name}", dc.replace(
                theorem, family=dc.replace(fam, hyps=fam.hyps[:k] + fam.hyps[k + 1:]))


def test_kernel_rejects_every_mutant_of_every_builtin_step():
    results = check_builtin_proofs()
    assert all(r.checked is not None for r in results)
    killed, survivors = 0, []
    for r in results:
        for label, mutant in _mutants(r.theorem):
            try:
                check_theorem(mutant)
            except KernelError:
                killed += 1
            else:
                survivors.append(f"{r.name}/{label}")
    total = killed + len(survivors)
    print(f"mutation score: {killed}/{total} killed")
    unexplained = [s for s in survivors if s not in EXPLAINED_SURVIVORS]
    assert not unexplained, f"surviving mutants: {unexplained}"
    assert total > 300  # the operators really ran over all theorems


def test_mutation_operators_change_the_theorem():
    r = check_builtin_proofs(("norm-step",))[0]
    mutants = list(_mutants(r.theorem))
    assert {label.split(":")[-1] for label, _ in mutants} >= {"flip", "coefficient", "perturb",
                                                              "shift"}
    assert all(m != r.theorem for _, m in mutants)
