"""The two-point hand calculations of the audit (docs/audit.md, sitebuild/hand_calculations.py).

Every finding of the audit has exactly one calculation; every calculation shows what its
finding says; its kind agrees with the finding's grade and its "notation only" banner with the
severity of the summary; and its numbers are computed from the two points (other points give
other numbers), not typed in.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

import sitebuild.hand_calculations as hand
from tests.test_audit_evidence import seed_folder

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "audit.md"
HEADING = re.compile(r"^#### (?P<num>\d+\.\d+) ", re.M)
GRADE = re.compile(r"^\*\*(Wrong|Gap|Ambiguous|Typo|Withdrawn)\b", re.M)
SUMMARY_ROW = re.compile(r"^\| \[(?P<num>\d\.\d+)\]\(#finding-[\d-]+\) \| [^|]+ \| (?P<grade>\w+) \| "
                         r"(?P<severity>[^|]+) \|", re.M)
STYLE_APPENDIX = ("1.3", "1.18", "1.21", "2.13", "4.1")


def _sections() -> dict[str, str]:
    """Finding number -> its text, up to the next heading of any level."""
    text = PAGE.read_text(encoding="utf-8")
    starts = [(m.start(), m["num"]) for m in HEADING.finditer(text)]
    sections = {}
    for start, num in starts:
        rest = text[start:]
        end = re.search(r"\n#{2,4} ", rest)
        sections[num] = rest[:end.start() + 1] if end else rest
    return sections


def _order(num: str) -> tuple[int, ...]:
    return tuple(int(part) for part in num.split("."))


def test_every_finding_has_exactly_one_hand_calculation_and_every_calculation_a_finding():
    sections = _sections()
    assert len(sections) >= 60
    for num, body in sections.items():
        markers = [m["finding"] for m in hand.MARKER.finditer(body)]
        assert markers == [num], f"finding {num}: hand-calculation markers {markers}"
    assert set(hand.CALCULATIONS) == set(sections)


@pytest.mark.parametrize("num", sorted(hand.CALCULATIONS, key=_order))
def test_each_calculation_shows_what_its_finding_says_and_renders_it(num):
    calc = hand.compute(num)
    assert calc.holds, (num, calc.statements)
    assert len(calc.points) == 2
    for x, y in calc.points:
        assert y in (1, -1) and all(isinstance(v, Fraction) for v in x)
    text = hand.render(calc)
    for label, _ in calc.facts:
        assert label.replace("|", "\\|") in text
    verdicts = re.findall(r" — \*\*(true|false|not a statement)\*\* here\.$", text, re.M)
    assert verdicts == [{True: "true", False: "false", None: "not a statement"}[v]
                        for _, _, v in calc.statements]
    assert ("*Notation only:*" in text) == calc.notation_only
    for role, statement, _ in calc.statements:      # inline maths the site's renderer reads
        for part in (role, statement):
            assert part.count("$") % 2 == 0, (num, part)
            assert all(m == m.strip() and m for m in re.findall(r"\$([^$]*)\$", part)), (num, part)


def test_kinds_agree_with_grades_and_banners_with_severities():
    sections = _sections()
    text = PAGE.read_text(encoding="utf-8")
    summary = {m["num"]: m for m in SUMMARY_ROW.finditer(text.split("## Corrected derivations")[0])}
    for num, body in sections.items():
        calc = hand.compute(num)
        grade = GRADE.search(body)[1]
        assert (calc.kind == "withdrawn") == (grade == "Withdrawn"), num
        if grade in ("Typo", "Ambiguous"):
            assert calc.kind == "readings", num
        if grade == "Wrong":
            assert calc.kind == "wrong", num
        severity = "style" if num in STYLE_APPENDIX else summary[num]["severity"].strip()
        assert calc.notation_only == (severity in ("notation", "style")), (num, severity)


def _shifted(points, c):
    return tuple((x[:-1] + (x[-1] + c,), y) for x, y in points)


def _other_points(points):
    """Other data: scaled, swapped, one label flipped, the last coordinate shifted."""
    (a, b) = points
    return [hand.scaled(points, 2), (b, a), (a, (b[0], -b[1])), _shifted(points, 1),
            _shifted(points, -3)]


@pytest.mark.parametrize("num", sorted(hand.CALCULATIONS, key=_order))
def test_the_numbers_are_computed_from_the_points(num):
    base = hand.compute(num)
    changed = 0
    for points in _other_points(base.points):
        try:
            other = hand.compute(num, points)
        except hand.HandCalculationFailed:
            continue
        assert other.points == points
        changed += other.facts != base.facts
    assert changed >= 1, f"finding {num}: no other points change its numbers"


def test_a_calculation_that_no_longer_shows_its_finding_stops_the_build():
    calc = hand.compute("4.8")
    stale = hand.HandCalculation(calc.finding, calc.kind, calc.notation_only, calc.points,
                                 calc.facts, tuple((r, t, True) for r, t, _ in calc.statements))
    with pytest.raises(hand.HandCalculationFailed, match="no longer shows"):
        hand.render(stale)
    with pytest.raises(hand.HandCalculationFailed, match="no hand calculation for finding 9.9"):
        hand.expand_hand_markers("<!-- hand-calculation: 9.9 -->")
    # other points on which the statement as written holds: 4.8 is not refuted there
    with pytest.raises(hand.HandCalculationFailed, match="no longer shows"):
        hand.render(hand.compute("4.8", hand.scaled(hand.TIGHT, Fraction(1, 4))))


def test_the_page_shows_the_computed_numbers():
    page = hand.expand_hand_markers(PAGE.read_text(encoding="utf-8"))
    assert "<!-- hand-calculation" not in page
    assert page.count('!!! example "By hand: two points, computed at build time"') == len(hand.CALCULATIONS)
    assert "| updates, mistake iff y w.x <= 0 | `2` |" in page
    assert "| w_f.w_2 | `2` |" in page



CJK_QUOTE = re.compile(r"\"([^\"]*[\u4e00-\u9fff][^\"]*)\"")


def test_chinese_quoted_in_a_calculation_is_verbatim_in_a_seed():
    texts = [path.read_text(encoding="utf-8") for path in sorted(seed_folder().glob("*_*.txt"))]
    quoted = [(num, q) for num in sorted(hand.CALCULATIONS, key=_order)
              for role, text, _ in hand.compute(num).statements
              for q in CJK_QUOTE.findall(role + " " + text)]
    assert len(quoted) >= 3
    for num, quotation in quoted:
        assert any(quotation in text for text in texts), (num, quotation)
