"""The Homework page's answers equal what the page's commands print (sitebuild.homework)."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

import pla
from tests.cli_runner import pla_cli
from sitebuild import homework

PAGE = Path(__file__).resolve().parent.parent / "docs" / "homework.md"
RUNS = 12


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return homework.make_homework_data(tmp_path_factory.mktemp("homework"))


def test_the_page_makes_the_data_with_the_module_arguments():
    lines = [line[2:] for line in PAGE.read_text(encoding="utf-8").splitlines()
             if line.startswith("$ pla make-data ")]
    made = {shlex.split(line)[-1]: tuple(shlex.split(line)[2:-1]) for line in lines}
    assert made == {"hw1_15.dat": homework.SEPARABLE_DATA,
                    "hw1_18_train.dat": homework.NOISY_DATA}


def test_the_data_have_the_homework_shape(data):
    assert (data.separable.n, data.separable.d) == (400, 4)
    assert (data.train.n, data.train.d, data.test.n, data.test.d) == (500, 4, 500, 4)


def test_question_15_is_one_exact_cyclic_run_with_sign0_negative(data):
    answer = homework.answer(homework.QUESTIONS[0], data)
    result = pla.run(data.separable, "cyclic", zero="negative")
    assert answer.value == result.updates and answer.halted == 1
    out = pla_cli("run", str(data.directory / "hw1_15.dat"), "--order", "cyclic", "--zero",
                  "negative", "--json")
    assert json.loads(out.out)["updates"] == answer.value


@pytest.mark.parametrize("number", [16, 17])
def test_random_cycle_answers_equal_pla_run_runs(data, number):
    question = next(q for q in homework.QUESTIONS if q.number == number)
    answer = homework.answer(question, data, runs=RUNS)
    args = shlex.split(question.command("hw1_15.dat"))[3:]
    args[args.index("--runs") + 1] = str(RUNS)
    out = pla_cli("run", str(data.directory / "hw1_15.dat"), *args, "--json")
    printed = json.loads(out.out)
    assert Fraction(printed["mean_updates"]) == answer.value
    assert tuple(r["updates"] for r in printed["runs"]) == answer.counts


@pytest.mark.parametrize("number", [18, 19, 20])
def test_pocket_answers_equal_pla_pocket_runs(data, number):
    question = next(q for q in homework.QUESTIONS if q.number == number)
    answer = homework.answer(question, data, runs=RUNS)
    args = shlex.split(question.command("train", "test"))[3:]
    args[args.index("--runs") + 1] = str(RUNS)
    args[args.index("--test") + 1] = str(data.directory / "hw1_18_test.dat")
    out = pla_cli("pocket", str(data.directory / "hw1_18_train.dat"), *args, "--json")
    assert out.code == 0, out.err
    assert Fraction(json.loads(out.out)["mean_test_error"]) == answer.value


def test_eta_half_gives_the_same_counts_and_tables_show_every_answer(data):
    answers, variants = homework.answer_all(data, runs=RUNS)
    by_number = {a.question.number: a for a in answers}
    assert by_number[16].counts == by_number[17].counts
    page = homework.expand_homework_markers("<!-- homework-answers -->\n\n<!-- homework-variants -->",
                                            answers, variants)
    for a in answers + variants:
        assert a.question.command(*homework._files(a.question)) in page
    assert str(by_number[15].value) in page and "<!--" not in page
    figure = homework.update_counts_figure(answers)
    assert "identical" in figure.axes[0].get_title()
    changed = replace(by_number[17], counts=by_number[17].counts[:-1] + (0,))
    figure = homework.update_counts_figure(tuple(changed if a.question.number == 17 else a
                                                 for a in answers))
    assert "different" in figure.axes[0].get_title()


def test_the_page_has_both_markers():
    text = PAGE.read_text(encoding="utf-8")
    assert homework.ANSWERS_MARKER.search(text) and homework.VARIANTS_MARKER.search(text)
    assert re.search(r"figures/homework-update-counts\.png", text)
