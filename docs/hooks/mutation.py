"""mkdocs hook: the mutation score of the checkers on the Design page (``docs/design.md``).

The ``<!-- mutation-score -->`` marker is replaced by the score and the survivors recorded in
``benchmarks/results/mutation.json`` (written by ``make mutation``) with
:func:`sitebuild.mutation_score.expand_mutation_marker`.  Nothing is run at build time.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The site's build machinery is the package docs/hooks/sitebuild/ (not installed with pla-verify).
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from mkdocs.exceptions import PluginError

from sitebuild.mutation_score import MARKER, expand_mutation_marker


def on_page_markdown(markdown, page, config, files):
    if not MARKER.search(markdown):
        return markdown
    results = Path(config.config_file_path).resolve().parent / "benchmarks" / "results" / \
        "mutation.json"
    try:
        return expand_mutation_marker(markdown, results)
    except Exception as error:  # a missing or unreadable results file must stop the build
        raise PluginError(f"{page.file.src_uri}: mutation score from {results}: "
                          f"{type(error).__name__}: {error}") from error
