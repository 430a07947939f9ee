"""Mutation testing of the checkers: mutate the trusted kernel and the monitor, run their tests.

``make mutation`` runs ``python -m tests.mutation_testing``: every mutant of
the files of ``verify/kernel/`` and ``verify/checks/monitor.py`` (see :data:`OPERATORS`) is written into a
private copy of the package in a temporary directory -- the real files are never touched --
and the tests that exercise that part of the code are run against it with ``pytest -x``.
A mutant is *killed* when a test fails (or the mutated module no longer imports), *timed out*
when the tests run longer than the time limit (the suite hangs: detected), and *survives*
when every test passes.  The results go to ``benchmarks/results/mutation.json``, which the
Design page of the docs shows (``docs/hooks/mutation.py``).

The mutator works on the syntax tree (:mod:`ast`), so it never mutates comments, docstrings,
f-string messages or type annotations:

>>> source = "def positive(x):\\n    '''doc'''\\n    return x > 0\\n"
>>> [(m.line, m.operator, m.description) for m in mutants_of(source, "m.py")]
[(3, 'return-constant', 'return ... -> return True'), (3, 'compare', '> -> >='), (3, 'constant', '0 -> 1')]
>>> print(mutated_source(source, mutants_of(source, "m.py")[1]).splitlines()[-1])
    return x >= 0
"""

from __future__ import annotations

import argparse
import ast
import datetime
import gc
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

import pytest

__all__ = [
    "OPERATORS", "Mutant", "Outcome", "mutants_of", "mutated_source", "unmutated_source",
    "MutationTree", "Target", "TARGETS", "CoverageMap", "coverage_map", "statement_lines", "plan",
    "run_forked", "run_mutant", "run_jobs", "preload", "survivor_key", "main",
]

ROOT = Path(__file__).resolve().parents[1]

#: The mutation operators (the ``operator`` field of a :class:`Mutant`).
OPERATORS = {
    "compare": "a comparison flipped at its boundary or negated: < <=, > >=, == !=, in, is",
    "boolean": "and <-> or",
    "not": "`not x` -> `x`",
    "arithmetic": "+ <-> - (also in +=, -=), &= <-> |=",
    "constant": "an int n -> n + 1 (0 -> 1, 1 -> 0), True <-> False",
    "negate-if": "`if c` -> `if not c` (also conditional expressions)",
    "no-raise": "`raise E(...)` or a failing call `self._fail(...)` -> `pass`",
    "delete-call": "a call made for its effect (`ctx.rules.add(...)`, `_walk(...)`) -> `pass`",
    "return-constant": "`return e` -> `return True` (a test) or `return None` (anything else)",
    "check-constant": "the result of a check (`is_checked(...)`, `ctx.available(...)`) -> True",
    "drop-condition": "one operand of `a and b` / `a or b` dropped",
    "string-tag": "a relation or fact-kind tag changed: '>=0' <-> '>0', '=0' -> '>=0', "
                  "'<=' <-> '<', '>=' <-> '>', '=' -> '<='",
}

#: Semantic operator ``string-tag``: each tag and what it becomes.
_TAG_SWAP = {">=0": ">0", ">0": ">=0", "=0": ">=0", "<=": "<", "<": "<=", ">=": ">", ">": ">=",
             "=": "<="}
#: Semantic operator ``check-constant``: calls whose result is a verdict.
_CHECKS = frozenset({
    "is_checked", "available", "same", "_hyp_available", "_family_covers", "_is_natural",
    "_mentions", "is_vector", "isinstance", "_holds",
})

_COMPARE_SWAP = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_SYMBOL = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.And: "and",
    ast.Or: "or", ast.Add: "+", ast.Sub: "-", ast.BitAnd: "&", ast.BitOr: "|",
}
_ARITH_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add}
_AUG_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd}
#: Statement-level calls that raise (the monitor reports every failure through ``self._fail``).
_FAILING_CALLS = frozenset({"_fail"})


@dataclass(frozen=True)
class Mutant:
    """One mutation of one file: ``number`` is its position in :func:`mutants_of`'s order."""

    path: str
    number: int
    line: int
    column: int
    operator: str
    description: str
    function: str

    @property
    def ident(self) -> str:
        """``path:line#number``, e.g. ``verify/kernel/certificates.py:51#203``."""
        return f"{self.path}:{self.line}#{self.number}"


@dataclass(frozen=True)
class Outcome:
    """What the tests made of one mutant: status ``killed``, ``timeout`` or ``survived``."""

    mutant: Mutant
    status: str
    seconds: float
    detail: str = ""


