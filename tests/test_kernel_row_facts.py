"""Attacks on the kernel entry points of the one-pass checked run (issue 29, part 3):
``verify.kernel.row_facts.row_facts`` (‖rowₙ‖² and yₙ F·rowₙ of every row from one checked copy
of the data, whole int64 arrays where a bound proves them exact) and sparse multipliers
``{row: αₙ}`` for ``check_dual_bound`` (``sparse_multipliers``).

Every result is compared with plain Python integers on adversarial data (entries and F near
2³¹, 2⁶² and 2⁶³, all-zero rows, huge F that must not reach int64), every malformed input is
refused with a CertificateError, and the sparse dual bound is the dense one.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import verify.kernel.certificates as C
import verify.kernel.products as products
from verify.kernel.row_facts import row_facts, sparse_multipliers

EDGES = [0, 1, -1, 2**31 - 1, -(2**31) + 1, 2**31, 2**62 - 1, -(2**62), 2**63, -(2**200)]
entries = st.one_of(st.integers(-5, 5), st.sampled_from(EDGES))
small = st.one_of(st.integers(-9, 9), st.sampled_from([2**31 - 1, -(2**31) + 1]))
F_entries = st.one_of(st.integers(-9, 9), st.sampled_from(
    [2**30, 2**31, 2**62 // 3, 2**62 - 1, -(2**62), 2**63, -(2**63), 2**100]))


class Int(int):
    pass


class Frac(Fraction):
    pass


def reference(rows, labels, F):
    norms = [sum(v * v for v in row) for row in rows]
    margins = None if F is None else [y * sum(f * v for f, v in zip(F, row))
                                      for row, y in zip(rows, labels)]
    return norms, margins


def check_against_reference(facts, rows, labels, F):
    norms, margins = reference(rows, labels, F)
    assert [int(v) for v in facts.norms] == norms and facts.largest_norm == max(norms)
    if F is None:
        assert facts.margins is None and facts.smallest_margin is None
        return
    assert [int(v) for v in facts.margins] == margins
    assert facts.smallest_margin == min(margins) and facts.argmin == margins.index(min(margins))
    for values in (facts.norms, facts.margins):      # kernel-owned: read-only or a tuple
        assert type(values) is tuple or (type(values) is np.ndarray and
                                          not values.flags.writeable)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 3).flatmap(lambda dim: st.tuples(
    st.lists(st.tuples(*[entries] * dim), min_size=1, max_size=5),
    st.one_of(st.none(), st.lists(F_entries, min_size=dim, max_size=dim)))),
    st.lists(st.sampled_from([1, -1]), min_size=5, max_size=5))
def test_row_facts_of_rows_of_ints_are_python_integers(case, signs):
    rows, F = case
    rows, labels = tuple(rows), tuple(signs[:len(rows)])
    check_against_reference(row_facts(rows, labels, F, with_norms=True), rows, labels, F)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 3).flatmap(lambda dim: st.tuples(
    st.lists(st.tuples(*[small] * dim), min_size=1, max_size=5),
    st.lists(F_entries, min_size=dim, max_size=dim))),
    st.lists(st.sampled_from([1, -1]), min_size=5, max_size=5), st.booleans())
def test_row_facts_of_an_int64_matrix_are_python_integers(case, signs, as_list):
    rows, F = case
    labels = tuple(signs[:len(rows)])
    matrix = np.array(rows, dtype=np.int64)
    given_labels = list(labels) if as_list else labels
    facts = row_facts(matrix, given_labels, F, with_norms=True)
    check_against_reference(facts, rows, labels, F)
    matrix[0, 0] = 7 if matrix[0, 0] != 7 else 8            # the caller changes its data
    if as_list:                                             # (a list of labels in place):
        given_labels[0] = -given_labels[0]
    check_against_reference(facts, rows, labels, F)         # the kernel's copy does not move,
    again = row_facts(matrix, given_labels, F, with_norms=True)     # nor is it remembered
    check_against_reference(again, matrix.tolist(), given_labels, F)


def test_the_int64_bound_counts_the_sum_of_F_not_its_largest_entry():
    """Σ|Fᵢ|·max|entry| just past 2⁶²: each product fits, their sum would wrap."""
    rows = ((2**31 - 1,) * 4,)
    F = [2**31] * 4                                 # each term 2⁶² − 2³¹, the sum ≈ 2⁶⁴
    facts = row_facts(rows, (1,), F)
    assert facts.margins == (4 * (2**31 - 1) * 2**31,)
    facts = row_facts(np.array(rows, dtype=np.int64), (-1,), F)
    assert [int(v) for v in facts.margins] == [-4 * (2**31 - 1) * 2**31]


def test_an_all_zero_matrix_with_a_huge_F_stays_in_python_integers():
    facts = row_facts(np.zeros((2, 2), dtype=np.int64), (1, -1), [2**63, -(2**70)])
    assert facts.margins == (0, 0) and facts.smallest_margin == 0 and facts.argmin == 0


@pytest.mark.parametrize("F, message", [
    ([1.5, 0], "F must be a tuple or list of 2 ints"),
    ([True, 0], "F must be a tuple or list of 2 ints"),
    ([Int(1), 0], "F must be a tuple or list of 2 ints"),
    ([np.int64(1), 0], "F must be a tuple or list of 2 ints"),
    ([Fraction(1), 0], "F must be a tuple or list of 2 ints"),
    ([1], "F must be a tuple or list of 2 ints"),
    ([1, 2, 3], "F must be a tuple or list of 2 ints"),
    (np.array([1, 2]), "F must be a tuple or list of 2 ints"),
    ((v for v in [1, 2]), "F must be a tuple or list of 2 ints"),
])
def test_row_facts_refuses_a_vector_that_is_not_ints(F, message):
    with pytest.raises(C.CertificateError, match=message):
        row_facts(((1, 2), (3, 4)), (1, -1), F)


@pytest.mark.parametrize("labels", [
    np.array([1, -1]), (1, 2), (1, 0), (1, True), (1, 1.0), (1, Int(-1)), (1, np.int64(-1)),
    (1, Fraction(-1)), [1], (1, -1, 1), "+-", {0: 1, 1: -1},
])
def test_row_facts_refuses_labels_that_are_not_plus_minus_one(labels):
    for rows in (((1, 2), (3, 4)), np.array([[1, 2], [3, 4]])):
        with pytest.raises(C.CertificateError):
            row_facts(rows, labels, [1, 1])


@pytest.mark.parametrize("rows", [
    ((1, 2), (3,)), ((1, 2), (3, 4.0)), ((1, True), (3, 4)), ((1, Int(2)), (3, 4)), (),
    np.array([[1, 2], [3, 2**31]]), np.array([[1.0, 2.0], [3.0, 4.0]]),
    np.array([[1, 2, 3, 4]]).reshape(2, 2)[:, :1], np.array([[1, 2], [3, 4]], dtype=np.int32),
])
def test_row_facts_refuses_rows_that_are_not_the_data(rows):
    for labels in ((1, -1), [1, -1]):
        with pytest.raises(C.CertificateError):
            row_facts(rows, labels, [1, 1])


# --- sparse multipliers {row: alpha} ------------------------------------------------------------
TRIANGLE = ((1, 3, 3), (1, 4, 3), (1, 1, 1))
LABELS = (1, 1, -1)


@pytest.mark.parametrize("alpha, message", [
    ({-1: 1}, "alpha: row -1 (int) is not an int in [0, 3)"),
    ({3: 1}, "alpha: row 3 (int) is not an int in [0, 3)"),
    ({2**70: 1}, "is not an int in [0, 3)"),
    ({True: 1}, "alpha: row True (bool) is not an int in [0, 3)"),
    ({1.0: 1}, "alpha: row 1.0 (float) is not an int in [0, 3)"),
    ({Int(1): 1}, "alpha: row 1 (Int) is not an int in [0, 3)"),
    ({np.int64(1): 1}, "(int64) is not an int in [0, 3)"),
    ({"1": 1}, "alpha: row '1' (str) is not an int in [0, 3)"),
    ({0: 0.5}, "the kernel accepts only ints and Fractions"),
    ({0: True}, "the kernel accepts only ints and Fractions"),
    ({0: "1"}, "the kernel accepts only ints and Fractions"),
    ({0: 1, 2: -1}, "alpha[2] = -1 < 0"),
    ({}, "alpha = 0 bounds nothing"),
    ({0: 0, 2: Fraction(0)}, "alpha = 0 bounds nothing"),
])
def test_the_sparse_dual_bound_refuses_bad_multipliers(alpha, message):
    for rows in (TRIANGLE, np.array(TRIANGLE, dtype=np.int64)):
        with pytest.raises(C.CertificateError) as error:
            C.check_dual_bound(rows, 1, LABELS, alpha)
        assert message in str(error.value)


def test_a_dict_that_lies_about_its_items_is_refused():
    class Lying(dict):
        def items(self):
            return [(0, 1), (0, 1), (1, 1)]          # a repeated row

        def keys(self):
            return [0, 0, 1]

        def __iter__(self):
            return iter([0, 0, 1])

    with pytest.raises(C.CertificateError, match="is a Lying, not a dict"):
        C.check_dual_bound(TRIANGLE, 1, LABELS, Lying({0: 1, 1: 1}))
    with pytest.raises(C.CertificateError, match="not a dict"):
        sparse_multipliers([(0, 1), (0, 1)], 3, "alpha")


def test_a_lying_fraction_value_is_rebuilt_of_plain_ints():
    class Lying(Fraction):
        def __lt__(self, other):
            return False

        def __ge__(self, other):
            return True

    pairs, E = sparse_multipliers({1: Lying(-1, 2)}, 3, "alpha")
    assert pairs == [(1, -1)] and E == 2 and all(type(v) is int for p in pairs for v in p)
    with pytest.raises(C.CertificateError, match=r"alpha\[1\] = -1/2 < 0"):
        C.check_dual_bound(TRIANGLE, 1, LABELS, {1: Lying(-1, 2)})


def test_a_gordan_combination_bounds_nothing_sparse_too():
    xor = ((0, 0), (1, 1), (0, 1), (1, 0))
    with pytest.raises(C.CertificateError, match="bounds nothing"):
        C.check_dual_bound(xor, 1, (1, 1, -1, -1), {1: 1, 2: 1, 3: 1})


alphas = st.dictionaries(st.integers(0, 4), st.one_of(
    st.integers(0, 9), st.sampled_from([2**63, 10**30]),
    st.builds(Fraction, st.integers(0, 9), st.integers(1, 7))), max_size=5)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 3).flatmap(lambda dim: st.lists(st.tuples(*[small] * dim), min_size=5,
                                                      max_size=5)),
       st.lists(st.sampled_from([1, -1]), min_size=5, max_size=5), alphas,
       st.sampled_from([1, 3]), st.booleans(), st.booleans())
def test_the_sparse_dual_bound_is_the_dense_one(rows, signs, alpha, scale, matrix, large):
    """Whatever the rows (at the margin or not), {row: αₙ} and the dense list give the same
    verdict: the same bound or the same refusal; ``large``: a support taken as too large for
    the Python sum (the matrix product of the dense path)."""
    dense = [alpha.get(n, 0) for n in range(5)]
    data = np.array(rows, dtype=np.int64) if matrix else tuple(rows)

    def outcome(values):
        try:
            return "ok", C.check_dual_bound(data, scale, tuple(signs), values)
        except C.CertificateError as error:
            return "refused", str(error), error.index

    with pytest.MonkeyPatch.context() as patch:
        if large:
            patch.setattr(products, "_SUPPORT_PRODUCTS", 0)
        assert outcome(alpha) == outcome(dense)
