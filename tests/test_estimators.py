"""pla.Perceptron and pla.Pocket as scikit-learn estimators: the check suite, exactness, labels."""

from __future__ import annotations

import doctest
import subprocess
import sys
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import parametrize_with_checks

import pla
from pla.estimators import EXPECTED_FAILED_CHECKS, Perceptron, Pocket, exact_number, exact_rows
from verify.checks.estimators import CheckedPerceptron, CheckedPocket

TEXTBOOK_X = [[3, 3], [4, 3], [1, 1]]
TEXTBOOK_Y = [1, 1, -1]


# ----------------------------------------------------------------------------- scikit-learn's suite
# Small budgets keep the suite fast: several checks fit on random, non-separable data, where a
# Perceptron always runs to its budget.
@parametrize_with_checks(
    [Perceptron(max_updates=300), Pocket(max_updates=20)],
    expected_failed_checks=lambda estimator: EXPECTED_FAILED_CHECKS,
)
def test_sklearn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


# ----------------------------------------------------------------------------- exactness
def test_textbook_run_is_exact_and_matches_pla_run():
    clf = Perceptron(order="first").fit(TEXTBOOK_X, TEXTBOOK_Y)
    result = pla.run(pla.Dataset.from_rows(TEXTBOOK_X, TEXTBOOK_Y), order="first")
    assert clf.w_ == result.w == (Fraction(-3), Fraction(1), Fraction(1))
    assert clf.coef_.shape == (1, 2) and clf.intercept_.shape == (1,)
    assert clf.coef_.tolist() == [[1, 1]] and clf.intercept_.tolist() == [-3]
    assert all(type(v) is Fraction for v in clf.coef_.ravel())
    assert clf.coef_float_.dtype == np.float64 and clf.coef_float_.tolist() == [[1.0, 1.0]]
    assert (clf.n_updates_, clf.n_iter_, clf.converged_) == (7, result.epochs, True)


def test_floats_are_read_as_their_exact_binary_value():
    assert exact_number(0.1) == Fraction(3602879701896397, 36028797018963968)
    assert exact_number(np.float32(0.1)) == Fraction(13421773, 134217728)
    assert exact_number("0.1") == Fraction(1, 10)
    assert exact_rows(np.array([[0.1]], dtype=np.float32)) == [(Fraction(13421773, 134217728),)]
    # 3.0 is accepted (the old estimator refused every float)
    clf = Perceptron(order="first").fit(np.array(TEXTBOOK_X, dtype=float), TEXTBOOK_Y)
    assert clf.w_ == (-3, 1, 1)


def test_text_is_read_as_exact_decimals_and_gives_a_different_run_than_floats():
    X_text = [["0.1", "0.2"], ["0.3", "-0.1"], ["-0.2", "-0.3"]]
    clf = Perceptron().fit(X_text, [1, 1, -1])
    expected = pla.run(pla.Dataset.from_rows(X_text, [1, 1, -1]))
    assert clf.w_ == expected.w
    assert all(v.denominator in (1, 2, 5, 10) for v in clf.w_)
    scores = clf.exact_decision_function([["0.1", "0.2"]])
    assert scores.dtype == object and scores[0] == clf.w_[0] + clf.w_[1] / 10 + clf.w_[2] / 5


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
                          st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)),
                min_size=2, max_size=12),
       st.randoms(use_true_random=False))
def test_estimator_equals_pla_run_on_the_exact_values_of_floats(points, rnd):
    labels = [rnd.choice(["a", "b"]) for _ in points]
    labels[0], labels[1] = "a", "b"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf = Perceptron(max_updates=200).fit(np.array(points), labels)
    exact_points = [[Fraction(a), Fraction(b)] for a, b in points]
    expected = pla.run(pla.Dataset.from_rows(exact_points, [1 if v == "b" else -1 for v in labels]),
                       max_updates=200, keep_steps=False)
    assert clf.w_ == expected.w and clf.n_updates_ == expected.updates
    assert clf.converged_ == expected.halted
    scores = clf.exact_decision_function(np.array(points))
    predicted = clf.predict(np.array(points))
    assert [p == "b" for p in predicted] == [s >= 0 for s in scores]


