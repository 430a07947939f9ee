"""mkdocs hook: the checked proofs and the ```claim blocks of the site.

- ``on_files``: generates ``proofs/*.md`` from the kernel-checked theorems
  (:func:`verify.present.render.proof_pages`); a theorem the kernel rejects stops the build.
- ``on_page_markdown``: replaces every ```claim block by its rendered verdict; a refuted,
  unproved or invalid claim logs a warning, so ``mkdocs build --strict`` fails.

The maths of the generated Markdown is rendered by ``docs/hooks/site.py`` (listed before this
hook in mkdocs.yml).
"""

from __future__ import annotations

import logging

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.proofs")
_FAILED_CLAIMS: list[str] = []  # this build's failing claims (a strict build also fails with -q)


def on_pre_build(config):
    _FAILED_CLAIMS.clear()


def on_post_build(config):
    if config.get("strict") and _FAILED_CLAIMS:
        raise PluginError(f"{len(_FAILED_CLAIMS)} claim(s) not proved; first: {_FAILED_CLAIMS[0]}")


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


def on_page_markdown(markdown, page, config, files):
    from verify.claims import check_claim_text, find_claim_blocks
    from verify.present.render import render_claim

    blocks = find_claim_blocks(markdown)
    if not blocks:
        return markdown
    lines = markdown.splitlines()
    for block in reversed(blocks):  # replace from the end: earlier line numbers stay valid
        verdict = check_claim_text(block.body)
        if not verdict.ok:
            message = f"{page.file.src_uri}:{block.line}: claim {verdict.explain()}"
            log.warning(message)
            _FAILED_CLAIMS.append(message)
        indent = lines[block.line - 1][: len(lines[block.line - 1]) -
                                        len(lines[block.line - 1].lstrip())]
        rendered = [indent + line if line else line
                    for line in render_claim(block.body, verdict).splitlines()]
        lines[block.line - 1: block.end_line] = rendered
    return "\n".join(lines) + "\n"
