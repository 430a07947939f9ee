"""The optional z3 cross-check (verify/search/smt.py, `pla proof --smt`): a second opinion, never the
authority.  Every built-in step is confirmed (or at worst unknown), a false step is refuted with a
real counterexample, and the translator refuses anything outside its whitelist."""

from __future__ import annotations

import argparse
import dataclasses as dc
import json
import subprocess
import sys
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings, strategies as st

from cli_runner import pla_cli
from verify.kernel import Chain, Derivation, Fact, Link, dot
from verify.proofs import check_builtin_proofs

z3 = pytest.importorskip("z3")  # the smt extra is part of `dev`; skip where it is missing
smt = pytest.importorskip("verify.search.smt")


@pytest.fixture(scope="module")
def kernel_results():
    return check_builtin_proofs()


@pytest.fixture(scope="module")
def builtin_checks(kernel_results):
    return {r.name: smt.smt_check_theorem(r.checked) for r in kernel_results}


def test_every_builtin_step_is_confirmed_or_unknown(kernel_results, builtin_checks,
                                                    record_property):
    counts = {name: check.counts() for name, check in builtin_checks.items()}
    record_property("smt_counts", json.dumps(counts))
    for r in kernel_results:
        check = builtin_checks[r.name]
        assert check.counts()["refuted"] == 0, [s for s in check.steps if s.status == "refuted"]
        assert check.hypotheses == "satisfiable", r.name  # nothing holds vacuously
        # z3 sees every kernel step (chain links and lemma lines) and one question per conclusion
        assert len(check.steps) >= r.checked.steps
    total = {k: sum(c[k] for c in counts.values()) for k in ("confirmed", "unknown", "refuted")}
    # today z3 confirms every one of them; an unknown would be allowed but is worth noticing
    assert total["refuted"] == 0 and total["confirmed"] >= 130, total


def test_the_norm_nonnegativity_of_inner_products_is_modelled_exactly():
    a, b = sympy.symbols("a b")
    positive = [Fact(dot(b, b), ">", 0).normal()]
    schwarz = Fact(dot(a, b) ** 2, "<=", dot(a, a) * dot(b, b)).normal()
    assert smt.check_implication(positive, schwarz, frozenset({"a", "b"})).status == "confirmed"
    too_strong = Fact(dot(a, b) ** 2, "<=", dot(a, a) * dot(b, b) / 2).normal()
    wrong = smt.check_implication(positive, too_strong, frozenset({"a", "b"}))
    assert wrong.status == "refuted"
    m = {name: Fraction(value) for name, value in wrong.model}
    gram = sympy.Matrix([[m["Dot(a, a)"], m["Dot(a, b)"]], [m["Dot(a, b)"], m["Dot(b, b)"]]])
    assert gram.is_positive_semidefinite  # a real pair of vectors, not just numbers
    assert m["Dot(a, b)"] ** 2 > m["Dot(a, a)"] * m["Dot(b, b)"] / 2


def _replace_link(theorem, line_name, index, **changes):
    lines = list(theorem.proof.lines)
    k = next(i for i, line in enumerate(lines) if getattr(line, "name", None) == line_name)
    links = list(lines[k].links)
    links[index] = dc.replace(links[index], **changes)
    lines[k] = dc.replace(lines[k], links=tuple(links))
    return dc.replace(theorem, proof=Derivation(tuple(lines)))


@pytest.mark.parametrize("line, index, changes", [
    ("grow", 3, {"rel": ">="}),  # norm-step: ||w_{t+1}||^2 ... >= ... instead of <=
])
def test_a_false_step_in_a_builtin_proof_is_refuted_with_a_model(kernel_results, line, index,
                                                                 changes):
    theorem = next(r.theorem for r in kernel_results if r.name == "norm-step")
    mutant = _replace_link(theorem, line, index, **changes)
    check = smt.check_theorem_steps(mutant)
    refuted = [s for s in check.steps if s.status == "refuted"]
    assert [s.where for s in refuted] == [f"line {line}, step {index + 1}"]
    model = dict(refuted[0].model)
    assert {"Dot(w[t], x[t])", "y[t]", "R"} <= set(model)
    # the model satisfies the step's hypotheses and violates the mutated step, exactly
    v = {k: Fraction(x) for k, x in model.items()}
    assert v["y[t]"] ** 2 == 1 and v["y[t]"] * v["Dot(w[t], x[t])"] <= 0
    assert v["Dot(x[t], x[t])"] <= v["R"] ** 2
    lhs = v["Dot(w[t], w[t])"] + 2 * v["y[t]"] * v["Dot(w[t], x[t])"] + v["Dot(x[t], x[t])"]
    assert not lhs >= v["Dot(w[t], w[t])"] + v["R"] ** 2


