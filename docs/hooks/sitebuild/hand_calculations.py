"""Two-point hand calculations for every finding of the audit page (``docs/audit.md``).

Each finding of the audit has a marker ``<!-- hand-calculation: N.M -->``; the docs build
replaces it by a small worked example on **two points**, computed here in exact arithmetic
(integers and Fractions, PLA runs through :func:`pla.run`) from the points below: the numbers a
student can redo by hand, the note's statement *as written* evaluated on them, and the
corrected statement.  Where a finding is about notation only, the calculation says so and
evaluates the two readings on the same two points.  A withdrawn accusation gets the
calculation that shows why it did not stand.

Nothing in the rendered box is typed in: every value is computed from the points, and every
verdict ("true"/"false" on these points) is computed from those values.  A calculation that no
longer shows what the finding says raises :class:`HandCalculationFailed`, which stops the
build (see :func:`expand_hand_markers`, wired by ``docs/hooks/audit.py``).

>>> calc = compute("0.1")
>>> calc.value("updates, mistake iff y w.x < 0"), calc.value("updates, mistake iff y w.x <= 0")
(0, 2)
>>> [verdict for _, _, verdict in calc.statements]
[False, True]
>>> [str(v) for v in compute("0.1", points=scaled(TIGHT, 2)).value("final w, rule <= 0")]
['0', '4']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Sequence

import pla

__all__ = [
    "CALCULATIONS", "DEFAULT_POINTS", "HandCalculation", "HandCalculationFailed", "MARKER",
    "TIGHT", "compute", "expand_hand_markers", "render", "scaled",
]

#: ``<!-- hand-calculation: N.M -->`` on the audit page is replaced by calculation N.M.
MARKER = re.compile(r"<!--\s*hand-calculation:\s*(?P<finding>\d+\.\d+)\s*-->")

Vector = tuple[Fraction, ...]
#: Two labelled points: ((x₁, y₁), (x₂, y₂)), each x the full vector the note's formulas use
#: (with x₀ = 1 first where the note has a bias).
Points = tuple[tuple[Vector, int], tuple[Vector, int]]


class HandCalculationFailed(RuntimeError):
    """A hand calculation no longer shows what its finding says, or a marker names none."""


@dataclass(frozen=True)
class HandCalculation:
    """One finding's two-point calculation.

    ``kind``: ``wrong`` (the statement as written is false on the points, the corrected one
    true), ``readings`` (two readings of the same text disagree on the same points) or
    ``withdrawn`` (the statement holds on the points; an earlier accusation did not stand).
    ``facts``: (label, exact value) pairs computed from ``points``; ``statements``: (role,
    Markdown text, verdict on these points), the verdicts computed from the facts (``None``:
    read literally, the text is not a statement at all).  For ``readings`` the intended reading
    comes last and must be true, and an earlier one false or meaningless.
    """

    finding: str
    kind: str
    notation_only: bool
    points: Points
    facts: tuple[tuple[str, Any], ...]
    statements: tuple[tuple[str, str, bool | None], ...]

    def value(self, label: str) -> Any:
        """The exact value recorded under ``label``.

        >>> compute("4.8").value("w_f.w_2")
        Fraction(2, 1)
        """
        for key, value in self.facts:
            if key == label:
                return value
        raise KeyError(f"hand calculation {self.finding} has no fact {label!r}")

    @property
    def holds(self) -> bool:
        """Whether the verdicts show what the finding says (see ``kind``).

        >>> compute("2.8").holds
        True
        """
        verdicts = [verdict for _, _, verdict in self.statements]
        if self.kind == "wrong":
            return len(verdicts) >= 2 and verdicts[0] is False and verdicts[-1] is True
        if self.kind == "readings":
            return verdicts[-1:] == [True] and any(v is not True for v in verdicts[:-1])
        if self.kind == "withdrawn":
            return bool(verdicts) and verdicts[0] is True
        return False


# ----------------------------------------------------------------------------- exact helpers
def _vec(*values: Any) -> Vector:
    return tuple(Fraction(v) for v in values)


def _dot(a: Sequence[Any], b: Sequence[Any]) -> Fraction:
    return sum((Fraction(u) * Fraction(v) for u, v in zip(a, b)), Fraction(0))


def _norm2(a: Sequence[Any]) -> Fraction:
    return _dot(a, a)


def _add(a: Sequence[Any], b: Sequence[Any], c: Any = 1) -> Vector:
    return tuple(Fraction(u) + Fraction(c) * Fraction(v) for u, v in zip(a, b))


def _scores(p: Points, w: Sequence[Any]) -> tuple[Fraction, ...]:
    return tuple(_dot(w, x) for x, _ in p)


def _mistakes(p: Points, w: Sequence[Any], zero: str = "mistake") -> int:
    return sum(1 for x, y in p if pla.is_mistake(_dot(w, x), y, zero))


def _margin(p: Points, w: Sequence[Any]) -> Fraction:
    """min_n y_n w.x_n (not normalised)."""
    return min(y * _dot(w, x) for x, y in p)


def _r2(p: Points) -> Fraction:
    return max(_norm2(x) for x, _ in p)


def _signed_cos2(a: Sequence[Any], b: Sequence[Any]) -> Fraction:
    """sign(a.b) cos^2(a, b): exact and ordered like the cosine."""
    d = _dot(a, b)
    value = d * d / (_norm2(a) * _norm2(b))
    return value if d >= 0 else -value


def _run(p: Points, *, w0: Sequence[Any] | None = None, zero: str = "mistake", eta: Any = 1,
         max_updates: int = 50) -> tuple[list[Vector], pla.Result]:
    """Cyclic PLA on the two points with the real toolkit; the walk w_0, ..., w_T and the run."""
    ds = pla.Dataset.from_fractions([x for x, _ in p], [y for _, y in p], bias=False)
    result = pla.run(ds, w0=None if w0 is None else list(w0), zero=zero, eta=Fraction(eta),
                     max_updates=max_updates)
    if not result.steps:
        return [result.w], result
    return [result.steps[0].w_before] + [s.w_after for s in result.steps], result


def _gordan_accepts(p: Points, lam: Sequence[int]) -> bool:
    """Whether the kernel accepts ``lam`` as a proof that no w has y_n w.x_n > 0 for both."""
    from verify import kernel
    ds = pla.Dataset.from_fractions([x for x, _ in p], [y for _, y in p], bias=False)
    try:
        kernel.check_gordan(ds.rows, ds.scale, ds.labels, list(lam))
    except kernel.KernelError:
        return False
    return True


def _example_used(p: Points, before: Vector, after: Vector) -> tuple[int, Vector, int]:
    """(n, x_n, y_n) of the example whose update turned ``before`` into ``after``."""
    return next((n, x, y) for n, (x, y) in enumerate(p, start=1) if _add(before, x, y) == after)


def scaled(points: Points, factor: Any) -> Points:
    """The same two points with every vector multiplied by ``factor`` (labels kept).

    >>> scaled(TIGHT, 2)[0]
    ((Fraction(2, 1), Fraction(2, 1)), 1)
    """
    return tuple((tuple(Fraction(factor) * v for v in x), y) for x, y in points)  # type: ignore[return-value]


def _pt(x: Sequence[Any], y: int) -> tuple[Vector, int]:
    return (_vec(*x), y)


#: tight.dat with x0 = 1: x = 1 labelled +1, x = -1 labelled -1.
TIGHT: Points = (_pt((1, 1), 1), _pt((1, -1), -1))
#: x = 3 labelled +1, x = 1 labelled -1 (with x0 = 1): separable, longer PLA runs.
APART: Points = (_pt((1, 3), 1), _pt((1, 1), -1))
#: x = 2 labelled +1, x = 3 labelled -1 (with x0 = 1): an update that shrinks w.
SHRINK: Points = (_pt((1, 2), 1), _pt((1, 3), -1))
#: one point twice with opposite labels: no vector separates them.
CLASH: Points = (_pt((1, 1), 1), _pt((1, 1), -1))
#: tight.dat scaled by 1/2, bias coordinate included (the proof never uses x0 = 1).
HALF: Points = (_pt((Fraction(1, 2), Fraction(1, 2)), 1), _pt((Fraction(1, 2), Fraction(-1, 2)), -1))
#: note 003 (no bias): x = 1 labelled +1, x = 2 labelled -1, in R^1.
NOBIAS: Points = (_pt((1,), 1), _pt((2,), -1))
#: note 003 (no bias, sign(0) = +1): X and -X, both labelled +1.
OPPOSITE: Points = (_pt((1, 0), 1), _pt((-1, 0), 1))
#: note 003's distance loss: found by a small exhaustive search over integer points.
LOSS: Points = (_pt((-1, -1), 1), _pt((-1, 0), -1))
#: two points in the plane (x0 = 1, x1, x2) for 001's line w0 + w1 x1 + w2 x2 = 0.
PLANE: Points = (_pt((1, 1, 0), 1), _pt((1, -1, 0), -1))


# ----------------------------------------------------------------------------- the registry
Calculation = Callable[[Points], tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, str, bool], ...]]]
CALCULATIONS: dict[str, tuple[Calculation, str, bool]] = {}
DEFAULT_POINTS: dict[str, Points] = {}


def _hand(*findings: str, kind: str, notation_only: bool = False,
          points: Points = TIGHT) -> Callable[[Calculation], Calculation]:
    def register(function: Calculation) -> Calculation:
        for finding in findings:
            if finding in CALCULATIONS:
                raise ValueError(f"hand calculation {finding} defined twice")
            CALCULATIONS[finding] = (function, kind, notation_only)
            DEFAULT_POINTS[finding] = points
        return function
    return register


def compute(finding: str, points: Points | None = None) -> HandCalculation:
    """Compute the hand calculation of ``finding`` (on its default points unless given).

    >>> compute("9.9")
    Traceback (most recent call last):
    ...
    sitebuild.hand_calculations.HandCalculationFailed: no hand calculation for finding 9.9
    """
    if finding not in CALCULATIONS:
        raise HandCalculationFailed(f"no hand calculation for finding {finding}")
    function, kind, notation_only = CALCULATIONS[finding]
    p = DEFAULT_POINTS[finding] if points is None else points
    try:
        facts, statements = function(p)
    except Exception as error:          # e.g. a division by a zero margin on other points
        raise HandCalculationFailed(f"finding {finding}: the calculation cannot be made on "
                                    f"these points ({type(error).__name__}: {error})") from error
    return HandCalculation(finding, kind, notation_only, p, facts, statements)


# Statement roles.
WRITTEN, CORRECTED = "As written", "Corrected"
LITERAL, INTENDED = "Read literally", "Read as intended"


# ----------------------------------------------------------------------------- note 000
@_hand("0.1", kind="wrong")
def _strict_rule(p: Points):
    walk_lt, strict = _run(p, zero="correct")
    _, usual = _run(p)
    facts = (("scores at w_0 = 0", _scores(p, walk_lt[0])),
             ("updates, mistake iff y w.x < 0", strict.updates),
             ("updates, mistake iff y w.x <= 0", usual.updates),
             ("final w, rule < 0", strict.w), ("final w, rule <= 0", usual.w),
             ("mistakes (y w.x <= 0) of the final w, rule < 0", _mistakes(p, strict.w)),
             ("mistakes (y w.x <= 0) of the final w, rule <= 0", _mistakes(p, usual.w)))
    return facts, (
        (WRITTEN, "a mistake is $y_n\\mathbf w_t^T\\mathbf x_n < 0$, and PLA from $\\mathbf w_0 = "
         "\\mathbf 0$ ends at a vector that classifies the points",
         strict.halted and _mistakes(p, strict.w) == 0),
        (CORRECTED, "a mistake is $y_n\\mathbf w_t^T\\mathbf x_n \\le 0$; PLA ends at a separator",
         usual.halted and _mistakes(p, usual.w) == 0))


@_hand("0.2", kind="readings", notation_only=True)
def _right_angle(p: Points):
    walk, _ = _run(p)
    (x2, y2), w1 = p[1], walk[1]
    s = _dot(w1, x2)
    beyond = (s > 0) if y2 < 0 else (s < 0)           # strictly beyond 90° on the wrong side
    facts = (("w_1", w1), (f"w_1.x_2 (y_2 = {y2:+d})", s),
             ("x_2 a mistake under y w.x <= 0 (what the proof needs)", pla.is_mistake(s, y2)),
             ("x_2 a mistake under y w.x < 0 (line 28)", pla.is_mistake(s, y2, "correct")))
    return facts, (
        ("Read with the rule the proof needs, $y\\,\\mathbf w^T\\mathbf x \\le 0$", "every mistake "
         "makes an angle strictly beyond 90° (\"大于90度\", mirrored for $y = -1$): $\\mathbf x_2$ at "
         "$\\mathbf w_1$ does", beyond or not pla.is_mistake(s, y2)),
        ("Read with the note's own rule of line 28, $< 0$", "every mistake makes such an angle "
         "($\\mathbf x_2$ is then no mistake)", beyond or not pla.is_mistake(s, y2, "correct")))


@_hand("0.3", kind="withdrawn")
def _sign_defined_away_from_zero(p: Points):
    wf, w = _vec(0, 1), _vec(1, 1)
    facts = (("w_f = (0, 1): scores", _scores(p, wf)), ("w_f: min_n y_n w_f.x_n", _margin(p, wf)),
             ("w = (1, 1): scores", _scores(p, w)), ("w: min_n y_n w.x_n", _margin(p, w)))
    defined = all(s != 0 for s in _scores(p, w))
    return facts, (
        ("As written (000's sign has no value at 0)", "a $\\mathbf w$ with $y_n = "
         "\\text{sign}(\\mathbf w^T\\mathbf x_n)$ for both points has every score non-zero, hence "
         "$\\min_n y_n\\mathbf w^T\\mathbf x_n > 0$: $(0, 1)$ qualifies, $(1, 1)$ does not",
         _margin(p, wf) > 0 and all(s != 0 for s in _scores(p, wf)) and not defined),
        ("The withdrawn charge (needs sign(0) = −1, which 000 never adopts)", "$(1, 1)$ satisfies "
         "the definition with $\\rho = 0$", defined and _margin(p, w) > 0))


def _angle_facts(p: Points, wf: Vector):
    """PLA's walk, its result, cos^2 and w_f.w_t along the walk, and those as facts."""
    walk, result = _run(p)
    cos2 = tuple(_signed_cos2(wf, w) for w in walk[1:])
    inner = tuple(_dot(wf, w) for w in walk[1:])
    facts = ((f"w_f = {_show(wf)}: min_n y_n w_f.x_n", _margin(p, wf)),
             ("PLA walk w_1, ..., w_T", tuple(walk[1:])),
             ("w_f.w_t, t = 1..T", inner), ("cos^2(w_f, w_t) (signed), t = 1..T", cos2))
    return walk, result, cos2, inner, facts


