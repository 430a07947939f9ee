"""mkdocs hook: the checked proof pages of the site.

- ``on_files``: generates ``proofs/*.md`` from the kernel-checked theorems
  (:func:`verify.present.render.proof_pages`); a theorem the kernel rejects stops the build.

The ```claim blocks of every page are checked and rendered by the ``pla-claims`` plugin
(:mod:`verify.claims.mkdocs_plugin`, listed under ``plugins:`` in mkdocs.yml), the same plugin
any other site installs; this hook adds only this project's own proof pages.  The maths of the
generated Markdown is rendered by ``docs/hooks/site.py`` (listed before this hook).
"""

from __future__ import annotations

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File


def on_files(files, config):
    from verify.kernel import KernelError
    from verify.present.render import proof_pages

    try:
        pages = proof_pages()
    except KernelError as error:
        raise PluginError(f"a built-in proof failed the kernel check: {error}") from error
    for path, markdown in pages.items():
        files.append(File.generated(config, path, content=markdown))
    return files
