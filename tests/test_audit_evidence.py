"""The audit of the lecture notes (docs/audit.md): every counterexample really refutes the note.

Each test recomputes the decisive facts directly with the toolkit (not through the evidence
module's own ``holds`` flag), so that a change of the engine, the parser or the data files
that breaks a counterexample is caught here as well as in the docs build.
"""

from __future__ import annotations

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
def test_strict_rule_never_updates_from_zero_on_data_zero_does_not_separate():
    ds = load("tight")
    r = pla.run(ds, zero="correct")
    assert (r.updates, r.halted) == (0, True)
    assert margin(ds, r.w) == 0                     # w = 0 separates nothing
    assert margin(ds, pla.run(ds).w) > 0


def test_four_sign0_conventions_four_runs():
    ds = load("tight")
    runs = {z: pla.run(ds, zero=z) for z in pla.ZERO_CONVENTIONS}
    assert len({(r.updates, r.w) for r in runs.values()}) == 4
    # sign(w.x) != y is not equivalent to y w.x <= 0 under sign(0) = +1:
    assert not pla.is_mistake(0, 1, "positive") and 1 * 0 <= 0


def test_sign_plus_one_misclassifies_a_point_with_zero_score_that_the_strict_rule_misses():
    ds = load("tight")
    first = pla.run(ds, zero="positive").steps[0]
    assert first.score == 0 and first.y == -1 and not first.y * first.score < 0


def test_one_update_can_leave_the_point_misclassified():
    r = pla.run(load("textbook"), order="first")
    assert any(a.index == b.index and b.y * b.score <= 0 for a, b in zip(r.steps, r.steps[1:]))


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


def test_l1_norm_breaks_the_expansion_of_2_8():
    s = pla.run(load("textbook"), order="first").steps[1]
    l1 = lambda v: sum(abs(c) for c in v)  # noqa: E731
    assert l1(s.w_after) ** 2 != l1(s.w_before) ** 2 + l1(s.x) ** 2 + 2 * s.y * s.score


def test_2_7_with_w_t_minus_2_is_false_and_the_step_is_an_equality():
    ds = load("textbook")
    wf = (-5, 2, 1)
    r = pla.run(ds, order="first")
    ws = walk(r)
    for s in r.steps:
        assert dot(wf, s.w_after) == dot(wf, s.w_before) + s.y * dot(wf, s.x)
    last = r.steps[-1]
    assert dot(wf, ws[-1]) != dot(wf, ws[-3]) + last.y * dot(wf, last.x)


def test_margin_ge_zero_admits_w_zero_on_non_separable_data():
    ds = load("pocket")
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, [1, 0, 0, 1])
    assert margin(ds, (0, 0, 0)) >= 0
    assert not pla.run(ds, max_updates=200, keep_steps=False).halted


def test_bound_2_12_without_the_square_fails_on_scaled_data():
    ds = load("scaled", bias=False)
    r = pla.run(ds)
    R2 = max(dot(x, x) for x in ds.X)
    rho = margin(ds, (0, 1))                        # ‖(0, 1)‖ = 1
    assert r.updates > R2 / rho                     # the printed bound
    assert r.updates <= R2 / rho ** 2               # the corrected bound


def test_rho_of_2_14_is_positive_for_a_vector_that_gets_everything_wrong():
    ds = load("nobias")
    w = (-5, 4)
    assert margin(ds, w) < 0
    assert min(dot(w, x) for x in ds.X) ** 2 > 0


def test_nonzero_w0_breaks_the_bound():
    ds = load("tight")
    bound = max(dot(x, x) for x in ds.X) * 1 / margin(ds, (0, 1)) ** 2
    assert pla.run(ds).updates <= bound < pla.run(ds, w0=(5, 0)).updates


def test_002_w0_typo_gives_a_false_inequality_from_a_nonzero_start():
    ds = load("tight")
    wf, w0 = (0, 1), (5, 0)
    r = pla.run(ds, w0=w0)
    rho = margin(ds, wf)
    assert dot(wf, r.w) < dot(w0, w0) + r.updates * rho
    assert dot(wf, r.w) >= dot(wf, w0) + r.updates * rho


def test_radius_must_include_x0_and_is_not_a_distance_to_the_line():
    ds = load("tight")
    T = pla.run(ds).updates
    assert T > max(dot(x[1:], x[1:]) for x in ds.X) / margin(ds, (0, 1)) ** 2
    assert T <= max(dot(x, x) for x in ds.X) / margin(ds, (0, 1)) ** 2