@_hand("0.4", kind="wrong")
def _angle_not_monotone(p: Points):
    wf = _vec(2, 3)
    walk, result, cos2, inner, facts = _angle_facts(p, wf)
    facts += (("final w parallel to w_f", _signed_cos2(wf, result.w) == 1),)
    return facts, (
        (WRITTEN, "the angle between $\\mathbf w_t$ and $\\mathbf w_f$ decreases at every update "
         "and $\\mathbf w_t$ ends along $\\mathbf w_f$",
         all(b > a for a, b in zip(cos2, cos2[1:])) and _signed_cos2(wf, result.w) == 1),
        (CORRECTED, "$\\mathbf w_f^T\\mathbf w_t$ grows at every update and PLA halts at some "
         "separator", _margin(p, wf) > 0 and all(b > a for a, b in zip(inner, inner[1:]))
         and result.halted and _margin(p, result.w) > 0))


@_hand("0.5", kind="readings", notation_only=True)
def _length_of_wf(p: Points):
    wf = _vec(0, 1)
    walk, result = _run(p)
    r2 = _r2(p)
    fixed = tuple(_norm2(wf) for _ in walk)
    facts = (("|w_f|^2 at t = 0..T", fixed),
             ("|w_t|^2 at t = 0..T", tuple(_norm2(w) for w in walk)),
             ("t R^2 at t = 0..T", tuple(t * r2 for t in range(len(walk)))))
    return facts, (
        (LITERAL, "the length of $\\mathbf w_f$ grows", fixed[-1] > fixed[0]),
        (INTENDED, "the length of $\\mathbf w_t$ grows slowly: $\\lVert\\mathbf w_t\\rVert^2 \\le tR^2$",
         all(_norm2(w) <= t * r2 for t, w in enumerate(walk))))


@_hand("0.6", kind="readings", notation_only=True, points=SHRINK)
def _sqrt_t(p: Points):
    walk, _ = _run(p, max_updates=2)
    r2 = _r2(p)
    lengths = tuple(_norm2(w) for w in walk)
    facts = (("w_0, w_1, w_2", tuple(walk)), ("|w_t|^2", lengths),
             ("t R^2", tuple(t * r2 for t in range(len(walk)))))
    return facts, (
        ("Read as a growth rate", "the length grows at every update, like $\\sqrt t$",
         all(b > a for a, b in zip(lengths, lengths[1:]))),
        ("Read as a bound", "$\\lVert\\mathbf w_t\\rVert \\le \\sqrt t\\,R$",
         all(v <= t * r2 for t, v in enumerate(lengths))))


