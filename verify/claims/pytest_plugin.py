"""pytest plugin ``pla_claims``: every ```claim block of a Markdown file (or of a Jupyter
notebook's Markdown cells, :mod:`verify.claims.notebooks`) is a test.

Registered through the ``pytest11`` entry point, so installing pla-verify is enough (or load it
with ``-p pla_claims`` where plugin autoloading is off).  Markdown files are collected:

- when named on the command line (``pytest notes.md``);
- under every path pytest collects (command-line paths, else ``testpaths``) once the project
  opts in: ``pytest --claims PATH...``, ``-p pla_claims`` on the command line, or the ini
  option ``pla_claims = true``;
- under the paths of the ini option ``pla_claims_paths`` (added to a plain ``pytest`` run).

A project that does none of this keeps its collection unchanged.  Each claim is one item named
``FILE:LINE`` or ``FILE:LINE:ID`` (``id:`` line of the block); in a notebook
``NB.ipynb:cell K:line LINE[:ID]``.  A claim passes when it has its
expected verdict (proved unless ``expect:`` says otherwise) and every claim it ``uses:`` is
fully verified; a failure shows the claim, the verdict, the exact counterexample or what was
tried, and the domain conditions.  Blocks, ids and dependencies are read by
:mod:`verify.claims.documents`, as ``pla claims`` and the mkdocs plugin read them: an id given
twice fails every block with it.  ``--claims-coq DIR`` checks every proved claim a second time
with Coq at the end of the session (a refusal fails the session).  Importing the plugin costs nothing: sympy is loaded by the
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
_SUFFIXES = (".md", ".markdown", ".ipynb")  # a notebook: its Markdown cells


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pla-claims", "checked claims in Markdown (pla-verify)")
    group.addoption("--claims", action="store_true", default=False,
                    help="collect the ```claim blocks of every Markdown file under the given "
                         "paths (or testpaths), one test per claim")
    group.addoption("--claims-coq", metavar="DIR", default=None,
                    help="after the run, write every proved claim as a Coq theorem into DIR and "
                         "check them with coqc; a claim Coq refuses fails the session")
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
    config.stash[_REGISTRY] = {"found": [], "resolution": None}
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


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """``--claims-coq DIR``: Coq checks every claim proved in this session a second time."""
    directory = session.config.getoption("--claims-coq", default=None)
    registry = session.config.stash.get(_REGISTRY, None)
    if not directory or not registry or registry["resolution"] is None:
        return
    from verify.coq.claim_files import check_proved_claims

    resolution = registry["resolution"]
    decided = [(c.location, resolution.verdict(i)) for i, c in enumerate(resolution.found)
               if i in resolution.decided]
    refused = check_proved_claims(decided, directory)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    for line in refused:
        if reporter is not None:
            reporter.write_line(f"pla-claims --claims-coq: {line}", red=True)
    if refused:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    elif reporter is not None:
        reporter.write_line(f"pla-claims: Coq checked every proved claim ({directory})")


class ClaimFile(pytest.File):
    """A Markdown file; its items are its claim blocks, read by :mod:`verify.claims.documents`
    (the reading every front end shares)."""

    def collect(self) -> Iterator["ClaimItem"]:
        from pla.files import InputRefused, read_bounded, shown_path
        from verify.claims.documents import find_file_claims
        from verify.claims.notebooks import NotebookError, markdown_pieces_of_text, piece_path

        # A file that cannot be read is one line of collection error (as `pla claims` says it),
        # never a traceback.
        try:
            pieces = markdown_pieces_of_text(self.path, read_bounded(self.path).decode("utf-8"))
        except (InputRefused, NotebookError) as exc:
            raise self.CollectError(str(exc)) from None
        except OSError as exc:
            raise self.CollectError(f"{shown_path(self.path)}: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise self.CollectError(f"{shown_path(self.path)}: not UTF-8 text (byte "
                                    f"{exc.start + 1})") from None
        registry = self.config.stash[_REGISTRY]
        for piece in pieces:
            for found in find_file_claims(piece.text, piece_path(self.path.name, piece)):
                registry["found"].append(found)
                registry["resolution"] = None  # rebuilt once collection is complete
                yield ClaimItem.from_parent(self, name=found.location,
                                            index=len(registry["found"]) - 1, found=found)


class ClaimFailed(Exception):
    """Raised by a claim item whose claim is refuted, unproved, vacuous or invalid, or which
    uses a claim that is not fully verified."""


class ClaimItem(pytest.Item):
    """One ```claim block."""

    def __init__(self, *, index: int, found: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.index = index
        self.place = found.place  #: ``FILE:LINE``, or ``NB.ipynb:cell K:line LINE``
        self.block = found.block
        self.body = found.block.body
        self.line = found.block.line

    @property
    def resolution(self) -> Any:
        """The session's one resolution of every collected claim (ids, dependencies)."""
        from verify.claims.documents import ClaimResolution

        registry = self.config.stash[_REGISTRY]
        if registry["resolution"] is None:
            registry["resolution"] = ClaimResolution(registry["found"])
        return registry["resolution"]

    @property
    def verdict(self) -> Any:
        """The block's verdict (computed once per session)."""
        return self.resolution.verdict(self.index)

    def problems(self) -> tuple[str, ...]:
        """Why this claim is not fully verified (empty when it is)."""
        return self.resolution.problems(self.index)

    def runtest(self) -> None:
        problems = self.problems()
        if problems:
            raise ClaimFailed("\n".join(problems))

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimFailed):
            claim = "\n".join("    " + line for line in self.body.splitlines())
            domain = "".join(f"\n  domain: {d}" for d in self.verdict.domain)
            return f"{self.place}: claim\n{claim}\n{excinfo.value}{domain}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.line - 1, f"claim {self.name}"
