"""Runnable evidence for the audit of the five lecture notes (``docs/audit.md``).

Every finding of the audit page that is not settled by a ```` ```claim ```` block is backed by
one of the functions below.  Each one loads a tiny data file from ``docs/data/audit/`` with the
real parser, runs the real toolkit (:func:`pla.run`, :func:`pla.pocket.pocket`, the kernel's
certificate checks) in exact arithmetic and returns an :class:`Evidence`: the exact numbers the
page shows and whether they establish what the page says (``holds``).  The docs build inserts
them where the page has a marker ``<!-- audit-evidence: NAME -->`` (see
:func:`expand_audit_markers`, wired by ``docs/hooks/audit.py``); a computation that no longer
shows what the page says raises :class:`EvidenceFailed`, so the build stops instead of
publishing a stale claim.

>>> ev = compute("strict-rule")
>>> ev.holds, ev.value("updates, mistake iff y w.x < 0"), ev.value("updates, mistake iff y w.x <= 0")
(True, 0, 2)
>>> sorted(EVIDENCE)[:3]
['angle-not-monotone', 'angle-with-wf', 'bound-212-square']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import pla
from verify import kernel

__all__ = [
    "DATA_DIR", "EVIDENCE", "Evidence", "EvidenceFailed", "compute", "render",
    "expand_audit_markers", "MARKER",
]

#: Where the audit's data files live (``docs/data/audit`` of the repository).
DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "audit"
#: ``<!-- audit-evidence: NAME -->`` on the audit page is replaced by the rendered evidence NAME.
MARKER = re.compile(r"<!--\s*audit-evidence:\s*(?P<name>[\w-]+)\s*-->")

Vector = Sequence[Fraction]


class EvidenceFailed(RuntimeError):
    """A computation no longer shows what the audit page says, or a marker names no evidence."""


@dataclass(frozen=True)
class Evidence:
    """What one exact computation established.

    ``shows``: one sentence (Markdown) saying what the numbers show; ``command``: how to see
    it with the ``pla`` command line (may be empty); ``facts``: (label, exact value) pairs in
    the order the page shows them; ``holds``: whether the exact values establish ``shows``.
    """

    name: str
    shows: str
    facts: tuple[tuple[str, Any], ...]
    holds: bool
    command: str = ""

    def value(self, label: str) -> Any:
        """The exact value recorded under ``label``.

        >>> Evidence("x", "", (("a", 1),), True).value("a")
        1
        """
        for key, value in self.facts:
            if key == label:
                return value
        raise KeyError(f"evidence {self.name!r} has no fact {label!r}")


# ----------------------------------------------------------------------------- exact helpers
def _dot(a: Iterable[Any], b: Iterable[Any]) -> Fraction:
    return sum((Fraction(u) * Fraction(v) for u, v in zip(a, b)), Fraction(0))


def _norm2(a: Vector) -> Fraction:
    return _dot(a, a)


def _l1(a: Vector) -> Fraction:
    return sum((abs(Fraction(v)) for v in a), Fraction(0))


def _vec(values: Iterable[Any]) -> tuple[Fraction, ...]:
    return tuple(Fraction(v) for v in values)


def _margin(ds: pla.Dataset, w: Vector) -> Fraction:
    """min_n y_n w·x_n (not normalised)."""
    return min(y * _dot(w, x) for x, y in zip(ds.X, ds.labels))


def _radius2(ds: pla.Dataset) -> Fraction:
    return kernel.squared_radius(ds.rows, ds.scale)


def _signed_cos2(a: Vector, b: Vector) -> Fraction:
    """sign(a·b)·cos²(a, b): exact, and ordered like the cosine itself."""
    d = _dot(a, b)
    value = d * d / (_norm2(a) * _norm2(b))
    return value if d >= 0 else -value


def _walk(result: pla.Result) -> list[tuple[Fraction, ...]]:
    """w_0, w_1, ..., w_T of a run (its steps must have been kept)."""
    if not result.steps:
        return [result.w]
    return [result.steps[0].w_before] + [s.w_after for s in result.steps]


def _sign(score: Fraction, zero_sign: int) -> int:
    if score > 0:
        return 1
    if score < 0:
        return -1
    return zero_sign


def _load(name: str, data_dir: Path, bias: bool = True) -> pla.Dataset:
    return pla.load(str(Path(data_dir) / f"{name}.dat"), bias=bias)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_show(v) for v in value) + ")"
    return str(value)


# ----------------------------------------------------------------------------- the registry
Computation = Callable[[Path], Evidence]
EVIDENCE: dict[str, Computation] = {}


def _evidence(name: str) -> Callable[[Computation], Computation]:
    def register(function: Computation) -> Computation:
        if name in EVIDENCE:
            raise ValueError(f"evidence {name!r} defined twice")
        EVIDENCE[name] = function
        return function
    return register


def compute(name: str, data_dir: Path | str = DATA_DIR) -> Evidence:
    """Compute evidence ``name`` from the data files in ``data_dir``.

    >>> compute("no-such-thing")
    Traceback (most recent call last):
    ...
    sitebuild.audit_evidence.EvidenceFailed: no audit evidence named 'no-such-thing'
    """
    if name not in EVIDENCE:
        raise EvidenceFailed(f"no audit evidence named {name!r}")
    return EVIDENCE[name](Path(data_dir))


# ============================================================================ the mistake rule
@_evidence("strict-rule")
def strict_rule(data_dir: Path) -> Evidence:
    """The strict rule "mistake iff y w·x < 0" never moves from w₀ = 0 (notes 000, 003)."""
    ds = _load("tight", data_dir)
    strict = pla.run(ds, zero="correct")
    usual = pla.run(ds, zero="mistake")
    facts = (
        ("updates, mistake iff y w.x < 0", strict.updates),
        ("its final w", strict.w),
        ("min_n y_n w.x_n of that w", _margin(ds, strict.w)),
        ("updates, mistake iff y w.x <= 0", usual.updates),
        ("its final w", usual.w),
        ("min_n y_n w.x_n of that w", _margin(ds, usual.w)),
    )
    holds = (strict.halted and strict.updates == 0 and _margin(ds, strict.w) <= 0
             and usual.halted and _margin(ds, usual.w) > 0)
    return Evidence("strict-rule", "With the strict rule PLA stops at once at w = 0, which "
                    "separates nothing; with y w·x ≤ 0 it finds a separator.", facts, holds,
                    "pla run tight.dat --zero correct   # versus --zero mistake")


@_evidence("sign-iff")
def sign_iff(data_dir: Path) -> Evidence:
    """sign(w·x) ≠ y ⟺ y w·x ≤ 0 fails when sign(0) is ±1 (notes 001, 002, 004)."""
    ds = _load("tight", data_dir)
    positive = pla.run(ds, zero="positive")
    usual = pla.run(ds, zero="mistake")
    lhs = pla.is_mistake(Fraction(0), 1, "positive")
    facts = (
        ("x = (1, 1), y = +1, w = 0: sign(w.x) != y with sign(0) = +1", lhs),
        ("y w.x <= 0 there", 1 * 0 <= 0),
        ("x = (1, -1), y = -1, w = 0: sign(w.x) != y with sign(0) = -1",
         pla.is_mistake(Fraction(0), -1, "negative")),
        ("updates with sign(0) = +1", positive.updates),
        ("updates with mistake iff y w.x <= 0", usual.updates),
        ("a zero score with no sign +-1 ('always update'): a mistake for y = +1 and y = -1",
         (pla.is_mistake(Fraction(0), 1, "mistake"), pla.is_mistake(Fraction(0), -1, "mistake"))),
    )
    holds = ((not lhs) and positive.updates != usual.updates
             and pla.is_mistake(Fraction(0), 1, "mistake") and pla.is_mistake(Fraction(0), -1, "mistake"))
    return Evidence("sign-iff", "Under sign(0) = +1 (or −1) a point with w·x = 0 can be "
                    "classified correctly although y w·x ≤ 0, and the runs differ; when a zero "
                    "score is always a mistake the equivalence holds.", facts, holds,
                    "pla run tight.dat --zero positive   # versus --zero mistake")


@_evidence("sign0-conventions")
def sign0_conventions(data_dir: Path) -> Evidence:
    """The four sign(0) conventions give four different runs on the same two points."""
    ds = _load("tight", data_dir)
    facts: list[tuple[str, Any]] = []
    outcomes = set()
    for zero, label in (("mistake", "y w.x <= 0 is a mistake"), ("positive", "sign(0) = +1"),
                        ("negative", "sign(0) = -1"), ("correct", "only y w.x < 0 is a mistake")):
        r = pla.run(ds, zero=zero)
        facts.append((f"{label}: updates, final w", (r.updates, r.w)))
        outcomes.add((r.updates, r.w))
    return Evidence("sign0-conventions", "The same data, four conventions for w·x = 0, four "
                    "different runs.", tuple(facts), len(outcomes) == 4,
                    "pla run tight.dat --zero {mistake,positive,negative,correct}")


@_evidence("sign-plus-strict")
def sign_plus_strict(data_dir: Path) -> Evidence:
    """Note 003: with sign(0) = +1 a negative point with W·X = 0 is misclassified, yet y W·X = 0."""
    ds = _load("tight", data_dir)
    r = pla.run(ds, zero="positive")
    zero_steps = [s for s in r.steps if s.score == 0 and s.y == -1]
    facts = (
        ("updates with sign(0) = +1", r.updates),
        ("first update: row (1-based), y, W.X", (r.steps[0].index + 1, r.steps[0].y, r.steps[0].score)),
        ("is that point misclassified by sign(0) = +1", pla.is_mistake(r.steps[0].score,
                                                                       r.steps[0].y, "positive")),
        ("is y W.X < 0 there", r.steps[0].y * r.steps[0].score < 0),
    )
    holds = bool(zero_steps) and zero_steps[0] is r.steps[0]
    return Evidence("sign-plus-strict", "The update that sign(0) = +1 requires is made on a "
                    "point with y W·X = 0, which the rule y W·X < 0 does not call a mistake.",
                    facts, holds, "pla run tight.dat --zero positive --steps")


@_evidence("loss-three-counts")
def loss_three_counts(data_dir: Path) -> Evidence:
    """Note 003 counts the mistakes of W = 0 in three different ways."""
    ds = _load("tight", data_dir)
    w = (Fraction(0),) * ds.dim
    by_sign = sum(1 for x, y in zip(ds.X, ds.labels) if _sign(_dot(w, x), 1) != y)
    strict = sum(1 for x, y in zip(ds.X, ds.labels) if y * _dot(w, x) < 0)
    indicator = sum(1 for x, y in zip(ds.X, ds.labels) if -y * _dot(w, x) >= 0)
    facts = (
        ("mistakes of W = 0 by sign with sign(0) = +1", by_sign),
        ("mistakes of W = 0 by y W.X < 0", strict),
        ("L(0) = sum of I(-y W.X) with I(0) = 1", indicator),
    )
    return Evidence("loss-three-counts", "Three definitions in one note, three answers for "
                    "the same W.", facts, len({by_sign, strict, indicator}) == 3)


@_evidence("sign-alone")
def sign_alone(data_dir: Path) -> Evidence:
    """Note 001 (2-4): sign(w·x) alone does not say whether a point is a mistake."""
    ds = _load("textbook", data_dir)
    w = _vec((1, 3, 3))  # w_1 of the walk-through
    rows = [(n + 1, _sign(_dot(w, x), 1), y, pla.is_mistake(_dot(w, x), y))
            for n, (x, y) in enumerate(zip(ds.X, ds.labels))]
    facts = tuple((f"row {n}: sign(w.x), y, mistake", (s, y, m)) for n, s, y, m in rows)
    holds = len({s for _, s, _, _ in rows}) == 1 and len({m for *_, m in rows}) == 2
    return Evidence("sign-alone", "At w = (1, 3, 3) every row has sign(w·x) = +1, but only the "
                    "row labelled −1 is a mistake: the condition needs ≠ y.", facts, holds)


# ============================================================================ geometry of PLA
@_evidence("one-update-not-enough")
def one_update_not_enough(data_dir: Path) -> Evidence:
    """After an update the same point can still be a mistake (notes 001, 002)."""
    ds = _load("textbook", data_dir)
    r = pla.run(ds, order="first")
    repeat = next(((a, b) for a, b in zip(r.steps, r.steps[1:]) if a.index == b.index), None)
    if repeat is None:
        return Evidence("one-update-not-enough", "", (), False)
    a, b = repeat
    facts = (
        ("rows updated, in order (1-based)", tuple(s.index + 1 for s in r.steps)),
        ("update t, row, y", (a.t, a.index + 1, a.y)),
        ("y w_t.x before the update", a.y * a.score),
        ("y w_(t+1).x after the update", b.y * b.score),
    )
    return Evidence("one-update-not-enough", "The update on this row leaves it misclassified "
                    "(y w·x ≤ 0 after it): PLA must correct the same point again.", facts,
                    b.y * b.score <= 0, "pla run textbook.dat --order first --steps")


@_evidence("misclassified-sign")
def misclassified_sign(data_dir: Path) -> Evidence:
    """Note 003: at an update on a −1 point W·X ≥ 0 (angle ≤ 90°), on a +1 point W·X ≤ 0."""
    ds = _load("textbook", data_dir)
    r = pla.run(ds, order="first")
    neg = tuple(s.score for s in r.steps if s.y < 0)
    pos = tuple(s.score for s in r.steps if s.y > 0)
    facts = (("W.X at the updates on the -1 point", neg), ("W.X at the updates on +1 points", pos))
    holds = bool(neg) and bool(pos) and all(s >= 0 for s in neg) and all(s <= 0 for s in pos)
    return Evidence("misclassified-sign", "Every update on a negative point happens with "
                    "W·X ≥ 0, every update on a positive point with W·X ≤ 0.", facts, holds,
                    "pla run textbook.dat --order first --steps")


@_evidence("angle-with-wf")
def angle_with_wf(data_dir: Path) -> Evidence:
    """Note 002: it is y_n x_n, not x_n, that makes an angle below 90° with w_f."""
    ds = _load("textbook", data_dir)
    wf = _vec((-3, 1, 1))
    facts = tuple((f"row {n + 1}: y, w_f.x, y w_f.x", (y, _dot(wf, x), y * _dot(wf, x)))
                  for n, (x, y) in enumerate(zip(ds.X, ds.labels)))
    holds = (min(y * _dot(wf, x) for x, y in zip(ds.X, ds.labels)) > 0
             and any(_dot(wf, x) < 0 for x in ds.X))
    return Evidence("angle-with-wf", "w_f = (−3, 1, 1) separates the data, yet w_f·x₃ < 0: x₃ "
                    "makes an angle of more than 90° with w_f; y₃x₃ makes less.", facts, holds)


@_evidence("angle-not-monotone")
def angle_not_monotone(data_dir: Path) -> Evidence:
    """w_f·w_t always grows, but the angle between w_t and w_f does not always shrink."""
    ds = _load("textbook", data_dir)
    wf = _vec((-5, 2, 1))
    r = pla.run(ds, order="first")
    walk = _walk(r)[1:]
    inner = tuple(_dot(wf, w) for w in walk)
    cos2 = tuple(_signed_cos2(wf, w) for w in walk)
    drops = [t for t in range(1, len(cos2)) if cos2[t] < cos2[t - 1]]
    facts = (
        ("w_f", wf),
        ("min_n y_n w_f.x_n", _margin(ds, wf)),
        ("w_f.w_t, t = 1..T", inner),
        ("cos^2(w_f, w_t), t = 1..T", cos2),
        ("updates after which the angle grows", tuple(t + 1 for t in drops)),
    )
    holds = (_margin(ds, wf) > 0 and all(b > a for a, b in zip(inner, inner[1:]))
             and bool(drops))
    return Evidence("angle-not-monotone", "The inner product w_f·w_t grows at every update, "
                    "but cos²(w_f, w_t) falls at some updates: the angle is not monotone.",
                    facts, holds, "pla run textbook.dat --order first --steps")


@_evidence("not-converge-to-wf")
def not_converge_to_wf(data_dir: Path) -> Evidence:
    """PLA halts at one separator; it need not point along a given perfect w_f."""
    ds = _load("textbook", data_dir)
    r = pla.run(ds, order="first")
    a, b = _vec((-3, 1, 1)), _vec((-5, 2, 1))
    facts = (
        ("final w_T", r.w),
        ("w_f = (-3, 1, 1): min_n y_n w_f.x_n, cos^2(w_f, w_T)", (_margin(ds, a), _signed_cos2(a, r.w))),
        ("w_f = (-5, 2, 1): min_n y_n w_f.x_n, cos^2(w_f, w_T)", (_margin(ds, b), _signed_cos2(b, r.w))),
    )
    holds = (r.halted and _margin(ds, a) > 0 and _margin(ds, b) > 0
             and _signed_cos2(b, r.w) < 1)
    return Evidence("not-converge-to-wf", "Both vectors separate the data perfectly; PLA's "
                    "final w_T is parallel to the first and not to the second.", facts, holds,
                    "pla run textbook.dat --order first")


@_evidence("norm-growth")
def norm_growth(data_dir: Path) -> Evidence:
    """It is ‖w_t‖ that grows (slowly); ‖w_f‖ is fixed (note 000's 'length of w_f')."""
    ds = _load("textbook", data_dir)
    r = pla.run(ds, order="first")
    walk = _walk(r)
    R2 = _radius2(ds)
    norms = tuple(_norm2(w) for w in walk)
    facts = (
        ("||w_t||^2, t = 0..T", norms),
        ("t R^2, t = 0..T", tuple(t * R2 for t in range(len(walk)))),
        ("||w_f||^2 for w_f = (-3, 1, 1), at every t", _norm2(_vec((-3, 1, 1)))),
    )
    holds = (all(n <= t * R2 for t, n in enumerate(norms)) and len(set(norms)) > 1)
    return Evidence("norm-growth", "‖w_t‖² changes from update to update and stays below tR²; "
                    "‖w_f‖ never changes.", facts, holds)


@_evidence("zero-scores")
def zero_scores(data_dir: Path) -> Evidence:
    """Note 002: w_t·x = 0 is not rare after w₀ on integer data."""
    ds = _load("tight", data_dir)
    r = pla.run(ds)
    later = [s for s in r.steps if s.t >= 1 and s.score == 0]
    facts = (
        ("updates", r.updates),
        ("(t, row, w_t.x) of the updates", tuple((s.t, s.index + 1, s.score) for s in r.steps)),
        ("updates with t >= 1 made on a zero score", len(later)),
    )
    shown = (f"Update t = {later[0].t} is made on row {later[0].index + 1}, whose score "
             f"w_t·x is 0." if later else "")
    return Evidence("zero-scores", shown, facts, bool(later), "pla run tight.dat --steps")


# ============================================================================ the proof's steps
@_evidence("inner-product-equality")
def inner_product_equality(data_dir: Path) -> Evidence:
    """w_f·w_{t+1} = w_f·w_t + y w_f·x is an equality; note 001's W_{T−2} is wrong."""
    ds = _load("textbook", data_dir)
    wf = _vec((-5, 2, 1))
    r = pla.run(ds, order="first")
    walk = _walk(r)
    gaps = tuple(_dot(wf, s.w_after) - _dot(wf, s.w_before) - s.y * _dot(wf, s.x) for s in r.steps)
    T, last = len(walk) - 1, r.steps[-1]
    note = _dot(wf, walk[T - 2]) + last.y * _dot(wf, last.x)
    facts = (
        ("w_f.w_(t+1) - w_f.w_t - y w_f.x at every update", gaps),
        ("T, w_f.w_T", (T, _dot(wf, walk[T]))),
        ("w_f.w_(T-2) + y w_f.x_(n(T-1)) (2-7 as printed)", note),
    )
    holds = all(g == 0 for g in gaps) and note != _dot(wf, walk[T])
    return Evidence("inner-product-equality", "The step is an exact equality at every update; "
                    "with W_{T−2} in place of W_{T−1} it is false.", facts, holds)


@_evidence("l1-norm")
def l1_norm(data_dir: Path) -> Evidence:
    """Note 001 says L1 norm; the expansion 2-8 holds for the Euclidean norm only."""
    ds = _load("textbook", data_dir)
    r = pla.run(ds, order="first")
    s = r.steps[1]
    l1_lhs = _l1(s.w_after) ** 2
    l1_rhs = _l1(s.w_before) ** 2 + _l1(s.x) ** 2 + 2 * s.y * s.score
    l2_gaps = tuple(_norm2(u.w_after) - _norm2(u.w_before) - _norm2(u.x) - 2 * u.y * u.score
                    for u in r.steps)
    facts = (
        ("update t = 1: w_1, x, w_2", (s.w_before, s.x, s.w_after)),
        ("L1: ||w_2||_1^2", l1_lhs),
        ("L1: ||w_1||_1^2 + ||x||_1^2 + 2 y w_1.x", l1_rhs),
        ("L2: ||w_(t+1)||^2 - (||w_t||^2 + ||x||^2 + 2 y w_t.x), every update", l2_gaps),
    )
    return Evidence("l1-norm", "With the L1 norm the expansion of 2-8 is false; with the "
                    "Euclidean norm it is an identity at every update.", facts,
                    l1_lhs != l1_rhs and all(g == 0 for g in l2_gaps))


@_evidence("norm-squared-28")
def norm_squared_28(data_dir: Path) -> Evidence:
    """Note 001 (2-8) equates ‖W_T‖ (not squared) with a sum of squares."""
    ds = _load("textbook", data_dir)
    s = pla.run(ds, order="first").steps[0]
    rhs = _norm2(s.w_before) + _norm2(s.x) + 2 * s.y * s.score
    facts = (
        ("w_1", s.w_after),
        ("||w_0||^2 + ||x||^2 + 2 y w_0.x", rhs),
        ("||w_1||^2", _norm2(s.w_after)),
        ("(that right-hand side)^2", rhs * rhs),
    )
    return Evidence("norm-squared-28", "The right-hand side equals ‖w₁‖², so it cannot equal "
                    "‖w₁‖ (its square would have to be ‖w₁‖² too).", facts,
                    rhs == _norm2(s.w_after) and rhs * rhs != _norm2(s.w_after))


@_evidence("margin-ge-zero")
def margin_ge_zero(data_dir: Path) -> Evidence:
    """Note 001: 'y w_f·x ≥ 0' admits w_f = 0 on data PLA never finishes."""
    ds = _load("pocket", data_dir)
    zero = (Fraction(0),) * ds.dim
    r = pla.run(ds, max_updates=200, keep_steps=False)
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, [1, 0, 0, 1])
    facts = (
        ("min_n y_n w.x_n for w = 0", _margin(ds, zero)),
        ("Gordan certificate lambda (checked by the kernel)", (1, 0, 0, 1)),
        ("PLA after 200 updates: halted", r.halted),
    )
    return Evidence("margin-ge-zero", "w = 0 satisfies y_n w·x_n ≥ 0 for every n on data that "
                    "no vector separates; PLA never stops there.", facts,
                    _margin(ds, zero) >= 0 and not r.halted,
                    "pla run pocket.dat --max-updates 200   # exit code 3")