def _pocket_facts(p: Points, updates: int):
    walk, _ = _run(p, max_updates=updates)
    counts = tuple(_mistakes(p, w) for w in walk)
    return walk, counts


@_hand("0.7", kind="wrong", points=CLASH)
def _pocket_no_op(p: Points):
    walk, counts = _pocket_facts(p, 2)
    best = min(range(len(walk)), key=lambda t: (counts[t], t))
    facts = (("walk w_0, w_1, w_2", tuple(walk)), ("mistakes of w_0, w_1, w_2", counts),
             ("returned by line 99 (replace w_{t+1} by w_{t+1}: the last w)", walk[-1]),
             ("returned by the pocket rule", walk[best]))
    return facts, (
        (WRITTEN, "the returned vector makes as few mistakes as any vector the walk visited",
         counts[-1] == min(counts)),
        (CORRECTED, "compare with the pocket $\\hat{\\mathbf w}$ and keep the best: the pocket makes "
         "fewer mistakes than the last $\\mathbf w$", counts[best] < counts[-1]))


@_hand("0.8", kind="wrong", points=CLASH)
def _pocket_guarantee(p: Points):
    walk, counts = _pocket_facts(p, 2)
    inseparable = _gordan_accepts(p, (1, 1))
    facts = (("mistakes of w_0, w_1, w_2", counts),
             ("mistakes of the vector line 99 returns (the last w)", counts[-1]),
             ("mistakes of the pocket (best visited)", min(counts)), ("points", len(p)),
             ("Gordan certificate (1, 1) accepted by the kernel: no vector makes 0 mistakes",
              inseparable))
    return facts, (
        (WRITTEN, "guaranteed to find a fairly good solution: with the note's own rule of line 99, "
         "at least better than getting every point wrong", counts[-1] < len(p)),
        (CORRECTED, "the pocket is the best vector the walk has visited; here that is optimal "
         "(1 mistake, and the certificate excludes 0)", min(counts) == 1 and inseparable))


# ----------------------------------------------------------------------------- note 001
@_hand("1.1", kind="wrong")
def _sign0(p: Points):
    runs = {zero: _run(p, zero=zero)[1] for zero in pla.ZERO_CONVENTIONS}
    facts = (("scores at w_0 = 0", _scores(p, _vec(0, 0))),) + tuple(
        (f"zero = {zero}: updates, final w", (r.updates, r.w)) for zero, r in runs.items())
    outcomes = {(r.updates, r.w) for r in runs.values()}
    return facts, (
        (WRITTEN, "a sign defined only for $> 0$ and $< 0$ (line 15) determines the run",
         len(outcomes) == 1),
        (CORRECTED, "with a zero score a mistake the run is fixed",
         runs["mistake"].halted and _mistakes(p, runs["mistake"].w) == 0))


@_hand("1.2", kind="readings", notation_only=True, points=(_pt((1,), 1), _pt((-1,), -1)))
def _threshold_sum(p: Points):
    w1, theta = Fraction(2), Fraction(1)
    intended = tuple(w1 * x[0] - theta for x, _ in p)
    literal = tuple(-theta * len(x) for x, _ in p)   # sum_{i=1}^d (-threshold), d = 1
    facts = (("w_1, threshold", (w1, theta)), ("sum w_i x_i - threshold", intended),
             ("sum_{i=1}^d (-threshold)", literal))
    ok = lambda scores: all((s > 0) == (y > 0) and s != 0 for s, (_, y) in zip(scores, p))
    return facts, (
        (LITERAL, "$h(x) = \\text{sign}(\\sum_{i=1}^d(-\\text{threshold}))$ classifies both points", ok(literal)),
        (INTENDED, "$h(x) = \\text{sign}(\\sum_{i=1}^d w_ix_i - \\text{threshold})$ classifies both",
         ok(intended)))


@_hand("1.4", kind="readings", notation_only=True)
def _sign_alone(p: Points):
    _, result = _run(p)
    w = result.w
    signs = tuple((s > 0) - (s < 0) for s in _scores(p, w))
    facts = (("final w of PLA", w), ("sign(w.x_n), n = 1, 2", signs),
             ("sign(w.x_n) != y_n", tuple(sg != y for sg, (_, y) in zip(signs, p))))
    return facts, (
        (LITERAL, "2-4 is $\\text{sign}(\\mathbf w^T\\mathbf x)$, a number ($\\pm 1$ above), not a "
         "condition: \"until no sample makes 2-4 hold\" has no meaning", None),
        (INTENDED, "2-4 is $\\text{sign}(\\mathbf w_t^T\\mathbf x_{n(t)}) \\ne y_{n(t)}$: it holds for "
         "no point of the final $\\mathbf w$, so PLA stops there",
         not any(sg != y for sg, (_, y) in zip(signs, p))))


@_hand("1.5", "2.3", kind="readings", notation_only=True, points=APART)
def _one_update(p: Points):
    walk, _ = _run(p, max_updates=2)
    (x2, y2) = p[1]
    before, after = y2 * _dot(walk[1], x2), y2 * _dot(walk[2], x2)
    facts = (("w_1, w_2", (walk[1], walk[2])), ("y_2 w_1.x_2 (before the update on x_2)", before),
             ("|x_2|^2", _norm2(x2)), ("y_2 w_2.x_2 (after)", after))
    return facts, (
        ("Read as every update", "after the update on $\\mathbf x_2$ the point is classified "
         "correctly (angle below 90°)", after > 0),
        ("Read as the direction of the update", "the update raises $y\\,\\mathbf w^T\\mathbf x$ by "
         "$\\lVert\\mathbf x\\rVert^2$", after - before == _norm2(x2)))


@_hand("1.6", kind="wrong")
def _l1(p: Points):
    walk, _ = _run(p)
    (x2, y2), w1, w2 = p[1], walk[1], walk[2]
    l1 = lambda v: sum((abs(c) for c in v), Fraction(0))
    wf = _vec(0, 1)
    facts = (("w_1, w_2", (w1, w2)),
             ("L2: |w_2|^2 and |w_1|^2 + 2 y w_1.x_2 + |x_2|^2",
              (_norm2(w2), _norm2(w1) + 2 * y2 * _dot(w1, x2) + _norm2(x2))),
             ("L1: |w_2|_1^2 and |w_1|_1^2 + 2 y w_1.x_2 + |x_2|_1^2",
              (l1(w2) ** 2, l1(w1) ** 2 + 2 * y2 * _dot(w1, x2) + l1(x2) ** 2)),
             ("w_f = (0, 1): w_f.w_2 / (|w_f|_1 |w_2|_1)", _dot(wf, w2) / (l1(wf) * l1(w2))))
    return facts, (
        (WRITTEN, "with L1 norms, 2-8's expansion $\\lVert\\mathbf W_2\\rVert^2 = \\lVert\\mathbf W_1"
         "\\rVert^2 + 2Y\\mathbf W_1^T\\mathbf X + \\lVert\\mathbf X\\rVert^2$ holds",
         facts[2][1][0] == facts[2][1][1]),
        (CORRECTED, "with L2 norms it holds (and \"≤ 1\" holds with either norm)",
         facts[1][1][0] == facts[1][1][1] and facts[3][1] <= 1))


@_hand("1.7", kind="readings", notation_only=True)
def _index_t_minus_2(p: Points):
    wf = _vec(0, 1)
    walk, result = _run(p)
    T = result.updates
    _, x, y = _example_used(p, walk[T - 1], walk[T])
    printed = _dot(wf, walk[T - 2]) + y * _dot(wf, x)
    right = _dot(wf, walk[T - 1]) + y * _dot(wf, x)
    facts = (("T", T), ("W_f^T W_T", _dot(wf, walk[T])),
             ("W_f^T W_{T-2} + Y W_f^T X (printed index)", printed),
             ("W_f^T W_{T-1} + Y W_f^T X", right))
    return facts, (
        ("Read with the printed index $T-2$", "$\\mathbf W_f^T\\mathbf W_T = \\mathbf W_f^T\\mathbf W_{T-2} + "
         "Y\\mathbf W_f^T\\mathbf X$",
         printed == _dot(wf, walk[T])),
        (INTENDED, "$\\mathbf W_f^T\\mathbf W_T = \\mathbf W_f^T\\mathbf W_{T-1} + Y\\mathbf W_f^T\\mathbf X$",
         right == _dot(wf, walk[T])))


