"""``pla audit F.v --data DATA`` / ``pla audit DIR``: a Coq file is compared line by line with what
pla writes for the data, then checked by coqc.  The tamperings coqc alone accepts are refused.

Needs ``coqc`` (``make coq``); without it these tests FAIL, never skip.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.cli_runner import Completed, pla_cli, pla_here
from verify.coq.file_audit import coq_check, first_difference


def _need_coqc() -> None:
    if shutil.which("coqc") is None:
        pytest.fail("coqc is not installed: `make coq` installs Debian's coq; the Coq tests "
                    "never skip")


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    _need_coqc()
    tmp = tmp_path_factory.mktemp("audit")
    data = tmp / "sep.dat"
    assert pla_cli("make-data", "--n", "30", "--d", "3", "--margin", "1/20", "--seed", "5",
                   str(data)).code == 0
    cert, run = tmp / "cert.v", tmp / "run.v"
    assert pla_cli("certify", str(data), "--coq", str(cert)).code == 0
    done = pla_cli("run", str(data), "--check", "--order", "random", "--seed", "7", "--eta",
                   "2/3", "--coq", str(run))
    assert done.code == 0, done.err
    return {"data": data, "cert": cert, "run": run, "tmp": tmp}


RUN_OPTIONS = ("--order", "random", "--seed", "7", "--eta", "2/3")


def audit_here(capsys, *args: str) -> Completed:
    """``pla audit ARGS`` run in this process (``verify.cli.main``, as the console script runs
    it): its audits share the bundled library that :mod:`verify.coq.file_audit` compiles once a
    process, where each ``pla`` subprocess compiles its own (~5 s of coqc).  The genuine
    certificate's audit stays a subprocess, the whole path a user runs."""
    return pla_here(capsys, "audit", *args)


def _rows_block(text: str) -> tuple[int, int]:
    start = text.index("Definition rows : list zrow := [\n") + len("Definition rows : list zrow := [\n")
    return start, text.index("\n]%Z.", start)


def tamper(text: str, how: str) -> str:
    """One edit an attacker would make; every one of them still compiles or not, but none is
    the file pla writes for the data."""
    start, end = _rows_block(text)
    rows = text[start:end].split(";\n")
    if how == "row":
        m = re.search(r"-?\d+", rows[1])
        rows[1] = rows[1][:m.start()] + str(int(m.group()) + 1) + rows[1][m.end():]
    elif how == "label":
        rows[0] = re.sub(r", (-?1)\)$", lambda m: f", {-int(m.group(1))})", rows[0])
    elif how == "reorder":
        rows[0], rows[1] = rows[1], rows[0]
    elif how == "firstn":
        return text.replace("Definition data : list example := dataset scale rows.",
                            "Definition data : list example := dataset scale (firstn 1 rows).")
    elif how == "scale":
        return re.sub(r"Definition scale : positive := (\d+)\.",
                      lambda m: f"Definition scale : positive := {2 * int(m.group(1))}.", text)
    elif how == "appended":  # a line after the last theorem
        return text + "Axiom cheat : False.\n"
    elif how == "sha256":
        return re.sub(r"(Definition data_sha256 : Z := 0x)([0-9a-f])",
                      lambda m: m.group(1) + ("1" if m.group(2) == "0" else "0"), text)
    else:
        raise KeyError(how)
    return text[:start] + ";\n".join(rows) + text[end:]


TAMPERINGS = ["row", "label", "reorder", "firstn", "scale", "sha256", "appended"]


@pytest.mark.parametrize("kind", ["cert", "run"])
@pytest.mark.parametrize("how", TAMPERINGS)
def test_a_tampered_file_is_refused_at_its_first_changed_line(files, kind, how):
    text = files[kind].read_text()
    edited = tamper(text, how)
    assert edited != text
    changed = first_difference(text, edited).line
    bad = files["tmp"] / f"{kind}_{how}.v"
    bad.write_text(edited)
    options = RUN_OPTIONS if kind == "run" else ()
    done = pla_cli("audit", str(bad), "--data", str(files["data"]), *options)
    assert done.code == 1, done.out + done.err
    assert f"FAILED: not the {'run' if kind == 'run' else 'certificate'} file pla writes" \
        in done.out
    assert f"line {changed}:" in done.out


