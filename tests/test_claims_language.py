"""The claim language of issue 14: fences, constants, relations, rational functions, vectors,
dependencies, expectations and the search limit."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from tests.cli_runner import pla_cli
from verify.claims import check_claim_text, check_markdown_files, find_claim_blocks
from verify.claims.fences import names_claim


@pytest.mark.parametrize("opening, closing", [
    ("```claim", "```"), ("``` claim", "```"), ("```{.claim}", "```"),
    ("```{ .claim #c1 }", "```"), ('```claim title="x"', "```"), ("~~~claim", "~~~"),
    ("````claim", "````"), ("    ```claim", "    ```"), ("\t```claim", "\t```"),
])
def test_every_fence_syntax_is_found(opening, closing):
    indent = opening[: len(opening) - len(opening.lstrip())]
    text = f"para\n\n{opening}\n{indent}x**2 >= x\n{closing}\n"
    blocks = find_claim_blocks(text)
    assert [(b.line, b.body) for b in blocks] == [(3, "x**2 >= x")]


def test_claims_in_admonitions_lists_and_tabs_are_found():
    text = ('!!! note\n    ```claim\n    a >= a\n    ```\n\n- item\n\n    ```{.claim}\n'
            '    b >= b\n    ```\n\n=== "Tab"\n\n    ~~~claim\n    c >= c\n    ~~~\n')
    assert [b.body for b in find_claim_blocks(text)] == ["a >= a", "b >= b", "c >= c"]


@pytest.mark.parametrize("info", ["claims", "python", "{.claimx}", "text claim", "{.proof}"])
def test_other_info_strings_are_not_claims(info):
    assert not names_claim(info)


def test_an_unclosed_claim_fence_is_an_error_not_a_skip():
    (block,) = find_claim_blocks("x\n```claim\na >= a\n")
    assert "never closed" in block.error
    assert check_markdown_files.__doc__  # the error reaches the verdict below


def test_a_false_claim_in_any_syntax_fails_pla_claims(tmp_path):
    for opening, closing in (("```{.claim}", "```"), ('```claim title="t"', "```"),
                             ("~~~claim", "~~~"), ("    ```claim", "    ```")):
        page = tmp_path / "p.md"
        indent = opening[: len(opening) - len(opening.lstrip())]
        page.write_text(f"- item\n\n{opening}\n{indent}x**2 >= x\n{closing}\n")
        result = pla_cli("claims", str(page))
        assert result.code == 1 and "refuted" in result.out, (opening, result)


@pytest.mark.parametrize("text, status", [
    ("2**64 > 10**19", "proved"), ("2**64 < 10**19", "refuted"),
    ("sqrt(2) < 1.4143", "proved"), ("sqrt(2) > 1.4143", "refuted"),
    ("sqrt(2) > 1.4142", "proved"), ("sqrt(2) < 1.4142", "refuted"),
    ("3*sqrt(2) >= 4", "proved"), ("1/3 + 1/6 == 0.5", "proved"), ("1/3 != 0.333", "proved"),
])
def test_constants_are_decided_exactly(text, status):
    assert check_claim_text(text).status == status


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 50), st.integers(1, 400), st.integers(1, 400))
def test_square_roots_of_constants_agree_with_exact_squares(q, num, den):
    """sqrt(q) < num/den is proved iff q*den**2 < num**2, refuted otherwise."""
    c = Fraction(num, den)
    verdict = check_claim_text(f"sqrt({q}) < {num}/{den}")
    assert verdict.status == ("proved" if q < c * c else "refuted")


@pytest.mark.parametrize("text, status", [
    ("assume: a > 0, b > 0\n1/a + 1/b >= 4/(a + b)", "proved"),
    ("assume: a > 0, b > 0\na/b + b/a >= 2", "proved"),
    ("assume: x >= 0\nx**3 - 3*x + 2 >= 0", "proved"),
    ("x**3 - 3*x + 2 >= 0", "refuted"),
    ("assume: x < 0\nx + 1/x <= -2", "proved"),
    ("assume: x >= 0\n1/x >= 0", "refuted"),
    ("x ≥ x", "proved"), ("x ≠ x + 1", "proved"), ("x != 1", "refuted"),
    ("0 <= x**2 <= x**2 + 1", "proved"),
])
def test_relations_and_rational_functions(text, status):
    assert check_claim_text(text).status == status


@pytest.mark.parametrize("text, status", [
    ("vectors: w, x\nassume: y**2 == 1, y*dot(w, x) <= 0\n"
     "dot(w + y*x, w + y*x) <= dot(w, w) + dot(x, x)", "proved"),
    ("vectors: w, x\nassume: y**2 == 1, y*dot(w, x) <= 0\n"
     "norm(w + y*x)**2 <= norm(w)**2 + norm(x)**2", "proved"),
    ("vectors: w, x\ndot(w + x, w + x) <= dot(w, w) + dot(x, x)", "refuted"),
    ("vectors: u, v\ndot(u + v, u + v) <= 2*dot(u, u) + 2*dot(v, v)", "proved"),
    ("vectors: u\ndot(u, u) >= 0", "proved"),
    ("vectors: u, v\nassume: dot(v, v) > 0\ndot(u, v)**2 <= dot(u, u)*dot(v, v)", "proved"),
    ("vectors: u, v\nassume: dot(v, v) > 0\ndot(u, v)**2 <= dot(u, u)*dot(v, v)/2", "refuted"),
    ("vectors: u\nnorm(u) >= 0", "proved"),
    ("vectors: u\nnorm(u) > 0", "refuted"),
    ("vectors: w\nw >= 0", "invalid"),
    ("vectors: w, x\ndot(w*x, w) >= 0", "invalid"),
    ("vectors: w\ndot(w + 1, w) >= 0", "invalid"),
])
def test_vectors(text, status):
    assert check_claim_text(text).status == status


def test_a_vector_counterexample_is_exact_small_and_integer():
    verdict = check_claim_text("vectors: u, v\ndot(u, v) <= dot(u, u)")
    assert verdict.status == "refuted"
    u, v = verdict.counterexample["u"], verdict.counterexample["v"]
    assert 1 <= len(u) == len(v) <= 3
    assert all(c.denominator == 1 and abs(c) <= 2 for c in u + v)
    assert sum(a * b for a, b in zip(u, v)) > sum(a * a for a in u)


def test_dependencies_expectations_and_duplicates(tmp_path):
    a = tmp_path / "a.md"
    b = tmp_path / "b.md"
    a.write_text("```claim\nid: base\nx**2 >= 0\n```\n\n```claim\nid: bad\nx >= 1\n```\n"
                 "\n```claim\nexpect: refuted\nx >= 1\n```\n")
    b.write_text("```claim\nuses: base\nx**2 + 1 > 0\n```\n\n```claim\nuses: bad\n1 > 0\n```\n"
                 "\n```claim\nuses: nowhere\n1 > 0\n```\n\n```claim\nid: base\n1 > 0\n```\n")
    found = check_markdown_files([a, b])
    passed = {c.location.split("/")[-1]: c.passed for c in found}
    # an id given twice fails both blocks and every claim that uses it (issue 24, finding 4)
    assert passed == {"a.md:1:base": False, "a.md:6:bad": False, "a.md:11": True,
                      "b.md:1": False, "b.md:6": False, "b.md:11": False, "b.md:16:base": False}
    problems = {c.location.split("/")[-1]: c.problems for c in found}
    assert "which is not fully verified" in problems["b.md:6"][0]
    assert "no claim's id" in problems["b.md:11"][0]
    assert f"id 'base' is given twice ({a}:1 and {b}:16)" == problems["b.md:16:base"][0]
    assert problems["a.md:1:base"] == problems["b.md:16:base"]
    assert "its id is given twice" in problems["b.md:1"][0]


def test_cli_json_lists_verdicts_domains_and_dependencies(tmp_path):
    import json

    page = tmp_path / "p.md"
    page.write_text("```claim\nid: d\nassume: x > 0\nx/x == 1\n```\n")
    result = pla_cli("claims", str(tmp_path), "--json")
    assert result.code == 0, result
    (claim,) = json.loads(result.out)["claims"]
    assert claim["id"] == "d" and claim["status"] == "proved" and claim["passed"]
    assert claim["domain"] == ["x != 0: x > 0 proved from the assumptions"]


def test_the_search_is_bounded_before_it_builds_anything():
    """180 assumptions a >= -k would build 16,000 products: the search keeps to linear
    combinations (and proves a linear claim); a quartic in 12 variables is refused at once."""
    assumptions = ", ".join(f"a >= {-k}" for k in range(1, 181))
    assert check_claim_text(f"assume: {assumptions}\na + 2 > 0").status == "proved"
    names = "abcdefghijkl"
    lines = "\n".join("assume: " + ", ".join(f"{v} >= {-k}" for k in range(1, 51))
                      for v in names)
    verdict = check_claim_text(f"{lines}\n" + " + ".join(f"{v}**4" for v in names) + " < -1",
                               points=0, extra_points=0)
    # refused by the count of candidate terms, before one is built (not by the time budget)
    assert verdict.status == "unproved" and "search limit reached" in verdict.reason
    assert "candidate terms (limit" in verdict.reason


def test_a_malicious_proposer_cannot_make_a_false_claim_proved(monkeypatch):
    """Whatever the search proposes, the kernel decides: a forged certificate is rejected."""
    import sympy

    import verify.search.claim_certificates as search

    def forged(target, hyps, equalities, rewrites, strict=False, **_):
        x = sympy.Symbol("x", real=True)
        return search.FoundCertificate(((sympy.Integer(1), (("square", x),)),), ())
    monkeypatch.setattr(search, "find_certificate", forged)
    verdict = check_claim_text("assume: x >= 0\nx**3 >= x**2 + x", points=0, extra_points=0)
    assert verdict.status == "unproved" and "kernel rejected" in verdict.reason


@pytest.mark.parametrize("text, status", [
    ("assume: n >= 1, n integer\nSum(k, (k, 1, n)) == n*(n + 1)/2", "proved"),
    ("assume: n >= 0, n integer\nSum(k**3, (k, 1, n)) == n**2*(n + 1)**2/4", "proved"),
    ("assume: n >= 0, n integer\nSum(k, (k, 0, n)) == n*(n + 1)/2", "proved"),
    ("assume: n >= 1, n integer\nSum(k, (k, 1, n)) <= n**2", "proved"),
    ("assume: n >= 0, n integer, r >= 0\nSum(r, (k, 1, n)) >= 0", "proved"),
    ("assume: n >= 0, n integer\nSum(k, (k, 1, n)) == n**2", "refuted"),
    ("assume: n >= 0, n integer\nSum(k, (k, 1, n)) <= n", "refuted"),
    ("assume: n >= 1\nSum(k, (k, 1, n)) == n*(n + 1)/2", "unproved"),  # n integer missing
    ("Sum(k**2, (k, 1, 4)) == 30", "proved"), ("Sum(k**2, (k, 1, 4)) == 31", "refuted"),
])
def test_sums(text, status):
    verdict = check_claim_text(text)
    assert verdict.status == status, verdict.explain()


def test_an_induction_with_a_wrong_step_is_rejected_by_the_kernel(monkeypatch):
    """A proposer that lies about the increment's certificate cannot get a false sum proved."""
    import sympy

    import verify.search.claim_certificates as search

    def forged(target, hyps, equalities, rewrites, strict=False, **_):
        return search.FoundCertificate(((sympy.Integer(1), ()),), ())
    monkeypatch.setattr(search, "find_certificate", forged)
    verdict = check_claim_text("assume: n >= 0, n integer\nSum(k, (k, 1, n)) <= n",
                               points=0, extra_points=0)
    assert verdict.status == "unproved" and "kernel rejected" in verdict.reason