class _Points(ast.NodeTransformer):
    """Walks a module in a fixed order, numbering the mutation points; with ``target`` set,
    applies mutation number ``target`` (and only it)."""

    def __init__(self, path: str, target: int | None = None, semantic: bool = True) -> None:
        self.path = path
        self.target = target
        self.semantic = semantic
        self.found: list[Mutant] = []
        self.scope: list[str] = []

    # -- bookkeeping ------------------------------------------------------------------------
    def _point(self, node: ast.AST, operator: str, description: str) -> bool:
        """Record a mutation point; True when it is the one to apply."""
        number = len(self.found)
        self.found.append(Mutant(self.path, number, getattr(node, "lineno", 0),
                                 getattr(node, "col_offset", 0), operator,
                                 description, ".".join(self.scope) or "<module>"))
        return number == self.target

    def _scoped(self, node: Any) -> Any:
        self.scope.append(node.name)
        # never the docstring, the decorators' order or the annotations
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            args.defaults = [self.visit(d) for d in args.defaults]
            args.kw_defaults = [d if d is None else self.visit(d) for d in args.kw_defaults]
        else:
            node.bases = [self.visit(b) for b in node.bases]
            node.keywords = [self.visit(k) for k in node.keywords]
        new_body = []
        for statement in body:
            result = self.visit(statement)
            new_body.append(result)
        node.body = node.body[: len(node.body) - len(body)] + new_body
        self.scope.pop()
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    # -- never mutated --------------------------------------------------------------------------
    def visit_JoinedStr(self, node: ast.JoinedStr) -> Any:  # messages
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> Any:
        if node.value is not None:
            node.value = self.visit(node.value)
        return node

    def visit_Assign(self, node: ast.Assign) -> Any:
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return node
        return self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> Any:
        if isinstance(node.value, ast.Constant):  # a bare string (docstring-like)
            return node
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                and call.func.attr in _FAILING_CALLS:
            if self._point(node, "no-raise", f"{call.func.attr}(...) -> pass"):
                return ast.copy_location(ast.Pass(), node)
        elif isinstance(call, ast.Call) and self.semantic:
            if self._point(node, "delete-call", f"{_call_name(call)}(...) -> pass"):
                return ast.copy_location(ast.Pass(), node)
        return self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> Any:
        value = node.value
        if self.semantic and value is not None and not (isinstance(value, ast.Constant)
                                                        and value.value in (None, True, False)):
            test = isinstance(value, (ast.Compare, ast.BoolOp)) or (
                isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.Not))
            new = True if test else None
            if self._point(node, "return-constant", f"return ... -> return {new}"):
                node.value = ast.Constant(new)
                return node
        return self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> Any:
        if self.semantic and _call_name(node) in _CHECKS:
            if self._point(node, "check-constant", f"{_call_name(node)}(...) -> True"):
                return ast.copy_location(ast.Constant(True), node)
        return self.generic_visit(node)

    # -- mutated --------------------------------------------------------------------------------
    def visit_Raise(self, node: ast.Raise) -> Any:
        if node.exc is not None and self._point(node, "no-raise", "raise -> pass"):
            return ast.copy_location(ast.Pass(), node)
        return self.generic_visit(node)

    def visit_If(self, node: ast.If) -> Any:
        if self._point(node, "negate-if", "if c -> if not c"):
            node.test = ast.UnaryOp(ast.Not(), node.test)
        return self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> Any:
        if self._point(node, "negate-if", "a if c else b -> a if not c else b"):
            node.test = ast.UnaryOp(ast.Not(), node.test)
        return self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> Any:
        for i, op in enumerate(node.ops):
            swap = _COMPARE_SWAP[type(op)]
            if self._point(node, "compare", f"{_SYMBOL[type(op)]} -> {_SYMBOL[swap]}"):
                node.ops[i] = swap()
        return self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> Any:
        swap = ast.Or if isinstance(node.op, ast.And) else ast.And
        if self._point(node, "boolean", f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[swap]}"):
            node.op = swap()
        if self.semantic:
            for i in range(len(node.values)):
                if self._point(node, "drop-condition",
                               f"drop operand {i + 1} of {_SYMBOL[type(node.op)]}"):
                    rest = node.values[:i] + node.values[i + 1:]
                    new = rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest)
                    return self.visit(ast.copy_location(new, node))
        return self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> Any:
        if isinstance(node.op, ast.Not) and self._point(node, "not", "not x -> x"):
            return self.visit(node.operand)
        return self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> Any:
        swap = _ARITH_SWAP.get(type(node.op))
        if swap and self._point(node, "arithmetic", f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[swap]}"):
            node.op = swap()
        return self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> Any:
        swap = _AUG_SWAP.get(type(node.op))
        if swap and self._point(node, "arithmetic",
                                f"{_SYMBOL[type(node.op)]}= -> {_SYMBOL[swap]}="):
            node.op = swap()
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> Any:
        value = node.value
        if self.semantic and isinstance(value, str) and value in _TAG_SWAP:
            if self._point(node, "string-tag", f"{value!r} -> {_TAG_SWAP[value]!r}"):
                return ast.copy_location(ast.Constant(_TAG_SWAP[value]), node)
        elif isinstance(value, bool):
            if self._point(node, "constant", f"{value} -> {not value}"):
                return ast.copy_location(ast.Constant(not value), node)
        elif isinstance(value, int):
            new = {0: 1, 1: 0}.get(value, value + 1)
            if self._point(node, "constant", f"{value} -> {new}"):
                return ast.copy_location(ast.Constant(new), node)
        return node


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "call")


def mutants_of(source: str, path: str) -> list[Mutant]:
    """Every mutant of ``source`` (the text of the file ``path``), in a fixed order."""
    points = _Points(path)
    points.visit(ast.parse(source))
    return points.found


def mutated_source(source: str, mutant: Mutant) -> str:
    """The text of ``source`` with ``mutant`` applied (formatting normalised by ``ast.unparse``)."""
    points = _Points(mutant.path, target=mutant.number)
    tree = points.visit(ast.parse(source))
    found = points.found[mutant.number] if mutant.number < len(points.found) else None
    if found != mutant:
        raise ValueError(f"{mutant.ident}: the source does not have this mutant")
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def unmutated_source(source: str) -> str:
    """``source`` through the same ``ast.unparse`` as every mutant (the baseline)."""
    return ast.unparse(ast.parse(source)) + "\n"


# --- what is mutated, and which test files may run against it ------------------------------------
#: The kernel's test files, fast and focused ones first (with ``pytest -x`` most mutants die in
#: the first test that runs).
_KERNEL_TESTS = (
    "tests/test_kernel_terms.py", "tests/test_kernel_inputs.py", "tests/test_kernel_statements.py",
    "tests/test_kernel_defence_in_depth.py", "tests/test_kernel_context.py",
    "tests/test_kernel_derivations.py",
    "tests/test_kernel_certificates.py", "tests/test_kernel_steps.py",
    "tests/test_kernel_edges.py", "tests/test_soundness.py", "tests/test_certificates.py",
    "tests/test_claims_kernel.py", "tests/test_soundness_claims.py", "tests/test_claims.py",
    "tests/test_attacks_lying_proposer.py", "tests/test_proof_mutations.py",
    "tests/test_pocket.py", "tests/test_audit_evidence.py", "tests/test_proofs.py",
    "tests/test_near_max_margin.py", "tests/test_attacks_near_max_margin.py",
    "tests/test_kernel_certificate_internals.py", "tests/test_attacks_session23.py",
    "tests/test_kernel_whole_lists.py", "tests/test_kernel_row_facts.py",
    "tests/test_attacks_row_facts.py", "tests/test_attacks_stop35_mends.py",
    "tests/test_attacks_kernel_type_claims.py", "tests/test_attacks_session37.py",
    "tests/test_attacks_session37b.py", "tests/test_attacks_session38.py",
    "tests/test_attacks_session38b.py", "tests/test_attacks_session39.py",
    "tests/test_attacks_session39b.py", "tests/test_attacks_session39c.py",
    "tests/test_attacks_session39d.py",
)
_MONITOR_TESTS = (
    "tests/test_kernel_steps_internals.py",
    "tests/test_monitor.py", "tests/test_monitor_edges.py", "tests/test_monitor_constants.py",
    "tests/test_kernel_steps.py", "tests/test_audit_evidence.py", "tests/test_soundness.py",
    "tests/test_monitor_int64.py", "tests/test_attacks_near_max_margin.py",
    "tests/test_attacks_session23.py", "tests/test_checked_run_one_pass.py",
    "tests/test_kernel_row_facts.py", "tests/test_attacks_deferred_monitor.py",
    "tests/test_monitor_blocks.py", "tests/test_attacks_session40.py",
)
_CLAIMS_TESTS = (
    "tests/test_claims_translation.py", "tests/test_claims_kernel.py", "tests/test_claims.py", "tests/test_soundness_claims.py",
    "tests/test_attacks_lying_proposer.py", "tests/test_claims_language.py",
)
#: The trusted files of the claims path (issue 24): the elaborator (the claim's statement, its
#: atoms and domain conditions) entirely, and of the verdict module the code that turns the
#: kernel's acceptance into ``proved`` / ``vacuous`` and a constant claim's negation into
#: ``refuted``.  The proposers (``propose.py``, ``induction.py``), the counterexample search
#: (``refute.py``) and the Markdown scanning only propose or report, and are not mutated.
_CLAIMS_VERDICT = ("_prove", "_propose", "_negation_proved", "decide_claim")
_CLAIMS_TESTS = _CLAIMS_TESTS + ("tests/test_attacks_claims_statement.py",
                                 "tests/test_attacks_claims_proposers.py",
                                 "tests/test_attacks_claim_display.py",
                                 "tests/test_attacks_claims_cleared_denominators.py")