def test_redefining_data_fools_coqc_alone_but_not_the_audit(files, capsys):
    # data redefined from the same rows: coqc accepts it, closed (the theorems now speak about
    # another list); the audit names the line.  (An LP certificate: the max-margin file's
    # tightness proof names `rows` and happens to break under this edit.)
    lp = files["tmp"] / "lp.v"
    assert pla_cli("certify", str(files["data"]), "--method", "lp", "--coq", str(lp)).code == 0
    text = lp.read_text()
    edited = text.replace("Definition data : list example := dataset scale rows.",
                          "Definition data : list example := dataset scale (rows ++ rev rows).")
    verdict = coq_check(edited)
    assert verdict.accepted and verdict.closed, verdict.message
    bad = files["tmp"] / "doubled.v"
    bad.write_text(edited)
    done = pla_cli("audit", str(bad), "--data", str(files["data"]), "--method", "lp")
    assert done.code == 1 and f"line {first_difference(text, edited).line}:" in done.out
    assert audit_here(capsys, str(lp), "--data", str(files["data"]), "--method", "lp").code == 0


def test_the_genuine_files_pass(files, capsys):
    done = pla_cli("audit", str(files["cert"]), "--data", str(files["data"]), timeout=600)
    assert done.code == 0, done.out + done.err
    assert "every line is the certificate file pla writes" in done.out
    assert "closed" in done.out
    done = audit_here(capsys, str(files["run"]), "--data", str(files["data"]), *RUN_OPTIONS,
                      "--json")
    assert done.code == 0, done.out + done.err
    import json

    report = json.loads(done.out)
    assert report["kind"] == "run" and report["ok"] and report["coq"]["axioms"] == []


def test_a_run_file_audited_with_other_options_is_refused(files):
    done = pla_cli("audit", str(files["run"]), "--data", str(files["data"]))  # cyclic, eta 1
    assert done.code == 1
    assert "Definition eta : Q" in done.out or "updated_rows" in done.out


def test_an_axiom_is_reported_not_closed():
    _need_coqc()
    verdict = coq_check("Axiom cheat : False.\nTheorem t : 1 = 2.\nProof. destruct cheat. Qed.\n")
    assert verdict.accepted and not verdict.closed and verdict.axioms == {"cheat"}


def test_missing_data_and_unreadable_files_are_usage_errors(files):
    assert pla_cli("audit", str(files["cert"])).code == 2
    assert pla_cli("audit", str(files["tmp"] / "none.v"), "--data", str(files["data"])).code == 2


def test_a_proof_directory_is_compared_and_compiled(tmp_path):
    _need_coqc()
    directory = tmp_path / "coq"
    assert pla_cli("proof", "--coq", str(directory), "inner-product-step").code == 0
    done = pla_cli("audit", str(directory), timeout=900)
    assert done.code == 0, done.out + done.err
    statement = directory / "Theorem_inner_product_step.v"
    text = statement.read_text()
    statement.write_text(text.replace("(rho + (dot w_f (w t)))", "((2 * rho) + (dot w_f (w t)))"))
    done = pla_cli("audit", str(directory))
    assert done.code == 1 and "Theorem_inner_product_step.v: line" in done.out, done.out
    statement.write_text(text)
    (directory / "Extra.v").write_text("Axiom cheat : False.\n")
    done = pla_cli("audit", str(directory))
    assert done.code == 1 and "Extra.v: not a file" in done.out, done.out


def test_the_statements_say_what_the_command_prints(files):
    cert, run = files["cert"].read_text(), files["run"].read_text()
    # "no separator gives a smaller bound": the dual bound of the kernel's multipliers
    assert "Theorem no_separator_gives_a_smaller_bound : no_smaller_bound data R2 N." in cert
    # "halted: no mistake left", the count and the bound, about data and run
    assert "Theorem run_halts : no_mistake_left data eta run." in run
    assert "Theorem run_made_T_updates : Z.of_nat (length run) = T." in run
    assert "Theorem run_within_the_bound : (Z.of_nat (length run) <= N)%Z." in run


def test_the_dual_bound_checker_refuses_one_more(files):
    # the max-margin multipliers give the bound exactly: N + 1 is not a lower bound, and Coq's
    # checker says so (it is not vacuously true)
    probe = files["cert"].read_text() + (
        "\nTheorem one_more_is_refused : check_dual_bound scale rows alpha R2 (N + 1) = false."
        "\nProof. vm_compute. reflexivity. Qed.\n"
        "\nFrom PLA Require Import Runs."
        "\nTheorem still_halts_needs_all_updates : check_halts 1 rows [] = false."
        "\nProof. vm_compute. reflexivity. Qed.\n")
    verdict = coq_check(probe)
    assert verdict.accepted and verdict.closed, verdict.message


