"""Claims in Markdown: ```claim blocks, proved by the kernel or refuted by an exact example.

A verdict is

- ``proved``: a certificate found by :mod:`verify.search.claim_certificates` and accepted by
  :func:`verify.kernel.check_theorem`, together with every *domain condition* the claim needs
  (each ``sqrt(e)`` needs ``e >= 0``, each division by ``d`` and each negative power of ``d``
  needs ``d != 0``), each itself proved by the kernel from the assumptions (or, for
  ``d != 0``, given literally as an assumption) and listed in the verdict;
- ``refuted``: an exact rational point that satisfies every assumption and violates the claim,
  or at which the claim is undefined (a negative square root, a zero denominator);
- ``vacuous``: the kernel derived ``0 < 0`` from the assumptions (and their domains): they are
  contradictory, so the claim says nothing;
- ``unproved``: none of these, with what was tried (or "search limit reached");
- ``invalid``: the parser refused the block (located: ``line N of the block``).

The claim is translated to kernel terms from the parser's own tree: nothing is evaluated or
cancelled by sympy before the domain conditions are settled.  ``sqrt(e)`` becomes a fresh
symbol s with the visible hypotheses s >= 0 and s**2 = e; ``Abs(e)`` a symbol a with a >= 0,
a >= e, a >= -e and a**2 = e**2.

>>> verdict = decide_claim(parse_claim("assume: a >= 0, b >= 0\\n(a + b)**2 >= a**2 + b**2"))
>>> verdict.status, verdict.certificate
('proved', '(a + b)**2 - (a**2 + b**2) = 2*(a)*(b)')
>>> verdict = decide_claim(parse_claim("(a + b)**2 >= a**2 + b**2"))
>>> verdict.status, verdict.counterexample
('refuted', {'a': Fraction(1, 1), 'b': Fraction(-1, 1)})
>>> decide_claim(parse_claim("assume: x > 0\\nx/x == 1")).domain
('x != 0: x > 0 proved from the assumptions',)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import product
from math import isqrt
from pathlib import Path
from typing import Any

from verify.claims.fences import ClaimBlock, find_claim_blocks
from verify.claims.parser import Claim, ClaimSyntaxError, Relation, constant_value, parse_claim

__all__ = ["Verdict", "ClaimBlock", "FileClaim", "decide_claim", "find_claim_blocks",
           "check_claim_text", "check_markdown_file", "check_markdown_files", "parse_claim",
           "ClaimSyntaxError"]

_GRID = [Fraction(v) for v in (0, 1, -1, 2, -2, Fraction(1, 2), Fraction(-1, 2), 3, -3,
                               Fraction(1, 3), 10, -10)]
STATUSES = ("proved", "refuted", "vacuous", "unproved", "invalid")


@dataclass(frozen=True)
class Verdict:
    """The outcome for one claim: status ``proved`` / ``refuted`` / ``vacuous`` /
    ``unproved`` / ``invalid``; ``domain`` lists every domain condition and how it holds."""

    status: str
    claim: Claim | None
    certificate: str | None = None
    counterexample: dict | None = None
    reason: str = ""
    domain: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the claim is proved."""
        return self.status == "proved"

    @property
    def expected(self) -> str:
        """The verdict the block expects (``expect:``; proved unless stated)."""
        return self.claim.expect if self.claim is not None else "proved"

    @property
    def as_expected(self) -> bool:
        """True when the verdict is the expected one (a parse error never is)."""
        return self.status != "invalid" and self.status == self.expected

    def explain(self) -> str:
        """A one-paragraph, human-readable account of the verdict."""
        domain = f"; domain: {'; '.join(self.domain)}" if self.domain else ""
        if self.status == "proved":
            return f"proved: {self.certificate}{domain}"
        if self.status == "refuted":
            point = ", ".join(f"{k} = {_fmt(v)}" for k, v in self.counterexample.items())
            where = f"counterexample {point}" if point else "exact evaluation"
            return f"refuted: {where} ({self.reason})"
        return f"{self.status}: {self.reason}{domain}"


def _fmt(v: Any) -> str:
    if isinstance(v, tuple):
        return "(" + ", ".join(_fmt(p) for p in v) + ")"
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


# -- exact evaluation (refutation) --------------------------------------------------------------
class _Undefined(Exception):
    """The expression is undefined at the point (negative square root, zero denominator)."""


class _Irrational(Exception):
    """A square root at the point is irrational: the point is skipped (no floats)."""


def _evaluate(e: tuple, point: dict) -> Fraction:
    kind = e[0]
    if kind == "num":
        return e[1]
    if kind == "sym":
        return point[e[1]]
    if kind == "neg":
        v = _evaluate(e[1], point)
        return tuple(-p for p in v) if isinstance(v, tuple) else -v
    if kind == "abs":
        return abs(_evaluate(e[1], point))
    if kind == "sqrt":
        v = _evaluate(e[1], point)
        if v < 0:
            raise _Undefined(f"the square root of {_fmt(v)} is undefined")
        n, d = isqrt(v.numerator), isqrt(v.denominator)
        if n * n != v.numerator or d * d != v.denominator:
            raise _Irrational
        return Fraction(n, d)
    if kind == "sum":
        _, body, k, low, high = e
        top = _evaluate(high, point)
        if top.denominator != 1 or top < low - 1 or top - low > 2000:
            raise _Irrational  # not a point where the sum is defined here: skip it
        return sum((_evaluate(body, {**point, k: Fraction(v)})
                    for v in range(low, int(top) + 1)), Fraction(0))
    if kind == "pow":
        base = _evaluate(e[1], point)
        if base == 0 and e[2] < 0:
            raise _Undefined("a negative power of 0 is undefined")
        return base ** e[2]
    a, b = _evaluate(e[1], point), _evaluate(e[2], point)
    if kind == "dot":
        return sum((p * q for p, q in zip(a, b)), Fraction(0))
    vector = isinstance(a, tuple) or isinstance(b, tuple)
    if kind == "add":
        return tuple(p + q for p, q in zip(a, b)) if vector else a + b
    if kind == "sub":
        return tuple(p - q for p, q in zip(a, b)) if vector else a - b
    if kind == "mul":
        if isinstance(a, tuple):
            return tuple(p * b for p in a)
        return tuple(a * q for q in b) if isinstance(b, tuple) else a * b
    if b == 0:
        raise _Undefined("a denominator is 0")
    return tuple(p / b for p in a) if isinstance(a, tuple) else a / b


