"""Attacks on the kernel's whole-array facts and on the one-pass set-up (issue 29, part 3).

``verify.kernel.row_facts`` computes ‖rowₙ‖² and yₙ F·rowₙ in numpy int64 when a bound proves
them exact, ``count_mistakes`` counts on those arrays, the monitor scales int64 margins by L
(``_scaled_margins``) and the near-max-margin set-up of ``prepare_monitor`` takes w and α from
the floats.  The attacks: values whose true result lies at and beyond 2⁶², 2⁶³ and 2⁶⁴ (an int64
that wrapped would change them, or flip a sign), inputs changed after a check (memo poisoning),
malformed multipliers, and a proposer that lies about w and α (one of its proposals, a w of
the wrong length or with a nan, escaped the set-up as a ValueError when the attack was written;
it now falls back to the exact w*).
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from math import floor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pla
import verify.kernel.certificates as C
from tests.strategies import separable_datasets
from verify.checks import checked_run
from verify.checks.monitor import Monitor, _scaled_margins
from verify.kernel.row_facts import row_facts, sparse_multipliers
from verify.search import certificates as search

B = 2**31 - 1                                   # the largest |entry| an int64 matrix may hold


def python_margins(rows, labels, F):
    return [y * sum(f * v for f, v in zip(F, row)) for row, y in zip(rows, labels)]


def reference_count(margins, labels, zero):
    """Mistakes by the zero rule, from exact margins yₙ sₙ."""
    at_zero = [y for m, y in zip(margins, labels) if m == 0]
    return sum(m < 0 for m in margins) + {"mistake": len(at_zero), "positive": at_zero.count(-1),
                                          "negative": at_zero.count(1), "correct": 0}[zero]


def split(total, parts):
    """``parts`` positive ints summing to ``total``."""
    q, r = divmod(total, parts)
    return [q + (1 if i < r else 0) for i in range(parts)]


# --- int64 bounds: the true value at and beyond 2^62, 2^63, 2^64 --------------------------------
@settings(max_examples=60, deadline=None)
@given(st.sampled_from([61, 62, 63, 64, 65]), st.integers(-2, 2), st.integers(1, 4),
       st.sampled_from([B, 2**30, 3, 1]), st.booleans(), st.booleans())
def test_margins_at_the_int64_bound_are_exact(bits, offset, dim, entry, matrix, negative):
    """One row of ``entry``s and F of the same sign summing to about 2^bits / entry: the margin
    is Σ|Fᵢ|·entry itself, the largest value the bound allows for, on both sides of it."""
    total = max(dim, (2**bits + offset) // entry)
    F = split(total, dim)
    if negative:
        F = [-f for f in F]
    rows = ((entry,) * dim, (1,) + (0,) * (dim - 1))
    labels = (1, -1)
    data = np.array(rows, dtype=np.int64) if matrix else rows
    facts = row_facts(data, labels, F, with_norms=True)
    expected = python_margins(rows, labels, F)
    assert [int(v) for v in facts.margins] == expected
    assert facts.smallest_margin == min(expected)
    assert [int(v) for v in facts.norms] == [dim * entry * entry, 1]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.sampled_from([B, 2**31 - 2, 2**30 + 1, 2**30]), st.booleans())
def test_norms_at_the_int64_bound_are_exact(dim, entry, matrix):
    """dim·entry² runs from below 2⁶² to beyond 2⁶⁴ (a wrapped int64 sum would be smaller)."""
    rows = ((entry,) * dim, (-entry,) + (0,) * (dim - 1))
    data = np.array(rows, dtype=np.int64) if matrix else rows
    facts = row_facts(data, (1, 1), with_norms=True)
    assert [int(v) for v in facts.norms] == [dim * entry * entry, entry * entry]
    assert facts.largest_norm == dim * entry * entry


@pytest.mark.parametrize("zero", C.ZERO_RULES)
@pytest.mark.parametrize("excess", [-1, 0, 1, 2**40])
def test_a_score_just_past_two_to_the_63_is_not_a_mistake(zero, excess):
    """y W·row = 2⁶³ + excess (true sign +, an int64 wrap would make it negative) and one row
    at exactly 0: the count is the zero rule's alone."""
    F = split(2**63 + excess, 4)                 # ~2^61 each: int64 entries, Σ|F| > 2^62
    rows = ((1, 1, 1, 1), (1, -1, 1, -1), (0, 0, 0, 0))
    labels = (1, 1, -1)
    reference = python_margins(rows, labels, F)
    assert reference[0] >= 2**63 - 1 and reference[2] == 0
    expected = reference_count(reference, labels, zero)
    for data in (rows, np.array(rows, dtype=np.int64)):
        assert C.count_mistakes(data, 1, labels, F, zero) == expected


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(-(2**62), 2**62), min_size=1, max_size=4),
       st.one_of(st.integers(1, 5), st.sampled_from([2, 3, 2**31, 2**61, 2**62, 2**62 + 1,
                                                     2**63, 2**70])))
