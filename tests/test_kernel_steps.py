"""The kernel's per-update checks (verify/kernel/steps.py) at their edges, and the fast exact
paths of the checked run against plain reference computations on adversarial data.

Each inequality of :func:`kernel.steps.check_update` is pinned on its own: accepted exactly at
equality, rejected one unit past it, with the name, the step and both exact sides.  Then the
flint products of the kernel, the float-proposed exact max-margin search and the monitor's
incremental sums are compared with obvious pure-Python (Fraction) computations on generated
and adversarial data: huge numerators, 1,000-digit denominators, duplicate and zero rows.
"""

from __future__ import annotations

from fractions import Fraction
from operator import mul

import pytest
from hypothesis import given, settings, strategies as st

import pla
from tests.strategies import separable_datasets
from verify.checks.monitor import Monitor
from verify.kernel import steps
from verify.kernel.certificates import _combination, _products, row_products
from verify.kernel.errors import KernelError
from verify.kernel.steps import ProofViolation, StepConstants, check_update
from verify.search.certificates import Separator, certify

#: x = 1, w_f = 1, eta = 1: k = e = D = L = Df = b = 1, c1 = rho = 1, c3 = R^2 = 1, bound 1.
ONE = StepConstants(k=1, e=1, c3=1, N0=0, classical=True, zero="mistake", D=1, L=1, b=1, c1=1,
                    P0=0, bound_updates=1, Df=1)
#: A roomier run: R^2 = 4, rho = 1, bound 100.
ROOMY = StepConstants(k=1, e=1, c3=4, N0=0, classical=True, zero="mistake", D=1, L=1, b=1, c1=1,
                      P0=0, bound_updates=100, Df=1)


def collect(constants, **values):
    """Every violation of one update (the kernel goes on after each when given ``fail``)."""
    found = []
    check_update(constants, fail=found.append, **values)
    return [(v.inequality, v.step, v.lhs, v.relation, v.rhs) for v in found]


def test_the_tight_update_passes_every_check_with_equality():
    assert collect(ONE, t=0, y=1, S=0, q=1, N=0, N1=1, m=1, P=0, P1=1) == []


def test_a_non_mistake_fails_the_convention_and_the_hypothesis():
    got = collect(ROOMY, t=2, y=1, S=1, q=1, N=0, N1=3, m=1, P=2, P1=3)
    assert got[:2] == [("the update is a mistake under the 'mistake' convention", 2,
                        "y w_t.x = 1", "is", "a mistake"),
                       ("mistake hypothesis: y_n w_t.x_n <= 0", 2, 1, "<=", 0)]


@pytest.mark.parametrize("zero, y, fails", [("mistake", 1, False), ("correct", 1, True),
                                            ("positive", 1, True), ("positive", -1, False),
                                            ("negative", -1, True), ("negative", 1, False)])
def test_a_zero_score_under_each_convention(zero, y, fails):
    c = StepConstants(k=1, e=1, c3=4, N0=0, classical=True, zero=zero, D=1, L=1)
    names = [v[0] for v in collect(c, t=0, y=y, S=0, q=1, N=0, N1=1)]
    assert (f"the update is a mistake under the {zero!r} convention" in names) == fails
    assert "mistake hypothesis: y_n w_t.x_n <= 0" not in names


def test_the_norm_identity_is_exact_to_one_unit():
    assert collect(ROOMY, t=0, y=1, S=0, q=1, N=0, N1=1, m=1, P=0, P1=1) == []
    got = collect(ROOMY, t=0, y=1, S=0, q=1, N=0, N1=2, m=1, P=0, P1=1)
    assert got[0] == ("identity ||w_{t+1}||^2 = ||w_t||^2 + 2*eta*y_n*w_t.x_n + "
                      "eta^2*||x_n||^2", 0, 2, "=", 1)


