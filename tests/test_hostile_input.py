"""A generated corpus of hostile input: each case ends in seconds, exactly or with a located error."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

import pla
from tests.cli_runner import pla_cli


def first_primes(count: int) -> list[int]:
    primes: list[int] = []
    candidate = 2
    while len(primes) < count:
        if all(candidate % p for p in primes if p * p <= candidate):
            primes.append(candidate)
        candidate += 1
    return primes


def corpus() -> dict[str, tuple[bytes, str]]:
    """name -> (file content, expectation: 'ok' or the start of the error's location)."""
    rng = random.Random(2026)
    huge = "1" + "0" * 100_000
    primes = first_primes(300)
    return {
        "huge-numerator.dat": (f"{huge} 1 1\n-1 1 -1\n".encode(), "ok"),
        "huge-denominator.dat": (f"1/{huge} 1 1\n-1 1 -1\n".encode(), "ok"),
        "many-primes.dat": ("".join(f"1/{p} {(-1) ** k} {1 if k % 2 else -1}\n"
                                    for k, p in enumerate(primes)).encode(), "ok"),
        "wide.dat": ((" ".join("1" for _ in range(100_000)) + " 1\n").encode(), "ok"),
        "long-line.dat": ((" ".join("0.123456789" for _ in range(400_000)) + " 1\n").encode(),
                          "ok"),
        "garbage.dat": (bytes(rng.randrange(256) for _ in range(5000)), ":1:"),
        "nul.dat": (b"1 2 1\n1\x002 1\n", ":2:"),
        "invalid-utf8.dat": (b"1 2 1\n\xc3\x28 1 1\n", ":2:"),
        "exponent-bomb.dat": (b"1e999999999 1 1\n", ":1:"),
        "digit-bomb.dat": (("9" * 300_000 + " 1 1\n").encode(), ":1:"),
        "nan.csv": (b"x,y\n1,1\nnan,1\n", ":3:"),
        "bad-count.coq": (b"1000000\n2\n1\n1\n1\n", ":6:"),  # the end of the file
        "negative-count.coq": (b"-1\n2\n", ":1:"),
        "unicode-digits.dat": ("١ ٢ 1\n".encode(), ":1:"),
        "only-bom.dat": ("\ufeff".encode(), ":1:"),
    }


@pytest.mark.parametrize("name", sorted(corpus()))
def test_hostile_file(tmp_path, name):
    content, expected = corpus()[name]
    path = tmp_path / name
    path.write_bytes(content)
    done = pla_cli("run", str(path), "--json", "--max-updates", "50", timeout=60)
    assert "Traceback" not in done.err
    if expected == "ok":
        assert done.code in (0, 3), done.err
        out = json.loads(done.out)
        ds = pla.load(str(path))
        ref = pla.run(ds, max_updates=50)
        assert out["w"] == [str(v) for v in ref.w] and out["updates"] == ref.updates
    else:
        assert done.code == 2 and done.out == ""
        assert done.err.startswith(f"pla: error: {path}{expected}"), done.err
        assert done.err.count("\n") == 1


def test_huge_numbers_are_exact(tmp_path):
    path = tmp_path / "h.dat"
    path.write_text("-1/" + "7" * 5000 + " 1\n")
    x = pla.load(str(path)).X[0][1]
    assert x < 0 and x.numerator == -1
    assert x.denominator % 7 == 0 and x.denominator == 7 * (10**5000 - 1) // 9


def test_many_prime_denominators_keep_one_common_scale():
    primes = first_primes(200)
    ds = pla.Dataset.from_rows([[Fraction(1, p)] for p in primes],
                               [1 if k % 3 else -1 for k in range(200)])
    product = 1
    for p in primes:
        product *= p
    assert ds.scale == product
    assert all(ds.X[k][1] == Fraction(1, p) for k, p in enumerate(primes))


def test_the_common_denominator_budget_names_the_line_and_the_option(tmp_path):
    primes = first_primes(400)
    path = tmp_path / "primes.dat"
    path.write_text("".join(f"1/{p} 1\n" for p in primes))
    done = pla_cli("run", str(path), "--max-data-digits", "20000")
    assert done.code == 2 and "--max-data-digits" in done.err and done.err.count("\n") == 1
    line = int(done.err.split(":")[3])
    assert 1 < line <= 400
    raised = pla_cli("run", str(path), "--max-data-digits", "10000000", "--json")
    assert raised.code in (0, 3) and "Traceback" not in raised.err


def test_digit_and_exponent_limits_have_options(tmp_path):
    path = tmp_path / "big.dat"
    path.write_text("1e200001 1\n")
    done = pla_cli("run", str(path))
    assert done.code == 2 and "--max-exponent" in done.err
    assert pla_cli("run", str(path), "--max-exponent", "300000", "--max-digits", "400000",
                   "--json").code == 0
    long = tmp_path / "long.dat"
    long.write_text("9" * 300_000 + " 1\n")
    assert "--max-digits" in pla_cli("run", str(long)).err
    assert pla_cli("run", str(long), "--max-digits", "300000", "--json").code == 0


def test_limits_in_the_api():
    with pytest.raises(pla.DataError) as info:
        pla.loads("1/7 1\n1/11 1\n1/13 -1\n", limits=pla.formats.Limits(max_data_digits=10))
    assert info.value.line in (2, 3)
    assert pla.loads("1/7 1\n", limits=pla.formats.Limits(max_data_digits=10)).scale == 7
