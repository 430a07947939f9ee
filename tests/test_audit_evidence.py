"""The audit of the lecture notes (docs/audit.md): every counterexample really refutes the note.

Each test recomputes the decisive facts directly with the toolkit (not through the evidence
module's own ``holds`` flag), so that a change of the engine, the parser or the data files
that breaks a counterexample is caught here as well as in the docs build.
"""

from __future__ import annotations

import os
import re
from fractions import Fraction
from pathlib import Path

import pytest

import pla
from pla.pocket import pocket
import sitebuild.audit_evidence as audit
from verify import kernel

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "audit.md"
DATA = ROOT / "docs" / "data" / "audit"
SEEDS = ("000_ce006bfa05446ad3.txt", "001_cf6827476f71b872.txt", "002_bad7e9109659fafb.txt",
         "003_a873dd1350837110.txt", "004_7148045e1f717019.txt")


def dot(a, b):
    return sum(Fraction(u) * Fraction(v) for u, v in zip(a, b))


def load(name, bias=True):
    return pla.load(str(DATA / f"{name}.dat"), bias=bias)


def margin(ds, w):
    return min(y * dot(w, x) for x, y in zip(ds.X, ds.labels))


def walk(r):
    return [r.steps[0].w_before] + [s.w_after for s in r.steps]


#: evidence name -> the tests below that recompute its decisive fact independently
COVERED: dict[str, list[str]] = {}


def covers(*names):
    """Register a test as the independent check of the evidence ``names``."""
    def register(test):
        for name in names:
            COVERED.setdefault(name, []).append(test.__name__)
        return test
    return register


# ----------------------------------------------------------------------------- every evidence
@pytest.mark.parametrize("name", sorted(audit.EVIDENCE))
def test_every_piece_of_evidence_holds_and_renders(name):
    evidence = audit.compute(name)
    assert evidence.holds, f"{name}: {evidence.shows}"
    text = audit.render(evidence)
    assert text.startswith('!!! success "Evidence, computed at build time"')
    for label, _ in evidence.facts:
        assert label.replace("|", "\\|") in text


def test_evidence_that_does_not_hold_stops_the_build():
    stale = audit.Evidence("x", "It holds.", (("a", 1),), False)
    with pytest.raises(audit.EvidenceFailed, match="no longer shows"):
        audit.render(stale)
    with pytest.raises(audit.EvidenceFailed, match="no audit evidence named 'nope'"):
        audit.expand_audit_markers("<!-- audit-evidence: nope -->")


# ----------------------------------------------------------------------------- the page
def _sections(text):
    """(heading, body) of every numbered finding (#### N.M ...)."""
    parts = re.split(r"^#### ", text, flags=re.M)[1:]
    return [(p.split("\n", 1)[0], p.split("\n", 1)[1].split("\n## ")[0].split("\n### ")[0])
            for p in parts]


def test_every_finding_on_the_page_has_runnable_evidence():
    text = PAGE.read_text(encoding="utf-8")
    sections = _sections(text)
    assert len(sections) >= 40
    for heading, body in sections:
        assert re.match(r"\d\.\d+ ", heading), heading
        if _grade(body) == "Withdrawn":
            continue
        has_marker = audit.MARKER.search(body) is not None
        has_claim = "```claim" in body
        assert has_marker or has_claim, f"finding {heading!r} has no evidence"


def test_every_marker_names_existing_evidence_and_all_evidence_is_used():
    text = PAGE.read_text(encoding="utf-8")
    used = {m.group("name") for m in audit.MARKER.finditer(text)}
    assert used <= set(audit.EVIDENCE)
    assert set(audit.EVIDENCE) - used == set()


def test_the_page_covers_all_five_notes_and_the_notation_table_has_a_column_each():
    text = PAGE.read_text(encoding="utf-8")
    for seed in SEEDS:
        assert f"### {seed}" in text
    header = next(line for line in text.splitlines() if line.startswith("| | 000"))
    assert header.count("|") == 7
    table_rows = [line.split("|")[1].strip() for line in text.splitlines()
                  if line.startswith("| ") and line.count("|") == 7]
    for row in ("perfect separator", "margin", "radius", "update condition", "sign(0)",
                "initial weights", "learning rate", "form of the bound", "iteration counter",
                "vectors' typeface"):
        assert row in table_rows


def test_markers_expand_to_the_computed_numbers():
    page = audit.expand_audit_markers("a\n<!-- audit-evidence: strict-rule -->\nb")
    assert "<!--" not in page
    assert "| updates, mistake iff y w.x < 0 | `0` |" in page


