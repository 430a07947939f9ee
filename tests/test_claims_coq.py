"""Coq checks every proved claim a second time (issue 24): the statement is printed from the
parser's tree, the proof is checked by coqc, a refusal fails the run, and the site's own claims
all pass."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy  # noqa: F401  (pytester runs in process: import the C extensions once)
import pytest
import scipy.optimize  # noqa: F401
import sympy  # noqa: F401
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cli_runner import pla_cli
from verify.claims import check_markdown_files, check_markdown_text
from verify.claims.parser import parse_claim
from verify.coq.claim_files import (_AXIOM, ClaimProof, REAL_NUMBER_AXIOMS, check_claim_files,
                                    check_proved_claims, coq_statement, write_claim_files)

pytest_plugins = ["pytester"]
DOCS = Path(__file__).resolve().parent.parent / "docs"


def _coqc() -> None:
    if shutil.which("coqc") is None:
        pytest.fail("coqc is not installed, so the Coq checks cannot run: `make coq` installs "
                    "Debian's coq (apt-get install coq); the Coq tests never skip")


def test_statements_are_printed_from_the_parse_tree_with_domains_sums_and_vectors():
    assert coq_statement(parse_claim("assume: x > 0\nx + 1/x >= 2"), "c") == \
        "Theorem c : forall (x : R), x > 0 -> (x <> 0) /\\ ((x + (1 / x)) >= 2)."
    assert coq_statement(parse_claim("assume: n >= 1, n integer\nSum(k, (k, 1, n)) == n*(n + 1)/2"),
                         "c") == (
        "Theorem c : forall (n : R), n >= 1 -> (exists z' : Z, n = IZR z') -> forall T : nat, "
        "INR T = n - 1 + 1 -> (psum (fun k : R => k) 1 T) = ((n * (n + 1)) / 2).")
    assert coq_statement(parse_claim("vectors: u, v\ndot(u + v, u + v) >= 0"), "c") == \
        "Theorem c : forall (u v : V), (dot (vadd u v) (vadd u v)) >= 0."
    assert "(1 / 10)" in coq_statement(parse_claim("0.1 + 0.2 == 0.3"), "c")


#: Issue 25's claims proved by squaring, antisymmetry and a case split, as docs/standard-facts.md
#: states them: coqc checks them among the site's claims (the site test below asserts they are
#: there), so the issue-25 test does not compile them a second time.
SQUARES_ANTISYMMETRY_CASE_SPLITS_ON_THE_SITE = [
    "Abs(a + b) <= Abs(a) + Abs(b)", "sqrt(4) == 2", "sqrt(x**2) == Abs(x)",
    "Abs(x)*y <= Abs(x*y)", "assume: x > 0\n1/sqrt(x) == sqrt(x)/x",
    "assume: a >= 0, b >= 0\nsqrt(a + b) <= sqrt(a) + sqrt(b)"]


def _statement(claim) -> tuple:
    return claim.assumptions, claim.goals


def test_the_sites_claims_are_all_checked_by_coq(tmp_path):
    _coqc()
    found = check_markdown_files(sorted(DOCS.glob("*.md")))
    proved = [c for c in found if c.verdict.status == "proved"]
    assert len(found) >= 41 and len(proved) >= 35
    statements = {_statement(c.verdict.claim) for c in proved}
    for text in SQUARES_ANTISYMMETRY_CASE_SPLITS_ON_THE_SITE:
        assert _statement(parse_claim(text)) in statements, \
            f"{text!r} is no longer a proved claim of the site: check it in the issue-25 test"
    written = write_claim_files(str(tmp_path), [ClaimProof(c.location, c.verdict.claim,
                                                           c.verdict.certificate or "")
                                                for c in proved])
    assert len(written) == len(proved)
    _coqc_accepts_each_file(tmp_path, written)


#: A claim file as pla writes it: its comment, the common header, then one section holding one
#: theorem (its proof indented) and the theorem's ``Print Assumptions``.
_ONE_THEOREM = re.compile(
    r"\(\*[^\n]*\*\)\n(?P<header>From Coq Require Import Reals Lra Psatz\.\n"
    r"From PLA Require Import InnerProduct Claims\.\nOpen Scope R_scope\.\n)"
    r"(?P<section>\nSection Claim\.\nContext \{V : Type\} \{IP : InnerProductSpace V\}\.\n\n"
    r"Theorem claim_\d+ : [^\n]*\nProof\.\n(?:  [^\n]*\n)+Qed\.\n\nEnd Claim\.\n\n"
    r"Print Assumptions claim_\d+\.\n)")


def _coqc_accepts_each_file(directory: Path, written: dict[str, ClaimProof]) -> None:
    """Coq accepts each claim file pla wrote, resting on the axioms of the reals only.

    Loading Reals and the prelude is half of a claim file's ~1.5 s and the site has over 100,
    so the files of :data:`_ONE_THEOREM`'s form go through one coqc run a core: the header
    once, then each file's section and ``Print Assumptions`` in a module of its own (nothing
    but the theorem leaves a section, so no file's proof can lean on another's).  Any other
    file goes through ``make`` alone.  On a refusal, the per-file run of ``pla claims --coq``
    (:func:`check_claim_files`) names the refused claims."""
    matches = {name: _ONE_THEOREM.fullmatch((directory / name).read_text())
               for name in written}
    together = {name: m for name, m in matches.items() if m is not None}
    headers = {m.group("header") for m in together.values()}
    assert len(headers) <= 1, headers
    cores = max(1, len(os.sched_getaffinity(0)))  # one coqc a core, as make -jN would run
    runs = [f"All_claims_{k}.v" for k in range(min(cores, len(together)))]
    for k, run in enumerate(runs):
        (directory / run).write_text("".join(headers) + "".join(
            f"\nModule File_{name[:-2]}.\n{m.group('section')}End File_{name[:-2]}.\n"
            for name, m in list(together.items())[k::len(runs)]))
    alone = [name[:-2] + ".vo" for name in written if name not in together]
    prelude = subprocess.run(["make", "-s", "-C", str(directory), "InnerProduct.vo",
                              "Claims.vo", *alone], capture_output=True, text=True, timeout=3600)
    coqcs = [subprocess.Popen(["coqc", "-q", "-R", ".", "PLA", run], cwd=directory, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for run in runs]
    said = [coqc.communicate(timeout=3600) for coqc in coqcs]
    output = prelude.stdout + "".join(out for out, _ in said)
    if prelude.returncode != 0 or any(coqc.returncode != 0 for coqc in coqcs):
        for run in runs:
            (directory / run).unlink()
        pytest.fail("\n".join(check_claim_files(str(directory), written)) or
                    (prelude.stderr + output + "".join(err for _, err in said))[-2000:])
    assert output.count("Closed under the global context") + output.count("Axioms:") \
        == len(written), output[-2000:]
    assert set(_AXIOM.findall(output)) <= REAL_NUMBER_AXIOMS, output[-2000:]


def test_a_claim_coq_refuses_fails_naming_it_and_the_axioms_are_those_of_the_reals(tmp_path):
    _coqc()
    lying = ClaimProof("notes.md:3", parse_claim("x**2 >= x"), "x**2 - (x) = 1*(x)**2")
    honest = ClaimProof("notes.md:9", parse_claim("x**2 + 1 > 0"), "")
    written = write_claim_files(str(tmp_path), [lying, honest])
    refused = check_claim_files(str(tmp_path), written)
    assert len(refused) == 1 and refused[0].startswith("notes.md:3: proved by the kernel but "
                                                       "refused by Coq (Claim_1.v")
    log = subprocess.run(["make", "-C", str(tmp_path)], capture_output=True, text=True).stdout
    axioms = set(re.findall(r"^([A-Za-z_][\w.]*\.[\w]+)\s*:", log, re.MULTILINE))
    assert axioms <= REAL_NUMBER_AXIOMS


def test_pla_claims_coq_exit_codes(tmp_path):
    _coqc()
    page = tmp_path / "notes.md"
    page.write_text("```claim\nassume: x >= 0\nx**3 - 3*x + 2 >= 0\n```\n")
    done = pla_cli("claims", str(page), "--coq", str(tmp_path / "coq"))
    assert done.code == 0 and "Coq checked all 1 proved claims" in done.out, done.err
    assert (tmp_path / "coq" / "Makefile").exists()
    assert subprocess.run(["make", "-C", str(tmp_path / "coq")]).returncode == 0


def test_pytest_claims_coq_option(pytester, tmp_path):
    _coqc()
    pytester.makefile(".md", notes="```claim\nassume: a > 0, b > 0\na/b + b/a >= 2\n```\n")
    result = pytester.runpytest("notes.md", "--claims-coq", str(tmp_path / "coq"))
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*Coq checked every proved claim*"])
    assert (tmp_path / "coq" / "Claim_1.vo").exists()


_TERMS = st.sampled_from(["x**2", "(x - y)**2", "x*y", "y**2", "2*x", "(x + 1)**2", "Abs(x)",
                          "sqrt(x**2 + 1)", "1"])
#: True sums whose index or bound collides with names the Coq file or the induction uses.
_SUMS = st.sampled_from([
    "assume: n >= 0, n integer\nSum(2*t_ - 1, (t_, 1, n)) == n**2",
    "assume: T >= 1, T integer\nSum(t, (t, 1, T)) <= T**2",
    "assume: n >= 0, n integer, t >= 0\nSum(k + t, (k, 1, n)) == n*(n + 1)/2 + n*t",
    "assume: n >= 0, n integer\nSum(k**3, (k, 1, n)) == n**2*(n + 1)**2/4",
])
_PLACES = [lambda body: f"```claim\n{body}\n```",
           lambda body: "\n".join("> " + line for line in f"```claim\n{body}\n```".split("\n")),
           lambda body: "- item\n\n" + "\n".join("  " + line
                                                  for line in f"```claim\n{body}\n```".split("\n"))]


@st.composite
def claims(draw):
    """A small claim: a sum of generated terms compared with 0 or with one term, sometimes
    with an assumption, a whole-line comment or a name that needs renaming in Coq; or a true
    symbolic sum whose names collide with the induction's."""
    if draw(st.booleans()):
        return draw(_SUMS)
    terms = draw(st.lists(_TERMS, min_size=1, max_size=3))
    name = draw(st.sampled_from(["x", "T", "R", "fun", "IH"]))
    left = " + ".join(terms).replace("x", name)
    op = draw(st.sampled_from([">=", "<=", ">"]))
    right = draw(st.sampled_from(["0", "-1", "x*y"])).replace("x", name)
    head = draw(st.sampled_from(["", "# a comment\n", "assume: y >= 0\n"]))
    return f"{head}{left} {op} {right}"


