"""The pytest plugin: ```claim blocks of Markdown files as test items."""

from __future__ import annotations

import pytest
# In-process pytester runs restore sys.modules afterwards; numpy's C extension cannot be
# loaded twice, so the libraries the claims use are imported once here, before any run.
import numpy  # noqa: F401
import scipy.optimize  # noqa: F401
import sympy  # noqa: F401

# The same for the claims path: the kernel's classes must be the ones the proposers build with
# (a module imported afresh by the second run would make "not a kernel Theorem").
import verify.claims.documents  # noqa: F401
import verify.claims.induction  # noqa: F401
import verify.claims.propose  # noqa: F401
import verify.claims.verdict  # noqa: F401
import verify.kernel  # noqa: F401
import verify.search.claim_certificates  # noqa: F401

pytest_plugins = ["pytester"]

NOTES = """# Notes

```claim
assume: a >= 0, b >= 0
(a + b)**2 >= a**2 + b**2
```

```claim
x**2 >= x
```
"""


def test_named_markdown_file_collects_one_item_per_claim(pytester):
    pytester.makefile(".md", notes=NOTES)
    result = pytester.runpytest("notes.md", "-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*notes.md::notes.md:3 PASSED*", "*notes.md::notes.md:8 FAILED*",
                                 "*at x = 1/2: x**2 = 1/4 < x = 1/2*"])


def test_markdown_files_are_not_collected_unless_named_or_configured(pytester):
    pytester.makefile(".md", notes=NOTES)
    pytester.makepyfile(test_ok="def test_ok():\n    assert True\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)


def test_configured_paths_are_collected_by_a_plain_run(pytester):
    pytester.makeini("[pytest]\npla_claims_paths = docs\n")
    docs = pytester.mkdir("docs")
    (docs / "page.md").write_text("```claim\nx**2 >= 0\n```\n")
    pytester.makepyfile(test_ok="def test_ok():\n    assert True\n")
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*page.md:1 PASSED*"])


def test_unproved_and_invalid_claims_fail_with_the_reason(pytester):
    pytester.makefile(".md", notes="```claim\nassume: x >= 0, y >= 0\n"
                                   "sqrt(x*y) <= sqrt(x**2+y**2)/sqrt(2) + x**3\n```\n\n"
                                   "```claim\nx.y > 0\n```\n")
    result = pytester.runpytest("notes.md")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*unproved: no certificate found*", "*attribute access*"])


def test_plugin_import_is_cheap():
    import subprocess
    import sys
    code = ("import sys, verify.claims, verify.claims.pytest_plugin; "
            "print('sympy' in sys.modules, 'scipy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


TREE = {
    "intro.md": "# Intro\n\n```claim\nid: amgm\nassume: a > 0, b > 0\na/b + b/a >= 2\n```\n",
    "deep/more.md": ("!!! note\n    ```{.claim}\n    id: uses-amgm\n    uses: amgm\n"
                     "    x**2 + 1 >= 2*x\n    ```\n\n"
                     "```claim title=\"shown on purpose\"\nexpect: refuted\nx**2 >= x\n```\n"),
}


def _tree(pytester, files=TREE):
    for name, text in files.items():
        path = pytester.path / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_claims_option_collects_every_markdown_file_under_the_paths(pytester):
    _tree(pytester)
    result = pytester.runpytest("--claims", "docs", "-v")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*more.md:2:uses-amgm PASSED*", "*more.md:8 PASSED*",
                                 "*intro.md:3:amgm PASSED*"])


def test_explicit_p_pla_claims_with_testpaths_collects_them(pytester):
    _tree(pytester)
    pytester.makeini("[pytest]\ntestpaths = docs\n")
    result = pytester.runpytest("-p", "pla_claims", "-v")
    result.assert_outcomes(passed=3)


def test_a_directory_without_opt_in_collects_no_markdown(pytester):
    _tree(pytester)
    result = pytester.runpytest("docs")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_a_false_claim_fails_and_so_does_every_claim_that_uses_it(pytester):
    files = dict(TREE)
    files["intro.md"] = "```claim\nid: amgm\nassume: a > 0, b > 0\na/b + b/a >= 3\n```\n"
    _tree(pytester, files)
    result = pytester.runpytest("--claims", "docs")
    result.assert_outcomes(passed=1, failed=2)
    out = result.stdout.str()
    assert "at a = 1, b = 1: a/b + b/a = 2 < 3" in out
    assert "uses 'amgm' (intro.md:1), which is not fully verified" in out


def test_failure_names_the_domain_conditions(pytester):
    pytester.makefile(".md", notes="```claim\nassume: x > 0\nx/x == 2\n```\n"
                                   "```claim\nassume: x >= 0, y >= 0\n"
                                   "sqrt(x*y) <= sqrt(x**2 + y**2)/sqrt(2) + x**3\n```\n")
    result = pytester.runpytest("--claims", "notes.md")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*refuted: x/x == 2, at x = 1*", "*unproved: no certificate*",
                                 "*domain: x*y >= 0: proved from the assumptions*"])


def test_an_unclosed_claim_fence_fails_instead_of_being_skipped(pytester):
    pytester.makefile(".md", notes="text\n\n~~~claim\nx >= x\n")
    result = pytester.runpytest("notes.md")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*never closed*"])
