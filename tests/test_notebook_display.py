"""Rich display in Jupyter (issue 30): a run as the step player, a report, a certificate and a
claim's verdict as HTML with their exact numbers; plain repr unchanged; ``import pla`` still
imports neither :mod:`verify` nor sympy.  The notebook executed by a real kernel is in
tests/test_notebook_adoption.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import pla
from pla.notebook import folded_number_html, player_refusal, result_html

TEXTBOOK = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])


def _player_json(page: str) -> dict:
    match = re.search(r'<script type="application/json" class="pla-player-data">(.*?)</script>',
                      page, re.S)
    assert match, "no player data in the HTML"
    return json.loads(match.group(1).replace("<\\/", "</"))


def test_a_run_shows_the_step_player_with_every_exact_state() -> None:
    result = pla.run(TEXTBOOK, order="first")
    page = result._repr_html_()
    data = _player_json(page)
    assert data["kind"] == "pla" and len(data["states"]) == result.updates + 1
    # every state's weights are the run's, exactly
    shown = [state["w"] for state in data["states"]]
    expected = ["(0, 0, 0)"] + ["(" + ", ".join(str(v) for v in s.w_after) + ")"
                                for s in result.steps]
    assert shown == expected
    # w_f is the final w; rho = min y w.x = 1, R^2 = 1 + 4^2 + 3^2 = 26, ||w||^2 = 11
    assert data["constants"]["rho"] == "1" and data["constants"]["R2"] == "26"
    assert data["constants"]["wf_norm2"] == "11" and data["constants"]["bound"] == "286"
    # self-contained: script and stylesheet inline, nothing fetched
    assert "<script>" in page and "pla-frame" in page and "<style>" in page
    assert "http://" not in page and "https://" not in page and "src=" not in page


def test_two_players_in_one_notebook_have_different_ids() -> None:
    first, second = (pla.run(TEXTBOOK, order=o)._repr_html_() for o in ("first", "cyclic"))
    ids = [re.search(r'id="(player-[^"]+)"', page).group(1) for page in (first, second)]
    assert ids[0] != ids[1]


def test_plain_repr_is_unchanged_and_does_not_show_the_data() -> None:
    result = pla.run(TEXTBOOK, order="first")
    assert repr(result).startswith("Result(w=(Fraction(-3, 1), Fraction(1, 1), Fraction(1, 1)), "
                                   "updates=7, epochs=8, halted=True, options=RunOptions(")
    assert "dataset" not in repr(result)
    assert result == pla.run(TEXTBOOK, order="first", keep_steps=True)


def test_runs_that_cannot_be_drawn_show_their_numbers_and_say_why() -> None:
    wide = pla.Dataset.from_rows([[1, 0, 0], [-1, 0, 0]], [1, -1])
    page = result_html(pla.run(wide))
    assert "pla-player-data" not in page and "No step player" in page and "2 features" in page
    stopped = pla.run(pla.Dataset.from_rows([[1, 1], [1, 1]], [1, -1]), max_updates=5)
    page = result_html(stopped)
    assert "did not halt" in page and "stopped by max-updates" in page
    assert player_refusal(pla.run(TEXTBOOK, order="first", keep_steps=False)) == \
        "the run did not keep its steps (keep_steps=False)"
    assert "eta = 1" in player_refusal(pla.run(TEXTBOOK, eta="1/2"))


def test_long_numbers_are_folded_but_kept_exactly() -> None:
    value = Fraction(10**60 + 1, 3)
    page = folded_number_html(value)
    assert page.startswith("<details><summary>") and str(value) in page
    assert "≈3.33333e+59" in page


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=1, max_size=8,
                unique=True), st.integers(-5, 5), st.integers(-5, 5))
def test_the_player_of_any_separable_run_matches_the_run(points, a, b) -> None:
    """On data labelled by a line through the origin the run halts; the player's last state is
    its final w, and every gauge's value respects its bound (checked exactly when drawn)."""
    labels = [1 if a * x + b * y > 0 else -1 for x, y in points]
    ds = pla.Dataset.from_rows([list(p) for p in points], labels)
    result = pla.run(ds, order="cyclic", max_updates=300)
    if player_refusal(result) is not None:
        return
    states = _player_json(result_html(result))["states"]
    assert states[-1]["w"] == "(" + ", ".join(str(v) for v in result.w) + ")"
    for state in states:
        assert Fraction(state["inner"]["exact"]) >= Fraction(state["inner_bound"]["exact"])
        assert Fraction(state["norm2"]["exact"]) <= Fraction(state["norm_bound"]["exact"])


def test_a_checked_report_a_certificate_and_verdicts_display_exactly() -> None:
    import verify
    from verify.claims.checker import check_claim_text

    report = verify.checked_run(TEXTBOOK, order="first").report
    page = report._repr_html_()
    assert "<code>117</code>" in page and "<code>0</code> violations" in page
    assert "proof checked" in page
    certificate = verify.certify(TEXTBOOK)
    page = certificate._repr_html_()
    assert "<code>5/4</code>" in page and "<code>13/4</code>" in page and "separable" in page
    proved = check_claim_text("id: sq\nassume: a >= 0, b >= 0\n(a + b)**2 >= a**2 + b**2")
    page = proved._repr_html_()
    assert "pla-badge-good" in page and ">proved<" in page and "Claim sq" in page
    assert "Then (a + b)**2 &gt;= a**2 + b**2." in page and "Certificate" in page
    wrong = check_claim_text("a**2 > a")
    page = wrong._repr_html_()
    assert "pla-badge-bad" in page and "at a = 0: a**2 = 0" in page
    expected = check_claim_text("expect: refuted\na**2 > a")
    assert "pla-badge-good" in expected._repr_html_()
    assert repr(proved).startswith("Verdict(status='proved'")


def test_import_pla_and_a_display_import_neither_verify_nor_sympy() -> None:
    code = ("import sys, pla\n"
            "r = pla.run(pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1]))\n"
            "r._repr_html_()\n"
            "print(sorted(m for m in sys.modules if m == 'sympy' or m.startswith('verify')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_claim_cell_magic_shows_the_verdict():
    from IPython.testing.globalipapp import start_ipython

    ip = start_ipython()
    ip.run_line_magic("load_ext", "verify.claims")
    verdict = ip.run_cell_magic("claim", "", "assume: a >= 0, b >= 0\n(a + b)**2 >= a**2 + b**2\n")
    assert verdict.status == "proved"
    assert "pla-badge-good" in verdict._repr_html_()
    refuted = ip.run_cell_magic("claim", "", "x**2 >= x\n")
    assert refuted.status == "refuted" and refuted.counterexample is not None