def _holds(r: Relation, point: dict) -> bool:
    if r.op == "integer":
        return _evaluate(r.lhs, point).denominator == 1
    a, b = _evaluate(r.lhs, point), _evaluate(r.rhs, point)
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b,
            "!=": a != b}[r.op]


def _refute(claim: Claim, points: int, seed: int) -> tuple[tuple | None, bool]:
    """((point, goal, why) of a counterexample or None, whether some point satisfied every
    assumption)."""
    names = claim.symbols + claim.vectors
    scalars = len(claim.symbols)
    if not names:
        candidates: Any = [()]
    elif not claim.vectors and len(_GRID) ** len(names) <= points:
        candidates = product(_GRID, repeat=len(names))
    else:
        rng = random.Random(seed)

        def number() -> Fraction:
            return rng.choice(_GRID) if rng.random() < 0.7 else \
                Fraction(rng.randint(-20, 20), rng.randint(1, 6))

        def sample() -> Any:  # vectors in the plane: a plane counterexample is one in R^d
            for _ in range(points):
                yield tuple(number() if i < scalars else (number(), number())
                            for i in range(len(names)))
        candidates = sample()
    satisfiable = False
    for values in candidates:
        point = dict(zip(names, values))
        try:
            if not all(_holds(r, point) for r in claim.assumptions):
                continue
        except (_Undefined, _Irrational):
            continue
        satisfiable = True
        for goal in claim.goals:
            try:
                if not _holds(goal, point):
                    return (point, goal, f"the assumptions hold and {goal.text} is false"), True
            except _Undefined as exc:
                return (point, goal, f"the assumptions hold and {goal.text} is undefined: "
                                     f"{exc}"), True
            except _Irrational:
                continue
    return None, satisfiable


# -- translation to kernel terms ----------------------------------------------------------------
def domain_conditions(e: tuple) -> list[tuple[str, tuple]]:
    """The domain conditions of a parsed expression, innermost first, without repeats:
    ``("nonneg", arg)`` for each ``sqrt(arg)``, ``("nonzero", d)`` for each division by ``d``
    and each negative power of ``d``.

    >>> domain_conditions(("div", ("num", Fraction(1)), ("sqrt", ("sym", "x"))))
    [('nonneg', ('sym', 'x')), ('nonzero', ('sqrt', ('sym', 'x')))]
    """
    out: list[tuple[str, tuple]] = []

    def walk(node: tuple) -> None:
        kind = node[0]
        if kind in ("num", "sym"):
            return
        for child in node[1:]:
            if isinstance(child, tuple):
                walk(child)
        condition = None
        if kind == "sqrt":
            condition = ("nonneg", node[1])
        elif kind == "div":
            condition = ("nonzero", node[2])
        elif kind == "pow" and node[2] < 0:
            condition = ("nonzero", node[1])
        if condition is not None and condition not in out:
            out.append(condition)

    walk(e)
    return out


class _Translation:
    """Parsed expressions to sympy, with one auxiliary symbol per distinct sqrt / Abs."""

    def __init__(self) -> None:
        import sympy as sp

        self.sp = sp
        self.symbols: dict[str, Any] = {}
        self.aux: dict[tuple, Any] = {}      # parsed sqrt/abs node -> its symbol
        self.aux_hyps: dict[Any, list] = {}  # symbol -> its kernel hypotheses
        self.rewrites: dict = {}
        self.display: dict = {}              # symbol -> how a reader sees it

    def expr(self, e: tuple, evaluate: bool = True) -> Any:
        sp = self.sp
        kind = e[0]
        if kind == "num":
            return sp.Rational(e[1].numerator, e[1].denominator)
        if kind == "sym":
            if e[1] not in self.symbols:
                self.symbols[e[1]] = sp.Symbol(e[1], real=True)
            return self.symbols[e[1]]
        if kind == "neg":
            return sp.Mul(-1, self.expr(e[1], evaluate), evaluate=evaluate)
        if kind in ("sqrt", "abs"):
            return self.atom(e)
        if kind == "sum":  # display only: a proof handles sums by induction (_prove_sum)
            k = sp.Symbol(e[2], real=True)
            return sp.Sum(self.expr(e[1], evaluate), (k, e[3], self.expr(e[4], evaluate)))
        if kind == "dot":
            from verify.kernel import dot

            return dot(self.expr(e[1]), self.expr(e[2]))
        if kind == "pow":
            return sp.Pow(self.expr(e[1], evaluate), e[2], evaluate=evaluate)
        a, b = self.expr(e[1], evaluate), self.expr(e[2], evaluate)
        if kind == "add":
            return sp.Add(a, b, evaluate=evaluate)
        if kind == "sub":
            return sp.Add(a, sp.Mul(-1, b, evaluate=evaluate), evaluate=evaluate)
        if kind == "mul":
            return sp.Mul(a, b, evaluate=evaluate)
        return sp.Mul(a, sp.Pow(b, -1, evaluate=evaluate), evaluate=evaluate)

    def atom(self, e: tuple) -> Any:
        if e in self.aux:
            return self.aux[e]
        from verify.kernel import Fact, Hyp, Rewrite

        sp = self.sp
        kind = e[0]
        arg = self.expr(e[1])
        name = f"{kind}{len(self.aux) + 1}"  # kind is "sqrt" or "abs": sqrt1, abs2, ...
        s = sp.Symbol(f"_{name}", real=True)  # user names never start with "_"
        square = arg if kind == "sqrt" else sp.expand(arg ** 2)
        hyps = [Hyp(f"{name}>=0", Fact(s, ">=", 0), f"{name} >= 0"),
                Hyp(f"{name}^2", Rewrite(s, 2, square), f"{name}**2 = {square}")]
        if kind == "abs":
            hyps.append(Hyp(f"{name}>=arg", Fact(s, ">=", arg), "|e| >= e"))
            hyps.append(Hyp(f"{name}>=-arg", Fact(s, ">=", -arg), "|e| >= -e"))
        self.aux_hyps[s] = hyps
        self.rewrites[s] = (2, square)
        shown = self.show(arg)
        self.display[s] = sp.Symbol(f"\u221a({shown})" if kind == "sqrt" else f"|{shown}|")
        self.aux[e] = s
        return s

    def atoms_in(self, e: tuple) -> list[tuple]:
        """The sqrt / Abs nodes occurring in a parsed expression (innermost first)."""
        found: list[tuple] = []

        def walk(node: tuple) -> None:
            for child in node[1:]:
                if isinstance(child, tuple):
                    walk(child)
            if node[0] in ("sqrt", "abs") and node not in found:
                found.append(node)
        walk(e)
        return found

    def show(self, e: Any) -> str:
        """How a reader sees a translated expression: auxiliary symbols as √(..) and |..|."""
        return str(self.sp.S(e).xreplace(self.display))


