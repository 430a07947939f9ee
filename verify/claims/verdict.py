"""The verdict of a claim: proved, refuted, vacuous, unproved or invalid.

Role: the last step of parse -> elaborate -> propose -> kernel -> verdict.  A verdict is

- ``proved``: only when :func:`verify.kernel.check_claim` accepted a proof of the claim's
  elaborated statement (:mod:`verify.claims.elaborate`); the verdict shows that statement as the
  reader writes it, with every domain condition the claim needs and how it holds;
- ``refuted``: an exact rational point that satisfies every assumption and violates the claim,
  or at which the claim is undefined (:mod:`verify.claims.refute`), or, for a claim without
  variables, the kernel's proof of its negation;
- ``vacuous``: the kernel derived ``0 < 0`` from the assumptions (and their domains): they are
  contradictory, so the claim says nothing (checked before any proof, sums included);
- ``unproved``: none of these, with what was tried (a crash of an untrusted proposer included);
- ``invalid``: the parser refused the block (located: ``line N of the block``).

>>> verdict = decide_claim(parse_claim("assume: a >= 0, b >= 0\\n(a + b)**2 >= a**2 + b**2"))
>>> verdict.status, verdict.certificate
('proved', '(a + b)**2 - (a**2 + b**2) = 2*(a)*(b)')
>>> verdict.statement
'for all real a, b with a >= 0, b >= 0: (a + b)**2 >= a**2 + b**2'
>>> verdict = decide_claim(parse_claim("(a + b)**2 >= a**2 + b**2"))
>>> verdict.status, verdict.counterexample
('refuted', {'a': Fraction(1, 1), 'b': Fraction(-1, 1)})
>>> decide_claim(parse_claim("assume: x > 0\\nx/x == 1")).domain
('x != 0: x > 0 proved from the assumptions',)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from verify.claims.parser import Claim, ClaimSyntaxError, Relation, parse_claim
from verify.claims.refute import refute

__all__ = ["STATUSES", "Verdict", "decide_claim", "check_claim_text", "claim_text"]

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
    statement: str = ""  #: for ``proved``: the statement the kernel checked, as the reader writes it

    def _repr_html_(self) -> str:
        """The badge, the statement and the certificate in Jupyter (:mod:`verify.present.notebook`)."""
        from verify.present.notebook import verdict_html

        return verdict_html(self)

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

    def headline(self) -> str:
        """One line: the verdict and the statement (the counterexample with the value of each
        side, for ``refuted``); the certificate is in :meth:`explain` (``pla claims -v``).

        >>> decide_claim(parse_claim("assume: x >= 0\\nsqrt(x) <= x")).headline()
        'refuted: sqrt(x) <= x, at x = 1/4: sqrt(x) = 1/2 > x = 1/4'
        """
        if self.status == "proved":
            return f"proved: {self.statement or claim_text(self.claim)}"
        if self.status == "refuted":
            if self.counterexample:
                return f"refuted: {'; '.join(g.text for g in self.claim.goals)}, " \
                       f"at {self.reason}"
            return f"refuted: {self.reason}"
        if self.status == "invalid":
            return f"invalid: {self.reason}"
        if self.status == "vacuous":
            return f"vacuous: {claim_text(self.claim)} (the assumptions contradict each other)"
        return f"unproved: {claim_text(self.claim)}"

    def hint(self) -> str:
        """At most one short line: what to assume, or which fact is missing ('' if none).

        >>> decide_claim(parse_claim("assume: x > 0\\nx/x == 1")).hint()
        ''
        """
        if self.status != "unproved":
            return ""
        reason = self.reason
        at = reason.find(": assume ")
        if at >= 0:
            return _first_clause(reason[at + 2:])
        if "does not follow from the assumptions" in reason and "(of sqrt(" in reason:
            condition = reason.split("the domain condition ", 1)[-1].split(" (of sqrt(", 1)[0]
            return f"assume {condition}"
        if reason.startswith("no certificate found"):
            if _mentions(self.claim, ("sqrt", "abs")):
                return ("tried squaring both sides and case splits on the signs of Abs "
                        "arguments: split the claim, or state a bound on the root as a lemma")
            return ("no certificate from products of at most two assumptions and squares: "
                    "is an assumption missing?")
        return _first_clause(reason)

    def explain(self) -> str:
        """A one-paragraph, human-readable account of the verdict."""
        domain = f"; domain: {'; '.join(self.domain)}" if self.domain else ""
        if self.status == "proved":
            stated = f"{self.statement}, since " if self.statement else ""
            return f"proved: {stated}{self.certificate}{domain}"
        if self.status == "refuted":
            proof = f"; the kernel's proof: {self.certificate}" if self.certificate else ""
            return f"{self.headline()}{proof}"
        return f"{self.status}: {self.reason}{domain}"



def claim_text(claim: Claim | None) -> str:
    """The claim as the reader wrote it, on one line: ``assume a >= 0: goal``.

    >>> claim_text(parse_claim("assume: a >= 0\\nsqrt(a) >= 0"))
    'assume a >= 0: sqrt(a) >= 0'
    """
    if claim is None:
        return ""
    goals = " and ".join(g.text for g in claim.goals)
    shown = [r.text for r in claim.assumptions]
    vectors = f"vectors {', '.join(claim.vectors)}; " if claim.vectors else ""
    return f"{vectors}assume {', '.join(shown)}: {goals}" if shown else f"{vectors}{goals}"


_HINT_LENGTH = 160


def _mentions(claim: Claim | None, kinds: tuple[str, ...]) -> bool:
    """True when an expression of the claim contains a node of one of the kinds."""
    def walk(e: Any) -> bool:
        return isinstance(e, tuple) and bool(e) and (
            e[0] in kinds or any(walk(part) for part in e[1:]))
    return claim is not None and any(walk(r.lhs) or walk(r.rhs)
                                     for r in claim.assumptions + claim.goals)


def _first_clause(text: str) -> str:
    """The first sentence of a reason, at most _HINT_LENGTH characters."""
    for stop in ("; ", ". "):
        if stop in text:
            text = text.split(stop, 1)[0]
    return text if len(text) <= _HINT_LENGTH else text[:_HINT_LENGTH - 1].rstrip() + "…"


def _prove(claim: Claim, vacuity: bool = True) -> tuple[str, str, tuple[str, ...]]:
    """(status, certificate text or reason, domain conditions) for a claim with no
    counterexample found; ``vacuity=False`` skips the contradiction search (used when an
    exact point satisfying every assumption is known).  ``proved`` only through
    :func:`verify.kernel.check_claim`; the text then begins with the statement proved."""
    status, text, domain, _ = _propose(claim, vacuity)
    return status, text, domain


def _propose(claim: Claim, vacuity: bool) -> tuple[str, str, tuple[str, ...], str]:
    """_prove's answer and, when proved, the kernel's display of the statement it checked."""
    from verify import kernel
    from verify.claims.elaborate import ElaborationRefused
    from verify.claims.induction import prove_power, prove_sum
    from verify.claims.propose import _Prover, _Unproved
    from verify.claims.propose_norms import cauchy_schwarz_lines
    from verify.claims.propose_roots import goal_lines
    from verify.search.claim_certificates import SearchLimitReached

    try:
        prover = _Prover(claim)
    except ElaborationRefused as exc:
        return "unproved", str(exc), (), ""
    try:
        prover.assumptions()
        if vacuity and prover.vacuous():
            return ("vacuous", "the assumptions (with their domains) are contradictory: the "
                               "kernel derived 0 < 0 from them", tuple(prover.domain), "")
        if prover.statement.sum is not None or prover.statement.powers:
            try:
                checked, text = (prove_power if prover.statement.powers else prove_sum)(prover)
            except kernel.KernelError as exc:
                return "unproved", f"the kernel rejected the induction: {exc}", (), ""
            return "proved", text, (), checked.shown
        prover.goal_domains()
        conclusions, lines, texts = [], [], []
        cauchy_schwarz, text = cauchy_schwarz_lines(prover)  # () unless a goal needs it
        if cauchy_schwarz:
            lines.extend(cauchy_schwarz)
            texts.append(text)
        for j, goal in enumerate(claim.goals, 1):
            conclusion, goal_lines_, text = goal_lines(prover, j, goal)
            conclusions.append(conclusion)
            lines.extend(goal_lines_)
            texts.append(text)
        theorem = kernel.Theorem(name="claim", title="claim", vectors=claim.vectors, naturals=(),
                                 hyps=tuple(prover.known), conclusions=tuple(conclusions),
                                 proof=kernel.Derivation(tuple(lines)))
        checked = kernel.check_claim(prover.statement,
                                     kernel.ClaimProof(tuple(prover.domain_theorems), theorem))
    except _Unproved as exc:
        return "unproved", str(exc), tuple(prover.domain), ""
    except SearchLimitReached as exc:
        return "unproved", f"search limit reached: {exc}", tuple(prover.domain), ""
    except kernel.KernelError as exc:
        return ("unproved", f"the kernel rejected the proposed proof: {exc}",
                tuple(prover.domain), "")
    except Exception as exc:  # noqa: BLE001 - an untrusted proposer's crash proves nothing
        return ("unproved", f"the proof search failed ({type(exc).__name__}: {exc})",
                tuple(prover.domain), "")
    return "proved", "; ".join(texts), tuple(prover.domain), checked.shown


_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def _negation_proved(claim: Claim) -> tuple[str, str] | None:
    """For a claim without variables: the kernel's proof that one of its relations is false."""
    from verify.claims.propose import _sides

    for goal in claim.goals:
        left, right = _sides(goal)
        op = _NEGATED[goal.op]
        negated = Relation(goal.lhs, op, goal.rhs, f"{left} {op} {right}")
        status, text, _, shown = _propose(replace(claim, goals=(negated,)), vacuity=False)
        if status == "proved":
            return f"{goal.text} is false: the kernel proved {shown}", text
    return None