def test_every_audit_data_file_parses_and_is_documented():
    for path in sorted(DATA.glob("*.dat")):
        assert path.read_text(encoding="utf-8").startswith("# ")
        assert pla.load(str(path)).n >= 2
        assert path.name in PAGE.read_text(encoding="utf-8")


# ----------------------------------------------------------------------------- the refutations
@covers('strict-rule')
def test_strict_rule_never_updates_from_zero_on_data_zero_does_not_separate():
    ds = load("tight")
    r = pla.run(ds, zero="correct")
    assert (r.updates, r.halted) == (0, True)
    assert margin(ds, r.w) == 0                     # w = 0 separates nothing
    assert margin(ds, pla.run(ds).w) > 0


@covers('sign0-conventions', 'sign-iff')
def test_four_sign0_conventions_four_runs():
    ds = load("tight")
    runs = {z: pla.run(ds, zero=z) for z in pla.ZERO_CONVENTIONS}
    assert len({(r.updates, r.w) for r in runs.values()}) == 4
    # sign(w.x) != y is not equivalent to y w.x <= 0 under sign(0) = +1:
    assert not pla.is_mistake(0, 1, "positive") and 1 * 0 <= 0


@covers('sign-plus-strict')
def test_sign_plus_one_misclassifies_a_point_with_zero_score_that_the_strict_rule_misses():
    ds = load("tight")
    first = pla.run(ds, zero="positive").steps[0]
    assert first.score == 0 and first.y == -1 and not first.y * first.score < 0


@covers('one-update-not-enough')
def test_one_update_can_leave_the_point_misclassified():
    r = pla.run(load("textbook"), order="first")
    assert any(a.index == b.index and b.y * b.score <= 0 for a, b in zip(r.steps, r.steps[1:]))


@covers('angle-not-monotone')
def test_the_angle_to_a_perfect_separator_can_grow_while_the_inner_product_grows():
    ds = load("textbook")
    wf = (-5, 2, 1)
    assert margin(ds, wf) > 0
    ws = walk(pla.run(ds, order="first"))[1:]
    inner = [dot(wf, w) for w in ws]
    cos2 = [dot(wf, w) ** 2 / (dot(wf, wf) * dot(w, w)) for w in ws]
    assert all(b > a for a, b in zip(inner, inner[1:]))
    assert all(i > 0 for i in inner)
    assert any(b < a for a, b in zip(cos2, cos2[1:]))
    assert cos2[-1] < 1                             # w_T is not along this w_f


@covers('l1-norm')
def test_l1_norm_breaks_the_expansion_of_2_8():
    s = pla.run(load("textbook"), order="first").steps[1]
    l1 = lambda v: sum(abs(c) for c in v)  # noqa: E731
    assert l1(s.w_after) ** 2 != l1(s.w_before) ** 2 + l1(s.x) ** 2 + 2 * s.y * s.score


@covers('inner-product-equality')
def test_2_7_with_w_t_minus_2_is_false_and_the_step_is_an_equality():
    ds = load("textbook")
    wf = (-5, 2, 1)
    r = pla.run(ds, order="first")
    ws = walk(r)
    for s in r.steps:
        assert dot(wf, s.w_after) == dot(wf, s.w_before) + s.y * dot(wf, s.x)
    last = r.steps[-1]
    assert dot(wf, ws[-1]) != dot(wf, ws[-3]) + last.y * dot(wf, last.x)


@covers('margin-ge-zero')
def test_margin_ge_zero_admits_w_zero_on_non_separable_data():
    ds = load("pocket")
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, [1, 0, 0, 1])
    assert margin(ds, (0, 0, 0)) >= 0
    assert not pla.run(ds, max_updates=200, keep_steps=False).halted


@covers('bound-212-square')
def test_bound_2_12_without_the_square_fails_on_scaled_data():
    ds = load("scaled", bias=False)
    r = pla.run(ds)
    R2 = max(dot(x, x) for x in ds.X)
    rho = margin(ds, (0, 1))                        # ‖(0, 1)‖ = 1
    assert r.updates > R2 / rho                     # the printed bound
    assert r.updates <= R2 / rho ** 2               # the corrected bound


@covers('rho-214')
def test_rho_of_2_14_is_positive_for_a_vector_that_gets_everything_wrong():
    ds = load("nobias")
    w = (-5, 4)
    assert margin(ds, w) < 0
    assert min(dot(w, x) for x in ds.X) ** 2 > 0