@_evidence("bound-212-square")
def bound_212_square(data_dir: Path) -> Evidence:
    """Note 001 (2-12): without the square the bound is violated by scaled data."""
    ds = _load("scaled", data_dir, bias=False)
    wf = _vec((0, 1))
    r = pla.run(ds)
    R2 = _radius2(ds)
    rho = _margin(ds, wf)  # ‖w_f‖ = 1, so this is the normalised margin
    facts = (
        ("updates T", r.updates),
        ("R^2", R2),
        ("normalised margin of w_f = (0, 1)", rho),
        ("2-12 as printed: R^2 / margin", R2 / rho),
        ("corrected: R^2 / margin^2", R2 / rho ** 2),
    )
    holds = _norm2(wf) == 1 and r.halted and r.updates > R2 / rho and r.updates <= R2 / rho ** 2
    return Evidence("bound-212-square", "PLA makes more updates than the printed bound allows; "
                    "the squared margin gives a bound that holds.", facts, holds,
                    "pla run scaled.dat --no-bias")


@_evidence("rho-214")
def rho_214(data_dir: Path) -> Evidence:
    """Note 001 (2-14): ρ without yₙ and squared does not measure a margin."""
    ds = _load("nobias", data_dir)
    wf, wrong = _vec((5, -4)), _vec((-5, 4))

    def note_rho(w: Vector) -> Fraction:
        m = min(_dot(w, x) for x in ds.X)
        return m * m / _norm2(w)

    gamma2 = _margin(ds, wf) ** 2 / _norm2(wf)
    facts = (
        ("w_f = (5, -4): min_n y_n w_f.x_n", _margin(ds, wf)),
        ("its squared normalised margin", gamma2),
        ("its rho as printed in 2-14", note_rho(wf)),
        ("-w_f: min_n y_n w.x_n (every point wrong)", _margin(ds, wrong)),
        ("rho of -w_f as printed", note_rho(wrong)),
    )
    holds = note_rho(wf) != gamma2 and _margin(ds, wrong) < 0 and note_rho(wrong) > 0
    return Evidence("rho-214", f"The printed ρ is {note_rho(wf) / gamma2} times the squared "
                    "margin for a separator, and positive for a vector that gets every point "
                    "wrong.", facts, holds)