#: Points of the quick counterexample search before the kernel is asked.  The search only
#: proposes (a counterexample is checked exactly; the kernel decides a proof) and runs again
#: with ``extra_points`` after a failed proof, so this only moves work: on the site's 134
#: claims 500 points and 4,500 (the number before session 39) give the same verdicts,
#: counterexamples, reasons and certificates, in less CPU time (``benchmarks/claim_search.py``
#: times both; 0 points cost more again, since every claim then needs the kernel's vacuity
#: check).
QUICK_POINTS = 500


def decide_claim(claim: Claim, points: int = QUICK_POINTS, extra_points: int = 20000,
                 seed: int = 0) -> Verdict:
    """Decide a parsed claim: quick exact search for a counterexample (``points``), then the
    kernel (vacuity, domain conditions, the claim), then a wider counterexample search."""
    found, satisfiable = refute(claim, points, seed)
    if found is None:
        status, text, domain, shown = _propose(claim, vacuity=not satisfiable)
        if status in ("proved", "vacuous"):
            return Verdict(status, claim, certificate=text if status == "proved" else None,
                           reason="" if status == "proved" else text, domain=domain,
                           statement=shown)
        if not claim.symbols:  # constants (e.g. with irrational roots): prove the negation
            negation = _negation_proved(claim)
            if negation is not None:
                return Verdict("refuted", claim, counterexample={}, reason=negation[0],
                               certificate=negation[1])
        found, _ = refute(claim, extra_points, seed + 1, start=points)
        if found is None:
            return Verdict("unproved", claim, reason=text, domain=domain)
    point, goal, why = found
    return Verdict("refuted", claim, counterexample=point, reason=why)