#: Tests that cannot judge a mutant, never run against one: they fail on the unmutated private
#: tree for a reason that has nothing to do with the behaviour of the mutated code.
_EXCLUDED_TESTS = {
    "tests/test_soundness.py::test_the_trusted_base_page_gives_the_true_size_of_every_kernel_file":
        "counts the lines of the kernel's files: ast.unparse reformats them",
    "tests/test_audit_evidence.py::test_every_quotation_is_verbatim_at_the_cited_line_and_translated":
        "reads the seed notes in ../shared/seeds beside the checkout, not beside the private tree",
    "tests/test_audit_evidence.py::test_the_quotation_check_catches_a_misquote":
        "reads the seed notes in ../shared/seeds beside the checkout, not beside the private tree",
}


@dataclass(frozen=True)
class Target:
    """A mutated file: the test files that may run against its mutants (fast ones first) and,
    when only part of the file is checking code, the top-level functions and classes mutated."""

    tests: tuple[str, ...]
    functions: tuple[str, ...] | None = None

    def selects(self, mutant: Mutant) -> bool:
        """Whether ``mutant`` lies in the mutated part of the file."""
        return self.functions is None or mutant.function.split(".")[0] in self.functions


#: The mutated files.  For each mutant, only the tests of ``Target.tests`` that execute its
#: line (see :func:`coverage_map`) run against it.
TARGETS: dict[str, Target] = {
    "verify/claims/elaborate.py": Target(_CLAIMS_TESTS),
    "verify/claims/verdict.py": Target(_CLAIMS_TESTS, _CLAIMS_VERDICT),
    "verify/kernel/claim_statements.py": Target(_CLAIMS_TESTS + _KERNEL_TESTS),
    "verify/kernel/claim_display.py": Target(_CLAIMS_TESTS + _KERNEL_TESTS),
    "verify/kernel/exact.py": Target(_KERNEL_TESTS),
    "verify/kernel/registry.py": Target(_KERNEL_TESTS),
    "verify/checks/monitor.py": Target(_MONITOR_TESTS),
    "verify/kernel/inputs.py": Target(_KERNEL_TESTS),
    "verify/kernel/terms.py": Target(_KERNEL_TESTS),
    "verify/kernel/derivations.py": Target(_KERNEL_TESTS),
    "verify/kernel/context.py": Target(_KERNEL_TESTS),
    "verify/kernel/statements.py": Target(_KERNEL_TESTS),
    "verify/kernel/certificates.py": Target(_KERNEL_TESTS),
    "verify/kernel/data_checks.py": Target(_KERNEL_TESTS),
    "verify/kernel/products.py": Target(_KERNEL_TESTS),
    "verify/kernel/row_facts.py": Target(_KERNEL_TESTS + ("tests/test_monitor.py",
                                                          "tests/test_checked_run_one_pass.py")),
    "verify/kernel/steps.py": Target(_KERNEL_TESTS[:9] + _MONITOR_TESTS),
    "verify/kernel/claim_names.py": Target(_CLAIMS_TESTS),
    "verify/kernel/powers.py": Target(_CLAIMS_TESTS + ("tests/test_claims_powers.py",
                                                       "tests/test_attacks_claims_powers.py",
                                                       "tests/test_attacks_power_invariants.py")),
}


class MutationTree:
    """A private copy of the project in a temporary directory: the directories (or files)
    ``copied`` -- the mutated code and the tests -- are copied, everything else the tests read
    is linked.  Only the copy is ever mutated."""

    def __init__(self, root: Path = ROOT, copied: tuple[str, ...] = ("verify", "tests")) -> None:
        self.root = root
        self.dir = Path(tempfile.mkdtemp(prefix="pla-mutation-"))
        ignore = shutil.ignore_patterns("__pycache__", ".hypothesis")
        for entry in root.iterdir():
            if entry.name in copied and entry.is_dir():
                shutil.copytree(entry, self.dir / entry.name, ignore=ignore)
            elif entry.name in copied:
                shutil.copy2(entry, self.dir / entry.name)
            elif entry.name not in (".git", ".venv", "site", "build", ".hypothesis",
                                    ".pytest_cache", "__pycache__"):
                (self.dir / entry.name).symlink_to(entry)
        (self.dir / "build").mkdir()
        self._writes = 0

    def write(self, path: str, text: str) -> None:
        """Write ``text`` to ``path`` in the copy and drop its compiled bytecode.  Each write
        gets a modification time of its own (a whole second never used before), so a ``.pyc``
        compiled from an earlier text never passes Python's check (mtime and size) as this
        one's; the other files keep their bytecode from one run to the next."""
        target = self.dir / path
        target.write_text(text)
        for cached in (target.parent / "__pycache__").glob(f"{target.stem}.*.pyc"):
            cached.unlink()
        self._writes += 1
        stamp = (1_000_000_000 + self._writes) * 1_000_000_000
        os.utime(target, ns=(stamp, stamp))

    def remove(self) -> None:
        """Delete the copy."""
        shutil.rmtree(self.dir, ignore_errors=True)


