"""The internals of the kernel's certificate checks (``verify/kernel/certificates.py``).

The public checks are tested in ``test_kernel_certificates.py``; these tests hold the inner
functions to their own contracts, directly:

* ``_exact_number`` lets only plain ints and Fractions *of plain ints* into the kernel's
  arithmetic (a subclass could lie in a comparison);
* the data validation (``_check_data``) and ``row_products`` refuse what is not ±1 labels and
  rows of ints, and name the first faulty row;
* the int64 fast path (``_int64_products``, ``squared_norms``) gives exactly the integers of
  plain Python, at and around its bounds;
* the memos of the last data set (``_LAST_VALID``, ``_LAST_INT64``, ``_LAST_MATRIX``) are reused
  for the same immutable tuple of tuples and never give a stale answer for mutable data changed
  in place between two calls;
* ``MarginFacts`` is immutable and ``argmin`` is the *first* row attaining the minimum.
"""

from __future__ import annotations

import itertools
from dataclasses import FrozenInstanceError
from fractions import Fraction
from operator import mul

import pytest
from hypothesis import given, settings, strategies as st

from verify.kernel import certificates as C
from verify.kernel import data_checks
from verify.kernel.certificates import (CertificateError, MarginFacts, _check_data, _combination,
                                        _exact_number, _int64_products, _int64_rows, _products,
                                        _row_matrix, check_max_margin_separator, check_separator,
                                        count_mistakes, row_products, squared_norms,
                                        squared_radius)


def python_products(rows, V):
    return [sum(map(mul, row, V)) for row in rows]


def python_combination(coefficients, rows, dim):
    return [sum(c * row[i] for c, row in zip(coefficients, rows)) for i in range(dim)]


class Int(int):
    """An int subclass (it could override comparisons: the kernel must not keep it)."""


# --- MarginFacts ------------------------------------------------------------------------------
def test_margin_facts_are_immutable_and_hashable():
    """What a check established cannot be changed afterwards (the dataclass is frozen)."""
    facts = check_separator(((1, 2), (1, -1)), 1, (1, -1), [0, 1])
    assert facts == MarginFacts(Fraction(1), 1)
    with pytest.raises(FrozenInstanceError):
        facts.rho = Fraction(100)  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        facts.argmin = 0  # type: ignore[misc]
    assert hash(facts) == hash(MarginFacts(Fraction(1), 1))


# --- _exact_number ----------------------------------------------------------------------------
def test_a_plain_fraction_is_taken_as_it_is():
    """A Fraction of plain ints is immutable and plain: it is returned itself, unchanged."""
    value = Fraction(-3, 7)
    assert _exact_number(value, "w") is value


def test_ints_and_int_subclasses_become_fractions_of_plain_ints():
    for value in (0, -5, 2**100, Int(7)):
        result = _exact_number(value, "w")
        assert result == value and type(result) is Fraction
        assert type(result.numerator) is int and type(result.denominator) is int


def test_a_fraction_subclass_becomes_a_plain_fraction():
    """A Fraction subclass (even one of plain ints) is copied into a plain Fraction."""
    class Sub(Fraction):
        pass

    result = _exact_number(Sub(3, 4), "w")
    assert type(result) is Fraction and result == Fraction(3, 4)


@pytest.mark.parametrize("part", ["_numerator", "_denominator"])
def test_a_fraction_holding_an_int_subclass_is_rebuilt_of_plain_ints(part):
    """A plain Fraction whose numerator or denominator is an int subclass (set behind the
    constructor's back) must not reach the kernel's arithmetic as it is."""
    value = Fraction(3, 4)
    setattr(value, part, Int(getattr(value, part)))
    result = _exact_number(value, "w")
    assert result == Fraction(3, 4)
    assert type(result) is Fraction
    assert type(result.numerator) is int and type(result.denominator) is int


def _fraction_with(numerator, denominator):
    """A Fraction subclass instance that reports the given numerator and denominator."""
    class Lying(Fraction):
        @property
        def numerator(self):
            return numerator

        @property
        def denominator(self):
            return denominator

    return Lying(1, 2)


@pytest.mark.parametrize("numerator, denominator", [
    (1.5, 2), (1, 2.0), ("1", 2), (None, 2),      # not ints at all
    (True, 2), (1, True), (False, 3),             # bools are not numbers to the kernel
    (1, 0), (Int(1), 0),                          # no ratio
], ids=["float-num", "float-den", "str-num", "none-num", "bool-num", "bool-den", "false-num",
        "zero-den", "int-subclass-zero-den"])
