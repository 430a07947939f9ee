"""Coq checks every proved claim a second time (``pla claims PATH... --coq DIR``).

Each proved claim becomes one file ``Claim_<n>.v`` stating the claim over Coq's reals,
printed **directly from the claim parser's tree** (not from the sympy translation the kernel
checks, so a bug in that translation cannot make both agree):

- numbers are exact (``0.1`` is ``(1 / 10)``), ``x ** k`` is ``x ^ k``, ``sqrt`` is Coq's
  ``sqrt`` and ``Abs`` is ``Rabs``; every ``sqrt(e)`` of the claim adds ``0 <= e`` and every
  division by ``d`` adds ``d <> 0`` to the conclusion (the domain conditions the verdict lists;
  Coq's ``sqrt`` and ``/`` are total, so without them the statement would say less);
- vectors are elements of any real inner-product space (``InnerProduct.v``);
- ``Sum(f, (k, a, n))`` is ``psum (fun k => f) a T`` with ``INR T = n - a + 1`` (``Claims.v``:
  f(a) + ... + f(n)), for every real n the assumptions allow;
- ``n integer`` is ``exists z' : Z, n = IZR z'``.

The names the file makes up (``z'``, ``H'1``, ``A'1``, ``C'1``, ``D'1``, ``H'N``) have a ``'``
inside: a claim's names never have one there (:func:`_name` only appends one), so they never
collide.

The proof is a short script of Coq tactics (``lra``, ``nra``, ``field``, case splits on
``Rabs``, ``induction`` for sums) with hints taken from the kernel's certificate (its squares,
through :func:`certificate_squares`, the one function that reads a certificate) and a
positive multiplier clearing the denominators.  None of it is trusted: ``make -C DIR`` runs
coqc, and a file Coq refuses fails the run.  Every file ends with ``Print Assumptions``.

>>> from verify.claims.parser import parse_claim
>>> print(coq_statement(parse_claim("assume: x >= 0\\nsqrt(x)**2 == x"), "claim_1"))
Theorem claim_1 : forall (x : R), x >= 0 -> (0 <= x) /\\ (((sqrt x) ^ 2) = x).
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable

from verify.claims.parser import Claim, Relation, constant_value
from verify.coq.claim_powers import power_bound, power_script, power_text
from verify.coq.claim_signs import assumed_nonzero, sample_point, value_at
from verify.coq.library import LOGICAL_ROOT, MARKER, _makefile, library_source

__all__ = ["CoqExportError", "ClaimProof", "coq_statement", "claim_file", "certificate_squares",
           "write_claim_files", "check_claim_files", "check_proved_claims", "PRELUDE_FILES"]

#: The library files a claim file imports, each after the files it imports.
PRELUDE_FILES = ("InnerProduct.v", "Claims.v")
_KEYWORDS = {"as", "at", "cofix", "else", "end", "exists", "exists2", "fix", "for", "forall",
             "fun", "if", "in", "let", "match", "mod", "return", "then", "using", "where", "with",
             "Prop", "Set", "Type", "R", "S", "O", "V", "IP", "Z", "sqrt", "Rabs", "dot", "vadd",
             "vscale", "vzero", "psum", "INR", "IZR", "pow", "T", "t", "IH", "HT", "SProp", "nat",
             # the lemmas the proof scripts name (a claim's variable would shadow them)
             "pow2_ge_0", "sqrt_sqrt", "sqrt_pos", "dot_nonneg", "Rle_ge", "Rlt_gt", "Rgt_not_eq",
             "Rlt_not_eq", "by_certificate_le", "by_certificate_lt", "by_certificate_eq", "S_INR",
             "pos_INR", "dot_add_l", "dot_add_r", "dot_scale_l", "dot_scale_r", "dot_sym",
             "Rabs_right", "Rabs_left", "Rle_or_lt", "Rmult_lt_0_compat", "pow_lt",
             "ipow", "ipow_nat", "cauchy_schwarz", "norms_above_dot",
             "square_pos", "pow_le", "psum_geometric", "geometric_close", "geometric_bound",
             "powers_nonneg", "positive_parts"}
_OPS = {"==": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


class CoqExportError(ValueError):
    """A proved claim that cannot be written as Coq (a failure of the run, never a skip)."""


@dataclass(frozen=True)
class ClaimProof:
    """A proved claim to export: where it is (``location``), the parsed claim, and the
    kernel's certificate as the verdict shows it."""

    location: str
    claim: Claim
    certificate: str