# --- the fork server ------------------------------------------------------------------------------
#: Third-party modules the parent imports once, so that no child pays for them.  The project's
#: own packages (``pla``, ``verify``, ``tests``, ``sitebuild``) are never imported by the parent:
#: each child imports them from its private tree.
_PRELOAD = ("pytest", "_pytest.python", "hypothesis", "hypothesis.strategies", "sympy",
            "sympy.polys", "numpy", "flint", "scipy.optimize", "scipy.linalg", "coverage",
            "fractions", "decimal", "json", "argparse")
_PROJECT_PACKAGES = frozenset({"pla", "verify", "tests", "sitebuild", "conftest", "strategies",
                               "cli_runner"})


def preload() -> None:
    """Import the heavy third-party modules in this (the parent) process."""
    import importlib

    from _pytest.config import default_plugins

    for name in (*_PRELOAD, *(f"_pytest.{p}" for p in default_plugins),
                 "_hypothesis_pytestplugin", "platformdirs.pytest_plugin", "importlib.metadata"):
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    # The children's garbage collector leaves the parent's objects alone: no pass over sympy's
    # heap, and no copy of its pages in every child.
    gc.collect()
    gc.freeze()


def _project_file(file: str | None, root: Path) -> bool:
    if not file:
        return False
    try:
        path = Path(file).resolve()
    except (OSError, ValueError):
        return False
    venv = root / ".venv"
    return (path == root or root in path.parents) and venv not in path.parents


def _forget_project(root: Path) -> None:
    """In a child: drop every module of the project from ``sys.modules`` and the project's
    directories from ``sys.path``, so that the child imports them from its own tree."""
    for name, module in list(sys.modules.items()):
        if name == "__main__":
            continue
        file = getattr(module, "__file__", None)
        paths = list(getattr(module, "__path__", []) or [])
        if name.split(".")[0] in _PROJECT_PACKAGES or name.startswith("test_") \
                or _project_file(file, root) or any(_project_file(p, root) for p in paths):
            del sys.modules[name]
    sys.path[:] = [p for p in sys.path if p and not _project_file(p, root)]
    sys.path_importer_cache.clear()


class _TestContexts:
    """pytest plugin of a coverage run: each test's lines are recorded under its node id."""

    def __init__(self, cov: Any) -> None:
        self.cov = cov
        self.durations: dict[str, float] = {}
        self.order: list[str] = []
        self.failed: list[str] = []

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: Any, nextitem: Any) -> Any:
        self.order.append(item.nodeid)
        self.cov.switch_context(item.nodeid)
        yield
        self.cov.switch_context("")

    def pytest_runtest_logreport(self, report: Any) -> None:
        self.durations[report.nodeid] = self.durations.get(report.nodeid, 0.0) + report.duration
        if report.failed:
            self.failed.append(report.nodeid)


