"""The second checker: Coq accepts every exported theorem and certificate, and rejects tampering.

Needs ``coqc`` (``make coq`` installs Debian's coq); without it these tests FAIL, never skip.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import pla
from tests.cli_runner import pla_cli
from verify.search.certificates import certify
from verify.coq.certificate_files import certificate_file
from verify.coq.library import LIBRARY_FILES, library_source
from verify.proofs import builtin_proofs

#: The only axioms an exported kernel theorem may rest on: those of the standard library's
#: classical construction of the real numbers R (the library over Q uses none).
REAL_NUMBER_AXIOMS = {"ClassicalDedekindReals.sig_forall_dec",
                      "FunctionalExtensionality.functional_extensionality_dep"}
CLOSED = "Closed under the global context"


def _coqc() -> str:
    path = shutil.which("coqc")
    if path is None:
        pytest.fail("coqc is not installed, so the Coq checks cannot run: `make coq` installs "
                    "Debian's coq (apt-get install coq); the Coq tests never skip")
    return path


def _compile(directory: Path, file: Path) -> subprocess.CompletedProcess:
    return subprocess.run([_coqc(), "-q", "-R", str(directory), "PLA", str(file)],
                          capture_output=True, text=True, timeout=300)


def _axioms(output: str) -> set[str]:
    return set(re.findall(r"^([A-Za-z_][\w.]*\.[\w]+)\s*$", output, re.MULTILINE))


@pytest.fixture(scope="module")
def coq_dir(tmp_path_factory) -> Path:
    """`pla proof --coq DIR` then `make -C DIR`: the library and all 18 theorems compiled."""
    _coqc()
    directory = tmp_path_factory.mktemp("coq")
    done = pla_cli("proof", "--coq", str(directory))
    assert done.code == 0, done.out + done.err
    assert f"make -C {directory}" in done.out
    make = subprocess.run(["make", "-C", str(directory), "-j2"], capture_output=True, text=True,
                          timeout=600)
    assert make.returncode == 0, make.stdout[-3000:] + make.stderr[-3000:]
    directory.joinpath("make.log").write_text(make.stdout)
    return directory


def test_coqc_is_installed():
    version = subprocess.run([_coqc(), "--version"], capture_output=True, text=True)
    assert "The Coq Proof Assistant" in version.stdout


def test_the_library_admits_nothing_and_declares_no_axiom():
    for name in LIBRARY_FILES:
        text = re.sub(r"\(\*.*?\*\)", "", library_source(name), flags=re.DOTALL)
        for word in ("Admitted", "admit", "Axiom", "Parameter", "Conjecture", "Hypothesis "):
            if word == "Hypothesis " and name == "Perceptron.v":
                continue  # section hypotheses of Novikoff's theorem, discharged when it is used
            assert word not in text, (name, word)


def test_main_library_theorems_are_closed(coq_dir):
    probe = coq_dir / "Probe.v"
    names = ["novikoff", "novikoff_bound", "pla_never_halts", "cauchy_schwarz",
             "check_margin_correct", "check_radius_correct", "check_bound_floor_correct",
             "certified_update_bound", "check_gordan_correct", "replay_correct",
             "check_dual_bound_correct", "check_halts_correct", "check_margin_exact_correct",
             "check_radius_exact_correct", "packed_rows"]
    probe.write_text("From PLA Require Import Vectors Perceptron Certificates Runs Packed.\n"
                     + "".join(f"Print Assumptions {n}.\n" for n in names))
    done = _compile(coq_dir, probe)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(CLOSED) == len(names), done.stdout
    # Novikoff's theorem is the general statement: any data, any order, any eta > 0
    check = coq_dir / "Statement.v"
    check.write_text(
        "From Coq Require Import QArith List.\nFrom PLA Require Import Vectors Perceptron.\n"
        "Check (novikoff : forall data wf rho R2 eta, labels_pm1 data -> "
        "margin_at_least data wf rho -> radius2_at_most data R2 -> 0 < eta -> forall es, "
        "pla_run_on data eta es -> Qnat (length es) * (rho * rho) <= R2 * norm2 wf).\n")
    assert _compile(coq_dir, check).returncode == 0


def test_every_builtin_theorem_is_exported_and_checked(coq_dir):
    files = sorted(coq_dir.glob("Theorem_*.v"))
    assert len(files) == len(builtin_proofs()) == 18
    log = (coq_dir / "make.log").read_text()
    for file in files:
        assert file.with_suffix(".vo").exists(), file.name
    # each file prints its assumptions: only the axioms of R, never a hypothesis of ours
    assert log.count("Axioms:") == len(files)
    assert _axioms(log) == REAL_NUMBER_AXIOMS


def test_a_tampered_theorem_is_rejected(coq_dir, tmp_path):
    original = (coq_dir / "Theorem_inner_product_step.v").read_text()
    statement = "(dot w_f (w (S t))) >= (rho + (dot w_f (w t)))."
    assert statement in original
    tampered = tmp_path / "Theorem_inner_product_step.v"
    tampered.write_text(original.replace(statement, statement.replace("(rho +", "((2 * rho) +")))
    assert _compile(coq_dir, tampered).returncode != 0
    # a wrong certificate hint: a coefficient of the norm step's certificate changed
    norm = (coq_dir / "Theorem_norm_step.v").read_text()
    assert norm.count("2 * (((-1) * (dot (w t) (x t)) * (y t)))") == 2
    bad = tmp_path / "Theorem_norm_step.v"
    bad.write_text(norm.replace("2 * (((-1) * (dot (w t) (x t)) * (y t)))",
                                "3 * (((-1) * (dot (w t) (x t)) * (y t)))"))
    assert _compile(coq_dir, bad).returncode != 0


def _separable_data(tmp_path: Path) -> tuple[Path, pla.Dataset]:
    data = tmp_path / "sep.dat"
    done = pla_cli("make-data", "--n", "60", "--d", "3", "--margin", "1/20", "--seed", "5",
                   str(data))
    assert done.code == 0, done.err
    return data, pla.load(str(data))


def test_separable_certificate_with_its_explicit_bound(coq_dir, tmp_path):
    data, dataset = _separable_data(tmp_path)
    out = tmp_path / "cert.v"
    done = pla_cli("certify", str(data), "--coq", str(out))
    assert done.code == 0, done.err
    assert f"coqc -R DIR PLA {out}" in done.out
    text = out.read_text()
    bound = certify(dataset).bound_updates
    assert f"Definition N : Z := {bound}." in text
    assert "Theorem at_most_N_updates : update_bound data N." in text
    assert "Theorem no_separator_gives_a_smaller_bound" in text
    checked = _compile(coq_dir, out)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.count(CLOSED) == 2   # the bound and its tightness, both closed


def test_certify_writes_the_library_where_asked(tmp_path):
    _coqc()
    data, _ = _separable_data(tmp_path)
    lib = tmp_path / "lib"
    done = pla_cli("certify", str(data), "--coq", str(tmp_path / "c.v"), "--coq-lib", str(lib))
    assert done.code == 0, done.err
    assert f"make -C {lib} && coqc -R {lib} PLA {tmp_path / 'c.v'}" in done.out
    assert sorted(p.name for p in lib.glob("*.v")) == sorted(LIBRARY_FILES)
    assert pla_cli("certify", str(data), "--coq", str(tmp_path / "c.txt")).code == 2


def test_gordan_certificate(coq_dir, tmp_path):
    data = tmp_path / "xor.dat"
    data.write_text("0 0 -1\n1 1 -1\n0 1 1\n1 0 1\n2 2 1\n")
    out = tmp_path / "gordan.v"
    done = pla_cli("certify", str(data), "--coq", str(out))
    assert done.code == 0, done.err
    text = out.read_text()
    assert "Theorem no_separator : not_separable data." in text
    checked = _compile(coq_dir, out)
    assert checked.returncode == 0, checked.stderr
    assert CLOSED in checked.stdout


def test_a_run_is_replayed_and_checked_against_the_bound(coq_dir, tmp_path):
    data, dataset = _separable_data(tmp_path)
    out = tmp_path / "run.v"
    done = pla_cli("run", str(data), "--check", "--order", "random", "--eta", "2/3",
                   "--coq", str(out), "--json")
    assert done.code == 0, done.err
    import json

    updates = json.loads(done.out)["updates"]
    assert updates > 0
    text = out.read_text()
    assert f"Definition T : Z := {updates}." in text
    checked = _compile(coq_dir, out)
    assert checked.returncode == 0, checked.stderr
    assert pla_cli("run", str(data), "--coq", str(out)).code == 2  # needs --check
    assert pla_cli("run", str(data), "--check", "--w0", "1,0,0,0", "--coq", str(out)).code == 2


def _tamper(text: str, what: str) -> str:
    if what == "weight":
        m = re.search(r"(Definition w_f : vec := qvec \d+ \[)(-?\d+)", text)
        return text[:m.start(2)] + str(int(m.group(2)) + 1) + text[m.end(2):]
    if what == "label":
        m = re.search(r"\], (-?1)\);", text)
        return text[:m.start(1)] + str(-int(m.group(1))) + text[m.end(1):]
    if what == "bound":
        m = re.search(r"Definition N : Z := (\d+)\.", text)
        return text[:m.start(1)] + str(int(m.group(1)) - 1) + text[m.end(1):]
    if what == "bound+1":
        m = re.search(r"Definition N : Z := (\d+)\.", text)
        return text[:m.start(1)] + str(int(m.group(1)) + 1) + text[m.end(1):]
    if what == "rho":
        m = re.search(r"Definition rho : Q := Qmake \((\d+)\)", text)
        return text[:m.start(1)] + str(int(m.group(1)) + 1) + text[m.end(1):]
    if what == "updates":
        m = re.search(r"Definition T : Z := (\d+)\.", text)
        return text[:m.start(1)] + str(int(m.group(1)) + 1) + text[m.end(1):]
    if what == "row":
        m = re.search(r"Definition updated_rows : list BinNums.N := \[(\d+)", text)
        return text[:m.start(1)] + str((int(m.group(1)) + 1) % 60) + text[m.end(1):]
    raise KeyError(what)


@pytest.mark.parametrize("what", ["weight", "label", "bound", "bound+1", "rho",
                                  "updates", "row"])
def test_a_tampered_certificate_is_rejected(coq_dir, tmp_path, what):
    data, dataset = _separable_data(tmp_path)
    out = tmp_path / "run.v"
    assert pla_cli("run", str(data), "--check", "--coq", str(out)).code == 0
    text = out.read_text()
    tampered = tmp_path / "tampered.v"
    tampered.write_text(_tamper(text, what))
    assert tampered.read_text() != text
    assert _compile(coq_dir, tampered).returncode != 0, what


@settings(max_examples=3, deadline=None)
@given(st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=2, max_size=8,
                unique=True),
       st.integers(1, 4))
def test_coq_agrees_with_the_kernel_on_random_data(coq_dir, points, scale):
    # labels by a fixed line, points on it removed: separable; flip one label: maybe not
    labels = [1 if 2 * a - b > 0 else -1 for a, b in points]
    rows = [[Fraction(a, scale), Fraction(b, scale)] for (a, b), y in zip(points, labels)
            if 2 * a - b != 0]
    labels = [y for (a, b), y in zip(points, labels) if 2 * a - b != 0]
    if not rows:
        return
    labels[0] = -labels[0]
    dataset = pla.Dataset.from_rows(rows, labels)
    certificate = certify(dataset)
    file = coq_dir / f"Random_{abs(hash((tuple(points), scale)))}.v"
    file.write_text(certificate_file(dataset, certificate))
    checked = _compile(coq_dir, file)
    assert checked.returncode == 0, checked.stderr + file.read_text()
    if certificate.separable:
        assert f"Definition N : Z := {certificate.bound_updates}." in file.read_text()


def test_the_committed_coq_timings_render():
    from sitebuild.coq_benchmark import MARKER, expand_coq_benchmark_marker

    results = Path(__file__).resolve().parent.parent / "benchmarks" / "results" / "coq.json"
    page = expand_coq_benchmark_marker("# T\n\n<!-- coq-benchmark -->\n", results)
    assert not MARKER.search(page)
    assert "| 400 × 4 | certificate (default) |" in page and "(accepted)" in page
    assert "| 400 × 1000 (Coq benchmark) | certificate (default) |" in page
