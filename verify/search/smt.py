"""The optional second checker: every scalar step of a theorem, asked again of z3.

This module is **outside the trusted kernel** and decides nothing: the kernel
(:func:`verify.kernel.check_theorem`) is the authority on every proof.  It gives a second,
independent opinion, with no use of the kernel's certificates: for each step ``a rel b`` it asks
z3 whether the hypotheses available at that step together with the *negation* of the step are
satisfiable over the reals.

- ``unsat``: z3 confirms the step (``confirmed``);
- ``sat``: z3 disagrees and gives a model, a point where every hypothesis holds and the step
  fails (``refuted``); the kernel still decides, but ``pla proof --smt`` fails loudly (exit 1),
  because the kernel and z3 cannot both be right;
- ``unknown``: z3 gave up (timeout, or nonlinear arithmetic beyond it).

How a step becomes a z3 query (independently of the kernel's code):

1. vector atoms are replaced by their declared definitions and every ``Dot`` is expanded by
   bilinearity and symmetry into *dot atoms* ``Dot(a, b)`` of vector atoms; each dot atom, each
   indexed scalar (``y[t]``) and each symbol becomes a z3 ``Real``;
2. a statement with denominators, ``N/D rel 0``, becomes ``N*D rel 0`` together with the
   obligation ``D != 0`` (equalities: ``N = 0`` and ``D != 0``), so every query is polynomial;
3. hypotheses: the theorem's facts, rewriting rules as equalities ``target**k = rhs``,
   natural-number indices ``>= 0``, the facts of the earlier lines, the induction hypothesis and
   the per-step family (in an induction step), and for a lemma line the instantiated lemma;
4. a first query leaves the dot atoms free; only if z3 finds a model there is the query repeated
   with the exact meaning of inner products added: the Gram matrix of the vector atoms is
   positive semidefinite (every principal minor ``>= 0``).  A model of that second query is a
   real counterexample in some inner-product space.

The sympy -> z3 translation walks the expression tree over a whitelist (``Add``, ``Mul``,
``Pow`` with an integer exponent ``0 <= k <= 16``, ``Integer``, ``Rational``, ``Symbol``) and
refuses anything else with :class:`SmtTranslationError`; nothing is ever evaluated from a string.
z3 (the ``smt`` extra, ``pip install 'pla-verify[smt]'``) is imported only when a check runs.

>>> from verify.proofs import check_builtin_proofs
>>> (result,) = check_builtin_proofs(("margins",))
>>> report = smt_check_theorem(result.checked)
>>> report.counts()
{'steps': 7, 'confirmed': 7, 'unknown': 0, 'refuted': 0}
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

__all__ = [
    "SmtError", "SmtUnavailable", "SmtTranslationError", "StepCheck", "TheoremCheck",
    "smt_available", "to_z3", "check_implication", "check_satisfiable", "smt_check_theorem", "check_theorem_steps",
    "DEFAULT_TIMEOUT_MS", "MAX_EXPONENT",
]

#: The per-step time limit given to z3, in milliseconds.
DEFAULT_TIMEOUT_MS = 2000
#: The largest exponent the translator accepts.
MAX_EXPONENT = 16
#: The name of the fresh vector that tests a vector definition (not a valid Python name).
_PROBE = "probe-vector"
#: The statuses of a checked step.
STATUSES = ("confirmed", "unknown", "refuted")


class SmtError(Exception):
    """Base class of the errors of the optional z3 check."""


class SmtUnavailable(SmtError):
    """z3 is not installed (install the ``smt`` extra)."""


class SmtTranslationError(SmtError):
    """An expression outside the translator's whitelist (or not a scalar statement)."""


@dataclass(frozen=True)
class StepCheck:
    """z3's verdict on one step.

    ``where``: ``"line NAME, step K"`` (the kernel's numbering) or ``"line NAME (lemma)"``,
    prefixed by ``base:`` / ``step:`` in an induction; ``statement``: the step as text;
    ``status``: ``confirmed`` / ``unknown`` / ``refuted``; ``model``: for ``refuted``, the
    counterexample as ``(name, exact value)`` pairs; ``reason``: z3's reason for ``unknown``.
    """

    where: str
    statement: str
    status: str
    model: tuple[tuple[str, str], ...] = ()
    reason: str = ""
    seconds: float = 0.0