def test_a_fraction_that_is_not_a_ratio_of_ints_is_refused(numerator, denominator):
    with pytest.raises(CertificateError, match="not a ratio of ints"):
        _exact_number(_fraction_with(numerator, denominator), "w[0]")


def test_a_fraction_subclass_reporting_int_subclass_parts_is_rebuilt():
    result = _exact_number(_fraction_with(Int(5), Int(3)), "w")
    assert result == Fraction(5, 3)
    assert type(result.numerator) is int and type(result.denominator) is int


@pytest.mark.parametrize("value", [True, False, 0.5, 1.0, "1", None, complex(1, 0)])
def test_non_numbers_are_refused(value):
    with pytest.raises(CertificateError, match="only ints and Fractions"):
        _exact_number(value, "w")


def test_a_lying_fraction_is_refused_by_the_public_checks():
    rows, labels = ((1, 2), (1, -1)), (1, -1)
    with pytest.raises(CertificateError, match="not a ratio of ints"):
        check_separator(rows, 1, labels, [0, _fraction_with(1.5, 1)])
    with pytest.raises(CertificateError, match="not a ratio of ints"):
        count_mistakes(rows, 1, labels, [_fraction_with(True, 1), 1])


# --- data validation --------------------------------------------------------------------------
@pytest.mark.parametrize("rows, labels, index", [
    (((1, 2), (3, 4)), (1, True), 1),             # a bool label
    (((1, 2), (3, 4)), (-1, 0), 1),               # a label other than ±1
    (((1, 2), (3, 4)), (2, 1), 0),
    (((1, 2), (3, 4)), (1, 1.0), 1),              # a float label equal to 1
    (((1, 2), (3, 4)), (1, Int(-1)), 1),          # an int subclass label
    (((1, 2), (3,)), (-1, 1), 1),                 # a short row after a -1 label
    (((1, 2), (3, 4, 5)), (-1, -1), 1),           # a long row
    (((1, 2), (3, 4.0)), (-1, -1), 1),            # a float entry
    (((1, 2), (3, True)), (-1, 1), 1),            # a bool entry
    (((1, 2), (Int(3), 4)), (-1, 1), 1),          # an int subclass entry
    (((1, Fraction(1)), (3, 4)), (-1, 1), 0),     # a Fraction entry
])
def test_bad_data_are_refused_at_the_first_faulty_row(rows, labels, index):
    for r, y in ((rows, labels), ([list(row) for row in rows], list(labels))):
        with pytest.raises(CertificateError) as caught:
            _check_data(r, 1, y)
        assert caught.value.index == index, str(caught.value)
        assert f"row {index}" in str(caught.value)


def test_the_label_minus_one_is_accepted_before_a_later_faulty_row():
    """Label -1 is as good as +1: the fault reported is the short row 2, not a label."""
    with pytest.raises(CertificateError, match="row 2 is not 2 ints") as caught:
        _check_data(((1, 2), (0, 1), (3,)), 1, (-1, -1, 1))
    assert caught.value.index == 2


def test_data_whose_two_looks_disagree_are_refused():
    """The fast check and the row-by-row search for the fault look at the entries twice; a row
    that shows a float only at the first look finds no faulty row in the second, and must still
    be refused (not accepted because no fault was found)."""
    class Flaky(tuple):
        looks = 0

        def __iter__(self):
            type(self).looks += 1
            return iter((1.5, 2)) if type(self).looks == 1 else super().__iter__()

    rows = ((1, 2), Flaky((3, 4)))
    with pytest.raises(CertificateError, match="row 1 is not 2 ints"):
        _check_data(rows, 1, (1, -1))


def test_a_row_of_ints_that_is_not_a_builtin_sequence_is_refused():
    """A tuple subclass can make its length, items and iteration disagree: even one holding
    good ints is refused (by the fast check; the row-by-row search finds no other fault)."""
    class Sub(tuple):
        pass

    with pytest.raises(CertificateError, match="not rows of ints with labels"):
        _check_data(((1, 2), Sub((3, 4))), 1, (1, -1))
    with pytest.raises(CertificateError, match="the data must be a tuple or list"):
        _check_data(Sub(((1, 2),)), 1, (1,))
    with pytest.raises(CertificateError, match="the data must be a tuple or list"):
        _check_data(((1, 2),), 1, Sub((1,)))


