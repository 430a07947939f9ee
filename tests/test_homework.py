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
    assert made == {"sample_15.dat": homework.SEPARABLE_DATA,
                    "sample_18_train.dat": homework.NOISY_DATA}


def test_the_data_have_the_homework_shape(data):
    assert (data.separable.n, data.separable.d) == (400, 4)
    assert (data.train.n, data.train.d, data.test.n, data.test.d) == (500, 4, 500, 4)


def test_question_15_is_one_exact_cyclic_run_with_sign0_negative(data):
    answer = homework.answer(homework.QUESTIONS[0], data)
    result = pla.run(data.separable, "cyclic", zero="negative")
    assert answer.value == result.updates and answer.halted == 1
    out = pla_cli("run", str(data.directory / "sample_15.dat"), "--order", "cyclic", "--zero",
                  "negative", "--json")
    assert json.loads(out.out)["updates"] == answer.value


@pytest.mark.parametrize("number", [16, 17])
def test_random_cycle_answers_equal_pla_run_runs(data, number):
    question = next(q for q in homework.QUESTIONS if q.number == number)
    answer = homework.answer(question, data, runs=RUNS)
    args = shlex.split(question.command("sample_15.dat"))[3:]
    args[args.index("--runs") + 1] = str(RUNS)
    out = pla_cli("run", str(data.directory / "sample_15.dat"), *args, "--json")
    printed = json.loads(out.out)
    assert Fraction(printed["mean_updates"]) == answer.value
    assert tuple(r["updates"] for r in printed["runs"]) == answer.counts


@pytest.mark.parametrize("number", [18, 19, 20])
def test_pocket_answers_equal_pla_pocket_runs(data, number):
    question = next(q for q in homework.QUESTIONS if q.number == number)
    answer = homework.answer(question, data, runs=RUNS)
    args = shlex.split(question.command("train", "test"))[3:]
    args[args.index("--runs") + 1] = str(RUNS)
    args[args.index("--test") + 1] = str(data.directory / "sample_18_test.dat")
    out = pla_cli("pocket", str(data.directory / "sample_18_train.dat"), *args, "--json")
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



# ----------------------------------------------------------------------------- the page cannot be misread
def test_generated_files_are_called_samples_and_the_table_says_so_in_caption_and_rows(data):
    text = PAGE.read_text(encoding="utf-8")
    built = "\n".join(re.findall(r"```pla-run\n(.*?)```", text, re.S))  # run on the generated data
    assert built.count("sample_") >= 4 and "hw1_" not in built
    assert sorted(p.name for p in data.directory.glob("*.dat")) == [
        "sample_15.dat", "sample_18_test.dat", "sample_18_train.dat"]
    q = homework.QUESTIONS
    answers = tuple(homework.Answer(question, Fraction(1, 3), 2, 0, (1, 2)) for question in q)
    table = homework.answers_table(answers)
    assert table.splitlines()[0] == homework.SAMPLE_CAPTION and "not the homework's answers" in table
    rows = [line for line in table.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) == 6 and all(homework.SAMPLE_ROW_NOTE in row for row in rows)
    assert all("sample_" in row and "hw1_" not in row for row in rows)


def test_the_page_leads_with_commands_for_your_files_with_jobs():
    text = PAGE.read_text(encoding="utf-8")
    lead = text.split("## Run these commands on your files", 1)[1].split("\n## ", 1)[0]
    assert text.index("## Run these commands on your files") < text.index("## The data")
    blocks = re.findall(r"```console\n(.*?)```", lead, re.S)
    commands = [line for block in blocks for line in block.splitlines()]
    assert commands[0].startswith("pla homework hw1 ") and "--jobs" in commands[0]
    assert len(commands) == 7 and all("--jobs" in c for c in commands if "--runs" in c)
    for question, command in zip(homework.QUESTIONS, commands[1:]):
        assert shlex.split(command)[:2] == shlex.split(question.command("f", "t"))[:2]
        assert all(option in shlex.split(command) for option in question.options), command
    assert "random cycles\n  give Pocket walks" not in text.lower() and "do *not* give Pocket walks" in text


# ----------------------------------------------------------------------------- pla homework hw1
HOMEWORK_RUNS = 6


def test_pla_homework_answers_all_six_questions_exactly_as_the_single_commands(data):
    d = data.directory
    out = pla_cli("homework", "hw1", str(d / "sample_15.dat"), str(d / "sample_18_train.dat"),
                  str(d / "sample_18_test.dat"), "--runs", str(HOMEWORK_RUNS), "--jobs", "2",
                  "--json")
    assert out.code == 0, out.err
    printed = {a["question"]: a for a in json.loads(out.out)["answers"]}
    assert sorted(printed) == [15, 16, 17, 18, 19, 20]
    studies: dict = {}
    for question in homework.QUESTIONS:
        expected = homework.answer(question, data, runs=HOMEWORK_RUNS, pocket_studies=studies)
        got = printed[question.number]
        assert Fraction(got["value"]) == expected.value, question.number
        assert got["checked"] > 0 and got["runs"] == (1 if question.kind == "run" else HOMEWORK_RUNS)
        assert "seed" in got["seeds"]


def test_pla_homework_human_output_names_values_seeds_and_checks(data):
    out = pla_cli("homework", "hw1", str(data.directory / "sample_15.dat"), "--runs", "3")
    assert out.code == 0, out.err
    expected = pla.run(data.separable, "cyclic", zero="negative").updates
    assert f"Q15  number of updates of the naive cycle: {expected}\n" in out.out
    assert "seeds 0 + 1000003*k, k = 0..2" in out.out and "0 violations" in out.out
    assert "Q18" not in out.out.split("Q18-20 need")[0]


def test_pla_homework_needs_train_and_test_together(data):
    out = pla_cli("homework", "hw1", str(data.directory / "sample_15.dat"),
                  str(data.directory / "sample_18_train.dat"))
    assert out.code == 2 and len(out.err.strip().splitlines()) == 1
    assert "TRAIN and TEST" in out.err and "Traceback" not in out.err


def test_pla_homework_reports_a_failed_proof_check_with_question_and_exit_4(data, monkeypatch, capsys):
    """A separator that lies about its margin must make the check of the first question fail."""
    from verify.checks import checked_run
    from verify.cli import main

    honest = checked_run.reference_separator(data.separable)
    liar = replace(honest, rho=honest.rho * 1000)
    monkeypatch.setattr(checked_run, "reference_separator", lambda *a, **k: liar)
    code = main(["homework", "hw1", str(data.directory / "sample_15.dat"), "--runs", "2"])
    err = capsys.readouterr().err
    assert code == 4, err
    assert err.startswith("pla: error: question 15: check failed") and len(err.strip().splitlines()) == 1