def test_scaled_margins_are_exact_whatever_the_scale(margins, L):
    array = np.array(margins, dtype=np.int64)
    array.setflags(write=False)
    scaled = _scaled_margins(array, L)
    assert [int(v) for v in scaled] == [m * L for m in margins]
    assert type(scaled) is tuple or not scaled.flags.writeable


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([1, 2**20, 2**31, 2**31 + 5, 2**40]), st.sampled_from([2, 3, 10**6]),
       st.sampled_from([1, 3]))
def test_a_unit_margin_monitor_at_the_int64_bound_is_the_monitor_of_w_over_rho(K, L, eta):
    """Margins K·B + 1 near 2⁶² (int64 in the kernel) times L (past 2⁶³: the tuple path of
    ``_scaled_margins``): the same constants and report as the monitor of w/ρ."""
    matrix = np.array([[B, 1], [-B, -1], [B - 1, 1]], dtype=np.int64)
    ds = pla.Dataset.from_int64_matrix(matrix, L, np.array([1, -1, 1]), bias=False)
    options = pla.RunOptions(eta=eta, max_updates=10)
    w = (K, 1)
    scaled = Monitor(ds, options, w, unit_margin=True)
    rho = min(y * sum(a * b for a, b in zip(w, x)) for x, y in zip(ds.X, ds.labels))
    plain = Monitor(ds, options, tuple(Fraction(v) / rho for v in w))
    assert (scaled.wf, scaled.rho, scaled.norm2, scaled.R2) == \
        (plain.wf, plain.rho, plain.norm2, plain.R2)
    result = pla.run(ds, options=options, keep_steps=False, on_update=scaled.on_update_deferred)
    pla.run(ds, options=options, keep_steps=False, on_update=plain.on_update)
    assert scaled.finish(result) == plain.finish(result)


# --- inputs changed after a check: nothing the kernel remembers may follow them ------------------
def test_labels_and_rows_changed_after_a_check_give_fresh_facts():
    rows = [[1, 2], [3, -4], [5, 6]]
    for kind in ("list", "array"):
        labels = [1, -1, 1]
        data = [list(r) for r in rows] if kind == "list" else np.array(rows, dtype=np.int64)
        first = row_facts(data, labels, [1, 1], with_norms=True)
        kept = [int(v) for v in first.margins]
        labels[1] = 1                       # the caller's objects change after the check
        data[2][0] = -5
        second = row_facts(data, labels, [1, 1], with_norms=True)
        now_rows = [list(map(int, r)) for r in data]
        assert [int(v) for v in first.margins] == kept               # (the first facts stay)
        assert [int(v) for v in second.margins] == python_margins(now_rows, [1, 1, 1], [1, 1])
        assert C.count_mistakes(data, 1, labels, [1, 1]) == \
            sum(m <= 0 for m in python_margins(now_rows, [1, 1, 1], [1, 1]))