@_hand("1.8", kind="wrong")
def _margin_ge_0(p: Points):
    zero, wf = _vec(0, 0), _vec(0, 1)
    _, result = _run(p)
    facts = (("W_f = 0: min_n Y_n W_f.X_n", _margin(p, zero)),
             ("W_f = (0, 1): min_n Y_n W_f.X_n", _margin(p, wf)), ("R^2", _r2(p)),
             ("T of PLA", result.updates),
             ("bound R^2 |W_f|^2 / rho^2 for W_f = (0, 1)", _r2(p) * _norm2(wf) / _margin(p, wf) ** 2))
    return facts, (
        (WRITTEN, "\"必定大于等于0\" is all 2-12 needs: every $\\mathbf W_f$ with "
         "$Y_n\\mathbf W_f^T\\mathbf X_n \\ge 0$ has a positive minimum to divide by ($\\mathbf W_f = 0$ "
         "is one such)", _margin(p, zero) > 0),
        (CORRECTED, "$\\rho = \\min_n Y_n\\mathbf W_f^T\\mathbf X_n > 0$, and then $T \\le "
         "R^2\\lVert\\mathbf W_f\\rVert^2/\\rho^2$", _margin(p, wf) > 0 and result.updates <= facts[4][1]))


@_hand("1.9", kind="wrong")
def _norm_unsquared(p: Points):
    walk, _ = _run(p)
    (x2, y2), w1, w2 = p[1], walk[1], walk[2]
    rhs = _norm2(w1) + _norm2(x2) + 2 * y2 * _dot(w1, x2)
    facts = (("w_1, w_2", (w1, w2)), ("|W_2|^2", _norm2(w2)),
             ("|W_1|^2 + |Y X|^2 + 2 Y W_1.X", rhs))
    n2 = _norm2(w2)
    return facts, (
        (WRITTEN, "$\\lVert\\mathbf W_2\\rVert = \\lVert\\mathbf W_1\\rVert^2 + \\lVert Y\\mathbf X\\rVert^2 + "
         "2Y\\mathbf W_1^T\\mathbf X$ (the norm itself on the left)", n2 == rhs ** 2 and rhs >= 0),
        (CORRECTED, "$\\lVert\\mathbf W_2\\rVert^2 = \\lVert\\mathbf W_1\\rVert^2 + \\lVert Y\\mathbf X\\rVert^2 + "
         "2Y\\mathbf W_1^T\\mathbf X$", n2 == rhs))


@_hand("1.10", kind="readings", notation_only=True)
def _yx_le_0(p: Points):
    walk, _ = _run(p)
    (x2, y2), w1 = p[1], walk[1]
    yx = tuple(y2 * v for v in x2)
    facts = (("w_1", w1), ("Y_2 X_2 (a vector)", yx), ("Y_2 W_1^T X_2", y2 * _dot(w1, x2)))
    return facts, (
        (LITERAL, "$Y\\cdot\\mathbf X \\le 0$ (every coordinate): marks $\\mathbf x_2$ as the mistake of "
         "$\\mathbf w_1$", all(v <= 0 for v in yx)),
        (INTENDED, "$Y\\mathbf W_1^T\\mathbf X \\le 0$ marks it", y2 * _dot(w1, x2) <= 0))


@_hand("1.11", kind="readings", notation_only=True)
def _divide_by_vector(p: Points):
    wf = _vec(0, 1)
    walk, result = _run(p)
    T, r2, rho = result.updates, _r2(p), _margin(p, wf)
    cos2 = _signed_cos2(wf, result.w)
    low2 = T * rho ** 2 / (_norm2(wf) * r2)
    facts = (("T, rho, R^2", (T, rho, r2)), ("W_f^T (the printed denominator's factor)", wf),
             ("cos^2(W_f, W_T)", cos2), ("(T rho / (|W_f| sqrt(T R^2)))^2", low2))
    return facts, (
        (LITERAL, "the denominator $\\mathbf W_f^T\\sqrt{TR^2}$ is a vector: the quotient has no "
         "value", None),
        (INTENDED, "with $\\lVert\\mathbf W_f\\rVert$: $\\cos \\ge \\sqrt T\\,C$", cos2 >= low2))


@_hand("1.12", kind="readings", notation_only=True)
def _rate_of_cosine(p: Points):
    wf = _vec(2, 3)
    walk, _, cos2, _, _ = _angle_facts(p, wf)
    rho, r2 = _margin(p, wf), _r2(p)
    low2 = tuple(t * rho ** 2 / (_norm2(wf) * r2) for t in range(1, len(walk)))
    facts = (("w_f = (2, 3): rho, R^2", (rho, r2)), ("cos^2(w_f, w_t) (signed), t = 1..T", cos2),
             ("lower bound (sqrt(t) C)^2, t = 1..T", low2))
    return facts, (
        ("Read as the normalised inner product", "it grows at every update",
         all(b > a for a, b in zip(cos2, cos2[1:]))),
        ("Read as its lower bound", "$\\sqrt T\\,C$ grows and stays below the cosine",
         all(b > a for a, b in zip(low2, low2[1:])) and all(c >= l for c, l in zip(cos2, low2))))


@_hand("1.13", kind="wrong", points=HALF)
def _bound_square(p: Points):
    wf = _vec(0, 1)
    _, result = _run(p)
    T, r2 = result.updates, _r2(p)
    rho2 = _margin(p, wf) ** 2 / _norm2(wf)           # normalised rho, squared
    facts = (("T", T), ("R^2", r2), ("normalised rho^2", rho2),
             ("printed bound squared, (R^2/rho)^2", r2 ** 2 / rho2), ("R^2/rho^2", r2 / rho2))
    return facts, (
        (WRITTEN, "$T \\le R^2/\\rho$ (2-12, no square)", T * T <= r2 ** 2 / rho2),
        (CORRECTED, "$T \\le R^2/\\rho^2$", T <= r2 / rho2))


@_hand("1.14", kind="wrong")
def _rho_214(p: Points):
    good, bad = _vec(0, 1), _vec(0, -1)
    printed = lambda w: min(_scores(p, w)) ** 2 / _norm2(w)
    right = lambda w: _margin(p, w)                   # |w| = 1 for both
    facts = (("W_f = (0, 1): printed rho, rho", (printed(good), right(good))),
             ("W = (0, -1): printed rho, rho", (printed(bad), right(bad))),
             ("mistakes of (0, -1)", _mistakes(p, bad)))
    return facts, (
        (WRITTEN, "$\\rho = (\\min_n \\frac{\\mathbf W^T}{\\lVert\\mathbf W\\rVert}\\mathbf X_n)^2$ tells a "
         "separator from a vector that gets both points wrong", printed(good) != printed(bad)),
        (CORRECTED, "$\\rho = \\min_n Y_n\\frac{\\mathbf W^T}{\\lVert\\mathbf W\\rVert}\\mathbf X_n$ does: "
         "positive, then negative", right(good) > 0 > right(bad)))


@_hand("1.15", kind="readings", notation_only=True)
def _closest(p: Points):
    wf = _vec(2, 3)
    _, result = _run(p)
    facts = (("w_f = (2, 3): mistakes", _mistakes(p, wf)), ("g = final w of PLA", result.w),
             ("mistakes of g", _mistakes(p, result.w)), ("cos^2(w_f, g)", _signed_cos2(wf, result.w)))
    return facts, (
        ("Read as \"closest to $\\mathbf w_f$\"", "$g$ points along $\\mathbf w_f$",
         _signed_cos2(wf, result.w) == 1),
        ("Read as \"agrees with $f$ on the data\" (line 62)", "$g$ makes no mistake",
         _mistakes(p, result.w) == 0))


@_hand("1.16", "3.9", "4.3", kind="wrong")
def _start(p: Points):
    wf, w0 = _vec(0, 1), _vec(0, -2)
    _, zero_start = _run(p)
    _, other = _run(p, w0=w0)
    rho, r2 = _margin(p, wf), _r2(p)
    bound = r2 * _norm2(wf) / rho ** 2
    T = other.updates
    lhs, rhs = T * rho + _dot(wf, w0), _norm2(wf) * (_norm2(w0) + T * r2)
    facts = (("w_f = (0, 1): rho, R^2, bound R^2 |w_f|^2/rho^2", (rho, r2, bound)),
             ("T from w_0 = 0", zero_start.updates), ("T from w_0 = (0, -2)", T),
             ("from (0, -2): (T rho + w_f.w_0)^2 and |w_f|^2 (|w_0|^2 + T R^2)",
              (lhs * abs(lhs), rhs)))
    return facts, (
        (WRITTEN, "the bound holds for the start the algorithm allows, here $(0, -2)$", T <= bound),
        (CORRECTED, "from $\\mathbf w_0 = 0$ it holds; from $(0, -2)$ the proof carrying "
         "$\\mathbf w_f^T\\mathbf w_0$ and $\\lVert\\mathbf w_0\\rVert^2$ holds",
         zero_start.updates <= bound and lhs * abs(lhs) <= rhs))


