"""Cross-references for the Sphinx roles in the docstrings, on the rendered API page.

The docstrings name other objects Sphinx-style (`` :func:`load` ``,
`` :class:`~pla.dataset.Step` ``), which mkdocstrings does not understand and would show
verbatim (`` :func:<code>load</code> ``).
:func:`link_sphinx_roles` turns each such role, after rendering, into a cross-reference that
mkdocs-autorefs resolves to a link to the object's entry on the page (or to plain code when the
object is not documented): a relative name is looked up in the scopes of the object whose
docstring it is in, innermost first, as Python would.

>>> page = ('<h2 id="pla.dataset" class="doc">x</h2><p>see :func:<code>load</code> and '
...         ':class:<code>~pla.dataset.Dataset</code></p><h3 id="pla.dataset.load"></h3>')
>>> print(link_sphinx_roles(page).split("<p>")[1])
see <autoref identifier="pla.dataset.load" optional><code>load</code></autoref> and <autoref identifier="pla.dataset.Dataset" optional><code>Dataset</code></autoref></p><h3 id="pla.dataset.load"></h3>
"""

from __future__ import annotations

import re

__all__ = ["ROLE", "link_sphinx_roles"]

ROLE = re.compile(
    r":(?:py:)?(?:func|class|mod|meth|attr|data|exc|obj|const|type):"
    r"<code>(?P<tilde>~?)(?P<name>[A-Za-z_][\w.]*)(?P<call>\(\))?</code>"
)
_OBJECT_ID = re.compile(r'\bid="(?P<id>[A-Za-z_][\w.]*)"')


def _resolve(name: str, scope: str, known: set[str]) -> str:
    """The documented object ``name`` means inside ``scope`` (innermost scope first).

    >>> _resolve("load", "pla.dataset.Dataset", {"pla.dataset.load", "pla.load"})
    'pla.dataset.load'
    >>> _resolve("pla.run", "x", set())
    'pla.run'
    """
    parts = scope.split(".") if scope else []
    for depth in range(len(parts), -1, -1):
        candidate = ".".join([*parts[:depth], name])
        if candidate in known:
            return candidate
    tail = [k for k in known if k.endswith("." + name)]
    return tail[0] if len(tail) == 1 else name


def link_sphinx_roles(page_html: str) -> str:
    """Replace every rendered Sphinx role of ``page_html`` by an (optional) autorefs reference."""
    if ":<code>" not in page_html:
        return page_html
    known = {m.group("id") for m in _OBJECT_ID.finditer(page_html)}
    anchors = [(m.start(), m.group("id")) for m in _OBJECT_ID.finditer(page_html)]
    out: list[str] = []
    position = 0
    anchor = 0
    scope = ""
    for match in ROLE.finditer(page_html):
        while anchor < len(anchors) and anchors[anchor][0] < match.start():
            scope = anchors[anchor][1]
            anchor += 1
        name = match.group("name")
        identifier = _resolve(name, scope, known)
        shown = name.rsplit(".", 1)[-1] if match.group("tilde") else name
        shown += match.group("call") or ""
        out.append(page_html[position:match.start()])
        out.append(f'<autoref identifier="{identifier}" optional><code>{shown}</code></autoref>')
        position = match.end()
    out.append(page_html[position:])
    return "".join(out)