def test_a_returned_array_made_writeable_again_changes_no_later_result():
    """The facts are read-only arrays the caller owns: set writeable and changed, they must
    not be what the kernel hands out next for the same (immutable) data."""
    rows = ((1, 2), (3, -4))
    labels = (1, -1)
    facts = row_facts(rows, labels, [1, 1], with_norms=True)
    for values in (facts.norms, facts.margins):
        if type(values) is not tuple:
            values.setflags(write=True)
            values[:] = 10**6
    again = row_facts(rows, labels, [1, 1], with_norms=True)
    assert [int(v) for v in again.norms] == [5, 25]
    assert [int(v) for v in again.margins] == [3, 1]
    assert C.count_mistakes(rows, 1, labels, [1, 1]) == 0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.sampled_from([1, -1]), min_size=3, max_size=3), min_size=2,
                max_size=5))
def test_fresh_label_tuples_never_reuse_another_tuples_vector(label_lists):
    """Many tuples in a row (each freed after use, so that an id could come back): the
    remembered label vector of one is never used for another."""
    rows = ((1, 2), (3, -4), (0, 7))
    for values in label_lists:
        labels = tuple(values)             # a new tuple each time
        facts = row_facts(rows, labels, [2, 1])
        assert [int(v) for v in facts.margins] == python_margins(rows, labels, [2, 1])
        assert C.count_mistakes(rows, 1, labels, [2, 1]) == \
            sum(m <= 0 for m in python_margins(rows, labels, [2, 1]))
        del labels, facts


@pytest.mark.parametrize("view", [
    lambda a: a, lambda a: a[::-1][::-1], lambda a: np.repeat(a, 2)[::2],
    lambda a: np.lib.stride_tricks.as_strided(a, shape=a.shape, strides=a.strides),
])
def test_numpy_label_vectors_and_their_views_are_refused(view):
    """(row_facts takes labels as the other checks do: a tuple or list of plain ±1)"""
    labels = view(np.array([1, -1, 1], dtype=np.int64))
    with pytest.raises(C.CertificateError):
        row_facts(((1, 2), (3, -4), (0, 7)), labels, [2, 1])


@pytest.mark.parametrize("labels", [
    np.array([1, 2**64 - 1, 1], dtype=np.uint64), np.array([1, -1, 1], dtype=np.int8),
    np.array([1, -1, 1], dtype=object), np.array([1, -1, 2**32 + 1]),
    np.array([1, -1, -(2**63)]), np.ma.array([1, -1, 1]), np.array([[1], [-1], [1]]),
    np.int64(1), [np.int64(1), -1, 1], (1, -1, np.True_),
])
def test_labels_of_other_types_or_values_are_refused(labels):
    with pytest.raises(C.CertificateError):
        row_facts(((1, 2), (3, -4), (0, 7)), labels, [2, 1])


@pytest.mark.parametrize("rows", [None, 5, (r for r in [(1, 2)])])
def test_rows_that_are_not_a_sequence_are_a_certificate_error(rows):
    """(a TypeError before issue29e 771957e: len(rows) was read before any check)"""
    with pytest.raises(C.CertificateError):
        row_facts(rows, (1,), [1, 1])


# --- sparse multipliers ----------------------------------------------------------------------
TRIANGLE = ((1, 3, 3), (1, 4, 3), (1, 1, 1))
LABELS = (1, 1, -1)


@pytest.mark.parametrize("alpha", [
    {0: float("nan")}, {0: float("inf")}, {0: Decimal(1)}, {0: complex(1, 0)},
    {0: np.int64(1)}, {0: np.float64(1.0)}, {0: None}, {0: [1]},
    {np.int64(0): 1, 2: 1}, {0: 1, -3: 1}, {(0,): 1},
])
def test_malformed_sparse_multipliers_are_refused(alpha):
    for rows in (TRIANGLE, np.array(TRIANGLE, dtype=np.int64)):
        with pytest.raises(C.CertificateError):
            C.check_dual_bound(rows, 1, LABELS, alpha)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.integers(0, 2), st.one_of(
    st.integers(0, 2**70), st.builds(Fraction, st.integers(0, 10**20), st.integers(1, 10**20))),
    min_size=1, max_size=3))
