"""The kernel's certificate arithmetic on whole lists (issue 29, part 3) gives exactly the
reference results: the same integers, the same accepted certificates, the same refusals with
the same messages.

The references below are the per-entry loops the kernel used before (one ``_exact_number``
call per number, one Python iteration per row) and plain Python sums: the whole-list paths
(``_over_common_denominator``'s, ``_rows_of_ints``' memo, margins by ``min``, a combination
over the nonzero coefficients only, ``near_max_margin``'s float matrix from the int64 rows and
its whole-array rounding) are compared with them on adversarial data: entries near 2⁶², 2⁶³
and −2⁶³, mixed huge entries that force FLINT, bools, floats and subclasses.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import verify.kernel.certificates as C
from verify.kernel.products import _combination

EDGES = [0, 1, -1, 2**31 - 1, -(2**31), 2**62 - 1, 2**62, -(2**62), 2**63 - 1, -(2**63),
         2**63, 2**64 + 1, -(2**200) + 3]
entries = st.one_of(st.integers(-5, 5), st.sampled_from(EDGES))
numbers = st.one_of(entries, st.builds(Fraction, entries, st.sampled_from(
    [1, 2, 3, 2**40, 2**63 - 1, 2**63, 10**30])))


class Int(int):
    pass


class Frac(Fraction):
    pass


def reference_over_common_denominator(values, length, what):
    """The kernel's conversion before issue 29: one ``_exact_number`` per entry."""
    numbers = [C._exact_number(v, f"{what}[{i}]") for i, v in enumerate(values)]
    if len(numbers) != length:
        raise C.CertificateError(f"{what} has {len(numbers)} entries, expected {length}")
    D = 1
    for v in numbers:
        if D % v.denominator:
            D = D * v.denominator // math.gcd(D, v.denominator)
    return [v.numerator * (D // v.denominator) for v in numbers], D


def outcome(function, *args):
    try:
        return "ok", function(*args)
    except C.CertificateError as error:
        return "refused", str(error), error.index
    except ArithmeticError as error:     # (a forged zero denominator: refused, not accepted)
        return "crashed", type(error).__name__


def forged(numerator, denominator):
    """A Fraction whose slots were set by hand (no normalisation, any types)."""
    value = Fraction(1, 3)
    value._numerator, value._denominator = numerator, denominator
    return value


odd = st.sampled_from([True, 1.0, Int(3), Frac(1, 2), "1", forged(Int(1), 2),
                       forged(1, Int(2)), forged(True, 2), forged(1, 0), forged(1, -2),
                       forged(2, 4), forged(-3, -6)])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(numbers, numbers, numbers, odd), max_size=8),
       st.integers(0, 9), st.booleans())
def test_common_denominator_is_the_reference(values, length, as_tuple):
    values = tuple(values) if as_tuple else values
    assert outcome(C._over_common_denominator, values, length, "v") == \
        outcome(reference_over_common_denominator, values, length, "v")


def test_a_generator_of_numbers_is_read_once():
    assert C._over_common_denominator((Fraction(1, n) for n in (1, 2, 3)), 3, "v") == \
        ([6, 3, 2], 6)


def reference_rows_of_ints(rows, dim):
    return type(rows) in (tuple, list) and \
        all(type(row) in (tuple, list) and len(row) == dim for row in rows) and \
        all(type(v) is int for row in rows for v in row)


rows_like = st.one_of(
    st.lists(st.lists(st.one_of(entries, odd), min_size=2, max_size=2).map(tuple), max_size=4),
    st.lists(st.lists(entries, min_size=1, max_size=3), max_size=3),
    st.just(((1, 2), [3, 4])), st.just(({1: 2}, (3, 4))), st.just("ab"))


@settings(max_examples=150, deadline=None)
@given(rows_like, st.integers(0, 3), st.booleans())
def test_rows_of_ints_is_the_reference(rows, dim, as_tuple):
    if as_tuple and isinstance(rows, list):
        rows = tuple(rows)
    C._LAST_ROWS.clear()
    assert C._rows_of_ints(rows, dim) == reference_rows_of_ints(rows, dim)
    assert C._rows_of_ints(rows, dim) == reference_rows_of_ints(rows, dim)   # (the memo)