@_hand("1.17", kind="readings", notation_only=True)
def _indicator(p: Points):
    good, const = _vec(0, 1), _vec(-1, 0)
    sgn = lambda s: (s > 0) - (s < 0)
    sum_signs = lambda w: sum(sgn(s) for s in _scores(p, w))
    count = lambda w: sum(1 for s, (_, y) in zip(_scores(p, w), p) if sgn(s) != y)
    facts = (("w = (0, 1): sum of signs, mistakes", (sum_signs(good), count(good))),
             ("w = (-1, 0): sum of signs, mistakes", (sum_signs(const), count(const))))
    return facts, (
        (LITERAL, "$\\sum_n\\text{sign}(\\mathbf W^T\\mathbf X_n)$ prefers the separator $(0, 1)$",
         sum_signs(good) < sum_signs(const)),
        (INTENDED, "$\\sum_n[[\\text{sign}(\\mathbf W^T\\mathbf X_n) \\ne Y_n]]$ prefers it",
         count(good) < count(const)))


def _greedy_walk(p: Points, steps: int) -> tuple[Vector, int]:
    """'Keep the one with fewer mistakes and continue from it': cyclic, strict improvement only."""
    w = _vec(*([0] * len(p[0][0])))
    for k in range(steps):
        x, y = p[k % len(p)]
        if pla.is_mistake(_dot(w, x), y):
            candidate = _add(w, x, y)
            if _mistakes(p, candidate) < _mistakes(p, w):
                w = candidate
    return w, _mistakes(p, w)


@_hand("1.19", "4.9", kind="readings", points=APART)
def _previous_vector(p: Points):
    walk, result = _run(p)
    counts = tuple(_mistakes(p, w) for w in walk)
    greedy, greedy_count = _greedy_walk(p, 4 * len(walk))
    facts = (("PLA walk: mistakes of w_0, ..., w_T", counts), ("pocket after the walk", min(counts)),
             (f"keep the fewer and continue from it, {4 * len(walk)} visits: w, mistakes",
              (greedy, greedy_count)))
    return facts, (
        ("Read as \"keep the better one and continue from it\"", "it reaches a separator as PLA "
         "does", greedy_count == 0),
        ("Read as \"compare with the pocket\" (PLA continues)", "the pocket ends with the fewest "
         "mistakes the walk visited, here 0", min(counts) == 0 and result.halted))


@_hand("1.20", kind="readings")
def _random_order(p: Points):
    ds = pla.Dataset.from_fractions([x for x, _ in p], [y for _, y in p], bias=False)
    cyclic = pla.run(ds).updates
    # every visiting order of the two points as a first choice: the run is then forced
    by_first = tuple(pla.run(ds, w0=[y * v for v in x], max_updates=50).updates + 1 for x, y in p)
    facts = (("cyclic order: updates", cyclic),
             ("random order, first update on x_1 / on x_2: updates", by_first))
    return facts, (
        ("Read as \"random draws make it faster\"", "some draw needs fewer updates than the "
         "cyclic order", min(by_first) < cyclic),
        ("Read as what random draws change", "they need not be faster: every draw needs "
         f"{max(by_first)} here (what they change is whether a cycle can trap Pocket: evidence below)",
         max(by_first) >= cyclic))


# ----------------------------------------------------------------------------- note 002
@_hand("2.7", kind="wrong")
def _closer_at_every_update(p: Points):
    wf = _vec(2, 3)
    walk, _, cos2, inner, facts = _angle_facts(p, wf)
    return facts, (
        (WRITTEN, "at every update ${\\bf w}_t$ gets closer to ${\\bf w}_f$ (the angle gets smaller)",
         all(b > a for a, b in zip(cos2, cos2[1:]))),
        (CORRECTED, "at every update ${\\bf w}_f^T{\\bf w}_t$ grows", _margin(p, wf) > 0
         and all(b > a for a, b in zip(inner, inner[1:]))))


@_hand("2.1", kind="readings")
def _radius_x0(p: Points):
    wf = _vec(0, 1)
    _, result = _run(p)
    rho2 = _margin(p, wf) ** 2 / _norm2(wf)
    with_x0, without = _r2(p), max(_norm2(x[1:]) for x, _ in p)
    facts = (("T", result.updates), ("normalised rho^2 of w_f = (0, 1)", rho2),
             ("R^2 with x_0 = 1 (l. 27) / without (l. 28)", (with_x0, without)),
             ("(R/rho)^2 with / without", (with_x0 / rho2, without / rho2)))
    return facts, (
        ("Read with $\\mathbf x_n = (x_{n,1}, …, x_{n,d})$ (l. 28)", "$T \\le (R/\\rho)^2$",
         result.updates <= without / rho2),
        ("Read with $\\mathbf x = (x_0, …, x_d)$ (l. 27)", "$T \\le (R/\\rho)^2$",
         result.updates <= with_x0 / rho2))


@_hand("2.2", kind="readings", notation_only=True)
def _index_t(p: Points):
    walk, result = _run(p)
    used = tuple(next(n + 1 for n, (x, y) in enumerate(p) if _add(a, x, y) == b)
                 for a, b in zip(walk, walk[1:]))
    facts = (("update t = 0, 1, ...: the example used, n(t)", used),)
    return facts, (
        (LITERAL, "$({\\bf x}_t, y_t)$ is example $t$: example $t$ is used at update $t$",
         all(n == t for t, n in enumerate(used))),
        (INTENDED, "$({\\bf x}_{n(t)}, y_{n(t)})$: the mistake used at update $t$", all(
            pla.is_mistake(_dot(walk[t], p[n - 1][0]), p[n - 1][1]) for t, n in enumerate(used))))


@_hand("2.4", kind="withdrawn")
def _zero_chance(p: Points):
    def zeros_after_start(q: Points) -> int:
        walk, _ = _run(q)
        return sum(1 for w in walk[1:] for s in _scores(q, w) if s == 0)
    other = (p[0], (tuple(2 * v if i else v for i, v in enumerate(p[1][0])), p[1][1]))
    facts = (("zero scores after the start, these points", zeros_after_start(p)),
             ("the same with x_2's feature doubled", zeros_after_start(other)))
    return facts, (
        ("As written", "zeros after the start happen on some data, not on other: a likelihood, "
         "not refuted by one run", zeros_after_start(p) != zeros_after_start(other)),
        ("The withdrawn charge", "one zero after the start makes the sentence wrong",
         zeros_after_start(other) > 0))


@_hand("2.5", kind="wrong")
def _sign_separable(p: Points):
    w = _vec(1, 1)
    s = _scores(p, w)
    sign_neg = lambda v: 1 if v > 0 else -1         # sign(0) = -1 (l. 71)
    shift = min(abs(v) for v in s if v != 0) / 2
    shifted = (w[0] - shift,) + w[1:]
    facts = (("w_f = (1, 1): scores", s), ("y_n = sign(w_f.x_n) with sign(0) = -1",
                                           tuple(sign_neg(v) == y for v, (_, y) in zip(s, p))),
             ("min_n y_n w_f.x_n", _margin(p, w)), ("threshold moved by half the least non-zero score",
                                                   shifted), ("its min_n y_n w.x_n", _margin(p, shifted)))
    return facts, (
        (WRITTEN, "$y_n = \\text{sign}({\\bf w}_f^T{\\bf x}_n)$ for all $n$ gives "
         "$\\min_n y_n{\\bf w}_f^T{\\bf x}_n > 0$", _margin(p, w) > 0),
        (CORRECTED, "moving the threshold gives a ${\\bf w}_f$ with a positive margin",
         _margin(p, shifted) > 0))


@_hand("2.6", kind="readings", notation_only=True)
def _angle_with_wf(p: Points):
    wf = _vec(0, 1)
    facts = (("w_f = (0, 1): w_f.x_n", _scores(p, wf)),
             ("w_f.(y_n x_n)", tuple(y * _dot(wf, x) for x, y in p)))
    return facts, (
        ("Read as \"${\\bf x}_n$ and ${\\bf w}_f$ make an angle below 90°\"", "both do",
         all(v > 0 for v in _scores(p, wf))),
        ("Read as \"$y_n{\\bf x}_n$ and ${\\bf w}_f$\" (line 91)", "both do",
         all(y * _dot(wf, x) > 0 for x, y in p)))