def test_only_float_proposed_values_may_differ_and_only_in_form(files):
    # another machine's floats may propose another w_f: its lines need only have pla's form
    text = files["cert"].read_text()
    other = re.sub(r"(Definition w_f : vec := qvec )(\d+)", lambda m: m.group(1) + "7", text)
    assert other != text and first_difference(text, other) is None
    broken = text.replace("Definition w_f : vec := qvec ", "Definition w_f : vec := vadd [] (qvec ")
    assert first_difference(text, broken) is not None


def test_packed_rows_compute_to_the_data():
    # the packer is checked against Coq, not only against itself: Coq computes the packed
    # term and finds it equal to the plain rows (1, 2, 4 and 9 bytes an entry; rows longer
    # than one 64-byte word)
    import random

    from verify.coq.certificate_files import packed_rows_literal, packing, rows_literal

    _need_coqc()
    rng = random.Random(3)
    for bits in (3, 9, 30, 70):
        rows = [[rng.randint(-(2 ** bits), 2 ** bits) for _ in range(70)] for _ in range(3)]
        rows[0][0] = -(2 ** bits)  # the most negative entry: the offset's edge
        labels = [rng.choice((-1, 1)) for _ in rows]
        k, offset = packing(rows)
        text = ("From Coq Require Import ZArith List.\n"
                "From PLA Require Import Certificates Packed.\nImport ListNotations.\n"
                f"Theorem same : {packed_rows_literal(rows, labels, k, offset)} = "
                f"{rows_literal(rows, labels)}%Z.\nProof. vm_compute. reflexivity. Qed.\n"
                "Print Assumptions same.\n")
        verdict = coq_check(text)
        assert verdict.accepted and verdict.closed, verdict.message
        wrong = rows_literal([rows[0][:-1] + [rows[0][-1] + 1]] + rows[1:], labels)
        assert not coq_check(text.replace(rows_literal(rows, labels), wrong)).accepted


@pytest.fixture(scope="module")
def packed(tmp_path_factory) -> tuple[Path, Path, str]:
    tmp_path = tmp_path_factory.mktemp("packed")
    data = tmp_path / "wide.dat"
    assert pla_cli("make-data", "--n", "40", "--d", "600", "--margin", "1/20", "--seed", "2",
                   str(data)).code == 0
    cert = tmp_path / "wide.v"
    assert pla_cli("certify", str(data), "--coq", str(cert)).code == 0
    return data, cert, cert.read_text()


def test_a_large_certificate_is_packed_closed_and_audited(packed, capsys):
    # packed into bytes (inductive constructors), not primitive integers: Print Assumptions
    # closed, and the audit accepts nothing less
    _need_coqc()
    data, cert, text = packed
    assert "From PLA Require Import Packed." in text and "uint63" not in text
    done = audit_here(capsys, str(cert), "--data", str(data), "--json")
    assert done.code == 0, done.out + done.err
    import json

    report = json.loads(done.out)
    assert report["ok"] and report["coq"]["closed"] and report["coq"]["axioms"] == []


@pytest.mark.parametrize("how", ["byte", "offset", "bytes_per_entry", "word"])
def test_a_tampered_packed_file_is_refused(packed, tmp_path, how):
    _need_coqc()
    data, _, text = packed
    start = text.index("  [W x") + len("  [W ")
    if how == "byte":  # one entry one larger
        byte = int(text[start + 1:start + 3], 16)
        edited = text[:start] + f"x{(byte + 1) % 256:02x}" + text[start + 3:]
    elif how == "offset":  # every entry shifted by one
        edited = re.sub(r"packed_rows (\d+) (\d+) ",
                        lambda m: f"packed_rows {m.group(1)} {int(m.group(2)) - 1} ", text)
    elif how == "bytes_per_entry":
        edited = re.sub(r"packed_rows (\d+) ",
                        lambda m: f"packed_rows {int(m.group(1)) + 1} ", text)
    else:  # a row's first word dropped
        end = text.index("; W ", start) + 2
        edited = text[:start - 2] + text[end:]
    assert edited != text
    bad = tmp_path / "wide_bad.v"
    bad.write_text(edited)
    done = pla_cli("audit", str(bad), "--data", str(data))
    assert done.code == 1 and "FAILED" in done.out
    assert f"line {first_difference(text, edited).line}:" in done.out