@pytest.mark.parametrize("rows, labels", [((), ()), (((1,),), ()), (((1,),), (1, -1))])
def test_counts_of_rows_and_labels_must_agree(rows, labels):
    with pytest.raises(CertificateError, match="rows and"):
        _check_data(rows, 1, labels)


@pytest.mark.parametrize("scale", [0, -1, True, 1.0, Fraction(1)])
def test_the_scale_must_be_a_positive_int(scale):
    with pytest.raises(CertificateError, match="scale"):
        _check_data(((1, 2),), scale, (1,))


# --- the validation memo (_LAST_VALID) ---------------------------------------------------------
def test_immutable_data_are_validated_once(monkeypatch):
    """The checks of one immutable data set (a tuple of tuples, a tuple of labels) validate it
    once: the second call with the same objects does not scan the entries again."""
    scans = []

    class CountingChain:
        @staticmethod
        def from_iterable(iterable):
            scans.append(1)
            return itertools.chain.from_iterable(iterable)

    monkeypatch.setattr(data_checks, "chain", CountingChain)
    rows = tuple((n, n + 1, -n) for n in range(5))
    labels = tuple(1 if n % 2 else -1 for n in range(5))
    assert _check_data(rows, 1, labels) == 3
    assert len(scans) == 1
    assert _check_data(rows, 7, labels) == 3
    assert len(scans) == 1
    # other objects (even equal ones) are validated again
    assert _check_data(tuple(list(rows)), 1, labels) == 3
    assert len(scans) == 2
    assert _check_data(rows, 1, tuple(list(labels))) == 3
    assert len(scans) == 3


@pytest.mark.parametrize("mutate", [
    lambda rows, labels: rows.__setitem__(0, (1, True)),      # a list of rows: a bad row
    lambda rows, labels: rows.__setitem__(1, (1, 2, 3)),      # a list of rows: a long row
], ids=["bool-entry", "long-row"])
def test_a_list_of_rows_changed_in_place_is_validated_again(mutate):
    rows, labels = [(1, 2), (3, 4)], (1, -1)
    assert _check_data(rows, 1, labels) == 2
    mutate(rows, labels)
    with pytest.raises(CertificateError):
        _check_data(rows, 1, labels)


def test_rows_that_are_lists_changed_in_place_are_validated_again():
    rows, labels = ([1, 2], [3, 4]), (1, -1)
    assert _check_data(rows, 1, labels) == 2
    rows[1][0] = 0.5
    with pytest.raises(CertificateError, match="row 1"):
        _check_data(rows, 1, labels)


def test_a_list_of_labels_changed_in_place_is_validated_again():
    rows, labels = ((1, 2), (3, 4)), [1, -1]
    assert _check_data(rows, 1, labels) == 2
    labels[0] = 2
    with pytest.raises(CertificateError, match="label of row 0"):
        _check_data(rows, 1, labels)
    labels[0] = True
    with pytest.raises(CertificateError, match="label of row 0"):
        count_mistakes(rows, 1, labels, [1, 0])


def test_public_checks_see_data_changed_in_place():
    """A check after an in-place change of list data answers for the new data."""
    rows, labels = [[1, 0], [0, 1]], [1, 1]
    assert count_mistakes(rows, 1, labels, [1, 1]) == 0
    rows[1][1] = -1
    assert count_mistakes(rows, 1, labels, [1, 1]) == 1
    labels[0] = -1
    assert count_mistakes(rows, 1, labels, [1, 1]) == 2
    rows[1] = (1, 0, 0)
    with pytest.raises(CertificateError, match="row 1"):
        count_mistakes(rows, 1, labels, [1, 1])


# --- row_products -----------------------------------------------------------------------------
@pytest.mark.parametrize("V", [[1, True], [Fraction(1), 2], [1.0, 2], [Int(1), 2], ["1", 2]],
                         ids=["bool", "fraction", "float", "int-subclass", "str"])
def test_row_products_refuses_a_vector_that_is_not_ints(V):
    for rows in (((1, 2), (3, 4)), [[1, 2], [3, 4]]):
        with pytest.raises(CertificateError, match="vector of 2 ints"):
            row_products(rows, V)


@pytest.mark.parametrize("rows", [((1, 2, 3), (4, 5, 6)), ((1, 2), (3,)), ((1,), (2,)),
                                  [[1, 2], [3, 4, 5]], ((2**40, 1, 1),)],
                         ids=["long", "ragged", "short", "list-ragged", "big-long"])
