"""Trusted base: a claim's own statement, and the check that a proof proves exactly it.

Imports only the kernel's own modules and sympy (lazily).

A :class:`ClaimStatement` is what a Markdown claim says, built once by the small elaborator
(:mod:`verify.claims.elaborate`) from the parser's tree: the vectors and integers it quantifies
over, its assumptions, the atoms ``sqrt(e)`` / ``Abs(e)`` it introduces (each a symbol whose
full definition the kernel writes itself, :func:`atom_definitions`), the domain conditions it
needs, and its goals (or one symbolic ``Sum`` goal).  Everything that proposes a proof is
untrusted: :func:`check_claim` accepts a proof only when

- every theorem of it passes :func:`~verify.kernel.derivations.check_theorem`;
- every hypothesis it uses is, by its canonical text (:func:`content_text`), an assumption of
  the statement, the definition of one of its atoms (a ``sqrt`` only once its argument is known
  to be >= 0), an assumed domain condition, or the conclusion of an earlier domain theorem;
- (for ``vacuous``, :func:`check_vacuous`: a checked line 0 < 0 from the assumptions alone);
- every domain condition is discharged, and the main theorem's conclusions are the goals, by
  canonical text (an equality goal whose denominator is a product of expressions the statement
  assumes != 0 may be concluded as ``numerator = 0``, :func:`cleared_equality`);
- for a ``Sum`` goal: the main theorem is, by canonical text, the induction theorem the kernel
  builds itself from the statement (:func:`sum_theorem`), with fresh names the kernel chooses so
  that none collides with a name of the claim.

A renaming, a dropped side condition or an extra assumption in the proof fails the comparison:
a bug in the proposer can make a claim unproved, never proved.

>>> import sympy
>>> a = sympy.Symbol("a", real=True)
>>> st = ClaimStatement(assumptions=(Fact(a, ">=", 0),), goals=(Goal(a + 1, ">", 0),))
>>> print(statement_display(st))
for all real a with a >= 0: a + 1 > 0
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from verify.kernel.claim_display import statement_display
from verify.kernel.claim_names import fresh_name as _fresh
from verify.kernel.claim_names import statement_names as _names
from verify.kernel.derivations import check_theorem
from verify.kernel.inputs import snapshot
from verify.kernel.statements import content_text, expression_text, statement_text
from verify.kernel.terms import (
    Chain, CheckedTheorem, Derivation, DerivationError, Fact, Family, Hyp, Induction, Rewrite,
    Theorem, _sympy,
)

__all__ = ["Atom", "Domain", "Goal", "SumGoal", "ClaimStatement", "ClaimProof", "CheckedClaim",
           "atom_definitions", "sum_theorem", "check_claim", "check_vacuous", "statement_display",
           "cleared_equality"]

_GOAL_RELATIONS = ("<", "<=", "=", ">=", ">", "!=")


@dataclass(frozen=True)
class Atom:
    """``symbol`` stands for ``sqrt(argument)`` (kind ``"sqrt"``) or ``|argument|`` (kind
    ``"abs"``); ``shown`` is how the reader wrote it, for messages only (the statement is printed
    from ``kind`` and ``argument``, never from ``shown``).  An atom under a ``Sum`` whose argument uses
    the sum's index is an indexed symbol ``A[k]`` (one value per index)."""

    symbol: Any
    kind: str
    argument: Any
    shown: str


@dataclass(frozen=True)
class Domain:
    """A domain condition: ``expr >= 0`` (kind ``"nonneg"``, a square root's argument) or
    ``expr != 0`` (kind ``"nonzero"``, a denominator); ``assumed`` when it comes from an
    assumption (the claim speaks only of points where its assumptions are defined)."""

    expr: Any
    kind: str
    assumed: bool = False


@dataclass(frozen=True)
class Goal:
    """``lhs op rhs`` with op one of ``< <= = >= > !=``."""

    lhs: Any
    op: str
    rhs: Any


@dataclass(frozen=True)
class SumGoal:
    """``Sum(summand, (index, low, upper)) rel closed`` for every integer ``upper >= low - 1``;
    ``atoms`` are the atoms under the sum (indexed by ``index``)."""

    index: Any
    low: int
    upper: Any
    summand: Any
    rel: str
    closed: Any
    atoms: tuple[Atom, ...] = ()


