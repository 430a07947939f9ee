"""Session 23: a lying proposer against the latest changes.

1. ``StepConstants`` refuses c3 < 0, N0 < 0, c1 <= 0 -- but is it the *kind* of number it
   expects?  (NaN, int subclasses whose comparisons lie, object.__setattr__ after validation.)
2. ``Monitor`` refuses a trusted claim of rho <= 0 or R^2 < 0 (strings, numpy scalars, floats,
   tiny and huge values, eta != 1, w0 != 0).
3. ``squared_norms`` / ``squared_radius`` / ``_check_data`` validate rows with ``_rows_of_ints``
   (rows whose iteration and storage disagree, lying lengths, numpy arrays, -2**63, empty).
4. ``_constant_root_certificate`` (alpha + beta*sqrt(q) >= 0) through Markdown claims.
5. A failing verdict written to a closed pipe still exits non-zero.

Every attack is written as the correct expectation.  The attacks that succeeded when this file
was written were fixed in the kernel (each keeps a comment with its reproduction); the one left
alone (a field set with object.__setattr__ after validation) stays ``xfail(strict=True)``.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import pla
from verify.checks.monitor import Monitor
from verify.claims.checker import _prove, check_claim_text
from verify.claims.parser import ClaimSyntaxError, parse_claim
from verify.kernel import certificates as C
from verify.kernel.errors import KernelError
from verify.kernel.steps import (
    ProofViolation,
    StepConstants,
    check_final_count,
    check_update,
)

NAN = float("nan")
#: How an xfail of an accepted attack fails: its refusal assertion does not hold.
ACCEPTED = (AssertionError, pytest.fail.Exception)
BASE = {"k": 1, "e": 1, "c3": 4, "N0": 0, "classical": True, "zero": "mistake", "D": 1, "L": 1}
WITH_WF = {"b": 1, "c1": 1, "P0": 0, "bound_updates": 100, "Df": 1}

#: One update that violates every norm inequality (growth 10**6 > c3 = 4) and every margin
#: inequality (P' - P = 0 < c1 = 1): an honest kernel names at least these.
VIOLATING = {"t": 0, "y": 1, "S": 0, "q": 10**6, "N": 0, "N1": 10**6, "m": 0, "P": 0, "P1": 0}
NORM = {"||w_{t+1}||^2 <= ||w_t||^2 + eta^2*R^2", "||w_{t+1}||^2 <= (t+1)*eta^2*R^2"}
MARGIN = {"w_f.w_{t+1} >= w_f.w_t + eta*rho", "w_f.w_{t+1} >= (t+1)*eta*rho"}


class Liar(int):
    """An int whose comparisons always say False (so ``x < 0`` and ``x > y`` both fail)."""

    def __lt__(self, other):
        return False

    __le__ = __gt__ = __ge__ = __lt__


def _violations(constants: StepConstants, update=VIOLATING) -> set[str]:
    found: list[ProofViolation] = []
    check_update(constants, fail=found.append, **update)
    return {v.inequality for v in found}


def _refused_or_caught(expected: set[str], **changes) -> None:
    """The constants are refused (KernelError), or the violating update is reported with at
    least ``expected``: never silently accepted."""
    try:
        constants = StepConstants(**{**BASE, **WITH_WF, **changes})
    except KernelError:
        return
    assert expected <= _violations(constants)


# ================================================================ 1. StepConstants
@pytest.mark.parametrize("changes, message", [
    ({"c3": -1}, "c3 and N0 must be >= 0"),
    ({"N0": -1}, "c3 and N0 must be >= 0"),
    ({"c3": -10**400}, "c3 and N0 must be >= 0"),
    ({"c3": Fraction(-1, 10**30)}, "must be an int"),
    ({"N0": -0.5}, "must be an int"),
    ({"c3": float("-inf")}, "must be an int"),
    ({"c1": 0}, "c1 <= 0"),
    ({"c1": -10**400}, "c1 <= 0"),
    ({"c1": False}, "must be an int"),
    ({"c1": Fraction(-1, 10**30)}, "must be an int"),
    ({"c1": -0.0}, "must be an int"),
    ({"c1": float("-inf")}, "must be an int"),
    ({"k": True}, "must be an int"),
    ({"e": 0}, "positive int"),
    ({"D": 1.0}, "must be an int"),
    ({"L": Fraction(1)}, "must be an int"),
    ({"c3": None}, "must be an int"),
])
def test_negative_or_zero_constants_are_refused_in_every_numeric_dress(changes, message):
    with pytest.raises((KernelError, TypeError), match=message):
        StepConstants(**{**BASE, **WITH_WF, **changes})


@pytest.mark.parametrize("changes", [{"c3": -1}, {"N0": -1}, {"c1": 0}, {"c1": -3},
                                     {"b": 0}, {"Df": -1}, {"k": 0}])
def test_dataclasses_replace_revalidates(changes):
    valid = StepConstants(**BASE, **WITH_WF)
    with pytest.raises(KernelError):
        dataclasses.replace(valid, **changes)


@given(c3=st.integers(0, 10**30), growth=st.integers(1, 10**30), c1=st.integers(1, 10**30),
       gain=st.integers(-10**30, 10**30))
@settings(max_examples=60, deadline=None)
def test_plain_int_constants_never_let_a_violation_through(c3, growth, c1, gain):
    """For honest (plain int) constants: a norm step larger than c3 and a margin step smaller
    than c1 are always reported, whatever their size."""
    constants = StepConstants(**{**BASE, **WITH_WF, "c3": c3, "c1": c1,
                                 "bound_updates": 10**40})
    N1 = c3 + growth                                  # N = 0, S = 0, y = 1: N1 = q
    found = _violations(constants, {"t": 0, "y": 1, "S": 0, "q": N1, "N": 0, "N1": N1, "m": min(gain, c1 - 1),
                                        "P": 0, "P1": min(gain, c1 - 1)})
    assert NORM | MARGIN <= found


# Accepted before the fix (verify/kernel): StepConstants does not check that c3 is an int:
# c3=float('nan') passes `c3 < 0` and every `e*(N1-N) > c3` is False, so check_update accepts
# ||w'||^2 growing by 10**6. Repro: check_update(StepConstants(k=1,e=1,c3=float('nan'),N0=0,clas
# sical=True,zero='mistake',D=1,L=1), t=0, y=1, S=0, q=10**6, N=0, N1=10**6) raises nothing
def test_a_nan_R2_constant_is_refused_or_caught():
    _refused_or_caught(NORM, c3=NAN)


# Accepted before the fix (verify/kernel): c1=float('nan') (a NaN rho) passes `c1 <= 0`;
# `b*(P1-P) < nan` is False: the margin inequalities accept w_f.w not growing at all
def test_a_nan_rho_constant_is_refused_or_caught():
    _refused_or_caught(MARGIN, c1=NAN)


# Accepted before the fix (verify/kernel): b=float('nan') passes `b <= 0`; every margin
# comparison with a NaN side is False
def test_a_nan_rho_denominator_is_refused_or_caught():
    _refused_or_caught(MARGIN, b=NAN)


# Accepted before the fix (verify/kernel): N0=float('nan') (||w0||^2) passes `N0 < 0`; the
# cumulative norm bound `e*(N1-N0) > (t+1)*c3` is then always False
def test_a_nan_w0_norm_is_refused_or_caught():
    _refused_or_caught({"||w_{t+1}||^2 <= (t+1)*eta^2*R^2"}, N0=NAN)


# Accepted before the fix (verify/kernel): P0=float('nan') passes (never validated); the
# cumulative margin bound is then never reported
def test_a_nan_P0_is_refused_or_caught():
    _refused_or_caught({"w_f.w_{t+1} >= (t+1)*eta*rho"}, P0=NAN)


# Accepted before the fix (verify/kernel): c3=inf passes `c3 < 0`: then ||w_{t+1}||^2 <=
# ||w_t||^2 + eta^2*R^2 holds for any step
def test_an_infinite_R2_constant_is_refused():
    _refused_or_caught(NORM, c3=float("inf"))


# Accepted before the fix (verify/kernel): int subclasses pass (no type(v) is int check, unlike
# certificates._exact_number): c1=Liar(-5) whose comparisons all return False passes `c1 <= 0`,
# and `b*(P1-P) < c1` is decided by Liar.__gt__ (the reflected method of a subclass goes first):
# the margin inequalities accept a negative rho
def test_an_int_subclass_rho_that_lies_is_refused_or_caught():
    _refused_or_caught(MARGIN, c1=Liar(-5))


# Accepted before the fix (verify/kernel): c3=Liar(-5) passes `c3 < 0` and decides `e*(N1-N) >
# c3` itself: the per-step norm inequality accepts growth 10**6
def test_an_int_subclass_R2_that_lies_is_refused_or_caught():
    _refused_or_caught({"||w_{t+1}||^2 <= ||w_t||^2 + eta^2*R^2"}, c3=Liar(-5))


# Accepted before the fix (verify/kernel): k, e, D, L are checked with isinstance(value, int):
# e=Liar(-1) passes `value <= 0`, and with e = -1 every norm inequality `e*(N1-N) > c3` holds:
# check_update reports nothing for a step growing ||w||^2 by 10**6
def test_an_int_subclass_e_that_lies_is_refused_or_caught():
    _refused_or_caught(NORM, e=Liar(-1))


# Accepted before the fix (verify/kernel): bound_updates=Liar(3): `T > bound_updates` is decided
# by Liar.__lt__: check_final_count(c, 10**9) accepts T = 10**9 against a bound of 3
def test_an_int_subclass_bound_that_lies_is_refused_or_caught():
    try:
        constants = StepConstants(**{**BASE, **WITH_WF, "bound_updates": Liar(3)})
    except KernelError:
        return
    with pytest.raises(ProofViolation):
        check_final_count(constants, 10**9)


# Accepted before the fix (verify/kernel): Df=float('nan') is accepted by StepConstants and
# check_update then crashes with TypeError ('both arguments should be Rational instances') from
# Fraction, not a KernelError/ProofViolation
def test_a_nan_wf_denominator_is_refused_by_name():
    try:
        constants = StepConstants(**{**BASE, **WITH_WF, "Df": NAN})
    except KernelError:
        return
    assert MARGIN <= _violations(constants)


@pytest.mark.xfail(strict=True, raises=ACCEPTED, reason=(
    "Frozen is not sealed: object.__setattr__(c, 'c1', -5) after validation is used as is by "
    "check_update (no re-validation), which then accepts a margin step of 0; left alone: only "
    "code holding the object can do it, and Python cannot forbid it"))
def test_a_constant_changed_after_validation_is_not_trusted():
    constants = StepConstants(**BASE, **WITH_WF)
    object.__setattr__(constants, "c1", -5)
    try:
        found = _violations(constants)
    except KernelError:
        return
    assert MARGIN <= found


# ================================================================ 2. Monitor's claimed constants
TEXTBOOK = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
WF = [-3, 1, 1]          # true rho = 1 (row 3, updated at t = 1), true R^2 = 26


def _checked(rho=None, R2=None, trust=True, **options):
    opts = pla.RunOptions(order="first", **options)
    monitor = Monitor(TEXTBOOK, opts, wf=WF, rho=rho, R2=R2, trust_constants=trust)
    return monitor.finish(pla.run(TEXTBOOK, options=opts, on_update=monitor.on_update))


@pytest.mark.parametrize("rho", [0, -1, "0", "-1/2", 0.0, -0.0, -1e-300, False,
                                 np.int64(-1), np.float64(-1e-300), Fraction(-1, 10**40),
                                 -10**400])
@pytest.mark.parametrize("classical", [True, False])
def test_a_trusted_rho_at_most_zero_is_a_named_refusal_before_the_run(rho, classical):
    with pytest.raises(ProofViolation, match=r"before the run: rho > 0"):
        Monitor(TEXTBOOK, pla.RunOptions(order="first"), wf=WF, rho=rho, trust_constants=True,
                classical=classical)


@pytest.mark.parametrize("R2", ["-1/3", -1e-300, np.float64(-1e-300), Fraction(-1, 10**40),
                                np.int64(-1), -10**400])
def test_a_trusted_negative_R2_is_a_named_refusal_before_the_run(R2):
    with pytest.raises(ProofViolation, match=r"before the run: R\^2 >= 0"):
        Monitor(TEXTBOOK, pla.RunOptions(order="first"), wf=WF, R2=R2, trust_constants=True)


@pytest.mark.parametrize("claim", [{"rho": "abc"}, {"rho": NAN}, {"rho": float("inf")},
                                   {"rho": "1/0"}, {"rho": [1]}, {"R2": NAN},
                                   {"R2": "x"}, {"R2": float("inf")}])
def test_a_claimed_constant_that_is_not_a_number_is_never_accepted(claim):
    with pytest.raises((ProofViolation, ValueError, TypeError, ZeroDivisionError,
                        OverflowError)):
        _checked(**claim)


@given(rho=st.fractions(min_value=Fraction(1) + Fraction(1, 10**12), max_value=10**40))
@example(rho=Fraction(1) + Fraction(1, 10**30))
@example(rho=np.float64(1.0000000001))
@settings(max_examples=30, deadline=None)
def test_a_trusted_rho_above_the_margin_is_caught_by_the_inequalities(rho):
    """Row 3 (margin exactly 1) is updated: any claimed rho > 1 fails w_f.w' >= w_f.w + rho."""
    with pytest.raises(ProofViolation, match="eta\\*rho"):
        _checked(rho=rho)