@_evidence("strict-lt-attained")
def strict_lt_attained(data_dir: Path) -> Evidence:
    """Note 003: every '<' of the norm chain and of the final bound is attained with equality."""
    ds = _load("tight", data_dir)
    wopt = _vec((0, 1))
    r = pla.run(ds)
    walk = _walk(r)
    R2 = _radius2(ds)
    gamma = _margin(ds, wopt)
    T = r.updates
    facts = (
        ("||W_opt||^2, gamma, R^2", (_norm2(wopt), gamma, R2)),
        ("||W^(t)||^2, t = 0..T", tuple(_norm2(w) for w in walk)),
        ("t R^2, t = 0..T", tuple(t * R2 for t in range(T + 1))),
        ("W_opt.W^(T) and T gamma", (_dot(wopt, walk[T]), T * gamma)),
        ("T and (R/gamma)^2", (T, R2 / gamma ** 2)),
    )
    holds = (_norm2(wopt) == 1 and gamma > 0 and r.halted
             and all(_norm2(w) == t * R2 for t, w in enumerate(walk))
             and T == R2 / gamma ** 2 and _dot(wopt, walk[T]) == T * gamma)
    return Evidence("strict-lt-attained", "‖W^{(t)}‖² = tR² at every t and T = (R/γ)²: "
                    "equality, so '<' is false and '≤' is the best possible.", facts, holds,
                    "pla run tight.dat --steps")