@covers('w0-bound')
def test_nonzero_w0_breaks_the_bound():
    ds = load("tight")
    bound = max(dot(x, x) for x in ds.X) * 1 / margin(ds, (0, 1)) ** 2
    assert pla.run(ds).updates <= bound < pla.run(ds, w0=(5, 0)).updates


@covers('w0-typo-002')
def test_002_w0_typo_gives_a_false_inequality_from_a_nonzero_start():
    ds = load("tight")
    wf, w0 = (0, 1), (5, 0)
    r = pla.run(ds, w0=w0)
    rho = margin(ds, wf)
    assert dot(wf, r.w) < dot(w0, w0) + r.updates * rho
    assert dot(wf, r.w) >= dot(wf, w0) + r.updates * rho


@covers('radius-includes-x0')
def test_radius_must_include_x0_and_is_not_a_distance_to_the_line():
    ds = load("tight")
    T = pla.run(ds).updates
    assert T > max(dot(x[1:], x[1:]) for x in ds.X) / margin(ds, (0, 1)) ** 2
    assert T <= max(dot(x, x) for x in ds.X) / margin(ds, (0, 1)) ** 2


@covers('strict-lt-attained')
def test_strict_inequalities_of_003_are_attained():
    ds = load("tight")
    r = pla.run(ds)
    R2 = max(dot(x, x) for x in ds.X)
    assert [dot(w, w) for w in walk(r)] == [t * R2 for t in range(r.updates + 1)]
    assert r.updates == R2 / margin(ds, (0, 1)) ** 2


@covers('rho-mismatch')
def test_rho_of_000_in_the_bound_of_002_is_violated():
    ds = load("tight")
    wf = (0, 2)
    R2 = max(dot(x, x) for x in ds.X)
    assert pla.run(ds).updates > R2 / margin(ds, wf) ** 2


@covers('cone-not-strict')
def test_separable_through_the_origin_with_sign_zero_plus_one_but_pla_never_halts():
    ds = load("cone", bias=False)
    assert all((1 if dot((0, 1), x) >= 0 else -1) == y for x, y in zip(ds.X, ds.labels))
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, [1, 1, 0])
    assert not pla.run(ds, max_updates=100, keep_steps=False).halted


@covers('no-bias')
def test_no_bias_makes_threshold_data_inseparable():
    assert pla.run(load("nobias"), keep_steps=False).halted
    ds = load("nobias", bias=False)
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, [2, 1])


@covers('loss-not-monotone')
def test_perceptron_loss_is_not_monotone_in_the_number_of_mistakes():
    ds = load("loss", bias=False)

    def stats(w):
        wrong = [(x, y) for x, y in zip(ds.X, ds.labels) if y * dot(w, x) < 0]
        return len(wrong), sum(-y * dot(w, x) for x, y in wrong)

    (ma, la), (mb, lb), (mc, lc) = stats((1, 0)), stats((0, 1)), stats((1, 5))
    assert ma < mb and la > lb
    assert mc == ds.n and lc ** 2 / 26 < la ** 2 / 1   # all wrong, smaller distance sum


@covers('gradient-sign')
def test_printed_gradient_goes_uphill():
    ds = load("loss", bias=False)
    w = (Fraction(0), Fraction(1))

    def loss(v):
        return sum(-y * dot(v, x) for x, y in zip(ds.X, ds.labels) if y * dot(v, x) < 0)

    wrong = [(x, y) for x, y in zip(ds.X, ds.labels) if y * dot(w, x) < 0]
    printed = [sum(y * x[i] for x, y in wrong) for i in range(2)]      # -Σ(-yX) = +ΣyX
    step = [wi - Fraction(1, 100) * gi for wi, gi in zip(w, printed)]
    assert loss(step) > loss(w)


@covers('eta-irrelevant')
def test_eta_does_not_matter_from_zero_but_does_from_a_nonzero_start():
    ds = load("textbook")
    assert len({pla.run(ds, eta=e, order="first").updates for e in ("1/3", 1, 5)}) == 1
    assert len({pla.run(ds, eta=e, order="first", w0=(1, 0, 0)).updates
                for e in ("1/3", 1, 5)}) > 1


@covers('pocket-compare')
def test_pocket_compared_with_the_previous_vector_ends_worse():
    ds = load("pocket")
    real = pocket(ds, 5, order="cyclic", compare="pocket")
    note = pocket(ds, 5, order="cyclic", compare="previous")
    assert note.mistakes > real.mistakes == 1


@covers('zero-scores')
def test_zero_scores_occur_after_the_start():
    r = pla.run(load("tight"))
    assert any(s.t >= 1 and s.score == 0 for s in r.steps)


