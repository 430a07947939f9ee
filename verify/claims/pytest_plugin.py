"""pytest plugin ``pla_claims``: every ```claim block of a Markdown file is a test.

Registered through the ``pytest11`` entry point, so installing pla-verify is enough:

- ``pytest notes.md`` collects the claims of ``notes.md`` (a Markdown file named on the command
  line), one test item per claim, named ``FILE:LINE``;
- ``pla_claims_paths`` (ini option, paths relative to the ini file) lists files or directories
  whose Markdown files are collected too; a plain ``pytest`` run (no file arguments) adds them
  to the paths it collects.

A claim passes when it is proved (the kernel accepted a certificate); a refuted claim fails with
its exact counterexample, an unproved one with what could not be proved, an invalid one with the
parser's message.  Importing the plugin costs nothing: sympy is loaded by the first claim.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

__all__ = ["ClaimFile", "ClaimItem", "ClaimFailed"]

_INI = "pla_claims_paths"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(_INI, type="paths", default=[],
                  help="files or directories whose Markdown ```claim blocks are collected as "
                       "tests (pla-verify)")


def pytest_configure(config: pytest.Config) -> None:
    if config.args_source == pytest.Config.ArgsSource.ARGS:
        return  # files were named: collect only those
    extra = [str(p) for p in _configured(config) if p.exists()]
    for path in extra:
        if path not in config.args:
            config.args.append(path)


def _configured(config: pytest.Config) -> list[Path]:
    try:
        return [Path(p).resolve() for p in config.getini(_INI)]
    except (ValueError, KeyError):
        return []


def _named_on_command_line(config: pytest.Config, path: Path) -> bool:
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        return False
    root = Path(config.invocation_params.dir)
    for arg in config.args:
        candidate = Path(arg.split("::")[0])
        if not candidate.is_absolute():
            candidate = root / candidate
        if candidate.resolve() == path.resolve():
            return True
    return False


def _under_configured(config: pytest.Config, path: Path) -> bool:
    resolved = path.resolve()
    return any(resolved == p or p in resolved.parents for p in _configured(config))


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Any:
    if file_path.suffix.lower() not in (".md", ".markdown"):
        return None
    config = parent.config
    if _named_on_command_line(config, file_path) or _under_configured(config, file_path):
        return ClaimFile.from_parent(parent, path=file_path)
    return None


class ClaimFile(pytest.File):
    """A Markdown file; its items are its claim blocks."""

    def collect(self) -> Iterator["ClaimItem"]:
        from verify.claims import find_claim_blocks

        text = self.path.read_text(encoding="utf-8")
        for block in find_claim_blocks(text):
            yield ClaimItem.from_parent(self, name=f"{self.path.name}:{block.line}",
                                        body=block.body, line=block.line)


class ClaimFailed(Exception):
    """Raised by a claim item whose claim is refuted, unproved or invalid."""


class ClaimItem(pytest.Item):
    """One ```claim block."""

    def __init__(self, *, body: str, line: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.body = body
        self.line = line
        self.verdict: Any = None

    def runtest(self) -> None:
        from verify.claims import check_claim_text

        self.verdict = check_claim_text(self.body)
        if not self.verdict.ok:
            raise ClaimFailed(self.verdict.explain())

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimFailed):
            claim = "\n".join("    " + line for line in self.body.splitlines())
            return f"{self.path.name}:{self.line}: claim\n{claim}\n{excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.line - 1, f"claim {self.path.name}:{self.line}"