def test_row_products_refuses_rows_of_the_wrong_length(rows):
    with pytest.raises(CertificateError, match="vector of 2 ints"):
        row_products(rows, [1, 1])


@pytest.mark.parametrize("bad", [True, 1.5, 2.0, Fraction(2), Int(2)])
def test_row_products_refuses_rows_that_are_not_ints(bad):
    for rows in (((1, 2), (bad, 4)), [[bad, 2]], ((2**40, bad),)):
        with pytest.raises(CertificateError, match="integer rows"):
            row_products(rows, [1, 1])


def test_row_products_of_good_input():
    assert row_products(((1, 2), (3, -4)), iter([5, 1])) == [7, 11]
    assert row_products([[2**40, 1]], (3, -1)) == [3 * 2**40 - 1]
    assert row_products((), [1, 2]) == []


# --- the int64 fast path ----------------------------------------------------------------------
def test_the_fast_path_multiplies_by_the_zero_vector():
    """A zero vector (w = 0, where the PLA starts) is a product the fast path computes itself:
    one int64 product, exact, not a refusal."""
    rows = ((1, -2), (3, 2**31 - 1))
    assert _int64_products(rows, 2, [0, 0], transposed=False) == [0, 0]
    assert _int64_products(rows, 2, [0, 0], transposed=True) == [0, 0]
    assert _products(rows, [0, 0]) == [0, 0]


def test_the_fast_path_declines_an_empty_vector():
    """``_int64_products`` answers a list or None: with nothing to bound it declines."""
    assert _int64_products([(1, 2)], 2, [], transposed=False) is None
    assert _int64_products([(1, 2)], 2, [], transposed=True) is None


def test_the_int64_matrix_has_the_shape_of_the_data():
    """``_int64_rows`` gives a matrix only when the rows are ``len(rows)`` × ``dim`` ints."""
    matrix, biggest = _int64_rows([(1, -2), (3, 4)], 2)
    assert matrix.shape == (2, 2) and biggest == 4
    assert _int64_rows([(1, 2), (3, 4)], 3) == (None, 0)
    assert _int64_rows([(1, 2), (3, 4)], 1) == (None, 0)
    assert _int64_rows([((1, 2),), ((3, 4),)], 1) == (None, 0)      # entries that are vectors
    assert _int64_rows([(2**31, 0)], 2)[0] is None                 # past 31 bits
    assert _int64_rows([(-(2**31), 0)], 2)[0] is None
    assert _int64_rows([(-(2**63), 0)], 2)[0] is None               # |−2⁶³| wraps in np.abs
    assert _int64_rows([(2**64, 0)], 2) == (None, 0)                # not even int64
    assert _int64_rows([], 2) == (None, 0)
    assert _int64_rows([(), ()], 0) == (None, 0)
    matrix, biggest = _int64_rows([(2**31 - 1, -(2**31 - 1))], 2)
    assert matrix is not None and biggest == 2**31 - 1


def test_squared_norms_of_no_rows():
    assert squared_norms(()) == []
    assert squared_norms([]) == []


@pytest.mark.parametrize("entry", [0, 1, 2**15, 2**31 - 1, 2**31, 2**62, 2**63 - 1, 2**63,
                                   2**64])
def test_squared_norms_at_the_int64_bounds(entry):
    for rows in (((entry, -entry), (1, entry)), [[-entry] * 3], ((entry,),) * 4):
        assert squared_norms(rows) == [sum(v * v for v in row) for row in rows]


# entries around the 31-bit limit of the matrix and the 62/63-bit limit of the sums
_MATRIX_ENTRIES = st.sampled_from([0, 1, -1, 2**15, 2**30, 2**31 - 1, -(2**31 - 1), 2**31,
                                   -(2**31), 2**62, -(2**63), 2**63 - 1]) | \
    st.integers(-(2**31), 2**31)
_VECTOR_ENTRIES = st.one_of(
    st.integers(-(2**8), 2**8),
    st.integers(0, 400).map(lambda k: 2**k),
    st.integers(0, 400).map(lambda k: -(2**k)),
    st.integers(1, 400).map(lambda k: 2**k - 1),
    st.integers(1, 400).map(lambda k: 1 - 2**k),
    st.integers(-(2**400), 2**400),
)