@dataclass(frozen=True)
class TheoremCheck:
    """z3's verdicts on every step of one theorem; ``hypotheses``: ``satisfiable``,
    ``contradictory`` (every step would hold vacuously) or ``unknown``, from
    :func:`check_satisfiable` on the hypotheses each derivation starts from."""

    name: str
    steps: tuple[StepCheck, ...]
    seconds: float
    hypotheses: str = "satisfiable"

    def counts(self) -> dict[str, int]:
        """``{"steps", "confirmed", "unknown", "refuted"}``: how many steps got each verdict."""
        out = {"steps": len(self.steps)}
        for status in STATUSES:
            out[status] = sum(1 for s in self.steps if s.status == status)
        return out


def smt_available() -> bool:
    """True when z3 (the ``smt`` extra) can be imported (this imports it)."""
    try:
        _z3()
    except SmtUnavailable:
        return False
    return True


def _z3() -> Any:
    try:
        import z3
    except ImportError as exc:
        raise SmtUnavailable("z3 is not installed; install it with: "
                             "pip install 'pla-verify[smt]'") from exc
    return z3


def _sympy() -> Any:
    import sympy

    return sympy


# --- translation ----------------------------------------------------------------------------

def to_z3(expr: Any, variables: dict) -> Any:
    """The z3 term of the sympy polynomial ``expr``; ``variables`` maps each sympy Symbol to its
    z3 ``Real`` (new symbols are added).  Refuses everything outside the whitelist.

    >>> import sympy
    >>> a, b = sympy.symbols("a b")
    >>> str(to_z3(a**2 - sympy.Rational(1, 2) * b, {}))
    'a*a + -1/2*b'
    >>> to_z3(sympy.sqrt(a), {})
    Traceback (most recent call last):
    ...
    verify.search.smt.SmtTranslationError: cannot translate sqrt(a) to z3: Pow with exponent 1/2 ...
    """
    sp = _sympy()
    z3 = _z3()

    def walk(e: Any) -> Any:
        if isinstance(e, sp.Integer):
            return z3.RealVal(int(e))
        if isinstance(e, sp.Rational):
            return z3.Q(int(e.p), int(e.q))
        if isinstance(e, sp.Symbol):
            if e not in variables:
                taken = {str(v) for v in variables.values()}
                name = e.name
                while name in taken:
                    name += "'"
                variables[e] = z3.Real(name)
            return variables[e]
        if isinstance(e, sp.Add):
            return z3.Sum([walk(a) for a in e.args])
        if isinstance(e, sp.Mul):
            return z3.Product([walk(a) for a in e.args])
        if isinstance(e, sp.Pow):
            k = e.exp
            if not (isinstance(k, sp.Integer) and 0 <= k <= MAX_EXPONENT):
                raise SmtTranslationError(
                    f"cannot translate {e} to z3: Pow with exponent {k} (only integers 0.."
                    f"{MAX_EXPONENT})")
            if k == 0:
                return z3.RealVal(1)
            base = walk(e.base)
            return base if k == 1 else z3.Product([base] * int(k))
        raise SmtTranslationError(f"cannot translate {e} to z3: {type(e).__name__} is not "
                                  f"one of Add, Mul, Pow, Integer, Rational, Symbol")

    return walk(expr)