@covers("slow-halting")
def test_two_points_one_apart_need_more_updates_far_from_the_origin():
    counts = []
    for k in (1, 4, 16):
        ds = pla.Dataset.from_rows([[k], [k + 1]], [1, -1])
        assert ds.X[1][1] - ds.X[0][1] == 1                   # always exactly 1 apart
        r = pla.run(ds, keep_steps=False)
        assert r.halted
        counts.append(r.updates)
    assert counts[0] < counts[1] < counts[2] and counts[2] > 1000
    # the best normalised margin for k = 16 is 1/sqrt(1093): w = (33, -2) attains it exactly
    w = (33, -2)
    ds = pla.Dataset.from_rows([[16], [17]], [1, -1])
    assert margin(ds, w) == 1 and dot(w, w) == 1093


@covers('misclassified-sign')
def test_misclassified_points_have_the_signs_note_003_denies():
    r = pla.run(load("textbook"), order="first")
    assert all(s.score >= 0 for s in r.steps if s.y < 0)
    assert all(s.score <= 0 for s in r.steps if s.y > 0)


@covers('inner-le-1')
def test_inner_product_with_wf_exceeds_one():
    r = pla.run(load("textbook"), order="first")
    assert dot((-3, 1, 1), r.w) > 1


@covers('exact-1d-minimum')
def test_one_dimensional_minimum_is_found_by_enumeration():
    ev = audit.compute("exact-1d-minimum")
    m, w = ev.value("fewest mistakes, a minimiser w")
    ds = load("noisy")
    assert kernel.count_mistakes(ds.rows, ds.scale, ds.labels, w) == m == 1
    # no linear classifier does better: the duplicate-free noisy point forces one mistake
    assert all(kernel.count_mistakes(ds.rows, ds.scale, ds.labels, (b, a)) >= 1
               for a in range(-3, 4) for b in range(-7, 8))


# ----------------------------------------------------------------------------- independent checks
# (each evidence function that had only the generic `holds` check gets its own test here)
@covers("sign-alone")
def test_sign_alone_is_the_same_for_a_mistake_and_a_correct_point():
    ds = load("textbook")
    w = (1, 3, 3)
    assert {dot(w, x) > 0 for x in ds.X} == {True}               # sign(w.x) = +1 on every row
    assert [pla.is_mistake(dot(w, x), y) for x, y in zip(ds.X, ds.labels)] == [False, False, True]


@covers("angle-with-wf")
def test_a_correct_negative_point_makes_an_obtuse_angle_with_wf():
    ds = load("textbook")
    wf = (-3, 1, 1)
    assert margin(ds, wf) > 0
    neg = [x for x, y in zip(ds.X, ds.labels) if y < 0]
    assert neg and all(dot(wf, x) < 0 for x in neg)


@covers("not-converge-to-wf")
def test_pla_ends_along_one_separator_and_not_another():
    ds = load("textbook")
    r = pla.run(ds, order="first")
    a, b = (-3, 1, 1), (-5, 2, 1)
    assert r.halted and margin(ds, a) > 0 and margin(ds, b) > 0
    cos2 = lambda u, v: dot(u, v) ** 2 / (dot(u, u) * dot(v, v))  # noqa: E731
    assert cos2(a, r.w) == 1 and cos2(b, r.w) < 1


@covers("norm-growth")
def test_norm_of_wt_changes_and_can_shrink_within_t_r2():
    ds = load("textbook")
    ws = walk(pla.run(ds, order="first"))
    norms = [dot(w, w) for w in ws]
    R2 = max(dot(x, x) for x in ds.X)
    assert all(n <= t * R2 for t, n in enumerate(norms))
    assert any(b < a for a, b in zip(norms, norms[1:]))              # it can even shrink


@covers("norm-squared-28")
def test_2_8_right_side_is_the_squared_norm():
    s = pla.run(load("textbook"), order="first").steps[0]
    rhs = dot(s.w_before, s.w_before) + dot(s.x, s.x) + 2 * s.y * s.score
    assert rhs == dot(s.w_after, s.w_after) and rhs > 1              # so rhs != ||w_1||


@covers("radius-not-distance")
def test_distance_to_the_line_is_not_r_and_gives_a_false_bound():
    ds = load("tight")
    wf = (0, 1)
    T = pla.run(ds).updates
    dist2 = max(dot(wf, x) ** 2 / dot(wf[1:], wf[1:]) for x in ds.X)
    R2 = max(dot(x, x) for x in ds.X)
    gamma = margin(ds, wf)
    assert (dist2, R2, T) == (1, 2, 2)
    assert dist2 / gamma ** 2 < T <= R2 / gamma ** 2