def test_a_false_step_in_a_small_theorem_is_refuted():
    a, b = sympy.symbols("a b", real=True)
    from verify.kernel import Hyp, Theorem

    thm = Theorem("demo", "demo", (), (), (Hyp("ha", Fact(a, ">=", 0)),),
                  (Fact(a * b, ">=", 0),),
                  Derivation((Chain("c", a * b, (Link(">=", 0),)),)))
    check = smt.check_theorem_steps(thm)
    # the step is refuted; the conclusion follows from the (wrongly) derived fact, as it should
    assert [s.status for s in check.steps] == ["refuted", "confirmed"]
    v = {k: Fraction(x) for k, x in check.steps[0].model}
    assert v["a"] >= 0 and v["a"] * v["b"] < 0


def test_a_step_outside_the_whitelist_is_unknown_not_a_crash():
    a = sympy.Symbol("a", positive=True)
    from verify.kernel import Hyp, Theorem

    thm = Theorem("roots", "roots", (), (), (Hyp("p", Fact(a, ">", 0)),),
                  (Fact(sympy.sqrt(a) ** 3, ">=", 0),),
                  Derivation((Chain("c", sympy.sqrt(a) ** 3, (Link(">=", 0),)),)))
    check = smt.check_theorem_steps(thm)
    assert check.steps[0].status == "unknown" and "not translated" in check.steps[0].reason


def test_contradictory_hypotheses_are_reported():
    a = sympy.Symbol("a")
    from verify.kernel import Hyp, Theorem

    thm = Theorem("vacuous", "vacuous", (), (),
                  (Hyp("p", Fact(a, ">", 0)), Hyp("n", Fact(a, "<", 0))), (Fact(a, "=", 7),),
                  Derivation((Chain("c", a, (Link("=", 7),)),)))
    check = smt.check_theorem_steps(thm)
    assert check.hypotheses == "contradictory"
    assert {s.status for s in check.steps} == {"confirmed"}  # vacuously: hence the report


@pytest.mark.parametrize("make", [
    lambda a, b: sympy.sqrt(a),
    lambda a, b: a ** sympy.Rational(1, 3),
    lambda a, b: 1 / a,
    lambda a, b: a ** 17,
    lambda a, b: sympy.Abs(a),
    lambda a, b: sympy.sin(a),
    lambda a, b: sympy.Float(0.5) * a,
    lambda a, b: sympy.pi * a,
    lambda a, b: sympy.Max(a, b),
    lambda a, b: sympy.Piecewise((a, b > 0), (b, True)),
    lambda a, b: sympy.IndexedBase("y")[a],
    lambda a, b: dot(a, b),
    lambda a, b: sympy.Eq(a, b),
    lambda a, b: "a + b",
    lambda a, b: 3,
])
def test_the_translator_refuses_anything_outside_its_whitelist(make):
    a, b = sympy.symbols("a b")
    with pytest.raises(smt.SmtTranslationError):
        smt.to_z3(make(a, b), {})


def test_the_translator_keeps_numbers_exact():
    a = sympy.Symbol("a")
    term = smt.to_z3(sympy.Rational(10**30 + 1, 3) * a ** 2 - 7, {})
    solver = z3.Solver()
    za = z3.Real("a")
    solver.add(term != (z3.Q(10**30 + 1, 3) * za * za - 7))
    assert solver.check() == z3.unsat


