"""The near-max-margin w_f of `pla run --check` on large data (issue 17) and the kernel checks it
rests on: the dual bound (`check_dual_bound`) and the int64 products (`_int64_products`).

What must hold whatever the floats propose: the kernel's dual bound is below the bound of every
separator (in particular of the exact max-margin w*), the reported w separates, and a claimed
"max-margin integer bound" is the exact w*'s integer bound.
"""

from __future__ import annotations

import re
from fractions import Fraction
from math import floor
from operator import mul

import pytest
from hypothesis import assume, given, settings, strategies as st

import pla
from pla.generate import separable_data
from tests.cli_runner import pla_cli
from tests.strategies import separable_datasets
from verify import kernel
from verify.checks import checked_run
from verify.kernel import certificates as kernel_certificates
from verify.kernel.certificates import _combination, _int64_products, _products
from verify.search.certificates import (
    NonSeparable, Separator, certify, max_margin, near_max_margin, separator_for,
)

TRIANGLE = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])


def _exact_bound(ds: pla.Dataset) -> Fraction:
    s = max_margin(ds)
    assert isinstance(s, Separator) and s.kind == "max-margin"
    return s.bound


# ------------------------------------------------------------------------ kernel: the dual bound
def test_the_dual_bound_of_the_max_margin_multipliers_is_tight():
    s = certify(TRIANGLE)
    lower = kernel.check_dual_bound(TRIANGLE.rows, TRIANGLE.scale, TRIANGLE.labels, s.alpha)
    assert lower == s.norm2 == Fraction(9, 2)     # (Σα)²/‖Σαyx‖² = ‖w*‖² at the optimum


@pytest.mark.parametrize("alpha, message", [
    ([1, -1, 0], "alpha[1] = -1 < 0"),
    ([0, 0, 0], "alpha = 0 bounds nothing"),
    ([0.5, 0, 1], "the kernel accepts only ints and Fractions"),
    ([True, 0, 1], "the kernel accepts only ints and Fractions"),
    ([1, 0], "alpha has 2 entries, expected 3"),
])
def test_the_dual_bound_refuses_bad_multipliers(alpha, message):
    with pytest.raises(kernel.CertificateError, match=re.escape(message)):
        kernel.check_dual_bound(TRIANGLE.rows, TRIANGLE.scale, TRIANGLE.labels, alpha)


def test_a_gordan_combination_bounds_nothing():
    xor = pla.Dataset.from_rows([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1])
    with pytest.raises(kernel.CertificateError, match="sum_n alpha_n y_n x_n = 0"):
        kernel.check_dual_bound(xor.rows, xor.scale, xor.labels, [1, 1, 1, 1])


@settings(max_examples=60, deadline=None)
@given(separable_datasets(max_n=7, max_d=3), st.data())
def test_a_lying_proposer_cannot_push_the_dual_bound_above_any_separator(ds, data):
    """Any α ≥ 0 a proposer hands the kernel gives a bound below ‖w‖²/ρ² of every separator:
    of the exact w* and of whatever separator the proposer also claims."""
    alpha = data.draw(st.lists(st.fractions(min_value=0, max_value=50, max_denominator=1000),
                               min_size=ds.n, max_size=ds.n))
    try:
        lower = kernel.check_dual_bound(ds.rows, ds.scale, ds.labels, alpha)
    except kernel.CertificateError:
        return                                           # α = 0 or Σ αₙ yₙ xₙ = 0: no claim
    s = max_margin(ds)
    assert lower <= s.norm2 / (s.rho * s.rho)
    w = data.draw(st.lists(st.integers(-20, 20), min_size=ds.dim, max_size=ds.dim))
    try:
        facts = kernel.check_separator(ds.rows, ds.scale, ds.labels, w)
    except kernel.CertificateError:
        return
    assert lower <= Fraction(sum(v * v for v in w)) / (facts.rho * facts.rho)


# --------------------------------------------------------------- kernel: exact int64 products
def _python_products(rows, V):
    return [sum(map(mul, row, V)) for row in rows]


