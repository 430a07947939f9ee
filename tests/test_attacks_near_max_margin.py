"""Attack tests (adversarial review) of the near-max-margin machinery: the kernel's dual bound
(`check_dual_bound`) and int64 products, the data-validation memo, `near_max_margin` /
`tightest_updates`, `prepare_monitor`'s cross-check and the monitor's int64 carrier.

Each attack the code rejects is a passing test asserting the rejection (or the exact value).
Three attacks first succeeded and are now refused: a row entry of exactly -2⁶³ (np.abs wraps
it, so the int64 bound missed it), a Fraction subclass whose numerator is a lying int, and a
near-max-margin record whose bound_lower was forged (prepare_monitor now runs the kernel's dual
bound itself).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from math import floor

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import pla
from tests.strategies import separable_datasets
from verify.checks import checked_run as checked_run_module
from verify.checks.monitor import Monitor, ProofViolation, _int64_carrier
from verify.kernel import certificates as C
from verify.kernel.certificates import CertificateError
from verify.search.certificates import Separator, max_margin, near_max_margin, separator_for

ROWS = ((1, 2), (1, -1))
LABELS = (1, -1)


def _py_dual_bound(rows, scale, labels, alpha):
    """(Σα)² / ‖Σ αₙ yₙ xₙ‖² in plain Python Fractions."""
    alpha = [Fraction(a) for a in alpha]
    dim = len(rows[0])
    v = [sum(a * y * Fraction(row[i], scale) for a, y, row in zip(alpha, labels, rows))
         for i in range(dim)]
    return sum(alpha) ** 2 / sum(c * c for c in v)


# ------------------------------------------------------------- alpha: refused types and values
@pytest.mark.parametrize("bad", [
    0.5, 1.0, float("nan"), float("inf"), True, False, np.int64(1), np.float64(1.0),
    np.int32(1), "1", None, complex(1, 0), [1],
])
def test_alpha_of_a_non_exact_type_is_refused(bad):
    with pytest.raises(CertificateError):
        C.check_dual_bound(ROWS, 1, LABELS, [bad, Fraction(4, 9)])


@pytest.mark.parametrize("alpha", [
    [1, -1], [-1, 1], [Fraction(-1, 10**40), 1], [-(10**60), 10**60 + 1],
])
def test_a_negative_alpha_is_refused(alpha):
    with pytest.raises(CertificateError, match="< 0"):
        C.check_dual_bound(ROWS, 1, LABELS, alpha)


@pytest.mark.parametrize("alpha", [[0, 0], [Fraction(0), 0]])
def test_alpha_zero_is_refused(alpha):
    with pytest.raises(CertificateError, match="alpha = 0"):
        C.check_dual_bound(ROWS, 1, LABELS, alpha)


def test_a_gordan_alpha_bounds_nothing():
    with pytest.raises(CertificateError, match="bounds nothing"):
        C.check_dual_bound(((1, 0), (1, 0)), 1, (1, -1), [1, 1])


@pytest.mark.parametrize("alpha", [[1], [1, 2, 3], [], iter([1])])
def test_alpha_of_the_wrong_length_is_refused(alpha):
    with pytest.raises(CertificateError, match="entries"):
        C.check_dual_bound(ROWS, 1, LABELS, alpha)


def test_a_benign_int_subclass_and_fraction_subclass_give_the_exact_value():
    class MyInt(int):
        pass

    class MyFraction(Fraction):
        pass

    alpha = [MyInt(1), MyFraction(4, 1)]
    assert C.check_dual_bound(ROWS, 1, LABELS, alpha) == _py_dual_bound(ROWS, 1, LABELS, [1, 4])


def test_an_int_subclass_lying_through_mul_cannot_change_the_value():
    class Liar(int):                       # lies in arithmetic, but not in .numerator
        def __mul__(self, other):
            return 10**9

        __rmul__ = __mul__

    got = C.check_dual_bound(ROWS, 1, LABELS, [Liar(1), 4])
    assert got == _py_dual_bound(ROWS, 1, LABELS, [1, 4])


@pytest.mark.parametrize("alpha", [
    [10**40, 1], [1, 10**40], [2**62, 2**62], [2**63, 2**63 - 1], [2**64 + 1, 3],
    [Fraction(1, 2**70), Fraction(3, 2**63)], [Fraction(2**200, 3), Fraction(1, 7)],
])
def test_huge_and_boundary_alphas_give_the_exact_value(alpha):
    assert C.check_dual_bound(ROWS, 3, LABELS, alpha) == _py_dual_bound(ROWS, 3, LABELS, alpha)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**70), min_size=3, max_size=3).filter(any),
       st.sampled_from([1, 2, 7, 2**40]))
def test_dual_bound_is_exact_on_random_integer_alphas(alpha, scale):
    rows = ((2**31 - 1, -(2**31 - 1), 3), (5, 2**30, -7), (-(2**31 - 1), 0, 1))
    labels = (1, -1, 1)
    try:
        expected = _py_dual_bound(rows, scale, labels, alpha)
    except ZeroDivisionError:
        return
    assert C.check_dual_bound(rows, scale, labels, alpha) == expected


# --- a Fraction subclass whose numerator is a lying int: the kernel trusts `a < 0` on it -------
class _NeverNegative(int):
    """An int that says it is never < 0 and keeps its class through multiplication."""

    def __lt__(self, other):
        return False

    def __mul__(self, other):
        return _NeverNegative(int(self) * int(other))

    __rmul__ = __mul__


class _HiddenMinusOne(Fraction):
    @property
    def numerator(self):
        return _NeverNegative(-1)

    @property
    def denominator(self):
        return 1


def test_a_hidden_negative_alpha_is_refused():
    rows, labels = ((1, 0), (2, 0)), (1, 1)
    w_ratio = Fraction(1)                  # w = (1, 0): rho = 1, ||w||^2 = 1
    try:
        bound = C.check_dual_bound(rows, 1, labels, [3, _HiddenMinusOne(0)])
    except CertificateError:
        return
    assert bound <= w_ratio


# ------------------------------------------------------------- labels and the validation memo
@pytest.mark.parametrize("labels", [(True, -1), (1.0, -1), (1, False), (1, -1.0), (2, -1),
                                    (np.int64(1), -1), [1, True]])
def test_labels_that_are_not_plus_or_minus_one_ints_are_refused(labels):
    with pytest.raises(CertificateError):
        C.check_dual_bound(ROWS, 1, labels, [1, 4])


def test_the_memo_does_not_validate_other_labels_for_the_same_rows():
    rows = ((1, 2), (1, -1))
    assert C.check_dual_bound(rows, 1, (1, -1), [1, 4]) == _py_dual_bound(rows, 1, (1, -1), [1, 4])
    with pytest.raises(CertificateError):
        C.check_dual_bound(rows, 1, (True, -1), [1, 4])
    with pytest.raises(CertificateError):
        C.check_dual_bound(rows, 0, (1, -1), [1, 4])      # scale is checked before the memo


def test_equal_but_distinct_tuples_are_revalidated():
    rows = ((1, 2), (1, -1))
    C.check_dual_bound(rows, 1, (1, -1), [1, 4])
    bad_rows = tuple(tuple(r) for r in ((1, 2.0), (1, -1)))
    with pytest.raises(CertificateError):
        C.check_dual_bound(bad_rows, 1, (1, -1), [1, 4])


def test_a_tuple_holding_a_mutable_row_is_not_memoised():
    inner = [1, -1]
    rows = ((1, 2), inner)
    labels = (1, -1)
    assert C.check_dual_bound(rows, 1, labels, [1, 4]) == _py_dual_bound(rows, 1, labels, [1, 4])
    assert not (C._LAST_VALID and C._LAST_VALID[0][0] is rows)
    assert not (C._LAST_INT64 and C._LAST_INT64[0][0] is rows)
    inner[1] = 0.5                          # mutate the row between calls
    with pytest.raises(CertificateError):
        C.check_dual_bound(rows, 1, labels, [1, 4])
    inner[1] = 5                            # and a new valid value gives the new exact answer
    assert C.check_dual_bound(rows, 1, labels, [1, 4]) == _py_dual_bound(rows, 1, labels, [1, 4])


def test_mutated_list_rows_give_fresh_results():
    rows = [[1, 2], [1, -1]]
    first = C.check_dual_bound(rows, 1, [1, -1], [1, 4])
    rows[0][0] = 2**40                       # beyond int64-limb range: another path
    assert C.check_dual_bound(rows, 1, [1, -1], [1, 4]) == _py_dual_bound(rows, 1, (1, -1), [1, 4])
    rows[0][0] = 1
    assert C.check_dual_bound(rows, 1, [1, -1], [1, 4]) == first


def test_an_int64_memo_filled_by_squared_norms_on_floats_cannot_leak_into_a_check():
    rows = ((1.5, 2.0), (1.0, -1.0))
    with pytest.raises(CertificateError):   # refused before any int64 matrix is memoised
        C.squared_norms(rows)
    with pytest.raises(CertificateError):
        C.check_separator(rows, 1, (1, -1), [0, 1])


# ------------------------------------------------------------- int64 paths at the boundaries
BOUNDARY_ENTRIES = [0, 1, -1, 2**31 - 1, -(2**31 - 1), 2**31, -(2**31), 2**31 + 1, 2**62,
                    -(2**62), 2**63 - 1, 2**63, 2**64]
BOUNDARY_V = [0, 1, -1, 2**31, -(2**31), 2**62 - 1, 2**62, -(2**62), 2**63 - 1, 2**63,
              -(2**63), 2**64 + 1, -(2**100), 3**80]


@pytest.mark.parametrize("entry", BOUNDARY_ENTRIES)
def test_products_combination_and_norms_match_python_at_int64_boundaries(entry):
    for dim in (1, 3):
        rows = tuple(tuple(entry if (i + j) % 2 else -entry + 1 - j for j in range(dim))
                     for i in range(4))
        for v in BOUNDARY_V:
            V = [v - j for j in range(dim)]
            assert C._products(rows, V) == [sum(a * b for a, b in zip(r, V)) for r in rows]
            coefficients = [v, -v, 1, v // 3]
            assert C._combination(coefficients, rows, dim) == \
                [sum(c * r[i] for c, r in zip(coefficients, rows)) for i in range(dim)]
        assert C.squared_norms(rows) == [sum(a * a for a in r) for r in rows]
        assert C.row_products(rows, [1] * dim) == [sum(r) for r in rows]


def test_the_many_row_bound_for_the_transposed_product():
    rows = tuple((2**31 - 1, -(2**31 - 1)) for _ in range(3000))
    coefficients = [2**62 - 1 - n for n in range(3000)]
    assert C._combination(coefficients, rows, 2) == \
        [sum(c * r[i] for c, r in zip(coefficients, rows)) for i in range(2)]


def test_squared_norms_at_the_62_bit_edge():
    e = 2**31 - 1
    for dim in (1, 2, 3, 4):
        rows = tuple(tuple([e] * dim) for _ in range(2))
        assert C.squared_norms(rows) == [dim * e * e] * 2


_M = -(2**63)


def test_minus_two_to_the_63_row_entry_squared_norm():
    assert C.squared_norms(((_M, 0),)) == [2**126]


def test_minus_two_to_the_63_row_entry_separator():
    with pytest.raises(CertificateError):
        C.check_separator(((_M, 1), (1, 1)), 1, (1, 1), [2, 1])


def test_minus_two_to_the_63_row_entry_dual_bound():
    rows, labels = ((_M, 0), (1, 0)), (-1, 1)
    bound = C.check_dual_bound(rows, 1, labels, [2, 1])
    assert bound == Fraction(9, (2**64 + 1) ** 2)
    assert C.check_separator(rows, 1, labels, [1, 0]).rho == 1      # so the bound must be <= 1


def test_minus_two_to_the_63_row_entry_monitor_radius():
    ds = pla.Dataset.from_rows([[_M], [1]], [-1, 1], bias=False)
    monitor = Monitor(ds, pla.RunOptions(order="first"), wf=[1])
    assert monitor.R2 == 2**126


def test_int64_carrier_boundaries():
    assert _int64_carrier(((2**31, 0),), [0, 0], 1) == (None, 0)
    assert _int64_carrier(((-(2**31), 0),), [0, 0], 1) == (None, 0)
    assert _int64_carrier(((2**63, 0),), [0, 0], 1) == (None, 0)
    matrix, room = _int64_carrier(((2**31 - 1,),), [0], 1)
    assert matrix is not None and room == (2**62 // (2**31 - 1)) // (2**31 - 1) >= 1
    assert _int64_carrier(((2**31 - 1, 0),), [0, 0], 1) == (None, 0)  # 2 * (2^31-1)^2 > 2^62
    assert _int64_carrier(((1, 1),), [2**62, 0], 1) == (None, 0)     # W0 leaves no room
    assert _int64_carrier(((1, 1),), [0, 0], 2**62) == (None, 0)     # k leaves no room
    # within the room every partial sum stays below 2**62
    for rows, W0, k in [(((3, -5), (7, 2)), [11, -4], 3), (((2**20, 1),), [5, 5], 1)]:
        _, room = _int64_carrier(rows, W0, k)
        dim, big = len(rows[0]), max(abs(v) for r in rows for v in r)
        assert dim * (max(map(abs, W0)) + room * abs(k) * big) * big <= 2**62


def test_the_monitor_carrier_near_2_to_the_31_agrees_with_python():
    e = 2**31 - 1
    ds = pla.Dataset.from_rows([[e, e - 1], [-e, 3], [e - 5, -e], [1, e]], [1, -1, 1, -1],
                               bias=True)
    options = pla.RunOptions(order="cyclic", max_updates=300)
    try:
        checked = checked_run_module.checked_run(ds, options=options, wf="lp", paranoid=True)
        result, report = checked.result, checked.report
    except ProofViolation as exc:          # a violation here would be an int64 wrap
        pytest.fail(f"correct run rejected: {exc}")
    assert report.violations == 0


# ------------------------------------------------------------- prepare_monitor: forged records
def _large_honest_record():
    ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1], [0, 1]], [1, 1, -1, -1])
    exact = max_margin(ds)
    return ds, exact


def _forge(monkeypatch, record):
    monkeypatch.setattr(checked_run_module, "reference_separator", lambda ds, wf="maxmargin": record)


def _near(ds, w, bound_lower=None, **changes):
    s = separator_for(ds, w)
    s = dataclasses.replace(s, kind="near-max-margin",
                            bound_lower=s.bound if bound_lower is None else bound_lower)
    return dataclasses.replace(s, **changes)


def test_forged_rho_is_rejected(monkeypatch):
    ds, exact = _large_honest_record()
    _forge(monkeypatch, _near(ds, exact.w, rho=exact.rho * 2))
    with pytest.raises(ProofViolation, match="rho"):
        checked_run_module.prepare_monitor(ds, pla.RunOptions())


def test_forged_r2_is_rejected(monkeypatch):
    ds, exact = _large_honest_record()
    _forge(monkeypatch, _near(ds, exact.w, R2=exact.R2 / 2))
    with pytest.raises(ProofViolation, match="R\\^2"):
        checked_run_module.prepare_monitor(ds, pla.RunOptions())


def test_forged_bound_with_matching_bound_lower_is_rejected(monkeypatch):
    ds, exact = _large_honest_record()
    fake = Fraction(floor(exact.bound) - 1)        # a smaller claimed integer bound
    _forge(monkeypatch, _near(ds, exact.w, bound=fake, bound_lower=fake))
    with pytest.raises(ProofViolation, match="max-margin integer"):
        checked_run_module.prepare_monitor(ds, pla.RunOptions())


def test_an_unproved_near_record_is_not_taken_by_reference_separator(monkeypatch):
    import verify.search.certificates as search

    ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    bogus = _near(ds, [-3, 1, 1], bound_lower=Fraction(0))        # tightest_updates is None
    assert bogus.tightest_updates is None
    monkeypatch.setattr(search, "near_max_margin", lambda dataset: bogus)
    monkeypatch.setattr(checked_run_module, "EXACT_WF_ENTRIES", 0)
    assert checked_run_module.reference_separator(ds).kind == "max-margin"


def test_forged_bound_lower_on_a_worse_separator_is_rejected(monkeypatch):
    ds, exact = _large_honest_record()
    worse = separator_for(ds, [-3, 1, 1])        # bound 286 > 117
    assert floor(worse.bound) > floor(exact.bound)
    _forge(monkeypatch, _near(ds, worse.w))
    with pytest.raises(ProofViolation):
        checked_run_module.prepare_monitor(ds, pla.RunOptions())


# ------------------------------------------------------------- near_max_margin vs exact max-margin
@settings(max_examples=40, deadline=None)
@given(separable_datasets())
def test_near_max_margin_never_claims_more_or_less_than_the_exact_bound(ds):
    exact = max_margin(ds)
    assert isinstance(exact, Separator)
    near = near_max_margin(ds)
    if near is None:
        return
    assert near.bound_lower <= exact.bound <= near.bound
    if near.tightest_updates is not None:
        assert near.tightest_updates == floor(exact.bound)
    # the record's numbers are the kernel's, recomputed here
    assert C.check_separator(ds.rows, ds.scale, ds.labels, near.w).rho == near.rho == 1
    assert near.R2 * C.check_dual_bound(ds.rows, ds.scale, ds.labels, near.alpha) == \
        near.bound_lower


@settings(max_examples=40, deadline=None)
@given(separable_datasets(), st.data())
def test_any_nonnegative_alpha_bounds_below_the_max_margin(ds, data):
    exact = max_margin(ds)
    assert isinstance(exact, Separator)
    exact_ratio = exact.norm2 / (exact.rho * exact.rho)
    # the max-margin multipliers are tight
    assert C.check_dual_bound(ds.rows, ds.scale, ds.labels, exact.alpha) == exact_ratio
    alpha = data.draw(st.lists(st.fractions(min_value=0, max_value=50, max_denominator=9),
                               min_size=ds.n, max_size=ds.n).filter(any))
    try:
        bound = C.check_dual_bound(ds.rows, ds.scale, ds.labels, alpha)
    except CertificateError:
        return
    assert bound <= exact_ratio


def test_a_poisoned_int64_rows_cache_is_caught_by_the_monitor():
    """The monitor's carrier (and the fast engine) use ``dataset.int64_rows``: a cache that
    disagrees with ``dataset.rows`` must not give a clean report."""
    ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    bad = np.array(ds.rows, dtype=np.int64)
    bad[2] = [1, 2, 2]
    bad.setflags(write=False)
    ds.__dict__["int64_rows"] = bad
    with pytest.raises(ProofViolation):
        checked_run_module.checked_run(ds, order="first")