class _Atoms:
    """Turns scalar expressions with ``Dot`` into polynomials over plain symbols, for one query.

    Dot atoms, indexed scalars and symbols each become one sympy Symbol (the same for equal
    atoms); the vector atoms met on the way are recorded for the Gram constraints.
    """

    def __init__(self, vectors: frozenset, vecdefs: dict) -> None:
        self.vectors = vectors
        self.vecdefs = vecdefs
        self.pairs: dict[tuple, Any] = {}
        self.scalars: dict[Any, Any] = {}
        self.vector_atoms: set = set()

    def is_vector(self, e: Any) -> bool:
        sp = _sympy()
        if isinstance(e, sp.Symbol):
            return e.name in self.vectors
        if isinstance(e, sp.Indexed):
            return str(e.base.label) in self.vectors
        return False

    def pair(self, a: Any, b: Any) -> Any:
        sp = _sympy()
        a, b = sorted((a, b), key=sp.default_sort_key)
        if (a, b) not in self.pairs:
            self.pairs[(a, b)] = sp.Symbol(f"Dot({a}, {b})")
        self.vector_atoms.update((a, b))
        return self.pairs[(a, b)]

    def vector_terms(self, v: Any) -> list[tuple[Any, Any]]:
        sp = _sympy()
        v = sp.S(v)
        for _ in range(64):
            new = v.xreplace(self.vecdefs)
            if new == v:
                break
            v = new
        else:
            raise SmtTranslationError("vector definitions do not terminate")
        out = []
        for term in sp.Add.make_args(sp.expand(v)):
            if term == 0:
                continue
            factors = sp.Mul.make_args(term)
            vecs = [f for f in factors if self.is_vector(f)]
            if len(vecs) != 1:
                raise SmtTranslationError(f"{term} is not a scalar multiple of one vector atom")
            rest = [f for f in factors if f is not vecs[0]]
            out.append((self.scalar(sp.Mul(*rest)), vecs[0]))
        return out

    def scalar(self, e: Any) -> Any:
        """``e`` with every Dot expanded into dot atoms and every atom a plain Symbol."""
        sp = _sympy()
        from verify.kernel import dot

        Dot = type(dot(sp.Symbol("a"), sp.Symbol("b")))
        e = sp.S(e)
        if isinstance(e, Dot):
            total = sp.S(0)
            for cu, a in self.vector_terms(e.args[0]):
                for cv, b in self.vector_terms(e.args[1]):
                    total += cu * cv * self.pair(a, b)
            return total
        if self.is_vector(e):
            raise SmtTranslationError(f"vector {e} used as a scalar")
        if isinstance(e, sp.Indexed):
            if e not in self.scalars:
                self.scalars[e] = sp.Symbol(str(e))
            return self.scalars[e]
        if isinstance(e, (sp.Add, sp.Mul, sp.Pow)):
            return e.func(*[self.scalar(a) for a in e.args])
        return e  # numbers and symbols; anything else is refused by the translator

    def statement(self, expr: Any, kind: str) -> tuple[Any, Any, str]:
        """``expr kind`` (kind ``>=0``, ``>0``, ``=0``) as polynomials ``(N, D, kind)`` with
        ``expr = N/D``."""
        sp = _sympy()
        numerator, denominator = sp.fraction(sp.together(self.scalar(expr)))
        return sp.expand(numerator), sp.expand(denominator), kind


def _relation(z3: Any, poly: Any, kind: str) -> Any:
    return {">=0": poly >= 0, ">0": poly > 0, "=0": poly == 0}[kind]


def _holds(z3: Any, n: Any, d: Any, kind: str, variables: dict) -> Any:
    """The z3 formula ``N/D kind`` made polynomial: ``D != 0`` and ``N*D kind`` (``N = 0``)."""
    if d.is_Number:
        if d == 0:
            raise SmtTranslationError("a statement divides by 0")
        n = n * d if kind != "=0" else n
        return _relation(z3, to_z3(n, variables), kind)
    zn, zd = to_z3(n, variables), to_z3(d, variables)
    return z3.And(zd != 0, zn == 0 if kind == "=0" else _relation(z3, zn * zd, kind))


def _gram_constraints(z3: Any, atoms: _Atoms, variables: dict) -> list:
    """Every principal minor of the Gram matrix of the vector atoms is >= 0 (exactly: the dot
    atoms are the inner products of some vectors in some real inner-product space)."""
    sp = _sympy()
    from itertools import combinations

    vecs = sorted(atoms.vector_atoms, key=sp.default_sort_key)
    gram = sp.Matrix(len(vecs), len(vecs), lambda i, j: atoms.pair(vecs[i], vecs[j]))
    out = []
    for size in range(1, len(vecs) + 1):
        for rows in combinations(range(len(vecs)), size):
            minor = sp.expand(gram.extract(list(rows), list(rows)).det(method="berkowitz"))
            out.append(to_z3(minor, variables) >= 0)
    return out


def _value(z3: Any, v: Any) -> str:
    if z3.is_rational_value(v):
        frac = v.as_fraction()
        return str(frac.numerator) if frac.denominator == 1 else \
            f"{frac.numerator}/{frac.denominator}"
    if z3.is_algebraic_value(v):
        return v.sexpr()  # (root-obj polynomial index): exact
    return str(v)


def _solver(z3: Any, timeout_ms: int) -> Any:
    solver = z3.Solver()
    solver.set("timeout", int(timeout_ms))
    return solver