def test_strict_inequalities_of_003_are_attained():
    ds = load("tight")
    r = pla.run(ds)
    R2 = max(dot(x, x) for x in ds.X)
    assert [dot(w, w) for w in walk(r)] == [t * R2 for t in range(r.updates + 1)]
    assert r.updates == R2 / margin(ds, (0, 1)) ** 2


def test_rho_of_000_in_the_bound_of_002_is_violated():
    ds = load("tight")
    wf = (0, 2)
    R2 = max(dot(x, x) for x in ds.X)
    assert pla.run(ds).updates > R2 / margin(ds, wf) ** 2


def test_separable_through_the_origin_with_sign_zero_plus_one_but_pla_never_halts():
    ds = load("cone", bias=False)
    assert all((1 if dot((0, 1), x) >= 0 else -1) == y for x, y in zip(ds.X, ds.labels))
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, [1, 1, 0])
    assert not pla.run(ds, max_updates=100, keep_steps=False).halted


def test_no_bias_makes_threshold_data_inseparable():
    assert pla.run(load("nobias"), keep_steps=False).halted
    ds = load("nobias", bias=False)
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, [2, 1])


def test_perceptron_loss_is_not_monotone_in_the_number_of_mistakes():
    ds = load("loss", bias=False)

    def stats(w):
        wrong = [(x, y) for x, y in zip(ds.X, ds.labels) if y * dot(w, x) < 0]
        return len(wrong), sum(-y * dot(w, x) for x, y in wrong)

    (ma, la), (mb, lb), (mc, lc) = stats((1, 0)), stats((0, 1)), stats((1, 5))
    assert ma < mb and la > lb
    assert mc == ds.n and lc ** 2 / 26 < la ** 2 / 1   # all wrong, smaller distance sum


def test_printed_gradient_goes_uphill():
    ds = load("loss", bias=False)
    w = (Fraction(0), Fraction(1))

    def loss(v):
        return sum(-y * dot(v, x) for x, y in zip(ds.X, ds.labels) if y * dot(v, x) < 0)

    wrong = [(x, y) for x, y in zip(ds.X, ds.labels) if y * dot(w, x) < 0]
    printed = [sum(y * x[i] for x, y in wrong) for i in range(2)]      # -Σ(-yX) = +ΣyX
    step = [wi - Fraction(1, 100) * gi for wi, gi in zip(w, printed)]
    assert loss(step) > loss(w)


def test_eta_does_not_matter_from_zero_but_does_from_a_nonzero_start():
    ds = load("textbook")
    assert len({pla.run(ds, eta=e, order="first").updates for e in ("1/3", 1, 5)}) == 1
    assert len({pla.run(ds, eta=e, order="first", w0=(1, 0, 0)).updates
                for e in ("1/3", 1, 5)}) > 1


def test_pocket_compared_with_the_previous_vector_ends_worse():
    ds = load("pocket")
    real = pocket(ds, 5, order="cyclic", compare="pocket")
    note = pocket(ds, 5, order="cyclic", compare="previous")
    assert note.mistakes > real.mistakes == 1


def test_zero_scores_occur_after_the_start():
    r = pla.run(load("tight"))
    assert any(s.t >= 1 and s.score == 0 for s in r.steps)


def test_two_points_can_need_thousands_of_updates():
    ds = pla.Dataset.from_rows([[16], [17]], [1, -1])
    r = pla.run(ds, keep_steps=False)
    assert r.halted and r.updates > 1000


def test_misclassified_points_have_the_signs_note_003_denies():
    r = pla.run(load("textbook"), order="first")
    assert all(s.score >= 0 for s in r.steps if s.y < 0)
    assert all(s.score <= 0 for s in r.steps if s.y > 0)


def test_inner_product_with_wf_exceeds_one():
    r = pla.run(load("textbook"), order="first")
    assert dot((-3, 1, 1), r.w) > 1


def test_one_dimensional_minimum_is_found_by_enumeration():
    ev = audit.compute("exact-1d-minimum")
    m, w = ev.value("fewest mistakes, a minimiser w")
    ds = load("noisy")
    assert kernel.count_mistakes(ds.rows, ds.scale, ds.labels, w) == m == 1
    # no linear classifier does better: the duplicate-free noisy point forces one mistake
    assert all(kernel.count_mistakes(ds.rows, ds.scale, ds.labels, (b, a)) >= 1
               for a in range(-3, 4) for b in range(-7, 8))