def _name(symbol: str) -> str:
    """A claim symbol as a Coq identifier (never a keyword, never a library name)."""
    return symbol + "'" if symbol in _KEYWORDS else symbol


def _number(value: Fraction) -> str:
    text = str(abs(value.numerator)) if value.denominator == 1 else \
        f"({abs(value.numerator)} / {value.denominator})"
    return f"(- {text})" if value < 0 else text


class _Printer:
    """Parser expressions (tuples, see :mod:`verify.claims.parser`) as Coq terms."""

    def __init__(self, vectors: Iterable[str]) -> None:
        self.vectors = set(vectors)
        self.sums: list[tuple] = []   # the symbolic sums met, in order
        self.power_low: int | None = None  # n's lower bound m when the claim has x**(n + c)

    def is_vector(self, e: tuple) -> bool:
        kind = e[0]
        if kind == "sym":
            return e[1] in self.vectors
        if kind in ("add", "sub", "neg"):
            return self.is_vector(e[1])
        if kind in ("mul", "div"):
            return self.is_vector(e[1]) or (kind == "mul" and self.is_vector(e[2]))
        return False

    def vector(self, e: tuple) -> str:
        kind = e[0]
        if kind == "sym":
            return _name(e[1])
        if kind == "add":
            return f"(vadd {self.vector(e[1])} {self.vector(e[2])})"
        if kind == "sub":
            return f"(vadd {self.vector(e[1])} (vscale (-1) {self.vector(e[2])}))"
        if kind == "neg":
            return f"(vscale (-1) {self.vector(e[1])})"
        if kind == "mul":
            scalar, vec = (e[1], e[2]) if self.is_vector(e[2]) else (e[2], e[1])
            return f"(vscale {self.scalar(scalar)} {self.vector(vec)})"
        if kind == "div":
            return f"(vscale (/ {self.scalar(e[2])}) {self.vector(e[1])})"
        raise CoqExportError(f"cannot write the vector {e!r}")

    def scalar(self, e: tuple) -> str:
        kind = e[0]
        if kind == "num":
            return _number(e[1])
        if kind == "sym":
            return _name(e[1])
        if kind == "neg":
            return f"(- {self.scalar(e[1])})"
        if kind in ("add", "sub", "mul", "div"):
            op = {"add": "+", "sub": "-", "mul": "*", "div": "/"}[kind]
            return f"({self.scalar(e[1])} {op} {self.scalar(e[2])})"
        if kind == "pow":
            power = f"{self.scalar(e[1])} ^ {abs(e[2])}"
            return f"({power})" if e[2] >= 0 else f"(/ ({power}))"
        if kind == "powsym":  # x**(n + c) = x ^ (T + m + c), INR T = n - m (claim_powers.py)
            return power_text(self, e, CoqExportError)
        if kind == "sqrt":
            return f"(sqrt {self.scalar(e[1])})"
        if kind == "abs":
            return f"(Rabs {self.scalar(e[1])})"
        if kind == "dot":
            return f"(dot {self.vector(e[1])} {self.vector(e[2])})"
        if kind == "sum":
            _, body, k, low, high = e
            if self.sums:
                raise CoqExportError("a claim with two symbolic sums")
            self.sums.append(e)
            start = _number(Fraction(low))
            return f"(psum (fun {_name(k)} : R => {self.scalar(body)}) {start} T)"
        raise CoqExportError(f"cannot write {kind} in Coq")

    def relation(self, r: Relation) -> str:
        if r.op == "integer":
            return f"(exists z' : Z, {_name(r.lhs[1])} = IZR z')"
        return f"{self.scalar(r.lhs)} {_OPS[r.op]} {self.scalar(r.rhs)}"


def _domain(e: tuple, out: list[tuple[str, tuple]]) -> None:
    """The domain conditions of an expression, innermost first: ("nonneg", e) for a sqrt,
    ("nonzero", d) for a division or a negative power."""
    kind = e[0]
    for child in e[1:]:
        if isinstance(child, tuple) and kind != "sum":
            _domain(child, out)
    condition = {"sqrt": ("nonneg", e[1]), "div": ("nonzero", e[2] if kind == "div" else None),
                 "pow": ("nonzero", e[1])}.get(kind)
    # a rational constant is checked by the parser (no 1/0, no sqrt(-1)); sqrt(2) - 2 is not
    if kind == "pow" and e[2] >= 0 or condition is None or constant_value(condition[1]) \
            is not None:
        return
    if condition not in out:
        out.append(condition)