def _child(tree: Path, args: list[str], log: Path, root: Path, write_bytecode: bool,
           coverage_out: Path | None, include: list[str]) -> None:
    """The body of a forked child: run pytest in ``tree`` and exit with its status."""
    code = 70
    try:
        os.setpgid(0, 0)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        # a parent that is itself a pytest run has replaced the streams by its capture
        sys.stdin, sys.stdout, sys.stderr = sys.__stdin__, sys.__stdout__, sys.__stderr__
        os.chdir(tree)
        _forget_project(root)
        sys.path.insert(0, str(tree))
        os.environ.update({"HYPOTHESIS_PROFILE": "mutation", "PYTHONHASHSEED": "0"})
        os.environ.pop("PYTHONPATH", None)
        if not write_bytecode:
            os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
        sys.dont_write_bytecode = not write_bytecode
        plugins: list[Any] = []
        cov = None
        if coverage_out is not None:
            import coverage

            cov = coverage.Coverage(data_file=None, include=include, config_file=False)
            plugins.append(_TestContexts(cov))
            cov.start()
        code = int(pytest.main(args, plugins=plugins))
        if cov is not None and coverage_out is not None:
            cov.stop()
            data = cov.get_data()
            contexts = plugins[0]
            lines = {f: {str(n): sorted(c) for n, c in data.contexts_by_lineno(f).items()}
                     for f in data.measured_files()}
            coverage_out.write_text(json.dumps({
                "status": code, "lines": lines, "durations": contexts.durations,
                "order": contexts.order, "failed": contexts.failed}))
    except BaseException:  # noqa: BLE001 -- the child must never return into the parent's code
        import traceback

        traceback.print_exc()
        code = 70
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _spawn(tree: Path, args: list[str], log: Path, root: Path = ROOT,
           write_bytecode: bool = True, coverage_out: Path | None = None,
           include: Iterable[str] = ()) -> int:
    """Fork a child that runs ``pytest.main(args)`` in ``tree``; its process id (also the id of
    its process group)."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _child(tree, args, log, root, write_bytecode, coverage_out, list(include))
    try:
        os.setpgid(pid, pid)
    except OSError:  # the child did it first (or already ran)
        pass
    return pid


def _kill(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _pytest_args(tests: Iterable[str], stop_first: bool = True) -> list[str]:
    return [*(["-x"] if stop_first else []), "-q", "-p", "no:cacheprovider", "--no-header",
            "-o", "addopts=", *tests]


def _last_line(log: Path) -> str:
    try:
        output = log.read_text(errors="replace")
    except OSError:
        return ""
    failed = [line for line in output.splitlines() if line.startswith(("FAILED", "ERROR"))]
    return (failed or output.strip().splitlines() or [""])[-1][:200]


def _status(exit_code: int, log: Path | None = None) -> str:
    """What a child's exit code says about the mutant: 0 survived, 1 a test failed, 2 a test
    module does not import (collection error), 3 internal error -- killed; 4 is pytest's usage
    error, which is also what it says when a test module named by node id fails to import."""
    if exit_code == 0:
        return "survived"
    if exit_code in (1, 2, 3):
        return "killed"
    if exit_code == 4 and log is not None and "found no collectors for" in \
            log.read_text(errors="replace"):
        return "killed"
    return f"error {exit_code}"


def run_forked(tree: MutationTree, tests: Iterable[str], timeout: float,
               root: Path = ROOT) -> tuple[str, float, str]:
    """Run ``pytest -x`` on ``tests`` in ``tree`` in one forked child; (status, seconds, last
    line of output)."""
    log = tree.dir / "build" / "pytest.log"
    start = time.monotonic()
    pid = _spawn(tree.dir, _pytest_args(tests), log, root)
    while True:
        done, wait_status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() - start > timeout:
            _kill(pid)
            os.waitpid(pid, 0)
            return "timeout", time.monotonic() - start, f"over {timeout:.0f} s"
        time.sleep(0.01)
    _kill(pid)
    return _status(os.waitstatus_to_exitcode(wait_status), log), time.monotonic() - start, \
        _last_line(log)


def run_mutant(tree: MutationTree, source: str, mutant: Mutant, tests: Iterable[str],
               timeout: float, root: Path = ROOT) -> Outcome:
    """Write ``mutant`` into ``tree``, run ``tests`` against it in a forked child, restore the
    file.  No test at all: the mutant survives (nothing would notice it)."""
    tests = tuple(tests)
    if not tests:
        return Outcome(mutant, "survived", 0.0, _UNCOVERED)
    try:
        tree.write(mutant.path, mutated_source(source, mutant))
        status, seconds, detail = run_forked(tree, tests, timeout, root)
    finally:
        tree.write(mutant.path, source)
    return Outcome(mutant, status, round(seconds, 2), detail)


_UNCOVERED = "no test executes this line"


# --- which tests execute which line ---------------------------------------------------------------
@dataclass(frozen=True)
class CoverageMap:
    """Which tests execute which line of the mutated files, from one run of the test files
    under coverage.py with a context per test (the node id); the files are the unmutated ones
    as :func:`unmutated_source` writes them, so the lines are those of that text."""

    lines: dict[str, dict[int, frozenset[str]]]
    durations: dict[str, float]
    order: tuple[str, ...]

    def tests_for(self, path: str, lines: Iterable[int], import_time: bool,
                  files: tuple[str, ...]) -> tuple[str, ...]:
        """The tests of ``files`` that execute any of ``lines`` of ``path`` -- or, for a line
        run when the module is imported, every test that executes anything in ``path`` -- in
        the order of ``files``, then by their time (fast ones first)."""
        by_line = self.lines.get(path, {})
        chosen: set[str] = set()
        for line in lines:
            chosen |= by_line.get(line, frozenset())
        if import_time or "" in chosen:
            chosen = set().union(*by_line.values()) if by_line else set()
        rank = {f: i for i, f in enumerate(files)}
        position = {t: i for i, t in enumerate(self.order)}
        picked = [t for t in chosen if t and t.split("::")[0] in rank]
        return tuple(sorted(picked, key=lambda t: (rank[t.split("::")[0]],
                                                   self.durations.get(t, 0.0),
                                                   position.get(t, 0))))

    def seconds(self, tests: Iterable[str]) -> float:
        """The time ``tests`` took in the coverage run."""
        return sum(self.durations.get(t, 0.0) for t in tests)


def _digest(texts: Iterable[str]) -> str:
    h = hashlib.sha256()
    for text in texts:
        h.update(hashlib.sha256(text.encode()).digest())
    return h.hexdigest()


def coverage_map(trees: list[MutationTree], sources: dict[str, str], test_files: Iterable[str],
                 cache: Path | None, root: Path = ROOT, timeout: float = 3600.0,
                 log: Callable[[str], None] = print) -> CoverageMap:
    """Run each test file once under coverage.py against the unmutated files (written as
    :func:`unmutated_source`), in parallel in ``trees``, and map each line of ``sources`` to the
    tests that execute it.  This is also the baseline: a test that fails here stops the run.
    One result per test file is cached in ``cache``, keyed by a hash of the test file, the
    shared test modules, the project's sources and the mutated files."""
    test_files = list(dict.fromkeys(test_files))
    shared = sorted(p for p in (root / "tests").glob("*.py")
                    if not p.name.startswith("test_") and p.name != "mutation_testing.py")
    code = sorted(p for d in ("verify", "pla") if (root / d).is_dir()
                  for p in (root / d).rglob("*.py"))
    base = _digest([*(p.read_text() for p in shared + code),
                    *(f"{k}\0{v}" for k, v in sorted(sources.items())), "v1"])
    results: dict[str, dict[str, Any]] = {}
    todo = []
    for test in test_files:
        excluded = sorted(n for n in _EXCLUDED_TESTS if n.startswith(test + "::"))
        key = _digest([base, (root / test).read_text(), test, *excluded])
        cached = cache / f"{Path(test).stem}-{key[:20]}.json" if cache else None
        if cached is not None and cached.exists():
            results[test] = json.loads(cached.read_text())
        else:
            todo.append((test, cached))
    if todo:
        for tree in trees:
            for path, text in sources.items():
                tree.write(path, unmutated_source(text))
        include = None
        free = list(trees)
        running: dict[int, tuple[MutationTree, str, Path | None, Path, float]] = {}
        try:
            while todo or running:
                while todo and free:
                    test, cached = todo.pop(0)
                    tree = free.pop()
                    out = tree.dir / "build" / "coverage.json"
                    out.unlink(missing_ok=True)
                    include = [str(tree.dir / p) for p in sources]
                    deselect = [a for n in _EXCLUDED_TESTS if n.startswith(test + "::")
                                for a in ("--deselect", n)]
                    pid = _spawn(tree.dir, _pytest_args([test, *deselect], stop_first=False),
                                 tree.dir / "build" / "coverage.log", root,
                                 coverage_out=out, include=include)
                    running[pid] = (tree, test, cached, out, time.monotonic())
                for pid in list(running):
                    tree, test, cached, out, start = running[pid]
                    done, wait_status = os.waitpid(pid, os.WNOHANG)
                    if not done and time.monotonic() - start < timeout:
                        continue
                    if not done:
                        _kill(pid)
                        os.waitpid(pid, 0)
                        raise RuntimeError(f"coverage run of {test}: over {timeout:.0f} s")
                    _kill(pid)
                    del running[pid]
                    free.append(tree)
                    exit_code = os.waitstatus_to_exitcode(wait_status)
                    if not out.exists():
                        raise RuntimeError(f"coverage run of {test} ended with status {exit_code}"
                                           f": {_last_line(tree.dir / 'build' / 'coverage.log')}")
                    result = json.loads(out.read_text())
                    prefix = str(tree.dir) + os.sep
                    result["lines"] = {f[len(prefix):]: v for f, v in result["lines"].items()
                                       if f.startswith(prefix)}
                    if result["failed"] or exit_code not in (0, 5):
                        raise RuntimeError(f"the tests fail without any mutation ({test}, status "
                                           f"{exit_code}): {', '.join(result['failed'][:5])}")
                    log(f"coverage of {test}: {len(result['order'])} tests in "
                        f"{time.monotonic() - start:.1f} s")
                    results[test] = result
                    if cached is not None:
                        cached.parent.mkdir(parents=True, exist_ok=True)
                        cached.write_text(json.dumps(result))
                time.sleep(0.02)
        finally:
            for pid in running:
                _kill(pid)
                os.waitpid(pid, 0)
            for tree in trees:
                for path, text in sources.items():
                    tree.write(path, text)
    lines: dict[str, dict[int, set[str]]] = {}
    durations: dict[str, float] = {}
    order: list[str] = []
    for test in test_files:
        result = results[test]
        for path, by_line in result["lines"].items():
            for line, tests in by_line.items():
                lines.setdefault(path, {}).setdefault(int(line), set()).update(tests)
        durations.update(result["durations"])
        order += result["order"]
    return CoverageMap({p: {n: frozenset(t) for n, t in v.items()} for p, v in lines.items()},
                       durations, tuple(order))


