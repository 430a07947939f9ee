"""Stop-35 attacks on the kernel mends: count_mistakes through row_facts' checked core, the
sparse dual bound's combination in products.py, the cleared-denominator rule of
sum_power_theorem, and the monitor's builtin-int / exact-score reads."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pla
from verify.checks.monitor import Monitor, ProofViolation
from verify.claims import check_claim_text
from verify.kernel import products
from verify.kernel.certificates import check_dual_bound, count_mistakes
from verify.kernel.data_checks import CertificateError


def brute(rows, labels, w, zero="mistake"):
    wrong = 0
    for row, y in zip(rows, labels):
        s = sum(Fraction(a) * Fraction(b) for a, b in zip(row, w))
        if y * s < 0 or s == 0 and (zero == "mistake" or (zero == "positive" and y == -1)
                                    or (zero == "negative" and y == 1)):
            wrong += 1
    return wrong


def verdict(f):
    try:
        return ("ok", f())
    except CertificateError:
        return ("refused", None)


data = st.integers(1, 4).flatmap(lambda d: st.tuples(
    st.lists(st.lists(st.integers(-2**31 + 1, 2**31 - 1), min_size=d, max_size=d), min_size=1,
             max_size=6),
    st.lists(st.one_of(st.integers(-2**70, 2**70), st.fractions(max_denominator=10**6)),
             min_size=d, max_size=d)))


@settings(max_examples=30, deadline=None)
@given(data, st.sampled_from(["mistake", "correct", "positive", "negative"]),
       st.randoms(use_true_random=False))
def test_count_mistakes_agrees_with_brute_force_on_every_carrier(d, zero, rnd):
    rows, w = d
    labels = [rnd.choice([1, -1]) for _ in rows]
    expected = brute(rows, labels, w, zero)
    for carrier in (rows, tuple(map(tuple, rows)), np.array(rows, dtype=np.int64)):
        assert count_mistakes(carrier, 1, labels, w, zero) == expected


def test_count_mistakes_w_beyond_int64_on_an_int64_matrix():
    rows = np.array([[1, 1], [1, -1], [2**30, 2**30 - 1]], dtype=np.int64)
    w = [2**80, -(2**80) + 1]
    assert count_mistakes(rows, 1, [1, 1, 1], w) == brute(rows.tolist(), [1, 1, 1], w)


@pytest.mark.parametrize("labels", [[True, -1], [1, 0], [1, 2], [1.0, -1], [np.int64(1), -1]])
def test_count_mistakes_refuses_labels_that_are_not_plus_minus_one_ints(labels):
    with pytest.raises(CertificateError):
        count_mistakes([[1, 0], [0, 1]], 1, labels, [1, 1])


class Sly(int):
    def __lt__(self, other):
        return False

    def __mul__(self, other):
        return 0

    __rmul__ = __mul__


@pytest.mark.parametrize("where", ["row", "w", "label", "scale"])
def test_count_mistakes_int_subclass_is_refused_or_counted_exactly(where):
    rows, labels, w, scale = [[1, 0], [0, -1]], [1, 1], [1, 1], 1
    if where == "row":
        rows = [[Sly(1), 0], [0, Sly(-1)]]
    elif where == "w":
        w = [Sly(1), Sly(1)]
    elif where == "label":
        labels = [Sly(1), Sly(1)]
    else:
        scale = Sly(1)
    v = verdict(lambda: count_mistakes(rows, scale, labels, w))
    assert v in (("refused", None), ("ok", 1)), v


def test_count_mistakes_bool_entries_refused_or_exact():
    v = verdict(lambda: count_mistakes([[True, False], [False, True]], 1, [1, -1], [1, 1]))
    assert v in (("refused", None), ("ok", 1))
    v = verdict(lambda: count_mistakes([[1, 0], [0, 1]], 1, [1, -1], [True, True]))
    assert v in (("refused", None), ("ok", 1))


def test_count_mistakes_sees_rows_changed_between_calls():
    rows = [[1, 0], [0, 1]]
    labels = [1, 1]
    assert count_mistakes(rows, 1, labels, [1, 1]) == 0
    rows[1][1] = -1
    assert count_mistakes(rows, 1, labels, [1, 1]) == 1
    arr = np.array([[1, 0], [0, 1]], dtype=np.int64)
    assert count_mistakes(arr, 1, labels, [1, 1]) == 0
    arr[1, 1] = -1
    assert count_mistakes(arr, 1, labels, [1, 1]) == 1


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_count_mistakes_on_views_and_subclasses():
    base = np.array([[1, 9, 0], [9, 9, 9], [0, 9, -1], [9, 9, 9]], dtype=np.int64)
    view = base[::2, ::2]                      # [[1, 0], [0, -1]], non-contiguous
    assert verdict(lambda: count_mistakes(view, 1, [1, 1], [1, 1])) in \
        (("refused", None), ("ok", 1))
    assert verdict(lambda: count_mistakes(view.T, 1, [1, 1], [1, 1])) in \
        (("refused", None), ("ok", 1))
    mat = np.matrix([[1, 0], [0, -1]], dtype=np.int64)
    assert verdict(lambda: count_mistakes(mat, 1, [1, 1], [1, 1])) in \
        (("refused", None), ("ok", 1))
    wide = np.array([[1, 0], [0, -1]], dtype=np.int32)
    assert verdict(lambda: count_mistakes(wide, 1, [1, 1], [1, 1])) in \
        (("refused", None), ("ok", 1))
    big = np.array([[2**63 - 1, 0], [0, -(2**63)]], dtype=np.int64)
    assert verdict(lambda: count_mistakes(big, 1, [1, 1], [1, 1])) in \
        (("refused", None), ("ok", 1))


# -- check_dual_bound: sparse vs dense at the support threshold -------------------------------

sparse_case = st.integers(1, 3).flatmap(lambda d: st.tuples(
    st.lists(st.lists(st.integers(-50, 50), min_size=d, max_size=d), min_size=2, max_size=7),
    st.data()))


@settings(max_examples=30, deadline=None)
@given(sparse_case, st.integers(-1, 1))
def test_sparse_and_dense_dual_bounds_agree_at_the_threshold(case, shift):
    rows, draw = case
    dim = len(rows[0])
    labels = draw.draw(st.lists(st.sampled_from([1, -1]), min_size=len(rows),
                                max_size=len(rows)))
    support = draw.draw(st.lists(st.integers(0, len(rows) - 1), min_size=1, unique=True))
    alpha = {i: draw.draw(st.fractions(0, 5, max_denominator=7)) for i in support}
    dense = [alpha.get(i, Fraction(0)) for i in range(len(rows))]
    expected = verdict(lambda: check_dual_bound(rows, 1, labels, dense))
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(products, "_SUPPORT_PRODUCTS", len(alpha) * dim + shift)
        got = verdict(lambda: check_dual_bound(rows, 1, labels, dict(alpha)))
        got_np = verdict(lambda: check_dual_bound(np.array(rows, dtype=np.int64), 1, labels,
                                                  dict(alpha)))
    finally:
        mp.undo()
    assert got == expected == got_np


@pytest.mark.parametrize("limit", [0, 10**9])
def test_sparse_dual_bound_zero_values_and_zero_combination(monkeypatch, limit):
    monkeypatch.setattr(products, "_SUPPORT_PRODUCTS", limit)
    rows, labels = [[1, 2], [1, -1], [1, 2]], [1, -1, -1]
    # rows 0 and 2 equal with opposite labels: their combination is 0
    with pytest.raises(CertificateError):
        check_dual_bound(rows, 1, labels, {0: 1, 2: 1})
    with pytest.raises(CertificateError):
        check_dual_bound(rows, 1, labels, {0: 0, 1: 0})
    with pytest.raises(CertificateError):
        check_dual_bound(rows, 1, labels, {})
    with pytest.raises(CertificateError):
        check_dual_bound(rows, 1, labels, {1: -1, 0: 2})
    with pytest.raises(CertificateError):
        check_dual_bound(rows, 1, labels, {3: 1})
    with pytest.raises(CertificateError):
        check_dual_bound(rows, 1, labels, {-1: 1})
    assert check_dual_bound(rows, 1, labels, {0: Fraction(1, 9), 1: Fraction(4, 9), 2: 0}) == \
        Fraction(5, 9)


@pytest.mark.parametrize("key", [True, np.int64(0), 0.0, Fraction(0)])
def test_sparse_dual_bound_odd_keys(monkeypatch, key):
    """A key that is not a builtin int row index: refused, or read as row 0/1 exactly."""
    rows, labels = [[1, 2], [1, -1]], [1, -1]
    for limit in (0, 10**9):
        monkeypatch.setattr(products, "_SUPPORT_PRODUCTS", limit)
        v = verdict(lambda: check_dual_bound(rows, 1, labels, {key: Fraction(1, 9),
                                                               1: Fraction(4, 9)}))
        assert v in (("refused", None), ("ok", Fraction(5, 9))), v


# -- sum_power_theorem through the claims checker ---------------------------------------------

def status(text):
    return check_claim_text(text).status


@pytest.mark.parametrize("text", [
    "assume: n >= 0, n integer, r != 1\nSum(r**k, (k, 0, n)) == (1 - r**(n + 1))/(1 - r)",
    "assume: n >= 0, n integer, r - 1 != 0\nSum(r**k, (k, 0, n)) == (r**(n + 1) - 1)/(r - 1)",
])
def test_geometric_sum_with_its_denominator_assumed_nonzero_is_proved(text):
    assert status(text) == "proved"


@pytest.mark.parametrize("text", [
    "assume: n >= 0, n integer\nSum(r**k, (k, 0, n)) == (1 - r**(n + 1))/(1 - r)",
    "assume: n >= 0, n integer, r != 2\nSum(r**k, (k, 0, n)) == (1 - r**(n + 1))/(1 - r)",
    "assume: n >= 0, n integer, r > 0\nSum(r**k, (k, 0, n)) >= (1 - r**(n + 1))/(1 - r)",
    "assume: n >= 0, n integer, r != 1\nSum(r**k, (k, 0, n)) >= (1 - r**(n + 1))/(1 - r)",
    "assume: n >= 0, n integer, r != 1\nSum(r**k, (k, 0, n)) <= (1 - r**(n + 1))/(1 - r)",
    "assume: n >= 0, n integer, r != 1\nSum(r**k, (k, 0, n)) == (1 - r**(n + 2))/(1 - r)",
    "assume: n >= 0, n integer, r < 1\nSum(r**k, (k, 0, n)) > (1 - r**(n + 1))/(1 - r)",
    "assume: n >= 0, n integer, r != 1\nSum(r**k, (k, 0, n)) == (1 - r**(n + 1))/(1 - r) + 1",
    "assume: n >= 0, n integer, r > 1\nSum(r**k, (k, 0, n)) >= (1 - r**(n + 1))/(1 - r) + 1",
    "assume: n >= 0, n integer, r < 1\nSum(r**k, (k, 0, n)) <= (1 - r**(n + 1))/(1 - r) - 1/10",
    ("assume: n >= 0, n integer, r != 1\n"
     "Sum(k*r**k, (k, 0, n)) == (r - (n+1)*r**(n+1) + n*r**(n+2))/(1 - r)**2 + 1"),
    ("assume: n >= 0, n integer, r < 1\n"
     "Sum(k*r**k, (k, 0, n)) >= (r - (n+1)*r**(n+1) + n*r**(n+2))/(1 - r)**2 + 1/1000"),
])
def test_geometric_sums_without_the_needed_assumption_are_not_proved(text):
    assert status(text) != "proved"


def test_geometric_inequality_with_an_assumed_sign_is_not_wrongly_refuted():
    s = status("assume: n >= 0, n integer, r < 1\n"
               "Sum(r**k, (k, 0, n)) >= (1 - r**(n + 1))/(1 - r)")
    assert s != "refuted"


# -- the monitor: builtin ints only -----------------------------------------------------------

TRIANGLE = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
FIRST = pla.RunOptions(order="first")


class Liar(int):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __lt__(self, other):
        return False

    def __le__(self, other):
        return True

    __hash__ = int.__hash__


def honest():
    ups = []
    pla.run(TRIANGLE, options=FIRST, keep_steps=False, on_update=lambda *a: ups.append(a))
    return ups


@pytest.mark.parametrize("slot,value", [
    (0, lambda v: Liar(v)), (1, lambda v: Liar(v)), (2, lambda v: Liar(v)),
    (2, lambda v: v == 1), (1, lambda v: np.int64(v)), (0, lambda v: float(v)),
    (3, lambda v: float(v)), (3, lambda v: object()),
])
@pytest.mark.parametrize("deferred", [False, True])
def test_monitor_refuses_non_builtin_step_row_label_score(slot, value, deferred):
    ups = honest()
    mon = Monitor(TRIANGLE, FIRST, wf=[-3, 1, 1])
    forged = list(ups[2])
    forged[slot] = value(forged[slot])
    # (a float score is refused even when it equals the exact score: floats never enter)
    seq = ups[:2] + [tuple(forged)] + ups[3:]
    with pytest.raises(ProofViolation):
        if deferred:
            with mon.deferred_checks() as hook:
                for u in seq:
                    hook(*u)
            mon.check_pending()
        else:
            for u in seq:
                mon.on_update(*u)


def test_monitor_honest_sequence_passes():
    ups = honest()
    mon = Monitor(TRIANGLE, FIRST, wf=[-3, 1, 1])
    for u in ups:
        mon.on_update(*u)