def _constant(e: tuple) -> bool:
    return not _symbols(e)


def _symbols(e: tuple) -> set[str]:
    if e[0] == "sym":
        return {e[1]}
    return {n for c in e[1:] if isinstance(c, tuple) for n in _symbols(c)}


def _conditions(relations: Iterable[Relation]) -> list[tuple[str, tuple]]:
    out: list[tuple[str, tuple]] = []
    for r in relations:
        if r.op != "integer":
            _domain(r.lhs, out)
            _domain(r.rhs, out)
    return out


def _condition_text(printer: _Printer, condition: tuple[str, tuple]) -> str:
    kind, e = condition
    return f"0 <= {printer.scalar(e)}" if kind == "nonneg" else f"{printer.scalar(e)} <> 0"


def coq_statement(claim: Claim, name: str) -> str:
    """The claim as one Coq theorem statement (see the module docstring)."""
    printer, powers = _Printer(claim.vectors), power_bound(claim)
    printer.power_low = powers[1] if powers else None
    scalars = " ".join(_name(s) for s in claim.symbols)
    binders = " ".join(([f"({scalars} : R)"] if scalars else []) +
                       ([f"({' '.join(_name(v) for v in claim.vectors)} : V)"]
                        if claim.vectors else []))
    hyps = [printer.relation(r) for r in claim.assumptions]
    hyps += [f"0 <= {printer.scalar(e)}" for kind, e in _conditions(claim.assumptions)
             if kind == "nonneg"]
    goals = [_condition_text(printer, c) for c in _conditions(claim.goals)]
    goals += [printer.relation(g) for g in claim.goals]
    if printer.sums:
        _, _, _, low, high = printer.sums[0]
        hyps.append(f"forall T : nat, INR T = {_name(high[1])} - {_number(Fraction(low))} + 1")
    elif powers:
        hyps.append(f"forall T : nat, INR T = {_name(powers[0])} - {_number(Fraction(powers[1]))}")
    conclusion = " /\\ ".join(f"({g})" for g in goals) if len(goals) > 1 else goals[0]
    quantified = f"forall {binders}, " if binders else ""
    hyps_text = "".join(f"{h} -> " for h in hyps)
    if printer.sums or powers:  # the T of the sum or the power is bound before its equation
        last = hyps_text.rsplit("forall T : nat, ", 1)
        hyps_text = last[0] + "forall T : nat, " + last[1]
    return f"Theorem {name} : {quantified}{hyps_text}{conclusion}."


# -- the proof ----------------------------------------------------------------------------------
def certificate_squares(certificate: str) -> list[str]:
    """The squared expressions of a kernel certificate, as Coq terms (hints for ``nra``).

    This is the one place that reads a certificate: it takes the verdict's certificate text
    (``big - small = c*(f)*(g)**2 + ...``); an expression it cannot read gives no hint.

    >>> certificate_squares("x**3 - 3*x + 2 - (0) = 2*(1 - x)**2 + 1*(x)*(1 - x)**2")
    ['(1 - x)']
    """
    out: list[str] = []
    for part in certificate.split(";"):
        if " = " not in part:
            continue
        try:
            tree = ast.parse(part.rsplit(" = ", 1)[1].strip().replace("\u221a(", "sqrt("),
                             mode="eval")
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and \
                    isinstance(node.right, ast.Constant) and node.right.value == 2:
                text = _hint(node.left)
                if text is not None and text not in out:
                    out.append(text)
    return out