def test_the_pockets_training_mistakes_are_proved_exactly(tmp_path):
    _need_coqc()
    data = tmp_path / "xor.dat"
    data.write_text("0 0 -1\n1 1 -1\n0 1 1\n1 0 1\n2 2 1\n")
    out = tmp_path / "pocket.v"
    done = pla_cli("pocket", str(data), "--updates", "15", "--coq", str(out), "--json")
    assert done.code == 0, done.err
    import json

    mistakes = json.loads(done.out)["runs"][0]["train_mistakes"]
    text = out.read_text()
    assert f"Definition K : nat := {mistakes}." in text
    verdict = coq_check(text)
    assert verdict.accepted and verdict.closed, verdict.message
    wrong = re.sub(r"Definition K : nat := (\d+)\.",
                   lambda m: f"Definition K : nat := {int(m.group(1)) + 1}.", text)
    assert not coq_check(wrong).accepted
    assert pla_cli("pocket", str(data), "--updates", "5", "--zero", "positive", "--coq",
                   str(out)).code == 2


@pytest.mark.parametrize("near", [True, False])
def test_certify_prints_the_n_the_coq_file_states(tmp_path, monkeypatch, capsys, near):
    # max-margin skipped (as on large data): the text, --json and the .v file give one N,
    # the near-max-margin one when the kernel proves it tight, else the LP one
    import json

    from verify.cli import main
    from verify.search import certificates

    data = tmp_path / "sep.dat"
    assert pla_cli("make-data", "--n", "40", "--d", "3", "--margin", "1/30", "--seed", "4",
                   str(data)).code == 0
    monkeypatch.setattr(certificates, "MAX_EXACT_ENTRIES", 10)
    if not near:
        monkeypatch.setattr(certificates, "near_max_margin", lambda dataset: None)
    out = tmp_path / "cert.v"
    assert main(["certify", str(data), "--coq", str(out)]) == 0
    text = capsys.readouterr().out
    printed = int(re.search(r"T ≤ (\d+) updates", text).group(1))
    assert main(["certify", str(data), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    stated = int(re.search(r"Definition N : Z := (\d+)\.", out.read_text()).group(1))
    assert printed == report["bound_updates"] == stated
    kind = "near-max-margin" if near else "lp"
    assert report["certificate"]["kind"] == kind and f"{kind} separator" in out.read_text()
    assert ("no separator gives a smaller bound" in text) == near


POCKET_OPTIONS = ("--updates", "15", "--seed", "3", "--eta", "1/2")


@pytest.fixture(scope="module")
def pocket(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("pocket")
    data = tmp / "noisy.dat"
    assert pla_cli("make-data", "--n", "30", "--d", "3", "--margin", "1/20", "--flip", "0.2",
                   "--seed", "5", str(data)).code == 0
    out = tmp / "pocket.v"
    done = pla_cli("pocket", str(data), *POCKET_OPTIONS, "--coq", str(out))
    assert done.code == 0, done.err
    return {"data": data, "file": out, "tmp": tmp}


def test_a_genuine_pocket_file_passes_the_audit(pocket, capsys):
    _need_coqc()
    done = audit_here(capsys, str(pocket["file"]), "--data", str(pocket["data"]),
                      *POCKET_OPTIONS)
    assert done.code == 0, done.out + done.err
    assert "every line is the pocket file pla writes" in done.out and "closed" in done.out


@pytest.mark.parametrize("how", TAMPERINGS + ["K", "w"])
def test_a_tampered_pocket_file_is_refused(pocket, how):
    text = pocket["file"].read_text()
    if how == "K":  # another mistake count
        edited = re.sub(r"Definition K : nat := (\d+)\.",
                        lambda m: f"Definition K : nat := {int(m.group(1)) + 1}.", text)
    elif how == "w":  # another returned vector
        edited = re.sub(r"(Definition w : vec := qvec \d+ \[)(-?\d+)",
                        lambda m: m.group(1) + str(int(m.group(2)) + 1), text)
    else:
        edited = tamper(text, how)
    assert edited != text
    bad = pocket["tmp"] / f"pocket_{how}.v"
    bad.write_text(edited)
    done = pla_cli("audit", str(bad), "--data", str(pocket["data"]), *POCKET_OPTIONS)
    assert done.code == 1, done.out + done.err
    assert "FAILED: not the pocket file pla writes" in done.out
    assert f"line {first_difference(text, edited).line}:" in done.out


def test_a_pocket_file_audited_with_other_options_is_refused(pocket):
    # another budget or seed makes another run: its file differs (the w line at least)
    done = pla_cli("audit", str(pocket["file"]), "--data", str(pocket["data"]), "--updates",
                   "3", "--seed", "3", "--eta", "1/2")
    assert done.code == 1 and "FAILED" in done.out, done.out + done.err
    done = pla_cli("audit", str(pocket["file"]), "--data", str(pocket["data"]))
    assert done.code == 2 and "--updates" in done.err