# -- proof (certificate search + kernel) --------------------------------------------------------
class _Unproved(Exception):
    """No proof: the message says what was tried."""


class _Prover:
    """Builds the kernel theorems of one claim; every verdict comes from check_theorem."""

    def __init__(self, claim: Claim) -> None:
        from verify import kernel

        self.kernel = kernel
        self.claim = claim
        self.tr = _Translation()
        self.sp = self.tr.sp
        self.known: list = []          # kernel hypotheses justified so far
        self.names: dict[str, str] = {}  # hypothesis name -> text shown to a reader
        self.nonzero: list = []        # expressions assumed != 0 (assumptions `a != b`)
        self.domain: list[str] = []
        self.defined: set = set()      # aux symbols whose hypotheses are in `known`
        self.dots: dict = {}           # Dot(a, b) -> its scalar symbol in the search
        self.normsq: dict = {}         # pseudo-hypothesis name -> vector v (Dot(v, v) >= 0)

    # ---- hypotheses ---------------------------------------------------------------------------
    def add(self, hyp: Any, shown: str) -> None:
        self.known.append(hyp)
        self.names[hyp.name] = shown

    def define_atom(self, node: tuple) -> None:
        s = self.tr.atom(node)
        if s in self.defined:
            return
        self.defined.add(s)
        for h in self.tr.aux_hyps[s]:
            self.add(h, h.note)

    def assumptions(self) -> None:
        kernel, sp = self.kernel, self.sp
        for i, r in enumerate(self.claim.assumptions, 1):
            for kind, node in domain_conditions(r.lhs) + domain_conditions(r.rhs):
                if kind == "nonzero":
                    raise _Unproved(f"assumption {r.text!r} divides by "
                                    f"{self.tr.show(self.tr.expr(node))}: write it without "
                                    f"a variable denominator")
            for node in self.tr.atoms_in(r.lhs) + self.tr.atoms_in(r.rhs):
                if node[0] == "sqrt" and self.tr.atom(node) not in self.defined:
                    arg = self.tr.expr(node[1])
                    name = f"dom_h{i}_{len(self.domain) + 1}"
                    self.add(kernel.Hyp(name, kernel.Fact(arg, ">=", 0)),
                             f"{self.tr.show(arg)} >= 0")
                    self.domain.append(f"{self.tr.show(arg)} >= 0: assumed (the assumption "
                                       f"{r.text!r} uses its square root)")
                self.define_atom(node)
            if r.op == "integer":
                continue  # used only by sums (induction); the theorem holds for all reals
            lhs, rhs = self.tr.expr(r.lhs), self.tr.expr(r.rhs)
            if r.op == "!=":
                self.nonzero.append(sp.expand(lhs - rhs))
                continue
            rel = "=" if r.op == "==" else r.op
            self.add(kernel.Hyp(f"h{i}", kernel.Fact(lhs, rel, rhs), r.text), r.text)

    def facts(self) -> tuple[list, list]:
        """(inequalities ``(name, expr, strict)``, equalities ``(name, expr)``) of `known`."""
        ineqs, equalities = [], []
        for h in self.known:
            if isinstance(h.content, self.kernel.Fact):
                expr, kind = h.content.normal()
                if kind == "=0":
                    equalities.append((h.name, self.sp.expand(expr)))
                else:
                    ineqs.append((h.name, self.sp.expand(expr), kind == ">0"))
        return ineqs, equalities

    # ---- certificates -------------------------------------------------------------------------
    def certificate(self, target: Any, strict: bool, equality: bool = False) -> Any:
        """A kernel Certificate of ``target >= 0`` (``> 0`` if strict, ``= 0`` if equality)
        from `known`, or None."""
        from verify.search.claim_certificates import find_certificate, reduce_rewrites

        sp, kernel = self.sp, self.kernel
        flat = self.scalar_form
        rewrites = {t: (k, flat(rhs)) for t, (k, rhs) in self.tr.rewrites.items()}
        target = reduce_rewrites(flat(target), rewrites)
        if not target.free_symbols:  # a constant: its sign is exact
            if target == 0 and not strict:
                return kernel.Certificate()
            if target > 0 and not equality:
                return kernel.Certificate((kernel.Term(target, ()),))
            if not self.known:
                return None
        ineqs, equalities = self.facts()
        ineqs = [(n, flat(e), st) for n, e, st in ineqs] + self.norm_squares()
        equalities = [(n, flat(e)) for n, e in equalities]
        if equality:
            if not equalities:
                return None
            found = find_certificate(target, [], equalities, rewrites)
        else:
            found = _constant_root_certificate(self, target, strict)
            if found is not None:
                return found
            found = None
            near = target.free_symbols
            if near:  # first only the facts about the target's own variables: a smaller search
                small = ([h for h in ineqs if h[1].free_symbols <= near],
                         [e for e in equalities if e[1].free_symbols <= near],
                         {t: r for t, r in rewrites.items() if t in near})
                if sum(map(len, small)) < len(ineqs) + len(equalities) + len(rewrites):
                    found = find_certificate(target, *small, strict=strict)
            if found is None:
                found = find_certificate(target, ineqs, equalities, rewrites, strict=strict)
        if found is None:
            return None
        back = {sym: dot for dot, sym in self.dots.items()}

        def factor(f: Any) -> Any:
            if isinstance(f, str):
                return kernel.NormSq(self.normsq[f]) if f in self.normsq else f
            return kernel.Square(sp.S(f[1]).xreplace(back))
        return kernel.Certificate(
            tuple(kernel.Term(c, tuple(factor(f) for f in factors))
                  for c, factors in found.terms),
            tuple(kernel.EqTerm(sp.S(m).xreplace(back), name) for m, name in found.eq_terms))

    # ---- vectors (an untrusted mirror of the kernel's bilinearity, for the search) ------------
    def scalar_form(self, e: Any) -> Any:
        """``e`` with every inner product expanded bilinearly into ``Dot(a, b)`` of declared
        vectors (a, b sorted), each replaced by a fresh scalar symbol for the search."""
        sp = self.sp
        e = sp.S(e)
        if not self.claim.vectors:
            return sp.expand(e)
        from verify.kernel import Dot

        def bilinear(u: Any, v: Any) -> Any:
            total = sp.S(0)
            for cu, a in self.vector_terms(u):
                for cv, b in self.vector_terms(v):
                    a2, b2 = sorted((a, b), key=str)
                    key = Dot(a2, b2)
                    if key not in self.dots:
                        self.dots[key] = sp.Symbol(f"_dot_{a2}_{b2}", real=True)
                    total += cu * cv * self.dots[key]
            return total
        return sp.expand(e.replace(lambda a: isinstance(a, Dot), lambda a: bilinear(*a.args)))

    def vector_terms(self, v: Any) -> list:
        sp = self.sp
        names = set(self.claim.vectors)
        out = []
        for term in sp.Add.make_args(sp.expand(v)):
            factors = sp.Mul.make_args(term)
            vecs = [f for f in factors if isinstance(f, sp.Symbol) and f.name in names]
            out.append((sp.Mul(*[f for f in factors if f is not vecs[0]]), vecs[0]))
        return out

    def norm_squares(self) -> list:
        """Pseudo-hypotheses ``Dot(v, v) >= 0`` for the declared vectors, their sums and
        differences (the kernel's rule norm-nonneg), as (name, scalar form, False)."""
        sp = self.sp
        vectors = [self.tr.expr(("sym", v)) for v in self.claim.vectors]
        from verify.kernel import dot

        candidates = list(vectors)
        for i, u in enumerate(vectors):
            for v in vectors[i + 1:]:
                candidates += [u + v, u - v]
        for u in vectors:  # Lagrange's vectors |v|^2 u - (u.v) v (Cauchy-Schwarz)
            for v in vectors:
                if u != v:
                    candidates.append(dot(v, v) * u - dot(u, v) * v)

        out = []
        for k, v in enumerate(candidates):
            name = f"\x00norm{k}"
            self.normsq[name] = v
            out.append((name, self.scalar_form(dot(v, v)), False))
        return out

    def check(self, name: str, conclusion: Any, lines: tuple, extra: tuple = ()) -> None:
        kernel = self.kernel
        theorem = kernel.Theorem(name=name, title=name, vectors=self.claim.vectors, naturals=(),
                                 hyps=tuple(self.known) + extra, conclusions=(conclusion,),
                                 proof=kernel.Derivation(lines))
        kernel.check_theorem(theorem)

    def prove_fact(self, name: str, expr: Any, rel: str) -> bool:
        """Prove ``expr rel 0`` (rel ``>=``, ``>`` or ``<``) from `known` with the kernel."""
        kernel = self.kernel
        target = -expr if rel == "<" else expr
        Dot = kernel.Dot
        if rel == ">=" and isinstance(expr, Dot) and expr.args[0] == expr.args[1]:
            certificate = kernel.Certificate((kernel.Term(1, (kernel.NormSq(expr.args[0]),)),))
        else:
            certificate = self.certificate(target, strict=rel != ">=")
        if certificate is None:
            return False
        fact = kernel.Fact(expr, rel, 0)
        try:
            self.check(name, fact, (kernel.Chain(name, expr, (kernel.Link(rel, 0, certificate),)),))
        except kernel.KernelError:
            return False
        return True

    # ---- the claim ----------------------------------------------------------------------------
    def vacuous(self) -> bool:
        """True when the kernel derives 0 < 0 from the assumptions (and their domains)."""
        kernel = self.kernel
        if not self.known:
            return False
        # 0 = 1 + (a combination that equals -1), or 0 = h + (a combination equal to -h) for a
        # strict fact h > 0: either way a positive term plus nonnegative terms is 0.
        seeds = [(self.sp.S(-1), kernel.Term(1, ()))]
        seeds += [(-e, kernel.Term(1, (name,))) for name, e, strict in self.facts()[0][:8]
                  if strict]
        for target, positive in seeds:
            found = self.certificate(target, strict=False)
            if found is None:
                continue
            certificate = kernel.Certificate((positive,) + found.terms, found.eq_terms)
            try:  # the kernel checks the line 0 < 0 (its conclusion check evaluates numerals
                # directly, so the theorem concludes the trivial 0 <= 0 after that checked line)
                self.check("vacuous", kernel.Fact(0, "<=", 0),
                           (kernel.Chain("contradiction", 0,
                                         (kernel.Link("<", 0, certificate),)),))
            except kernel.KernelError:
                continue
            return True
        return False

    def goal_domains(self) -> None:
        """Prove every domain condition of the goals (innermost first) and add it to `known`."""
        kernel, sp, tr = self.kernel, self.sp, self.tr
        conditions: list = []
        for goal in self.claim.goals:
            for c in domain_conditions(goal.lhs) + domain_conditions(goal.rhs):
                if c not in conditions:
                    conditions.append(c)
        for k, (kind, node) in enumerate(conditions, 1):
            for atom in tr.atoms_in(node):  # inner atoms are justified by earlier conditions
                self.define_atom(atom)
            expr = tr.expr(node)
            shown = tr.show(expr)
            name = f"domain{k}"
            if kind == "nonneg":
                s = tr.atom(("sqrt", node))
                if s in self.defined:
                    continue  # already assumed through an assumption
                if sp.expand(expr).is_Rational and expr >= 0:
                    self.define_atom(("sqrt", node))
                    continue
                if not self.prove_fact(name, expr, ">="):
                    raise _Unproved(f"the domain condition {shown} >= 0 (of sqrt({shown})) does "
                                    f"not follow from the assumptions")
                self.add(kernel.Hyp(name, kernel.Fact(expr, ">=", 0)), f"{shown} >= 0")
                self.domain.append(f"{shown} >= 0: proved from the assumptions")
                self.define_atom(("sqrt", node))
                continue
            if sp.expand(expr) == 0:
                raise _Unproved(f"the denominator {shown} is identically 0")
            if sp.expand(expr).is_Rational:
                continue  # a nonzero constant (the parser refused a zero one)
            for rel, word in ((">", "> 0"), ("<", "< 0")):
                if self.prove_fact(name, expr, rel):
                    self.add(kernel.Hyp(name, kernel.Fact(expr, rel, 0)), f"{shown} {word}")
                    self.domain.append(f"{shown} != 0: {shown} {word} proved from the "
                                       f"assumptions")
                    break
            else:
                if any(sp.expand(expr - e) == 0 or sp.expand(expr + e) == 0
                       for e in self.nonzero):
                    self.domain.append(f"{shown} != 0: assumed")
                    continue
                raise _Unproved(f"the domain condition {shown} != 0 (a denominator) does not "
                                f"follow from the assumptions: assume {shown} > 0, "
                                f"{shown} < 0 or {shown} != 0")
        for goal in self.claim.goals:  # Abs atoms (no domain) and atoms outside any condition
            for atom in tr.atoms_in(goal.lhs) + tr.atoms_in(goal.rhs):
                self.define_atom(atom)

    def divisors(self, den: Any) -> list[str]:
        """Names of > 0 facts of `known` whose product is den up to a constant factor."""
        sp = self.sp
        strict = [(name, e) for name, e, is_strict in self.facts()[0] if is_strict]
        out: list[str] = []
        remaining = sp.expand(den)
        for _ in range(32):
            if not remaining.free_symbols:
                return out
            for name, e in strict:
                if not e.free_symbols:
                    continue
                try:
                    quotient, rest = sp.div(remaining, e, *sorted(remaining.free_symbols | e.free_symbols, key=str))
                except sp.PolynomialError:  # an inner product Dot(v, v): not a polynomial in v
                    continue
                if rest == 0:
                    out.append(name)
                    remaining = sp.expand(quotient)
                    break
            else:
                break
        raise _Unproved(f"cannot clear the denominator {self.tr.show(den)}: no product of "
                        f"positive assumptions or domain conditions equals it")

    def goal(self, j: int, goal: Relation) -> tuple[Any, Any, str]:
        """(kernel conclusion, kernel line, certificate text) for one relation of the claim."""
        kernel, sp, tr = self.kernel, self.sp, self.tr
        lhs, rhs = tr.expr(goal.lhs, evaluate=False), tr.expr(goal.rhs, evaluate=False)
        ops = [goal.op] if goal.op != "!=" else [">", "<"]
        reason = ""
        for op in ops:
            rel = "=" if op == "==" else op
            difference = sp.S(rhs) - sp.S(lhs) if rel in ("<=", "<", "=") else \
                sp.S(lhs) - sp.S(rhs)
            numerator, den = sp.fraction(sp.together(difference))
            divisors = self.divisors(den) if den.free_symbols else []
            p = sp.Mul(*[dict((n, e) for n, e, _ in self.facts()[0])[d] for d in divisors])
            target = sp.expand(sp.cancel(p / den) * numerator)
            certificate = self.certificate(target, strict=rel in ("<", ">"),
                                           equality=rel == "=")
            if certificate is None and rel != "=":  # multiply by one positive fact and retry
                for name, e, is_strict in self.facts()[0][:8]:
                    if not is_strict or not e.free_symbols:
                        continue
                    certificate = self.certificate(sp.expand(e * target),
                                                   strict=rel in ("<", ">"))
                    if certificate is not None:
                        divisors = divisors + [name]
                        break
            if certificate is None:
                reason = (f"{goal.text!r} is not an identity under the assumptions"
                          if rel == "=" else
                          f"no certificate found for {goal.text!r}: tried nonnegative "
                          f"combinations of products of at most two assumptions, squares, and "
                          f"assumptions times squares")
                continue
            certificate = kernel.Certificate(certificate.terms, certificate.eq_terms,
                                             tuple(divisors))
            line = kernel.Chain(f"goal{j}", lhs, (kernel.Link(rel, rhs, certificate),))
            text = self.text(goal, op, certificate)
            return kernel.Fact(lhs, rel, rhs), line, text
        raise _Unproved(reason)

    def text(self, goal: Relation, op: str, certificate: Any) -> str:
        """``big - small = sum of terms`` as a reader checks it by hand."""
        sp, tr = self.sp, self.tr
        left, right = _sides(goal)
        big, small = (right, left) if op in ("<=", "<", "==") else (left, right)

        def factor_text(f: Any) -> str:
            if isinstance(f, str):
                expr, _ = next(h for h in self.known if h.name == f).content.normal()
                return f"({tr.show(expr)})"
            if isinstance(f, self.kernel.NormSq):
                return f"dot({tr.show(f.vector)}, {tr.show(f.vector)})"
            return f"({tr.show(f.expr)})**2"

        parts = []
        for term in certificate.terms:
            parts.append("*".join([str(term.coeff)] + [factor_text(f) for f in term.factors]))
        for eq in certificate.eq_terms:
            parts.append(f"({tr.show(eq.multiplier)})*{factor_text(eq.name)}")
        lhs = f"{big} - ({small})"
        if certificate.divisors:
            lhs = f"{'*'.join(factor_text(d) for d in certificate.divisors)} * ({lhs})"
        prefix = f"{goal.text} since {left} {op} {right}: " if goal.op == "!=" else ""
        return f"{prefix}{lhs} = {' + '.join(parts) if parts else '0'}"


