"""mkdocs hook: the timing table of ``docs/checked-twice.md``.

The ``<!-- coq-benchmark -->`` marker is replaced by a table generated from the committed
results file ``benchmarks/results/coq.json`` (written by ``benchmarks/coq_check.py``) with
:func:`sitebuild.coq_benchmark.expand_coq_benchmark_marker`.  Nothing is timed at build time.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The site's build machinery is the package docs/hooks/sitebuild/ (not installed with pla-verify).
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from mkdocs.exceptions import PluginError

from sitebuild.coq_benchmark import MARKER, expand_coq_benchmark_marker


def on_page_markdown(markdown, page, config, files):
    if not MARKER.search(markdown):
        return markdown
    results = Path(config.config_file_path).resolve().parent / "benchmarks" / "results" / \
        "coq.json"
    try:
        return expand_coq_benchmark_marker(markdown, results)
    except Exception as error:  # a missing or unreadable results file must stop the build
        raise PluginError(f"{page.file.src_uri}: Coq timings from {results}: "
                          f"{type(error).__name__}: {error}") from error