@given(rho=st.fractions(min_value=Fraction(1, 10**30), max_value=1))
@settings(max_examples=15, deadline=None)
def test_a_trusted_rho_below_the_margin_gives_a_larger_true_bound(rho):
    report = _checked(rho=rho)
    assert report.rho == rho and report.updates <= report.bound
    assert report.bound >= _checked().bound            # never smaller than the true bound


@given(R2=st.fractions(min_value=0, max_value=Fraction(19) - Fraction(1, 10**12)))
@settings(max_examples=20, deadline=None)
def test_a_trusted_R2_below_the_first_step_is_caught(R2):
    """The first update (on x = (1,3,3), ||x||^2 = 19) grows ||w||^2 by 19."""
    with pytest.raises(ProofViolation, match="R\\^2"):
        _checked(R2=R2)


@pytest.mark.parametrize("options", [{"eta": Fraction(3, 7)}, {"eta": Fraction(10**20)},
                                     {"w0": (Fraction(1), Fraction(-2), Fraction(1, 3))}])
def test_wrong_trusted_constants_with_eta_or_w0(options):
    with pytest.raises(ProofViolation):
        _checked(rho=2, **options)
    with pytest.raises(ProofViolation):
        _checked(R2=1, **options)
    report = _checked(**options)                      # the true constants hold
    assert report.updates <= report.bound