def _sides(goal: Relation) -> tuple[str, str]:
    left, right = goal.text.split(f" {goal.op} ", 1)
    return left.strip(), right.strip()


def _constant_root_certificate(prover: _Prover, target: Any, strict: bool) -> Any:
    """Certificate of ``alpha + beta*s >= 0`` (``> 0``) for ``s = sqrt(q)``, q a positive
    rational constant, by comparing squares exactly (a float LP cannot scale inside a square).
    Returns None when the target has another shape or the comparison fails."""
    kernel, sp = prover.kernel, prover.sp
    if len(target.free_symbols) != 1:
        return None
    (s,) = target.free_symbols
    rule = prover.tr.rewrites.get(s)
    if rule is None or rule[0] != 2 or not sp.S(rule[1]).is_Rational or s not in prover.defined:
        return None
    q = sp.S(rule[1])
    poly = sp.Poly(target, s)
    if poly.degree() != 1:   # (s is the only symbol of the target, so its degree is >= 1)
        return None
    beta, alpha = poly.all_coeffs()   # target = beta*s + alpha, beta != 0
    nonneg = f"{str(s)[1:]}>=0"
    if beta > 0 and alpha >= 0:
        if strict and alpha == 0:
            return None  # s > 0 needs a divisor; left to the general search
        return kernel.Certificate((kernel.Term(alpha, ()), kernel.Term(beta, (nonneg,))))
    if beta > 0:  # alpha < 0: beta (s - c), c = -alpha/beta > 0, needs q >= c**2
        c = -alpha / beta
        if q < c ** 2 or (strict and q == c ** 2):
            return None
        # s - c = c(q - c**2)/(q + c**2) + s (s - c)**2/(q + c**2)   (using s**2 = q)
        return kernel.Certificate((kernel.Term(beta * c * (q - c ** 2) / (q + c ** 2), ()),
                                   kernel.Term(beta / (q + c ** 2),
                                               (nonneg, kernel.Square(s - c)))))
    if alpha > 0:  # beta < 0: alpha - |beta| s = |beta| (c - s), c = alpha/|beta| > 0
        b = -beta
        c = alpha / b
        if c ** 2 < q or (strict and c ** 2 == q):
            return None
        # c - s = (c**2 - q)/(2c) + (c - s)**2/(2c)   (using s**2 = q)
        return kernel.Certificate((kernel.Term(b * (c ** 2 - q) / (2 * c), ()),
                                   kernel.Term(b / (2 * c), (kernel.Square(c - s),))))
    return None


