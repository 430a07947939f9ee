"""Claims in Jupyter notebooks (issue 30): ``pla claims nb.ipynb``, ``pytest --claims``, the
``%%claim`` cell magic (tests/test_notebook_display.py: pytester runs here reload the kernel's
modules); claims located as ``nb.ipynb:cell 7:line 3``."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
# In-process pytester runs restore sys.modules afterwards; numpy's C extension cannot be
# loaded twice, so the libraries the claims use are imported once here, before any run.
import numpy  # noqa: F401
import scipy.optimize  # noqa: F401
import sympy  # noqa: F401
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli_runner import pla_cli
from verify.claims.notebooks import (
    MarkdownPiece, NotebookError, markdown_pieces, markdown_pieces_of_text,
)

pytest_plugins = ["pytester"]


def write_notebook(path: Path, cells: list[tuple[str, str]]) -> Path:
    """A notebook with ``cells`` (kind, source), as Jupyter saves it."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(src) if kind == "markdown"
                else nbformat.v4.new_code_cell(src) for kind, src in cells]
    nbformat.write(nb, str(path))
    return path


CELLS = [
    ("markdown", "# Lecture 3"),
    ("code", "x = 1\n# ```claim\n# x**2 >= x\n# ```"),  # a code cell is not Markdown
    ("markdown", "Square of a sum:\n\n```claim\nid: sq\nassume: a >= 0, b >= 0\n"
                 "(a + b)**2 >= a**2 + b**2\n```\n"),
    ("code", "1 + 1"),
    ("markdown", "Wrong:\n```claim\nx**2 >= x\n```"),
    ("markdown", "```claim\nuses: sq\n2 + 2 == 4\n```"),
]


def test_pla_claims_checks_markdown_cells_and_locates_them_by_cell_and_line(tmp_path):
    nb = write_notebook(tmp_path / "lecture.ipynb", CELLS)
    done = pla_cli("claims", str(nb))
    assert done.code == 1
    lines = done.out.splitlines()
    assert lines[0].startswith(f"{nb}:cell 3:line 3:sq: proved")
    assert lines[1].startswith(f"{nb}:cell 5:line 2: refuted: x**2 >= x, at x = 1/2")
    assert lines[2].startswith(f"{nb}:cell 6:line 1: proved")
    assert lines[-1] == "2 of 3 claims as expected"


def test_pla_claims_json_names_the_cell(tmp_path):
    nb = write_notebook(tmp_path / "n.ipynb", CELLS[2:3])
    done = pla_cli("claims", "--json", str(nb))
    assert done.code == 0
    claim, = json.loads(done.out)["claims"]
    assert claim["file"] == f"{nb}:cell 1" and claim["line"] == 3 and claim["status"] == "proved"


def test_a_directory_includes_notebooks_but_not_checkpoints(tmp_path):
    write_notebook(tmp_path / "a.ipynb", CELLS[2:3])
    checkpoints = tmp_path / ".ipynb_checkpoints"
    checkpoints.mkdir()
    write_notebook(checkpoints / "a-checkpoint.ipynb", CELLS[4:5])
    done = pla_cli("claims", str(tmp_path))
    assert done.code == 0 and done.out.splitlines()[-1] == "1 of 1 claims as expected"


@pytest.mark.parametrize("text", ["not json", "{}", '{"cells": 3, "nbformat": 4}', "[1, 2]"])
def test_a_file_that_is_not_a_notebook_is_one_line_and_exit_2(tmp_path, text):
    bad = tmp_path / "bad.ipynb"
    bad.write_text(text)
    done = pla_cli("claims", str(bad))
    assert done.code == 2 and done.out == ""
    assert done.err.startswith(f"pla: error: {bad}: not a Jupyter notebook (")
    assert len(done.err.strip().splitlines()) == 1 and "Traceback" not in done.err


def test_an_unclosed_fence_in_a_cell_is_named_by_cell_and_line(tmp_path):
    nb = write_notebook(tmp_path / "u.ipynb", [("code", "1"), ("markdown", "a\n```claim\nx >= x")])
    done = pla_cli("claims", str(nb))
    assert done.code == 2
    assert f"pla: error: {nb}:cell 2:line 2: the claim fence opened at line 2" in done.err


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["markdown", "code", "raw"]),
                          st.text(alphabet="ab\n`~ {}claim", max_size=40)), max_size=6))
def test_pieces_are_exactly_the_markdown_cells_in_order(tmp_path_factory, cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = [{"markdown": nbformat.v4.new_markdown_cell, "code": nbformat.v4.new_code_cell,
                 "raw": nbformat.v4.new_raw_cell}[kind](src) for kind, src in cells]
    pieces = markdown_pieces_of_text("x.ipynb", nbformat.writes(nb))
    assert pieces == [MarkdownPiece(f"cell {k}", src)
                      for k, (kind, src) in enumerate(cells, start=1) if kind == "markdown"]


def test_reading_a_markdown_file_is_one_piece(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("```claim\n1 < 2\n```\n")
    assert markdown_pieces(page) == [MarkdownPiece("", "```claim\n1 < 2\n```\n")]
    with pytest.raises(NotebookError, match="p.ipynb: not a Jupyter notebook"):
        markdown_pieces_of_text(tmp_path / "p.ipynb", "```claim\n1 < 2\n```\n")


def test_pytest_collects_the_claims_of_a_notebook(pytester):
    write_notebook(pytester.path / "lecture.ipynb", CELLS)
    result = pytester.runpytest("--claims", "lecture.ipynb", "-v")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*lecture.ipynb:cell 3:line 3:sq PASSED*",
                                 "*lecture.ipynb:cell 5:line 2 FAILED*",
                                 "*lecture.ipynb:cell 6:line 1 PASSED*",
                                 "*refuted: x**2 >= x, at x = 1/2*"])