def test_no_sparse_multipliers_bound_beyond_the_max_margin(alpha):
    """Whatever the multipliers, a bound the kernel accepts is a lower bound of ‖w*‖²/ρ*²
    (Triangle: R²‖w*‖²/ρ*² = 117 with R² = 26, so ‖w*‖²/ρ*² = 9/2)."""
    try:
        bound = C.check_dual_bound(TRIANGLE, 1, LABELS, alpha)
    except C.CertificateError:
        return
    assert bound <= Fraction(9, 2)
    assert sparse_multipliers(alpha, 3, "a")[1] >= 1


# --- a lying proposer for the near-max-margin set-up ---------------------------------------------
def claimed_integer_bound(monitor):
    found = re.search(r"max-margin integer bound, (\d+)", monitor.wf_kind)
    return None if found is None else int(found.group(1))


proposals = st.tuples(
    st.lists(st.integers(-8, 8), min_size=4, max_size=4),            # w (bias first)
    st.one_of(
        st.dictionaries(st.integers(0, 7), st.one_of(st.integers(-2, 5),
                                                     st.fractions(0, 5, max_denominator=9)),
                        max_size=4),
        st.lists(st.integers(0, 3), min_size=8, max_size=8)))


@settings(max_examples=40, deadline=None)
@given(separable_datasets(max_n=8, max_d=3), proposals, st.sampled_from([1, Fraction(1, 3)]),
       st.sampled_from([None, 0, Fraction(1, 10**6), Fraction(1, 50)]), st.data())
def test_a_lying_proposer_never_changes_the_claimed_max_margin_bound(ds, proposal, stretch,
                                                                    near, data):
    """Any w and α the floats might propose (not separating, far from w*, α negative, of the
    wrong support or length, a list instead of a dict; or ``near``: w* and its multipliers
    moved by that much): either the near monitor's claimed "max-margin integer bound" is the
    true ⌊R²‖w*‖²/ρ*²⌋, or the set-up is the reference."""
    reference = search.certify(ds)
    w, alpha = proposal
    w = tuple(Fraction(v) * stretch for v in w[:ds.dim])
    if isinstance(alpha, dict):
        alpha = {n: a for n, a in alpha.items() if n < ds.n}
    if near is not None and reference.alpha is not None:
        w = tuple(a * stretch + near * b for a, b in zip(reference.w, w))
        alpha = {n: a * stretch + near * data.draw(st.integers(-1, 3))
                 for n, a in enumerate(reference.alpha)
                 if a or data.draw(st.booleans())}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
        patch.setattr(search, "near_max_margin_proposal", lambda dataset: (w, alpha))
        monitor = checked_run.prepare_monitor(ds, pla.RunOptions())
    claimed = claimed_integer_bound(monitor)
    if monitor.wf_kind.startswith("near-max-margin") and claimed is not None:
        assert reference.kind == "max-margin"
        assert claimed == floor(reference.bound) == floor(monitor.R2 * monitor.norm2)
    else:
        assert monitor.wf == tuple(reference.w) and monitor.bound == reference.bound


def test_an_honest_proposal_is_taken_so_the_lying_test_can_fail(monkeypatch):
    """(the property above must reach the near monitor: with w* and its multipliers it does)"""
    ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    star = search.certify(ds)
    alpha = {n: a for n, a in enumerate(star.alpha) if a} if star.alpha is not None else None
    assert alpha
    monkeypatch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
    monkeypatch.setattr(search, "near_max_margin_proposal", lambda dataset: (star.w, alpha))
    monitor = checked_run.prepare_monitor(ds, pla.RunOptions())
    assert monitor.wf_kind.startswith("near-max-margin") and claimed_integer_bound(monitor) == 117


@pytest.mark.parametrize("w", [(1, 1), (1.0, float("nan"), 0.0), (0.0, float("inf"), 1.0)])
def test_a_malformed_proposal_falls_back_to_the_reference(monkeypatch, w):
    ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    monkeypatch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
    monkeypatch.setattr(search, "near_max_margin_proposal", lambda dataset: (w, {0: 1, 2: 1}))
    monitor = checked_run.prepare_monitor(ds, pla.RunOptions())
    assert monitor.bound_updates == 117