def check_claim_text(body: str, **options: Any) -> Verdict:
    """Parse and decide the body of one claim block; a syntax error gives ``invalid``; more
    than MAX_ASSUMPTIONS assumptions give ``unproved: search limit reached`` at once
    (:func:`search_limit_verdict`)."""
    limited = search_limit_verdict(body)
    if limited is not None:
        return limited
    try:
        claim = parse_claim(body)
    except ClaimSyntaxError as exc:
        return Verdict("invalid", None, reason=f"{exc.message} (line {exc.line} of the block)")
    return decide_claim(claim, **options)


def search_limit_verdict(body: str) -> Verdict | None:
    """``unproved: search limit reached`` for a block of more than MAX_ASSUMPTIONS assumptions,
    counted on the text: nothing is parsed or built for them (None for a block within it).

    >>> search_limit_verdict("assume: " + ", ".join(["x >= 0"] * 1001) + "\\nx >= 0").reason
    'search limit reached: 1001 assumptions (at most 1000, counted before anything is built)'
    """
    from verify.claims.assumption_count import MAX_ASSUMPTIONS, assumption_count, without_assumptions

    count = assumption_count(body)
    if count <= MAX_ASSUMPTIONS:
        return None
    try:
        claim = parse_claim(without_assumptions(body))
    except ClaimSyntaxError as exc:
        return Verdict("invalid", None, reason=f"{exc.message} (line {exc.line} of the block)")
    return Verdict("unproved", claim, reason=f"search limit reached: {count} assumptions "
                   f"(at most {MAX_ASSUMPTIONS}, counted before anything is built)")