@st.composite
def documents(draw):
    """Markdown with the generated claims at the top level, in blockquotes and in lists."""
    bodies = draw(st.lists(claims(), min_size=6, max_size=8))
    return "\n\nText.\n\n".join(draw(st.sampled_from(_PLACES))(b) for b in bodies) + "\n"


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_every_generated_proved_claim_is_accepted_by_coq(tmp_path_factory, text):
    _coqc()
    found = check_markdown_text(text, "gen.md")
    assert all(c.block.error == "" for c in found) and len(found) >= 6
    directory = tmp_path_factory.mktemp("coq")
    assert check_proved_claims(((c.location, c.verdict) for c in found), str(directory)) == []


def test_the_mkdocs_plugin_accepts_coq_and_checks_the_sites_proved_claims(tmp_path):
    _coqc()
    import sys

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("> ```claim\n> assume: x >= 0\n"
                                                "> x**3 - 3*x + 2 >= 0\n> ```\n")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - pla-claims:\n"
                                         "      coq: coq-claims\n")
    mkdocs = Path(sys.executable).with_name("mkdocs")
    result = subprocess.run([str(mkdocs), "build", "--strict"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "coq-claims" / "Claim_1.vo").exists()


def test_the_statements_shown_in_the_docs_are_the_printers():
    page = (DOCS / "claims.md").read_text()
    rows = re.findall(r"^\| `(.+?)` \| `(forall .+?)` \|$", page, re.MULTILINE)
    assert len(rows) == 4
    for claim, statement in rows:
        text = claim.replace("` / `", "\n")
        assert coq_statement(parse_claim(text), "c") == f"Theorem c : {statement}."


def test_symbolic_powers_and_geometric_sums_are_checked_by_coq(tmp_path):
    """Issue 25: x**n is x ^ (T + m) with INR T = n - m, a power of a sum's index is ipow; coqc
    accepts Bernoulli, 2**n >= n**2 and the geometric sum (r != 1)."""
    _coqc()
    page = tmp_path / "powers.md"
    page.write_text("```claim\nassume: n >= 0, n integer, x >= -1\n(1 + x)**n >= 1 + n*x\n```\n\n"
                    "```claim\nassume: n >= 4, n integer\n2**n >= n**2\n```\n\n"
                    "```claim\nassume: n >= 0, n integer, r != 1\n"
                    "Sum(r**k, (k, 0, n)) == (1 - r**(n + 1))/(1 - r)\n```\n")
    found = check_markdown_files([page])
    assert [c.verdict.status for c in found] == ["proved"] * 3
    assert check_proved_claims(((c.location, c.verdict) for c in found),
                               str(tmp_path / "coq")) == []


def test_claims_proved_by_squares_antisymmetry_and_case_splits_are_accepted_by_coq(tmp_path):
    """Issue 25: the triangle inequality (squaring), sqrt(4) == 2 and sqrt(x**2) == |x|
    (antisymmetry), |x|*y <= |x*y| (a case split) and 1/sqrt(x) (sqrt(x) > 0 by squaring)
    are checked again by coqc (its Rabs cases and the sqrt lemmas): those on the site
    (:data:`SQUARES_ANTISYMMETRY_CASE_SPLITS_ON_THE_SITE`) by the site test, the others here."""
    _coqc()
    from verify.claims import check_claim_text

    texts = [
        # drawn by the generated-claims test in CI: nra needs (x - y)^2 >= 0 stated
        "assume: y >= 0\nAbs(x) + (x - y)**2 + x*y >= x*y"]
    verdicts = [(f"facts.md:{i}", check_claim_text(t)) for i, t in enumerate(texts, 1)]
    assert [v.status for _, v in verdicts] == ["proved"] * len(texts)
    assert check_proved_claims(verdicts, str(tmp_path)) == []
    assert len(list(tmp_path.glob("Claim_*.vo"))) == len(texts)


def test_the_norm_facts_are_accepted_by_coq(tmp_path):
    """Issue 25: Cauchy-Schwarz without a hypothesis, |dot(u, v)| <= norm(u)*norm(v) and the
    vector triangle inequality: Claims.v proves Cauchy-Schwarz once (by the kernel's case
    split on dot v v) and each claim file poses it for its pair of vectors."""
    _coqc()
    from verify.claims import check_claim_text

    texts = ["vectors: u, v\ndot(u, v)**2 <= dot(u, u)*dot(v, v)",
             "vectors: u, v\nnorm(u + v) <= norm(u) + norm(v)",
             "vectors: u, v\nAbs(dot(u, v)) <= norm(u)*norm(v)"]
    verdicts = [(f"norms.md:{i}", check_claim_text(t)) for i, t in enumerate(texts, 1)]
    assert [v.status for _, v in verdicts] == ["proved"] * len(texts)
    assert check_proved_claims(verdicts, str(tmp_path)) == []
    script = (tmp_path / "Claim_2.v").read_text()
    assert "pose proof (cauchy_schwarz u v)." in script
    assert "destruct (norms_above_dot u v)." in script


def test_an_equality_whose_denominator_is_only_assumed_nonzero_is_accepted_by_coq(tmp_path):
    """Issue 25: the geometric closed form with only r != 1 (the kernel's cleared numerator):
    Coq is told 1 - r <> 0, not a sign read at one point, and clears it with its square."""
    _coqc()
    from verify.claims import check_claim_text

    texts = ["assume: r != 1\n1 + r + r**2 + r**3 == (1 - r**4)/(1 - r)",
             "assume: x != 0, x*y == 1\ny == 1/x"]
    verdicts = [(f"facts.md:{i}", check_claim_text(t)) for i, t in enumerate(texts, 1)]
    assert [v.status for _, v in verdicts] == ["proved"] * len(texts)
    assert check_proved_claims(verdicts, str(tmp_path)) == []
    assert "(1 - r) <> 0) by claim_close" in (tmp_path / "Claim_1.v").read_text()