@pytest.mark.parametrize("claim", [{"rho": 10}, {"rho": Fraction(1, 2)}, {"R2": 27},
                                   {"R2": 25}])
def test_an_untrusted_wrong_constant_is_refused_even_when_the_run_would_not_notice(claim):
    """Without trust_constants a claim is compared with the data's value before the run --
    including rho = 10 on data whose min-margin point is never updated."""
    data = pla.Dataset.from_rows([[10, 0], [1, 0]], [1, 1], bias=False)   # rho = 1 (row 2)
    with pytest.raises(ProofViolation, match="before the run"):
        Monitor(data, pla.RunOptions(order="first"), wf=[1, 0], **claim)


# ================================================================ 3. rows of ints
class ShowsOther(tuple):
    """A tuple that stores one thing and iterates as another."""

    def __new__(cls, stored, shown):
        obj = super().__new__(cls, stored)
        obj.shown = tuple(shown)
        return obj

    def __iter__(self):
        return iter(self.shown)


class LongerThanSays(list):
    def __init__(self, stored, length):
        super().__init__(stored)
        self.length = length

    def __len__(self):
        return self.length


@pytest.mark.parametrize("rows", [np.array([[1, 2]], dtype=np.int32), np.array([[1.5, 2.0]]),
                                  ((True, 1),), ((1, 2), (3,)), ("ab",), ((1.0, 2),),
                                  ((Fraction(1), 2),), ((np.int64(1), 2),), ((1, 2), [3, 4.5]),
                                  ((Liar(3), 1),)])