def _prove(claim: Claim, vacuity: bool = True) -> tuple[str, str, tuple[str, ...]]:
    """(status, certificate text or reason, domain conditions) for a claim with no
    counterexample found; ``vacuity=False`` skips the contradiction search (used when an
    exact point satisfying every assumption is known)."""
    from verify.search.claim_certificates import SearchLimitReached

    prover = _Prover(claim)
    kernel = prover.kernel
    if any(_has_sum(side) for r in claim.assumptions for side in (r.lhs, r.rhs)):
        return "unproved", "a symbolic sum in an assumption is not supported", ()
    if any(_has_sum(side) for g in claim.goals for side in (g.lhs, g.rhs)):
        try:
            return "proved", _prove_sum(prover), ()
        except _Unproved as exc:
            return "unproved", str(exc), ()
        except SearchLimitReached as exc:
            return "unproved", f"search limit reached: {exc}", ()
        except kernel.KernelError as exc:
            return "unproved", f"the kernel rejected the induction: {exc}", ()
    try:
        prover.assumptions()
        if vacuity and prover.vacuous():
            return ("vacuous", "the assumptions (with their domains) are contradictory: the "
                               "kernel derived 0 < 0 from them", tuple(prover.domain))
        prover.goal_domains()
        conclusions, lines, texts = [], [], []
        for j, goal in enumerate(claim.goals, 1):
            conclusion, line, text = prover.goal(j, goal)
            conclusions.append(conclusion)
            lines.append(line)
            texts.append(text)
        theorem = kernel.Theorem(name="claim", title="claim", vectors=claim.vectors, naturals=(),
                                 hyps=tuple(prover.known), conclusions=tuple(conclusions),
                                 proof=kernel.Derivation(tuple(lines)))
        kernel.check_theorem(theorem)
    except _Unproved as exc:
        return "unproved", str(exc), tuple(prover.domain)
    except SearchLimitReached as exc:
        return "unproved", f"search limit reached: {exc}", tuple(prover.domain)
    except kernel.KernelError as exc:
        return ("unproved", f"the kernel rejected the proposed certificate: {exc}",
                tuple(prover.domain))
    return "proved", "; ".join(texts), tuple(prover.domain)