@_hand("2.8", kind="withdrawn")
def _ge_for_eq(p: Points):
    wf = _vec(0, 1)
    walk, _ = _run(p)
    x, y = p[1]
    left, right = _dot(wf, walk[2]), _dot(wf, walk[1]) + y * _dot(wf, x)
    facts = (("w_f.w_2", left), ("w_f.w_1 + y_2 w_f.x_2", right))
    return facts, (
        ("As written", "${\\bf w}_f^T{\\bf w}_{t+1} \\ge {\\bf w}_f^T{\\bf w}_t + y_t{\\bf w}_f^T{\\bf x}_t$",
         left >= right),
        ("The withdrawn charge", "the relation is false", left < right))


@_hand("2.9", kind="readings", notation_only=True)
def _iff(p: Points):
    walk, _ = _run(p)
    (x2, y2), w1 = p[1], walk[1]
    s = _dot(w1, x2)
    rows = {zero: (pla.is_mistake(s, y2, zero), y2 * s <= 0) for zero in ("negative", "positive", "mistake")}
    facts = (("w_1.x_2 (y_2 = -1)", s),) + tuple(
        (f"zero = {zero}: sign != y, y w.x <= 0", v) for zero, v in rows.items())
    return facts, (
        ("Read with sign(0) = −1 (l. 71)", "⟺ holds at $\\mathbf w_1$, $\\mathbf x_2$",
         rows["negative"][0] == rows["negative"][1]),
        ("Read with \"直接更新\"", "⟺ holds; \"⟹\" holds under all three",
         rows["mistake"][0] == rows["mistake"][1] and all(a <= b for a, b in rows.values())))


@_hand("2.10", kind="readings", notation_only=True)
def _w0_typo(p: Points):
    wf, w0 = _vec(0, 1), _vec(0, -2)
    _, result = _run(p, w0=w0)
    T, rho = result.updates, _margin(p, wf)
    facts = (("from w_0 = (0, -2): T, w_T", (T, result.w)), ("w_f.w_T", _dot(wf, result.w)),
             ("w_0.w_0 + T rho |w_f|", _norm2(w0) + T * rho), ("w_f.w_0 + T rho |w_f|", _dot(wf, w0) + T * rho))
    return facts, (
        (LITERAL, "${\\bf w}_f^T{\\bf w}_T \\ge {\\bf w}_0^T{\\bf w}_0 + T\\rho\\lVert{\\bf w}_f\\rVert$",
         _dot(wf, result.w) >= facts[2][1]),
        (INTENDED, "${\\bf w}_f^T{\\bf w}_T \\ge {\\bf w}_f^T{\\bf w}_0 + T\\rho\\lVert{\\bf w}_f\\rVert$",
         _dot(wf, result.w) >= facts[3][1]))


@_hand("2.11", kind="readings", notation_only=True, points=APART)
def _quickly(p: Points):
    _, far = _run(p, max_updates=200)
    _, near = _run(TIGHT)
    facts = (("tight.dat (x = 1, -1): R^2, updates", (_r2(TIGHT), near.updates)),
             ("these points: gap between them, R^2, updates",
              (abs(p[0][0][-1] - p[1][0][-1]), _r2(p), far.updates)))
    return facts, (
        ("Read as \"every data set is quick\"", "these two points need as few updates as tight.dat",
         far.updates <= near.updates),
        ("Read as \"quick when the margin is large against $R$\"", "moving the points away from the "
         "origin (larger $R$, same gap) needs more updates", far.updates > near.updates))


@_hand("2.12", kind="withdrawn", points=(_pt((1, 1), 1), _pt((1, -1), 1)))
def _noise_target(p: Points):
    f, g = _vec(0, 1), _vec(1, 0)
    facts = (("target f = (0, 1): labels it agrees with", len(p) - _mistakes(p, f)),
             ("a g fitted to the labels, (1, 0): labels it agrees with", len(p) - _mistakes(p, g)))
    return facts, (
        ("As written", "an assumption about $f$ (noise flips few labels), not the goal for $g$: "
         "the two differ here", facts[0][1] != facts[1][1]),
        ("The withdrawn charge", "$f$ and $g$ are interchangeable in the sentence",
         facts[0][1] == facts[1][1]))


# ----------------------------------------------------------------------------- note 003
@_hand("3.1", kind="wrong", points=NOBIAS)
def _no_bias(p: Points):
    best_nobias = min(_mistakes(p, _vec(c), "positive") for c in (-1, 0, 1))
    with_bias = tuple(((Fraction(1),) + x, y) for x, y in p)
    wb = _vec(3, -2)
    facts = (("through the origin: least mistakes over W < 0, W = 0, W > 0", best_nobias),
             ("with x_0 = 1, W = (3, -2): scores", _scores(with_bias, wb)),
             ("its mistakes", _mistakes(with_bias, wb)))
    return facts, (
        (WRITTEN, "$\\text{sign}(W^TX)$, $X \\in \\mathbb R^p$, separates what a hyperplane separates",
         best_nobias == 0),
        (CORRECTED, "with $X = (1, x_1, …, x_p)$ it does", _mistakes(with_bias, wb) == 0))


@_hand("3.2", kind="wrong", points=OPPOSITE)
def _cone(p: Points):
    w = _vec(0, 1)
    inseparable = _gordan_accepts(p, (1, 1))
    _, run = _run(p, max_updates=6)
    facts = (("W = (0, 1): scores", _scores(p, w)), ("its mistakes with sign(0) = +1", _mistakes(p, w, "positive")),
             ("Gordan certificate (1, 1) accepted by the kernel: no W has y W.X > 0 for both", inseparable),
             ("PLA (y W.X <= 0), 6 updates: halted", run.halted))
    return facts, (
        (WRITTEN, "a $W$ that classifies both (sign(0) = +1) gives $y_iW^TX_i > 0$",
         _margin(p, w) > 0),
        (CORRECTED, "separable means $y_iW^TX_i > 0$ for all $i$; these points are not, and PLA "
         "does not halt", _mistakes(p, w, "positive") == 0 and inseparable and not run.halted))


@_hand("3.3", kind="wrong")
def _plus_strict(p: Points):
    walk, _ = _run(p)
    (x2, y2), w1 = p[1], walk[1]
    s = _dot(w1, x2)
    facts = (("W = w_1", w1), ("W.x_2 (y_2 = -1)", s), ("misclassified with sign(0) = +1",
                                                         pla.is_mistake(s, y2, "positive")))
    return facts, (
        (WRITTEN, "misclassified ⟺ $y_iW^TX_i < 0$", (y2 * s < 0) == pla.is_mistake(s, y2, "positive")),
        (CORRECTED, "the algorithm's $y_iW^TX_i \\le 0$ catches it", y2 * s <= 0))


@_hand("3.4", kind="wrong")
def _three_counts(p: Points):
    zero = _vec(0, 0)
    counts = (_mistakes(p, zero, "correct"), _mistakes(p, zero, "mistake"), _mistakes(p, zero, "positive"))
    facts = (("W = 0: mistakes by y W.X < 0 (l. 25), I(-y W.X) (l. 31), sign(0) = +1 (l. 12)", counts),)
    return facts, (
        (WRITTEN, "the three definitions count the same mistakes", len(set(counts)) == 1),
        (CORRECTED, "one definition, $y_iW^TX_i \\le 0$, gives one count", counts[1] == len(p)))


@_hand("3.5", kind="wrong", points=LOSS)
def _loss_monotone(p: Points):
    wa, wb = _vec(-1, 2), _vec(-1, 0)
    def loss2(w):
        s = sum((-y * _dot(w, x) for x, y in p if y * _dot(w, x) < 0), Fraction(0))
        return s * s / _norm2(w)
    facts = (("W_a = (-1, 2): mistakes, loss^2", (_mistakes(p, wa, "correct"), loss2(wa))),
             ("W_b = (-1, 0): mistakes, loss^2", (_mistakes(p, wb, "correct"), loss2(wb))),
             ("W = 0 under y W.X <= 0: mistakes, numerator", (_mistakes(p, _vec(0, 0)), Fraction(0))))
    return facts, (
        (WRITTEN, "fewer mistakes means a smaller distance loss", not (
            _mistakes(p, wb, "correct") < _mistakes(p, wa, "correct") and loss2(wb) > loss2(wa))),
        (CORRECTED, "only: no mistake means loss 0 (and loss 0 does not mean no mistake: $W = 0$)",
         _mistakes(p, _vec(0, 0)) == len(p)))