def test_decision_function_is_the_float_of_the_exact_score():
    clf = Perceptron(order="first").fit(TEXTBOOK_X, TEXTBOOK_Y)
    X = [[Fraction(1, 3), 2], [0, 0]]
    assert clf.exact_decision_function(X).tolist() == [Fraction(-2, 3), Fraction(-3)]
    assert clf.decision_function(X).tolist() == [float(Fraction(-2, 3)), -3.0]
    assert clf.exact_score(TEXTBOOK_X + [[0, 0]], TEXTBOOK_Y + [1]) == Fraction(3, 4)
    assert clf.score(TEXTBOOK_X + [[0, 0]], TEXTBOOK_Y + [1]) == 0.75


# ----------------------------------------------------------------------------- labels
def test_any_two_labels_map_to_minus_and_plus_one_in_sorted_order():
    for labels, classes in (([0, 0, 1], [0, 1]), (["spam", "spam", "ham"], ["ham", "spam"]),
                            ([True, True, False], [False, True])):
        y = [labels[2] if v < 0 else labels[0] for v in TEXTBOOK_Y]
        clf = Perceptron(order="first").fit(TEXTBOOK_X, y)
        assert clf.classes_.tolist() == classes
        assert clf.predict(TEXTBOOK_X).tolist() == y
    # classes_[0] is -1: relabelling 1/-1 as "b"/"a" gives the same run, swapped gives -w
    same = Perceptron(order="first").fit(TEXTBOOK_X, ["b", "b", "a"])
    swapped = Perceptron(order="first").fit(TEXTBOOK_X, ["a", "a", "b"])
    assert same.w_ == (-3, 1, 1)
    assert swapped.w_ == pla.run(pla.Dataset.from_rows(TEXTBOOK_X, [-1, -1, 1]), "first").w


@pytest.mark.parametrize("y, message", [
    ([1, 1, 1], r"needs exactly two classes, but y has 1 class"),
    ([0, 1, 2], r"Only binary classification is supported.*3 classes"),
    ([0.5, 1.5, 2.25], r"Unknown label type"),
])
def test_one_or_three_classes_are_refused_clearly(y, message):
    for estimator in (Perceptron(), Pocket()):
        with pytest.raises(ValueError, match=message):
            estimator.fit(TEXTBOOK_X, y)


def test_bad_features_are_refused():
    with pytest.raises(ValueError, match="NaN"):
        Perceptron().fit([[1.0], [float("nan")]], [0, 1])
    with pytest.raises(ValueError, match="not an exact number"):
        Perceptron().fit([["1"], ["one"]], [0, 1])
    with pytest.raises(TypeError, match="string or a number"):
        exact_number({"a": 1})
    with pytest.raises(NotFittedError):
        Pocket().predict([[1]])
    with pytest.raises(pla.OptionError, match="learning rate"):
        Perceptron(eta=-1).fit(TEXTBOOK_X, TEXTBOOK_Y)
    with pytest.raises(pla.OptionError, match="max_updates"):
        Pocket(max_updates=2.5).fit(TEXTBOOK_X, TEXTBOOK_Y)


# ----------------------------------------------------------------------------- budgets, seeds
def test_a_budget_that_stops_fit_warns():
    X, y = [[0], [1], [2], [3]], [0, 1, 0, 1]
    with pytest.warns(ConvergenceWarning, match="max_updates=7 after 7 updates"):
        clf = Perceptron(max_updates=7).fit(X, y)
    assert not clf.converged_ and clf.n_updates_ == 7
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Perceptron().fit(TEXTBOOK_X, TEXTBOOK_Y)       # converges: no warning
        Pocket(max_updates=5).fit(X, y)                 # Pocket stops at its budget by design