@covers("wtf-typo")
def test_sign_of_wf_is_never_a_mistake_while_w0_makes_every_row_one():
    ds = load("tight")
    assert not any(pla.is_mistake(dot((0, 1), x), y) for x, y in zip(ds.X, ds.labels))
    assert all(pla.is_mistake(dot((0, 0), x), y) for x, y in zip(ds.X, ds.labels))


@covers("max-over-n")
def test_the_printed_maximum_is_one_row_not_r2():
    ds = load("textbook")
    s = pla.run(ds, order="first").steps[1]
    assert dot(s.x, s.x) < max(dot(x, x) for x in ds.X)


@covers("cos-bound-29")
def test_corrected_cosine_bound_holds_at_every_update():
    ds = load("textbook")
    wf = (-5, 2, 1)
    rho, R2 = margin(ds, wf), max(dot(x, x) for x in ds.X)
    for t, w in enumerate(walk(pla.run(ds, order="first"))[1:], start=1):
        assert dot(wf, w) > 0
        assert dot(wf, w) ** 2 * dot(wf, wf) * R2 >= t * rho ** 2 * dot(wf, wf) * dot(w, w)


@covers("indicator-215")
def test_sum_of_signs_has_a_worse_minimiser_than_the_mistake_count():
    ds = load("noisy")
    w = (-1, 0)
    assert sum(1 if dot(w, x) > 0 else -1 for x in ds.X) == -ds.n       # the least sum of signs
    assert kernel.count_mistakes(ds.rows, ds.scale, ds.labels, w) == 2 > 1


@covers("sign-separable-zero-margin")
def test_sign_separator_with_zero_margin_and_its_shifted_repair():
    ds = load("tight")
    wf = (1, 1)
    assert [1 if dot(wf, x) > 0 else -1 for x in ds.X] == list(ds.labels)   # sign(0) = -1
    assert margin(ds, wf) == 0
    assert margin(ds, (Fraction(0), 1)) > 0 and margin(ds, (Fraction(1, 2), 1)) == Fraction(1, 2)


@covers("t-counts-updates")
def test_updates_are_not_rounds():
    r = pla.run(load("textbook"))
    assert r.halted and r.updates > r.epochs


@covers("index-nt")
def test_row_of_the_t_th_update_is_not_row_t():
    r = pla.run(load("textbook"), order="first")
    assert [s.index + 1 for s in r.steps][:3] != [1, 2, 3]


@covers("w0-clash")
def test_w0_is_the_zero_vector_and_a_nonzero_bias():
    r = pla.run(load("textbook"), order="first")
    assert set(r.steps[0].w_before) == {0} and r.w[0] != 0


@covers("loss-three-counts")
def test_three_mistake_counts_at_w_zero():
    ds = load("tight")
    by_sign_plus = sum(1 for y in ds.labels if y != 1)
    strict = sum(1 for x, y in zip(ds.X, ds.labels) if y * dot((0, 0), x) < 0)
    indicator = sum(1 for x, y in zip(ds.X, ds.labels) if -y * dot((0, 0), x) >= 0)
    assert (by_sign_plus, strict, indicator) == (1, 0, 2)


@covers("distance-sign")
def test_first_line_of_the_distance_loss_is_negative():
    ds = load("loss", bias=False)
    w = (1, 0)
    wrong = [(x, y) for x, y in zip(ds.X, ds.labels) if y * dot(w, x) < 0]
    assert wrong and all(y > 0 for _, y in wrong)
    assert sum(dot(w, x) for x, _ in wrong) < 0 < sum(-y * dot(w, x) for x, y in wrong)


@covers("noise-target")
def test_target_agrees_with_most_but_not_all_noisy_labels():
    ds = load("noisy")
    agree = sum(1 for x, y in zip(ds.X, ds.labels) if (1 if x[1] >= 0 else -1) == y)
    assert (agree, ds.n) == (4, 5)


@covers("cyclic-pocket-stuck")
def test_cyclic_walk_repeats_a_cycle_without_an_optimal_vector():
    ds = load("cycle")
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, [2, 2, 1, 1])
    r = pla.run(ds, max_updates=40)
    states = [(s.w_before, s.index) for s in r.steps]
    assert states[7:13] == states[13:19]                        # a cycle of 6 updates
    visited = walk(r)[:14]
    assert min(kernel.count_mistakes(ds.rows, ds.scale, ds.labels, w) for w in visited) == 2
    assert kernel.count_mistakes(ds.rows, ds.scale, ds.labels, (Fraction(-5, 2), -1)) == 1
    assert pocket(ds, 300, order="cyclic").mistakes == 2
    assert pocket(ds, 60, order="random", seed=0).mistakes == 1