@_evidence("w0-bound")
def w0_bound(data_dir: Path) -> Evidence:
    """A nonzero w₀ breaks the bound proved for w₀ = 0 (notes 001, 003, 004)."""
    ds = _load("tight", data_dir)
    wf = _vec((0, 1))
    bound = _radius2(ds) * _norm2(wf) / _margin(ds, wf) ** 2
    from_zero = pla.run(ds)
    from_w0 = pla.run(ds, w0=(5, 0))
    facts = (
        ("bound R^2 ||w_f||^2 / rho^2 for w_f = (0, 1)", bound),
        ("updates from w0 = 0", from_zero.updates),
        ("updates from w0 = (5, 0)", from_w0.updates),
    )
    holds = from_zero.updates <= bound < from_w0.updates
    return Evidence("w0-bound", "Started at w₀ = (5, 0), PLA needs more updates than the "
                    "bound that the proof derives for w₀ = 0.", facts, holds,
                    "pla run tight.dat --w0 5,0")


@_evidence("w0-typo-002")
def w0_typo_002(data_dir: Path) -> Evidence:
    """Note 002: w₀ᵀw₀ must be w_fᵀw₀."""
    ds = _load("tight", data_dir)
    wf = _vec((0, 1))
    w0 = _vec((5, 0))
    r = pla.run(ds, w0=w0)
    rho_norm = _margin(ds, wf)  # = rho·‖w_f‖ with ‖w_f‖ = 1
    T = r.updates
    facts = (
        ("w0, T, w_T", (w0, T, r.w)),
        ("w_f.w_T", _dot(wf, r.w)),
        ("as printed: w0.w0 + T rho ||w_f||", _norm2(w0) + T * rho_norm),
        ("corrected: w_f.w0 + T rho ||w_f||", _dot(wf, w0) + T * rho_norm),
    )
    holds = (_dot(wf, r.w) < _norm2(w0) + T * rho_norm
             and _dot(wf, r.w) >= _dot(wf, w0) + T * rho_norm)
    return Evidence("w0-typo-002", "From w₀ = (5, 0) the printed inequality fails and the "
                    "corrected one holds (with equality).", facts, holds,
                    "pla run tight.dat --w0 5,0 --steps")


@_evidence("radius-includes-x0")
def radius_includes_x0(data_dir: Path) -> Evidence:
    """R must be measured on (1, x): without x₀ the bound fails (notes 002, 004)."""
    ds = _load("tight", data_dir)
    wf = _vec((0, 1))
    r = pla.run(ds)
    R2 = _radius2(ds)
    R2_features = max(_norm2(x[1:]) for x in ds.X)
    gamma = _margin(ds, wf)
    facts = (
        ("R^2 with x0 = 1", R2),
        ("R^2 of the features only", R2_features),
        ("(R/gamma)^2 with and without x0", (R2 / gamma ** 2, R2_features / gamma ** 2)),
        ("updates T", r.updates),
    )
    holds = r.updates <= R2 / gamma ** 2 and r.updates > R2_features / gamma ** 2
    return Evidence("radius-includes-x0", "With R taken over the features only, T exceeds "
                    "(R/γ)²; with x₀ = 1 included it does not.", facts, holds)


@_evidence("radius-not-distance")
def radius_not_distance(data_dir: Path) -> Evidence:
    """Note 004: R is the largest ‖x_n‖, not the largest distance to the separating line."""
    ds = _load("tight", data_dir)
    wf = _vec((0, 1))
    r = pla.run(ds)
    dist2 = max(_dot(wf, x) ** 2 / _norm2(wf[1:]) for x in ds.X)  # distance in input space
    R2 = _radius2(ds)
    gamma = _margin(ds, wf)
    facts = (
        ("largest squared distance to the line w_f.x = 0", dist2),
        ("R^2 = max_n ||x_n||^2", R2),
        ("bound with the distance, with R^2", (dist2 / gamma ** 2, R2 / gamma ** 2)),
        ("updates T", r.updates),
    )
    holds = dist2 != R2 and r.updates > dist2 / gamma ** 2 and r.updates <= R2 / gamma ** 2
    return Evidence("radius-not-distance", f"The largest squared distance to the separating "
                    f"line is {dist2}, but R² = {R2}, and T = {r.updates} exceeds the bound "
                    "built on the distance.", facts, holds)


@_evidence("rho-mismatch")
def rho_mismatch(data_dir: Path) -> Evidence:
    """Note 000's ρ (unnormalised) in note 002's bound (R/ρ)² gives a false bound."""
    ds = _load("tight", data_dir)
    wf = _vec((0, 2))
    r = pla.run(ds)
    R2 = _radius2(ds)
    rho = _margin(ds, wf)
    facts = (
        ("w_f, ||w_f||^2", (wf, _norm2(wf))),
        ("rho = min_n y_n w_f.x_n (note 000)", rho),
        ("(R/rho)^2 (note 002's form)", R2 / rho ** 2),
        ("R^2 ||w_f||^2 / rho^2 (note 000's form)", R2 * _norm2(wf) / rho ** 2),
        ("updates T", r.updates),
    )
    holds = r.updates > R2 / rho ** 2 and r.updates <= R2 * _norm2(wf) / rho ** 2
    return Evidence("rho-mismatch", f"With ‖w_f‖² = {_norm2(wf)} and the unnormalised ρ, "
                    f"(R/ρ)² = {R2 / rho ** 2} < T = {r.updates}, while R²‖w_f‖²/ρ² holds.",
                    facts, holds)


