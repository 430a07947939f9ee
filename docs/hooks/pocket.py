"""mkdocs hook: the figures of the Pocket page (docs/pocket.md), drawn from exact runs.

The drawing code is :mod:`verify.docsite.pocket_figures` (importable, tested); this file only
adds its files to the site as ``figures/pocket-run-errors.png`` and
``figures/pocket-test-errors.png``.  Scratch files go to ``build/docs-pocket/``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from verify.docsite.pocket_figures import draw_pocket_figures


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
