"""Sphinx extension ``verify.claims.sphinx``: every claim of a Sphinx (or Jupyter Book) site
checked at build time, as the mkdocs plugin does for mkdocs.

The smallest ``conf.py``::

    extensions = ["myst_parser", "verify.claims.sphinx"]

What it does:

- a claim is a ```` ```{claim} ```` MyST directive (``.. claim::`` in reStructuredText) or a
  code block whose language is ``claim`` (```` ```claim ````, ``.. code-block:: claim``); its
  body is the claim language of :mod:`verify.claims.parser`;
- every claim of every document is decided once after all documents are read, so ``uses:`` may
  name a claim of any document (:class:`verify.claims.documents.ClaimResolution`);
- each claim is shown with a verdict badge and, folded, the kernel's certificate (or the
  counterexample, or why), like the mkdocs plugin's ``plain`` renderer;
- a claim without its expected verdict (``expect:``, proved unless stated), or resting on one,
  is a warning located ``doc.md:LINE``, so ``sphinx-build -W`` fails;
- a status page listing every claim is added only when asked:
  ``pla_claims_status_page = "claims-status"`` (the page's name, HTML builders only).

Importing the extension costs nothing: sympy is loaded by the first claim.
"""

from __future__ import annotations

import html
from dataclasses import replace
from functools import lru_cache
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive, directives

__all__ = ["ClaimDirective", "claim_node", "setup"]

_COLOURS = {"proved": "#1b7f3b", "refuted": "#b3261e", "vacuous": "#8a5a00",
            "unproved": "#8a5a00", "invalid": "#b3261e"}


class claim_node(nodes.General, nodes.Element):  # noqa: N801 (docutils names nodes in lower case)
    """A claim waiting for its verdict: ``body``, ``docname`` and ``line`` attributes."""


class ClaimDirective(Directive):
    """```` ```{claim} ```` (MyST) or ``.. claim::`` (reST): the body is the claim; an
    argument on the fence line is a title, shown above the claim."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = {"class": directives.class_option}

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        node = claim_node(body="\n".join(self.content), docname=env.docname, line=self.lineno,
                          title=self.arguments[0] if self.arguments else "")
        _remember(env, node)
        return [node]


def _remember(env: Any, node: claim_node) -> None:
    if not hasattr(env, "pla_claims"):
        env.pla_claims = []
    env.pla_claims.append((node["docname"], node["line"], node["body"]))


def _claim_code_blocks(app: Any, doctree: nodes.document) -> None:
    """``doctree-read``: code blocks in the language ``claim`` become claims."""
    env = app.env
    for block in list(doctree.findall(nodes.literal_block)):
        if block.get("language") != "claim":
            continue
        node = claim_node(body=block.astext(), docname=env.docname, line=block.line or 0, title="")
        _remember(env, node)
        block.replace_self(node)


def _purge(app: Any, env: Any, docname: str) -> None:
    env.pla_claims = [c for c in getattr(env, "pla_claims", []) if c[0] != docname]


def _merge(app: Any, env: Any, docnames: Any, other: Any) -> None:
    env.pla_claims = getattr(env, "pla_claims", []) + \
        [c for c in getattr(other, "pla_claims", []) if c[0] in docnames]


def _fenced(body: str) -> str:
    """The claim as a Markdown fenced block (a fence longer than any backtick run inside)."""
    longest = run = 0
    for ch in body:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    fence = "`" * max(3, longest + 1)
    return f"{fence}claim\n{body}\n{fence}\n"


def decide_claims(env: Any) -> dict[tuple[str, int], Any]:
    """Every remembered claim decided, ids and dependencies resolved across documents as every
    front end resolves them (:class:`verify.claims.documents.ClaimResolution`): a
    :class:`verify.claims.documents.FileClaim` (path ``doc.md``) per (docname, line)."""
    from verify.claims.documents import ClaimResolution, find_file_claims

    keys, found = [], []
    for docname, line, body in sorted(getattr(env, "pla_claims", [])):
        for claim in find_file_claims(_fenced(body), str(env.doc2path(docname, False))):
            keys.append((docname, line))
            found.append(replace(claim, block=replace(claim.block, line=line)))
    resolution = ClaimResolution(found, decide=_decided)
    return {key: resolution.file_claim(i) for i, key in enumerate(keys)}


def _decided(found: Any) -> Any:
    """The verdict of one found claim; a claim's body is decided once per process (again only
    when its text changes)."""
    from verify.claims.documents import decide_found

    if found.error or found.claim is None or found.limited is not None:
        return decide_found(found)
    return _decided_body(found.block.body)


@lru_cache(maxsize=4096)
def _decided_body(body: str) -> Any:
    from verify.claims.verdict import decide_claim

    from verify.claims.parser import parse_claim

    return decide_claim(parse_claim(body))


def _check(app: Any, env: Any) -> None:
    """``env-check-consistency``: decide, and warn (so ``-W`` fails) for every failing claim."""
    from sphinx.util import logging

    log = logging.getLogger("verify.claims.sphinx")
    app.pla_claims_results = decide_claims(env)
    for (docname, line), claim in app.pla_claims_results.items():
        if not claim.passed:
            log.warning("claim " + "; ".join(claim.problems), location=(docname, line),
                        type="pla-claims")


def _failing_again(app: Any, env: Any, added: Any, changed: Any, removed: Any) -> list[str]:
    """``env-get-outdated``: documents with a failing claim are read again at every build, so
    an unchanged site with a refuted claim fails ``-W`` every time, not only the first."""
    failing = {docname for (docname, _), claim in decide_claims(env).items() if not claim.passed}
    return sorted(d for d in failing if d in env.all_docs and d not in changed)


def _results(app: Any) -> dict[tuple[str, int], Any]:
    if not hasattr(app, "pla_claims_results"):
        app.pla_claims_results = decide_claims(app.env)
    return app.pla_claims_results


def claim_html(claim: Any, title: str = "") -> str:
    """A decided claim as HTML: badge, the claim's text, and its certificate folded.

    >>> from verify.claims.documents import check_markdown_text
    >>> page = claim_html(check_markdown_text("```claim\\nx**2 >= 0\\n```\\n")[0])
    >>> "pla-claim-proved" in page and "certificate" in page
    True
    """
    verdict = claim.verdict
    note = "" if claim.passed else " (fails the build)"
    badge = (f'<span class="pla-claim-badge pla-claim-{verdict.status}" style="background:'
             f'{_COLOURS.get(verdict.status, "#555")};color:#fff;border-radius:.3em;'
             f'padding:0 .4em;font-size:.85em">{html.escape(verdict.status + note)}</span>')
    ident = f" <code>{html.escape(claim.ident)}</code>" if claim.ident else ""
    anchor = f' id="claim-{html.escape(claim.ident)}"' if claim.ident else ""
    heading = f" {html.escape(title)}" if title else ""
    problems = "".join(f"<br>{html.escape(p)}" for p in claim.problems)
    return (f'<div class="pla-claim"{anchor}><p>{badge} <strong>Claim</strong>{ident}{heading}</p>'
            f'<pre class="pla-claim-text">{html.escape(claim.block.body.strip())}</pre>'
            f'<details class="pla-claim-certificate"><summary>{html.escape(verdict.status)}: '
            f"certificate and domain</summary><code>{html.escape(verdict.explain())}{problems}"
            f"</code></details></div>")


def _render(app: Any, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: each claim node becomes its rendering (HTML, or text elsewhere)."""
    results = _results(app)
    for node in list(doctree.findall(claim_node)):
        claim = results.get((node["docname"], node["line"]))
        if claim is None:  # not decided (should not happen): show the claim, say so
            node.replace_self(nodes.literal_block(node["body"], node["body"]))
            continue
        if app.builder.format == "html":
            node.replace_self(nodes.raw("", claim_html(claim, node["title"]), format="html"))
        else:
            text = f"Claim {claim.ident} — {claim.verdict.explain()}".replace("  ", " ")
            node.replace_self([nodes.literal_block(node["body"], node["body"]),
                               nodes.paragraph(text, text)])


