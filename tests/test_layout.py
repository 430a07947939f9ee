"""The tree is the architecture: which room may import which (issue 18).

Every import in the installed packages, module-level or inside a function, is read from the
source with :mod:`ast` and checked against the rules each package docstring states:

- ``pla`` (the algorithms) never imports ``verify``, and has no import cycle;
- ``verify.kernel`` (decides) imports nothing of the project outside itself;
- ``verify.search`` (proposes) never imports the rooms that decide for runs or present results;
- ``verify.present`` (shows) never imports ``verify.search`` (it renders only checked objects)
  nor ``verify.claims``;
- no import cycle inside ``pla`` or inside ``verify.kernel``;
- nothing installed imports the site's build machinery (``docs/hooks/sitebuild``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute names; relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module",
                                                                                 "__import__")):
            found.add(node.args[0].value)              # importlib.import_module("verify...")
    return found


def project_modules(package: str) -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in sorted((ROOT / package).rglob("*.py"))}


def offending(package: str, forbidden: tuple[str, ...], allowed: tuple[str, ...] = ()) -> list[str]:
    bad = []
    for mod, imported in project_modules(package).items():
        for name in sorted(imported):
            if any(name == f or name.startswith(f + ".") for f in forbidden) and not any(
                    name == a or name.startswith(a + ".") for a in allowed):
                bad.append(f"{mod} imports {name}")
    return bad


def test_pla_never_imports_verify():
    assert offending("pla", ("verify",)) == []


def test_the_kernel_imports_nothing_of_the_project_outside_itself():
    assert offending("verify/kernel", ("pla", "verify", "sitebuild"), allowed=("verify.kernel",)) == []


def test_proposers_never_import_the_rooms_that_decide_runs_or_present():
    assert offending("verify/search", ("verify.checks", "verify.cli", "verify.claims",
                                       "verify.present", "verify.proofs")) == []


def test_presentation_never_imports_the_proposers():
    assert offending("verify/present", ("verify.search",)) == []


@pytest.mark.parametrize("package", ["pla", "verify"])
def test_nothing_installed_imports_the_site_machinery(package):
    assert offending(package, ("sitebuild", "docs")) == []


def import_cycles(package: str, root: str) -> list[list[str]]:
    """Every import cycle among the modules of ``package`` (the package's own ``__init__``,
    which imports its modules to re-export them, is left out)."""
    modules = project_modules(package)
    graph = {mod: {t for t in imported if t in modules and t not in (mod, root)}
             for mod, imported in modules.items()}
    cycles = []

    def visit(node: str, stack: list[str]) -> None:
        if node in stack:
            cycles.append(stack[stack.index(node):] + [node])
            return
        for nxt in sorted(graph.get(node, ())):
            visit(nxt, stack + [node])

    for mod in graph:
        if mod != root:
            visit(mod, [])
    return cycles


def test_pla_has_no_import_cycle():
    assert import_cycles("pla", "pla") == []


def test_the_kernel_has_no_import_cycle():
    """Issue 24: terms.py and statements.py imported each other (the registry of checked
    theorems now sits above both)."""
    assert import_cycles("verify/kernel", "verify.kernel") == []


def test_presentation_never_imports_the_claims_room():
    """Issue 24: render.py imported the claims translation (the one import up the tree)."""
    assert offending("verify/present", ("verify.claims",)) == []


def test_every_room_states_its_role_in_its_docstring():
    for package in ("verify/kernel", "verify/search", "verify/checks", "verify/claims",
                    "verify/present", "verify/cli", "verify/proofs", "verify/coq"):
        doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text()))
        assert doc is not None and "Role:" in doc, package


def test_the_scanner_sees_every_kind_of_import(tmp_path, monkeypatch):
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    source = tmp_path / "m.py"
    source.write_text("import a.b\nfrom c import d\ndef f():\n    import verify\n"
                      "importlib.import_module('e')\n__import__('verify.kernel')\n")
    assert imports_of(source) == {"a.b", "c", "c.d", "verify", "e", "verify.kernel"}


def test_the_rule_checker_sees_a_forbidden_import(tmp_path, monkeypatch):
    """The checker itself can fail: a planted ``import verify`` in a pla-like tree is reported."""
    fake = tmp_path / "pla"
    fake.mkdir()
    (fake / "__init__.py").write_text("")
    (fake / "bad.py").write_text("def f():\n    from verify.kernel import check_theorem\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    assert offending("pla", ("verify",)) == ["pla.bad imports verify.kernel",
                                              "pla.bad imports verify.kernel.check_theorem"]


def test_the_design_page_map_is_read_from_the_tree():
    from sitebuild.layout_map import data_flow_text, layout_markdown, layout_rooms

    rooms = {r.name: r for r in layout_rooms()}
    assert rooms["verify.kernel"].imports == ()
    assert "verify" not in " ".join(rooms["pla"].imports)
    assert ("verify/kernel/derivations.py" in dict(rooms["verify.kernel"].files))
    table = layout_markdown(list(rooms.values()))
    assert table.count("\n| **`") == len(rooms)
    assert "verify/checks/monitor.py:" in data_flow_text()


def test_the_trusted_base_page_lists_every_file_that_can_prove_a_claim_with_its_size():
    """Issue 24: a row (with its true size, < 500 lines) for every file that can turn a claim
    into "proved"; the proposers are not among them.  (Here, not in a test file that mutation
    testing runs: a mutation tree holds ``ast.unparse``-d sources, of other sizes.)"""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    page = (root / "docs" / "trusted-base.md").read_text()
    rows = dict(re.findall(r"^\| `(verify/claims/[a-z_]+\.py)` \| (\d+) \|", page, re.M))
    assert set(rows) == {"verify/claims/parser.py", "verify/claims/vectors.py",
                         "verify/claims/exponents.py",
                         "verify/claims/elaborate.py", "verify/claims/verdict.py",
                         "verify/claims/fences.py", "verify/claims/documents.py"}
    for path, lines in rows.items():
        actual = len((root / path).read_text().splitlines())
        assert int(lines) == actual, f"{path}: the page says {lines} lines, the file has {actual}"
        assert actual < 500
