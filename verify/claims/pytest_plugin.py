"""pytest plugin ``pla_claims``: every ```claim block of a Markdown file is a test.

Registered through the ``pytest11`` entry point, so installing pla-verify is enough (or load it
with ``-p pla_claims`` where plugin autoloading is off).  Markdown files are collected:

- when named on the command line (``pytest notes.md``);
- under every path pytest collects (command-line paths, else ``testpaths``) once the project
  opts in: ``pytest --claims PATH...``, ``-p pla_claims`` on the command line, or the ini
  option ``pla_claims = true``;
- under the paths of the ini option ``pla_claims_paths`` (added to a plain ``pytest`` run).

A project that does none of this keeps its collection unchanged.  Each claim is one item named
``FILE:LINE`` or ``FILE:LINE:ID`` (``id:`` line of the block).  A claim passes when it has its
expected verdict (proved unless ``expect:`` says otherwise) and every claim it ``uses:`` is
fully verified; a failure shows the claim, the verdict, the exact counterexample or what was
tried, and the domain conditions.  Importing the plugin costs nothing: sympy is loaded by the
first claim.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

__all__ = ["ClaimFile", "ClaimItem", "ClaimFailed"]

_INI = "pla_claims_paths"
_INI_ON = "pla_claims"
_REGISTRY = pytest.StashKey[dict]()
_SUFFIXES = (".md", ".markdown")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pla-claims", "checked claims in Markdown (pla-verify)")
    group.addoption("--claims", action="store_true", default=False,
                    help="collect the ```claim blocks of every Markdown file under the given "
                         "paths (or testpaths), one test per claim")
    parser.addini(_INI, type="paths", default=[],
                  help="files or directories whose Markdown ```claim blocks are collected as "
                       "tests (pla-verify)")
    parser.addini(_INI_ON, type="bool", default=False,
                  help="collect the ```claim blocks of every Markdown file pytest visits")


def _opted_in(config: pytest.Config) -> bool:
    if config.getoption("--claims", default=False):
        return True
    args = list(config.invocation_params.args)
    for i, arg in enumerate(args):
        if arg == "-p" and i + 1 < len(args) and args[i + 1] in ("pla_claims",):
            return True
        if arg in ("-ppla_claims",):
            return True
    try:
        return bool(config.getini(_INI_ON))
    except (ValueError, KeyError):
        return False


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_REGISTRY] = {}
    if config.args_source == pytest.Config.ArgsSource.ARGS:
        return  # paths were named: collect only those
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
    if file_path.suffix.lower() not in _SUFFIXES:
        return None
    config = parent.config
    if (_opted_in(config) or _named_on_command_line(config, file_path)
            or _under_configured(config, file_path)):
        return ClaimFile.from_parent(parent, path=file_path)
    return None


class ClaimFile(pytest.File):
    """A Markdown file; its items are its claim blocks."""

    def collect(self) -> Iterator["ClaimItem"]:
        from pla.files import InputRefused, read_bounded, shown_path
        from verify.claims.fences import find_claim_blocks
        from verify.claims.parser import ClaimSyntaxError, parse_claim, without_assumptions

        # A file that cannot be read is one line of collection error (as `pla claims` says it),
        # never a traceback.
        try:
            text = read_bounded(self.path).decode("utf-8")
        except InputRefused as exc:
            raise self.CollectError(str(exc)) from None
        except OSError as exc:
            raise self.CollectError(f"{shown_path(self.path)}: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise self.CollectError(f"{shown_path(self.path)}: not UTF-8 text (byte "
                                    f"{exc.start + 1})") from None
        for block in find_claim_blocks(text):
            ident = ""
            try:   # the id is in the header: the assumptions are not needed (nor parsed) here
                ident = parse_claim(without_assumptions(block.body)).ident
            except ClaimSyntaxError:
                pass
            name = f"{self.path.name}:{block.line}" + (f":{ident}" if ident else "")
            item = ClaimItem.from_parent(self, name=name, block=block)
            if ident:
                self.config.stash[_REGISTRY].setdefault(ident, item)
            yield item


class ClaimFailed(Exception):
    """Raised by a claim item whose claim is refuted, unproved, vacuous or invalid, or which
    uses a claim that is not fully verified."""


class ClaimItem(pytest.Item):
    """One ```claim block."""

    def __init__(self, *, block: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.block = block
        self.body = block.body
        self.line = block.line
        self._verdict: Any = None

    @property
    def verdict(self) -> Any:
        """The block's verdict (computed once)."""
        if self._verdict is None:
            from verify.claims import Verdict, check_claim_text

            self._verdict = Verdict("invalid", None, reason=self.block.error) \
                if self.block.error else check_claim_text(self.body)
        return self._verdict

    def problems(self, stack: tuple = ()) -> list[str]:
        """Why this claim is not fully verified (empty when it is)."""
        verdict = self.verdict
        out = []
        if not verdict.as_expected:
            out.append(verdict.explain() if verdict.expected == "proved" else
                       f"expected {verdict.expected}, got {verdict.explain()}")
        registry = self.config.stash[_REGISTRY]
        for used in (verdict.claim.uses if verdict.claim else ()):
            other = registry.get(used)
            if other is None:
                out.append(f"uses {used!r}, which is no collected claim's id")
            elif used in stack or other.verdict.status != "proved" or \
                    other.problems(stack + (used,)):
                out.append(f"uses {used!r} ({other.path.name}:{other.line}), which is not "
                           f"fully verified")
        return out

    def runtest(self) -> None:
        problems = self.problems((self.verdict.claim.ident,) if self.verdict.claim else ())
        if problems:
            raise ClaimFailed("\n".join(problems))

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimFailed):
            claim = "\n".join("    " + line for line in self.body.splitlines())
            domain = "".join(f"\n  domain: {d}" for d in self.verdict.domain)
            return f"{self.path.name}:{self.line}: claim\n{claim}\n{excinfo.value}{domain}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.line - 1, f"claim {self.name}"