def test_the_norm_step_and_the_cumulative_norm_bound():
    # ||w'||^2 - ||w||^2 = 4 = eta^2 R^2 passes; 5 fails both forms (t = 0)
    assert collect(ROOMY, t=0, y=1, S=0, q=4, N=0, N1=4, m=1, P=0, P1=1) == []
    got = collect(ROOMY, t=0, y=1, S=0, q=5, N=0, N1=5, m=1, P=0, P1=1)
    assert ("||w_{t+1}||^2 <= ||w_t||^2 + eta^2*R^2", 0, 5, "<=", 4) in got
    assert ("||w_{t+1}||^2 <= (t+1)*eta^2*R^2", 0, 5, "<=", 4) in got
    # cumulative only: at t = 1 the step is 4 but the total 9 > 2 * 4
    got = collect(ROOMY, t=1, y=1, S=0, q=4, N=5, N1=9, m=1, P=1, P1=2)
    assert got[0] == ("||w_{t+1}||^2 <= (t+1)*eta^2*R^2", 1, 9, "<=", 8)
    assert "||w_{t+1}||^2 <= ||w_t||^2 + eta^2*R^2" not in [g[0] for g in got]


def test_the_margin_identity_step_and_cumulative_bound():
    got = collect(ROOMY, t=0, y=1, S=0, q=1, N=0, N1=1, m=1, P=0, P1=2)
    assert got[0] == ("w_f.w_{t+1} = w_f.w_t + eta*y_n*w_f.x_n", 0, 2, "=", 1)
    # m = 0 < rho: the step and the cumulative bound fail
    got = collect(ROOMY, t=0, y=1, S=0, q=1, N=0, N1=1, m=0, P=0, P1=0)
    assert ("w_f.w_{t+1} >= w_f.w_t + eta*rho", 0, 0, ">=", 1) in got
    assert ("w_f.w_{t+1} >= (t+1)*eta*rho", 0, 0, ">=", 1) in got
    # cumulative only: at t = 1 a good step from a too small start
    got = collect(ROOMY, t=1, y=1, S=0, q=1, N=1, N1=2, m=1, P=0, P1=1)
    assert [g[0] for g in got][:1] == ["w_f.w_{t+1} >= (t+1)*eta*rho"]


def test_the_cosine_bound_at_equality_and_one_unit_past_it():
    # R^2 = 5, t+1 = 2: (w_f.w)^2 R^2 = 4 * 5 = 20 >= 2 * rho^2 * ||w||^2 holds up to N1 = 10
    c = StepConstants(k=1, e=1, c3=5, N0=0, classical=True, zero="mistake", D=1, L=1, b=1, c1=1,
                      P0=0, bound_updates=100, Df=1)
    assert collect(c, t=1, y=1, S=0, q=5, N=5, N1=10, m=1, P=1, P1=2) == []
    got = collect(c, t=1, y=1, S=0, q=6, N=5, N1=11, m=1, P=1, P1=2)
    assert ("cosine bound (w_f.w_{t+1})^2 * R^2 >= (t+1)*rho^2*||w_{t+1}||^2", 1, 20, ">=",
            22) in got


def test_the_cosine_bound_reports_both_forms_for_a_classical_run():
    c = StepConstants(k=1, e=1, c3=1, N0=0, classical=True, zero="mistake", D=1, L=1, b=1, c1=1,
                      P0=0, bound_updates=100, Df=1)
    # t+1 = 1: (P1)^2 * 1 >= 1 * N1 needs P1^2 >= N1; P1 = 1, N1 = 2 fails
    got = [g for g in collect(c, t=0, y=1, S=0, q=1, N=1, N1=2, m=1, P=0, P1=1)
           if "cosine" in g[0]]
    assert [g[0] for g in got] == [
        "cosine bound (w_f.w_{t+1})^2 * R^2 >= (t+1)*rho^2*||w_{t+1}||^2",
        "generalised cosine bound (w_f.w_{t+1})^2 * B_{t+1} >= A_{t+1}^2 * ||w_{t+1}||^2"]
    assert got[0][2:] == (1, ">=", 2)


def test_the_bound_on_t_is_checked_at_every_update_and_at_the_end():
    assert collect(ONE, t=0, y=1, S=0, q=1, N=0, N1=1, m=1, P=0, P1=1) == []
    got = collect(ONE, t=1, y=1, S=0, q=1, N=1, N1=2, m=1, P=1, P1=2)
    assert got[-1] == ("t+1 <= R^2*||w_f||^2/rho^2", 1, 2, "<=", 1)
    steps.check_final_count(ONE, 1)
    with pytest.raises(ProofViolation) as error:
        steps.check_final_count(ONE, 2)
    assert (error.value.step, error.value.lhs, error.value.rhs) == ("end", 2, 1)


