"""The public Python surface: small, uniform, with the command line's defaults, results as JSON."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys

import pytest

import pla
import verify
from pla.defaults import POCKET_DEFAULTS, RUN_DEFAULTS
from pla.pocket import PocketOptions
from pla.runs import RunOptions
from verify.cli.command import build_parser
from verify.cli.pocket import options_from_args as pocket_options_from_args
from verify.cli.run import options_from_args as run_options_from_args

TEXTBOOK = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
XOR = pla.Dataset.from_rows([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1])
LINE_TEST = pla.Dataset.from_rows([[-1], [4]], [1, 1])
LINE = pla.Dataset.from_rows([[0], [1], [2], [3]], [-1, 1, -1, 1])


def _defaults(function) -> dict[str, object]:
    return {name: p.default for name, p in inspect.signature(function).parameters.items()
            if p.default is not inspect.Parameter.empty}


def test_the_surfaces_are_exactly_the_documented_ones():
    assert sorted(pla.__all__) == sorted([
        "load", "loads", "Dataset", "run", "pocket", "repeat", "Result", "PocketResult",
        "PlaExperiment", "PocketExperiment", "Perceptron", "Pocket", "DataError", "OptionError"])
    assert sorted(verify.__all__) == sorted([
        "certify", "check_weights", "checked_run", "audit", "Certificate", "Separator",
        "NonSeparable", "CheckedRun", "ProofViolation", "CheckedPerceptron", "CheckedPocket"])
    assert dir(pla) == sorted(pla.__all__) and dir(verify) == sorted(verify.__all__)
    for package in (pla, verify):
        for name in package.__all__:
            assert getattr(package, name).__doc__, f"{package.__name__}.{name} has no docstring"


def test_import_pla_loads_neither_numpy_nor_verify_and_pocket_stays_callable():
    code = ("import sys, pla; assert 'numpy' not in sys.modules and 'verify' not in sys.modules; "
            "import pla.pocket; from pla.pocket import PocketOptions; "
            "ds = pla.Dataset.from_rows([[0], [1]], [-1, 1]); "
            "print(pla.pocket(ds, 5).mistakes, 'verify' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "False"]


def test_pla_run_has_the_defaults_of_pla_run_on_the_command_line():
    args = build_parser().parse_args(["run", "data.dat"])
    api = _defaults(pla.run)
    assert run_options_from_args(args) == RunOptions(
        order=api["order"], seed=api["seed"], eta=api["eta"], w0=api["w0"], zero=api["zero"],
        max_updates=api["max_updates"])
    assert (args.timeout, args.engine) == (api["timeout"], api["engine"])
    assert {k: api[k] for k in RUN_DEFAULTS} == dict(RUN_DEFAULTS)
    assert RunOptions() == run_options_from_args(args)
    checked = _defaults(verify.checked_run)
    assert {k: checked[k] for k in RUN_DEFAULTS if k != "timeout"} == \
        {k: api[k] for k in RUN_DEFAULTS if k != "timeout"}


def test_pla_pocket_has_the_defaults_of_pla_pocket_on_the_command_line():
    args = build_parser().parse_args(["pocket", "train.dat", "--updates", "7"])
    api = _defaults(pla.pocket)
    assert pocket_options_from_args(args) == PocketOptions(
        updates=7, order=api["order"], eta=api["eta"], w0=api["w0"], zero=api["zero"],
        compare=api["compare"], keep=api["keep"])
    assert (args.seed, args.jobs, args.runs) == (api["seed"], _defaults(pla.repeat)["jobs"], 1)
    assert {k: api[k] for k in POCKET_DEFAULTS} == dict(POCKET_DEFAULTS)
    assert PocketOptions(updates=7) == pocket_options_from_args(args)


def test_repeat_takes_the_keywords_of_the_function_it_repeats():
    study = pla.repeat(TEXTBOOK, 3, order="random-cycle", seed=5, eta="1/2")
    assert study.options == RunOptions(order="random-cycle", seed=5, eta="1/2")
    assert [r.updates for r in study.runs] == [
        pla.run(TEXTBOOK, order="random-cycle", seed=5 + 1_000_003 * k, eta="1/2").updates
        for k in range(3)]
    pockets = pla.repeat(LINE, 2, algorithm="pocket", updates=9, seed=3, test=LINE_TEST)
    assert [r.w for r in pockets.runs] == [
        pla.pocket(LINE, 9, seed=3 + 1_000_003 * k, test=LINE_TEST).w for k in range(2)]
    assert pockets.options == PocketOptions(updates=9)
    with pytest.raises(pla.OptionError, match="order cyclic"):
        pla.repeat(TEXTBOOK, 2)
    with pytest.raises(TypeError):
        pla.repeat(TEXTBOOK, 2, order="random", compare="pocket")   # a Pocket keyword
    with pytest.raises(pla.OptionError, match="unknown algorithm"):
        pla.repeat(TEXTBOOK, 2, algorithm="adaline")


def test_results_are_frozen_and_their_json_is_exact():
    results = [pla.run(TEXTBOOK, eta="1/3"), pla.pocket(LINE, 9, test=LINE_TEST),
               pla.repeat(TEXTBOOK, 2, order="random"),
               pla.repeat(LINE, 2, algorithm="pocket", updates=4),
               verify.certify(TEXTBOOK), verify.certify(XOR), verify.checked_run(TEXTBOOK)]
    for result in results:
        with pytest.raises(AttributeError):
            result.seed = 1   # frozen dataclasses
        assert json.loads(json.dumps(result.to_json())) == result.to_json()
    run, _, _, _, separator, gordan, checked = results
    assert run.to_json()["w"] == [str(v) for v in run.w] and run.to_json()["w"][0] == "-1"
    assert separator.to_json()["certificate"]["norm2"] == "9/2"
    assert isinstance(gordan, verify.Certificate) and not gordan.separable
    assert checked.to_json()["bound_updates"] == 117 and checked.to_json()["updates"] == 7


def test_checked_run_accepts_options_like_pla_run():
    options = RunOptions(order="first")
    assert verify.checked_run(TEXTBOOK, options=options).result == \
        pla.run(TEXTBOOK, options=options, keep_steps=False)