def _status_page(app: Any) -> Any:
    """``html-collect-pages``: the status page, when ``pla_claims_status_page`` names one."""
    name = app.config.pla_claims_status_page
    if not name:
        return []
    results = sorted(_results(app).values(),
                     key=lambda c: (c.path, c.line))
    rows = "".join(
        f"<tr><td>{html.escape(c.path)}:{c.line}</td><td>{html.escape(c.ident)}</td>"
        f"<td>{html.escape(c.verdict.status)}</td><td>"
        f"{html.escape(', '.join(c.verdict.claim.uses) if c.verdict.claim else '')}</td><td>"
        f"{'yes' if c.passed and c.verdict.status == 'proved' else ('as expected' if c.passed else 'no')}"
        f"</td></tr>" for c in results)
    passed = sum(c.passed for c in results)
    body = (f"<h1>Claims</h1><p>{len(results)} claims; {passed} as expected and fully verified "
            f"(every claim they use is too).</p><table><thead><tr><th>claim</th><th>id</th>"
            f"<th>verdict</th><th>uses</th><th>fully verified</th></tr></thead><tbody>{rows}"
            f"</tbody></table>")
    return [(name, {"title": "Claims", "body": body}, "page.html")]


def setup(app: Any) -> dict[str, Any]:
    """Register the directive, the events and ``pla_claims_status_page`` (default: none)."""
    app.add_config_value("pla_claims_status_page", "", "html", types=[str])
    app.add_node(claim_node)
    app.add_directive("claim", ClaimDirective)
    app.connect("doctree-read", _claim_code_blocks)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-get-outdated", _failing_again)
    app.connect("env-check-consistency", _check)
    app.connect("doctree-resolved", _render)
    app.connect("html-collect-pages", _status_page)
    from verify import __version__

    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 1}
