"""mkdocs hook: the tables and the figure of the Benchmarks page (``docs/benchmarks.md``).

The ``<!-- benchmark-tables -->`` marker is replaced by tables generated from the committed
results file ``benchmarks/results/engines.json`` (written by ``make bench``) with
:func:`sitebuild.benchmark_tables.expand_benchmark_marker`; the ``<!-- scaling-benchmark -->``
marker by the scaling table of ``benchmarks/results/scaling.json``
(:mod:`sitebuild.scaling_benchmark`), whose figure is drawn from the same file as
``figures/scaling.png``; the ``<!-- standard-facts-table -->`` marker by the time of each standard
fact from ``benchmarks/results/standard_facts.json`` (:mod:`sitebuild.standard_facts_table`);
the ``<!-- instruction-counts -->`` marker by the instruction counts of whole ``pla run`` and
``pla run --check`` processes from ``benchmarks/results/instructions.json``
(:mod:`sitebuild.instruction_counts`).
Nothing is timed at build time.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The site's build machinery is the package docs/hooks/sitebuild/ (not installed with pla-verify).
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from sitebuild.benchmark_tables import MARKER, expand_benchmark_marker
from sitebuild.instruction_counts import MARKER as INSTRUCTIONS_MARKER
from sitebuild.instruction_counts import expand_instruction_counts_marker
from sitebuild.scaling_benchmark import MARKER as SCALING_MARKER
from sitebuild.scaling_benchmark import draw_scaling_figure, expand_scaling_marker
from sitebuild.standard_facts_table import MARKER as FACTS_MARKER
from sitebuild.standard_facts_table import expand_standard_facts_marker


def _results(config, name):
    return Path(config.config_file_path).resolve().parent / "benchmarks" / "results" / name


def on_files(files, config):
    directory = Path(config.config_file_path).resolve().parent / "build" / "docs-scaling"
    results = _results(config, "scaling.json")
    try:
        path = draw_scaling_figure(results, directory)
    except Exception as error:  # a figure that cannot be drawn must stop the build
        raise PluginError(f"drawing the scaling figure from {results} failed: "
                          f"{type(error).__name__}: {error}") from error
    files.append(File.generated(config, f"figures/{path.name}", abs_src_path=str(path)))
    return files


#: Each marker of the page, the results file its table is generated from, what the table is
#: called in a build error, and the function that replaces the marker.
_TABLES = (
    (MARKER, "engines.json", "benchmark tables", expand_benchmark_marker),
    (SCALING_MARKER, "scaling.json", "scaling table", expand_scaling_marker),
    (FACTS_MARKER, "standard_facts.json", "standard facts table", expand_standard_facts_marker),
    (INSTRUCTIONS_MARKER, "instructions.json", "instruction counts table",
     expand_instruction_counts_marker),
)


def on_page_markdown(markdown, page, config, files):
    for marker, name, what, expand in _TABLES:
        if not marker.search(markdown):
            continue
        results = _results(config, name)
        try:
            markdown = expand(markdown, results)
        except Exception as error:  # a missing or unreadable results file must stop the build
            raise PluginError(f"{page.file.src_uri}: {what} from {results}: "
                              f"{type(error).__name__}: {error}") from error
    return markdown