edge = st.sampled_from([0, 1, -1, 2**31 - 1, -(2**31 - 1), 2**31, 2**40, -(2**62), 2**63 - 1])


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_int64_products_are_exact_at_their_bounds(data):
    """Entries up to 2³¹ (the int64 path) and beyond (FLINT), vectors up to 2³⁰⁰: the products
    equal Python's, whichever path computed them, and the int64 path never runs past 2⁶²."""
    n = data.draw(st.integers(1, 6))
    dim = data.draw(st.integers(1, 5))
    entries = st.integers(-(2**31 - 1), 2**31 - 1) | edge
    rows = tuple(tuple(data.draw(entries) for _ in range(dim)) for _ in range(n))
    vector = st.integers(-(2**300), 2**300) | st.integers(-(2**150), 2**150) | edge | st.integers(-3, 3)
    V = [data.draw(vector) for _ in range(dim)]
    C = [data.draw(vector) for _ in range(n)]
    kernel_certificates._LAST_INT64.clear()
    assert _products(rows, V) == _python_products(rows, V)
    assert _combination(C, rows, dim) == [sum(c * row[i] for c, row in zip(C, rows))
                                          for i in range(dim)]
    assert kernel.squared_norms(rows) == [sum(v * v for v in row) for row in rows]
    fast = _int64_products(rows, dim, V, transposed=False)
    assert fast is None or fast == _python_products(rows, V)


def test_the_int64_path_is_taken_where_the_bound_allows_and_refused_beyond():
    rows = ((2**30, -(2**30)), (1, 2))
    assert _int64_products(rows, 2, [2**100, 3], transposed=False) == \
        _python_products(rows, [2**100, 3])
    kernel_certificates._LAST_INT64.clear()
    assert _int64_products(((2**31, 1),), 2, [1, 1], transposed=False) is None  # entry > 2³¹ - 1
    assert _int64_products(rows, 2, [2**2000, 1], transposed=False) is None     # too many limbs
    assert _products(rows, [2**2000, 1]) == _python_products(rows, [2**2000, 1])


def test_a_list_of_rows_is_never_remembered():
    """The memos hold only immutable data: a list changed between two checks is re-read."""
    rows = [[1, 2], [3, 4]]
    assert _products(rows, [1, 1]) == [3, 7]
    rows[0][0] = 100
    assert _products(rows, [1, 1]) == [102, 7]
    labels = [1, -1]
    data = [(1, 1), (1, -1)]
    kernel.check_separator(data, 1, labels, [0, 1])
    labels[1] = 1
    with pytest.raises(kernel.CertificateError):
        kernel.check_separator(data, 1, labels, [0, 1])


# ---------------------------------------------------------------------- search: near-max-margin
@settings(max_examples=40, deadline=None)
@given(separable_datasets(max_n=12, max_d=3))
def test_the_bracket_contains_the_exact_max_margin_bound(ds):
    near = near_max_margin(ds)
    if near is None:               # the floats may fail; the caller then computes w* exactly
        return
    exact = _exact_bound(ds)
    assert near.kind == "near-max-margin" and near.rho == 1
    assert near.bound_lower <= exact <= near.bound
    kernel.check_separator(ds.rows, ds.scale, ds.labels, near.w)
    if near.tightest_updates is not None:
        assert near.tightest_updates == floor(exact)


@pytest.mark.parametrize("n, d", [(60, 3), (12, 20)])   # quadprog working set / Gram form
def test_generated_data_get_a_tight_bracket_on_both_float_paths(n, d):
    rows, labels = separable_data(n, d, "1/50", seed=3)
    ds = pla.Dataset.from_rows(rows, labels)
    near = near_max_margin(ds)
    exact = _exact_bound(ds)
    assert near is not None and near.bound_lower <= exact <= near.bound
    assert near.bound - near.bound_lower < exact * Fraction(1, 10**8)
    assert near.tightest_updates == floor(exact)


def test_an_integer_bound_is_never_claimed_from_a_bracket_that_straddles_it():
    near = near_max_margin(TRIANGLE)
    assert near is not None and near.bound_lower < 117 < near.bound
    assert near.tightest_updates is None


def test_data_without_a_separator_get_no_near_max_margin_w():
    xor = pla.Dataset.from_rows([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1])
    assert near_max_margin(xor) is None
    assert isinstance(checked_run.reference_separator(xor), NonSeparable)


# ------------------------------------------------------------- the --check policy and the CLI
def test_small_data_keep_the_exact_max_margin_w():
    assert checked_run.reference_separator(TRIANGLE).kind == "max-margin"


def test_large_data_use_the_near_max_margin_w_only_with_a_proved_integer_bound(monkeypatch):
    monkeypatch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
    # the bracket straddles 117: the exact w* is computed instead
    assert checked_run.reference_separator(TRIANGLE).kind == "max-margin"
    assert checked_run.reference_separator(TRIANGLE, "maxmargin-exact").kind == "max-margin"
    rows, labels = separable_data(60, 3, "1/50", seed=3)
    ds = pla.Dataset.from_rows(rows, labels)
    near = checked_run.reference_separator(ds)
    assert near.kind == "near-max-margin" and near.tightest_updates == floor(_exact_bound(ds))
    assert checked_run.reference_separator(ds, "maxmargin-exact").kind == "max-margin"