@dataclass(frozen=True)
class ClaimStatement:
    """What a claim says, in kernel terms (see the module docstring)."""

    vectors: tuple[str, ...] = ()
    integers: tuple = ()
    assumptions: tuple[Fact, ...] = ()
    nonzero: tuple = ()
    atoms: tuple[Atom, ...] = ()
    domains: tuple[Domain, ...] = ()
    goals: tuple[Goal, ...] = ()
    sum: SumGoal | None = None
    powers: tuple = ()  # the symbolic powers x**(n + c) (verify.kernel.powers.Power)


@dataclass(frozen=True)
class ClaimProof:
    """A proposed proof: domain theorems (in order) and the main theorem."""

    domains: tuple[Theorem, ...]
    main: Theorem


@dataclass(frozen=True)
class CheckedClaim:
    """What :func:`check_claim` established: the statement proved, shown to the reader."""

    statement: ClaimStatement
    shown: str
    theorems: tuple[CheckedTheorem, ...]


def _name(atom: Atom) -> str:
    sp = _sympy()
    symbol = atom.symbol
    label = symbol.base.label if isinstance(symbol, sp.Indexed) else symbol
    return str(label).lstrip("_")


def atom_definitions(atom: Atom) -> tuple[Hyp, ...]:
    """The full definition of an atom, as hypotheses: for ``s = sqrt(e)``: s >= 0 and
    s**2 = e; for ``a = |e|``: a >= 0, a**2 = e**2, a >= e and a >= -e (the last two follow from
    the first two by the case split e >= 0 or e < 0, stated so that proofs need not split).

    >>> import sympy
    >>> s, x = sympy.symbols("_sqrt1 x", real=True)
    >>> [content_text(h.content) for h in atom_definitions(Atom(s, "sqrt", x, "sqrt(x)"))]
    ['_sqrt1 >= 0', '_sqrt1**2 = x (rewriting rule)']
    """
    sp = _sympy()
    s, e, name = atom.symbol, sp.S(atom.argument), _name(atom)
    if atom.kind == "sqrt":
        return (Hyp(f"{name}>=0", Fact(s, ">=", 0), f"{name} >= 0"),
                Hyp(f"{name}^2", Rewrite(s, 2, e), f"{name}**2 = {e}"))
    if atom.kind == "abs":
        square = sp.expand(e ** 2)
        return (Hyp(f"{name}>=0", Fact(s, ">=", 0), f"{name} >= 0"),
                Hyp(f"{name}^2", Rewrite(s, 2, square), f"{name}**2 = {square}"),
                Hyp(f"{name}>=arg", Fact(s, ">=", e), "|e| >= e"),
                Hyp(f"{name}>=-arg", Fact(s, ">=", -e), "|e| >= -e"))
    raise DerivationError(f"unknown atom kind {atom.kind!r}")


def _domain_facts(d: Domain) -> tuple[Fact, ...]:
    """The facts that discharge a domain condition."""
    if d.kind == "nonneg":
        return (Fact(d.expr, ">=", 0),)
    if d.kind == "nonzero":
        return (Fact(d.expr, ">", 0), Fact(d.expr, "<", 0))
    raise DerivationError(f"unknown domain kind {d.kind!r}")


def _constant_sign(e: Any) -> Any:
    """The value of ``e`` when it is a rational constant, else None."""
    value = _sympy().expand(e)
    return value if value.is_Rational else None


def _assumed_domains(statement: ClaimStatement) -> set[str]:
    """The texts ``e >= 0`` of the assumed domain conditions, each checked to be the argument of
    a square root that the assumptions use (directly or inside another atom): writing
    ``sqrt(e)`` in an assumption assumes ``e >= 0``, and nothing else is assumed unseen."""
    sp = _sympy()
    used: list = []
    pending = [x for f in statement.assumptions for x in (f.lhs, f.rhs)]
    while pending:
        e = sp.S(pending.pop())
        for a in statement.atoms:
            if all(a is not u for u in used) and e.has(a.symbol):
                used.append(a)
                pending.append(a.argument)
    roots = {content_text(Fact(a.argument, ">=", 0)) for a in used if a.kind == "sqrt"}
    for d in statement.domains:
        text = content_text(Fact(d.expr, ">=", 0))
        if d.assumed and (d.kind != "nonneg" or text not in roots):
            raise DerivationError(f"the assumed domain condition {text} is not the argument of "
                                  f"a square root in the assumptions")
    return roots


