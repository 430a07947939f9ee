"""mkdocs hook: the figures and the timing table of the Pocket page (docs/pocket.md).

The drawing code is :mod:`sitebuild.pocket_figures` (importable, tested); this file only
adds its files to the site as ``figures/pocket-run-errors.png`` and
``figures/pocket-test-errors.png``.  Scratch files go to ``build/docs-pocket/``.  The marker
``<!-- pocket-benchmark -->`` becomes the table of the committed
``benchmarks/results/pocket_runs.json`` (:mod:`sitebuild.pocket_benchmark`).
"""

from __future__ import annotations

import sys
from pathlib import Path

# The site's build machinery is the package docs/hooks/sitebuild/ (not installed with pla-verify).
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

import shutil
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from sitebuild.pocket_benchmark import MARKER, expand_pocket_benchmark
from sitebuild.pocket_figures import draw_pocket_figures


def on_files(files, config):
    directory = Path(config.config_file_path).resolve().parent / "build" / "docs-pocket"
    if directory.exists():
        shutil.rmtree(directory)
    try:
        written = draw_pocket_figures(directory)
    except Exception as error:  # a figure that cannot be drawn must stop the build
        raise PluginError(f"drawing the Pocket figures failed: {type(error).__name__}: "
                          f"{error}") from error
    for path in written:
        files.append(File.generated(config, f"figures/{path.name}", abs_src_path=str(path)))
    return files


def on_page_markdown(markdown, page, config, files):
    if not MARKER.search(markdown):
        return markdown
    results = Path(config.config_file_path).resolve().parent / "benchmarks" / "results" / \
        "pocket_runs.json"
    try:
        return expand_pocket_benchmark(markdown, results)
    except Exception as error:  # a missing or unreadable results file must stop the build
        raise PluginError(f"{page.file.src_uri}: Pocket timings from {results}: "
                          f"{type(error).__name__}: {error}") from error