def _has_sum(e: tuple) -> bool:
    return e[0] == "sum" or any(isinstance(c, tuple) and _has_sum(c) for c in e[1:])


def _prove_sum(prover: _Prover) -> str:
    """``Sum(f, (k, a, n)) REL G(n)`` by induction in the kernel; returns the proof's text.

    The kernel proves, for every natural T and every sequence S with S[0] = 0 and
    S[t+1] = S[t] + f(a + t) for t < T, that S[T] REL G(T + a - 1).  The sum is such a sequence
    (S[t] = f(a) + ... + f(a + t - 1)), and n = T + a - 1 is such an instance when the
    assumptions say ``n integer`` and ``n >= a - 1`` (checked here, shown in the verdict).
    """
    claim, kernel, sp, tr = prover.claim, prover.kernel, prover.sp, prover.tr
    from verify.search.claim_certificates import find_certificate

    if len(claim.goals) != 1:
        raise _Unproved("a claim with a symbolic sum is one comparison")
    goal = claim.goals[0]
    op, total, other = goal.op, goal.lhs, goal.rhs
    if total[0] != "sum":
        op, total, other = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==",
                            "!=": "!="}[op], goal.rhs, goal.lhs
    if total[0] != "sum" or _has_sum(other):
        raise _Unproved("write a symbolic sum alone on one side: Sum(f, (k, a, n)) == G(n)")
    if op not in ("==", "<=", ">="):
        raise _Unproved("a symbolic sum is compared with ==, <= or >=")
    _, body, k, low, high = total
    n = high[1]
    for side in (body, other):
        if any(cond[0] == "nonneg" or constant_value(cond[1]) is None
               for cond in domain_conditions(side)):
            raise _Unproved("a symbolic sum and its closed form are polynomials here "
                            "(no sqrt, no division by a variable)")
    integer = any(r.op == "integer" and r.lhs == ("sym", n) for r in claim.assumptions)
    bound = [r for r in claim.assumptions if _lower_bound(r, n) is not None
             and _lower_bound(r, n) >= low - 1]
    if not integer or not bound:
        raise _Unproved(f"induction on {n} needs the assumptions '{n} integer' and "
                        f"'{n} >= {low - 1}' (or a larger lower bound)")
    T, t = sp.Symbol("T", real=True), sp.Symbol("t", real=True)
    S = sp.IndexedBase("S")
    if any(v in claim.symbols for v in ("T", "t", "S")):
        T, t, S = sp.Symbol("T_", real=True), sp.Symbol("t_", real=True),             sp.IndexedBase("S_")
    kv, nv = sp.Symbol(k, real=True), tr.expr(("sym", n))
    f = tr.expr(body).xreplace({kv: low + t})
    G = tr.expr(other)
    if nv in f.free_symbols:
        raise _Unproved(f"the summand cannot use {n}")

    def g_at(x: Any) -> Any:
        return G.xreplace({nv: x})

    rel = {"==": "=", "<=": "<=", ">=": ">="}[op]
    hyps = [kernel.Hyp("empty", kernel.Fact(S[0], "=", 0), "the empty sum is 0")]
    ineqs: list = []
    for i, r in enumerate(claim.assumptions, 1):
        if r.op in ("integer", "!=") or n in _names(r.lhs) + _names(r.rhs):
            continue
        fact = kernel.Fact(tr.expr(r.lhs), "=" if r.op == "==" else r.op, tr.expr(r.rhs))
        hyps.append(kernel.Hyp(f"h{i}", fact, r.text))
        expr, kind = fact.normal()
        if kind != "=0":
            ineqs.append((f"h{i}", sp.expand(expr), kind == ">0"))
    step_hyp = kernel.Hyp("recurrence", kernel.Fact(S[t + 1], "=", S[t] + f),
                          f"S[t+1] = S[t] + f({low} + t)")
    sign = 1 if rel in ("<=", "=") else -1  # the fact we need is sign*(G - S) >= 0

    def certificate(remainder: Any, extra: list, eq: tuple) -> Any:
        remainder = sp.expand(remainder)
        if remainder == 0:
            return kernel.Certificate((), eq)
        if rel == "=":
            raise _Unproved(f"not an identity: the difference {tr.show(remainder)} is not 0")
        found = find_certificate(remainder, ineqs + extra, [], {})
        if found is None:
            raise _Unproved(f"no certificate that {tr.show(remainder)} >= 0 (the increment of "
                            f"the closed form minus the summand, for every natural t)")
        return kernel.Certificate(
            tuple(kernel.Term(c, tuple(fa if isinstance(fa, str) else kernel.Square(fa[1])
                                       for fa in factors)) for c, factors in found.terms),
            eq)

    # base T = 0: sign*(G(a-1) - S[0]) = sign*G(a-1) - sign*(S[0] - 0)
    base_rest = sign * g_at(low - 1)
    base_cert = certificate(base_rest, [], (kernel.EqTerm(-sign, "empty"),))
    base = kernel.Derivation((kernel.Chain("base", S[0], (kernel.Link(rel, g_at(low - 1),
                                                                       base_cert),)),))
    # step: sign*(G(t+a) - S[t+1]) = IH + sign*(G(t+a) - G(t+a-1) - f) - sign*(step eq)
    increment = sign * (g_at(t + low) - g_at(t + low - 1) - f)
    eq = (kernel.EqTerm(-sign, "recurrence"),)
    if rel == "=":
        eq += (kernel.EqTerm(-1, "IH"),)
        step_cert = certificate(increment, [], eq)
    else:
        inner = certificate(increment, [(f"{t}>=0", t, False)], eq)
        step_cert = kernel.Certificate((kernel.Term(1, ("IH",)),) + inner.terms, eq)
    step = kernel.Derivation((kernel.Chain("step", S[t + 1], (kernel.Link(rel, g_at(t + low),
                                                                           step_cert),)),))
    theorem = kernel.Theorem(
        name="sum", title="sum", vectors=(), naturals=(T,), hyps=tuple(hyps),
        conclusions=(kernel.Fact(S[T], rel, g_at(T + low - 1)),),
        proof=kernel.Induction(T, t, base, step),
        family=kernel.Family(t, T, (step_hyp,)))
    kernel.check_theorem(theorem)
    m = sp.Symbol(n, real=True)
    shown_inc = tr.show(sp.factor(sp.expand(G.xreplace({nv: m + 1}) - G - f.xreplace(
        {t: m + 1 - low}))))
    need = {"=": "(identically)", "<=": ">= 0", ">=": "<= 0"}[rel]
    start = f"{n} = {low - 1}" if low != 1 else f"{n} = 0"
    return (f"by induction on {n}, checked by the kernel: base {start}: empty sum 0 "
            f"{op} {tr.show(g_at(low - 1))}; step: G({n} + 1) - G({n}) - f({n} + 1) = "
            f"{shown_inc} {need} for {n} >= {low - 1}; {n} is {low - 1} + a natural number "
            f"by '{bound[0].text}' and '{n} integer'")