@st.composite
def products_cases(draw):
    dim = draw(st.integers(1, 5))
    n = draw(st.integers(1, 5))
    rows = tuple(tuple(draw(st.lists(_MATRIX_ENTRIES, min_size=dim, max_size=dim)))
                 for _ in range(n))
    V = draw(st.lists(_VECTOR_ENTRIES, min_size=dim, max_size=dim))
    coefficients = draw(st.lists(_VECTOR_ENTRIES, min_size=n, max_size=n))
    return rows, V, coefficients


@settings(max_examples=60)
@given(products_cases())
def test_int64_products_equal_python_products(case):
    """Wherever the fast path answers, it answers the integers of plain Python (several limbs,
    negative entries, entries at the 31-bit limit); the public products always do."""
    rows, V, coefficients = case
    dim = len(V)
    expected = python_products(rows, V)
    combination = python_combination(coefficients, rows, dim)
    for data in (rows, [list(row) for row in rows]):
        fast = _int64_products(data, dim, V, transposed=False)
        assert fast is None or fast == expected
        fast = _int64_products(data, dim, coefficients, transposed=True)
        assert fast is None or fast == combination
        assert _products(data, V) == expected
        assert _combination(coefficients, data, dim) == combination
        assert squared_norms(data) == [sum(v * v for v in row) for row in rows]