@_evidence("inner-le-1")
def inner_le_1(data_dir: Path) -> Evidence:
    """Note 004: it is the cosine, not w_fᵀw_t, that is at most 1."""
    ds = _load("textbook", data_dir)
    wf = _vec((-3, 1, 1))
    r = pla.run(ds, order="first")
    facts = (
        ("w_f.w_t, t = 1..T", tuple(_dot(wf, w) for w in _walk(r)[1:])),
        ("cos^2(w_f, w_T)", _signed_cos2(wf, r.w)),
    )
    inner = facts[0][1]
    return Evidence("inner-le-1", "w_f·w_t exceeds 1 from the first update on and keeps "
                    "growing; only the cosine is bounded by 1.", facts,
                    all(v > 1 for v in inner) and all(b > a for a, b in zip(inner, inner[1:]))
                    and _signed_cos2(wf, r.w) <= 1)


@_evidence("wtf-typo")
def wtf_typo(data_dir: Path) -> Evidence:
    """Note 004: 'sign(w_t^f x)' read as sign(w_fᵀx) is never ≠ y, so PLA would never move."""
    ds = _load("tight", data_dir)
    wf = _vec((0, 1))
    literal = [pla.is_mistake(_dot(wf, x), y) for x, y in zip(ds.X, ds.labels)]
    w0 = (Fraction(0),) * ds.dim
    actual = [pla.is_mistake(_dot(w0, x), y) for x, y in zip(ds.X, ds.labels)]
    facts = (("rows with sign(w_f.x) != y", sum(literal)),
             ("rows with y w_0.x <= 0 (w_0 = 0)", sum(actual)))
    return Evidence("wtf-typo", "Read literally, the condition never holds; the intended one "
                    "holds on every row at w₀ = 0.", facts, sum(literal) == 0 and sum(actual) > 0)


@_evidence("max-over-n")
def max_over_n(data_dir: Path) -> Evidence:
    """Note 004: max_n ‖y_{n(t)} x_{n(t)}‖² has no n inside; it is not R²."""
    ds = _load("textbook", data_dir)
    s = pla.run(ds, order="first").steps[1]
    facts = (("update t = 1 uses row", s.index + 1),
             ("||y_n(t) x_n(t)||^2", _norm2(s.x)),
             ("max_n ||y_n x_n||^2 = R^2", _radius2(ds)))
    return Evidence("max-over-n", f"The printed maximum is just ‖x_n(t)‖² = {_norm2(s.x)}; "
                    f"the bound needs R² = {_radius2(ds)}.", facts, _norm2(s.x) != _radius2(ds))


@_evidence("cos-bound-29")
def cos_bound_29(data_dir: Path) -> Evidence:
    """Note 001 (2-9): the corrected bound cos(w_f, w_T) ≥ √T·ρ/(‖w_f‖R), checked squared."""
    ds = _load("textbook", data_dir)
    wf = _vec((-5, 2, 1))
    r = pla.run(ds, order="first")
    R2, rho = _radius2(ds), _margin(ds, wf)
    c2 = rho ** 2 / (_norm2(wf) * R2)
    walk = _walk(r)
    slack = tuple(_signed_cos2(wf, w) - t * c2 for t, w in enumerate(walk) if t >= 1)
    facts = (("rho, ||w_f||^2, R^2", (rho, _norm2(wf), R2)),
             ("C^2 = rho^2 / (||w_f||^2 R^2)", c2),
             ("cos^2(w_f, w_t) - t C^2, t = 1..T", slack))
    return Evidence("cos-bound-29", "With ‖w_f‖ (a number) in the denominator the bound holds "
                    "at every update.", facts, all(v >= 0 for v in slack))


@_evidence("indicator-215")
def indicator_215(data_dir: Path) -> Evidence:
    """Note 001 (2-15): without the indicator [[·]] the sum is a different objective."""
    ds = _load("noisy", data_dir)
    w_literal = _vec((-1, 0))   # makes every sign(w.x) = -1: the smallest possible sum of signs
    sum_signs = sum(_sign(_dot(w_literal, x), 1) for x in ds.X)
    mistakes = kernel.count_mistakes(ds.rows, ds.scale, ds.labels, w_literal)
    best = compute("exact-1d-minimum", data_dir).value("fewest mistakes, a minimiser w")
    facts = (("w minimising the sum of sign(w.x_n)", w_literal),
             ("that sum (its minimum, -N)", sum_signs),
             ("mistakes of that w", mistakes),
             ("fewest mistakes of any w", best[0]))
    return Evidence("indicator-215", "Minimising Σ sign(wᵀx_n) picks a w with more mistakes "
                    "than the minimiser of Σ [[sign(wᵀx_n) ≠ y_n]].", facts,
                    sum_signs == -ds.n and mistakes > best[0])


# ============================================================================ separability
@_evidence("sign-separable-zero-margin")
def sign_separable_zero_margin(data_dir: Path) -> Evidence:
    """y_n = sign(w_f·x_n) with sign(0) = −1 allows ρ = 0; with a bias, a shift repairs it (002)."""
    ds = _load("tight", data_dir)
    wf = _vec((1, 1))
    nonzero = [abs(_dot(wf, x)) for x in ds.X if _dot(wf, x) != 0]
    shifted = (wf[0] - min(nonzero) / 2,) + wf[1:]   # move the threshold towards sign(0) = -1
    facts = tuple((f"row {n + 1}: y, w_f.x, sign(w_f.x) with sign(0) = -1",
                   (y, _dot(wf, x), _sign(_dot(wf, x), -1)))
                  for n, (x, y) in enumerate(zip(ds.X, ds.labels))) + (
        ("rho = min_n y_n w_f.x_n", _margin(ds, wf)),
        ("w_f with its bias lowered by half the smallest non-zero |w_f.x_n|", shifted),
        ("its min_n y_n w.x_n", _margin(ds, shifted)),)
    holds = (all(_sign(_dot(wf, x), -1) == y for x, y in zip(ds.X, ds.labels))
             and _margin(ds, wf) == 0 and _margin(ds, shifted) > 0)
    return Evidence("sign-separable-zero-margin", "w_f = (1, 1) satisfies y_n = sign(w_f·x_n) "
                    "for every n, and its ρ is 0; moving its threshold gives a w_f with ρ > 0.",
                    facts, holds)


@_evidence("cone-not-strict")
def cone_not_strict(data_dir: Path) -> Evidence:
    """Note 003: sign-separable through the origin, yet no W has y W·X > 0; PLA never halts."""
    ds = _load("cone", data_dir, bias=False)
    w = _vec((0, 1))
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, [1, 1, 0])
    r = pla.run(ds, max_updates=100, keep_steps=False)
    facts = (
        ("W = (0, 1): y_n = sign(W.X_n) with sign(0) = +1, every n",
         all(_sign(_dot(w, x), 1) == y for x, y in zip(ds.X, ds.labels))),
        ("Gordan certificate lambda (checked by the kernel)", (1, 1, 0)),
        ("PLA with y W.X <= 0 after 100 updates: halted", r.halted),
    )
    holds = facts[0][1] is True and not r.halted
    return Evidence("cone-not-strict", "The data are 'separated' by sign(W·X) with sign(0) = +1, "
                    "but λ = (1, 1, 0) proves that no W has y W·X > 0 on every row; PLA runs "
                    "forever.", facts, holds, "pla run cone.dat --no-bias --max-updates 100")


@_evidence("no-bias")
def no_bias(data_dir: Path) -> Evidence:
    """Note 003: without a bias, data separable by a threshold may not be separable at all."""
    with_bias = _load("nobias", data_dir)
    without = _load("nobias", data_dir, bias=False)
    r1 = pla.run(with_bias, keep_steps=False)
    kernel.check_gordan(without.rows, without.scale, without.labels, [2, 1])
    r2 = pla.run(without, max_updates=200, keep_steps=False)
    facts = (
        ("with x0 = 1: halted, updates, w", (r1.halted, r1.updates, r1.w)),
        ("without x0: Gordan certificate lambda (checked by the kernel)", (2, 1)),
        ("without x0: halted after 200 updates", r2.halted),
    )
    return Evidence("no-bias", "The threshold x = 3/2 separates the two points; no hyperplane "
                    "through the origin does.", facts, r1.halted and not r2.halted,
                    "pla run nobias.dat --no-bias --max-updates 200   # exit code 3")


