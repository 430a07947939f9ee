"""mkdocs hook: everything the site computes at build time (see docs/design.md, "The site").

- ```` ```pla-run ```` / ```` ```pla-file ```` blocks run real ``pla`` commands and show their
  real output; ``<!-- pla: cli-reference -->`` inserts the real ``--help`` texts
  (:mod:`sitebuild.commands`);
- ``{{ run('walk').updates }}`` macros insert numbers from exact runs
  (:mod:`sitebuild.macros`, :mod:`sitebuild.examples`);
- ``figures/*.png`` are drawn with matplotlib from exact runs (:mod:`sitebuild.figures`);
- ``<!-- pla: step-player NAME -->`` / ``<!-- pla: pocket-player NAME -->`` insert the step
  players, replayed from real traces (:mod:`sitebuild.step_player`);
- ``<!-- pla: proof NAME -->`` embeds the generated, kernel-checked proof page ``proofs/NAME.md``
  (:mod:`sitebuild.proof_embedding`);
- the Chinese quotations get a web font cut to the characters the pages use
  (``fonts/cjk-quotes.woff``, :mod:`sitebuild.cjk_font`);
- the docstrings' Sphinx roles (``:func:`x```) become cross-references on the API page
  (:mod:`sitebuild.docstring_roles`);
- maths is rendered to MathML on the server (:mod:`sitebuild.mathml`), last of all
  content hooks, so that maths emitted by any other hook is rendered too.

Scratch files live in ``build/docs/`` only (made afresh at every build).
The logic lives in the importable, tested package :mod:`sitebuild`; this file only wires it.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The site's build machinery is the package docs/hooks/sitebuild/ (not installed with pla-verify).
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

import logging
import shutil
import time
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from sitebuild.cjk_font import cjk_characters, write_subset
from sitebuild.commands import expand_command_blocks
from sitebuild.docstring_roles import link_sphinx_roles
from sitebuild.doctest_blocks import DoctestBlockExtension
from sitebuild.page_doctests import run_page_doctests

#: Pages whose Python examples (>>> lines) run at build time (sitebuild.page_doctests).
PYTHON_EXAMPLE_PAGES = ("reference/api.md",)
from sitebuild.examples import ExampleBook, check_page_examples
from sitebuild.figures import draw_all
from sitebuild.layout_map import expand_layout_marker
from sitebuild.macros import expand_macros_in_markdown
from sitebuild.mathml import render_math_in_html, render_math_in_page
from sitebuild.offline_search import write_inline_search_index
from sitebuild.proof_embedding import embed_proofs
from sitebuild.step_player import expand_player_markers


class _Build:
    """The state of one build: where scratch files go and the examples computed so far."""

    def __init__(self, root: Path) -> None:
        self.workdir = root / "build" / "docs"
        if self.workdir.exists():
            shutil.rmtree(self.workdir)
        self.workdir.mkdir(parents=True)
        self.book = ExampleBook(self.workdir / "examples")
        self.started = time.monotonic()
        self._proof_pages: dict[str, str] | None = None
        self.players: dict[str, str] = {}
        self.cjk: set[str] = set()

    def proof_pages(self) -> dict[str, str]:
        """The generated, kernel-checked proof pages (computed once per build, on first use)."""
        if self._proof_pages is None:
            from verify.present.render import proof_pages

            self._proof_pages = proof_pages()
        return self._proof_pages

    def page_dir(self, src_uri: str) -> Path:
        return self.workdir / "pages" / Path(src_uri).with_suffix("")


_build: _Build | None = None
_log = logging.getLogger("mkdocs.plugins.pla_verify_site")


def _current() -> _Build:
    if _build is None:
        raise PluginError("docs/hooks/site.py: on_pre_build did not run")
    return _build


@event_priority(100)  # before mkdocstrings reads the extensions
def on_config(config):
    """Docstrings' >>> examples shown as code in the API reference (sitebuild.doctest_blocks).

    Registered here rather than in mkdocs.yml because the site's build package is not installed.
    """
    config.markdown_extensions.append(DoctestBlockExtension())
    return config


def on_pre_build(config) -> None:
    global _build
    _build = _Build(Path(config.config_file_path).resolve().parent)


def on_files(files, config):
    build = _current()
    try:
        written = draw_all(build.book, build.workdir / "figures")
    except Exception as error:  # any failure to draw must stop the build, with its cause
        raise PluginError(f"drawing the figures failed: {type(error).__name__}: {error}") from error
    _log.debug(f"pla-verify site: figures drawn in {time.monotonic() - build.started:.2f} s")
    for path in written:
        files.append(File.generated(config, f"figures/{path.name}", abs_src_path=str(path)))
    return files


def on_page_markdown(markdown, page, config, files):
    build = _current()
    started = time.monotonic()
    try:
        check_page_examples(markdown)
        if page.file.src_uri in PYTHON_EXAMPLE_PAGES:
            run_page_doctests(markdown, page.file.src_uri, build.page_dir(page.file.src_uri))
        markdown = expand_command_blocks(markdown, build.page_dir(page.file.src_uri))
        markdown = expand_macros_in_markdown(markdown, build.book)
        markdown = embed_proofs(markdown, page.file.src_uri, build.proof_pages)
        markdown = expand_layout_marker(markdown)
        markdown = expand_player_markers(markdown, build.book, build.workdir, build.players)
    except Exception as error:
        raise PluginError(f"{page.file.src_uri}: {type(error).__name__}: {error}") from error
    _log.debug(f"pla-verify site: {page.file.src_uri} computed in {time.monotonic() - started:.2f} s")
    return markdown


@event_priority(-100)
def on_page_content(html, page, config, files):
    try:
        return render_math_in_html(link_sphinx_roles(html))
    except Exception as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from error


def on_post_page(output, page, config):
    """Maths outside the content (table of contents, navigation, summaries, the title); notes
    the page's CJK characters for the quotations' web font."""
    _current().cjk |= cjk_characters(output)
    try:
        return render_math_in_page(output)
    except Exception as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from error


@event_priority(-100)  # after the search plugin has written its index
def on_post_build(config) -> None:
    build = _current()
    try:
        write_inline_search_index(Path(config.site_dir))
    except OSError as error:
        raise PluginError(f"search for the site opened from disk: {error}") from error
    try:
        missing = write_subset(build.cjk, Path(config.site_dir) / "fonts" / "cjk-quotes.woff")
    except OSError as error:  # MissingCJKFont included: never ship the quotations as boxes
        raise PluginError(f"the quotations' web font: {error}") from error
    if missing:
        raise PluginError(f"the quotations' web font lacks {len(missing)} characters: "
                          f"{''.join(missing[:20])}")
    elapsed = time.monotonic() - build.started
    _log.info(f"pla-verify site: pages computed in {elapsed:.1f} s; scratch files in {build.workdir}")
