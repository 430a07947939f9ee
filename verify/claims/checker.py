"""Claims in Markdown: ```claim blocks, proved by the kernel or refuted by an exact example.

A verdict is ``proved`` (a certificate found by :mod:`verify.search.claim_certificates` and accepted by
:func:`verify.kernel.check_theorem`), ``refuted`` (an exact rational point that satisfies every
assumption and violates the claim) or ``unproved``.  ``sqrt(e)`` stands for a symbol s with
s >= 0 and s**2 = e, and brings the domain condition e >= 0 with it; ``Abs(e)`` for a symbol a
with a >= 0, a >= e, a >= -e and a**2 = e**2.

>>> verdict = decide_claim(parse_claim("assume: a >= 0, b >= 0\\n(a + b)**2 >= a**2 + b**2"))
>>> verdict.status, verdict.certificate
('proved', '(a + b)**2 - (a**2 + b**2) = 2*(a)*(b)')
>>> verdict = decide_claim(parse_claim("(a + b)**2 >= a**2 + b**2"))
>>> verdict.status, verdict.counterexample
('refuted', {'a': Fraction(1, 1), 'b': Fraction(-1, 1)})
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from math import isqrt
from pathlib import Path
from typing import Any

from verify.claims.parser import Claim, ClaimSyntaxError, Relation, parse_claim

__all__ = ["Verdict", "ClaimBlock", "decide_claim", "find_claim_blocks", "check_claim_text",
           "check_markdown_file", "parse_claim", "ClaimSyntaxError"]

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*claim[ \t]*$")
_ANY_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})")
_GRID = [Fraction(v) for v in (0, 1, -1, 2, -2, Fraction(1, 2), Fraction(-1, 2), 3, -3,
                               Fraction(1, 3), 10, -10)]


@dataclass(frozen=True)
class Verdict:
    """The outcome for one claim: status ``proved`` / ``refuted`` / ``unproved`` / ``invalid``."""

    status: str
    claim: Claim | None
    certificate: str | None = None
    counterexample: dict | None = None
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "proved"

    def explain(self) -> str:
        """A one-paragraph, human-readable account of the verdict."""
        if self.status == "proved":
            return f"proved: {self.certificate}"
        if self.status == "refuted":
            point = ", ".join(f"{k} = {_fmt(v)}" for k, v in self.counterexample.items())
            return f"refuted: counterexample {point} ({self.reason})"
        return f"{self.status}: {self.reason}"


@dataclass(frozen=True)
class ClaimBlock:
    """A ```claim block of a Markdown file: the line of its opening fence and its body."""

    line: int
    body: str
    end_line: int = 0


def _fmt(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def find_claim_blocks(text: str) -> list[ClaimBlock]:
    """Every fenced block whose info string is ``claim``.

    >>> [b.line for b in find_claim_blocks("x\\n```claim\\na >= a\\n```\\n")]
    [2]
    >>> find_claim_blocks("~~~markdown\\n```claim\\na >= a\\n```\\n~~~\\n")
    []
    """
    blocks = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        other = _ANY_FENCE.match(lines[i])
        if match:
            fence = match.group("fence")
            body = []
            j = i + 1
            while j < len(lines) and not _closes(lines[j], fence):
                body.append(lines[j][len(match.group("indent")):]
                            if lines[j].startswith(match.group("indent")) else lines[j])
                j += 1
            blocks.append(ClaimBlock(i + 1, "\n".join(body), j + 1))
            i = j + 1
        elif other:  # any other fenced block: its content is not Markdown, skip it
            j = i + 1
            while j < len(lines) and not _closes(lines[j], other.group("fence")):
                j += 1
            i = j + 1
        else:
            i += 1
    return blocks


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(fence[0] * len(fence)) and not stripped.strip(fence[0])


# -- exact evaluation (refutation) --------------------------------------------------------------
class _Undefined(Exception):
    pass


def _evaluate(e: tuple, point: dict) -> Fraction:
    kind = e[0]
    if kind == "num":
        return e[1]
    if kind == "sym":
        return point[e[1]]
    if kind == "neg":
        return -_evaluate(e[1], point)
    if kind == "abs":
        return abs(_evaluate(e[1], point))
    if kind == "sqrt":
        v = _evaluate(e[1], point)
        if v < 0:
            raise _Undefined
        n, d = isqrt(v.numerator), isqrt(v.denominator)
        if n * n != v.numerator or d * d != v.denominator:
            raise _Undefined  # irrational: skip the point (no floats)
        return Fraction(n, d)
    if kind == "pow":
        base = _evaluate(e[1], point)
        if base == 0 and e[2] < 0:
            raise _Undefined
        return base ** e[2]
    a, b = _evaluate(e[1], point), _evaluate(e[2], point)
    if kind == "add":
        return a + b
    if kind == "sub":
        return a - b
    if kind == "mul":
        return a * b
    if b == 0:
        raise _Undefined
    return a / b


def _holds(r: Relation, point: dict) -> bool:
    a, b = _evaluate(r.lhs, point), _evaluate(r.rhs, point)
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b}[r.op]


def _domain_ok(e: tuple, point: dict) -> None:
    """Raise _Undefined if a sqrt argument is negative anywhere in e."""
    _evaluate(e, point)


def _refute(claim: Claim, points: int, seed: int) -> tuple[dict, Relation] | None:
    names = claim.symbols
    if not names:
        candidates: Any = [()]
    elif len(_GRID) ** len(names) <= points:
        candidates = product(_GRID, repeat=len(names))
    else:
        rng = random.Random(seed)

        def sample() -> Any:
            for _ in range(points):
                yield tuple(rng.choice(_GRID) if rng.random() < 0.7 else
                            Fraction(rng.randint(-20, 20), rng.randint(1, 6)) for _ in names)
        candidates = sample()
    for values in candidates:
        point = dict(zip(names, values))
        try:
            if not all(_holds(r, point) for r in claim.assumptions):
                continue
            for goal in claim.goals:
                if not _holds(goal, point):
                    return point, goal
        except _Undefined:
            continue
    return None


# -- proof (certificate search + kernel) --------------------------------------------------------
class _Translation:
    def __init__(self) -> None:
        import sympy as sp

        self.sp = sp
        self.symbols: dict[str, Any] = {}
        self.aux: dict[tuple, Any] = {}
        self.hyps: list = []  # kernel Hyp objects for sqrt / Abs
        self.rewrites: dict = {}
        self.domain: list = []

    def expr(self, e: tuple) -> Any:
        sp = self.sp
        kind = e[0]
        if kind == "num":
            return sp.Rational(e[1].numerator, e[1].denominator)
        if kind == "sym":
            if e[1] not in self.symbols:
                self.symbols[e[1]] = sp.Symbol(e[1], real=True)
            return self.symbols[e[1]]
        if kind == "neg":
            return -self.expr(e[1])
        if kind in ("sqrt", "abs"):
            if e not in self.aux:
                from verify.kernel import Fact, Hyp, Rewrite

                arg = self.expr(e[1])
                k = len(self.aux) + 1
                name = f"sqrt{k}" if kind == "sqrt" else f"abs{k}"
                s = sp.Symbol(f"_{name}", real=True)
                square = arg if kind == "sqrt" else sp.expand(arg ** 2)
                self.hyps.append(Hyp(f"{name}>=0", Fact(s, ">=", 0)))
                self.hyps.append(Hyp(f"{name}^2", Rewrite(s, 2, square)))
                self.rewrites[s] = (2, square)
                if kind == "abs":
                    self.hyps.append(Hyp(f"{name}>=arg", Fact(s, ">=", arg), "|e| >= e"))
                    self.hyps.append(Hyp(f"{name}>=-arg", Fact(s, ">=", -arg), "|e| >= -e"))
                if kind == "sqrt":
                    self.hyps.append(Hyp(f"domain{k}", Fact(arg, ">=", 0),
                                         "the argument of a square root is >= 0"))
                self.aux[e] = s
            return self.aux[e]
        if kind == "pow":
            return self.expr(e[1]) ** e[2]
        a, b = self.expr(e[1]), self.expr(e[2])
        return {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b}[kind]


def _prove(claim: Claim) -> tuple[str | None, str]:
    """(certificate text, reason) -- certificate text is None when no proof was found."""
    from verify import kernel
    from verify.search.claim_certificates import find_certificate

    tr = _Translation()
    sp = tr.sp
    hyps, ineqs, equalities = [], [], []
    for i, r in enumerate(claim.assumptions, 1):
        lhs, rhs = tr.expr(r.lhs), tr.expr(r.rhs)
        rel = "=" if r.op == "==" else r.op
        fact = kernel.Fact(lhs, rel, rhs)
        expr, kind = fact.normal()
        _, den = sp.fraction(sp.together(expr))
        if den.free_symbols:
            return None, f"assumption {r.text!r} has a variable denominator"
        hyps.append(kernel.Hyp(f"h{i}", fact, r.text))
        if kind == "=0":
            equalities.append((f"h{i}", expr))
        else:
            ineqs.append((f"h{i}", expr, kind == ">0"))
    lines, texts = [], []
    goal_parts = [(tr.expr(g.lhs), g.op, tr.expr(g.rhs), g) for g in claim.goals]
    hyps.extend(tr.hyps)
    for h in tr.hyps:
        expr, kind = h.content.normal() if isinstance(h.content, kernel.Fact) else (None, None)
        if kind is not None:
            ineqs.append((h.name, expr, kind == ">0"))
    for j, (lhs, op, rhs, goal) in enumerate(goal_parts, 1):
        rel = "=" if op == "==" else op
        difference = rhs - lhs if rel in ("<=", "<", "=") else lhs - rhs
        numerator, den = sp.fraction(sp.together(difference))
        divisors: list[str] = []
        if den.free_symbols:
            divisors = _divisors_for(den, ineqs, sp)
            if divisors is None:
                return None, f"cannot clear the denominator {den} of {goal.text!r}"
        p = sp.Mul(*[dict((n, e) for n, e, _ in ineqs)[d] for d in divisors])
        target = sp.expand(sp.cancel(p / den) * numerator)
        if rel == "=":
            found = find_certificate(target, [], equalities, tr.rewrites) \
                if equalities else None
            if found is None and sp.expand(_reduce(target, tr.rewrites)) != 0:
                return None, f"{goal.text!r} is not an identity under the assumptions"
            terms, eq_terms = (), (found.eq_terms if found else ())
        else:
            found = find_certificate(target, ineqs, equalities, tr.rewrites,
                                     strict=rel in ("<", ">"))
            if found is None:
                return None, (f"no certificate found for {goal.text!r}: tried nonnegative "
                              f"combinations of products of at most two assumptions and of "
                              f"squares")
            terms, eq_terms = found.terms, found.eq_terms
        certificate = kernel.Certificate(
            tuple(kernel.Term(c, tuple(f if isinstance(f, str) else kernel.Square(f[1])
                                       for f in factors)) for c, factors in terms),
            tuple(kernel.EqTerm(m, name) for m, name in eq_terms),
            tuple(divisors))
        lines.append(kernel.Chain(f"goal{j}", lhs, (kernel.Link(rel, rhs, certificate),)))
        texts.append(_certificate_text(goal, terms, eq_terms, divisors, claim, tr))
    theorem = kernel.Theorem(
        name="claim", title="claim", vectors=(), naturals=(), hyps=tuple(hyps),
        conclusions=tuple(kernel.Fact(lhs, "=" if op == "==" else op, rhs)
                          for lhs, op, rhs, _ in goal_parts),
        proof=kernel.Derivation(tuple(lines)))
    try:
        kernel.check_theorem(theorem)
    except kernel.KernelError as exc:
        return None, f"the kernel rejected the proposed certificate: {exc}"
    return "; ".join(texts), ""


def _reduce(expr: Any, rewrites: dict) -> Any:
    from verify.search.claim_certificates import reduce_rewrites

    return reduce_rewrites(expr, rewrites)


def _divisors_for(den: Any, ineqs: list, sp: Any) -> list[str] | None:
    strict = [(name, sp.expand(e)) for name, e, is_strict in ineqs if is_strict]
    constant, factors = sp.factor_list(den)
    out: list[str] = []
    for factor, power in factors:
        match = next((n for n, e in strict if sp.expand(e - factor) == 0), None)
        if match is None:
            return None
        out.extend([match] * power)
    return out


def _certificate_text(goal: Relation, terms: tuple, eq_terms: tuple, divisors: list,
                      claim: Claim, tr: _Translation) -> str:
    names = {f"h{i}": r.text for i, r in enumerate(claim.assumptions, 1)}
    sides = {"<=": ("rhs", "lhs"), "<": ("rhs", "lhs"), "==": ("rhs", "lhs")}
    big, small = sides.get(goal.op, ("lhs", "rhs"))
    text_of = {"lhs": goal.text.split(goal.op)[0].strip(),
               "rhs": goal.text.split(goal.op, 1)[1].strip()}

    def fact_text(name: str) -> str:
        if name in names:
            r = next(r for i, r in enumerate(claim.assumptions, 1) if f"h{i}" == name)
            e, _ = _relation_expr(r, tr)
            return f"({e})"
        return f"[{name}]"

    parts = []
    for coeff, factors in terms:
        pieces = [fact_text(f) if isinstance(f, str) else f"({_show(f[1])})**2"
                  for f in factors]
        parts.append("*".join([str(coeff)] + pieces) if pieces else str(coeff))
    for multiplier, name in eq_terms:
        parts.append(f"({_show(multiplier)})*{fact_text(name)}")
    lhs = f"{text_of[big]} - ({text_of[small]})"
    if divisors:
        lhs = f"{'*'.join(fact_text(d) for d in divisors)} * ({lhs})"
    return f"{lhs} = {' + '.join(parts) if parts else '0'}"


def _relation_expr(r: Relation, tr: _Translation) -> tuple[Any, str]:
    lhs, rhs = tr.expr(r.lhs), tr.expr(r.rhs)
    if r.op in ("<=", "<"):
        return _show(rhs - lhs), r.op
    return _show(lhs - rhs), r.op


def _show(e: Any) -> str:
    return str(e).replace("_sqrt", "sqrt").replace("_abs", "abs")


def decide_claim(claim: Claim, points: int = 2000, extra_points: int = 20000,
                 seed: int = 0) -> Verdict:
    """Decide a parsed claim: quick exact search for a counterexample, then a certificate
    checked by the kernel, then a wider counterexample search; else ``unproved``."""
    found = _refute(claim, points, seed)
    if found is None:
        certificate, reason = _prove(claim)
        if certificate is not None:
            return Verdict("proved", claim, certificate=certificate)
        found = _refute(claim, extra_points, seed + 1)
        if found is None:
            return Verdict("unproved", claim, reason=reason)
    point, goal = found
    return Verdict("refuted", claim, counterexample=point,
                   reason=f"the assumptions hold and {goal.text} is false")


def check_claim_text(body: str, **options: Any) -> Verdict:
    """Parse and decide the body of one claim block; a syntax error gives ``invalid``."""
    try:
        claim = parse_claim(body)
    except ClaimSyntaxError as exc:
        return Verdict("invalid", None, reason=f"{exc.message} (line {exc.line} of the block)")
    return decide_claim(claim, **options)


@dataclass(frozen=True)
class FileClaim:
    """One claim of a Markdown file with its verdict."""

    path: str
    line: int
    block: ClaimBlock
    verdict: Verdict = field(compare=False)


def check_markdown_file(path: str | Path) -> list[FileClaim]:
    """Decide every claim block of a Markdown file (read with :func:`pla.files.read_bounded`:
    at most 256 MiB, never a device that does not end)."""
    from pla.files import read_bounded

    text = read_bounded(path).decode("utf-8")
    return [FileClaim(str(path), b.line, b, check_claim_text(b.body))
            for b in find_claim_blocks(text)]
