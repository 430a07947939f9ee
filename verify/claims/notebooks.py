"""Claims in Jupyter notebooks: a notebook's Markdown cells as pieces of Markdown text, and the
``%%claim`` cell magic.

Every front end that checks the claim blocks of a Markdown file (``pla claims``,
``pytest --claims``, the pre-commit hook) reads a notebook through :func:`markdown_pieces`: one
piece per Markdown cell, placed ``cell K`` (K counts every cell from 1, as Jupyter shows them),
and a claim's line counts from the first line of its cell, so a claim is located as
``nb.ipynb:cell 7:line 3``.  A Markdown file is one piece placed ``""``.  Notebooks are read
with ``nbformat`` (``pip install 'pla-verify[notebook]'``), imported only for a notebook.

>>> [(p.place, p.text) for p in markdown_pieces_of_text("x.md", "# notes\\n")]
[('', '# notes\\n')]
>>> nb = '{"cells": [{"cell_type": "markdown", "metadata": {}, "source": "a"},' \\
...      ' {"cell_type": "code", "metadata": {}, "source": "1", "outputs": [],' \\
...      ' "execution_count": null}, {"cell_type": "markdown", "metadata": {}, "source": "b"}],' \\
...      ' "metadata": {}, "nbformat": 4, "nbformat_minor": 4}'
>>> [(p.place, p.text) for p in markdown_pieces_of_text("x.ipynb", nb)]
[('cell 1', 'a'), ('cell 3', 'b')]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["NOTEBOOK_SUFFIX", "MarkdownPiece", "NotebookError", "is_notebook", "markdown_pieces",
           "markdown_pieces_of_text", "piece_path", "load_ipython_extension"]

NOTEBOOK_SUFFIX = ".ipynb"


class NotebookError(ValueError):
    """A file named ``*.ipynb`` that is not a Jupyter notebook nbformat can read (or nbformat is
    not installed); the message names the file."""


@dataclass(frozen=True)
class MarkdownPiece:
    """Markdown text of a file: the whole file (``place`` ``""``) or one cell of a notebook
    (``place`` ``"cell K"``)."""

    place: str
    text: str


def is_notebook(path: str | Path) -> bool:
    """Whether ``path`` names a Jupyter notebook (by its suffix).

    >>> is_notebook("lecture.ipynb"), is_notebook("notes.md")
    (True, False)
    """
    return Path(path).suffix.lower() == NOTEBOOK_SUFFIX


def piece_path(path: str | Path, piece: MarkdownPiece) -> str:
    """The path a claim of ``piece`` is reported under: ``nb.ipynb:cell 7`` or the file's own.

    >>> piece_path("nb.ipynb", MarkdownPiece("cell 7", "")), piece_path("a.md", MarkdownPiece("", ""))
    ('nb.ipynb:cell 7', 'a.md')
    """
    return f"{path}:{piece.place}" if piece.place else str(path)


def markdown_pieces_of_text(path: str | Path, text: str) -> list[MarkdownPiece]:
    """The Markdown pieces of a file's text: the text itself, or a notebook's Markdown cells."""
    if not is_notebook(path):
        return [MarkdownPiece("", text)]
    try:
        import nbformat
    except ImportError:
        raise NotebookError(f"{path}: reading a notebook needs nbformat "
                            "(pip install 'pla-verify[notebook]')") from None
    try:
        notebook = nbformat.reads(text, as_version=4)
        cells = list(notebook.cells)
        return [MarkdownPiece(f"cell {k}", str(cell.source))
                for k, cell in enumerate(cells, start=1) if cell.get("cell_type") == "markdown"]
    except Exception as exc:  # nbformat raises JSON, validation and attribute errors alike
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise NotebookError(f"{path}: not a Jupyter notebook ({reason[:200]})") from None


def markdown_pieces(path: str | Path) -> list[MarkdownPiece]:
    """The Markdown pieces of a file (read with :func:`pla.files.read_bounded`, UTF-8)."""
    from pla.files import read_bounded

    return markdown_pieces_of_text(path, read_bounded(path).decode("utf-8"))


# -- the %%claim cell magic -----------------------------------------------------------------

def claim_magic(line: str, cell: str) -> Any:
    """``%%claim``: decide the claim written in the cell; its verdict is the cell's output
    (shown with its badge and certificate, :func:`verify.present.notebook.verdict_html`)."""
    from verify.claims.checker import check_claim_text

    return check_claim_text(cell)


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext verify.claims`` registers the ``%%claim`` cell magic."""
    ipython.register_magic_function(claim_magic, magic_kind="cell", magic_name="claim")