class _Context:
    """The hypotheses a claim's proof may use so far (canonical texts)."""

    def __init__(self, statement: ClaimStatement) -> None:
        self.statement = statement
        self.allowed: set[str] = {content_text(a) for a in statement.assumptions}
        self.allowed |= _assumed_domains(statement)
        self.unlock()

    def nonneg_known(self, e: Any) -> bool:
        constant = _constant_sign(e)
        return (constant is not None and constant >= 0) or \
            content_text(Fact(e, ">=", 0)) in self.allowed

    def unlock(self) -> None:
        """Add the definition of every atom whose argument is now known to be in its domain."""
        for atom in self.statement.atoms:
            if atom.kind == "abs" or self.nonneg_known(atom.argument):
                self.allowed |= {content_text(h.content) for h in atom_definitions(atom)}

    def discharged(self, d: Domain) -> bool:
        if d.kind == "nonneg":
            return self.nonneg_known(d.expr)
        constant = _constant_sign(d.expr)
        if constant is not None:
            return constant != 0
        sp = _sympy()
        if any(sp.expand(d.expr - e) == 0 or sp.expand(d.expr + e) == 0
               for e in self.statement.nonzero):
            return True
        return any(content_text(f) in self.allowed for f in _domain_facts(d))

    def within(self, theorem: Theorem, what: str) -> CheckedTheorem:
        """Check ``theorem`` and that it rests only on allowed hypotheses (read from the
        kernel's checked copy: the proposer's object may be no Theorem at all)."""
        checked = check_theorem(theorem)
        theorem = checked.theorem
        if theorem.naturals or theorem.family is not None:
            raise DerivationError(f"{what}: a claim's theorem has no naturals or per-step "
                                  f"hypotheses (only a Sum goal is proved by induction)")
        if set(theorem.vectors) != set(self.statement.vectors):
            raise DerivationError(f"{what}: declares the vectors {sorted(theorem.vectors)}, "
                                  f"the claim {sorted(self.statement.vectors)}")
        for hyp in checked.theorem.hyps:
            if content_text(hyp.content) not in self.allowed:
                raise DerivationError(f"{what}: hypothesis {hyp.name} "
                                      f"({content_text(hyp.content)}) is not part of the claim")
        return checked


def check_claim(statement: ClaimStatement, proof: ClaimProof) -> CheckedClaim:
    """Accept ``proof`` as a proof of exactly ``statement`` (see the module docstring), or
    raise :class:`DerivationError` saying what does not match.  A check that runs out of
    Python's stack is a refusal (the statement's own expressions are printed and compared, not
    walked: one nested thousands deep ended the check with ``RecursionError``)."""
    try:
        return _check_claim(statement, proof)
    except RecursionError:
        raise DerivationError("the claim nests too deeply to be checked") from None


def _check_claim(statement: ClaimStatement, proof: ClaimProof) -> CheckedClaim:
    if type(statement) is not ClaimStatement or type(proof) is not ClaimProof:
        raise DerivationError("check_claim takes a ClaimStatement and a ClaimProof")
    if statement.powers:  # symbolic exponents: the kernel's own induction theorem
        from verify.kernel.powers import power_theorem

        return _check_induction(statement, proof, power_theorem(statement))
    if statement.sum is not None:
        return _check_induction(statement, proof, sum_theorem(statement))
    if not statement.goals:
        raise DerivationError("a claim states at least one goal")
    ctx = _Context(statement)
    pending = [d for d in statement.domains if not d.assumed]
    checked = []
    for i, theorem in enumerate(proof.domains, 1):
        done = ctx.within(theorem, f"domain theorem {i}")
        if len(done.theorem.conclusions) != 1:
            raise DerivationError(f"domain theorem {i} has one conclusion")
        text = content_text(done.theorem.conclusions[0])
        if not any(text == content_text(f) for d in pending for f in _domain_facts(d)):
            raise DerivationError(f"domain theorem {i} concludes {text}, which is no domain "
                                  f"condition of the claim")
        ctx.allowed.add(text)
        ctx.unlock()
        checked.append(done)
    for d in statement.domains:
        if not ctx.discharged(d):
            raise DerivationError(f"the domain condition {expression_text(_sympy().S(d.expr))} "
                                  f"{'>= 0' if d.kind == 'nonneg' else '!= 0'} is not proved")
    main = ctx.within(proof.main, "the claim's theorem")
    conclusions = main.theorem.conclusions
    if len(conclusions) != len(statement.goals):
        raise DerivationError(f"the theorem has {len(conclusions)} conclusions, the claim "
                              f"{len(statement.goals)} goals")
    for k, (fact, goal) in enumerate(zip(conclusions, statement.goals), 1):
        wanted = [Fact(goal.lhs, r, goal.rhs) for r in ((">", "<") if goal.op == "!=" else
                                                          (goal.op,))]
        cleared = cleared_equality(statement, goal)
        wanted += [cleared] if cleared is not None else []
        if content_text(fact) not in {content_text(w) for w in wanted}:
            raise DerivationError(f"conclusion {k} is {content_text(fact)}, the claim says "
                                  f"{content_text(wanted[0])}")
    return CheckedClaim(statement, statement_display(statement), tuple(checked) + (main,))