def _names(e: tuple) -> list:
    if e[0] == "sym":
        return [e[1]]
    return [x for c in e[1:] if isinstance(c, tuple) for x in _names(c)]


def _lower_bound(r: Relation, n: str) -> Fraction | None:
    """c when the relation reads n >= c (or c <= n, n > c - 1 ...), else None."""
    from verify.claims.parser import constant_value

    if r.op in (">=", ">") and r.lhs == ("sym", n):
        c = constant_value(r.rhs)
    elif r.op in ("<=", "<") and r.rhs == ("sym", n):
        c = constant_value(r.lhs)
    else:
        return None
    if c is None:
        return None
    return c  # (n > c, like n >= c, gives the lower bound c: n >= c + 1 >= c for an integer n)


_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def _negation_proved(claim: Claim) -> str | None:
    """For a claim without variables: the kernel's proof that one of its relations is false."""
    for goal in claim.goals:
        left, right = _sides(goal)
        op = _NEGATED[goal.op]
        negated = Relation(goal.lhs, op, goal.rhs, f"{left} {op} {right}")
        status, text, _ = _prove(replace(claim, goals=(negated,)), vacuity=False)
        if status == "proved":
            return f"{goal.text} is false: the kernel proved {negated.text}: {text}"
    return None


def decide_claim(claim: Claim, points: int = 2000, extra_points: int = 20000,
                 seed: int = 0) -> Verdict:
    """Decide a parsed claim: quick exact search for a counterexample, then the kernel
    (vacuity, domain conditions, the claim), then a wider counterexample search."""
    found, satisfiable = _refute(claim, points, seed)
    if found is None:
        status, text, domain = _prove(claim, vacuity=not satisfiable)
        if status in ("proved", "vacuous"):
            return Verdict(status, claim, certificate=text if status == "proved" else None,
                           reason="" if status == "proved" else text, domain=domain)
        if not claim.symbols:  # constants (e.g. with irrational roots): prove the negation
            negation = _negation_proved(claim)
            if negation is not None:
                return Verdict("refuted", claim, counterexample={}, reason=negation)
        found, _ = _refute(claim, extra_points, seed + 1)
        if found is None:
            return Verdict("unproved", claim, reason=text, domain=domain)
    point, goal, why = found
    return Verdict("refuted", claim, counterexample=point, reason=why)