@covers("constant-classifier")
def test_the_optimal_pocket_vector_is_constant():
    ds = load("pocket")
    w = pocket(ds, 5, order="cyclic").w
    assert w[1:] == (0, 0) and w[0] != 0
    assert kernel.count_mistakes(ds.rows, ds.scale, ds.labels, w) == 1


@covers("perceptron-loss-trivial")
def test_perceptron_loss_is_zero_at_w_zero_on_inseparable_data():
    ds = load("pocket")
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, [1, 0, 0, 1])

    def loss(w):
        return sum(-y * dot(w, x) for x, y in zip(ds.X, ds.labels) if y * dot(w, x) <= 0)

    assert loss((0, 0, 0)) == 0
    assert all(pla.is_mistake(dot((0, 0, 0), x), y) for x, y in zip(ds.X, ds.labels))
    w = (-1, 1, 1)
    assert loss(w) > 0 and loss(tuple(Fraction(v, 1000) for v in w)) == loss(w) / 1000


@covers("strict-halts-inseparable")
def test_strict_rule_halts_on_inseparable_data_and_sign_plus_on_a_non_separator():
    ds = load("pocket")
    r = pla.run(ds, zero="correct")
    assert r.halted and r.updates == 0
    assert not pla.run(ds, max_updates=100, keep_steps=False).halted
    tight = load("tight")
    plus = pla.run(tight, zero="positive")
    assert plus.halted and margin(tight, plus.w) == 0


@covers("cyclic-pocket-stuck")
def test_random_cycles_miss_the_optimum_for_some_seeds_and_random_visits_do_not():
    ds = load("cycle")
    ends = [pocket(ds, 500, order="random-cycle", seed=s).mistakes for s in range(100)]
    assert min(ends) == 1 and 10 <= ends.count(2) <= 40 and set(ends) == {1, 2}
    assert {pocket(ds, 500, order="random", seed=s).mistakes for s in range(20)} == {1}


@covers("random-not-faster")
def test_random_order_is_slower_on_average_than_the_cyclic_order_on_pocket_data():
    ds = load("pocket")
    counts = [kernel.count_mistakes(ds.rows, ds.scale, ds.labels, w)
              for w in walk(pla.run(ds, max_updates=10))]
    cyclic = counts.index(1)  # pocket.dat: one point with both labels, so 1 is the optimum
    firsts = [pocket(ds, 200, order="random", seed=s).walk_mistakes.index(1) for s in range(100)]
    assert cyclic == 3
    assert Fraction(sum(firsts), len(firsts)) > cyclic
    assert sum(1 for t in firsts if t > cyclic) >= 10


def test_every_piece_of_evidence_has_its_own_independent_test():
    assert set(COVERED) == set(audit.EVIDENCE), set(audit.EVIDENCE) ^ set(COVERED)


# ----------------------------------------------------------------------------- quotations, grades
QUOTE = re.compile(r"^> \*\*(?P<seed>\d{3}), l\. (?P<a>\d+)(?:–(?P<b>\d+))?\*\* `(?P<q>[^`]+)`  $")
TRANSLATION = re.compile(r"^> \*English: .+\*$")
GRADES = ("Wrong", "Gap", "Ambiguous", "Typo", "Withdrawn")


#: The setting that names the folder of the seed notes (README, "Tests that need the seed notes").
SEEDS_SETTING = "PLA_SEEDS"


def seed_folder():
    """The folder of the seed notes named by PLA_SEEDS; the test is skipped, with that reason,
    when PLA_SEEDS is not set (a fresh clone: the notes are not part of the repository) and
    fails when it is set to a folder without them (.ci/run sets it to ../shared/seeds)."""
    setting = os.environ.get(SEEDS_SETTING)
    if not setting:
        pytest.skip(f"the seed notes are not part of the repository: set {SEEDS_SETTING}=DIR "
                    "(.ci/run sets it to ../shared/seeds) to check the quotations against them")
    folder = Path(setting)
    if not folder.is_absolute():
        folder = ROOT / folder
    if not folder.is_dir() or not any(folder.glob("*_*.txt")):
        pytest.fail(f"{SEEDS_SETTING}={setting}: no seed notes there ({folder}): cannot check "
                    "the quotations")
    return folder


def _seed_lines(prefix):
    (path,) = list(seed_folder().glob(f"{prefix}_*.txt"))
    return path.read_text(encoding="utf-8").splitlines()


