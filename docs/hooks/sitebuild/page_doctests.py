"""Run a page's Python examples (``>>>`` lines and their expected output) at build time.

A page that shows Python (the API reference, the scikit-learn page) shows examples that ran:
:func:`run_page_doctests` runs every ``>>>`` example of the page's Markdown as a doctest, in
the page's scratch directory, and raises :class:`PageExampleFailed` (which stops the build)
when one gives another output than the page shows.

>>> run_page_doctests(">>> 1 + 1\\n2\\n", "demo.md")
1
>>> run_page_doctests(">>> 1 + 1\\n3\\n", "demo.md")
Traceback (most recent call last):
...
sitebuild.page_doctests.PageExampleFailed: demo.md: 1 of 1 Python examples failed: line 1: 1 + 1 gave 2, the page shows 3
"""

from __future__ import annotations

import doctest
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

__all__ = ["PageExampleFailed", "run_page_doctests"]

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


class PageExampleFailed(RuntimeError):
    """A Python example of a page did not give the output the page shows."""


@contextmanager
def _inside(directory: Path | None) -> Iterator[None]:
    if directory is None:
        yield
        return
    previous = Path.cwd()
    directory.mkdir(parents=True, exist_ok=True)
    os.chdir(directory)
    try:
        yield
    finally:
        os.chdir(previous)


def run_page_doctests(markdown: str, name: str, directory: Path | None = None) -> int:
    """Run the ``>>>`` examples of ``markdown`` (a page named ``name``) in ``directory``;
    return how many ran, or raise :class:`PageExampleFailed`."""
    test = doctest.DocTestParser().get_doctest(markdown, {}, name, name, 0)
    failures: list[str] = []

    class Recorder(doctest.DocTestRunner):
        def report_failure(self, out, test, example, got):  # type: ignore[override]
            failures.append(f"line {example.lineno + 1}: {example.source.strip()} gave "
                            f"{got.strip()}, the page shows {example.want.strip()}")

        def report_unexpected_exception(self, out, test, example, exc_info):  # type: ignore[override]
            failures.append(f"line {example.lineno + 1}: {example.source.strip()} raised "
                            f"{exc_info[0].__name__}: {exc_info[1]}")

    runner = Recorder(optionflags=FLAGS)
    with _inside(directory):
        runner.run(test, out=lambda text: None)
    if failures:
        raise PageExampleFailed(f"{name}: {len(failures)} of {len(test.examples)} Python examples "
                                f"failed: " + "; ".join(failures))
    return len(test.examples)