def test_a_checked_run_with_the_near_max_margin_w_reports_the_bracket(tmp_path, monkeypatch):
    rows, labels = separable_data(60, 3, "1/50", seed=3)
    ds = pla.Dataset.from_rows(rows, labels)
    monkeypatch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
    checked = checked_run.checked_run(ds)
    result, report = checked.result, checked.report
    exact = floor(_exact_bound(ds))
    assert report.violations == 0 and report.wf_kind.startswith("near-max-margin")
    assert f"the max-margin integer bound, {exact}" in report.wf_kind
    assert report.bound_updates == exact >= result.updates


def test_cli_wf_maxmargin_exact(tmp_path):
    data = tmp_path / "d.dat"
    data.write_text("3 3 +1\n4 3 +1\n1 1 -1\n")
    done = pla_cli("run", str(data), "--check", "--wf", "maxmargin-exact")
    assert done.code == 0, done.err
    assert ": max-margin" in done.out and "near-max-margin" not in done.out


def test_a_near_max_margin_record_with_a_wrong_bound_is_caught_by_the_monitor(monkeypatch):
    """The monitor derives the bound from its own products: a record whose claimed bound (and
    bracket) is off by one is refused before the run."""
    rows, labels = separable_data(60, 3, "1/50", seed=3)
    ds = pla.Dataset.from_rows(rows, labels)
    monkeypatch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
    true = checked_run.reference_separator(ds)
    forged = Separator(**{**true.__dict__, "bound": true.bound + 1,
                          "bound_lower": true.bound_lower + 1})
    assert forged.tightest_updates == true.tightest_updates + 1
    with pytest.raises(kernel.ProofViolation, match="max-margin integer bound"):
        checked_run.prepare_monitor(ds, pla.RunOptions(), separator=forged)


def test_a_lying_near_max_margin_proposal_never_gives_a_wrong_bound(monkeypatch):
    """The checked run takes only w and α from the floats: a proposal whose w does not
    separate, whose α is 0, or whose bracket misses the integer falls back to the exact w*;
    a w other than w*'s direction is used only with a dual bound that pins its integer."""
    from verify.search import certificates as search

    rows, labels = separable_data(60, 3, "1/50", seed=3)
    ds = pla.Dataset.from_rows(rows, labels)
    monkeypatch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
    exact = floor(_exact_bound(ds))
    honest_w, honest_alpha = search.near_max_margin_proposal(ds)
    for w, alpha in [([-v for v in honest_w], honest_alpha),           # does not separate
                     (honest_w, {0: Fraction(0)}), (honest_w, {}),       # bounds nothing
                     (honest_w, {0: Fraction(1)}),                       # a loose dual bound
                     ((honest_w[0] + max(map(abs, honest_w)),) + honest_w[1:],
                      honest_alpha)]:                                  # a worse w
        monkeypatch.setattr(search, "near_max_margin_proposal", lambda dataset: (w, alpha))
        monitor = checked_run.prepare_monitor(ds, pla.RunOptions())
        assert monitor.bound_updates == exact and monitor.rho == 1
        assert monitor.wf_kind == "max-margin"


@pytest.mark.parametrize("n, d, margin, gram_succeeds", [
    (150, 40, "1/5", True), (200, 60, "1/10", True), (60, 3, "1/50", False),
    (40, 8, "1/50", False),
])
def test_the_gram_working_set_path_gives_a_correct_bracket(monkeypatch, n, d, margin,
                                                           gram_succeeds):
    """The Gram-form working sets (used from 200 coordinates on) on smaller data: where they
    converge, and where they stall and quadprog takes over, the bracket holds the exact bound."""
    from operator import neg

    from verify.search import certificates as search

    monkeypatch.setattr(search, "GRAM_WORKING_SET_MIN_DIM", 1)
    rows, labels = separable_data(n, d, margin, seed=6)
    ds = pla.Dataset.from_rows(rows, labels)
    Z = [row if y > 0 else tuple(map(neg, row)) for y, row in zip(ds.labels, ds.rows)]
    assert (search._working_set_gram(search._float_matrix(Z)) is not None) == gram_succeeds
    near = near_max_margin(ds)
    exact = _exact_bound(ds)
    assert near is not None and near.bound_lower <= exact <= near.bound
    assert near.bound - near.bound_lower < exact * Fraction(1, 10**6)