def cleared_equality(statement: ClaimStatement, goal: Goal) -> Fact | None:
    """``N = 0`` for the equality goal ``lhs = rhs`` with ``lhs - rhs = N/D`` (sympy's
    ``together``), when D has a variable and every factor of D other than a number is, up to
    sign, an expression the statement assumes != 0 (or a power of one); else None.  At a point
    where the assumptions and the domain conditions hold, both sides are defined, D != 0 and
    lhs - rhs = N/D, so N = 0 says lhs = rhs there (the field rule: cancel a nonzero factor).

    >>> import sympy
    >>> r = sympy.Symbol("r", real=True)
    >>> goal = Goal(1 + r, "=", (1 - r**2)/(1 - r))
    >>> content_text(cleared_equality(ClaimStatement(nonzero=(r - 1,), goals=(goal,)), goal))
    '(-r + 1)*r - r + r**2 = 0'
    >>> cleared_equality(ClaimStatement(goals=(goal,)), goal) is None
    True
    """
    sp = _sympy()
    if goal.op != "=":
        return None
    numerator, denominator = sp.fraction(sp.together(sp.S(goal.lhs) - sp.S(goal.rhs)))
    nonzero = [sp.expand(e) for e in statement.nonzero]
    if not denominator.free_symbols:  # the same rational function where both are defined:
        # every denominator written in a side, nested ones too (together() would cancel them),
        # must be a nonzero domain condition (checked by the caller) or assumed != 0, so that
        # "where both are defined" is part of the claim
        sides = [p.base.doit() for x in (goal.lhs, goal.rhs) for p in sp.S(x).atoms(sp.Pow)
                 if p.exp.is_negative]
        domains = nonzero + [sp.expand(d.expr) for d in statement.domains if d.kind == "nonzero"]
        return Fact(numerator, "=", 0) if numerator == 0 and any(
            d.free_symbols for d in sides) and all(
            _factors_among(d, domains) for d in sides) else None
    return Fact(numerator, "=", 0) if _factors_among(denominator, nonzero) else None


def _factors_among(denominator: Any, expressions: list) -> bool:
    """Every factor of ``denominator`` but a nonzero number is, up to sign and to a positive
    integer power, one of ``expressions``."""
    sp = _sympy()
    for factor in sp.Mul.make_args(denominator):
        base, exponent = factor.as_base_exp()
        if factor.is_Rational and factor != 0:
            continue
        if not (exponent.is_Integer and exponent > 0 and any(
                sp.expand(base - e) == 0 or sp.expand(base + e) == 0 for e in expressions)):
            return False
    return True


def check_vacuous(statement: ClaimStatement, theorem: Theorem) -> CheckedTheorem:
    """Accept ``theorem`` as the proof that the statement's assumptions (with their assumed
    domains and the definitions of their atoms) are contradictory: it rests only on them and
    one of its checked lines is ``0 < 0``."""
    if type(statement) is not ClaimStatement:
        raise DerivationError("check_vacuous takes a ClaimStatement")
    checked = _Context(statement).within(theorem, "the contradiction")
    sp = _sympy()
    for line in checked.theorem.proof.lines if isinstance(checked.theorem.proof, Derivation) \
            else ():
        if isinstance(line, Chain) and sp.S(line.start) == 0 and len(line.links) == 1 and \
                line.links[0].rel == "<" and sp.S(line.links[0].expr) == 0:
            return checked
    raise DerivationError("the contradiction has no checked line 0 < 0")


