"""One exit-code table (issue 15), verdict-true halting sentences (issue 12, finding 10) and a
CLI without surprises (issue 15)."""

from __future__ import annotations

import itertools
import re
import tomllib
from pathlib import Path

from hypothesis import given, settings, strategies as st

import pla
from tests.cli_runner import pla_cli
from verify.cli.exit_codes import EXIT_CODES, exit_codes_markdown, exit_codes_text
from verify.cli.gordan_halting import cannot_halt, halting_sentence

ROOT = Path(__file__).resolve().parent.parent
XOR = "0 0 -1\n1 1 -1\n0 1 1\n1 0 1\n"


def data(tmp_path, text=XOR, name="xor.dat"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# ------------------------------------------------------------------ one table
def test_readme_and_reliability_page_hold_the_table():
    table = exit_codes_markdown()
    for document in ("README.md", "docs/reliability.md"):
        assert table in (ROOT / document).read_text(encoding="utf-8"), document


def test_help_lists_every_exit_code():
    done = pla_cli("--help")
    assert done.code == 0
    text = " ".join(done.out.split())
    assert " ".join(exit_codes_text().split()) in text
    assert set(EXIT_CODES) == {0, 1, 2, 3, 4, 5, 130, 143}


# ------------------------------------------------------------------ what a certificate proves
def _halts_somewhere(rows, labels, zero):
    """Brute force: some small integer w makes no mistake under ``zero``."""
    for w in itertools.product(range(-3, 4), repeat=len(rows[0])):
        scores = [sum(a * b for a, b in zip(w, x)) for x in rows]
        if not any(_mistake(s, y, zero) for s, y in zip(scores, labels)):
            return True
    return False


def _mistake(score, y, zero):
    if score != 0:
        return (score > 0) != (y > 0)
    return {"mistake": True, "positive": y < 0, "negative": y > 0, "correct": False}[zero]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2), st.sampled_from([1, -1])),
                min_size=2, max_size=6),
       st.booleans())
def test_cannot_halt_is_never_claimed_when_some_w_halts(points, bias):
    """A malicious-proposer style check of the sentence logic: whenever cannot_halt says so,
    no w on a grid makes no mistake (the certificate comes from the search, checked by the
    kernel)."""
    from verify.search.certificates import NonSeparable, certify
    rows = [(x1, x2) for x1, x2, _ in points]
    labels = [y for _, _, y in points]
    ds = pla.Dataset.from_rows(rows, labels, bias=bias)
    verdict = certify(ds, method="lp")
    if not isinstance(verdict, NonSeparable):
        return
    support = [ds.labels[i] for i in verdict.support]
    integer_rows = [tuple(int(v) for v in row) for row in ds.X]
    for zero in ("mistake", "positive", "negative", "correct"):
        if cannot_halt(zero, support):
            assert not _halts_somewhere(integer_rows, ds.labels, zero), zero
            assert "cannot halt" in halting_sentence(zero, support)
        else:
            assert "may still halt" in halting_sentence(zero, support)
    assert cannot_halt("mistake", support) and not cannot_halt("correct", support)


def test_zero_correct_never_says_cannot_halt(tmp_path):
    done = pla_cli("run", data(tmp_path), "--zero", "correct", "--check")
    assert done.code == 0 and "halted: no mistake left after 0 updates" in done.out
    assert "cannot halt" not in done.out + done.err
    certify = pla_cli("certify", data(tmp_path))
    lines = [line for line in certify.out.splitlines() if "halt" in line]
    assert any("--zero mistake PLA cannot halt" in line for line in lines)
    assert any("--zero correct PLA may still halt" in line for line in lines)


# ------------------------------------------------------------------ a CLI without surprises
def test_a_run_that_cannot_halt_is_not_started(tmp_path):
    done = pla_cli("run", data(tmp_path))
    assert done.code == 3 and done.out == ""
    assert "Gordan certificate" in done.err and "stopped before the first update" in done.err
    assert "1,000,000" not in done.err
    budget = pla_cli("run", data(tmp_path), "--max-updates", "50")
    assert budget.code == 3 and "after 50 updates" in budget.out
    timed = pla_cli("run", data(tmp_path), "--max-updates", "100000000", "--timeout", "0.5")
    assert timed.code == 3
    halts = pla_cli("run", data(tmp_path), "--zero", "correct")
    assert halts.code == 0


def test_run_check_and_audit_report_the_same_inequality_count(tmp_path):
    path = tmp_path / "ex.dat"
    assert pla_cli("make-data", "--n", "60", "--d", "3", "--margin", "1/20", "--seed", "5",
                   str(path)).code == 0
    trace = str(tmp_path / "ex.jsonl")
    counts = []
    for extra in ([], ["--paranoid"], ["--trace", trace]):
        done = pla_cli("run", str(path), "--check", *extra)
        assert done.code == 0
        counts.append(re.search(r"(\d+) inequalities checked", done.out).group(1))
    audit = pla_cli("audit", trace, "--data", str(path))
    counts.append(re.search(r"(\d+) inequalities checked", audit.out).group(1))
    assert len(set(counts)) == 1, counts
    assert "9 per update" in " ".join(pla_cli("run", "--help").out.split())


def test_runs_with_check_says_why(tmp_path):
    done = pla_cli("run", data(tmp_path), "--runs", "3", "--order", "random", "--check")
    assert done.code == 2 and "no steps to check" in done.err
    assert len(done.err.strip().splitlines()) == 1


def test_make_run_and_readme_say_how_to_call_pla():
    makefile = (ROOT / "Makefile").read_text()
    run_recipe = makefile.split("\nrun:")[1].split("\n\n")[0]
    assert ".venv/bin/pla" in run_recipe and "source .venv/bin/activate" in run_recipe
    readme = (ROOT / "README.md").read_text()
    assert ".venv/bin/pla" in readme and "source .venv/bin/activate" in readme


def test_license_uses_the_current_metadata_form():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
