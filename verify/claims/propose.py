"""Untrusted: proposes the kernel theorems of a claim (certificate search glue).

Role: proposes.  Reads the claim's elaborated statement (:mod:`verify.claims.elaborate`) and
asks :mod:`verify.search.claim_certificates` for certificates; every theorem it builds is checked
by the kernel and compared with the statement by :func:`verify.kernel.check_claim`, so a bug
here can make a claim unproved, never proved.

>>> from verify.claims.parser import parse_claim
>>> prover = _Prover(parse_claim("assume: x >= 1\\nx**2 >= x"))
>>> prover.assumptions()
>>> [h.name for h in prover.known]
['h1']
"""

from __future__ import annotations

from dataclasses import replace

from typing import Any

from verify.claims.elaborate import atoms_in, domain_conditions, elaborate
from verify.claims.parser import Claim, Relation

__all__ = ["_Prover", "_Unproved", "_constant_root_certificate", "_sides"]


class _Unproved(Exception):
    """No proof: the message says what was tried."""


class _Prover:
    """Proposes the kernel theorems of one claim (untrusted: the kernel's check_claim compares
    every theorem with the claim's elaborated statement)."""

    def __init__(self, claim: Claim) -> None:
        self.claim = claim
        self.statement, self.tr = elaborate(claim)
        self.kernel = self.tr.kernel
        self.sp = self.tr.sp
        self.rewrites: dict = {}       # atom symbol -> (2, square) for the search
        self.domain_theorems: list = []  # the theorems proving the goals' domain conditions
        self.known: list = []          # kernel hypotheses justified so far
        self.names: dict[str, str] = {}  # hypothesis name -> text shown to a reader
        self.nonzero: list = []        # expressions assumed != 0 (assumptions `a != b`)
        self.domain: list[str] = []
        self.defined: set = set()      # aux symbols whose hypotheses are in `known`
        self.dots: dict = {}           # Dot(a, b) -> its scalar symbol in the search
        self.normsq: dict = {}         # pseudo-hypothesis name -> vector v (Dot(v, v) >= 0)
        self.derived: dict = {}        # name of a derived line in scope -> e (meaning e >= 0)
        self.derived_kinds: dict = {}  # its kind: ">=0", ">0" or "=0"
        self.deadline: float | None = None  # a time.process_time() (CPU) that bounds every search

    def derive(self, name: str, expr: Any, kind: str = ">=0") -> None:
        """The checked line ``name`` (``expr`` ``kind``: ">=0", ">0" or "=0") is in scope for
        the certificate search."""
        self.derived[name] = expr
        self.derived_kinds[name] = kind

    def budget(self) -> dict:
        """The keyword that bounds a certificate search by `deadline` (none without one: the
        search's own budget)."""
        if self.deadline is None:
            return {}
        import time

        from verify.search.claim_certificates import MAX_SECONDS

        return {"seconds": max(0.01, min(MAX_SECONDS, self.deadline - time.process_time()))}

    # ---- hypotheses ---------------------------------------------------------------------------
    def add(self, hyp: Any, shown: str) -> None:
        self.known.append(hyp)
        self.names[hyp.name] = shown

    def define_atom(self, node: tuple) -> None:
        atom = self.tr.atom(node)
        s = atom.symbol
        if s in self.defined:
            return
        self.defined.add(s)
        self.rewrites[s] = (2, atom.argument if atom.kind == "sqrt" else
                            self.sp.expand(atom.argument ** 2))
        for h in self.kernel.atom_definitions(atom):
            self.add(h, h.note)

    def assumptions(self) -> None:
        kernel, sp = self.kernel, self.sp
        for i, r in enumerate(self.claim.assumptions, 1):
            for kind, node in domain_conditions(r.lhs) + domain_conditions(r.rhs):
                if kind == "nonzero":
                    raise _Unproved(f"assumption {r.text!r} divides by "
                                    f"{self.tr.show(self.tr.expr(node))}: write it without "
                                    f"a variable denominator")
            for node in atoms_in(r.lhs) + atoms_in(r.rhs):
                if node[0] == "sqrt" and self.tr.atom(node).symbol not in self.defined:
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
        facts = [(h.name, h.content.normal()) for h in self.known
                 if isinstance(h.content, self.kernel.Fact)]
        facts += [(name, (e, self.derived_kinds[name])) for name, e in self.derived.items()]
        for name, (expr, kind) in facts:
            if kind == "=0":
                equalities.append((name, self.sp.expand(expr)))
            else:
                ineqs.append((name, self.sp.expand(expr), kind == ">0"))
        return ineqs, equalities

    # ---- certificates -------------------------------------------------------------------------
    def certificate(self, target: Any, strict: bool, equality: bool = False) -> Any:
        """A kernel Certificate of ``target >= 0`` (``> 0`` if strict, ``= 0`` if equality)
        from `known`, or None."""
        from verify.search.claim_certificates import find_certificate, reduce_rewrites

        sp, kernel = self.sp, self.kernel
        numerator, den = sp.fraction(sp.together(sp.S(target)))
        if den.free_symbols:  # 1/a + 1/b: times a*b (a > 0, b > 0 known) it is a + b
            try:
                divisors = self.divisors(den)
            except _Unproved:
                return None
            cleared = self.certificate(self.times_divisors(numerator, den, divisors), strict,
                                       equality)
            return None if cleared is None else replace(cleared, divisors=tuple(divisors))
        flat = self.scalar_form
        rewrites = {t: (k, flat(rhs)) for t, (k, rhs) in self.rewrites.items()}
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
            found = find_certificate(target, [], equalities, rewrites, **self.budget())
        else:
            found = _constant_root_certificate(self, target, strict)
            if found is not None:
                return found
            found = _multiple_of_one_fact(self.sp, target, ineqs, strict)
            near = target.free_symbols
            # first only the facts about the target's own variables: a smaller search
            if near and found is None:
                small = ([h for h in ineqs if h[1].free_symbols <= near],
                         [e for e in equalities if e[1].free_symbols <= near],
                         {t: r for t, r in rewrites.items() if t in near})
                if sum(map(len, small)) < len(ineqs) + len(equalities) + len(rewrites):
                    found = find_certificate(target, *small, strict=strict, **self.budget())
            if found is None:
                found = find_certificate(target, ineqs, equalities, rewrites, strict=strict,
                                         **self.budget())
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

    def check(self, name: str, conclusion: Any, lines: tuple, extra: tuple = ()) -> Any:
        kernel = self.kernel
        theorem = kernel.Theorem(name=name, title=name, vectors=self.claim.vectors, naturals=(),
                                 hyps=tuple(self.known) + extra, conclusions=(conclusion,),
                                 proof=kernel.Derivation(lines))
        kernel.check_theorem(theorem)
        return theorem

    def prove_fact(self, name: str, expr: Any, rel: str) -> bool:
        """Prove ``expr rel 0`` (rel ``>=``, ``>`` or ``<``) from `known` with the kernel; the
        theorem is kept in `domain_theorems` for :func:`verify.kernel.check_claim`."""
        kernel = self.kernel
        target = -expr if rel == "<" else expr
        Dot = kernel.Dot
        if rel == ">=" and isinstance(expr, Dot) and expr.args[0] == expr.args[1]:
            certificate = kernel.Certificate((kernel.Term(1, (kernel.NormSq(expr.args[0]),)),))
        else:
            certificate = self.certificate(target, strict=rel != ">=")
        if certificate is not None:
            lines = (kernel.Chain(name, expr, (kernel.Link(rel, 0, certificate),)),)
        elif rel == "<":
            return False
        else:  # e.g. sqrt(x) > 0 from x > 0: by squaring both sides
            from verify.claims.propose_roots import SQUARES_SECONDS, _within, at_least

            found = _within(self, SQUARES_SECONDS, at_least, name, expr, self.sp.S(0),
                            rel == ">")
            if found is None:
                return False
            lines = found[0]
        fact = kernel.Fact(expr, rel, 0)
        try:
            theorem = self.check(name, fact, lines)
        except kernel.KernelError:
            return False
        self.domain_theorems.append(theorem)
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
                theorem = self.check("vacuous", kernel.Fact(0, "<=", 0),
                                     (kernel.Chain("contradiction", 0,
                                                   (kernel.Link("<", 0, certificate),)),))
                kernel.check_vacuous(self.statement, theorem)
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
            for atom in atoms_in(node):  # inner atoms are justified by earlier conditions
                self.define_atom(atom)
            expr = tr.expr(node)
            shown = tr.show(expr)
            name = f"domain{k}"
            if kind == "nonneg":
                s = tr.atom(("sqrt", node)).symbol
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
                    if not _rational_function(sp, expr):  # not 1/a + 1/b:
                        # the kernel takes no hypothesis with a variable denominator
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
            for atom in atoms_in(goal.lhs) + atoms_in(goal.rhs):
                self.define_atom(atom)

    def times_divisors(self, numerator: Any, den: Any, divisors: list[str]) -> Any:
        """``p * numerator/den``, p the product of the positive facts named in ``divisors``
        (:meth:`divisors`): the polynomial a certificate with those divisors is about."""
        sp = self.sp
        positive = dict((n, e) for n, e, _ in self.facts()[0])
        p = sp.Mul(*[positive[d] for d in divisors])
        return sp.expand(sp.cancel(p / den) * numerator)

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
            target = self.times_divisors(numerator, den, divisors)
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
        left, right = _sides(goal)
        big, small = (right, left) if op in ("<=", "<", "==") else (left, right)
        lhs = f"{big} - ({small})"
        if certificate.divisors:
            lhs = f"{'*'.join(self.factor_text(d) for d in certificate.divisors)} * ({lhs})"
        prefix = f"{goal.text} since {left} {op} {right}: " if goal.op == "!=" else ""
        return f"{prefix}{lhs} = {self.terms_text(certificate)}"

    def factor_text(self, f: Any) -> str:
        """One factor of a certificate term as a reader reads it."""
        tr = self.tr
        if isinstance(f, str):
            expr = self.derived.get(f)
            if expr is None:
                expr, _ = next(h for h in self.known if h.name == f).content.normal()
            return f"({tr.show(expr)})"
        if isinstance(f, self.kernel.NormSq):
            return f"dot({tr.show(f.vector)}, {tr.show(f.vector)})"
        return f"({tr.show(f.expr)})**2"

    def terms_text(self, certificate: Any) -> str:
        """The terms of a certificate, ``c*(fact)*(q)**2 + ...`` (``0`` when it has none)."""
        parts = []
        for term in certificate.terms:
            parts.append("*".join([str(term.coeff)] + [self.factor_text(f)
                                                        for f in term.factors]))
        for eq in certificate.eq_terms:
            parts.append(f"({self.tr.show(eq.multiplier)})*{self.factor_text(eq.name)}")
        return " + ".join(parts) if parts else "0"


