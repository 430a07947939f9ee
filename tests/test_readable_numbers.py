"""Long numbers are folded the same way everywhere in text outputs, exact in --json and -v;
bounds are integers with their scientific form."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction

from hypothesis import given, strategies as st

import pla
import verify
from verify.cli.command import main
from verify.present.numbers import bound_text, equals_text, scientific_text

LONG_DIGITS = re.compile(r"\d{41,}")


def _awkward_data(path) -> pla.Dataset:
    """Separable data whose max-margin certificate has 40- to 50-digit fractions."""
    r = random.Random(3)
    lines = []
    for _ in range(40):
        x = [Fraction(r.randint(-999999, 999999), 1000) for _ in range(4)]
        y = 1 if x[0] * Fraction(7, 10) + x[1] * Fraction(31, 100) - x[2] / 2 + x[3] / 10 > 3 else -1
        lines.append(" ".join(str(float(v)) for v in x) + f" {y}")
    path.write_text("\n".join(lines) + "\n")
    return pla.load(str(path))


def _cli(capsys, *args):
    code = main(list(args))
    return code, capsys.readouterr().out


def test_certify_folds_every_long_number_and_json_and_v_keep_them_exact(capsys, tmp_path):
    data = tmp_path / "awkward.dat"
    certificate = verify.certify(_awkward_data(data))
    assert len(str(certificate.gamma2)) > 80          # the case the folding is for
    code, text = _cli(capsys, "certify", str(data))
    assert code == 0 and not LONG_DIGITS.search(text)
    for line in text.splitlines():
        if line.startswith(("||w*||^2", "gamma^2", "bound")):
            assert "≈" in line and "-digit fraction" in line, line
    assert f"T ≤ {certificate.bound_updates:,} updates" in text
    assert "-v or --json print it exactly" in text
    code, verbose = _cli(capsys, "certify", str(data), "-v")
    assert f"= {certificate.gamma2}" in verbose and "≈" not in verbose
    code, machine = _cli(capsys, "certify", str(data), "--json")
    fields = json.loads(machine)
    assert Fraction(fields["certificate"]["gamma2"]) == certificate.gamma2
    assert Fraction(fields["bound"]) == certificate.bound
    assert [Fraction(v) for v in fields["certificate"]["w"]] == list(certificate.w)


def test_a_checked_run_folds_its_report_the_same_way(capsys, tmp_path):
    data = tmp_path / "awkward.dat"
    _awkward_data(data)
    code, text = _cli(capsys, "run", str(data), "--check")
    assert code == 0 and not LONG_DIGITS.search(text)
    assert "gamma^2 = rho^2/||w_f||^2 ≈ " in text and "so T ≤ " in text
    code, machine = _cli(capsys, "run", str(data), "--check", "--json")
    assert len(json.loads(machine)["gamma2"]) > 80


@given(st.integers(min_value=1, max_value=10**60))
def test_bound_text_is_the_integer_and_its_scientific_form(value):
    text = bound_text(value)
    if len(str(value)) > 40:
        assert text.startswith("≈ ") and f"a {len(str(value))}-digit integer" in text
        return
    exact, _, scientific = text.partition(" ≈ ")
    assert int(exact.replace(",", "")) == value
    assert bool(scientific) == (value >= 10**6)
    if scientific:
        assert scientific == scientific_text(value)
        mantissa, power = scientific.split("·10")
        exponent = int(power.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")))
        assert exponent == len(str(value)) - 1 and mantissa.replace(".", "") == str(value)[:2]


def test_equals_text_folds_only_long_numbers():
    assert equals_text(Fraction(2, 9)) == "= 2/9"
    assert equals_text(Fraction(10**60 + 1, 3)).startswith("≈ 3.33333e+59 (exact: a 61/1-digit")
    assert equals_text(Fraction(10**60 + 1, 3), exact=True) == f"= {Fraction(10**60 + 1, 3)}"
