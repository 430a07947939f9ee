"""Attacks on the public API (review): inputs the CLI refuses are refused by pla.run,
pla.pocket, pla.repeat and verify.checked_run too."""

from __future__ import annotations

import pytest

import pla
import verify

DATA = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])

CALLS = {
    "pla.run": lambda **kw: pla.run(DATA, **kw),
    "verify.checked_run": lambda **kw: verify.checked_run(DATA, **kw),
    "pla.pocket": lambda **kw: pla.pocket(DATA, 5, **kw),
    "pla.repeat": lambda **kw: pla.repeat(DATA, 2, **kw),
    "pla.repeat pocket": lambda **kw: pla.repeat(DATA, 2, algorithm="pocket", updates=5, **kw),
}


@pytest.mark.parametrize("call", CALLS)
def test_a_string_w0_is_not_read_as_its_characters(call) -> None:
    """w0="123" was the weights (1, 2, 3); `pla run --w0 123` refuses one number for 3."""
    with pytest.raises(pla.OptionError, match="w0 must be a sequence of numbers"):
        CALLS[call](w0="123")


@pytest.mark.parametrize("keyword", ["max_updates", "seed"])
def test_run_refuses_a_bool_where_an_integer_is_meant(keyword) -> None:
    with pytest.raises(pla.OptionError, match="must be"):
        pla.run(DATA, **{keyword: True})


def test_sequences_of_exact_numbers_are_still_weights() -> None:
    assert pla.run(DATA, w0=[1, "1/2", 0]).steps[0].w_before == (1, pla.parse_fraction("1/2"), 0)
    assert verify.checked_run(DATA, w0=(1, "1/2", 0)).result.updates == \
        pla.run(DATA, w0=(1, "1/2", 0)).updates