def test_only_a_tuple_of_tuples_is_remembered():
    rows = ([1, 2], [3, 4])
    assert C._rows_of_ints(rows, 2)
    rows[0][0] = True                       # rows of lists change in place: validated again
    assert not C._rows_of_ints(rows, 2)
    listed = [(1, 2), (3, 4)]
    assert C._rows_of_ints(listed, 2)
    listed[1] = (3, 0.5)
    assert not C._rows_of_ints(listed, 2)
    frozen = ((1, 2), (3, 4))
    assert C._rows_of_ints(frozen, 2) and C._LAST_ROWS[0][0] is frozen
    assert not C._rows_of_ints(frozen, 3)   # the memo is for one dimension


# --- the certificate checks against plain Python fractions -------------------------------------
def python_margins(rows, scale, labels, w):
    return [y * sum(Fraction(v) * Fraction(x, scale) for v, x in zip(w, row))
            for row, y in zip(rows, labels)]


data = st.integers(1, 4).flatmap(lambda dim: st.tuples(
    st.lists(st.tuples(*[entries] * dim), min_size=1, max_size=5),
    st.lists(numbers, min_size=dim, max_size=dim)))


@settings(max_examples=120, deadline=None)
@given(data, st.lists(st.sampled_from([1, -1]), min_size=5, max_size=5), st.sampled_from([1, 7]))
def test_check_separator_is_the_reference(case, signs, scale):
    rows, w = case
    rows, labels = tuple(rows), tuple(signs[:len(rows)])
    margins = python_margins(rows, scale, labels, w)
    result = outcome(C.check_separator, rows, scale, labels, w)
    if min(margins) <= 0:
        n = next(n for n, m in enumerate(margins) if m <= 0)
        assert result == ("refused", f"row {n}: y w.x = {margins[n]} <= 0: w does not separate "
                          "the data", n)
    else:
        assert result == ("ok", C.MarginFacts(min(margins), margins.index(min(margins))))


def python_combination(coefficients, rows, dim):
    return [sum(c * row[i] for c, row in zip(coefficients, rows)) for i in range(dim)]


@settings(max_examples=120, deadline=None)
@given(data, st.lists(st.one_of(st.just(Fraction(0)), numbers), min_size=5, max_size=5),
       st.lists(st.sampled_from([1, -1]), min_size=5, max_size=5))
def test_dual_bound_and_gordan_are_the_reference(case, alpha, signs):
    rows, _ = case
    rows, labels, alpha = tuple(rows), tuple(signs[:len(rows)]), alpha[:len(rows)]
    dim = len(rows[0])
    v = python_combination([a * y for a, y in zip(alpha, labels)], rows, dim)
    negative = [n for n, a in enumerate(alpha) if a < 0]
    bound = outcome(C.check_dual_bound, rows, 1, labels, alpha)
    gordan = outcome(C.check_gordan, rows, 1, labels, alpha)
    if negative:
        assert bound == ("refused", f"alpha[{negative[0]}] = {alpha[negative[0]]} < 0",
                         negative[0])
        assert gordan == ("refused", f"lambda[{negative[0]}] < 0", negative[0])
    elif not any(v):
        assert bound[0] == "refused"
        assert gordan == (("ok", None) if any(alpha) else
                          ("refused", "lambda = 0 proves nothing", None))
    else:
        assert bound == ("ok", Fraction(sum(alpha)) ** 2 / sum(c * c for c in v))
        assert gordan[0] == "refused" and "!= 0 in coordinate" in gordan[1]


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 3).flatmap(lambda dim: st.lists(st.tuples(*[entries] * dim), min_size=1,
                                                      max_size=40)),
       st.data())
def test_a_combination_over_few_nonzero_coefficients_is_the_python_sum(rows, draw):
    dim = len(rows[0])
    coefficients = draw.draw(st.lists(st.one_of(st.just(0), st.just(0), entries),
                                      min_size=len(rows), max_size=len(rows)))
    assert _combination(coefficients, tuple(rows), dim) == \
        python_combination(coefficients, rows, dim)


def test_a_combination_with_many_nonzero_coefficients_takes_the_matrix_product():
    rows = tuple((n % 7 - 3, 2**62 - n, -(2**63) + n) for n in range(20_000))
    coefficients = [(-1) ** n * (n + 1) for n in range(20_000)]
    assert _combination(coefficients, rows, 3) == python_combination(coefficients, rows, 3)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(entries, entries), min_size=1, max_size=5),
       st.lists(numbers, min_size=2, max_size=2), st.data())