def test_without_w_f_only_the_w_f_free_checks_run():
    c = StepConstants(k=1, e=1, c3=1, N0=0, classical=True, zero="mistake", D=1, L=1)
    assert collect(c, t=0, y=1, S=0, q=1, N=0, N1=1) == []
    with pytest.raises(KernelError):
        check_update(ONE, t=0, y=1, S=0, q=1, N=0, N1=1)        # w_f needs m, P, P1


def test_a_violation_raises_without_fail():
    with pytest.raises(ProofViolation) as error:
        check_update(ONE, t=0, y=1, S=1, q=1, N=0, N1=3, m=1, P=0, P1=1)
    assert isinstance(error.value, KernelError) and error.value.step == 0


@pytest.mark.parametrize("bad", [dict(k=0), dict(e=-1), dict(D=True), dict(L=1.0),
                                 dict(zero="sometimes"), dict(b=1), dict(b=0, c1=1, P0=0,
                                 bound_updates=1, Df=1), dict(b=1, c1=1, P0=0, bound_updates=2,
                                 Df=1, bound=Fraction(3, 2))])
def test_malformed_constants_are_refused(bad):
    values = dict(k=1, e=1, c3=1, N0=0, classical=True, zero="mistake", D=1, L=1) | bad
    with pytest.raises(KernelError):
        StepConstants(**values)


def test_equalities_at_checkpoints():
    steps.check_equal("x", 1, 6, 6, 3)
    with pytest.raises(ProofViolation) as error:
        steps.check_equal("x", 1, 7, 6, 3)
    assert (error.value.lhs, error.value.rhs) == (Fraction(7, 3), 2)


@settings(max_examples=60, deadline=None)
@given(st.integers(-6, 6), st.integers(0, 6), st.integers(1, 4), st.integers(1, 4),
       st.integers(1, 5), st.integers(1, 12))
def test_the_generalised_bound_is_the_largest_allowed_t(p0, n0, eta, rho, R2, norm2):
    wf_w0, w0_norm2 = Fraction(p0, 2), Fraction(n0)
    eta, rho, R2, norm2 = Fraction(eta, 2), Fraction(rho), Fraction(R2), Fraction(norm2)
    if wf_w0 ** 2 > norm2 * w0_norm2:      # Cauchy-Schwarz: no such w_f and w_0
        return

    def allowed(T):
        A = wf_w0 + T * eta * rho
        return A < 0 or A * A <= norm2 * (w0_norm2 + T * eta * eta * R2)
    T = steps.generalised_bound(wf_w0, w0_norm2, eta, rho, R2, norm2)
    assert allowed(T) and not allowed(T + 1) and all(allowed(t) for t in range(T + 1))


# ---------------------------------------------------------------------------- fast vs reference
huge = st.integers(min_value=-10**60, max_value=10**60)
small = st.integers(min_value=-3, max_value=3)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_flint_products_equal_python_sums(data):
    n = data.draw(st.integers(1, 6))
    dim = data.draw(st.integers(0, 5))
    rows = data.draw(st.lists(st.lists(huge | small, min_size=dim, max_size=dim).map(tuple),
                              min_size=n, max_size=n))
    rows = rows + rows[:1] + [(0,) * dim]                  # a duplicate and a zero row
    V = data.draw(st.lists(huge | small, min_size=dim, max_size=dim))
    C = data.draw(st.lists(huge | small, min_size=len(rows), max_size=len(rows)))
    assert _products(tuple(rows), V) == [sum(map(mul, row, V)) for row in rows]
    assert row_products(rows, V) == [sum(map(mul, row, V)) for row in rows]
    assert _combination(C, rows, dim) == [sum(c * row[i] for c, row in zip(C, rows))
                                          for i in range(dim)]