def check_implication(hyps: list, goal: tuple, vectors: frozenset = frozenset(),
                      vecdefs: dict | None = None, timeout_ms: int = DEFAULT_TIMEOUT_MS,
                      where: str = "", text: str = "") -> StepCheck:
    """Ask z3 whether ``hyps`` imply ``goal``; both as ``(expr, kind)`` with kind ``>=0``,
    ``>0`` or ``=0`` (what :meth:`verify.kernel.Fact.normal` returns); ``vectors``: the names of
    the vector atoms, ``vecdefs``: their definitions.

    >>> import sympy
    >>> from verify.kernel import Fact
    >>> a, b = sympy.symbols("a b")
    >>> check_implication([Fact(a, ">", 0).normal()], Fact(a**2 + a, ">", 0).normal()).status
    'confirmed'
    >>> wrong = check_implication([Fact(a, ">", b).normal()], Fact(a**2, ">", b**2).normal())
    >>> wrong.status, [name for name, value in wrong.model]
    ('refuted', ['a', 'b'])
    """
    z3 = _z3()
    started = time.perf_counter()
    atoms = _Atoms(vectors, dict(vecdefs or {}))
    variables: dict = {}
    facts = [_holds(z3, *atoms.statement(e, k), variables) for e, k in hyps]
    negation = z3.Not(_holds(z3, *atoms.statement(*goal), variables))
    status, model, reason = "unknown", (), ""
    # first with free dot atoms (enough for most steps); a model there is only a candidate when
    # there are vectors, so ask again with the exact meaning of inner products (Gram >= 0)
    for with_gram in (False, True):
        if with_gram and not atoms.vector_atoms:
            break
        solver = _solver(z3, timeout_ms)
        solver.add(*facts)
        if with_gram:
            solver.add(*_gram_constraints(z3, atoms, variables))
        solver.add(negation)
        answer = solver.check()
        if answer == z3.unsat:
            status, model, reason = "confirmed", (), ""
            break
        if answer == z3.sat:
            found = solver.model()
            status, reason = "refuted", ""
            model = tuple(sorted((str(z), _value(z3, found.eval(z, model_completion=True)))
                                 for z in variables.values()))
        else:
            status, model, reason = "unknown", (), solver.reason_unknown()
            break
    return StepCheck(where, text, status, model, reason, time.perf_counter() - started)


def check_satisfiable(hyps: list, vectors: frozenset = frozenset(),
                      vecdefs: dict | None = None,
                      timeout_ms: int = DEFAULT_TIMEOUT_MS) -> str:
    """``"satisfiable"``, ``"contradictory"`` or ``"unknown"``: whether the hypotheses ``hyps``
    (as for :func:`check_implication`) can all hold at once.  Contradictory hypotheses would
    make every step hold vacuously.

    >>> import sympy
    >>> from verify.kernel import Fact
    >>> a = sympy.Symbol("a")
    >>> check_satisfiable([Fact(a, ">", 0).normal(), Fact(a**2, "<", 0).normal()])
    'contradictory'
    """
    z3 = _z3()
    atoms = _Atoms(vectors, dict(vecdefs or {}))
    variables: dict = {}
    solver = _solver(z3, timeout_ms)
    solver.add(*[_holds(z3, *atoms.statement(e, k), variables) for e, k in hyps])
    solver.add(*_gram_constraints(z3, atoms, variables))
    answer = solver.check()
    if answer == z3.sat:
        return "satisfiable"
    return "contradictory" if answer == z3.unsat else "unknown"


# --- walking a theorem's steps ---------------------------------------------------------------

def _subst(content: Any, sigma: dict) -> Any:
    from verify.kernel import Fact, Rewrite, VectorDef

    sp = _sympy()
    if isinstance(content, Fact):
        return Fact(sp.S(content.lhs).xreplace(sigma), content.rel,
                    sp.S(content.rhs).xreplace(sigma))
    if isinstance(content, Rewrite):
        return Rewrite(sp.S(content.target).xreplace(sigma), content.power,
                       sp.S(content.rhs).xreplace(sigma))
    if isinstance(content, VectorDef):
        return VectorDef(sp.S(content.vector).xreplace(sigma), sp.S(content.value).xreplace(sigma))
    return sp.S(content).xreplace(sigma)