@_hand("3.6", kind="readings", notation_only=True)
def _distance_sign(p: Points):
    w = _vec(-1, 0)
    wrong = [(x, y) for x, y in p if y * _dot(w, x) < 0]
    first = sum((_dot(w, x) for x, _ in wrong), Fraction(0))
    second = sum((-y * _dot(w, x) for x, y in wrong), Fraction(0))
    facts = (("W = (-1, 0), |W| = 1: misclassified points", len(wrong)),
             ("line 46: sum W.X_i", first), ("line 47: sum -y_i W.X_i", second))
    return facts, (
        (LITERAL, "line 46 equals line 47", first == second),
        (INTENDED, "$\\sum\\lvert W^TX_i\\rvert/\\lVert W\\rVert$ equals line 47",
         sum((abs(_dot(w, x)) for x, _ in wrong), Fraction(0)) == second))


@_hand("3.7", kind="wrong")
def _gradient(p: Points):
    w = _vec(-1, 0)
    def loss(v):
        return sum((-y * _dot(v, x) for x, y in p if y * _dot(v, x) <= 0), Fraction(0))
    wrong = [(x, y) for x, y in p if y * _dot(w, x) <= 0]
    sum_yx = tuple(sum((y * x[i] for x, y in wrong), Fraction(0)) for i in range(len(w)))
    printed = sum_yx                                  # -sum(-y x) = +sum y x
    up, down = _add(w, printed, -1), _add(w, sum_yx, 1)
    facts = (("W = (-1, 0): L(W)", loss(w)), ("printed gradient -sum(-y_i X_i)", printed),
             ("W - printed gradient: L", loss(up)), ("W - (-sum y_i X_i): L", loss(down)))
    return facts, (
        (WRITTEN, "a step against $-\\sum(-y_iX_i)$ lowers $L$", loss(up) < loss(w)),
        (CORRECTED, "a step against $-\\sum y_iX_i$ lowers $L$", loss(down) < loss(w)))


@_hand("3.8", kind="readings", notation_only=True)
def _eta(p: Points):
    runs = {(eta, start): _run(p, w0=start, eta=eta)[1] for eta in (1, 2) for start in ((0, 0), (0, -2))}
    facts = tuple((f"eta = {eta}, W_0 = {start}: updates, final W", (r.updates, r.w))
                  for (eta, start), r in runs.items())
    same = lambda start: runs[(1, start)].updates == runs[(2, start)].updates
    return facts, (
        ("Read as \"η matters\"", "$\\eta = 2$ changes the run from $W_0 = 0$", not same((0, 0))),
        ("Read as \"from $W_0 = 0$ η does not matter\"", "same updates from $0$ ($W$ scaled); "
         "from $(0, -2)$ they differ", same((0, 0)) and not same((0, -2))))


@_hand("3.10", kind="wrong")
def _strict_at_update(p: Points):
    walk, result = _run(p)
    at_updates = tuple(y * _dot(a, x) for a, (_, x, y) in zip(
        walk, (_example_used(p, a, b) for a, b in zip(walk, walk[1:]))))
    facts = (("y W.X at each update", at_updates),)
    return facts, (
        (WRITTEN, "every update has $y^{(t)}(W^{(t)})^TX^{(t)} < 0$", all(v < 0 for v in at_updates)),
        (CORRECTED, "every update has $\\le 0$", all(v <= 0 for v in at_updates)))


@_hand("3.11", kind="readings", notation_only=True)
def _plus_ge(p: Points):
    wopt = _vec(0, 1)
    walk, result = _run(p)
    gamma = _margin(p, wopt)
    facts = (("W_opt = (0, 1), |W_opt| = 1: gamma", gamma), ("t", result.updates),
             ("W_opt.W^(t)", _dot(wopt, result.w)), ("t eta gamma (eta = 1)", result.updates * gamma))
    return facts, (
        (LITERAL, "\"$\\ge\\eta\\gamma+\\ge\\eta\\gamma$\" adds two relations: no value", None),
        (INTENDED, "$W_{opt}^TW^{(t)} \\ge \\eta\\gamma + \\eta\\gamma + \\cdots = t\\eta\\gamma$",
         _dot(wopt, result.w) >= result.updates * gamma))


@_hand("3.12", kind="wrong")
def _strict_bound(p: Points):
    wopt = _vec(0, 1)
    walk, result = _run(p)
    gamma, r2, t = _margin(p, wopt), _r2(p), result.updates
    facts = (("t, R^2, gamma", (t, r2, gamma)), ("(R/gamma)^2", r2 / gamma ** 2),
             ("|W^(1)|^2 and |W^(0)|^2 + R^2", (_norm2(walk[1]), _norm2(walk[0]) + r2)))
    return facts, (
        (WRITTEN, "$t < (R/\\gamma)^2$ and $\\lVert W^{(1)}\\rVert^2 < \\lVert W^{(0)}\\rVert^2 + R^2$",
         t < r2 / gamma ** 2 and _norm2(walk[1]) < _norm2(walk[0]) + r2),
        (CORRECTED, "\"≤\" in both", t <= r2 / gamma ** 2 and _norm2(walk[1]) <= _norm2(walk[0]) + r2))


@_hand("3.13", kind="readings", notation_only=True)
def _superscripts(p: Points):
    walk, _ = _run(p)
    (xm, ym) = p[1]                                    # M: the -1 point, misclassified by W^(t) = w_1
    facts = (("W^(t) = w_1, W^(t+1) = w_2", (walk[1], walk[2])),
             ("(W^(t))^T X_m, (W^(t+1))^T X_m", (_dot(walk[1], xm), _dot(walk[2], xm))))
    return facts, (
        (LITERAL, "$(W^{(t)})^TX_m < 0$ for the point $M$ that $W^{(t)}$ misclassifies",
         _dot(walk[1], xm) < 0),
        (INTENDED, "$(W^{(t+1)})^TX_m < 0$ after the update", _dot(walk[2], xm) < 0))


@_hand("3.14", kind="wrong")
def _zero_minimiser(p: Points):
    zero, wf = _vec(0, 0), _vec(0, 1)
    loss = lambda v: sum((-y * _dot(v, x) for x, y in p if y * _dot(v, x) <= 0), Fraction(0))
    facts = (("L(0), mistakes of 0 (y W.X <= 0)", (loss(zero), _mistakes(p, zero))),
             ("L((0, 1)), its mistakes", (loss(wf), _mistakes(p, wf))),
             ("L((0, -1)), its mistakes", (loss(_vec(0, -1)), _mistakes(p, _vec(0, -1)))))
    return facts, (
        (WRITTEN, "minimising $L$ (without $\\lVert W\\rVert$) gives a classifier: every minimiser "
         "makes no mistake", _mistakes(p, zero) == 0),
        (CORRECTED, "$L(0) = 0$ is minimal too; the separator comes from the convergence proof",
         loss(zero) == 0 == loss(wf) and _mistakes(p, wf) == 0))


# ----------------------------------------------------------------------------- note 004
@_hand("4.2", kind="readings", notation_only=True, points=APART)
def _rounds(p: Points):
    _, result = _run(p, max_updates=200)
    facts = (("updates t", result.updates), ("passes over the data (epochs)", result.epochs))
    return facts, (
        ("Read as passes (轮)", "$t$ counts passes", result.updates == result.epochs),
        ("Read as updates", "$t$ counts updates: $w_t$ is the vector after $t$ corrections",
         len(result.steps) == result.updates))


@_hand("4.4", kind="wrong")
def _inner_as_closeness(p: Points):
    wf = _vec(2, 3)
    walk, _, cos2, inner, _ = _angle_facts(p, wf)
    facts = (("w_f = (2, 3): w_f.w_1, w_f.w_2", inner[:2]), ("cos^2(w_f, w_1), cos^2(w_f, w_2)", cos2[:2]))
    return facts, (
        (WRITTEN, "the larger inner product of $w_2$ means it is closer to $w_f$",
         inner[1] > inner[0] and cos2[1] > cos2[0]),
        (CORRECTED, "the cosine, which measures closeness in direction, says $w_2$ is farther",
         inner[1] > inner[0] and cos2[1] < cos2[0]))