def _kkt_by_fractions(ds, s):
    """The KKT conditions of the max-margin problem, checked with plain Fractions."""
    X = ds.X
    for a in s.alpha:
        assert a >= 0
    for i in range(ds.dim):
        assert s.w[i] == sum(a * y * x[i] for a, y, x in zip(s.alpha, ds.labels, X))
    for a, y, x in zip(s.alpha, ds.labels, X):
        margin = y * sum(wi * xi for wi, xi in zip(s.w, x))
        assert margin >= 1 and (a == 0 or margin == 1)
    assert s.rho == min(y * sum(wi * xi for wi, xi in zip(s.w, x))
                        for y, x in zip(ds.labels, X))


def adversarial(ds, big_denominator: bool, duplicate: bool, zero: bool) -> pla.Dataset:
    """ds with 1,000-digit denominators, a duplicate row and a zero feature row added."""
    scale = Fraction(1, 10**999 + 7) if big_denominator else Fraction(1)
    rows = [[v * scale for v in x[1:]] for x in ds.X]
    labels = list(ds.labels)
    if duplicate:
        rows.append(rows[0])
        labels.append(labels[0])
    if zero:
        rows.append([Fraction(0)] * len(rows[0]))
        labels.append(1)
    return pla.Dataset.from_rows(rows, labels)


@settings(max_examples=25, deadline=None)
@given(separable_datasets(max_n=7, max_d=3), st.booleans(), st.booleans(), st.booleans())
def test_fast_max_margin_equals_the_fraction_kkt_solution_on_adversarial_data(ds, big, dup, zero):
    data = adversarial(ds, big, dup, zero)
    s = certify(data)
    if isinstance(s, Separator):
        assert s.kind == "max-margin"
        _kkt_by_fractions(data, s)
    else:   # a zero row labelled +1 with a bias column: still separable; a Gordan otherwise
        assert all(v >= 0 for v in s.lam) and any(s.lam)
        for i in range(data.dim):
            assert sum(v * y * x[i] for v, y, x in zip(s.lam, data.labels, data.X)) == 0


@settings(max_examples=25, deadline=None)
@given(separable_datasets(max_n=7, max_d=3), st.booleans(), st.integers(1, 3))
def test_incremental_monitor_equals_direct_recomputation(ds, big, every):
    """The monitor's incremental sums (checked against direct products every ``every``
    updates) accept exactly the runs the fully direct monitor accepts, with the same bound."""
    data = adversarial(ds, big, duplicate=False, zero=False)
    s = certify(data)
    if not isinstance(s, Separator):
        return
    options = pla.RunOptions(max_updates=500)
    reports = []
    for check_every, paranoid in ((every, False), (1, True)):
        monitor = Monitor(data, options, s.w, check_every=check_every, paranoid=paranoid)
        result = pla.run(data, options=options, on_step=monitor)
        reports.append(monitor.finish(result))
    fast, direct = reports
    assert (fast.bound, fast.rho, fast.R2, fast.updates) == \
        (direct.bound, direct.rho, direct.R2, direct.updates)
    assert fast.updates <= fast.bound_updates


@pytest.mark.parametrize("missing", ["m", "P", "P1"])
def test_a_run_with_w_f_needs_every_margin_number(missing):
    values = dict(t=0, y=1, S=0, q=1, N=0, N1=1, m=1, P=0, P1=1)
    values[missing] = None
    with pytest.raises(KernelError, match="needs m, P and P1"):
        check_update(ONE, **values)


def test_check_equal_shows_integers_by_default():
    with pytest.raises(ProofViolation) as error:
        steps.check_equal("x", "end", 3, 4)
    assert (error.value.step, error.value.lhs, error.value.rhs) == ("end", 3, 4)


def test_a_zero_lower_bound_never_fails_the_cosine_bound():
    """A_{t+1} = 0 (w_f.w_0 = -(t+1) eta rho): the squared cosine bound holds trivially, so
    whether it is evaluated there (>= 0) or skipped (> 0) cannot change a verdict -- the
    mutation tool's survivors at that comparison are equivalent mutants."""
    c = StepConstants(k=1, e=1, c3=1, N0=4, classical=False, zero="mistake", D=1, L=1, b=1,
                      c1=1, P0=-1, bound_updates=100, Df=1)
    got = collect(c, t=0, y=1, S=0, q=1, N=4, N1=5, m=1, P=-1, P1=0)
    assert not [g for g in got if "cosine" in g[0]]
