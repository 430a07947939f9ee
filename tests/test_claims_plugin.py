"""The pytest plugin: ```claim blocks of Markdown files as test items."""

from __future__ import annotations

import pytest

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
                                 "*counterexample x = 1/2*"])


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
                                   "sqrt(x*y) <= (x+y)/2\n```\n\n```claim\nx.y > 0\n```\n")
    result = pytester.runpytest("notes.md")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*unproved: no certificate found*", "*attribute access*"])


def test_plugin_import_is_cheap():
    import subprocess
    import sys
    code = "import sys, verify.claims.pytest_plugin; print('sympy' in sys.modules, 'scipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
