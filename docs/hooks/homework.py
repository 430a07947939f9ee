"""mkdocs hook: the answers and the histogram of the Homework page (docs/homework.md).

The logic is :mod:`sitebuild.homework` (importable, tested): it makes the page's data with
the real ``pla make-data``, answers every question with :mod:`pla.experiments` (once per build),
and this file adds ``figures/homework-update-counts.png`` and replaces the page's
``<!-- homework-answers -->`` and ``<!-- homework-variants -->`` markers by the tables.  Scratch
files go to ``build/docs-homework/``.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

# The site's build machinery is the package docs/hooks/sitebuild/ (not installed with pla-verify).
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from sitebuild import homework

#: The answers of the current build (computed in on_files, used by on_page_markdown).
_computed: dict[str, tuple] = {}


def on_files(files, config):
    directory = Path(config.config_file_path).resolve().parent / "build" / "docs-homework"
    if directory.exists():
        shutil.rmtree(directory)
    try:
        data = homework.make_homework_data(directory / "data")
        answers, variants = homework.answer_all(data, jobs=2)
        figure = homework.update_counts_figure(answers)
        path = directory / "homework-update-counts.png"
        figure.savefig(path, metadata={"Software": None})
    except Exception as error:  # an answer or a figure that cannot be computed stops the build
        raise PluginError(f"the Homework page: {type(error).__name__}: {error}") from error
    _computed["answers"], _computed["variants"] = answers, variants
    files.append(File.generated(config, f"figures/{path.name}", abs_src_path=str(path)))
    return files


def on_page_markdown(markdown, page, config, files):
    if not (homework.ANSWERS_MARKER.search(markdown) or homework.VARIANTS_MARKER.search(markdown)):
        return markdown
    if "answers" not in _computed:
        raise PluginError(f"{page.file.src_uri}: the homework answers were not computed")
    return homework.expand_homework_markers(markdown, _computed["answers"], _computed["variants"])
