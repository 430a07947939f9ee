"""The kernel's certificate checks take the data as a numpy int64 matrix as well as a tuple of
tuples (issue 29, part 3): the same results, the same refusals with the same messages
(hypothesis, on generated data with entries up to the bound), and every matrix that is not
exactly what the bound of the int64 products rests on is refused with ``CertificateError``:
an ndarray subclass, a view that is not C-contiguous, another dtype (objects, int32, uint64,
float, big-endian int64), other shapes, an entry at 2³¹ or −2³¹ (or −2⁶³, whose ``abs`` wraps).
A matrix changed after a check is checked afresh: the kernel works on its own copy.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pla
import verify.kernel.certificates as C
from verify.checks.checked_run import checked_run
from verify.checks.monitor import Monitor
from verify.kernel import CertificateError
from verify.search.certificates import kernel_rows, near_max_margin

BOUND = 2**31
entries = st.one_of(st.integers(-4, 4), st.sampled_from([BOUND - 1, -(BOUND - 1), 2**20]))
numbers = st.one_of(st.integers(-(10**30), 10**30), st.builds(
    Fraction, st.integers(-(2**70), 2**70), st.sampled_from([1, 3, 2**40, 2**63 + 1])))


@st.composite
def data(draw):
    n = draw(st.integers(1, 6))
    dim = draw(st.integers(1, 4))
    rows = tuple(tuple(draw(st.lists(entries, min_size=dim, max_size=dim))) for _ in range(n))
    labels = tuple(draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n)))
    return rows, labels, dim


def outcome(check, *args):
    """What a check returns, or the message and row of its refusal."""
    try:
        return "ok", check(*args)
    except CertificateError as exc:
        return "refused", str(exc), exc.index


@settings(max_examples=150, deadline=None)
@given(data(), st.data())
def test_every_check_gives_the_same_result_on_the_matrix_as_on_the_tuples(case, draw):
    rows, labels, dim = case
    matrix = np.array(rows, dtype=np.int64)
    scale = draw.draw(st.sampled_from([1, 7]))
    w = draw.draw(st.lists(numbers, min_size=dim, max_size=dim))
    alpha = draw.draw(st.lists(st.one_of(st.just(0), numbers), min_size=len(rows),
                               max_size=len(rows)))
    zero = draw.draw(st.sampled_from(C.ZERO_RULES))
    V = [int(v) for v in w]
    for check, args in [
        (C.check_separator, (scale, labels, w)),
        (C.check_max_margin_separator, (scale, labels, w, alpha)),
        (C.check_dual_bound, (scale, labels, alpha)),
        (C.check_gordan, (scale, labels, alpha)),
        (C.count_mistakes, (scale, labels, w, zero)),
        (C.squared_radius, (scale,)),
        (C.squared_norms, ()),
        (C.row_products, (V,)),
    ]:
        assert outcome(check, matrix, *args) == outcome(check, rows, *args), check.__name__


@settings(max_examples=60, deadline=None)
@given(data(), st.lists(st.sampled_from([1, -1, 0, 2, True]), min_size=1, max_size=7))
def test_bad_labels_are_refused_alike(case, labels):
    rows, _, _ = case
    w = [1] * len(rows[0])
    assert outcome(C.check_separator, np.array(rows), 1, tuple(labels), w) == \
        outcome(C.check_separator, rows, 1, tuple(labels), w)


def test_huge_multipliers_take_the_flint_product_from_the_matrix_too():
    rows = tuple((1, (-1) ** n * (n % 5), BOUND - 1 - n) for n in range(300))
    labels = tuple((-1) ** n for n in range(300))
    alpha = [Fraction(2**300 + n, 3) for n in range(300)]
    assert C.check_dual_bound(np.array(rows), 1, labels, alpha) == \
        C.check_dual_bound(rows, 1, labels, alpha)


ROWS = np.array([[1, 2, 3], [1, -1, 0], [1, 5, -2]], dtype=np.int64)
LABELS = (1, -1, 1)


class Lying(np.ndarray):
    def tolist(self):
        return [[0, 0, 0]] * 3


@pytest.mark.parametrize("matrix, message", [
    (ROWS.view(Lying), "Lying, not a numpy ndarray itself"),
    (ROWS.view(np.matrix), "matrix, not a numpy ndarray itself"),
    (np.ma.masked_array(ROWS), "MaskedArray, not a numpy ndarray itself"),
    (np.asfortranarray(ROWS), "not C-contiguous"),
    (np.array([[1, 2, 3, 9]] * 3)[:, :3], "not C-contiguous"),
    (ROWS[::-1], "not C-contiguous"),
    (ROWS.astype(object), "dtype object, not int64"),
    (ROWS.astype(np.int32), "dtype int32, not int64"),
    (ROWS.astype(np.uint64), "dtype uint64, not int64"),
    (ROWS.astype(np.float64), "dtype float64, not int64"),
    (ROWS.astype(">i8"), "not int64"),
    (ROWS.astype(bool), "dtype bool, not int64"),
    (ROWS[0], "shape (3,), not rows by columns"),
    (ROWS[None], "shape (1, 3, 3), not rows by columns"),
    (np.zeros((3, 0), dtype=np.int64), "not rows by columns"),
    (np.zeros((0, 3), dtype=np.int64), "not rows by columns"),
])
def test_a_matrix_the_bound_does_not_cover_is_refused(matrix, message):
    for check, args in [(C.check_separator, (1, LABELS, [0, 1, 0])),
                        (C.check_dual_bound, (1, LABELS, [1, 1, 1])),
                        (C.count_mistakes, (1, LABELS, [0, 1, 0])),
                        (C.squared_norms, ()), (C.squared_radius, (1,)),
                        (C.row_products, ([1, 1, 1],))]:
        with pytest.raises(CertificateError, match=message.replace("(", r"\(").replace(
                ")", r"\)")):
            check(matrix, *args)


@pytest.mark.parametrize("entry, accepted", [
    (BOUND - 1, True), (-(BOUND - 1), True), (BOUND, False), (-BOUND, False),
    (2**62, False), (-(2**63), False), (2**63 - 1, False)])
def test_entries_at_the_bound(entry, accepted):
    matrix = ROWS.copy()
    matrix[2, 1] = entry
    reference = C.squared_norms(tuple(map(tuple, matrix.tolist())))
    if accepted:
        assert C.squared_norms(matrix) == reference
        return
    with pytest.raises(CertificateError, match="row 2 of the data matrix has an entry of "
                                               r"magnitude >= 2\*\*31") as refused:
        C.check_separator(matrix, 1, LABELS, [0, 1, 0])
    assert refused.value.index == 2


def test_a_matrix_changed_after_a_check_is_checked_afresh():
    matrix = np.array([[1, 2, 3], [1, -1, -1], [1, 5, -2]])
    w = [0, 0, 1]
    labels = (1, -1, -1)
    assert C.check_separator(matrix, 1, labels, w).rho == 1
    matrix[1, 2] = 1                                  # now row 1 is on the wrong side
    with pytest.raises(CertificateError, match="row 1: y w.x = -1 <= 0"):
        C.check_separator(matrix, 1, labels, w)
    assert C.squared_norms(matrix) == [14, 3, 30]
    matrix[0, 0] = 2**40                               # past the bound: refused, not wrapped
    with pytest.raises(CertificateError, match="row 0 of the data matrix"):
        C.squared_norms(matrix)


def test_the_kernel_keeps_its_own_read_only_copy():
    matrix = ROWS.copy()
    C.check_separator(matrix, 1, LABELS, [0, 1, 0])
    kept = C._LAST_INT64[0][0]
    assert kept is not matrix and not kept.flags.writeable
    assert not np.shares_memory(kept, matrix)


# --- the checked run passes the data set's matrix only when it is its only copy ----------------
def file_dataset(rows, labels):
    return pla.Dataset.from_int64_matrix(np.array(rows, dtype=np.int64), 1,
                                         np.array(labels), bias=False)


def separable(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(-50, 51, size=(n, d))
    y = np.where(X @ rng.integers(-3, 4, size=d) + 1 > 0, 1, -1)
    return np.hstack([np.ones((n, 1), dtype=np.int64), X]), y


def test_a_checked_run_of_a_file_never_builds_the_tuples_and_reports_the_same():
    X, y = separable(400, 60, 5)          # more than EXACT_WF_ENTRIES: a near-max-margin w_f
    ds = file_dataset(X, y)
    assert type(kernel_rows(ds)) is np.ndarray
    checked = checked_run(ds)
    assert "rows" not in ds.__dict__ and checked.report.wf_kind.startswith("near-max-margin")
    reference = checked_run(pla.Dataset.from_integers(X.tolist(), 1, y.tolist(), bias=False))
    assert checked.to_json() == reference.to_json()


def test_the_tuples_are_read_once_they_exist_or_when_the_matrix_is_past_the_bound():
    ds = file_dataset([[1, 2], [1, -1]], [1, -1])
    ds.rows
    assert type(kernel_rows(ds)) is tuple
    big = file_dataset([[1, 2**40], [1, -1]], [1, -1])
    assert type(kernel_rows(big)) is tuple


def test_a_poisoned_matrix_behind_built_tuples_is_caught():
    """Once the tuples exist, the checks read them: a matrix that disagrees with them (the
    fast engine and the monitor's carrier run on it) cannot give a clean report."""
    ds = file_dataset([[1, 3, 3], [1, 4, 3], [1, 1, 1]], [1, 1, -1])
    ds.rows
    bad = ds.int64_rows.copy()
    bad[2] = [1, 2, 2]
    bad.setflags(write=False)
    ds.__dict__["int64_rows"] = bad
    with pytest.raises(C.KernelError):
        checked_run(ds, order="first")


def test_the_monitor_reads_the_matrix_and_builds_the_tuples_only_past_the_int64_carrier():
    ds = file_dataset([[1, 3, 3], [1, 4, 3], [1, 1, 1]], [1, 1, -1])
    monitor = Monitor(ds, pla.RunOptions(order="first"), wf=[-3, 1, 1])
    monitor._int64_updates = 2                  # the rest of the run in Python integers
    report = monitor.finish(pla.run(ds, order="first", on_update=monitor.on_update))
    assert report.updates == 7 and "rows" in ds.__dict__


def test_near_max_margin_gives_the_same_certificate_from_the_matrix():
    X, y = separable(300, 40, 6)
    from_file = near_max_margin(file_dataset(X, y))
    reference = near_max_margin(pla.Dataset.from_integers(X.tolist(), 1, y.tolist(),
                                                          bias=False))
    assert from_file is not None and from_file == reference


class RowsLike:
    """Not a sequence of the kernel's: numpy would still make an int64 matrix of it."""

    def __len__(self):
        return 2

    def __getitem__(self, n):
        if n >= 2:
            raise IndexError(n)
        return (1, 2)


@pytest.mark.parametrize("rows", [RowsLike(), "ab", {0: (1, 2)}, iter([(1, 2)])])
def test_rows_that_are_neither_sequences_nor_an_int64_matrix_are_refused(rows):
    for check, args in [(C.squared_norms, ()), (C.squared_radius, (1,)),
                        (C.row_products, ([1, 1],)), (C.check_separator, (1, (1,), [1, 1]))]:
        with pytest.raises(CertificateError):
            check(rows, *args)


# --- the multipliers of one certificate are converted once (a tuple cannot change) -------------
@settings(max_examples=60, deadline=None)
@given(st.lists(numbers, min_size=1, max_size=6))
def test_a_tuple_converted_again_gives_the_same_integers(values):
    values = tuple(values)
    first = C._over_common_denominator(values, len(values), "alpha")
    assert C._LAST_COMMON[0][0] is values
    first[0].append("changed by the caller")                  # a fresh list every time
    again = C._over_common_denominator(values, len(values), "alpha")
    assert again == C._over_common_denominator(list(values), len(values), "alpha")
    assert again[0] == first[0][:-1]
    with pytest.raises(CertificateError, match=f"alpha has {len(values)} entries, expected"):
        C._over_common_denominator(values, len(values) + 1, "alpha")


def test_only_tuples_of_plain_numbers_are_remembered():
    class Int(int):
        pass

    C._LAST_COMMON.clear()
    for values in ([1, Fraction(1, 2)], (Int(1), Fraction(1, 2))):
        C._over_common_denominator(values, 2, "w")
        assert not C._LAST_COMMON