class _Scope:
    """The hypotheses available at one point of a derivation (facts, rules, definitions)."""

    def __init__(self, vectors: frozenset, naturals: tuple, hyps: tuple) -> None:
        sp = _sympy()
        self.vectors = vectors
        self.facts: list[tuple[Any, str]] = [(sp.S(n), ">=0") for n in naturals]
        self.vecdefs: dict = {}
        for hyp in hyps:
            self.add(hyp.content)

    def add(self, content: Any) -> None:
        from verify.kernel import Fact, Rewrite, VectorDef

        sp = _sympy()
        if isinstance(content, Fact):
            self.facts.append(content.normal())
        elif isinstance(content, Rewrite):
            self.facts.append((sp.S(content.target) ** content.power - sp.S(content.rhs), "=0"))
        elif isinstance(content, VectorDef):
            self.vecdefs[sp.S(content.vector)] = sp.S(content.value)
        else:
            raise SmtTranslationError(f"unknown hypothesis {content!r}")

    def obligation(self, content: Any) -> tuple[tuple[Any, str], frozenset, str]:
        """What z3 must show for ``content`` to be available: ``(goal, extra vectors, text)``.
        A vector definition ``v = e`` becomes ``Dot(z, v) = Dot(z, e)`` for a fresh vector z."""
        from verify.kernel import Fact, Rewrite, VectorDef, dot

        sp = _sympy()
        if isinstance(content, Fact):
            return content.normal(), frozenset(), f"{content.lhs} {content.rel} {content.rhs}"
        if isinstance(content, Rewrite):
            target = sp.S(content.target) ** content.power
            return (target - sp.S(content.rhs), "=0"), frozenset(), f"{target} = {content.rhs}"
        if isinstance(content, VectorDef):
            probe = sp.Symbol(_PROBE)
            goal = dot(probe, content.vector) - dot(probe, content.value)
            return (goal, "=0"), frozenset({_PROBE}), f"{content.vector} = {content.value}"
        raise SmtTranslationError(f"unknown hypothesis {content!r}")

    def consistency(self, timeout_ms: int) -> str:
        try:
            return check_satisfiable(list(self.facts), self.vectors, self.vecdefs, timeout_ms)
        except SmtTranslationError:
            return "unknown"

    def ask(self, content: Any, where: str, timeout_ms: int) -> StepCheck:
        """z3's verdict on ``content``; a statement z3 cannot be given is ``unknown``."""
        goal, extra, text = self.obligation(content)
        try:
            return check_implication(list(self.facts), goal, self.vectors | extra,
                                     self.vecdefs, timeout_ms, where, text)
        except SmtTranslationError as exc:
            return StepCheck(where, text, "unknown", reason=f"not translated: {exc}")


def _combined(*checks: StepCheck, where: str, text: str) -> StepCheck:
    """One verdict from several obligations: refuted if any is, else unknown if any is."""
    seconds = sum(c.seconds for c in checks)
    for status in ("refuted", "unknown"):
        for c in checks:
            if c.status == status:
                return StepCheck(where, f"{text}: {c.statement}", status, c.model, c.reason,
                                 seconds)
    return StepCheck(where, text, "confirmed", (), "", seconds)


def _derivation_steps(scope: _Scope, derivation: Any, prefix: str, families: tuple,
                      timeout_ms: int) -> list[StepCheck]:
    from verify.kernel import Chain, Fact, LemmaUse

    sp = _sympy()
    out = []
    for line in derivation.lines:
        if isinstance(line, Chain):
            previous = sp.S(line.start)
            for i, link in enumerate(line.links, 1):
                out.append(scope.ask(Fact(previous, link.rel, link.expr),
                                     f"{prefix}line {line.name}, step {i}", timeout_ms))
                previous = sp.S(link.expr)
            rels = {link.rel for link in line.links}
            if rels == {"="}:
                rel = "="
            elif rels & {"<=", "<"}:
                rel = "<" if "<" in rels else "<="
            else:
                rel = ">" if ">" in rels else ">="
            scope.add(Fact(line.start, rel, line.links[-1].expr))
        elif isinstance(line, LemmaUse):
            out.append(_lemma_step(scope, line, families, f"{prefix}line {line.name} (lemma)",
                                   timeout_ms))
        else:
            raise SmtTranslationError(f"unknown line {line!r}")
    return out


