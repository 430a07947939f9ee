"""Search on a site opened from disk: the search index as a script (the offline plugin's way).

A page opened over ``file://`` cannot ``fetch()`` ``search/search_index.json``; the theme then
loads ``search/search_index.js`` instead, which must define ``__index``. This writes that file
next to the JSON index (what mkdocs-material's ``offline`` plugin does; the plugin itself is
not used because it also adds a script from a CDN). ``docs/javascripts/file-search-worker.js``
lets the search worker run from ``file://``.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     search = Path(tmp) / "search"; search.mkdir()
...     _ = (search / "search_index.json").write_text('{"docs": []}')
...     print(write_inline_search_index(Path(tmp)).read_text())
var __index = {"docs": []}
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["write_inline_search_index"]


def write_inline_search_index(site_dir: Path) -> Path:
    """Write ``search/search_index.js`` (``var __index = <the JSON index>``); return its path.

    Raises FileNotFoundError when the search plugin wrote no index (search must work offline).
    """
    index = Path(site_dir) / "search" / "search_index.json"
    text = index.read_text(encoding="utf-8")
    target = index.with_name("search_index.js")
    target.write_text(f"var __index = {text}", encoding="utf-8")
    return target
