"""Trusted: the parsed claim elaborated once into the kernel's own statement.

Role: the one trusted step between a claim's text and the kernel.  The parser's tree
(:mod:`verify.claims.parser`) becomes a :class:`verify.kernel.ClaimStatement`: assumptions,
integers, vectors, goals (or one symbolic ``Sum`` goal), the domain conditions the claim needs
(each ``sqrt(e)`` needs ``e >= 0``, each division by ``d`` and each negative power of ``d`` needs
``d != 0``; those of an assumption are assumed, those of a goal must be proved), and one atom per
distinct ``sqrt(e)`` / ``Abs(e)`` *in its binding scope*: an atom under a ``Sum`` whose argument
uses the sum's index is an indexed symbol (one value per index), never shared with the same text
outside the sum.  The kernel writes each atom's full definition itself
(:func:`verify.kernel.atom_definitions`) and compares every proof against this statement; the
proposers (:mod:`verify.claims.propose`, :mod:`verify.claims.induction`) only read it.

Fresh names: atoms are ``_sqrtN`` / ``_absN`` (a claim's names never start with ``_``); the
names of an induction are chosen by the kernel.

>>> from verify.claims.parser import parse_claim
>>> statement, _ = elaborate(parse_claim("assume: x >= 1\\nsqrt(x - 1)**2 + 1 == x"))
>>> [d.kind for d in statement.domains], [a.shown for a in statement.atoms]
(['nonneg'], ['sqrt(x - 1)'])
"""

from __future__ import annotations

from typing import Any

from verify.claims.parser import Claim, constant_value

__all__ = ["ElaborationRefused", "Elaborator", "elaborate", "domain_conditions", "atoms_in"]