@pytest.mark.parametrize("length", [1, 2, 3, 1000, 4096])
def test_int64_products_at_the_limb_limits(length):
    """Long rows of the largest int64-safe entries (few bits per limb) against vectors of
    1 to 7 limbs' worth of bits, negative and positive: exact or declined."""
    row = tuple((2**31 - 1) * (-1) ** i for i in range(length))
    rows = (row, tuple(reversed(row)), (0,) * length)
    bits = 62 - (length * (2**31 - 1)).bit_length()
    for limbs in range(1, 8):
        for top in (bits * limbs - 1, bits * limbs, bits * limbs + 1):
            V = [(2**top - 1) * (-1) ** (i // 2) for i in range(length)]
            expected = python_products(rows, V)
            fast = _int64_products(rows, length, V, transposed=False)
            assert fast is None or fast == expected
            assert _products(rows, V) == expected
            columns = tuple(zip(*rows))
            assert _combination(V, columns, 3) == expected


# --- the int64 and FLINT memos (_LAST_INT64, _LAST_MATRIX) --------------------------------------
def test_the_int64_matrix_of_immutable_data_is_reused():
    rows = tuple((n, -n, 1) for n in range(4))
    matrix, biggest = _int64_rows(rows, 3)
    assert matrix is not None and biggest == 3
    again, biggest_again = _int64_rows(rows, 3)
    assert again is matrix and biggest_again == 3
    # mutable data are never remembered
    listed = [list(row) for row in rows]
    assert _int64_rows(listed, 3)[0] is not _int64_rows(listed, 3)[0]


def test_the_flint_matrix_of_immutable_data_is_reused():
    rows = tuple((n * 2**40, -n, 1) for n in range(4))
    matrix = _row_matrix(rows, 3)
    assert _row_matrix(rows, 3) is matrix
    assert [int(v) for v in matrix.entries()] == [v for row in rows for v in row]
    listed = [list(row) for row in rows]
    assert _row_matrix(listed, 3) is not _row_matrix(listed, 3)
    as_tuple_of_lists = tuple(listed)
    assert _row_matrix(as_tuple_of_lists, 3) is not _row_matrix(as_tuple_of_lists, 3)


@pytest.mark.parametrize("big", [1, 2**40], ids=["int64", "flint"])
def test_a_list_of_rows_changed_in_place_is_not_answered_from_a_memo(big):
    rows = [(big, 1), (3, 4)]
    V = [1, 1]
    assert _products(rows, V) == [big + 1, 7]
    assert _combination([1, -1], rows, 2) == [big - 3, -3]
    rows[0] = (5 * big, 6)
    assert _products(rows, V) == [5 * big + 6, 7]
    assert _combination([1, -1], rows, 2) == [5 * big - 3, 2]
    assert squared_norms(rows) == [25 * big * big + 36, 25]


@pytest.mark.parametrize("big", [1, 2**40], ids=["int64", "flint"])
def test_rows_that_are_lists_changed_in_place_are_not_answered_from_a_memo(big):
    rows = ([big, 1], [3, 4])
    V = [1, 1]
    assert _products(rows, V) == [big + 1, 7]
    assert squared_norms(rows) == [big * big + 1, 25]
    rows[0][0] = 5 * big
    assert _products(rows, V) == [5 * big + 1, 7]
    assert _combination([1, -1], rows, 2) == [5 * big - 3, -3]
    assert squared_norms(rows) == [25 * big * big + 1, 25]


@pytest.mark.parametrize("big", [1, 2**40], ids=["int64", "flint"])
def test_flint_matrix_of_changed_list_data(big):
    """``_row_matrix`` itself never answers mutable rows from its memo."""
    for rows in ([(big, 1), (3, 4)], ([big, 1], [3, 4])):
        assert [int(v) for v in _row_matrix(rows, 2).entries()] == [big, 1, 3, 4]
        if isinstance(rows, list):
            rows[0] = (7, 1)
        else:
            rows[0][0] = 7
        assert [int(v) for v in _row_matrix(rows, 2).entries()] == [7, 1, 3, 4]


def test_a_check_after_a_change_in_place_answers_for_the_new_data():
    rows, labels = [[2**40, 1], [1, -1]], [1, -1]
    assert check_separator(rows, 1, labels, [0, 1]).rho == Fraction(1)
    rows[0][1] = 5
    assert check_separator(rows, 1, labels, [0, 1]) == MarginFacts(Fraction(1), 1)
    rows[0][1] = -1
    with pytest.raises(CertificateError, match="row 0"):
        check_separator(rows, 1, labels, [0, 1])


# --- argmin: the first row attaining the minimum -------------------------------------------------
def test_max_margin_argmin_is_the_first_support_vector():
    """Both rows are support vectors (y w·x = 1): the argmin is the first, row 0."""
    facts, norm2 = check_max_margin_separator(
        ((1, 2), (1, -1)), 1, (1, -1), [Fraction(-1, 3), Fraction(2, 3)],
        [Fraction(1, 9), Fraction(4, 9)])
    assert facts == MarginFacts(Fraction(1), 0) and norm2 == Fraction(5, 9)


@pytest.mark.parametrize("first", [0, 1, 2])
def test_argmin_is_the_first_of_tied_rows(first):
    """Rows (1, x) with labels sign(x) and w = (0, 1/2): the rows at x = ±2 all have margin
    y w·x = 1 (the minimum), the others more; the argmin is the first of the tied rows,
    wherever the ties start (``first`` rows at x = -4, margin 2, come before)."""
    points = [-4] * first + [-2, 2, -2, 6, 2]
    rows = tuple((1, x) for x in points)
    labels = tuple(1 if x > 0 else -1 for x in points)
    # Σ αₙ yₙ (1, xₙ) over the four rows at |x| = 2 with αₙ = 1/16 is (0, 1/2) = w
    alpha = [Fraction(1, 16) if abs(x) == 2 else 0 for x in points]
    w = [0, Fraction(1, 2)]
    facts, norm2 = check_max_margin_separator(rows, 1, labels, w, alpha)
    assert facts == MarginFacts(Fraction(1), first) and norm2 == Fraction(1, 4)
    assert check_separator(rows, 1, labels, w) == facts


@pytest.mark.parametrize("rows", [((Fraction(3, 2), 0),), ((1.5, 0),), ((True, 1),), ((1, 2), (3,)),
                                  [[1, 2], [3, 4, 5]], (("1", 2),), ((Int(2), 1),)],
                         ids=["fraction", "float", "bool", "ragged", "ragged-list", "string",
                              "int-subclass"])
def test_squared_norms_refuses_what_is_not_rows_of_ints(rows):
    # numpy's int64 conversion would truncate 1.5 to 1 and report 1 for a norm of 9/4
    with pytest.raises(CertificateError, match="rows of ints"):
        squared_norms(rows)
    with pytest.raises(CertificateError, match="rows of ints"):
        squared_radius(rows, 1)


@pytest.mark.parametrize("scale, rows", [(True, ((1, 2),)), (1.5, ((1, 2),)), (Fraction(2), ((1, 2),)),
                                         (0, ((1, 2),)), (-2, ((1, 2),)), (1, ())],
                         ids=["bool", "float", "fraction", "zero", "negative", "no-rows"])
def test_squared_radius_needs_rows_and_a_positive_int_scale(scale, rows):
    """R² = max‖row‖²/scale²: a bool, float or Fraction scale (no exact int), a scale <= 0 (a
    division by zero, or a sign lost in the square) and no rows at all (no maximum) are
    refused by name, never answered nor crashed on."""
    with pytest.raises(CertificateError, match="squared_radius needs rows and a positive int"):
        squared_radius(rows, scale)
    assert squared_radius(((1, 2),), 2) == Fraction(5, 4)