def _hint(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return str(node.value)
    if isinstance(node, ast.Name):
        return _name(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _hint(node.operand)
        return None if inner is None else f"(- {inner})"
    if isinstance(node, ast.BinOp):
        ops = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "^"}
        left, right = _hint(node.left), _hint(node.right)
        if type(node.op) not in ops or left is None or right is None:
            return None
        return f"({left} {ops[type(node.op)]} {right})"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "sqrt" and len(node.args) == 1:
        inner = _hint(node.args[0])
        return None if inner is None else f"(sqrt {inner})"
    return None


def _goal_tactic(printer: _Printer, goal: Relation, signs: dict) -> str:
    """The tactic proving one relation of the claim (domain facts already in context)."""
    conditions = [c for c in _conditions([goal]) if c[0] == "nonzero"]
    if not conditions or goal.op not in ("<=", "<", ">=", ">", "=="):
        if goal.op == "!=":
            return "first [ apply Rgt_not_eq; claim_close | apply Rlt_not_eq; claim_close ]"
        return "claim_close"
    factors = [(f"(- {printer.scalar(d)})" if (signs.get(d) or 1) < 0 else printer.scalar(d))
               for _, d in conditions]   # a sign not known (None): the factor is squared below
    multiplier = " * ".join(f"{f} ^ 2" if signs.get(d) is None else f
                            for f, (_, d) in zip(factors, conditions))
    lemma = {"<=": "by_certificate_le", "<": "by_certificate_lt", "==": "by_certificate_eq",
             ">=": "by_certificate_le", ">": "by_certificate_lt"}[goal.op]
    flip = {">=": "apply Rle_ge; ", ">": "apply Rlt_gt; "}.get(goal.op, "")
    return (f"{flip}apply ({lemma} ({multiplier})); [ positive | "
            f"field_simplify; [ claim_close | nonzero .. ] ]")


def claim_file(proof: ClaimProof, name: str) -> str:
    """The Coq file of one proved claim: statement, proof script, ``Print Assumptions``."""
    claim = proof.claim
    printer = _Printer(claim.vectors)
    statement = coq_statement(claim, name)
    hyp_names = [f"H'{i}" for i in range(1, len(claim.assumptions) + 1)]
    hyp_names += [f"A'{i}" for i, c in enumerate(_conditions(claim.assumptions), 1)
                  if c[0] == "nonneg"]
    names = [_name(s) for s in claim.symbols] + [_name(v) for v in claim.vectors]
    point = sample_point(claim)
    lines = [f"(* {proof.location}: checked a second time by Coq (pla claims --coq). *)",
             "From Coq Require Import Reals Lra Psatz.",
             f"From {LOGICAL_ROOT} Require Import InnerProduct Claims.",
             "Open Scope R_scope.", "", "Section Claim.",
             "Context {V : Type} {IP : InnerProductSpace V}.", "", statement, "Proof."]
    has_sum = any(_has(side, "sum") for g in claim.goals for side in (g.lhs, g.rhs))
    if power_bound(claim):
        lines += power_script(printer, claim, names, hyp_names, rename=_name)
    elif has_sum:
        lines += _sum_script(printer, claim, names, hyp_names)
    else:
        lines.append(f"  intros {' '.join(names + hyp_names)}.".replace("intros .", "idtac."))
        for square in certificate_squares(proof.certificate):
            lines.append(f"  pose proof (pow2_ge_0 {square}).")
        for i, (kind, e) in enumerate(_conditions(claim.assumptions), 1):
            if kind == "nonneg":   # sqrt(e) in an assumption: its square and its sign
                lines.append(f"  pose proof (sqrt_sqrt {printer.scalar(e)} A'{i}).")
                lines.append(f"  pose proof (sqrt_pos {printer.scalar(e)}).")
        for k, e in enumerate(_constant_roots(claim), 1):
            shown = printer.scalar(e)
            lines.append(f"  assert (C'{k} : 0 <= {shown}) by lra.")
            lines.append(f"  pose proof (sqrt_sqrt {shown} C'{k}).")
            lines.append(f"  pose proof (sqrt_pos {shown}).")
        signs: dict = {}
        for k, (kind, e) in enumerate(_conditions(claim.goals), 1):
            shown = printer.scalar(e)
            if kind == "nonneg":
                lines.append(f"  assert (D'{k} : 0 <= {shown}) by "
                             f"(first [ apply dot_nonneg | claim_close ]).")
                lines.append(f"  pose proof (sqrt_sqrt {shown} D'{k}).")
                lines.append(f"  pose proof (sqrt_pos {shown}).")
                continue
            sign = None
            if point is not None and not assumed_nonzero(claim, e):
                try:
                    value = value_at(e, point)
                    sign = 1 if value > 0 else -1 if value < 0 else None
                except (ValueError, ZeroDivisionError, KeyError):
                    sign = None
            signs[e] = sign
            fact = {1: f"0 < {shown}", -1: f"{shown} < 0", None: f"{shown} <> 0"}[sign]
            lines.append(f"  assert (D'{k} : {fact}) by claim_close.")
        if claim.vectors:
            lines += _vector_script(claim)
        goals = list(claim.goals)
        count = len(_conditions(claim.goals)) + len(goals)
        if count > 1:
            lines.append("  repeat split.")
        for c in _conditions(claim.goals):
            lines.append("  - " + ("assumption." if c[0] == "nonneg" else "lra."))
        for g in goals:
            lines.append(("  - " if count > 1 else "  ") + _goal_tactic(printer, g, signs) + ".")
    lines += ["Qed.", "", "End Claim.", "", f"Print Assumptions {name}.", ""]
    return "\n".join(lines)


def _constant_roots(claim: Claim) -> list[tuple]:
    """The arguments of the constant square roots of a claim (``sqrt(2)``)."""
    out: list[tuple] = []

    def walk(e: tuple) -> None:  # innermost first: sqrt(2) is known >= 0 before sqrt(sqrt(2))
        for child in e[1:]:
            if isinstance(child, tuple):
                walk(child)
        if e[0] == "sqrt" and _constant(e[1]) and e[1] not in out:
            out.append(e[1])
    for r in (*claim.assumptions, *claim.goals):
        if r.op != "integer":
            walk(r.lhs)
            walk(r.rhs)
    return out


def _has(e: tuple, kind: str) -> bool:
    return e[0] == kind or any(isinstance(c, tuple) and _has(c, kind) for c in e[1:])


def _vector_script(claim: Claim) -> list[str]:
    vectors = list(claim.vectors)
    lines = []
    candidates = list(vectors)
    for i, u in enumerate(vectors):
        for v in vectors[i + 1:]:
            candidates += [f"(vadd {u} {v})", f"(vadd {u} (vscale (-1) {v}))"]
    for u in vectors:
        for v in vectors:
            if u != v:  # Lagrange's vector |v|^2 u - (u.v) v (Cauchy-Schwarz)
                candidates.append(f"(vadd (vscale (dot {v} {v}) {u}) "
                                  f"(vscale (- dot {u} {v}) {v}))")
    lines += [f"  pose proof (dot_nonneg {c})." for c in candidates]
    norms = _norms(claim)
    for i, u in enumerate(vectors):  # Claims.v proves Cauchy-Schwarz once, by its case split
        for v in vectors[i + 1:]:
            lines.append(f"  pose proof (cauchy_schwarz {_name(u)} {_name(v)}).")
            if u in norms and v in norms:
                lines.append(f"  destruct (norms_above_dot {_name(u)} {_name(v)}).")
    lines.append("  repeat first [ rewrite dot_add_l in * | rewrite dot_add_r in * "
                 "| rewrite dot_scale_l in * | rewrite dot_scale_r in * ].")
    for i, u in enumerate(vectors):
        for v in vectors[i + 1:]:
            lines.append(f"  try rewrite !(dot_sym {v} {u}) in *.")
    return lines


def _norms(claim: Claim) -> set[str]:
    """The vectors ``u`` whose norm ``sqrt(dot(u, u))`` (``norm(u)``) the claim uses."""
    found: set[str] = set()

    def walk(e: tuple) -> None:
        if e[0] == "sqrt" and e[1][0] == "dot" and e[1][1] == e[1][2] and e[1][1][0] == "sym":
            found.add(e[1][1][1])
        for child in e[1:]:
            if isinstance(child, tuple):
                walk(child)
    for r in (*claim.assumptions, *claim.goals):
        walk(r.lhs)
        walk(r.rhs)
    return found


def _sum_script(printer: _Printer, claim: Claim, names: list[str],
                hyp_names: list[str]) -> list[str]:
    goal = claim.goals[0]
    sums = [side for side in (goal.lhs, goal.rhs) if side[0] == "sum"]
    if len(claim.goals) != 1 or not sums:
        raise CoqExportError("a symbolic sum alone on one side of one comparison")
    _, _, _, low, high = sums[0]
    n = _name(high[1])
    step = "rewrite IH; claim_close" if goal.op == "==" else "claim_close"
    return [f"  intros {' '.join(names + hyp_names)} T HT.",
            f"  assert (H'N : {n} = INR T + ({_number(Fraction(low))} - 1)) by lra. subst {n}. clear HT.",
            "  repeat match goal with H : context [INR T] |- _ => clear H end.",
            "  induction T as [|t IH].",
            "  - simpl. claim_close.",
            f"  - cbn [psum]. rewrite S_INR. cbv beta. pose proof (pos_INR t). {step}."]


# -- files and the Coq run ----------------------------------------------------------------------
def write_claim_files(directory: str, proofs: list[ClaimProof]) -> dict[str, ClaimProof]:
    """Write the prelude, one file per proved claim and a Makefile; return file -> claim.
    Raises :class:`CoqExportError` naming the claim that cannot be written."""
    files: dict[str, str] = {name: library_source(name) if name != "Claims.v" else
                             _claims_prelude() for name in PRELUDE_FILES}
    written: dict[str, ClaimProof] = {}
    for k, proof in enumerate(proofs, 1):
        name = f"claim_{k}"
        try:
            files[f"Claim_{k}.v"] = claim_file(proof, name)
        except CoqExportError as exc:
            raise CoqExportError(f"{proof.location}: cannot be written as Coq: {exc}") from None
        written[f"Claim_{k}.v"] = proof
    from pla.files import claim_directory, write_text

    # the one write path; a directory holding the user's own files is refused (issue 27)
    claim_directory(directory, MARKER)
    for name, text in {**files, "Makefile": _claim_makefile(files)}.items():
        write_text(os.path.join(directory, name), text)
    return written


def _claims_prelude() -> str:
    from importlib import resources

    return resources.files("verify.coq").joinpath("Claims.v").read_text(encoding="utf-8")


def _claim_makefile(files: dict[str, str]) -> str:
    text = _makefile(files)
    for name in files:  # every claim file imports the prelude
        if name.startswith("Claim_"):
            text = text.replace(f"{name[:-2]}.vo: {name}\n",
                                f"{name[:-2]}.vo: {name} InnerProduct.vo Claims.vo\n")
    return text.replace("`pla proof --coq DIR`", "`pla claims PATH... --coq DIR`")


def check_claim_files(directory: str, written: dict[str, ClaimProof]) -> list[str]:
    """Run ``make -k -jN -Otarget -C DIR`` (one coqc per core, each file's output kept whole so
    that its ``Print Assumptions`` is read intact); return one line per claim Coq refused
    (empty when all are checked and rest only on the axioms of Coq's reals)."""
    import shutil

    if shutil.which("coqc") is None:
        return ["coqc is not installed: `make coq` installs Debian's coq (apt-get install coq)"]
    jobs = f"-j{max(1, len(os.sched_getaffinity(0)))}"  # the claim files are independent
    done = subprocess.run(["make", "-k", jobs, "-Otarget", "-C", directory], capture_output=True,
                          text=True,
                          timeout=3600)
    failures = []
    for file, proof in written.items():
        if not os.path.exists(os.path.join(directory, file[:-2] + ".vo")):
            reason = _coq_error(done.stdout + done.stderr, file)
            failures.append(f"{proof.location}: proved by the kernel but refused by Coq "
                            f"({file}: {reason})")
    if done.returncode != 0 and not failures:
        failures.append(f"make -C {directory} failed: {done.stderr.strip()[-500:]}")
    axioms = set(_AXIOM.findall(done.stdout))
    extra = axioms - REAL_NUMBER_AXIOMS
    if extra:
        failures.append(f"the Coq proofs rest on more than the axioms of the reals: "
                        f"{', '.join(sorted(extra))}")
    return failures


_AXIOM = re.compile(r"^([A-Za-z_][\w.]*\.[\w]+)\s*:", re.MULTILINE)
#: The axioms of Coq's classical reals, which the exported kernel theorems also use.
REAL_NUMBER_AXIOMS = {"ClassicalDedekindReals.sig_forall_dec",
                      "FunctionalExtensionality.functional_extensionality_dep",
                      "ClassicalDedekindReals.sig_not_dec"}


def _coq_error(log: str, file: str) -> str:
    at = log.find(f'File "./{file}"')
    if at < 0:
        at = log.find(file)
    snippet = log[at:at + 400] if at >= 0 else log[-400:]
    return " ".join(snippet.split())[:300]


def check_proved_claims(verdicts: Iterable[tuple[str, Any]], directory: str) -> list[str]:
    """Write every proved verdict of ``(location, verdict)`` pairs into ``directory`` as Coq
    and check them with coqc; one line per claim Coq refused or that cannot be written (empty
    when Coq accepts them all).  Every front end (``pla claims --coq``, ``pytest
    --claims-coq``, the mkdocs plugin's ``coq:``) calls this."""
    proofs = [ClaimProof(location, v.claim, v.certificate or "") for location, v in verdicts
              if v.status == "proved" and v.claim is not None]
    try:
        written = write_claim_files(directory, proofs)
    except CoqExportError as exc:
        return [str(exc)]
    except OSError as exc:
        return [f"{directory}: {exc.strerror or exc}"]
    return check_claim_files(directory, written)