def statement_lines(source: str) -> tuple[dict[int, range], frozenset[int]]:
    """For each line of ``source`` that starts or continues a statement, the lines of that
    statement (for ``if``/``while``/``def``...: the header only); and the lines inside a
    function body (the others run when the module is imported)."""
    tree = ast.parse(source)
    spans: dict[int, range] = {}
    in_function: set[int] = set()
    for node in ast.walk(tree):   # breadth first: inner statements come later and win
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            body = node.body if isinstance(node.body, list) else [node.body]
            first = body[0].lineno
            in_function.update(range(first, (node.end_lineno or first) + 1))
        if not isinstance(node, ast.stmt):
            continue
        end = node.end_lineno or node.lineno
        inner = [getattr(node, f) for f in ("body", "orelse", "finalbody", "handlers")
                 if isinstance(getattr(node, f, None), list) and getattr(node, f)]
        if inner:
            end = min(min(s.lineno for s in block) for block in inner) - 1
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and \
                    node.decorator_list:
                start = min(d.lineno for d in node.decorator_list)
                span = range(start, max(end, node.lineno) + 1)
            else:
                span = range(node.lineno, max(end, node.lineno) + 1)
        else:
            span = range(node.lineno, end + 1)
        for line in span:
            spans[line] = span
    return spans, frozenset(in_function)


# --- the run --------------------------------------------------------------------------------------
#: One letter per mutant in a report's ``results``: K killed, T timed out, S survived (its tests
#: pass), U survived (no test executes its line), E an unexpected pytest status, - not mutated.
_LETTER = {"killed": "K", "timeout": "T", "survived": "S"}


def _letter(outcome: Outcome) -> str:
    if outcome.status == "survived" and outcome.detail == _UNCOVERED:
        return "U"
    return _LETTER.get(outcome.status, "E")


def _status_of(letter: str) -> str:
    return {"K": "killed", "T": "timeout", "S": "survived", "U": "survived"}.get(letter, "error")


@dataclass(frozen=True)
class _Job:
    """A mutant to run: the tests that execute its line and its time limit."""

    mutant: Mutant
    tests: tuple[str, ...]
    timeout: float


def run_jobs(jobs: list[_Job], trees: list[MutationTree], sources: dict[str, str],
             root: Path = ROOT, deadline: float | None = None,
             report: Callable[[int, Outcome], None] = lambda i, o: None) -> list[Outcome]:
    """Run ``jobs`` with one forked child per mutant, ``len(trees)`` at a time, each in its own
    tree (a single-threaded scheduler; a child over its time limit is killed with its process
    group).  Jobs not started by ``deadline`` (``time.monotonic()``) are ``not-run``."""
    pending = list(reversed(jobs))
    free = list(trees)
    running: dict[int, tuple[MutationTree, _Job, float]] = {}
    outcomes: list[Outcome] = []

    def finish(outcome: Outcome) -> None:
        outcomes.append(outcome)
        report(len(outcomes), outcome)

    try:
        while pending or running:
            while pending and free:
                job = pending.pop()
                if deadline is not None and time.monotonic() > deadline:
                    finish(Outcome(job.mutant, "not-run", 0.0))
                    continue
                if not job.tests:
                    finish(Outcome(job.mutant, "survived", 0.0, _UNCOVERED))
                    continue
                tree = free.pop()
                tree.write(job.mutant.path, mutated_source(sources[job.mutant.path], job.mutant))
                pid = _spawn(tree.dir, _pytest_args(job.tests), tree.dir / "build" / "pytest.log",
                             root)
                running[pid] = (tree, job, time.monotonic())
            for pid in list(running):
                tree, job, start = running[pid]
                done, wait_status = os.waitpid(pid, os.WNOHANG)
                seconds = time.monotonic() - start
                if not done and seconds < job.timeout:
                    continue
                if done:
                    status = _status(os.waitstatus_to_exitcode(wait_status),
                                     tree.dir / "build" / "pytest.log")
                    detail = _last_line(tree.dir / "build" / "pytest.log")
                else:
                    _kill(pid)
                    os.waitpid(pid, 0)
                    status, detail = "timeout", f"over {job.timeout:.0f} s"
                _kill(pid)
                del running[pid]
                tree.write(job.mutant.path, sources[job.mutant.path])
                free.append(tree)
                finish(Outcome(job.mutant, status, round(seconds, 2), detail))
            time.sleep(0.01)
    finally:
        for pid, (tree, job, _) in running.items():
            _kill(pid)
            os.waitpid(pid, 0)
            tree.write(job.mutant.path, sources[job.mutant.path])
    return outcomes


def _machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cpus": os.cpu_count(), "python": platform.python_version(),
            "load_average": [round(v, 2) for v in os.getloadavg()]}


def _commit(root: Path) -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def _load_explanations(path: Path) -> dict[str, str]:
    """Why each known survivor is equivalent, keyed by ``path:function:description@text``."""
    if not path.exists():
        return {}
    return json.loads(path.read_text()).get("equivalent", {})