def _sides(goal: Relation) -> tuple[str, str]:
    left, right = goal.text.split(f" {goal.op} ", 1)
    return left.strip(), right.strip()


def _multiple_of_one_fact(sp: Any, target: Any, ineqs: list, strict: bool) -> Any:
    """``target = c*fact`` (c > 0 rational) for one fact ``(name, expr, is_strict)`` of
    ``ineqs``, as a search result, or None: the shortcut for a goal that is one earlier line
    (a Cauchy–Schwarz line of :mod:`verify.claims.propose_norms`) up to a positive factor.

    >>> import sympy
    >>> a, b = sympy.symbols("a b")
    >>> _multiple_of_one_fact(sympy, 2*a - 2*b, [("h", a - b, False)], False).terms
    ((2, ('h',)),)
    """
    from verify.search.claim_certificates import FoundCertificate

    if not target.free_symbols:
        return None
    for name, expr, is_strict in ineqs:
        if expr.free_symbols != target.free_symbols or (strict and not is_strict):
            continue
        ratio = sp.cancel(target / expr)
        if ratio.is_Rational and ratio > 0:
            return FoundCertificate(((ratio, (name,)),), ())
    return None


def _constant_root_certificate(prover: _Prover, target: Any, strict: bool) -> Any:
    """Certificate of ``alpha + beta*s >= 0`` (``> 0``) for ``s = sqrt(q)``, q a positive
    rational constant, by comparing squares exactly (a float LP cannot scale inside a square).
    Returns None when the target has another shape or the comparison fails."""
    kernel, sp = prover.kernel, prover.sp
    if len(target.free_symbols) != 1:
        return None
    (s,) = target.free_symbols
    rule = prover.rewrites.get(s)
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


def _rational_function(sp: Any, e: Any) -> bool:
    """Whether ``e`` has a variable in a denominator (e.g. 1/a + 1/b).

    >>> import sympy
    >>> a = sympy.Symbol("a")
    >>> _rational_function(sympy, 1/a + 1), _rational_function(sympy, a**2 + 1)
    (True, False)
    """
    return bool(sp.fraction(sp.together(sp.S(e)))[1].free_symbols)