def test_random_state_int_is_the_seed_of_pla_run():
    ds = pla.Dataset.from_rows(TEXTBOOK_X, TEXTBOOK_Y)
    for seed in range(5):
        clf = Perceptron(order="random-cycle", random_state=seed).fit(TEXTBOOK_X, TEXTBOOK_Y)
        assert clf.seed_ == seed
        assert clf.w_ == pla.run(ds, "random-cycle", seed=seed).w
    a = Perceptron(order="random", random_state=np.random.RandomState(3)).fit(TEXTBOOK_X, TEXTBOOK_Y)
    b = Perceptron(order="random", random_state=np.random.RandomState(3)).fit(TEXTBOOK_X, TEXTBOOK_Y)
    assert a.seed_ == b.seed_ and a.w_ == b.w_


def test_pocket_equals_pla_pocket():
    from pla.pocket import pocket

    X, y = [[0], [1], [2], [3], ["1/2"]], [-1, 1, -1, 1, 1]
    for keep in ("pocket", "last"):
        clf = Pocket(max_updates=30, order="random", keep=keep, random_state=4).fit(X, y)
        result = pocket(pla.Dataset.from_rows(X, y), 30, order="random", seed=4, keep=keep)
        assert clf.w_ == result.w and clf.mistakes_ == result.mistakes
        assert clf.training_error_ == result.error and clf.n_updates_ == result.updates
        # training counts a zero score as a mistake; predict gives it classes_[1] (= +1)
        scores = clf.exact_decision_function(X).tolist()
        zero_positive = sum(1 for s, label in zip(scores, y) if s == 0 and label == 1)
        assert clf.exact_score(X, y) == 1 - result.error + Fraction(zero_positive, len(y))
    assert zero_positive > 0  # the last run above (w = 0) exercises the difference


# ----------------------------------------------------------------------------- inputs
def test_sparse_and_dataframe_inputs():
    import pandas as pd
    from scipy import sparse

    dense = Perceptron(order="first").fit(TEXTBOOK_X, TEXTBOOK_Y)
    sparse_fit = Perceptron(order="first").fit(sparse.csr_matrix(np.array(TEXTBOOK_X)), TEXTBOOK_Y)
    assert sparse_fit.w_ == dense.w_
    frame = pd.DataFrame(TEXTBOOK_X, columns=["height", "width"])
    framed = Perceptron(order="first").fit(frame, TEXTBOOK_Y)
    assert framed.w_ == dense.w_ and framed.feature_names_in_.tolist() == ["height", "width"]
    assert framed.predict(frame).tolist() == TEXTBOOK_Y


# ----------------------------------------------------------------------------- scikit-learn tools
def test_clone_pipeline_cross_val_score_and_grid_search():
    rng = np.random.RandomState(0)
    X = rng.uniform(-1, 1, size=(60, 2))
    y = np.where(X[:, 0] + 2 * X[:, 1] > 0.1, "pos", "neg")
    model = make_pipeline(FunctionTransformer(lambda Z: 10 * Z), Perceptron())
    scores = cross_val_score(model, X, y, cv=3)
    assert scores.shape == (3,) and scores.min() >= 0.8
    copy = clone(Pocket(max_updates=7, order="cyclic"))
    assert copy.get_params()["max_updates"] == 7 and not hasattr(copy, "w_")
    search = GridSearchCV(Pocket(random_state=0), {"max_updates": [1, 40]}, cv=3).fit(X, y)
    assert search.best_params_ == {"max_updates": 40}
    assert search.best_estimator_.converged_ in (True, False)