def test_max_margin_separator_is_the_reference(rows, w, draw):
    rows = tuple(rows)
    labels = tuple(draw.draw(st.lists(st.sampled_from([1, -1]), min_size=len(rows),
                                      max_size=len(rows))))
    alpha = draw.draw(st.lists(st.sampled_from([0, 0, Fraction(1, 3), 1, -1]),
                               min_size=len(rows), max_size=len(rows)))
    result = outcome(C.check_max_margin_separator, rows, 1, labels, w, alpha)
    margins = python_margins(rows, 1, labels, w)
    v = python_combination([a * y for a, y in zip(alpha, labels)], rows, 2)
    negative = [n for n, a in enumerate(alpha) if a < 0]
    if negative:
        assert result[0] == "refused" and result[1].startswith("dual feasibility")
        return
    if [Fraction(c) for c in w] != v:
        assert result[0] == "refused" and result[1].startswith("stationarity")
        return
    faults = [n for n, (a, m) in enumerate(zip(alpha, margins)) if m < 1 or a and m != 1]
    if faults:
        n = faults[0]
        kind = "primal feasibility" if margins[n] < 1 else "complementary slackness"
        assert result[0] == "refused" and result[1].startswith(kind) and result[2] == n
    else:
        facts = C.MarginFacts(min(margins), margins.index(min(margins)))
        assert result == ("ok", (facts, sum(Fraction(c) ** 2 for c in w)))


# --- the search's whole-array proposals are the per-entry ones ----------------------------------
def reference_dyadic(values, floor_at=0.0):
    """``verify.search.certificates._dyadic`` before issue 29 (one Python call per entry)."""
    biggest = max((abs(float(v)) for v in values), default=0.0)
    if not biggest or not math.isfinite(biggest):
        return tuple(Fraction(0) for _ in values)
    shift = 50 - math.frexp(biggest)[1]
    scale = Fraction(2) ** shift
    if scale.denominator == 1:
        return tuple(Fraction(0) if abs(float(v)) <= floor_at else
                     Fraction(round(math.ldexp(float(v), shift))) / scale for v in values)
    return tuple(Fraction(0) if abs(float(v)) <= floor_at else
                 Fraction(round(math.ldexp(float(v), shift)), scale.numerator) for v in values)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=False, allow_infinity=False),
                          st.sampled_from([0.0, 0.5, 1.5, 2.5, -2.5, 5e-324, 1e300, 2.0**60])),
                max_size=8),
       st.sampled_from([0.0, 1e-12, 0.5]))
def test_dyadic_is_the_reference(values, floor_at):
    np = pytest.importorskip("numpy")
    from verify.search.certificates import _dyadic

    assert _dyadic(np.array(values, dtype=np.float64), floor_at) == \
        reference_dyadic(values, floor_at)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 1, -5, 2**31, -(2**31), 2**31 - 1, 2**40]),
                          st.integers(-9, 9)), min_size=1, max_size=6), st.data())
def test_the_float_matrix_from_int64_rows_is_the_one_from_python_rows(rows, draw):
    import pla
    from verify.search.certificates import _float_matrix, _signed_float_matrix

    labels = draw.draw(st.lists(st.sampled_from([1, -1]), min_size=len(rows),
                                max_size=len(rows)))
    ds = pla.Dataset.from_rows([list(r) for r in rows], labels, bias=False)
    Z = [row if y > 0 else tuple(-v for v in row) for y, row in zip(ds.labels, ds.rows)]
    expected, got = _float_matrix(Z), _signed_float_matrix(ds)
    assert (expected is None) == (got is None)
    if expected is not None:
        assert got.tolist() == expected.tolist()


@settings(max_examples=80, deadline=None)
@given(data, st.lists(st.sampled_from([1, -1]), min_size=5, max_size=5),
       st.sampled_from(C.ZERO_RULES))
def test_count_mistakes_is_the_reference(case, signs, zero):
    rows, w = case
    rows, labels = tuple(rows), tuple(signs[:len(rows)])
    scores = [y * m for y, m in zip(labels, python_margins(rows, 1, labels, w))]   # w·xₙ
    expected = sum((s > 0) != (y > 0) if s else
                   zero == "mistake" or zero == "positive" and y < 0 or
                   zero == "negative" and y > 0 for s, y in zip(scores, labels))
    assert C.count_mistakes(rows, 1, labels, w, zero) == expected