def _best_margin2_two_points(a: Vector, b: Vector) -> Fraction:
    """Squared largest normalised margin of a (+1) and b (−1) for w through the origin.

    It is the squared distance from 0 to the segment [a, −b] (the convex hull of the y·x).

    >>> _best_margin2_two_points((Fraction(1), Fraction(1)), (Fraction(1), Fraction(-1)))
    Fraction(1, 1)
    """
    p, q = tuple(a), tuple(-v for v in b)
    d = tuple(v - u for u, v in zip(p, q))
    s = min(max(-_dot(p, d) / _norm2(d), Fraction(0)), Fraction(1))
    point = tuple(u + s * v for u, v in zip(p, d))
    return _norm2(point)


@_evidence("slow-halting")
def slow_halting(data_dir: Path) -> Evidence:
    """Note 002: 'usually stops quickly' — two points 1 apart need more updates far from 0."""
    rows = []
    for k in (1, 2, 4, 8, 16):
        ds = pla.Dataset.from_rows([[k], [k + 1]], [1, -1])
        r = pla.run(ds, keep_steps=False)
        gap = abs(ds.X[1][1] - ds.X[0][1])
        gamma2 = _best_margin2_two_points(ds.X[0], ds.X[1])
        rows.append((k, gap, _radius2(ds), gamma2, _radius2(ds) / gamma2, r.updates, r.halted))
    facts = tuple((f"x = {k} (+1), x = {k + 1} (-1): distance, R^2, best rho^2, (R/rho)^2, updates",
                   (gap, R2, g2, bound, u)) for k, gap, R2, g2, bound, u, _ in rows)
    holds = (all(row[1] == 1 and row[6] and row[5] <= row[4] for row in rows)
             and all(b[2] > a[2] and b[3] < a[3] and b[5] > a[5] for a, b in zip(rows, rows[1:]))
             and rows[-1][5] > 1000)
    return Evidence("slow-halting", "The two points are always exactly 1 apart; moving them away "
                    "from the origin makes R grow and the best normalised margin ρ of the "
                    "augmented vectors shrink, and the number of updates grows into the "
                    "thousands (always within (R/ρ)²).", facts, holds)


# ============================================================================ the learning rate
@_evidence("eta-irrelevant")
def eta_irrelevant(data_dir: Path) -> Evidence:
    """Note 003: from W₀ = 0 every η > 0 gives the same run (scaled); from W₀ ≠ 0 it does not."""
    ds = _load("textbook", data_dir)
    etas = (Fraction(1, 3), Fraction(1), Fraction(5))
    zero_runs = [pla.run(ds, eta=eta, order="first", keep_steps=False) for eta in etas]
    w0 = (1, 0, 0)
    w0_runs = [pla.run(ds, eta=eta, w0=w0, order="first", keep_steps=False) for eta in etas]
    facts = (
        ("eta", etas),
        ("from w0 = 0: updates", tuple(r.updates for r in zero_runs)),
        ("from w0 = 0: w_T / eta", tuple(tuple(v / e for v in r.w) for r, e in zip(zero_runs, etas))),
        ("from w0 = (1, 0, 0): updates", tuple(r.updates for r in w0_runs)),
    )
    holds = (len({r.updates for r in zero_runs}) == 1
             and len({tuple(v / e for v in r.w) for r, e in zip(zero_runs, etas)}) == 1
             and len({r.updates for r in w0_runs}) > 1)
    return Evidence("eta-irrelevant", "From w₀ = 0 the learning rate only scales w (η = 5 is "
                    "as good as η = 1); from w₀ ≠ 0 it changes the run.", facts, holds,
                    "pla run textbook.dat --order first --eta 5")


# ============================================================================ loss and gradient
_LOSS_WEIGHTS = {"W_a": (1, 0), "W_b": (0, 1), "W_c": (1, 5)}


def _perceptron_loss(ds: pla.Dataset, w: Vector) -> Fraction:
    return sum((-y * _dot(w, x) for x, y in zip(ds.X, ds.labels) if y * _dot(w, x) < 0),
               Fraction(0))


@_evidence("loss-not-monotone")
def loss_not_monotone(data_dir: Path) -> Evidence:
    """Note 003: fewer mistakes does not mean a smaller loss; all wrong is not the worst."""
    ds = _load("loss", data_dir, bias=False)
    facts = []
    table = {}
    for name, w in _LOSS_WEIGHTS.items():
        w = _vec(w)
        mistakes = sum(1 for x, y in zip(ds.X, ds.labels) if y * _dot(w, x) < 0)
        loss = _perceptron_loss(ds, w)
        table[name] = (mistakes, loss, loss * loss / _norm2(w))
        facts.append((f"{name} = {_show(w)}: mistakes, sum -y W.X, (sum of distances)^2",
                      table[name]))
    a, b, c = table["W_a"], table["W_b"], table["W_c"]
    holds = (a[0] < b[0] and a[1] > b[1] and a[2] > b[2]
             and c[0] == ds.n and c[2] < a[2])
    return Evidence("loss-not-monotone", "W_a makes fewer mistakes than W_b but has the larger "
                    "loss (either form); W_c gets every point wrong with a smaller total "
                    "distance than W_a.", tuple(facts), holds)


@_evidence("distance-sign")
def distance_sign(data_dir: Path) -> Evidence:
    """Note 003: Σ WᵀX/‖W‖ over misclassified points is not the sum of distances."""
    ds = _load("loss", data_dir, bias=False)
    w = _vec(_LOSS_WEIGHTS["W_a"])
    wrong = [(x, y) for x, y in zip(ds.X, ds.labels) if y * _dot(w, x) < 0]
    first = sum((_dot(w, x) for x, _ in wrong), Fraction(0))
    second = sum((-y * _dot(w, x) for x, y in wrong), Fraction(0))
    facts = (("W", w), ("misclassified rows", len(wrong)),
             ("sum W.X (first line, ||W|| = 1)", first), ("sum -y W.X (second line)", second))
    return Evidence("distance-sign", "For a misclassified positive point WᵀX < 0: the first "
                    "line is negative, the second is the distance.", facts,
                    first < 0 < second and _norm2(w) == 1)


@_evidence("gradient-sign")
def gradient_sign(data_dir: Path) -> Evidence:
    """Note 003: ∇L = −Σ y X; the printed −Σ −y X = +Σ y X points uphill."""
    import sympy

    ds = _load("loss", data_dir, bias=False)
    w_b = _vec(_LOSS_WEIGHTS["W_b"])
    wrong = [(x, y) for x, y in zip(ds.X, ds.labels) if y * _dot(w_b, x) < 0]
    symbols = sympy.symbols(f"w0:{ds.dim}")
    loss = sum(-y * sum(sympy.Rational(xi.numerator, xi.denominator) * s
                        for xi, s in zip(x, symbols)) for x, y in wrong)
    gradient = tuple(Fraction(str(sympy.diff(loss, s))) for s in symbols)
    correct = tuple(-sum((y * x[i] for x, y in wrong), Fraction(0)) for i in range(ds.dim))
    printed = tuple(-v for v in correct)   # -Σ(-y X) = +Σ y X
    eta = Fraction(1, 100)
    down = tuple(w - eta * g for w, g in zip(w_b, correct))
    up = tuple(w - eta * g for w, g in zip(w_b, printed))
    facts = (
        ("W, misclassified rows", (w_b, len(wrong))),
        ("gradient of L(W) = sum -y W.X (sympy)", gradient),
        ("printed gradient -sum(-y X)", printed),
        ("L(W)", _perceptron_loss(ds, w_b)),
        ("L after W - (1/100) x correct gradient", _perceptron_loss(ds, down)),
        ("L after W - (1/100) x printed gradient", _perceptron_loss(ds, up)),
    )
    holds = (gradient == correct and printed != correct
             and _perceptron_loss(ds, down) < _perceptron_loss(ds, w_b) < _perceptron_loss(ds, up))
    return Evidence("gradient-sign", "sympy's gradient is −Σ y X; a descent step along the "
                    "printed gradient increases the loss.", facts, holds)