def _lemma_step(scope: _Scope, use: Any, families: tuple, where: str,
                timeout_ms: int) -> StepCheck:
    """A lemma line: z3 checks that every hypothesis of the lemma, instantiated, follows from
    the context, and that each per-step hypothesis of the lemma (at a fresh step i) follows from
    the context's per-step hypotheses at i.  The instantiated conclusion then becomes a fact.
    (That the lemma is itself checked, and that its induction variable maps to a natural
    number, is the kernel's business.)"""
    sp = _sympy()
    thm = use.lemma.theorem
    sigma = dict(use.substitution)
    checks = [scope.ask(_subst(h.content, sigma), where, timeout_ms) for h in thm.hyps]
    if thm.family is not None:
        bound = sp.Symbol("i_step", integer=True)
        upper = sp.S(thm.family.upper).xreplace(sigma)
        covering = [f for f in families if sp.expand(sp.S(f.upper) - upper) == 0]
        if not covering:
            checks.append(StepCheck(where, f"per-step hypotheses of {thm.name} up to {upper}",
                                    "unknown", reason="no per-step family up to that bound"))
        else:
            fam = covering[0]
            local = _Scope(scope.vectors, (bound,), ())
            for h in fam.hyps:
                local.add(_subst(h.content, {fam.index: bound}))
            inner = {**sigma, thm.family.index: bound}
            checks += [local.ask(_subst(h.content, inner), where, timeout_ms)
                       for h in thm.family.hyps]
    conclusion = _subst(thm.conclusions[use.conclusion], sigma)
    scope.add(conclusion)
    return _combined(*checks, where=where,
                     text=f"{conclusion.lhs} {conclusion.rel} {conclusion.rhs} by {thm.name}")


def check_theorem_steps(theorem: Any, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> TheoremCheck:
    """z3's verdict on every step of ``theorem`` (a :class:`verify.kernel.Theorem`, checked or
    not: this is how a wrong step that the kernel rejects can be shown to z3 too).

    The steps are the kernel's (every link of every chain, every lemma line), in the kernel's
    order, then one check per conclusion: it follows from the hypotheses and derived facts.
    """
    from verify.kernel import Derivation, Hyp, Induction

    started = time.perf_counter()
    vectors = frozenset(theorem.vectors)
    proof = theorem.proof
    steps: list[StepCheck] = []
    consistency: list[str] = []

    def conclude(scope: _Scope, goals: tuple, prefix: str) -> None:
        for k, goal in enumerate(goals, 1):
            steps.append(scope.ask(goal, f"{prefix}conclusion {k}", timeout_ms))

    if isinstance(proof, Derivation):
        families = (theorem.family,) if theorem.family is not None else ()
        scope = _Scope(vectors, tuple(theorem.naturals), theorem.hyps)
        consistency.append(scope.consistency(timeout_ms))
        steps += _derivation_steps(scope, proof, "", families, timeout_ms)
        conclude(scope, theorem.conclusions, "")
    elif isinstance(proof, Induction):
        T, t = proof.variable, proof.index
        others = tuple(n for n in theorem.naturals if n != T)
        base = _Scope(vectors, others, theorem.hyps)
        consistency.append(base.consistency(timeout_ms))
        steps += _derivation_steps(base, proof.base, "base: ", (), timeout_ms)
        conclude(base, tuple(_subst(c, {T: 0}) for c in theorem.conclusions), "base: ")
        step_hyps = tuple(theorem.hyps)
        if theorem.family is not None:
            fam = theorem.family
            step_hyps += tuple(Hyp(h.name, _subst(h.content, {fam.index: t})) for h in fam.hyps)
        step_hyps += tuple(Hyp(f"IH{k}", _subst(c, {T: t}))
                           for k, c in enumerate(theorem.conclusions))
        scope = _Scope(vectors, others + (t,), step_hyps)
        consistency.append(scope.consistency(timeout_ms))
        steps += _derivation_steps(scope, proof.step, "step: ", (), timeout_ms)
        conclude(scope, tuple(_subst(c, {T: t + 1}) for c in theorem.conclusions), "step: ")
    else:
        raise SmtTranslationError(f"{theorem.name}: unknown proof kind")
    hypotheses = next((c for c in ("contradictory", "unknown") if c in consistency),
                      "satisfiable")
    return TheoremCheck(theorem.name, tuple(steps), time.perf_counter() - started, hypotheses)


def smt_check_theorem(checked: Any, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> TheoremCheck:
    """z3's verdict on every step of a kernel-checked theorem (a ``CheckedTheorem``)."""
    return check_theorem_steps(checked.theorem, timeout_ms)