def test_rows_that_are_not_plain_ints_of_one_length_are_refused(rows):
    with pytest.raises(C.CertificateError):
        C.squared_norms(rows)
    with pytest.raises(C.CertificateError):
        C.squared_radius(rows, 1)


def test_an_int64_matrix_is_the_one_array_the_kernel_takes():
    """Issue 29: the data set's own int64 matrix is read as it is (checked in one pass); every
    other array, as above, is refused (tests/test_kernel_int64_matrix.py attacks it further)."""
    assert C.squared_norms(np.array([[1, 2], [3, -4]], dtype=np.int64)) == [5, 25]


@given(st.lists(st.lists(st.sampled_from([0, 1, -1, 2**31 - 1, -2**31, 2**31, 2**62,
                                          -2**63, 2**63 - 1, 2**63, -2**63 - 1, 10**30]),
                         min_size=2, max_size=2), min_size=1, max_size=4),
       st.sampled_from([tuple, list]))
@settings(max_examples=60, deadline=None)
def test_squared_norms_are_exact_at_the_int64_edges(rows, container):
    rows = container(container(r) for r in rows)
    assert C.squared_norms(rows) == [sum(v * v for v in r) for r in rows]
    assert C.squared_radius(rows, 3) == Fraction(max(sum(v * v for v in r) for r in rows), 9)