# ============================================================================ Pocket
@_evidence("pocket-compare")
def pocket_compare(data_dir: Path) -> Evidence:
    """Comparing w_{t+1} with w_t (notes 000, 001, 004) instead of with the pocket."""
    from pla.pocket import pocket

    ds = _load("pocket", data_dir)
    real = pocket(ds, 5, order="cyclic", compare="pocket")
    note = pocket(ds, 5, order="cyclic", compare="previous")
    positives = {x for x, y in zip(ds.X, ds.labels) if y > 0}
    forced = len(positives & {x for x, y in zip(ds.X, ds.labels) if y < 0})
    facts = (
        ("mistakes of w_0..w_5 on the PLA walk", real.walk_mistakes),
        ("pocket (compare with the pocket): w, mistakes", (real.w, real.mistakes)),
        ("compare with w_t: w, mistakes", (note.w, note.mistakes)),
        ("points that occur with both labels (every w gets one of each such pair wrong)",
         forced),
    )
    holds = (real.walk_mistakes == note.walk_mistakes and note.mistakes > real.mistakes
             and kernel.count_mistakes(ds.rows, ds.scale, ds.labels, real.w) == forced)
    shown = (f"On the same PLA walk, the real pocket keeps w_{real.pocket_t} "
             f"({real.mistakes} mistake, the optimum); comparing with w_t ends with "
             f"w_{note.pocket_t} ({note.mistakes} mistakes).")
    return Evidence("pocket-compare", shown, facts, holds,
                    "pla pocket pocket.dat --updates 5 --order cyclic")


@_evidence("noise-target")
def noise_target(data_dir: Path) -> Evidence:
    """Note 002's little-noise assumption: the target f agrees with most labels of noisy data."""
    from pla.pocket import pocket

    ds = _load("noisy", data_dir)
    f = _vec((0, 1))  # the target sign(x)
    agree_f = sum(1 for x, y in zip(ds.X, ds.labels) if _sign(_dot(f, x), 1) == y)
    g = pocket(ds, 20, order="cyclic")
    facts = (("rows with f(x_n) = y_n, f = sign(x)", (agree_f, ds.n)),
             ("rows with g(x_n) = y_n, g from Pocket (20 updates)", (ds.n - g.mistakes, ds.n)))
    return Evidence("noise-target", f"On noisy data f(x_n) = y_n holds for most n ({agree_f} of "
                    f"{ds.n} here) but not all: that is the assumption the note states.", facts,
                    ds.n / 2 < agree_f < ds.n)


def _exact_1d_minimum(ds: pla.Dataset, name: str) -> Evidence:
    xs = sorted({x[1] for x in ds.X})
    cuts = [xs[0] - 1] + [(a + b) / 2 for a, b in zip(xs, xs[1:])] + [xs[-1] + 1]
    best = None
    tried = 0
    for c in cuts:
        for orientation in (1, -1):
            w = (-orientation * c, Fraction(orientation))
            m = kernel.count_mistakes(ds.rows, ds.scale, ds.labels, w)
            tried += 1
            if best is None or m < best[0]:
                best = (m, w)
    facts = (("candidate classifiers tried (2(N+1))", tried),
             ("fewest mistakes, a minimiser w", best if best else ()))
    return Evidence(name, "With one feature, 2(N+1) candidates settle the minimum exactly.",
                    facts, best is not None and tried == 2 * (len(xs) + 1))


@_evidence("exact-1d-minimum")
def exact_1d_minimum(data_dir: Path) -> Evidence:
    """For a fixed dimension the fewest-mistakes problem is solved by enumeration (polynomial)."""
    ev = _exact_1d_minimum(_load("noisy", data_dir), "exact-1d-minimum")
    return Evidence(ev.name, ev.shows, ev.facts,
                    ev.holds and ev.value("fewest mistakes, a minimiser w")[0] == 1)


# ============================================================================ indices, notation
@_evidence("t-counts-updates")
def t_counts_updates(data_dir: Path) -> Evidence:
    """t counts updates, not rounds (note 004 '进行t轮', note 000 '每一轮')."""
    ds = _load("textbook", data_dir)
    r = pla.run(ds)
    facts = (("updates (final t)", r.updates), ("passes over the data (epochs)", r.epochs),
             ("t of each update, row", tuple((s.t, s.index + 1) for s in r.steps)))
    return Evidence("t-counts-updates", "Cyclic PLA on the walk-through data: t runs over the "
                    "updates, which is not the number of rounds.", facts,
                    r.updates != r.epochs, "pla run textbook.dat --steps")


@_evidence("index-nt")
def index_nt(data_dir: Path) -> Evidence:
    """Note 002 writes (x_t, y_t) for the point used at update t; it is x_{n(t)}."""
    ds = _load("textbook", data_dir)
    r = pla.run(ds, order="first")
    pairs = tuple((s.t + 1, s.index + 1) for s in r.steps)
    facts = (("(update number, row used)", pairs),)
    return Evidence("index-nt", "The row used at the t-th update is not the t-th row.", facts,
                    any(a != b for a, b in pairs))


@_evidence("w0-clash")
def w0_clash(data_dir: Path) -> Evidence:
    """Note 001 uses w_0 for the bias weight and for the initial vector."""
    ds = _load("textbook", data_dir)
    r = pla.run(ds, order="first")
    facts = (("the initial vector 'w_0'", _walk(r)[0]), ("the bias weight 'w_0' of the result", r.w[0]))
    return Evidence("w0-clash", f"In one run 'w₀' is both the zero vector and the number "
                    f"{r.w[0]}.",
                    facts, all(v == 0 for v in _walk(r)[0]) and r.w[0] != 0)


# ============================================================================ second reading
@_evidence("cyclic-pocket-stuck")
def cyclic_pocket_stuck(data_dir: Path) -> Evidence:
    """Notes 000, 001: with a fixed cyclic order PLA repeats a cycle and Pocket never finds the optimum."""
    from pla.pocket import pocket

    ds = _load("cycle", data_dir)
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, [2, 2, 1, 1])
    r = pla.run(ds, max_updates=60)
    states = [(s.w_before, s.index) for s in r.steps]
    first = next(((i, states.index(st)) for i, st in enumerate(states) if states.index(st) < i), None)
    if first is None:
        return Evidence("cyclic-pocket-stuck", "", (), False)
    again, start = first
    visited = _walk(r)[: again + 1]
    walk_best = min(kernel.count_mistakes(ds.rows, ds.scale, ds.labels, w) for w in visited)
    optimum = _exact_1d_minimum(ds, "cycle").value("fewest mistakes, a minimiser w")
    cyclic = pocket(ds, 500, order="cyclic")
    randoms = tuple(pocket(ds, 60, order="random", seed=seed).mistakes for seed in range(5))
    # pla pocket's default order: one random permutation, then cyclic -- a fixed order per run
    stuck = sum(1 for seed in range(100)
                if pocket(ds, 500, order="random-cycle", seed=seed).mistakes > optimum[0])
    facts = (
        ("Gordan certificate lambda (checked by the kernel): not separable", (2, 2, 1, 1)),
        ("the state (w_t, row) of update t repeats that of update", (again, start)),
        ("period of the cycle (updates)", again - start),
        ("fewest mistakes of any vector the cyclic walk ever visits", walk_best),
        ("fewest mistakes of any perceptron, a minimiser", optimum),
        ("Pocket, cyclic order, 500 updates: mistakes", cyclic.mistakes),
        ("Pocket, random order, 60 updates, seeds 0-4: mistakes", randoms),
        ("Pocket, random-cycle order (pla pocket's default), 500 updates, seeds 0-99: runs "
         "ending above the optimum", stuck),
    )
    holds = (r.updates == 60 and not r.halted and walk_best > optimum[0]
             and cyclic.mistakes == walk_best and min(randoms) == optimum[0] and 0 < stuck < 100)
    return Evidence("cyclic-pocket-stuck", f"From update {start} on, cyclic PLA repeats a cycle "
                    f"of {again - start} updates whose vectors all make at least {walk_best} "
                    f"mistakes; the optimum is {optimum[0]}, so cyclic Pocket never finds it, "
                    "while random sampling does.  Random cycles (one seeded order per run, "
                    f"`pla pocket`'s default) miss it for {stuck} of 100 seeds.", facts, holds,
                    "pla pocket cycle.dat --updates 500 --order cyclic   # versus --order random")


#: Seeds of the random-order Pocket runs of :func:`random_not_faster` and the budget of each.
RANDOM_SEEDS, RANDOM_BUDGET = range(100), 200


def _first_optimal_update(walk_mistakes: Sequence[int], optimum: int) -> int | None:
    """The first t at which w_t makes ``optimum`` mistakes (None if the walk never does)."""
    return next((t for t, m in enumerate(walk_mistakes) if m == optimum), None)


