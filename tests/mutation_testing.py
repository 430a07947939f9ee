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
[(3, 'compare', '> -> >='), (3, 'constant', '0 -> 1')]
>>> print(mutated_source(source, mutants_of(source, "m.py")[0]).splitlines()[-1])
    return x >= 0
"""

from __future__ import annotations

import argparse
import ast
import copy
import datetime
import hashlib
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

__all__ = [
    "OPERATORS", "Mutant", "Outcome", "mutants_of", "mutated_source", "MutationTree",
    "run_mutant", "TARGETS", "main",
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


# --- which tests run against which mutant --------------------------------------------------------
# Fast, focused test files first: with ``pytest -x`` most mutants die in the first seconds.
_KERNEL_CERTIFICATE_TESTS = (
    "tests/test_kernel_certificates.py", "tests/test_kernel_edges.py",
    "tests/test_certificates.py", "tests/test_kernel_steps.py", "tests/test_pocket.py",
    "tests/test_audit_evidence.py",
)
_KERNEL_DERIVATION_TESTS = (
    "tests/test_kernel_derivations.py", "tests/test_kernel_edges.py", "tests/test_claims.py",
    "tests/test_proof_mutations.py", "tests/test_proofs.py",
)
_MONITOR_TESTS = ("tests/test_monitor.py", "tests/test_monitor_edges.py",
                  "tests/test_audit_evidence.py")
_KERNEL_INPUT_TESTS = ("tests/test_soundness.py",) + _KERNEL_DERIVATION_TESTS
_CLAIMS_TESTS = ("tests/test_claims.py", "tests/test_claims_plugin.py")
#: The part of the claims checker that translates a claim into kernel terms (the rest of
#: the file, counterexample search and Markdown scanning, only proposes or reports).
_CLAIMS_TRANSLATION = ("_Translation", "_prove", "_reduce", "_divisors_for", "_relation_expr")
_KERNEL_STEP_TESTS = ("tests/test_kernel_steps.py", "tests/test_monitor_edges.py",
                      "tests/test_monitor.py", "tests/test_audit_evidence.py")


#: The mutated files and, for each, which tests run against a mutant (fast ones first).
TARGETS: dict[str, Callable[[str], Callable[[Mutant], tuple[str, ...]]]] = {
    "verify/kernel/inputs.py": lambda source: (lambda m: _KERNEL_INPUT_TESTS),
    "verify/kernel/terms.py": lambda source: (lambda m: _KERNEL_INPUT_TESTS),
    "verify/kernel/derivations.py": lambda source: (lambda m: _KERNEL_INPUT_TESTS),
    "verify/kernel/statements.py": lambda source: (
        lambda m: ("tests/test_soundness.py", "tests/test_proofs.py")),
    "verify/claims/checker.py": lambda source: (
        lambda m: _CLAIMS_TESTS if m.function.split(".")[0] in _CLAIMS_TRANSLATION else ()),
    "verify/kernel/certificates.py": lambda source: (lambda m: _KERNEL_CERTIFICATE_TESTS),
    "verify/kernel/steps.py": lambda source: (lambda m: _KERNEL_STEP_TESTS),
    "verify/checks/monitor.py": lambda source: (lambda m: _MONITOR_TESTS),
}


class MutationTree:
    """A private copy of the project in a temporary directory: ``verify/`` and ``tests/`` are
    copied, everything else the tests read is linked.  Only the copy is ever mutated."""

    def __init__(self, root: Path = ROOT) -> None:
        self.root = root
        self.dir = Path(tempfile.mkdtemp(prefix="pla-mutation-"))
        ignore = shutil.ignore_patterns("__pycache__", ".hypothesis")
        for entry in root.iterdir():
            if entry.name in ("verify", "tests"):
                shutil.copytree(entry, self.dir / entry.name, ignore=ignore)
            elif entry.name not in (".git", ".venv", "site", "build", ".hypothesis",
                                    ".pytest_cache"):
                (self.dir / entry.name).symlink_to(entry)
        (self.dir / "build").mkdir()

    def write(self, path: str, text: str) -> None:
        target = self.dir / path
        target.write_text(text)
        for cached in (target.parent / "__pycache__").glob(f"{target.stem}.*.pyc"):
            cached.unlink()

    def remove(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


#: The pytest processes running now (stopped when the run is interrupted).
_RUNNING: set[subprocess.Popen] = set()


def _stop_running() -> None:
    for process in list(_RUNNING):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _pytest(tree: MutationTree, tests: Iterable[str], timeout: float,
            python: str = sys.executable) -> tuple[str, float, str]:
    """Run ``pytest -x`` in ``tree``; (status, seconds, last line of output)."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "HYPOTHESIS_PROFILE": "mutation",
           "PYTHONHASHSEED": "0"}
    env.pop("PYTHONPATH", None)
    existing = [t for t in tests if (tree.dir / t.split("::")[0]).exists()]
    command = [python, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "--no-header",
               "-o", "addopts=", *existing]
    start = time.monotonic()
    process = subprocess.Popen(command, cwd=tree.dir, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    _RUNNING.add(process)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return "timeout", time.monotonic() - start, f"over {timeout:.0f} s"
    finally:
        _RUNNING.discard(process)
    seconds = time.monotonic() - start
    failed = [line for line in output.splitlines() if line.startswith(("FAILED", "ERROR"))]
    last = (failed or output.strip().splitlines() or [""])[-1][:200]
    if process.returncode == 0:
        return "survived", seconds, last
    if process.returncode in (1, 2, 3):  # a test failed / collection or import failed
        return "killed", seconds, last
    return f"error {process.returncode}", seconds, last


def run_mutant(tree: MutationTree, source: str, mutant: Mutant, tests: Iterable[str],
               timeout: float) -> Outcome:
    """Write ``mutant`` into ``tree``, run ``tests`` against it, restore the file."""
    try:
        tree.write(mutant.path, mutated_source(source, mutant))
        status, seconds, detail = _pytest(tree, tests, timeout)
    finally:
        tree.write(mutant.path, source)
    return Outcome(mutant, status, round(seconds, 2), detail)


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation_testing",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds per mutant (default: 4 x the slowest baseline, >= 60)")
    parser.add_argument("--only", action="append", default=[],
                        help="only mutants whose path:line#number starts with this (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--deadline", type=float, default=None,
                        help="start no mutant after this many seconds; the rest is recorded as "
                             "not run and the report is marked partial")
    parser.add_argument("--output", type=Path,
                        default=ROOT / "benchmarks" / "results" / "mutation.json")
    parser.add_argument("--explanations", type=Path,
                        default=ROOT / "tests" / "mutation_equivalent.json")
    args = parser.parse_args(argv)

    sources = {path: (ROOT / path).read_text() for path in TARGETS}
    selectors = {path: TARGETS[path](text) for path, text in sources.items()}
    mutants = [m for path, text in sources.items() for m in mutants_of(text, path)
               if (not args.only or any(m.ident.startswith(p) for p in args.only))
               and selectors[path](m)]  # a mutant no test is meant to see is not counted
    if args.list:
        for m in mutants:
            print(f"{m.ident:28} {m.operator:11} {m.description:26} {m.function}")
        print(f"{len(mutants)} mutants")
        return 0

    started = time.monotonic()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))   # clean up as on Ctrl-C
    trees = [MutationTree() for _ in range(max(1, args.workers))]
    free = list(trees)
    lock = threading.Lock()
    try:
        # the baseline: the unparsed, unmutated files must pass every selected test
        baseline: dict[str, float] = {}
        for path, text in sources.items():
            tests = sorted({t for m in mutants if m.path == path for t in selectors[path](m)})
            if not tests:
                continue
            trees[0].write(path, unmutated_source(text))
            status, seconds, detail = _pytest(trees[0], tests, 1800)
            trees[0].write(path, text)
            print(f"baseline {path}: {status} in {seconds:.1f} s", flush=True)
            if status != "survived":
                print(f"the tests fail without any mutation: {detail}", file=sys.stderr)
                return 1
            baseline[path] = seconds
        timeout = args.timeout or max(60.0, 4 * max(baseline.values(), default=15.0))

        def work(mutant: Mutant) -> Outcome:
            if args.deadline is not None and time.monotonic() - started > args.deadline:
                return Outcome(mutant, "not-run", 0.0)
            with lock:
                tree = free.pop()
            try:
                return run_mutant(tree, sources[mutant.path], mutant,
                                  selectors[mutant.path](mutant), timeout)
            finally:
                with lock:
                    free.append(tree)

        outcomes: list[Outcome] = []
        pool = ThreadPoolExecutor(max_workers=len(trees))
        try:
            for i, outcome in enumerate(pool.map(work, mutants), 1):
                outcomes.append(outcome)
                print(f"[{i}/{len(mutants)}] {outcome.status:8} {outcome.seconds:6.1f} s  "
                      f"{outcome.mutant.ident} {outcome.mutant.description} "
                      f"({outcome.mutant.function})", flush=True)
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
            _stop_running()
    finally:
        for tree in trees:
            tree.remove()

    not_run = [o for o in outcomes if o.status == "not-run"]
    outcomes = [o for o in outcomes if o.status != "not-run"]
    explanations = _load_explanations(args.explanations)
    lines = {path: text.splitlines() for path, text in sources.items()}
    counts = {s: sum(o.status == s for o in outcomes) for s in ("killed", "timeout", "survived")}
    counts["error"] = len(outcomes) - sum(counts.values())
    survivors = []
    for o in outcomes:
        if o.status != "survived":
            continue
        key = survivor_key(lines[o.mutant.path], o.mutant)
        survivors.append({**asdict(o.mutant), "code": lines[o.mutant.path][o.mutant.line - 1].strip(),
                          "key": key, "reason": explanations.get(key)})
    detected = counts["killed"] + counts["timeout"]
    report = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": _commit(ROOT),
        "files": {path: hashlib.sha256(text.encode()).hexdigest() for path, text in sources.items()},
        "machine": _machine(),
        "partial": bool(args.only) or bool(not_run),
        "not_run": len(not_run),
        "operators": OPERATORS,
        "tests": {path: sorted({t for m in mutants if m.path == path for t in selectors[path](m)})
                  for path in sources},
        "timeout_seconds": round(timeout, 1),
        "workers": len(trees),
        "seconds_total": round(time.monotonic() - started, 1),
        "total": len(outcomes),
        "counts": counts,
        "score": {"detected": detected, "total": len(outcomes),
                  "percent": round(100 * detected / len(outcomes), 2) if outcomes else None},
        "by_file": {path: {s: sum(o.status == s for o in outcomes if o.mutant.path == path)
                           for s in ("killed", "timeout", "survived")} for path in sources},
        "by_operator": {name: {s: sum(o.status == s for o in outcomes
                                      if o.mutant.operator == name)
                               for s in ("killed", "timeout", "survived")}
                        for name in OPERATORS},
        "survivors": survivors,
        "timeouts": [asdict(o.mutant) for o in outcomes if o.status == "timeout"],
        "errors": [{**asdict(o.mutant), "status": o.status, "detail": o.detail}
                   for o in outcomes if o.status not in ("killed", "timeout", "survived")],
    }
    if not args.only:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {args.output}")
    else:
        print(json.dumps({k: report[k] for k in ("counts", "score", "survivors")}, indent=1))
    print(f"{detected}/{len(outcomes)} mutants detected ({report['score']['percent']}%), "
          f"{counts['survived']} survived, in {report['seconds_total']:.0f} s")
    unexplained = [s for s in survivors if not s["reason"]]
    for s in unexplained:
        print(f"  survivor without a reason: {s['path']}:{s['line']} {s['description']}  "
              f"{s['code']}  [{s['key']}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