def survivor_key(source_lines: list[str], mutant: Mutant) -> str:
    """A key for a survivor that survives edits elsewhere in the file: the file, the
    function, the mutation, the text of its line and the column."""
    text = source_lines[mutant.line - 1] if 0 < mutant.line <= len(source_lines) else ""
    indent = len(text) - len(text.lstrip())
    return f"{mutant.path}:{mutant.function}:{mutant.description}@{text.strip()}" \
        f"@{mutant.column - indent}"


_LOG_LINE = re.compile(r"^\[\s*\d+/\d+\] (killed|timeout|survived|error -?\d+)\s+[\d.]+ s  "
                       r"(\S+:\d+#\d+) (.*?) \((.*?)\)(?:  \[(.*)\])?$")


def outcomes_from_log(text: str, mutants: list[Mutant]) -> dict[str, dict[int, str]]:
    """The outcomes an interrupted run printed (its progress lines), as letters per file and
    mutant number -- only for mutants of ``mutants`` whose place, number, description and
    function match, so a log of other sources gives nothing."""
    by_ident = {m.ident: m for m in mutants}
    out: dict[str, dict[int, str]] = {}
    for line in text.splitlines():
        found = _LOG_LINE.match(line)
        if not found:
            continue
        status, ident, description, function, detail = found.groups()
        m = by_ident.get(ident)
        if m is None or (m.description, m.function) != (description, function):
            continue
        out.setdefault(m.path, {})[m.number] = _letter(Outcome(m, status, 0.0, detail or ""))
    return out