def check_claim_text(body: str, **options: Any) -> Verdict:
    """Parse and decide the body of one claim block; a syntax error gives ``invalid``; more
    than MAX_ASSUMPTIONS assumptions give ``unproved: search limit reached`` at once (counted
    on the text: nothing is parsed or built for them)."""
    from verify.claims.parser import MAX_ASSUMPTIONS, assumption_count, without_assumptions

    count = assumption_count(body)
    if count > MAX_ASSUMPTIONS:
        try:
            claim = parse_claim(without_assumptions(body))
        except ClaimSyntaxError as exc:
            return Verdict("invalid", None, reason=f"{exc.message} (line {exc.line} of the "
                                                   "block)")
        return Verdict("unproved", claim, reason=f"search limit reached: {count} assumptions "
                       f"(at most {MAX_ASSUMPTIONS}, counted before anything is built)")
    try:
        claim = parse_claim(body)
    except ClaimSyntaxError as exc:
        return Verdict("invalid", None, reason=f"{exc.message} (line {exc.line} of the block)")
    return decide_claim(claim, **options)


@dataclass(frozen=True)
class FileClaim:
    """One claim of a Markdown file with its verdict; ``problems`` lists why it fails
    (empty when it has its expected verdict and everything it uses is fully verified)."""

    path: str
    line: int
    block: ClaimBlock
    verdict: Verdict = field(compare=False)
    problems: tuple[str, ...] = ()

    @property
    def ident(self) -> str:
        return self.verdict.claim.ident if self.verdict.claim else ""

    @property
    def location(self) -> str:
        """``path:LINE[:id]``."""
        return f"{self.path}:{self.line}" + (f":{self.ident}" if self.ident else "")

    @property
    def passed(self) -> bool:
        return not self.problems


def _own_problems(verdict: Verdict, block: ClaimBlock) -> list[str]:
    if block.error:
        return [block.error]
    if verdict.as_expected:
        return []
    if verdict.status == "invalid":
        return [f"invalid: {verdict.reason}"]
    if verdict.expected == "proved":
        return [verdict.explain()]
    return [f"expected {verdict.expected}, got {verdict.explain()}"]


def resolve_dependencies(claims: list[FileClaim]) -> list[FileClaim]:
    """Mark every claim that uses (transitively) an unknown, failing or non-proved claim.

    A claim is *fully verified* when it is proved and everything it uses is fully verified.
    """
    by_id: dict[str, FileClaim] = {}
    out = list(claims)
    duplicate: dict[int, str] = {}
    for i, c in enumerate(claims):
        if c.ident:
            if c.ident in by_id:
                duplicate[i] = f"id {c.ident!r} already used at {by_id[c.ident].path}:" \
                               f"{by_id[c.ident].line}"
            else:
                by_id[c.ident] = c
    memo: dict[str, bool] = {}

    def fully(ident: str, stack: tuple) -> bool:
        if ident in memo:
            return memo[ident]
        if ident in stack or ident not in by_id:
            return False
        c = by_id[ident]
        result = c.verdict.status == "proved" and c.passed and all(
            fully(u, stack + (ident,)) for u in c.verdict.claim.uses)
        memo[ident] = result
        return result

    for i, c in enumerate(claims):
        problems = list(c.problems)
        if i in duplicate:
            problems.append(duplicate[i])
        uses = c.verdict.claim.uses if c.verdict.claim else ()
        for u in uses:
            if u not in by_id:
                problems.append(f"uses {u!r}, which is no claim's id")
            elif not fully(u, (c.ident,)):
                problems.append(f"uses {u!r} ({by_id[u].path}:{by_id[u].line}), which is not "
                                f"fully verified")
        out[i] = FileClaim(c.path, c.line, c.block, c.verdict, tuple(problems))
    return out


def check_markdown_text(text: str, path: str = "<text>") -> list[FileClaim]:
    """Decide every claim block of Markdown text (dependencies resolved within it)."""
    found = []
    for b in find_claim_blocks(text):
        verdict = check_claim_text(b.body) if not b.error else \
            Verdict("invalid", None, reason=b.error)
        found.append(FileClaim(path, b.line, b, verdict, tuple(_own_problems(verdict, b))))
    return found


def check_markdown_file(path: str | Path) -> list[FileClaim]:
    """Decide every claim block of a Markdown file (dependencies resolved within the file; read
    with :func:`pla.files.read_bounded`: at most 256 MiB, never a device that does not end)."""
    return resolve_dependencies(check_markdown_text(_read_markdown(path), str(path)))


def check_markdown_files(paths: list[str | Path]) -> list[FileClaim]:
    """Decide every claim block of several files; ``uses:`` may name a claim of any of them."""
    found: list[FileClaim] = []
    for path in paths:
        found.extend(check_markdown_text(_read_markdown(path), str(path)))
    return resolve_dependencies(found)


def _read_markdown(path: str | Path) -> str:
    from pla.files import read_bounded

    return read_bounded(path).decode("utf-8")
