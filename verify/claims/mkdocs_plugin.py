"""mkdocs plugin ``pla-claims``: every ```claim block of a site checked at build time.

Shipped as the entry point ``pla-claims`` of the group ``mkdocs.plugins``, so any site whose
environment has pla-verify installed writes::

    plugins:
      - search
      - pla-claims

What it does, and nothing else (it never adds this project's own pages to a site):

- decides every claim of every page once, at ``on_files`` (so ``uses:`` may name a claim of
  any page), in every fence syntax :mod:`verify.claims.fences` accepts;
- replaces each claim block by a rendering with a verdict badge and a collapsible certificate
  (``renderer: plain``, the default, needs no Markdown extension; ``renderer: latex`` renders
  the maths as admonitions with ``$...$``, for sites with ``admonition`` and
  ``pymdownx.arithmatex``);
- adds one generated page (``status_page``, default ``claims.md``; empty to disable) listing
  every claim with its verdict, its dependencies and whether it is fully verified;
- with ``coq: DIR``, writes every proved claim as a Coq theorem into DIR and checks them all
  with coqc (:mod:`verify.coq.claim_files`): a claim Coq refuses stops the build;
- logs a warning for every claim without its expected verdict (``expect:``, proved unless
  stated) or resting on one, so ``mkdocs build --strict`` fails, naming ``page.md:LINE``.
"""

from __future__ import annotations

import html
import logging
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File

__all__ = ["ClaimsPlugin", "ClaimsConfig", "render_plain", "status_markdown"]

log = logging.getLogger("mkdocs.plugins.pla-claims")

_BADGE = {"proved": ("#1b7f3b", "\u2714"), "refuted": ("#b3261e", "\u2718"),
          "vacuous": ("#8a5a00", "\u2205"), "unproved": ("#8a5a00", "?"),
          "invalid": ("#b3261e", "!")}


class ClaimsConfig(base.Config):
    """Options of the plugin (all optional)."""

    renderer = c.Choice(("plain", "latex"), default="plain")
    status_page = c.Type(str, default="claims.md")
    coq = c.Type(str, default="")  # a directory: Coq checks every proved claim a second time


def _badge(status: str, passed: bool) -> str:
    color, mark = _BADGE.get(status, ("#555", "?"))
    note = "" if passed else " (fails the build)"
    return (f'<span class="pla-claim-badge pla-claim-{status}" style="background:{color};'
            f'color:#fff;border-radius:.3em;padding:0 .4em;font-size:.85em">'
            f'{mark} {status}{note}</span>')


def _esc(text: str) -> str:
    """HTML-escaped, with the characters Markdown would read inside inline HTML spelled as
    entities (so ``x**2`` stays ``x**2``)."""
    out = html.escape(text)
    for ch in "*_`\\[]<>":
        if ch not in "<>":
            out = out.replace(ch, f"&#{ord(ch)};")
    return out


def render_plain(claim: Any) -> str:
    """A claim as Markdown that needs no extension: badge, the claim as text, and the
    certificate (or counterexample, or reason) and domain conditions in a ``<details>``.

    >>> from verify.claims.documents import check_markdown_text
    >>> print(render_plain(check_markdown_text("```claim\\nx**2 >= 0\\n```\\n")[0]))
    ... # doctest: +ELLIPSIS
    <span class="pla-claim-badge pla-claim-proved" ...>✔ proved</span> **Claim** ...
    """
    v = claim.verdict
    ident = f" `{claim.ident}`" if claim.ident else ""
    anchor = f'<a id="claim-{html.escape(claim.ident)}"></a>' if claim.ident else ""
    body = _esc(claim.block.body.strip()).replace("\n", "<br>")
    detail = v.explain()
    extra = "".join(f"<br>{_esc(p)}" for p in claim.problems)
    lines = [f"{anchor}{_badge(v.status, claim.passed)} **Claim**{ident}",
             "",
             f'<code class="pla-claim-text">{body}</code>',
             "",
             f'<details class="pla-claim-certificate"><summary>{html.escape(v.status)}: '
             f'certificate and domain</summary><code>{_esc(detail)}{extra}</code>'
             f'</details>']
    return "\n".join(lines) + "\n"


def _render_latex(claim: Any) -> str:
    from verify.present.render import render_claim

    text = render_claim(claim.block.body, claim.verdict)
    if claim.problems and claim.verdict.as_expected:
        text += "\n    " + "; ".join(claim.problems) + "\n"
    return text