@_hand("4.5", kind="wrong")
def _r_not_distance(p: Points):
    wf = _vec(0, 1)
    walk, _ = _run(p)
    growth = tuple(_norm2(b) - _norm2(a) for a, b in zip(walk, walk[1:]))
    dist2 = max(_dot(wf, x) ** 2 / _norm2(wf[1:]) for x, _ in p)   # line w_f.x = 0 in the plane
    steps = tuple(_norm2(_add(b, a, -1)) for a, b in zip(walk, walk[1:]))
    facts = (("increase of |w|^2 at each update", growth),
             ("squared length of each update step y x", steps),
             ("squared distance of the farthest point to the line w_f.x = 0", dist2), ("R^2", _r2(p)))
    return facts, (
        (WRITTEN, "each update (its squared length, and the increase of $\\lVert w\\rVert^2$) is at most "
         "the squared distance of the farthest point to the separating line",
         all(g <= dist2 for g in growth) and all(v <= dist2 for v in steps)),
        (CORRECTED, "each update adds at most $R^2 = \\max_n\\lVert x_n\\rVert^2$",
         all(g <= _r2(p) for g in growth)))


@_hand("4.6", kind="readings", notation_only=True)
def _wtf(p: Points):
    wf = _vec(0, 1)
    sgn = lambda s: (s > 0) - (s < 0)
    facts = (("w_f = (0, 1): sign(w_f.x_n) != y_n", tuple(sgn(_dot(wf, x)) != y for x, y in p)),
             ("w_0 = 0: y_n w_0.x_n <= 0", tuple(y * _dot(_vec(0, 0), x) <= 0 for x, y in p)))
    return facts, (
        (LITERAL, "$\\text{sign}(w_f^Tx_{n}) \\ne y_n$ finds a mistake of $w_0 = 0$",
         any(facts[0][1])),
        (INTENDED, "$\\text{sign}(w_t^Tx_n) \\ne y_n$, i.e. $y_nw_t^Tx_n \\le 0$, finds both", all(facts[1][1])))


@_hand("4.7", kind="readings", notation_only=True, points=APART)
def _max_over_n(p: Points):
    walk, _ = _run(p, max_updates=2)
    n, x, y = _example_used(p, walk[1], walk[2])
    term = _norm2(tuple(y * v for v in x))
    facts = (("n(1), the example of the second update", n), ("|y_{n(1)} x_{n(1)}|^2", term),
             ("max_n of that term (no n in it)", term), ("max_n |y_n x_n|^2 = R^2", _r2(p)))
    return facts, (
        (LITERAL, "$\\max_n\\lVert y_{n(t)}x_{n(t)}\\rVert^2$ introduces $R^2$", term == _r2(p)),
        (INTENDED, "$\\max_n\\lVert y_nx_n\\rVert^2 = R^2$ bounds the term",
         term <= _r2(p)))


@_hand("4.8", kind="wrong")
def _inner_le_1(p: Points):
    wf = _vec(0, 1)
    walk, result = _run(p)
    w = walk[2]
    facts = (("w_f = (0, 1), w_2", (wf, w)), ("w_f.w_2", _dot(wf, w)),
             ("(w_f.w_2)^2 / (|w_f|^2 |w_2|^2)", _dot(wf, w) ** 2 / (_norm2(wf) * _norm2(w))))
    return facts, (
        (WRITTEN, "$w_f^Tw_{t+1} \\le 1$", _dot(wf, w) <= 1),
        (CORRECTED, "the normalised inner product is at most 1", facts[2][1] <= 1))


# ----------------------------------------------------------------------------- style appendix
@_hand("1.3", kind="readings", notation_only=True)
def _w0_two_meanings(p: Points):
    walk, _ = _run(p)
    facts = (("the initial vector (w_0 of line 74)", walk[0]), ("w_1", walk[1]),
             ("the bias component of w_1 (w_0 of line 23)", walk[1][0]))
    return facts, (
        ("Read as the bias component (line 23)", "\"$w_0 = 0$\" holds for $\\mathbf w_1$", walk[1][0] == 0),
        ("Read as the initial vector (line 74)", "\"$\\mathbf W_0 = 0$\" (line 141) holds",
         all(v == 0 for v in walk[0])))


@_hand("1.18", "2.13", kind="readings", notation_only=True)
def _fixed_dimension(p: Points):
    # d = 1: every essentially different classifier is a threshold between, left or right of the
    # points, in either orientation: 2 (N + 1) candidates.
    xs = sorted({x[1] for x, _ in p})
    cuts = [xs[0] - 1] + [(a + b) / 2 for a, b in zip(xs, xs[1:])] + [xs[-1] + 1]
    candidates = [(-c * o, o) for c in cuts for o in (1, -1)]
    least = min(_mistakes(p, _vec(*w)) for w in candidates)
    best = min(candidates, key=lambda w: _mistakes(p, _vec(*w)))
    facts = (("candidate classifiers, d = 1: 2 (N + 1)", len(candidates)),
             ("a best candidate (w_0, w_1)", best), ("its mistakes", least))
    return facts, (
        ("Read as \"hard for every fixed dimension\"", "enumerating the candidates does not reach "
         "the least possible number of mistakes, 0", least > 0),
        ("Read as \"NP-hard in general\"", "for $d = 1$ the candidates reach it", least == 0))


@_hand("1.21", kind="readings", notation_only=True, points=PLANE)
def _constant(p: Points):
    const, line = _vec(-1, 0, 0), _vec(0, 1, 0)
    facts = (("w = (-1, 0, 0): scores, mistakes", (_scores(p, const), _mistakes(p, const))),
             ("w = (0, 1, 0): scores, mistakes", (_scores(p, line), _mistakes(p, line))))
    has_line = lambda w: any(v != 0 for v in w[1:])
    return facts, (
        ("Read for every $\\mathbf w$", "$w_0 + w_1x_1 + w_2x_2 = 0$ is a line for $(-1, 0, 0)$",
         has_line(const)),
        ("Read for $(w_1, w_2) \\ne (0, 0)$", "it is a line for $(0, 1, 0)$, with the points on "
         "its two sides", has_line(line) and _scores(p, line)[0] * _scores(p, line)[1] < 0))


@_hand("4.1", kind="readings", notation_only=True, points=(_pt((1,), 1), _pt((-1,), -1)))
def _threshold_into_x(p: Points):
    w1, theta = Fraction(2), Fraction(3)
    h = tuple(w1 * x[0] - theta for x, _ in p)
    folded = tuple(_dot((-theta, w1), (1,) + x) for x, _ in p)
    facts = (("w_1 x - threshold (w_1 = 2, threshold = 3)", h),
             ("w' = (-threshold, w_1) on x' = (1, x)", folded))
    return facts, (
        ("Read literally: the threshold goes into $x$", "$x_0$ holds the threshold, and "
         "$x_0 = +1$", theta == 1),
        ("Read as extending $x$ by $x_0 = +1$", "the threshold becomes $w_0$ and the scores agree",
         h == folded))


# ----------------------------------------------------------------------------- rendering
def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_show(v) for v in value) + ")"
    return str(value)


def _point_line(points: Points) -> str:
    parts = [f"$\\mathbf x_{n} = {_show(x)}$, $y_{n} = {'+1' if y > 0 else '−1'}$"
             for n, (x, y) in enumerate(points, start=1)]
    return "; ".join(parts)


def render(calc: HandCalculation) -> str:
    """The Markdown box the audit page shows for ``calc`` (fails if it does not hold).

    >>> print(render(compute("3.12")).splitlines()[0])
    !!! example "By hand: two points, computed at build time"
    """
    if not calc.holds:
        raise HandCalculationFailed(
            f"the hand calculation of finding {calc.finding} no longer shows what it says "
            f"({calc.kind}: {[verdict for _, _, verdict in calc.statements]})")
    lines = ['!!! example "By hand: two points, computed at build time"', ""]
    if calc.notation_only:
        lines += ["    *Notation only:* the two readings, on the same two points.", ""]
    elif calc.kind == "withdrawn":
        lines += ["    *Withdrawn:* the statement as written holds on these points.", ""]
    lines += [f"    Points: {_point_line(calc.points)}.", "",
              "    | quantity | exact value |", "    |---|---|"]
    for label, value in calc.facts:
        lines.append(f"    | {label.replace('|', chr(92) + '|')} | `{_show(value)}` |")
    lines.append("")
    words = {True: "true", False: "false", None: "not a statement"}
    for role, text, verdict in calc.statements:
        lines.append(f"    - **{role}:** {text} — **{words[verdict]}** here.")
    return "\n".join(lines) + "\n"


def expand_hand_markers(markdown: str) -> str:
    """Replace every ``<!-- hand-calculation: N.M -->`` by the rendered calculation N.M.

    >>> "exact value" in expand_hand_markers("<!-- hand-calculation: 1.9 -->")
    True
    """
    return MARKER.sub(lambda match: render(compute(match.group("finding"))), markdown)