def test_empty_rows_have_norm_zero():
    assert C.squared_norms(((), ())) == [0, 0]
    with pytest.raises(C.CertificateError):
        C.check_separator(((),), 1, (1,), ())


def test_a_separator_verdict_at_minus_2_to_the_63():
    rows, labels = ((-2**63, 1), (1, 1)), (-1, 1)
    assert C.check_separator(rows, 1, labels, (1, 0)).rho == 1
    with pytest.raises(C.CertificateError, match="row 0"):
        C.check_separator(rows, 1, labels, (-1, 0))
    assert C.count_mistakes(rows, 1, labels, (-1, 0)) == 2     # both rows wrong
    assert C.count_mistakes(rows, 1, labels, (1, 0)) == 0


def test_a_generator_of_rows_is_never_given_a_value():
    with pytest.raises((C.CertificateError, TypeError)):
        C.squared_norms((1, 2) for _ in range(2))


def _plain(rows):
    return tuple(tuple(iter(row)) for row in iter(rows))


@pytest.mark.parametrize("rows, w", [
    ((ShowsOther((2, -1.5), (2, -1)),), (1, Fraction(3, 2))),      # stores a float
    ((ShowsOther((2, -1.5), (2, -2)),), (1, Fraction(3, 2))),
    ((ShowsOther((0.5,), (1,)),), (1,)),
    (ShowsOther(((2.5, 0),), ((3, 0),)), (1, 0)),                  # the outer sequence lies
    (ShowsOther(((-2.5, 0),), ((3, 0),)), (-1, 0)),
])
def test_rows_whose_storage_differs_from_their_iteration_are_refused(rows, w):
    """A tuple subclass may store floats and iterate as ints: the kernel takes rows only as a
    builtin tuple or list (whose length, items and iteration cannot disagree), so every check
    refuses such rows, while the plain rows they iterate as are judged as usual."""
    plain = _plain(rows)
    labels = (1,) * len(plain)
    V = [3, 1][:len(plain[0])]
    assert C.squared_norms(plain) == [sum(v * v for v in r) for r in plain]
    for check in (lambda data: C.squared_norms(data), lambda data: C.row_products(data, V),
                  lambda data: C.count_mistakes(data, 1, labels, w),
                  lambda data: C.check_separator(data, 1, labels, w)):
        with pytest.raises(C.CertificateError):
            check(rows)
    assert C.count_mistakes(plain, 1, labels, w) in (0, 1)