def status_markdown(claims: list, pages: dict) -> str:
    """The status page: one row per claim (page, line, id, verdict, uses, fully verified).

    >>> status_markdown([], {}).splitlines()[0]
    '# Claims'
    """
    rows = ["# Claims", "",
            f"{len(claims)} claims; {sum(c.passed for c in claims)} as expected and fully "
            f"verified (every claim they use is too).", "",
            "| claim | id | verdict | uses | fully verified |", "|---|---|---|---|---|"]
    for claim in claims:
        page = pages.get(claim.path, claim.path)
        uses = ", ".join(f"`{u}`" for u in (claim.verdict.claim.uses if claim.verdict.claim
                                            else ()))
        fully = "yes" if claim.passed and claim.verdict.status == "proved" else \
            ("as expected" if claim.passed else "no")
        rows.append(f"| [{page}:{claim.line}]({page}) | {claim.ident or ''} | "
                    f"{claim.verdict.status} | {uses} | {fully} |")
    return "\n".join(rows) + "\n"


class ClaimsPlugin(BasePlugin[ClaimsConfig]):
    """See the module docstring."""

    def __init__(self) -> None:
        self.claims: dict[str, list] = {}
        self.failed: list[str] = []

    def on_pre_build(self, config: Any) -> None:
        self.claims, self.failed = {}, []

    def on_files(self, files: Any, config: Any) -> Any:
        from verify.claims.documents import check_markdown_texts

        texts = []
        for file in files.documentation_pages():
            try:
                texts.append((file.src_uri, file.content_string))
            except (OSError, UnicodeDecodeError) as exc:
                raise PluginError(f"pla-claims: cannot read {file.src_uri}: {exc}") from exc
        found = check_markdown_texts(texts)
        if self.config.coq:
            from verify.coq.claim_files import check_proved_claims

            refused = check_proved_claims(((c.location, c.verdict) for c in found),
                                          self.config.coq)
            if refused:
                raise PluginError(f"pla-claims: {len(refused)} proved claim(s) refused by Coq; "
                                  f"first: {refused[0]}")
        for claim in found:
            self.claims.setdefault(claim.path, []).append(claim)
            if not claim.passed:
                message = f"{claim.path}:{claim.line}: claim " + "; ".join(claim.problems)
                log.warning(message)
                self.failed.append(message)
        page = self.config.status_page
        if page:
            if files.get_file_from_path(page) is not None:
                raise PluginError(f"pla-claims: status_page {page!r} exists in docs/; choose "
                                  f"another name in the plugin's options")
            relative = {p: _relative(page, p) for p in self.claims}
            files.append(File.generated(config, page,
                                        content=status_markdown(found, relative)))
        return files

    def on_page_markdown(self, markdown: str, page: Any, config: Any, files: Any) -> str:
        from verify.claims.documents import check_markdown_text
        from verify.claims.fences import find_claim_blocks, markdown_lines

        blocks = find_claim_blocks(markdown)
        if not blocks:
            return markdown
        known = self.claims.get(page.file.src_uri, [])
        if [c.block.body for c in known] != [b.body for b in blocks]:
            known = check_markdown_text(markdown, page.file.src_uri)
            for claim in known:
                if not claim.passed:
                    message = f"{claim.path}:{claim.line}: claim " + "; ".join(claim.problems)
                    log.warning(message)
                    self.failed.append(message)
        render = _render_latex if self.config.renderer == "latex" else render_plain
        lines = markdown_lines(markdown)  # the lines find_claim_blocks numbers
        # placed at the lines of *this* markdown (mkdocs strips the front matter the file had
        # when the claims were decided); from the end: earlier line numbers stay valid
        for claim, block in reversed(list(zip(known, blocks))):
            rendered = [(block.prefix if k == 0 else block.continuation) + line
                        if line else block.continuation.rstrip()
                        for k, line in enumerate(render(claim).splitlines())]
            lines[block.line - 1: block.end_line] = rendered
        return "\n".join(lines) + "\n"

    def on_post_build(self, config: Any) -> None:
        if config.get("strict") and self.failed:
            raise PluginError(f"{len(self.failed)} claim(s) without their expected verdict; "
                              f"first: {self.failed[0]}")


def _relative(from_page: str, to_page: str) -> str:
    """Link from one docs page to another (both relative to docs/)."""
    import posixpath

    return posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")
