"""The Design page's map of the tree, generated from the code at build time (so it cannot go stale).

``<!-- pla: layout -->`` becomes a table with one row per *room* (a package of ``pla`` or
``verify``): its role (the ``Role:`` sentence of its docstring), its files with their line
counts, and the rooms it imports (read from the source with :mod:`ast`, lazy imports included).

>>> rooms = layout_rooms()
>>> [r.name for r in rooms][:2]
['pla', 'verify.kernel']
>>> "decides" in rooms[1].role
True
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["MARKER", "FLOW_MARKER", "Room", "layout_rooms", "layout_markdown", "data_flow_text",
           "expand_layout_marker"]

MARKER = "<!-- pla: layout -->"
FLOW_MARKER = "<!-- pla: data-flow -->"
#: The data flow, stage by stage: (what happens, the function or class that does it).  Each name
#: is imported at build time and located in its file, so a renamed stage fails the build.
DATA_FLOW = (
    ("parse a data file (exact, line-numbered errors)", "pla.formats.load"),
    ("Dataset: integer rows over one common positive scale", "pla.dataset.Dataset"),
    ("propose a certificate (float LP/NNLS, exact finish)", "verify.search.certificates.certify"),
    ("DECIDE: check a separator / max-margin KKT / Gordan", "verify.kernel.certificates.check_max_margin"),
    ("run the engine, stream of Steps", "pla.perceptron.run"),
    ("DECIDE: every proof inequality at every step", "verify.checks.monitor.Monitor"),
    ("write the hash-chained trace", "pla.trace.TraceWriter"),
    ("DECIDE later: replay a trace against data and proof", "verify.checks.audit.audit"),
    ("DECIDE: a derivation of a built-in theorem", "verify.kernel.derivations.check_theorem"),
    ("show: proof pages from checked theorems", "verify.present.render.proof_pages"),
)
ROOT = Path(__file__).resolve().parents[3]
#: The rooms, in the order data flows through them.
ROOM_NAMES = ("pla", "verify.kernel", "verify.checks", "verify.search", "verify.proofs",
              "verify.claims", "verify.present", "verify.coq", "verify.cli")


@dataclass(frozen=True)
class Room:
    """One package: its role, its files with their line counts, the rooms it imports."""

    name: str
    role: str
    files: tuple[tuple[str, int], ...]
    imports: tuple[str, ...]

    @property
    def lines(self) -> int:
        return sum(n for _, n in self.files)


def _room_of(module: str) -> str | None:
    best = None
    for name in ROOM_NAMES:
        if module == name or module.startswith(name + "."):
            if best is None or len(name) > len(best):
                best = name
    return best


def _imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


def _role_sentence(doc: str) -> str:
    """The sentence after ``Role:`` in a docstring (its paragraph joined, roles unwrapped)."""
    for paragraph in doc.split("\n\n"):
        text = " ".join(paragraph.split())
        if "Role:" in text:
            role = text.split("Role:", 1)[1].strip()
            role = re.sub(r":[a-z]+:`~?([^`]+)`", r"`\1`", role).replace("``", "`")
            return role
    return doc.splitlines()[0] if doc else ""


def _files_of(name: str) -> list[Path]:
    folder = ROOT / Path(*name.split("."))
    if name == "pla":
        return sorted(folder.glob("*.py"))
    return sorted(folder.rglob("*.py"))


def layout_rooms() -> list[Room]:
    """Every room, read from the source tree."""
    rooms = []
    for name in ROOM_NAMES:
        files = _files_of(name)
        init = ROOT / Path(*name.split(".")) / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        role = _role_sentence(doc)
        imported: set[str] = set()
        for f in files:
            for module in _imported_modules(f):
                room = _room_of(module)
                if room is not None and room != name:
                    imported.add(room)
        rel = [(str(f.relative_to(ROOT)), len(f.read_text(encoding="utf-8").splitlines()))
               for f in files]
        rooms.append(Room(name, role, tuple(rel), tuple(sorted(imported, key=ROOM_NAMES.index))))
    return rooms


def layout_markdown(rooms: list[Room]) -> str:
    """The table the Design page shows."""
    out = ["| room | role | imports | files (lines) |", "|---|---|---|---|"]
    for room in rooms:
        files = ", ".join(f"`{Path(p).name}` ({n})" for p, n in room.files)
        imports = ", ".join(f"`{r}`" for r in room.imports) or "nothing of the project"
        out.append(f"| **`{room.name}`** ({room.lines} lines) | {room.role} | {imports} | {files} |")
    return "\n".join(out) + "\n"


def data_flow_text() -> str:
    """The data flow as a text diagram, each stage with the file and line that implements it.

    >>> "pla/formats.py" in data_flow_text()
    True
    """
    import importlib
    import inspect

    lines = []
    for i, (what, dotted) in enumerate(DATA_FLOW):
        module_name, _, attr = dotted.rpartition(".")
        target = getattr(importlib.import_module(module_name), attr)
        source = Path(inspect.getsourcefile(target)).resolve().relative_to(ROOT)
        line = inspect.getsourcelines(target)[1]
        arrow = "    " if i == 0 else "──▶ "
        lines.append(f"{arrow}{what:<55} {dotted}  ({source}:{line})")
    return "```text\n" + "\n".join(lines) + "\n```\n"


def expand_layout_marker(markdown: str) -> str:
    """Replace the markers (if present) by the generated table and data-flow diagram."""
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, layout_markdown(layout_rooms()))
    if FLOW_MARKER in markdown:
        markdown = markdown.replace(FLOW_MARKER, data_flow_text())
    return markdown