# Accepted before the fix (verify/kernel): _check_data compares len(rows) with len(labels) but
# then pairs them with zip(), which stops at the shorter *iteration*: labels =
# ShowsOther(stored=(1, -1), shown=(1,)) (len 2, labels[1] == -1, iterates as (1,)) passes, row
# 2 is never looked at, and check_separator(((1, 0), (1, 0)), 1, labels, (1, 0)) returns
# MarginFacts(rho=1) for data whose row 2 is (1, 0) with label -1 (not separable at all: a
# Gordan certificate exists); the same with LongerThanSays([1], 2)
@pytest.mark.parametrize("labels", [ShowsOther((1, -1), (1,)), LongerThanSays([1], 2)])
def test_labels_whose_iteration_is_shorter_than_their_length_are_refused(labels):
    rows = ((1, 0), (1, 0))
    assert len(labels) == len(rows)
    with pytest.raises(C.CertificateError):
        C.check_separator(rows, 1, labels, (1, 0))


# Accepted before the fix (verify/kernel): count_mistakes(((1, 0), (1, 0)), 1, ShowsOther((1,
# -1), (1,)), (1, 0)) returns 0: the second row (label -1 by len and indexing) is never counted
def test_a_mistake_count_never_skips_a_row():
    labels = ShowsOther((1, -1), (1,))
    try:
        assert C.count_mistakes(((1, 0), (1, 0)), 1, labels, (1, 0)) == 1
    except C.CertificateError:
        pass


# Accepted before the fix (verify/kernel): rows = [LongerThanSays([1, 0, 5], 2),
# LongerThanSays([1], 2)]: a list subclass whose __len__ says 2 for 3 stored entries (and one
# for 1) passes _rows_of_ints; squared_norms / check_separator then crash in numpy with
# ValueError ('inhomogeneous shape'), not a CertificateError
def test_rows_whose_length_lies_are_a_certificate_error():
    rows = [LongerThanSays([1, 0, 5], 2), LongerThanSays([1], 2)]
    with pytest.raises(C.CertificateError):
        C.squared_norms(rows)
    with pytest.raises(C.CertificateError):
        C.check_separator(rows, 1, (1, 1), (1, 0))


# Accepted before the fix (verify/kernel): an outer sequence with len 2 that iterates one row,
# ShowsOther(((1, 0), (-1, 0)), ((1, 0),)), passes _check_data; check_separator / row_products
# then crash in python-flint with ValueError ('list of entries has the wrong length'), not a
# CertificateError (squared_norms returns [1] for the iterated row)
def test_rows_whose_iteration_is_shorter_than_their_length_are_a_certificate_error():
    rows = ShowsOther(((1, 0), (-1, 0)), ((1, 0),))
    with pytest.raises(C.CertificateError):
        C.check_separator(rows, 1, (1, 1), (1, 0))


# Accepted before the fix (verify/kernel): a dict row {1: 2} iterates as the int key 1 and
# passes _rows_of_ints; squared_norms then raises TypeError from numpy (int() of a dict), not a
# CertificateError
def test_a_mapping_row_is_a_certificate_error():
    with pytest.raises(C.CertificateError):
        C.squared_norms(({1: 2},))