# -- symbolic sums -------------------------------------------------------------------------------
def sum_theorem(statement: ClaimStatement) -> Theorem:
    """The induction theorem that proves the statement's ``Sum`` goal, built by the kernel with
    fresh names T, t, S (none used by the claim), its proof left empty for the proposer:

    for every natural T and sequence S with S[0] = 0 and S[t+1] = S[t] + f(low + t) (t < T):
    S[T] rel G(T + low - 1).  The sum up to n is such a sequence and n = T + low - 1 is such an
    instance, because the statement assumes ``n integer`` and ``n >= c`` with c >= low - 1.
    """
    sp = _sympy()
    sg = statement.sum
    if sg is None or statement.goals or sg.rel not in ("=", "<=", ">="):
        raise DerivationError("a Sum goal is one comparison =, <= or >= with nothing else")
    k, n = sg.index, sg.upper
    if type(k) is not sp.Symbol or type(n) is not sp.Symbol or k == n:
        raise DerivationError("a sum's index and upper bound are two distinct symbols")
    if n not in statement.integers or not any(_lower_bound(f, n, sg.low) for f in
                                              statement.assumptions):
        raise DerivationError(f"induction on {n} needs the assumptions '{n} integer' and "
                              f"'{n} >= {sg.low - 1}' (or a larger lower bound)")
    if statement.domains or any(a.kind != "abs" for a in statement.atoms + sg.atoms):
        raise DerivationError("a claim with a symbolic sum has no square roots and no "
                              "variable denominators")
    sp_closed, summand = sp.S(sg.closed), sp.S(sg.summand)
    for atom in statement.atoms:
        if n in sp.S(atom.argument).free_symbols and atom.symbol in sp_closed.free_symbols:
            raise DerivationError(f"the closed form's atom {atom.shown} uses {n}")
        if k in sp.S(atom.argument).free_symbols and atom.symbol in summand.free_symbols:
            raise DerivationError(f"the atom {atom.shown} of the summand is not indexed by {k}")
    used = _names(statement)
    T = sp.Symbol(_fresh("T", used), real=True)
    t = sp.Symbol(_fresh("t", used), real=True)
    S = sp.IndexedBase(_fresh("S", used))
    at = {k: sg.low + t}
    hyps = [Hyp(f"h{i}", f) for i, f in enumerate(statement.assumptions, 1)
            if n not in sp.S(f.lhs).free_symbols | sp.S(f.rhs).free_symbols]
    hyps += [h for a in statement.atoms if n not in sp.S(a.argument).free_symbols
             for h in atom_definitions(a)]
    hyps.append(Hyp("empty", Fact(S[0], "=", 0), "the empty sum is 0"))
    family = [Hyp("recurrence", Fact(S[t + 1], "=", S[t] + summand.xreplace(at)))]
    family += [Hyp(h.name, _at(h.content, at), h.note) for a in sg.atoms
               for h in atom_definitions(a)]
    return Theorem(name="sum", title="sum", vectors=(), naturals=(T,), hyps=tuple(hyps),
                   conclusions=(Fact(S[T], sg.rel, sp_closed.xreplace({n: T + sg.low - 1})),),
                   proof=Induction(T, t, Derivation(()), Derivation(())),
                   family=Family(t, T, tuple(family)))


def _at(content: Any, sigma: dict) -> Any:
    sp = _sympy()
    if isinstance(content, Fact):
        return Fact(sp.S(content.lhs).xreplace(sigma), content.rel,
                    sp.S(content.rhs).xreplace(sigma))
    return Rewrite(sp.S(content.target).xreplace(sigma), content.power,
                   sp.S(content.rhs).xreplace(sigma))


def _lower_bound(f: Fact, n: Any, low: int) -> bool:
    """True when ``f`` reads ``n >= c`` or ``n > c`` (or ``c <= n``, ``c < n``), c >= low - 1."""
    sp = _sympy()
    lhs, rhs = sp.S(f.lhs), sp.S(f.rhs)
    if f.rel in ("<=", "<"):
        lhs, rhs = rhs, lhs
    elif f.rel not in (">=", ">"):
        return False
    return lhs == n and rhs.is_Rational and rhs >= low - 1


def _check_induction(statement: ClaimStatement, proof: ClaimProof,
                     expected: Theorem) -> CheckedClaim:
    main = proof.main
    if proof.domains:
        raise DerivationError("a claim proved by induction has no domain theorems")
    if type(main) is not Theorem:
        raise DerivationError("the claim's proof is a kernel Theorem")

    def stated(theorem: Theorem) -> str:
        """Its statement without the invariants: conclusions after the goals, which the
        induction proves with them (a stronger hypothesis) and the claim then drops."""
        return statement_text(replace(theorem, conclusions=theorem.conclusions[:goals]))

    goals = len(expected.conclusions)
    copy = snapshot(main)       # (walked and copied: only then may its statement be printed)
    if stated(copy) != statement_text(expected):
        raise DerivationError("the induction theorem does not state the claim:\n"
                              f"{stated(copy)}\nexpected:\n{statement_text(expected)}")
    if not (isinstance(copy.proof, Induction) and copy.proof.variable == expected.proof.variable
            and copy.proof.index == expected.proof.index):
        raise DerivationError("the claim is proved by induction on the kernel's T and t")
    # (the copy is checked: the proposer's object is read once, so what was compared above is
    # what the kernel checks)
    return CheckedClaim(statement, statement_display(statement), (check_theorem(copy),))
