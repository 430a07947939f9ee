"""The package ``pla`` never imports ``verify`` (checked on the source, statically)."""

from __future__ import annotations

import ast
from pathlib import Path

PLA = Path(__file__).resolve().parent.parent / "pla"


def imported_modules(source: str) -> set[str]:
    """Every module an ``import``/``from`` statement or an ``import_module("...")`` call names.

    >>> sorted(imported_modules("import a.b\\nfrom c import d\\nimportlib.import_module('e')"))
    ['a.b', 'c', 'e']
    """
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) \
                in ("import_module", "__import__") and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            names.add(node.args[0].value)
    return names


def test_the_scanner_sees_every_kind_of_import():
    assert imported_modules("from verify.monitor import Monitor") == {"verify.monitor"}
    assert imported_modules("def f():\n    import verify") == {"verify"}
    assert imported_modules("__import__('verify.kernel')") == {"verify.kernel"}


def test_pla_never_imports_verify():
    offenders = {
        str(path.relative_to(PLA.parent)): sorted(m for m in imported_modules(path.read_text())
                                                  if m == "verify" or m.startswith("verify."))
        for path in sorted(PLA.rglob("*.py"))
    }
    assert {path: mods for path, mods in offenders.items() if mods} == {}
    assert len(offenders) >= 10  # the scan saw the package