def _quotes(text):
    lines = text.splitlines()
    found = []
    for i, line in enumerate(lines):
        if line.startswith("> **") and ", l. " in line[:20]:
            m = QUOTE.match(line)
            assert m, f"quotation line not in the machine-readable form: {line!r}"
            found.append((m, lines[i + 1] if i + 1 < len(lines) else ""))
    return found


def test_every_quotation_is_verbatim_at_the_cited_line_and_translated():
    quotes = _quotes(PAGE.read_text(encoding="utf-8"))
    assert len(quotes) >= 80
    for m, next_line in quotes:
        seed = _seed_lines(m["seed"])
        a, b = int(m["a"]), int(m["b"] or m["a"])
        cited = "\n".join(seed[a - 1:b])
        assert m["q"] in cited, f"{m['seed']} l. {a}: {m['q']!r} not in {cited!r}"
        assert TRANSLATION.match(next_line), f"no English translation after {m.group(0)!r}"


def test_the_quotation_check_catches_a_misquote():
    bad = "> **002, l. 89** `代表每一個 xn{\\bf x}_n 和 wf{\\bf w}_f 的夾角都大於 0`  "
    (m, _), = _quotes(bad + "\n> *English: x*")
    assert m["q"] not in _seed_lines("002")[88]


def _grade(body):
    m = re.search(r"\*\*(Wrong|Gap|Ambiguous|Typo|Withdrawn)\b", body)
    return m.group(1) if m else None


def _findings():
    return {h.split(" ", 1)[0]: (h, b) for h, b in _sections(PAGE.read_text(encoding="utf-8"))}


def test_every_finding_has_a_grade_from_the_legend_and_the_legend_lists_them():
    text = PAGE.read_text(encoding="utf-8")
    for grade in GRADES:
        assert f"- **{grade}.**" in text
    for number, (heading, body) in _findings().items():
        assert _grade(body) in GRADES, heading


EXPECTED_GRADES = {
    # withdrawn accusations
    "0.3": "Withdrawn", "2.4": "Withdrawn", "2.8": "Withdrawn", "2.12": "Withdrawn",
    # overstated ones, regraded
    "0.6": "Ambiguous", "1.8": "Gap", "3.8": "Ambiguous", "4.2": "Ambiguous", "2.3": "Ambiguous",
    "2.11": "Ambiguous", "0.2": "Gap", "1.18": "Ambiguous", "2.13": "Ambiguous", "3.10": "Gap",
    "1.19": "Ambiguous", "4.9": "Ambiguous", "1.7": "Typo", "3.13": "Typo",
    # 000's Pocket rule is not ambiguous
    "0.7": "Wrong",
    # new findings of the second reading
    "1.21": "Gap", "3.14": "Wrong",
    # the third reading (issue 28): an overclaim, and the same slip graded alike everywhere
    "0.8": "Wrong", "1.4": "Typo", "1.10": "Typo", "4.6": "Typo",
    "1.5": "Ambiguous", "1.20": "Ambiguous",
}


@pytest.mark.parametrize("number", sorted(EXPECTED_GRADES))
def test_grade_of_each_regraded_finding(number):
    heading, body = _findings()[number]
    assert _grade(body) == EXPECTED_GRADES[number], heading


def test_withdrawn_accusations_are_gone():
    f = _findings()
    assert "sign(0) = ±1, a $\\mathbf w_f$ can satisfy" not in f["0.3"][1]
    assert "the first relation is\nan equality" not in f["1.7"][1] and "“≥” for “=”" not in f["1.7"][0]
    assert "≥" not in f["1.7"][0] and "for =" not in f["1.7"][0]
    assert "Wrong relation" not in f["2.8"][1]
    assert "should be g" not in f["2.12"][0]
    assert "swap the signs" not in f["3.13"][1] and "wrong signs" not in f["3.13"][0]
    # our own mathematical errors, corrected
    assert "exactly\nwhen there is no mistake" not in f["3.5"][1]
    assert "W = 0" in f["3.5"][1]
    assert "close to each other" not in f["2.11"][1] and "exactly 1 apart" in f["2.11"][1]
    # the misquote of 2.6
    assert " 和 " not in f["2.6"][1].split("\n")[2]


def test_withdrawn_findings_carry_no_evidence_box():
    for number, (heading, body) in _findings().items():
        if _grade(body) == "Withdrawn":
            assert "```claim" not in body


