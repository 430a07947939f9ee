"""``pla pocket`` and ``pla run --runs`` end to end: JSON contracts, exit codes, messages."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import pla
from pla.pocket import count_mistakes
from tests.cli_runner import pla_cli
from verify.cli import main

# 1-D data where the positive points sit between negative ones: not separable
NOISY = "".join(f"{x} {y:+d}\n" for x, y in [(-3, -1), (-2, 1), (-1, -1), (0, 1), (1, 1),
                                              (2, -1), (3, 1), (4, -1), (5, 1), (6, -1)])
NOISY_TEST = "".join(f"{x} {y:+d}\n" for x, y in [(-4, -1), (0, 1), (2, 1), (7, -1), (8, 1)])
TEXTBOOK = "3 3 1\n4 3 1\n1 1 -1\n"
SEPARABLE = "".join(f"{x} {(x * 7) % 5} {1 if x > 2 else -1:+d}\n" for x in range(-6, 9) if x != 2)


def write(tmp_path, name, content) -> str:
    path = tmp_path / name
    path.write_text(content)
    return str(path)


def pocket_json(*args: str) -> dict:
    done = pla_cli("pocket", *args, "--json")
    assert done.code == 0, done.err
    return json.loads(done.out)


def test_pocket_json_contract(tmp_path):
    train, test = write(tmp_path, "tr.dat", NOISY), write(tmp_path, "te.dat", NOISY_TEST)
    out = pocket_json(train, "--test", test, "--updates", "20", "--runs", "5", "--seed", "3")
    assert out["updates"] == 20 and len(out["runs"]) == 5
    assert [r["seed"] for r in out["runs"]] == [3 + 1_000_003 * k for k in range(5)]
    ds = pla.load(train)
    for r in out["runs"]:
        assert set(r) >= {"seed", "train_error", "test_error", "pocket_updates"}
        assert Fraction(r["train_error"]) == Fraction(count_mistakes(ds, r["w"]), ds.n)
        assert Fraction(r["test_error"]) == Fraction(r["test_mistakes"], 5)
        assert isinstance(r["pocket_updates"], int)
        assert Fraction(r["train_error"]) <= Fraction(r["last_train_error"])
    mean_train = sum(Fraction(r["train_error"]) for r in out["runs"]) / 5
    mean_test = sum(Fraction(r["test_error"]) for r in out["runs"]) / 5
    assert Fraction(out["mean_train_error"]) == mean_train
    assert Fraction(out["mean_test_error"]) == mean_test
    assert isinstance(out["mean_train_error"], str) and isinstance(out["mean_test_error"], str)


def test_pocket_same_seed_same_result_and_jobs_do_not_matter(tmp_path):
    train = write(tmp_path, "tr.dat", NOISY)
    args = (train, "--updates", "25", "--runs", "12", "--order", "random", "--seed", "8")
    one = pocket_json(*args, "--jobs", "1")
    two = pocket_json(*args, "--jobs", "2")
    assert one == two
    other = pocket_json(train, "--updates", "25", "--runs", "12", "--order", "random",
                        "--seed", "9")
    assert [r["w"] for r in other["runs"]] != [r["w"] for r in one["runs"]]


def test_pocket_last_reports_the_last_w(tmp_path):
    train = write(tmp_path, "tr.dat", NOISY)
    kept = pocket_json(train, "--updates", "9", "--order", "cyclic")["runs"][0]
    last = pocket_json(train, "--updates", "9", "--order", "cyclic", "--last")["runs"][0]
    assert last["train_error"] == kept["last_train_error"]
    assert Fraction(kept["train_error"]) <= Fraction(last["train_error"])
    run = pla.run(pla.load(train), "cyclic", max_updates=9)
    assert last["w"] == [str(v) for v in run.w]


def test_pocket_literal_variant_option(tmp_path):
    data = write(tmp_path, "lit.dat", "3 -1\n0 1\n-3 -1\n")
    real = pocket_json(data, "--updates", "5", "--order", "cyclic")["runs"][0]
    literal = pocket_json(data, "--updates", "5", "--order", "cyclic",
                          "--compare", "previous")["runs"][0]
    assert (real["train_error"], literal["train_error"]) == ("1/3", "2/3")


def test_pocket_human_output(tmp_path):
    train, test = write(tmp_path, "tr.dat", NOISY), write(tmp_path, "te.dat", NOISY_TEST)
    done = pla_cli("pocket", train, "--test", test, "--updates", "20", "--runs", "4")
    assert done.code == 0, done.err
    assert "train error" in done.out and "test error" in done.out and "checked" in done.out
    assert done.err == ""  # no progress bar when stderr is not a terminal
    single = pla_cli("pocket", train, "--updates", "20")
    assert "pocket   w_" in single.out and "train    error" in single.out


def test_pocket_bad_input_is_one_line_exit_2(tmp_path):
    train = write(tmp_path, "tr.dat", NOISY)
    wide = write(tmp_path, "wide.dat", "1 2 +1\n")
    done = pla_cli("pocket", train, "--test", wide, "--updates", "5")
    assert done.code == 2 and done.err.count("\n") == 1 and "features" in done.err
    bad = write(tmp_path, "bad.dat", "1 +1\nx -1\n")
    done = pla_cli("pocket", bad, "--updates", "5")
    assert done.code == 2 and f"{bad}:2:" in done.err and "Traceback" not in done.err
    assert pla_cli("pocket", train).code == 2  # --updates is required
    assert pla_cli("pocket", train, "--updates", "5", "--runs", "0").code == 2


def test_pocket_failed_check_exits_4(tmp_path, monkeypatch, capsys):
    import verify.kernel

    def refuse(*args, **kwargs):
        raise verify.kernel.CertificateError("w makes 3 mistakes, not the claimed 2")

    monkeypatch.setattr(verify.kernel, "check_mistake_count", refuse)
    train = write(tmp_path, "tr.dat", NOISY)
    assert main(["pocket", train, "--updates", "5"]) == 4
    assert "the kernel's recount of w_0's mistakes differs" in capsys.readouterr().err


# ----------------------------------------------------------------------------- pla run --runs
def test_run_runs_json_contract(tmp_path):
    data = write(tmp_path, "sep.dat", SEPARABLE)
    done = pla_cli("run", data, "--runs", "6", "--order", "random-cycle", "--seed", "4", "--json")
    assert done.code == 0, done.err
    out = json.loads(done.out)
    assert [r["seed"] for r in out["runs"]] == [4 + 1_000_003 * k for k in range(6)]
    counts = [r["updates"] for r in out["runs"]]
    assert Fraction(out["mean_updates"]) == Fraction(sum(counts), 6)
    assert (out["min_updates"], out["max_updates"]) == (min(counts), max(counts))
    assert all(isinstance(r["epochs"], int) for r in out["runs"])
    ds = pla.load(data)
    for r in out["runs"]:
        single = pla.run(ds, "random-cycle", seed=r["seed"])
        assert (single.updates, single.epochs) == (r["updates"], r["epochs"])


@pytest.mark.parametrize("order", ["random", "random-cycle"])
def test_run_runs_update_counts_do_not_depend_on_eta(tmp_path, order):
    data = write(tmp_path, "sep.dat", SEPARABLE)
    counts = []
    for eta in ("1", "1/3", "5/2"):
        done = pla_cli("run", data, "--runs", "8", "--order", order, "--eta", eta, "--json")
        assert done.code == 0, done.err
        counts.append([r["updates"] for r in json.loads(done.out)["runs"]])
    assert counts[0] == counts[1] == counts[2]


def test_run_runs_jobs_do_not_matter_and_human_histogram(tmp_path):
    data = write(tmp_path, "sep.dat", SEPARABLE)
    args = ("run", data, "--runs", "20", "--order", "random")
    assert pla_cli(*args, "--json", "--jobs", "1").out == pla_cli(*args, "--json", "--jobs", "2").out
    human = pla_cli(*args)
    assert human.code == 0 and "updates  mean" in human.out and "#" in human.out
    assert human.out.count("\n") > 6


def test_run_runs_refuses_single_run_options(tmp_path):
    data = write(tmp_path, "sep.dat", SEPARABLE)
    done = pla_cli("run", data, "--runs", "3", "--steps", "--order", "random")
    assert done.code == 2 and "--runs" in done.err


@pytest.mark.parametrize("command", [("run",), ("pocket", "--updates", "3")])
def test_several_runs_need_a_random_order(tmp_path, command):
    data = write(tmp_path, "sep.dat", SEPARABLE)
    done = pla_cli(command[0], data, *command[1:], "--runs", "3", "--order", "cyclic")
    assert done.code == 2 and "--order random" in done.err and done.out == ""
    assert pla_cli(command[0], data, *command[1:], "--runs", "1", "--order", "cyclic").code == 0


def test_run_on_non_separable_data_says_so_and_honours_max_updates(tmp_path):
    data = write(tmp_path, "noisy.dat", NOISY)
    done = pla_cli("run", data, "--max-updates", "40", "--json")
    assert done.code == 3
    assert json.loads(done.out)["updates"] == 40
    first_line = done.err.splitlines()[0]
    assert "NOT linearly separable" in first_line and "Gordan" in first_line
    assert "pla certify" in done.err and "pla pocket" in done.err
    runs = pla_cli("run", data, "--max-updates", "30", "--runs", "3", "--order", "random",
                   "--json")
    assert runs.code == 3 and "NOT linearly separable" in runs.err
    assert [r["updates"] for r in json.loads(runs.out)["runs"]] == [30, 30, 30]
    # separable data: no such message
    clean = pla_cli("run", write(tmp_path, "tb.dat", TEXTBOOK))
    assert clean.code == 0 and "separable" not in clean.err


# ----------------------------------------------------------------------------- make-data --flip
def test_make_data_flip_writes_non_separable_train_and_test(tmp_path):
    train, test = str(tmp_path / "tr.dat"), str(tmp_path / "te.dat")
    clean = str(tmp_path / "clean.dat")
    assert pla_cli("make-data", "--n", "40", "--d", "2", "--seed", "5", clean).code == 0
    done = pla_cli("make-data", "--n", "40", "--d", "2", "--seed", "5", "--flip", "1/8",
                   "--test-out", test, "--test-n", "10", train)
    assert done.code == 0, done.err
    a, b = pla.load(clean), pla.load(train)
    assert a.rows == b.rows  # the same points (the first 40 of the same draw) ...
    assert sum(x != y for x, y in zip(a.labels, b.labels)) == 5  # ... exactly 40/8 flipped
    assert pla.load(test).n == 10
    again = str(tmp_path / "again.dat")
    pla_cli("make-data", "--n", "40", "--d", "2", "--seed", "5", "--flip", "1/8", again)
    assert pla.load(again).labels == b.labels
    assert pla_cli("make-data", "--flip", "3/2", str(tmp_path / "x.dat")).code == 2


# ----------------------------------------------------------------------------- terminal behaviour
def _pla_command(*args: str) -> list[str]:
    import sys
    return [sys.executable, "-c", "import sys; from verify.cli import main; sys.exit(main())",
            *args]


def test_progress_bar_is_drawn_on_a_terminal_and_hidden_by_quiet(tmp_path):
    import os
    import pty
    import subprocess

    train = write(tmp_path, "tr.dat", NOISY)
    for quiet, expect_bar in (((), True), (("--quiet",), False)):
        master, slave = pty.openpty()
        proc = subprocess.run(_pla_command("pocket", train, "--updates", "10", "--runs", "30",
                                           *quiet),
                              stdout=subprocess.PIPE, stderr=slave, text=True, timeout=120)
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        os.close(master)
        drawn = b"".join(chunks).decode()
        assert proc.returncode == 0
        assert ("pocket runs [" in drawn and "30/30" in drawn) is expect_bar
        assert "pocket runs" not in proc.stdout


def test_ctrl_c_stops_every_process_with_exit_130(tmp_path):
    import os
    import signal
    import subprocess
    import time

    train = write(tmp_path, "tr.dat", NOISY * 30)
    proc = subprocess.Popen(_pla_command("pocket", train, "--updates", "200", "--runs", "100000",
                                         "--jobs", "2"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    time.sleep(2.5)
    os.killpg(proc.pid, signal.SIGINT)  # like Ctrl-C: the whole process group
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130 and out == ""
    assert err.strip() == "pla: interrupted"
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):  # no worker left behind
        os.killpg(proc.pid, 0)


def test_cli_choices_match_the_library():
    from pla.pocket import COMPARES
    from verify.cli.pocket import COMPARE_CHOICES

    assert COMPARE_CHOICES == COMPARES