_coefficient = st.integers(-3, 3)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(_coefficient, _coefficient, _coefficient), min_size=1, max_size=3),
       st.tuples(_coefficient, _coefficient, _coefficient, _coefficient))
def test_verdicts_agree_with_exact_evaluation(hyps, goal):
    """Hypotheses c0 + c1 a + c2 b >= 0, goal g0 + g1 a + g2 b + g3 a b >= 0: a refutation's
    model satisfies the hypotheses and violates the goal; a confirmation survives a grid."""
    a, b = sympy.symbols("a b")
    facts = [Fact(c0 + c1 * a + c2 * b, ">=", 0) for c0, c1, c2 in hyps]
    g0, g1, g2, g3 = goal
    target = g0 + g1 * a + g2 * b + g3 * a * b
    check = smt.check_implication([f.normal() for f in facts], Fact(target, ">=", 0).normal())
    if check.status == "refuted":
        point = {sympy.Symbol(k): sympy.Rational(Fraction(v)) for k, v in check.model}
        point = {s: point.get(s, 0) for s in (a, b)}
        assert all(f.lhs.subs(point) >= 0 for f in facts)
        assert target.subs(point) < 0
    elif check.status == "confirmed":
        grid = [sympy.Rational(n, 2) for n in range(-8, 9)]
        for x in grid:
            for y in grid:
                point = {a: x, b: y}
                if all(f.lhs.subs(point) >= 0 for f in facts):
                    assert target.subs(point) >= 0


def test_pla_proof_smt_adds_a_column_and_json_fields():
    done = pla_cli("proof", "cauchy-schwarz", "margins", "--smt")
    assert done.code == 0, done.err
    header, *rows = done.out.splitlines()
    assert header.split()[-1] == "z3"
    assert any(row.startswith("margins") and row.endswith("7/7") for row in rows)
    assert "z3: 9 of 9 steps confirmed, 0 unknown, 0 refuted" in done.out
    data = json.loads(pla_cli("proof", "margins", "--smt", "--json").out)
    (theorem,) = data["theorems"]
    assert theorem["smt"]["confirmed"] == theorem["smt"]["steps"] == 7
    assert theorem["smt"]["disagreements"] == [] and theorem["smt"]["hypotheses"] == "satisfiable"
    assert data["smt"] == {"steps": 7, "confirmed": 7, "unknown": 0, "refuted": 0}
    assert "smt" not in json.loads(pla_cli("proof", "margins", "--json").out)


def test_pla_proof_smt_options_are_validated():
    assert pla_cli("proof", "--smt-timeout", "100").code == 2
    bad = pla_cli("proof", "margins", "--smt", "--smt-timeout", "0")
    assert bad.code == 2 and bad.err.startswith("pla: error: --smt-timeout")


def test_pla_proof_smt_without_z3_exits_2_with_one_line():
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['z3'] = None\n"
         "from verify.cli import main; sys.exit(main())", "proof", "--smt"],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert line.startswith("pla: error: --smt") and "pla-verify[smt]" in line


def test_a_z3_disagreement_fails_loudly(monkeypatch, capsys):
    from verify.cli import proof as proof_command

    def disagreeing(checked, timeout_ms=smt.DEFAULT_TIMEOUT_MS):
        step = smt.StepCheck("line cs, step 1", "Dot(a, b)**2 <= Dot(a, a)*Dot(b, b)",
                             "refuted", (("Dot(a, b)", "2"),))
        return smt.TheoremCheck(checked.theorem.name, (step,), 0.0)

    monkeypatch.setattr(smt, "smt_check_theorem", disagreeing)
    args = argparse.Namespace(names=["cauchy-schwarz"], json=False, out=None, smt=True,
                              smt_timeout=None)
    assert proof_command.handle(args) == 1
    out = capsys.readouterr().out
    assert "z3 REFUTES line cs, step 1" in out and "Dot(a, b) = 2" in out
    assert "z3 DISAGREES with the kernel" in out


def test_importing_the_module_imports_neither_z3_nor_sympy():
    code = "import sys, verify.search.smt; print('z3' in sys.modules, 'sympy' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert proc.stdout.split() == ["False", "False"]