def plan(sources: dict[str, str], mutants: list[Mutant], coverage: CoverageMap,
         minimum_timeout: float = 60.0, factor: float = 4.0,
         targets: dict[str, Target] | None = None) -> list[_Job]:
    """For each mutant, the tests of its target (``targets``, default :data:`TARGETS`) that
    execute its line, and its time limit (``factor`` times their time in the coverage run, at
    least ``minimum_timeout`` seconds)."""
    targets = TARGETS if targets is None else targets
    jobs = []
    by_path: dict[str, tuple[dict[int, range], frozenset[int], list[Mutant]]] = {}
    for path, text in sources.items():
        baseline = unmutated_source(text)
        spans, in_function = statement_lines(baseline)
        unparsed = mutants_of(baseline, path)
        by_path[path] = (spans, in_function, unparsed)
    for mutant in mutants:
        spans, in_function, unparsed = by_path[mutant.path]
        twin = unparsed[mutant.number] if mutant.number < len(unparsed) else None
        if twin is None or (twin.operator, twin.description, twin.function) != \
                (mutant.operator, mutant.description, mutant.function):
            raise ValueError(f"{mutant.ident}: not found in the unparsed file")
        lines = spans.get(twin.line, range(twin.line, twin.line + 1))
        tests = coverage.tests_for(mutant.path, lines, twin.line not in in_function,
                                   tuple(dict.fromkeys(targets[mutant.path].tests)))
        jobs.append(_Job(mutant, tests, max(minimum_timeout, factor * coverage.seconds(tests))))
    return jobs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation_testing",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--min-timeout", type=float, default=60.0,
                        help="seconds per mutant at least (the limit is 4 x the time of its "
                             "tests in the coverage run, and at least this)")
    parser.add_argument("--only", action="append", default=[],
                        help="only mutants whose path:line#number starts with this (repeatable); "
                             "the report is printed, not written")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--reuse", action="store_true",
                        help="reuse the recorded outcomes of every file whose sha256 is unchanged "
                             "since the recorded run; run the other files' mutants")
    parser.add_argument("--rerun-survivors", action="store_true",
                        help="as --reuse, but also rerun the recorded survivors (after tests "
                             "were added)")
    parser.add_argument("--resume", type=Path, action="append", default=[],
                        help="reuse the outcomes printed (stdout) by an interrupted run of the "
                             "same files (repeatable: a later log wins); with --rerun-survivors "
                             "their survivors run again")
    parser.add_argument("--deadline", type=float, default=None,
                        help="start no mutant after this many seconds; the rest is recorded as "
                             "not run and the report is marked partial")
    parser.add_argument("--output", type=Path,
                        default=ROOT / "benchmarks" / "results" / "mutation.json")
    parser.add_argument("--explanations", type=Path,
                        default=ROOT / "tests" / "mutation_equivalent.json")
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "mutation-coverage")
    parser.add_argument("--refresh-reasons", action="store_true",
                        help="run nothing: give the recorded survivors the reasons now in "
                             "--explanations (keyed as when they were run) and rewrite the report")
    args = parser.parse_args(argv)

    if args.refresh_reasons:
        report = json.loads(args.output.read_text())
        explanations = _load_explanations(args.explanations)
        for survivor in report["survivors"]:
            survivor["reason"] = explanations.get(survivor["key"])
        args.output.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
        missing = [s["key"] for s in report["survivors"] if not s["reason"]]
        print(f"{len(report['survivors']) - len(missing)} of {len(report['survivors'])} "
              f"survivors have a reason")
        for key in missing:
            print(f"  survivor without a reason: {key}")
        return 0

    sources = {path: (ROOT / path).read_text() for path in TARGETS}
    hashes = {path: hashlib.sha256(text.encode()).hexdigest() for path, text in sources.items()}
    mutants = [m for path, text in sources.items() for m in mutants_of(text, path)
               if TARGETS[path].selects(m)
               and (not args.only or any(m.ident.startswith(p) for p in args.only))]
    if args.list:
        for m in mutants:
            print(f"{m.ident:36} {m.operator:15} {m.description:34} {m.function}")
        print(f"{len(mutants)} mutants")
        return 0
    if os.environ.get("PYTHONHASHSEED") != "0":   # reproducible runs: one hash seed everywhere
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, "-m", "tests.mutation_testing",
                                  *(sys.argv[1:] if argv is None else argv)])

    started = time.monotonic()
    commit = _commit(ROOT)
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    recorded: dict[str, Any] = {}
    if (args.reuse or args.rerun_survivors) and args.output.exists():
        recorded = json.loads(args.output.read_text())
    reused: dict[str, dict[str, Any]] = {}
    for path in sources:
        old = recorded.get("results", {}).get(path)
        if old and old.get("sha256") == hashes[path] and recorded.get("operators") == OPERATORS:
            reused[path] = old
    resumed: set[str] = set()
    if args.resume:
        everything = [m for path, text in sources.items() for m in mutants_of(text, path)]
        logged: dict[str, dict[int, str]] = {}
        for log in args.resume:
            for path, letters in outcomes_from_log(log.read_text(), everything).items():
                logged.setdefault(path, {}).update(letters)
        for path, letters in logged.items():
            if path in reused:
                continue
            statuses = ["-"] * len(mutants_of(sources[path], path))
            for number, letter in letters.items():
                statuses[number] = letter
            reused[path] = {"statuses": "".join(statuses), "date": now, "commit": commit,
                            "tests": []}
            resumed.add(path)
    to_run = []
    for m in mutants:
        old = reused.get(m.path)
        letter = old["statuses"][m.number] if old and m.number < len(old["statuses"]) else "-"
        if old is None or letter == "-" or (args.rerun_survivors and letter in "SUE"):
            to_run.append(m)
    print(f"{len(mutants)} mutants, {len(to_run)} to run "
          f"({', '.join(sorted(reused)) or 'no file'} reused)", flush=True)

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))   # clean up as on Ctrl-C
    outcomes: list[Outcome] = []
    jobs: list[_Job] = []
    test_files: dict[str, list[str]] = {}
    if to_run:
        preload()
        copied = tuple(sorted({p.split("/")[0] for p in sources} | {"tests"}))
        trees = [MutationTree(ROOT, copied) for _ in range(max(1, args.workers))]
        try:
            files = dict.fromkeys(t for path in {m.path for m in to_run}
                                  for t in TARGETS[path].tests)
            coverage = coverage_map(trees, sources, files, args.cache)
            print(f"coverage map in {time.monotonic() - started:.0f} s", flush=True)
            jobs = plan(sources, to_run, coverage, args.min_timeout)
            width = len(str(len(jobs)))

            def show(i: int, o: Outcome) -> None:
                print(f"[{i:{width}}/{len(jobs)}] {o.status:8} {o.seconds:6.1f} s  "
                      f"{o.mutant.ident} {o.mutant.description} ({o.mutant.function})"
                      + (f"  [{o.detail}]" if o.status == "survived" else ""), flush=True)

            deadline = started + args.deadline if args.deadline is not None else None
            outcomes = run_jobs(jobs, trees, sources, ROOT, deadline, show)
        finally:
            for tree in trees:
                tree.remove()
        for job in jobs:
            test_files.setdefault(job.mutant.path, [])
            test_files[job.mutant.path] += [t.split("::")[0] for t in job.tests]

    not_run = [o for o in outcomes if o.status == "not-run"]
    new = {o.mutant: o for o in outcomes if o.status != "not-run"}
    explanations = _load_explanations(args.explanations)
    lines = {path: text.splitlines() for path, text in sources.items()}
    results: dict[str, dict[str, Any]] = {}
    final: list[tuple[Mutant, str, str]] = []   # mutant, status, detail
    for path, text in sources.items():
        everything = mutants_of(text, path)
        letters = ["-"] * len(everything)
        ran_here = False
        for m in everything:
            if not TARGETS[path].selects(m) or (args.only and m not in mutants):
                continue
            if m in new:
                letters[m.number] = _letter(new[m])
                final.append((m, new[m].status, new[m].detail))
                ran_here = True
            elif path in reused and reused[path]["statuses"][m.number] != "-" and \
                    all(o.mutant != m for o in not_run):
                letter = reused[path]["statuses"][m.number]
                letters[m.number] = letter
                final.append((m, _status_of(letter), _UNCOVERED if letter == "U" else ""))
        old = reused.get(path, {})
        tests_used = sorted(set(test_files.get(path, [])) | set(old.get("tests", [])))
        results[path] = {
            "sha256": hashes[path],
            "date": now if ran_here or path not in reused else old["date"],
            "commit": commit if ran_here or path not in reused else old["commit"],
            "mutants": sum(c != "-" for c in letters),
            "tests": tests_used,
            "statuses": "".join(letters),
        }
        if path in resumed:
            results[path]["resumed_from"] = [str(log) for log in args.resume]
    counts = {s: sum(st == s for _, st, _ in final) for s in ("killed", "timeout", "survived")}
    counts["error"] = len(final) - sum(counts.values())
    survivors = []
    for m, status, detail in final:
        if status != "survived":
            continue
        key = survivor_key(lines[m.path], m)
        survivors.append({**asdict(m), "code": lines[m.path][m.line - 1].strip(), "key": key,
                          "covered": detail != _UNCOVERED, "reason": explanations.get(key)})
    detected = counts["killed"] + counts["timeout"]
    total = len(final)
    report = {
        "date": now,
        "commit": commit,
        "files": {path: hashes[path] for path in sources},
        "machine": _machine(),
        "partial": bool(args.only) or bool(not_run),
        "not_run": len(not_run),
        "operators": OPERATORS,
        "tests": {path: results[path]["tests"] for path in sources},
        "timeout_seconds": args.min_timeout,
        "timeout_rule": "4 x the time of the mutant's tests in the coverage run, at least "
                        f"{args.min_timeout:.0f} s",
        "selection": "coverage",
        "workers": max(1, args.workers),
        "mutants_run": len(new),
        "seconds_total": round(time.monotonic() - started, 1),
        "seconds_full_run": recorded.get("seconds_full_run") if reused else
        round(time.monotonic() - started, 1),
        "total": total,
        "counts": counts,
        "score": {"detected": detected, "total": total,
                  "percent": round(100 * detected / total, 2) if total else None},
        "by_file": {path: {s: sum(st == s for m, st, _ in final if m.path == path)
                           for s in ("killed", "timeout", "survived")} for path in sources},
        "by_operator": {name: {s: sum(st == s for m, st, _ in final if m.operator == name)
                               for s in ("killed", "timeout", "survived")}
                        for name in OPERATORS},
        "survivors": survivors,
        "timeouts": [asdict(m) for m, st, _ in final if st == "timeout"],
        "errors": [{**asdict(m), "status": st, "detail": d} for m, st, d in final
                   if st not in ("killed", "timeout", "survived")],
        "results": results,
    }
    if not args.only:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {args.output}")
    else:
        print(json.dumps({k: report[k] for k in ("counts", "score", "survivors")}, indent=1))
    print(f"{detected}/{total} mutants detected ({report['score']['percent']}%), "
          f"{counts['survived']} survived; {len(new)} run in {report['seconds_total']:.0f} s")
    for s in survivors:
        if not s["reason"]:
            print(f"  survivor without a reason: {s['path']}:{s['line']} {s['description']}  "
                  f"{s['code']}  [{s['key']}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
