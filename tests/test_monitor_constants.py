"""The monitor refuses claimed constants R^2 and rho that are not the data's (unless told to
trust them), naming the failed equation exactly.  Killed surviving mutants of ``make mutation``."""

from __future__ import annotations

from fractions import Fraction

import pytest

import pla
from verify.checks.monitor import Monitor, ProofViolation

TWO = pla.Dataset.from_rows([[2]], [1], bias=False)     # x = 2, w_f = 1: rho = 2, R^2 = 4


@pytest.mark.parametrize("claims, inequality, claimed, true", [
    ({"R2": 5}, "R^2 = max_n ||x_n||^2", Fraction(5), Fraction(4)),
    ({"rho": 1}, "rho = min_n y_n w_f.x_n", Fraction(1), Fraction(2)),
])
def test_a_wrong_constant_is_refused_as_a_failed_equation(claims, inequality, claimed, true):
    with pytest.raises(ProofViolation) as caught:
        Monitor(TWO, pla.RunOptions(), wf=[1], **claims)
    error = caught.value
    assert (error.inequality, error.step, error.lhs, error.relation, error.rhs) == (
        inequality, None, claimed, "=", true)
    assert f"{claimed} = {true} is false" in str(error)
    Monitor(TWO, pla.RunOptions(), wf=[1], trust_constants=True, **claims)   # told to trust