_RELATION = {"==": "=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "!=": "!="}


class ElaborationRefused(Exception):
    """The claim has a shape the kernel's statements cannot express (verdict: unproved)."""


def domain_conditions(e: tuple) -> list[tuple[str, tuple]]:
    """The domain conditions of a parsed expression, innermost first, without repeats:
    ``("nonneg", arg)`` for each ``sqrt(arg)``, ``("nonzero", d)`` for each division by ``d``
    and each negative power of ``d``.

    >>> from fractions import Fraction
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


def atoms_in(e: tuple) -> list[tuple]:
    """The sqrt / Abs nodes of a parsed expression outside any Sum (innermost first)."""
    found: list[tuple] = []

    def walk(node: tuple) -> None:
        if node[0] == "sum":
            return
        for child in node[1:]:
            if isinstance(child, tuple):
                walk(child)
        if node[0] in ("sqrt", "abs") and node not in found:
            found.append(node)
    walk(e)
    return found


def names_in(e: tuple) -> set[str]:
    """The free names of a parsed expression (a Sum binds its index)."""
    if e[0] == "sym":
        return {e[1]}
    if e[0] == "sum":
        return (names_in(e[1]) - {e[2]}) | names_in(e[4])
    return set().union(*(names_in(c) for c in e[1:] if isinstance(c, tuple)))


class Elaborator:
    """Parsed expressions to kernel terms, with one atom per distinct sqrt / Abs node in its
    binding scope (``bound``: the index of the enclosing Sum, or None)."""

    def __init__(self) -> None:
        import sympy as sp

        from verify import kernel

        self.sp, self.kernel = sp, kernel
        self.atoms: dict[tuple, Any] = {}      # (node, bound index or None) -> kernel Atom
        self.order: list[Any] = []             # atoms, innermost first
        self.display: dict = {}                # atom symbol -> how a certificate shows it
        self.written: dict = {}                # atom symbol -> as the reader wrote it
        self.powers: dict[tuple, Any] = {}     # powsym node -> kernel Power (x**(n + c))

    def symbol(self, name: str) -> Any:
        return self.sp.Symbol(name, real=True)

    def expr(self, e: tuple, evaluate: bool = True, bound: str | None = None) -> Any:
        sp = self.sp
        kind = e[0]
        if kind == "num":
            return sp.Rational(e[1].numerator, e[1].denominator)
        if kind == "sym":
            return self.symbol(e[1])
        if kind == "neg":
            return sp.Mul(-1, self.expr(e[1], evaluate, bound), evaluate=evaluate)
        if kind in ("sqrt", "abs"):
            return self.atom(e, bound).symbol
        if kind == "sum":
            raise ElaborationRefused("a symbolic sum is alone on one side of the one goal")
        if kind == "dot":
            return self.kernel.dot(self.expr(e[1], bound=bound), self.expr(e[2], bound=bound))
        if kind == "pow":
            return sp.Pow(self.expr(e[1], evaluate, bound), e[2], evaluate=evaluate)
        if kind == "powsym":
            return self.power(e, bound)
        a, b = self.expr(e[1], evaluate, bound), self.expr(e[2], evaluate, bound)
        # a sum of sums is one sum (as written): `1 + r + r**2` shows no parentheses
        terms = [*(a.args if type(a) is sp.Add else (a,))]
        if kind == "add":
            return sp.Add(*terms, *(b.args if type(b) is sp.Add else (b,)), evaluate=evaluate)
        if kind == "sub":
            return sp.Add(*terms, sp.Mul(-1, b, evaluate=evaluate), evaluate=evaluate)
        if kind == "mul":
            return sp.Mul(a, b, evaluate=evaluate)
        return sp.Mul(a, sp.Pow(b, -1, evaluate=evaluate), evaluate=evaluate)

    def atom(self, e: tuple, bound: str | None = None) -> Any:
        """The kernel Atom of a sqrt / Abs node; indexed by ``bound`` when its argument uses
        the bound index (then it depends on the index and is never shared with outside)."""
        scope = bound if bound is not None and bound in names_in(e) else None
        key = (e, scope)
        if key in self.atoms:
            return self.atoms[key]
        sp = self.sp
        kind = e[0]
        argument = self.expr(e[1], bound=bound)
        name = f"_{kind}{len(self.atoms) + 1}"
        symbol = sp.Symbol(name, real=True) if scope is None else \
            sp.IndexedBase(name)[self.symbol(scope)]
        shown, written = self.show(argument), str(sp.S(argument).xreplace(self.written))
        atom = self.kernel.Atom(symbol, kind, argument,
                                f"sqrt({written})" if kind == "sqrt" else f"Abs({written})")
        self.atoms[key] = atom
        self.order.append(atom)
        self.display[symbol] = sp.Symbol(f"\u221a({shown})" if kind == "sqrt" else f"|{shown}|")
        self.written[symbol] = sp.Symbol(atom.shown)
        return atom

    def power(self, e: tuple, bound: str | None) -> Any:
        """The symbol of ``base**(n + c)`` (one kernel Power per distinct node; under a sum,
        ``n`` is the sum's index or its upper bound, which the kernel tells apart)."""
        if e not in self.powers:
            base = self.expr(e[1], bound=bound)
            n, c = e[2][1], e[3]
            exponent = n if c == 0 else f"({n} {'+' if c > 0 else '-'} {abs(c)})"
            text = self.show(base)
            text = text if e[1][0] in ("sym", "num") and not text.startswith("-") else \
                f"({text})"
            symbol = self.sp.Symbol(f"_pow{len(self.powers) + 1}", real=True)
            self.powers[e] = self.kernel.Power(symbol, base, self.symbol(n), c,
                                               f"{text}**{exponent}")
            self.display[symbol] = self.sp.Symbol(f"{text}**{exponent}")
        return self.powers[e].symbol

    def show(self, e: Any) -> str:
        """How a certificate shows a translated expression: atoms as √(..) and |..| (the
        statement itself is shown by :func:`verify.kernel.statement_display`)."""
        return str(self.sp.S(e).xreplace(self.display))


def elaborate(claim: Claim) -> tuple[Any, Elaborator]:
    """The claim's kernel statement and the elaborator that built it (whose translation the
    untrusted proposers reuse); :class:`ElaborationRefused` for a shape it cannot state."""
    tr = Elaborator()
    k = tr.kernel
    integers, assumptions, nonzero, domains = [], [], [], []
    for r in claim.assumptions:
        if any(side[0] == "sum" or _has_sum(side) for side in (r.lhs, r.rhs)):
            raise ElaborationRefused("a symbolic sum in an assumption is not supported")
        if r.op == "integer":
            integers.append(tr.expr(r.lhs))
            continue
        for kind, node in domain_conditions(r.lhs) + domain_conditions(r.rhs):
            if kind == "nonzero" and constant_value(node) is None:
                raise ElaborationRefused(f"assumption {r.text!r} divides by "
                                         f"{tr.show(tr.expr(node))}: write it without a "
                                         f"variable denominator")
            if kind == "nonneg":
                domains.append(k.Domain(tr.expr(node), "nonneg", assumed=True))
        lhs, rhs = tr.expr(r.lhs), tr.expr(r.rhs)
        if r.op == "!=":
            nonzero.append(tr.sp.expand(lhs - rhs))
        else:
            assumptions.append(k.Fact(lhs, _RELATION[r.op], rhs))
    goals, sum_goal = [], None
    if len(claim.goals) > 1 and any(_has_sum(g.lhs) or _has_sum(g.rhs) for g in claim.goals):
        raise ElaborationRefused("a claim with a symbolic sum is one comparison")
    for g in claim.goals:
        if g.op == "integer":
            raise ElaborationRefused(f"the goal {g.text!r}: an 'integer' goal is not supported "
                                     f"(integers are assumed, for induction)")
        if _has_sum(g.lhs) or _has_sum(g.rhs):
            sum_goal = _sum_goal(tr, claim, g)
            continue
        for kind, node in domain_conditions(g.lhs) + domain_conditions(g.rhs):
            domain = k.Domain(tr.expr(node), kind)
            if domain not in domains:
                domains.append(domain)
        goals.append(k.Goal(tr.expr(g.lhs, evaluate=False), _RELATION[g.op],
                            tr.expr(g.rhs, evaluate=False)))
    if sum_goal is not None and goals:
        raise ElaborationRefused("a claim with a symbolic sum is one comparison")
    bound = sum_goal.atoms if sum_goal is not None else ()
    statement = k.ClaimStatement(
        vectors=claim.vectors, integers=tuple(integers), assumptions=tuple(assumptions),
        nonzero=tuple(nonzero), atoms=tuple(a for a in tr.order if a not in bound),
        domains=tuple(domains), goals=tuple(goals), sum=sum_goal,
        powers=tuple(tr.powers.values()))
    return statement, tr


def _has_power(e: tuple) -> bool:
    return e[0] == "powsym" or any(isinstance(c, tuple) and _has_power(c) for c in e[1:])


def _has_sum(e: tuple) -> bool:
    return e[0] == "sum" or any(isinstance(c, tuple) and _has_sum(c) for c in e[1:])


def _sum_goal(tr: Elaborator, claim: Claim, goal: Any) -> Any:
    """``Sum(f, (k, a, n)) REL G`` (or ``G REL Sum(...)``) as a kernel SumGoal."""
    op, total, other = goal.op, goal.lhs, goal.rhs
    if total[0] != "sum":
        op, total, other = {"<=": ">=", ">=": "<=", "==": "=="}.get(op, op), goal.rhs, goal.lhs
    if total[0] != "sum" or _has_sum(other) or _has_sum(total[1]):
        raise ElaborationRefused("write a symbolic sum alone on one side: "
                                 "Sum(f, (k, a, n)) == G(n)")
    if op not in ("==", "<=", ">="):
        raise ElaborationRefused("a symbolic sum is compared with ==, <= or >=")
    _, body, index, low, high = total
    if high[0] != "sym":
        raise ElaborationRefused("a symbolic sum runs up to a name")
    if index in claim.vectors or high[1] in claim.vectors:
        raise ElaborationRefused("a sum's index and upper bound are numbers, not vectors")
    for side in (body, other):  # a closed form with powers may divide by d (the kernel
        powers = _has_power(body) or _has_power(other)  # asks for an assumption d != 0)
        if any(kind == "nonneg" or (constant_value(node) is None and not (powers and side is other))
               for kind, node in domain_conditions(side)):
            raise ElaborationRefused("a symbolic sum and its closed form are polynomials here "
                                     "(no sqrt, no division by a variable)")
    before = len(tr.order)
    summand = tr.expr(body, bound=index)
    inner = tuple(a for a in tr.order[before:] if isinstance(a.symbol, tr.sp.Indexed))
    return tr.kernel.SumGoal(tr.symbol(index), low, tr.symbol(high[1]), summand,
                             _RELATION[op], tr.expr(other), inner)