@_evidence("random-not-faster")
def random_not_faster(data_dir: Path) -> Evidence:
    """Note 001: random sampling does not make Pocket faster; on pocket.dat the cyclic order wins."""
    from pla.pocket import pocket

    ds = _load("pocket", data_dir)
    optimum = 1  # two rows are the same point with opposite labels: every w makes >= 1 mistake
    cyclic = _first_optimal_update(pocket(ds, RANDOM_BUDGET, order="cyclic").walk_mistakes,
                                   optimum)
    firsts = [_first_optimal_update(pocket(ds, RANDOM_BUDGET, order="random", seed=s).walk_mistakes,
                                    optimum) for s in RANDOM_SEEDS]
    reached = [t for t in firsts if t is not None]
    mean = Fraction(sum(reached), len(reached)) if reached else None
    slower = sum(1 for t in firsts if t is None or (cyclic is not None and t > cyclic))
    facts = (
        ("cyclic order: first update whose w_t makes 1 mistake (the optimum)", cyclic),
        (f"random order, seeds 0-{len(RANDOM_SEEDS) - 1}: runs reaching the optimum within "
         f"{RANDOM_BUDGET} updates", len(reached)),
        ("random order: mean first update reaching it", mean),
        ("random order: seeds slower than the cyclic order", slower),
    )
    holds = (cyclic is not None and mean is not None and mean > cyclic and slower > 0
             and len(reached) == len(RANDOM_SEEDS))
    return Evidence("random-not-faster", f"On the Pocket data the cyclic order reaches an optimal "
                    f"vector at update {cyclic}; random draws need {float(mean or 0):.2f} updates on "
                    f"average, and {slower} of {len(RANDOM_SEEDS)} seeds are slower.", facts, holds,
                    "pla pocket pocket.dat --updates 3 --order cyclic   # versus --order random --runs 100")


@_evidence("constant-classifier")
def constant_classifier(data_dir: Path) -> Evidence:
    """Note 001: w_0 + w_1x_1 + w_2x_2 = 0 is no line when w_1 = w_2 = 0 — and that w can be optimal."""
    from pla.pocket import pocket

    ds = _load("pocket", data_dir)
    result = pocket(ds, 5, order="cyclic")
    w = result.w
    forced = len({x for x, y in zip(ds.X, ds.labels) if y > 0}
                 & {x for x, y in zip(ds.X, ds.labels) if y < 0})
    outputs = tuple(_sign(_dot(w, x), 1) for x in ds.X)
    facts = (("w returned by Pocket", w),
             ("(w_1, w_2)", w[1:]),
             ("its outputs sign(w.x_n)", outputs),
             ("its mistakes (kernel count)", kernel.count_mistakes(ds.rows, ds.scale, ds.labels, w)),
             ("points with both labels: every w makes at least this many mistakes", forced))
    holds = (all(v == 0 for v in w[1:]) and len(set(outputs)) == 1
             and kernel.count_mistakes(ds.rows, ds.scale, ds.labels, w) == forced)
    return Evidence("constant-classifier", "The optimal vector Pocket returns has w₁ = w₂ = 0: "
                    "its 'line' is empty and h is constant.", facts, holds,
                    "pla pocket pocket.dat --updates 5 --order cyclic")


def _perceptron_loss_le(ds: pla.Dataset, w: Vector) -> Fraction:
    """Σ −y W·X over the points with y W·X ≤ 0 (the algorithm's notion of a mistake)."""
    return sum((-y * _dot(w, x) for x, y in zip(ds.X, ds.labels) if y * _dot(w, x) <= 0),
               Fraction(0))


@_evidence("perceptron-loss-trivial")
def perceptron_loss_trivial(data_dir: Path) -> Evidence:
    """Note 003: without ‖W‖ the loss is minimised by W = 0 on any data, separable or not."""
    ds = _load("pocket", data_dir)
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, [1, 0, 0, 1])
    zero = (Fraction(0),) * ds.dim
    w = _vec((-1, 1, 1))
    shrunk = tuple(tuple(v / k for v in w) for k in (1, 10, 100))
    facts = (
        ("Gordan certificate lambda (checked by the kernel): not separable", (1, 0, 0, 1)),
        ("L(0) with D = {y W.X < 0}, with D = {y W.X <= 0}",
         (_perceptron_loss(ds, zero), _perceptron_loss_le(ds, zero))),
        ("mistakes of W = 0 under y W.X <= 0",
         sum(1 for x, y in zip(ds.X, ds.labels) if pla.is_mistake(_dot(zero, x), y))),
        ("W = (-1, 1, 1)/k, k = 1, 10, 100: L(W)", tuple(_perceptron_loss(ds, v) for v in shrunk)),
        ("the same W: mistakes", tuple(kernel.count_mistakes(ds.rows, ds.scale, ds.labels, v)
                                       for v in shrunk)),
    )
    losses = facts[3][1]
    holds = (_perceptron_loss(ds, zero) == 0 == _perceptron_loss_le(ds, zero)
             and facts[2][1] == ds.n
             and all(b == a / 10 for a, b in zip(losses, losses[1:])) and losses[0] > 0
             and len(set(facts[4][1])) == 1)
    return Evidence("perceptron-loss-trivial", "On data that no vector separates, W = 0 has "
                    "loss 0, the smallest possible, and every point is a mistake; shrinking W "
                    "divides the loss and keeps every mistake.", facts, holds)


@_evidence("strict-halts-inseparable")
def strict_halts_inseparable(data_dir: Path) -> Evidence:
    """Note 000's strict rule halts on inseparable data; 003's sign(0) = +1 halts on a non-separator."""
    ds = _load("pocket", data_dir)
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, [1, 0, 0, 1])
    strict = pla.run(ds, zero="correct")
    usual = pla.run(ds, max_updates=200, keep_steps=False)
    tight = _load("tight", data_dir)
    plus = pla.run(tight, zero="positive")
    facts = (
        ("pocket.dat, Gordan certificate lambda (checked by the kernel)", (1, 0, 0, 1)),
        ("strict rule y w.x < 0: halted, updates, w", (strict.halted, strict.updates, strict.w)),
        ("rule y w.x <= 0, 200 updates: halted", usual.halted),
        ("tight.dat, sign(0) = +1: halted, w", (plus.halted, plus.w)),
        ("that w: min_n y_n w.x_n", _margin(tight, plus.w)),
    )
    holds = (strict.halted and strict.updates == 0 and not usual.halted
             and plus.halted and _margin(tight, plus.w) == 0)
    return Evidence("strict-halts-inseparable", "The strict rule 'halts' at once on data a "
                    "certificate proves inseparable; sign(0) = +1 halts at a w that leaves a "
                    "point on its hyperplane.", facts, holds,
                    "pla run pocket.dat --zero correct; pla run tight.dat --zero positive")


# ----------------------------------------------------------------------------- rendering
def render(evidence: Evidence) -> str:
    """The Markdown the audit page shows for ``evidence`` (fails if it does not hold).

    >>> print(render(Evidence("x", "It holds.", (("a", Fraction(1, 2)),), True)).splitlines()[0])
    !!! success "Evidence, computed at build time"
    """
    if not evidence.holds:
        raise EvidenceFailed(f"audit evidence {evidence.name!r} no longer shows: {evidence.shows}")
    lines = ['!!! success "Evidence, computed at build time"', "",
             f"    {evidence.shows}", "",
             "    | quantity | exact value |", "    |---|---|"]
    for label, value in evidence.facts:
        cell = label.replace("|", "\\|")
        lines.append(f"    | {cell} | `{_show(value)}` |")
    if evidence.command:
        lines += ["", f"    From the command line: `{evidence.command}`"]
    return "\n".join(lines) + "\n"


def expand_audit_markers(markdown: str, data_dir: Path | str = DATA_DIR) -> str:
    """Replace every ``<!-- audit-evidence: NAME -->`` by the rendered evidence NAME.

    >>> "exact value" in expand_audit_markers("<!-- audit-evidence: zero-scores -->")
    True
    """
    cache: dict[str, str] = {}

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in cache:
            cache[name] = render(compute(name, data_dir))
        return cache[name]

    return MARKER.sub(replace, markdown)
