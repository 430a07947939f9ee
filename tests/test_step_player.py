"""The step players' data (docs/hooks/sitebuild/step_player.py): exact, checked, never invented.

The browser half (the player driven in Chromium) is in tests/test_site_browser.py.
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitebuild.examples import ExampleBook, separator_facts
from sitebuild.step_player import (
    PLAYERS,
    PlayerError,
    decimal_text,
    expand_player_markers,
    pla_player_data,
    pla_states,
    pocket_player_data,
    read_trace,
)


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> ExampleBook:
    return ExampleBook(tmp_path_factory.mktemp("examples"))


@pytest.fixture(scope="module")
def textbook(book, tmp_path_factory):
    workdir = tmp_path_factory.mktemp("players")
    data = pla_player_data(book, PLAYERS["textbook-first"], workdir)
    header, steps, summary = read_trace(workdir / "textbook-first.jsonl")
    ds = book.dataset("textbook")
    X = [tuple(Fraction(v) for v in x) for x in ds.X]
    return data, steps, summary, X, list(ds.labels), book.separator("textbook")


def _dot(a, b):
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


def test_textbook_player_replays_the_classic_walk_exactly(textbook) -> None:
    data, steps, summary, X, labels, sep = textbook
    states = data["states"]
    assert len(states) == 8  # w_0 .. w_7: the seven updates of the walk-through
    assert states[-1]["w"] == "(-3, 1, 1)" and "mistake" not in states[-1]
    assert [s["mistake"]["n"] for s in states[:-1]] == [1, 3, 3, 3, 1, 3, 3]
    for k, state in enumerate(states):
        w = tuple(Fraction(v) for v in state["w"].strip("()").split(", "))
        assert Fraction(state["inner"]["exact"]) == _dot(sep.w, w)
        assert Fraction(state["inner_bound"]["exact"]) == k * sep.rho
        assert Fraction(state["norm2"]["exact"]) == _dot(w, w)
        assert Fraction(state["norm_bound"]["exact"]) == k * sep.R2
        if k:
            assert Fraction(state["cos2"]) == _dot(sep.w, w) ** 2 / (sep.norm2 * _dot(w, w))
            assert Fraction(state["cos2_bound"]) == k * sep.rho ** 2 / (sep.R2 * sep.norm2)
        assert all(0 <= v <= 1 for bar in state["bars"].values() for v in bar)


def test_state_decimals_are_roundings_of_the_exact_values(textbook) -> None:
    for state in textbook[0]["states"]:
        for key in ("inner", "inner_bound", "norm2", "norm_bound"):
            exact, shown = Fraction(state[key]["exact"]), Fraction(state[key]["decimal"])
            assert abs(exact - shown) <= Fraction(1, 2 * 10 ** 5)


@settings(max_examples=60, deadline=None)
@given(step=st.integers(0, 6), coordinate=st.integers(0, 2),
       delta=st.fractions().filter(lambda f: f != 0),
       field=st.sampled_from(["w_before", "w_after", "x", "score", "index", "y"]))
def test_a_tampered_trace_is_refused(textbook, step, coordinate, delta, field) -> None:
    _, steps, summary, X, labels, sep = textbook
    forged = copy.deepcopy(steps)
    line = forged[step]
    if field in ("w_before", "w_after"):
        line[field][coordinate] = str(Fraction(line[field][coordinate]) + delta)
    elif field == "score":
        line["score"] = str(Fraction(line["score"]) + delta)
    elif field == "index":
        line["index"] = (line["index"] + 1 + coordinate % 2) % 3
    elif field == "y":
        line["y"] = -line["y"]
    else:  # x is read from the data, not from the trace: editing it changes nothing
        line["x"][coordinate] = str(Fraction(line["x"][coordinate]) + delta)
        pla_states(forged, summary, X, labels, sep, "t")
        return
    with pytest.raises(PlayerError):
        pla_states(forged, summary, X, labels, sep, "t")


def test_a_dropped_or_repeated_step_is_refused(textbook) -> None:
    _, steps, summary, X, labels, sep = textbook
    for forged in (steps[:3] + steps[4:], steps[:3] + [steps[2]] + steps[3:], steps[:-1]):
        with pytest.raises(PlayerError):
            pla_states(forged, summary, X, labels, sep, "t")


@settings(max_examples=40, deadline=None)
@given(scale=st.fractions(min_value=Fraction(101, 100), max_value=Fraction(50)))
def test_a_proposer_that_overstates_the_margin_is_caught(textbook, scale) -> None:
    """A w_f whose rho is claimed larger than it is: refused exactly when an inequality breaks."""
    _, steps, summary, X, labels, sep = textbook
    liar = type(sep)(**{**sep.__dict__, "rho": sep.rho * scale})
    weights = [tuple(Fraction(v) for v in s["w_after"]) for s in steps]
    broken = any(_dot(sep.w, w) < (k + 1) * liar.rho for k, w in enumerate(weights)) or any(
        _dot(sep.w, w) ** 2 * liar.R2 < (k + 1) * liar.rho ** 2 * _dot(w, w)
        for k, w in enumerate(weights))
    if broken:
        with pytest.raises(PlayerError, match="fails at t = "):
            pla_states(steps, summary, X, labels, liar, "t")
    else:
        pla_states(steps, summary, X, labels, liar, "t")


def test_a_separator_with_understated_radius_is_caught(textbook) -> None:
    _, steps, summary, X, labels, sep = textbook
    liar = separator_facts(sep.w, X, labels, "given")
    liar = type(liar)(**{**liar.__dict__, "R2": liar.R2 / 4})
    with pytest.raises(PlayerError, match=r"\|\|w_t\|\|\^2 <= t R\^2 fails"):
        pla_states(steps, summary, X, labels, liar, "t")


def test_pocket_player_agrees_with_the_pocket_run(book) -> None:
    data = pocket_player_data(book, "noisy")
    facts = book.pocket("noisy")
    states = data["states"]
    assert len(states) == facts.updates + 1
    assert states[-1]["pocket_t"] == facts.pocket_t
    assert states[-1]["pocket_mistakes"] == facts.mistakes
    counts = [s["pocket_mistakes"] for s in states]
    assert all(a >= b for a, b in zip(counts, counts[1:]))  # the pocket never gets worse
    assert sum(1 for s in states if s["replaced"]) == facts.pocket_updates
    for s in states:
        assert Fraction(s["walk_error"]["exact"]) == Fraction(s["walk_mistakes"], facts.n)


def test_marker_becomes_one_html_block_with_embedded_json(book, tmp_path) -> None:
    page = "# t\n\n<!-- pla: step-player textbook-first -->\n\nafter\n"
    out = expand_player_markers(page, book, tmp_path)
    block = out.split("\n\n")[2]
    assert block.startswith('<div class="pla-player"') and "\n" not in block
    payload = block.split('class="pla-player-data">')[1].split("</script>")[0]
    data = json.loads(payload)
    assert data["kind"] == "pla" and len(data["states"]) == 8
    assert block.count('class="pla-frame"') == 8 + 8  # the stage and the static fallback
    with pytest.raises(PlayerError, match="no step player named 'nope'"):
        expand_player_markers("<!-- pla: step-player nope -->", book, tmp_path)
    quoted = "| `<!-- pla: step-player NAME -->` | a player |\n"
    assert expand_player_markers(quoted, book, tmp_path) == quoted


def test_decimal_text_rounds_half_even() -> None:
    assert decimal_text(Fraction(1, 8), digits=2) == "0.12"
    assert decimal_text(Fraction(3, 8), digits=2) == "0.38"
    assert decimal_text(Fraction(-2, 3), digits=3) == "-0.667"