# Accepted before the fix (verify/kernel): squared_radius((), 1) raises ValueError ('max() arg
# is an empty sequence') from the kernel instead of a CertificateError (squared_norms(()) is [])
def test_the_radius_of_no_rows_is_a_certificate_error():
    with pytest.raises(C.CertificateError):
        C.squared_radius((), 1)


# ================================================================ 4. constant square roots
FALSE_CLAIMS = [
    "sqrt(2) >= 1.4143", "sqrt(2) >= 14143/10000", "-sqrt(2) >= -1.4142",
    "-sqrt(2) > -1.4142", "2 - sqrt(4) > 0", "sqrt(0) > 0", "-sqrt(0) > 0",
    "1 - sqrt(1) > 0", "sqrt(1/4) > 1/2", "sqrt(1/4) < 1/2", "sqrt(9/4) > 3/2",
    "sqrt(10**40) > 10**20", "sqrt(10**40 + 1) <= 10**20", "sqrt(sqrt(16)) > 2",
    "sqrt(2)*sqrt(2) > 2", "sqrt(2) + sqrt(3) >= sqrt(10)", "sqrt(2) == 1.4142135623730951",
    "3*sqrt(2) - 4 > 1/4", "sqrt(2) != sqrt(2)", "sqrt(0) != 0", "sqrt(2) - sqrt(2) > 0",
    "0*sqrt(2) > 0", "sqrt(4) > 2", "sqrt(4) < 2", "sqrt(2)**2 > 2",
    "sqrt(2)**3 > 2*sqrt(2)", "assume: x >= 0\nsqrt(0)*x > 0", "assume: x >= 0\nsqrt(x) > 0",
    "sqrt(x - x + 2) >= 1.5", "assume: sqrt(2) > 1\n1 > 2", "-sqrt(1/10**40) >= 0",
]


@pytest.mark.parametrize("text", FALSE_CLAIMS)
def test_a_false_claim_about_a_constant_root_is_never_proved(text):
    assert _prove(parse_claim(text))[0] != "proved"
    assert check_claim_text(text).status in ("refuted", "unproved")


@pytest.mark.parametrize("text", ["sqrt(-1) >= 0", "sqrt(-1) < 0", "assume: sqrt(-1) >= 0\n1 < 0",
                                  "1/sqrt(0) > 0", "sqrt(-1/10**40) <= 0"])
def test_an_undefined_constant_root_is_invalid_or_refused_never_proved(text):
    try:
        status = _prove(parse_claim(text))[0]
    except ClaimSyntaxError:
        status = "invalid"
    assert status != "proved"
    assert check_claim_text(text).status in ("invalid", "refuted", "unproved")


@pytest.mark.parametrize("text", ["sqrt(0) >= 0", "-sqrt(0) <= 0", "sqrt(2) >= 1.4142",
                                  "-sqrt(2) >= -1.4143", "sqrt(1/4) == 1/2 + 0*sqrt(3)",
                                  "1/(sqrt(2) - 1) > 0", "assume: sqrt(2) < 1\n1 > 2"])
def test_true_or_vacuous_constant_root_claims_are_not_refuted(text):
    assert check_claim_text(text).status in ("proved", "vacuous", "unproved")


def _sign_of_root_form(alpha: Fraction, beta: Fraction, q: Fraction) -> int:
    """The exact sign of alpha + beta*sqrt(q) (q >= 0), by comparing squares."""
    a, bq = alpha, beta * beta * q                   # |beta| sqrt(q) = sqrt(bq)
    if beta >= 0 and a >= 0:
        return int(a > 0 or bq > 0)
    if beta <= 0 and a <= 0:
        return -int(a < 0 or bq > 0)
    if a > 0:                                        # a - sqrt(bq)
        return (a * a > bq) - (a * a < bq)
    return (bq > a * a) - (bq < a * a)               # sqrt(bq) - |a|


