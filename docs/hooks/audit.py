"""mkdocs hook: the runnable evidence of the audit page (``docs/audit.md``).

Every ``<!-- audit-evidence: NAME -->`` marker is replaced, at build time, by the exact
computation :func:`sitebuild.audit_evidence.compute` makes from the data files in
``docs/data/audit/`` with the real toolkit, and every ``<!-- hand-calculation: N.M -->`` by the
two-point calculation of finding N.M (:mod:`sitebuild.hand_calculations`).  Evidence or a
calculation that no longer shows what the page says fails the build.  Runs after
``docs/hooks/site.py`` (listed after it in mkdocs.yml); the maths of the inserted Markdown is
rendered by site.py's last content hook.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The site's build machinery is the package docs/hooks/sitebuild/ (not installed with pla-verify).
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from mkdocs.exceptions import PluginError

from sitebuild.audit_evidence import MARKER, expand_audit_markers
from sitebuild.hand_calculations import MARKER as HAND_MARKER, expand_hand_markers


def on_page_markdown(markdown, page, config, files):
    if not MARKER.search(markdown) and not HAND_MARKER.search(markdown):
        return markdown
    data_dir = Path(config["docs_dir"]) / "data" / "audit"
    try:
        return expand_hand_markers(expand_audit_markers(markdown, data_dir))
    except Exception as error:  # a failed or stale piece of evidence must stop the build
        raise PluginError(f"{page.file.src_uri}: {type(error).__name__}: {error}") from error