# ----------------------------------------------------------------------------- summary, derivations
SUMMARY_ROW = re.compile(r"^\| \[(?P<num>\d\.\d+)\]\(#finding-(?P<anchor>[\d-]+)\) \| "
                         r"(?P<seed>\d{3}), l\. (?P<lines>[^|]+) \| (?P<grade>\w+) \| "
                         r"(?P<severity>[^|]+) \| (?P<fix>.+) \|$", re.M)
SEVERITIES = ("theorem", "algorithm", "notation", "style", "—")
STYLE_APPENDIX = ("1.3", "1.18", "1.21", "2.13", "4.1")


def _summary_rows():
    text = PAGE.read_text(encoding="utf-8")
    summary = text.split("## Summary of the findings", 1)[1].split("\n## ", 1)[0]
    return {m["num"]: m for m in SUMMARY_ROW.finditer(summary)}


def test_the_summary_comes_first_and_agrees_with_every_finding():
    text = PAGE.read_text(encoding="utf-8")
    assert text.index("## Summary of the findings") < text.index("## Notation side by side")
    rows, findings = _summary_rows(), _findings()
    assert set(rows) == set(findings) - set(STYLE_APPENDIX)
    for num, row in rows.items():
        heading, body = findings[num]
        assert row["anchor"] == num.replace(".", "-") and f"{{ #finding-{row['anchor']} }}" in heading
        assert row["seed"] == f"00{num.split('.')[0]}"
        assert f"(line {row['lines']})" in heading or f"(lines {row['lines']})" in heading, num
        assert row["grade"] == _grade(body), num
        assert row["severity"] in SEVERITIES and (row["severity"] == "—") == (row["grade"] == "Withdrawn")


def test_the_pedantic_findings_are_in_the_style_appendix():
    text = PAGE.read_text(encoding="utf-8")
    appendix = text.split("## Style appendix", 1)[1]
    for num in STYLE_APPENDIX:
        assert f"#### {num} " in appendix
    assert all(f"#### {num} " not in text.split("## Style appendix", 1)[0] for num in STYLE_APPENDIX)


def test_convention_findings_link_to_the_conventions_box():
    notes_index = (ROOT / "docs" / "notes" / "index.md").read_text(encoding="utf-8")
    assert "{ #recommended-conventions }" in notes_index
    for num in ("0.1", "1.1", "1.13", "1.14", "1.16", "2.1", "3.9", "3.10", "3.12", "4.3"):
        assert "notes/index.md#recommended-conventions" in _findings()[num][1], num


def test_the_disagreements_are_disagreements():
    text = PAGE.read_text(encoding="utf-8")
    disagreements = text.split("## Where the notes disagree", 1)[1].split("\n## ", 1)[0]
    assert "Does PLA stop only on separable data" not in disagreements
    assert "What minimising gives" not in disagreements
    assert "**The visiting order of PLA.**" in disagreements and "随机初始化 w" in disagreements
    steps = re.findall(r"^(\d+)\. ", text.split("## How we audited", 1)[1].split("\n## ", 1)[0], re.M)
    assert steps == [str(i) for i in range(1, len(steps) + 1)]


DERIVATION_ROW = re.compile(r"^\| (?P<line>\d+) \| `(?P<q>[^`]+)` \| (?P<rest>.+) \|$", re.M)


def _derivations():
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## Corrected derivations, side by side", 1)[1].split("\n## ", 1)[0]
    return {m["seed"]: body for m, body in
            ((re.match(r"(?P<seed>\d{3})", part), part) for part in section.split("\n### ")[1:])}


def test_each_side_by_side_derivation_quotes_its_note_verbatim_and_cites_findings():
    derivations = _derivations()
    assert sorted(derivations) == ["001", "002", "003", "004"]
    for seed, body in derivations.items():
        assert "| line | as written | corrected | why |" in body
        rows = list(DERIVATION_ROW.finditer(body))
        assert len(rows) >= 6, seed
        lines = _seed_lines(seed)
        for row in rows:
            assert row["q"] in lines[int(row["line"]) - 1], f"{seed} l. {row['line']}: {row['q']!r}"
            why = row["rest"].rsplit(" | ", 1)[1]
            assert "#finding-" in why or "right as printed" in why, row.group(0)
        assert "```claim" in body and "**By hand" in body, seed
    assert "l. 131" not in derivations["001"] and "| 131 |" in derivations["001"]


def test_the_canonical_proof_pins_every_note_to_lines():
    text = PAGE.read_text(encoding="utf-8")
    proof = text.split("## The canonical proof", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in proof.splitlines() if re.match(r"\| \d\. ", line)]
    assert len(rows) == 8
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        assert len(cells) == 7, row
        for cell in cells[2:]:
            assert cell == "—" or re.match(r"l\. \d", cell), cell