# ----------------------------------------------------------------------------- import rules
def test_import_pla_does_not_import_sklearn_or_verify():
    code = ("import sys, pla; assert 'sklearn' not in sys.modules; "
            "assert not any(m == 'verify' or m.startswith('verify.') for m in sys.modules); "
            "pla.Perceptron; assert 'sklearn' in sys.modules; "
            "assert not any(m == 'verify' or m.startswith('verify.') for m in sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)


# ----------------------------------------------------------------------------- the checked estimators
@parametrize_with_checks(
    [CheckedPerceptron(max_updates=300), CheckedPocket(max_updates=20)],
    expected_failed_checks=lambda estimator: EXPECTED_FAILED_CHECKS,
)
def test_sklearn_estimator_checks_of_the_checked_estimators(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


def test_checked_perceptron_stores_the_monitor_report():
    clf = CheckedPerceptron(order="first").fit(TEXTBOOK_X, ["no" if v < 0 else "yes" for v in TEXTBOOK_Y])
    report = clf.certificate_
    assert report.violations == 0 and report.checks > 0 and report.updates == clf.n_updates_ == 7
    assert report.wf_kind == "max-margin" and clf.n_updates_ <= report.bound
    assert clf.w_ == Perceptron(order="first").fit(TEXTBOOK_X, TEXTBOOK_Y).w_
    unchecked = CheckedPerceptron(order="first", check=False).fit(TEXTBOOK_X, TEXTBOOK_Y)
    assert unchecked.certificate_ is None and unchecked.w_ == clf.w_
    with pytest.raises(pla.OptionError, match="timeout cannot be combined with check=True"):
        CheckedPerceptron(timeout=1.0).fit(TEXTBOOK_X, TEXTBOOK_Y)


def test_checked_perceptron_fit_raises_the_proof_violation(monkeypatch):
    import verify.checks.monitor
    from verify import ProofViolation

    # a monitor told the wrong rho must find the inner-product inequality false
    original = verify.checks.monitor.Monitor.__init__

    def wrong_rho(self, dataset, options, wf, *args, rho=None, **kwargs):
        original(self, dataset, options, wf, *args, rho=None if rho is None else rho * 1000,
                 **kwargs)

    monkeypatch.setattr(verify.checks.monitor.Monitor, "__init__", wrong_rho)
    with pytest.raises(ProofViolation, match="fails"):
        CheckedPerceptron(order="first").fit(TEXTBOOK_X, TEXTBOOK_Y)


def test_checked_pocket_checks_every_fit(monkeypatch):
    import verify.checks.pocket
    from pla.pocket import PocketProblem

    X, y = [[0], [1], [2], [3]], [0, 1, 0, 1]
    clf = CheckedPocket(max_updates=10, random_state=2).fit(X, y)
    assert len(clf.certificate_) == 3 and clf.w_ == Pocket(max_updates=10, random_state=2).fit(X, y).w_
    original = PocketProblem.run

    def lying_run(self, seed=0):
        import dataclasses
        result = original(self, seed)
        return dataclasses.replace(result, mistakes=result.mistakes + 1)

    monkeypatch.setattr(PocketProblem, "run", lying_run)
    with pytest.raises(verify.checks.pocket.PocketCheckFailed, match="reported training mistakes"):
        CheckedPocket(max_updates=10, random_state=2).fit(X, y)


# ----------------------------------------------------------------------------- the docs page
SKLEARN_PAGE = Path(__file__).resolve().parent.parent / "docs" / "sklearn.md"
API_PAGE = Path(__file__).resolve().parent.parent / "docs" / "reference" / "api.md"


@pytest.mark.parametrize("page, examples", [(SKLEARN_PAGE, 20), (API_PAGE, 10)])
def test_the_docs_page_examples_run(page, examples):
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= examples and result.failed == 0


def test_the_docs_page_repeats_every_expected_failure():
    page = SKLEARN_PAGE.read_text(encoding="utf-8")
    if EXPECTED_FAILED_CHECKS:
        for check, reason in EXPECTED_FAILED_CHECKS.items():
            assert check in page and reason in page, check
    else:
        assert "There are no expected failures" in page