_Q = st.sampled_from([Fraction(0), Fraction(1), Fraction(2), Fraction(4), Fraction(1, 4),
                      Fraction(9, 4), Fraction(1, 3), Fraction(10**20), Fraction(10**20 + 1)])
_COEFF = st.sampled_from([Fraction(v) for v in (0, 1, -1, 2, -2, 3)] +
                         [Fraction(1, 2), Fraction(-3, 2), Fraction(10**10), -Fraction(10**10)])


@given(alpha=_COEFF, beta=_COEFF, q=_Q, op=st.sampled_from([">=", ">"]))
@example(alpha=Fraction(-2), beta=Fraction(1), q=Fraction(4), op=">")      # sqrt(4) - 2 > 0
@example(alpha=Fraction(0), beta=Fraction(-1), q=Fraction(0), op=">")      # -sqrt(0) > 0
@example(alpha=Fraction(-10**10), beta=Fraction(1), q=Fraction(10**20 + 1), op=">")
@example(alpha=Fraction(10**10), beta=Fraction(-1), q=Fraction(10**20 + 1), op=">=")
@settings(max_examples=25, deadline=None)
def test_alpha_plus_beta_root_q_is_proved_only_when_true(alpha, beta, q, op):
    text = f"{alpha} + ({beta})*sqrt({q}) {op} 0"
    sign = _sign_of_root_form(alpha, beta, q)
    holds = sign > 0 or (op == ">=" and sign == 0)
    status = _prove(parse_claim(text))[0]
    assert status != "proved" or holds, text
    assert status != "vacuous", text


# ================================================================ 5. closed pipes
PLA = [sys.executable, "-c", "import sys; from verify.cli import main; sys.exit(main())"]


def _to_a_closed_pipe(args, cwd):
    """Run ``pla ARGS`` with standard output a pipe whose reader has already gone."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(PLA + args, stdout=write_end, stderr=subprocess.PIPE, text=True,
                              cwd=cwd, timeout=120, check=False)
    finally:
        os.close(write_end)
    return done


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("pipes")
    (d / "d.dat").write_text("3 3 +1\n4 3 +1\n1 1 -1\n")
    (d / "xor.dat").write_text("0 0 -1\n1 1 -1\n0 1 1\n1 0 1\n")
    (d / "w.txt").write_text("1\n1\n1\n")
    (d / "refuted.md").write_text("```claim\nassume: x >= 0\nx**2 >= x\n```\n" * 3)
    (d / "root.md").write_text("```claim\nsqrt(2) >= 1.4143\n```\n")
    done = subprocess.run(PLA + ["run", "d.dat", "--trace", "t.jsonl"], cwd=d,
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0
    lines = (d / "t.jsonl").read_text().splitlines()
    lines[2] = lines[2].replace('"y":-1', '"y":1')
    (d / "bad.jsonl").write_text("\n".join(lines) + "\n")
    return d


@pytest.mark.parametrize("args, code", [
    (["run", "d.dat", "--check", "--wf", "w.txt"], 4),          # w_f is not a separator
    (["run", "d.dat", "--check", "--wf", "w.txt", "--json"], 4),
    (["run", "xor.dat", "--check", "--max-updates", "5"], 3),
    (["run", "d.dat", "--check", "--max-updates", "2"], 3),
    (["claims", "refuted.md"], 1),
    (["claims", "root.md"], 1),
    (["certify", "d.dat", "--weights", "w.txt"], 1),
    (["audit", "bad.jsonl", "--data", "d.dat"], 1),
])
def test_a_failing_verdict_to_a_closed_pipe_keeps_its_exit_code(files, args, code):
    done = _to_a_closed_pipe(args, files)
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr


def test_a_passing_run_to_a_closed_pipe_is_not_a_failure_of_the_proof(files):
    """(Control: what ok looks like on the same pipe -- the verdict, not the pipe, decides.)"""
    done = _to_a_closed_pipe(["run", "d.dat", "--check"], files)
    assert done.returncode == 0 and "Traceback" not in done.stderr
