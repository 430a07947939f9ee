"""scikit-learn estimators that run exact PLA and exact Pocket: :class:`Perceptron`, :class:`Pocket`.

Both are real scikit-learn classifiers (``BaseEstimator`` + ``ClassifierMixin``): ``clone``,
``Pipeline``, ``cross_val_score`` and ``GridSearchCV`` work, and scikit-learn's own estimator
check suite passes (``tests/test_estimators.py``).  Inside, every number is exact:

- **features** are converted to :class:`~fractions.Fraction` without rounding: ints and numpy
  integers as they are; a float (Python or numpy, any width) becomes the exact value of its
  binary representation (``Fraction(0.1)`` is 3602879701896397/36028797018963968, *not* 1/10);
  a :class:`~decimal.Decimal` or a string is read as the decimal it spells (``"0.1"`` is 1/10:
  pass text when you have text); Fractions stay as they are.  numpy arrays, lists, pandas
  DataFrames and scipy sparse matrices (made dense) are accepted;
- **labels** may be any two values: ``classes_`` is their sorted order, ``classes_[0]`` is
  mapped to −1 and ``classes_[1]`` to +1 (scikit-learn's convention: a positive score means
  ``classes_[1]``); one class or three classes are refused with a clear ``ValueError``;
- **fitted attributes** are exact: ``coef_`` (shape (1, n_features)) and ``intercept_``
  (shape (1,)) are numpy ``object`` arrays of Fractions, ``w_`` is the tuple of Fractions bias
  first; ``coef_float_`` and ``intercept_float_`` are float64 views for numpy users.

``decision_function`` and ``score`` return floats, as scikit-learn's scorers and searches
expect; :meth:`Perceptron.exact_decision_function` and :meth:`Perceptron.exact_score` give the
same numbers as Fractions.  ``predict`` decides from the exact score.

This module imports scikit-learn (an optional dependency: ``pip install pla-verify[sklearn]``);
``import pla`` does not import it, and ``pla.Perceptron`` loads it on first use.  It never
imports :mod:`verify`: the proof-checked estimators are :class:`verify.CheckedPerceptron` and
:class:`verify.CheckedPocket`, subclasses that override one method (``_run``).

>>> clf = Perceptron(order="first").fit([[3, 3], [4, 3], [1, 1]], ["yes", "yes", "no"])
>>> clf.classes_.tolist(), clf.n_updates_, clf.converged_
(['no', 'yes'], 7, True)
>>> clf.coef_.tolist(), clf.intercept_.tolist()
([[Fraction(1, 1), Fraction(1, 1)]], [Fraction(-3, 1)])
>>> clf.predict([[0, 0], [5, 5]]).tolist()
['no', 'yes']
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from pla.dataset import Dataset
from pla.defaults import ESTIMATOR_DEFAULTS
from pla.exact import NumberError, format_count, parse_fraction
from pla.perceptron import OptionError, Result, RunOptions, run

__all__ = ["Perceptron", "Pocket", "exact_number", "exact_rows", "EXPECTED_FAILED_CHECKS"]

#: scikit-learn estimator checks that fail by design, with the reason (the docs repeat it).
#: Empty: every check of ``sklearn.utils.estimator_checks`` passes for both estimators.
EXPECTED_FAILED_CHECKS: dict[str, str] = {}

_SEED_LIMIT = 2**31 - 1


def exact_number(value: object) -> Fraction:
    """One feature value as an exact Fraction (see the module docstring for the rules).

    >>> exact_number(0.5), exact_number("0.1"), exact_number(np.int32(-3))
    (Fraction(1, 2), Fraction(1, 10), Fraction(-3, 1))
    >>> exact_number(0.1) == Fraction(3602879701896397, 2**55)   # the binary value of 0.1
    True
    >>> exact_number(float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: Input contains NaN or infinity (nan); features must be finite
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, (bool, np.bool_)):
        return Fraction(int(value))
    if isinstance(value, (int, np.integer)):
        return Fraction(int(value))
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value):
            raise ValueError(f"Input contains NaN or infinity ({value!r}); features must be finite")
        return Fraction(*value.as_integer_ratio())  # exact, whatever the float's width
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"Input contains NaN or infinity ({value!r}); features must be finite")
        return Fraction(value)
    if isinstance(value, str):
        try:
            return parse_fraction(value)
        except NumberError as exc:
            raise ValueError(f"feature {value!r} is not an exact number: {exc}") from None
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    raise TypeError(f"argument must be a string or a number, not {type(value).__name__!r}")


def exact_rows(X: Any) -> list[tuple[Fraction, ...]]:
    """The rows of a 2-D array (dense or scipy sparse) as tuples of exact Fractions.

    >>> exact_rows(np.array([[1.5, 2], [0, -0.25]]))
    [(Fraction(3, 2), Fraction(2, 1)), (Fraction(0, 1), Fraction(-1, 4))]
    """
    if hasattr(X, "toarray"):  # scipy sparse: the engines are dense
        X = X.toarray()
    array = np.asarray(X)
    if array.dtype.kind in "iu":  # integers: one conversion of the whole array
        return [tuple(Fraction(v) for v in row) for row in array.tolist()]
    if array.dtype.kind == "f":
        if not np.isfinite(array).all():
            raise ValueError("Input contains NaN or infinity; features must be finite")
        if array.dtype.itemsize <= 8:  # float16/32/64 → Python float, exactly
            return [tuple(Fraction(*v.as_integer_ratio()) for v in row) for row in array.tolist()]
    return [tuple(exact_number(v) for v in row) for row in array]


def _count(value: object, name: str) -> int:
    """A non-negative integer parameter (numpy integers too); OptionError otherwise."""
    if isinstance(value, (numbers.Integral, np.integer)) and not isinstance(value, bool) \
            and int(value) >= 0:
        return int(value)
    raise OptionError(f"{name} must be a non-negative integer, not {value!r}")


def _seconds(value: Any, name: str) -> float | None:
    """``value`` as a time budget: None, or a positive finite number of seconds.

    >>> _seconds(-1, "timeout")
    Traceback (most recent call last):
    ...
    pla.runs.OptionError: timeout must be None or a positive number of seconds, not -1
    """
    if value is None:
        return None
    if isinstance(value, numbers.Real) and not isinstance(value, bool) \
            and 0 < float(value) < math.inf:
        return float(value)
    raise OptionError(f"{name} must be None or a positive number of seconds, not {value!r}")


def _float_view(values: Sequence[Fraction]) -> np.ndarray:
    """float64 values of exact numbers, ±inf where a number exceeds the float range."""
    out = []
    for v in values:
        try:
            out.append(float(v))
        except OverflowError:   # (math.copysign would convert v to a float again)
            out.append(math.inf if v > 0 else -math.inf)
    return np.array(out, dtype=np.float64)


class _ExactLinearClassifier(ClassifierMixin, BaseEstimator):
    """What :class:`Perceptron` and :class:`Pocket` share: validation, labels, prediction."""

    _estimator_name = "pla estimator"

    # ------------------------------------------------------------------ scikit-learn protocol
    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False   # two classes, mapped to -1/+1
        tags.input_tags.sparse = True              # accepted, made dense
        return tags

    def _validate_training_data(self, X: Any, y: Any) -> tuple[Dataset, int]:
        """Check X and y, set ``classes_``, build the exact :class:`Dataset`; return the seed."""
        X, y = validate_data(self, X, y, accept_sparse=("csr", "csc", "coo"), dtype=None,
                             ensure_all_finite=True)
        check_classification_targets(y)
        classes, encoded = np.unique(y, return_inverse=True)
        name = type(self).__name__
        if len(classes) < 2:
            raise ValueError(f"{name} needs exactly two classes, but y has {len(classes)} class "
                             f"({classes.tolist()!r}); a classifier cannot learn from one class")
        if len(classes) > 2:
            raise ValueError(f"Only binary classification is supported. The type of the target "
                             f"is multiclass: y has {len(classes)} classes "
                             f"({classes.tolist()[:5]!r}{', ...' if len(classes) > 5 else ''}); "
                             f"{name} needs exactly two (use OneVsRestClassifier for more)")
        self.classes_ = classes
        labels = [1 if k == 1 else -1 for k in encoded.tolist()]
        dense = X.toarray() if hasattr(X, "toarray") else np.asarray(X)
        if dense.dtype.kind == "f" and dense.dtype.itemsize <= 8 and dense.ndim == 2:
            dataset = Dataset.from_float_array(dense, labels, bias=self.fit_intercept)  # fast
        else:
            dataset = Dataset.from_rows(exact_rows(X), labels, bias=self.fit_intercept)
        seed = self.random_state
        if not isinstance(seed, numbers.Integral) or isinstance(seed, bool):
            seed = int(check_random_state(seed).randint(_SEED_LIMIT))
        return dataset, int(seed)

    def _store_result(self, seed: int, result: Any, iterations: int) -> None:
        """The fitted attributes both estimators share, from a PLA or Pocket result."""
        self.seed_ = seed
        self.result_ = result
        self._store_weights(result.w)
        self.n_updates_ = result.updates
        self.n_iter_ = iterations
        self.converged_ = result.halted

    def _store_weights(self, w: Sequence[Fraction]) -> None:
        w = tuple(w)
        self.w_ = w
        coef = w[1:] if self.fit_intercept else w
        intercept = w[0] if self.fit_intercept else Fraction(0)
        self.coef_ = np.array([list(coef)], dtype=object).reshape(1, len(coef))
        self.intercept_ = np.array([intercept], dtype=object)
        self.coef_float_ = _float_view(coef).reshape(1, len(coef))
        self.intercept_float_ = _float_view([intercept])

    # ------------------------------------------------------------------ prediction
    def exact_decision_function(self, X: Any) -> np.ndarray:
        """Exact scores w·x + b, one Fraction per row (a numpy ``object`` array).

        A positive score means ``classes_[1]``, a negative one ``classes_[0]``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse=("csr", "csc", "coo"), dtype=None, reset=False,
                          ensure_all_finite=True)
        coef = self.coef_[0].tolist()
        intercept = self.intercept_[0]
        scores = [intercept + sum((c * v for c, v in zip(coef, row)), Fraction(0))
                  for row in exact_rows(X)]
        return np.array(scores, dtype=object)

    def decision_function(self, X: Any) -> np.ndarray:
        """The exact scores w·x + b as float64 (each the float nearest to the exact score)."""
        return _float_view(self.exact_decision_function(X).tolist())

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[1]`` where the exact score is positive, ``classes_[0]`` where negative.

        A zero score predicts ``classes_[1]`` (sign(0) = +1), or ``classes_[0]`` when
        ``zero="negative"``.
        """
        scores = self.exact_decision_function(X)
        zero_is_positive = self.zero != "negative"
        positive = np.array([s > 0 or (s == 0 and zero_is_positive) for s in scores.tolist()],
                            dtype=bool)
        return self.classes_[positive.astype(np.intp)]

    def exact_score(self, X: Any, y: Any) -> Fraction:
        """Exact accuracy on (X, y): correct predictions / number of examples."""
        predicted = self.predict(X)
        truth = np.asarray(y).ravel()
        if len(truth) != len(predicted):
            raise ValueError(f"X has {len(predicted)} rows but y has {len(truth)} labels")
        return Fraction(int(np.sum(predicted == truth)), len(truth))

    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        """Accuracy as a float (what scikit-learn's scorers and searches expect).

        Without ``sample_weight`` it is the nearest float to :meth:`exact_score`.
        """
        if sample_weight is not None:
            return float(super().score(X, y, sample_weight=sample_weight))
        return float(self.exact_score(X, y))


class Perceptron(_ExactLinearClassifier):
    """PLA as a scikit-learn classifier: ``fit`` runs :func:`pla.run` exactly.

    Parameters mean what they mean for :func:`pla.run`: ``order`` (``cyclic``, ``first``,
    ``random-cycle``, ``random``), ``eta`` (a positive rational: an int, a Fraction or a
    string such as ``"1/2"``), ``zero`` (the sign(0) convention), ``max_updates`` (the budget:
    a run that needs more stops and ``fit`` warns with a :class:`ConvergenceWarning`),
    ``timeout`` (seconds, the same), ``fit_intercept`` (prepend x₀ = 1).  ``random_state``
    seeds the random orders: an int is used as the seed itself (``random_state=S`` is the run
    ``pla run --seed S``); None or a ``RandomState`` draws a seed from numpy.

    Fitted: ``classes_``, ``coef_``, ``intercept_``, ``w_`` (exact), ``coef_float_``,
    ``intercept_float_``, ``n_updates_`` (updates), ``n_iter_`` (epochs: passes over the data),
    ``converged_`` (True when no mistake was left), ``seed_`` (the seed used), ``result_`` (the
    :class:`pla.Result`, without the steps), ``n_features_in_``.

    >>> import warnings
    >>> clf = Perceptron(max_updates=5)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = clf.fit([[0], [1], [2], [3]], [0, 1, 0, 1])      # not separable
    >>> clf.converged_, clf.n_updates_, caught[0].category.__name__
    (False, 5, 'ConvergenceWarning')
    """

    def __init__(self, order: str = "cyclic", *, eta: object = 1, zero: str = "mistake",
                 max_updates: int = ESTIMATOR_DEFAULTS["perceptron_max_updates"], timeout: float | None = None,
                 fit_intercept: bool = True, random_state: Any = None) -> None:
        self.order = order
        self.eta = eta
        self.zero = zero
        self.max_updates = max_updates
        self.timeout = timeout
        self.fit_intercept = fit_intercept
        self.random_state = random_state

    def fit(self, X: Any, y: Any) -> "Perceptron":
        """Run PLA on (X, y) exactly; returns ``self``."""
        options = RunOptions(order=self.order, eta=exact_number(self.eta), zero=self.zero,
                             max_updates=_count(self.max_updates, "max_updates"))
        _seconds(self.timeout, "timeout")
        dataset, seed = self._validate_training_data(X, y)
        result = self._run(dataset, replace(options, seed=seed))
        self._store_result(seed, result, iterations=result.epochs)
        if not result.halted:
            limit = (f"max_updates={self.max_updates}" if result.stopped_by == "max-updates"
                     else f"timeout={self.timeout}")
            warnings.warn(f"{type(self).__name__} stopped by {limit} after "
                          f"{format_count(result.updates, 'update')} with a mistake left; "
                          f"{self._what_is_known(result, dataset)}", ConvergenceWarning,
                          stacklevel=2)
        return self

    def _what_is_known(self, result: Result, dataset: Dataset) -> str:
        """What the warning of a run stopped by its budget says about the data: the proven bound
        when pla finds a separator and checks it exactly, else how to decide it
        (:class:`verify.CheckedPerceptron` says what its check proved)."""
        return _what_is_known(dataset)

    def _run(self, dataset: Dataset, options: RunOptions) -> Result:
        """The PLA run behind :meth:`fit` (:class:`verify.CheckedPerceptron` checks it)."""
        return run(dataset, options=options, keep_steps=False, timeout=self.timeout)


def _what_is_known(dataset: Dataset) -> str:
    """The end of the ConvergenceWarning: the proven bound on the updates when a separator is
    found and checked exactly (:mod:`pla.update_bound`), else what may be the matter."""
    from pla.update_bound import MAX_LP_ENTRIES, separator_update_bound

    if dataset.n * dataset.dim > MAX_LP_ENTRIES:
        return ("whether the data are linearly separable was not searched at this size: "
                "verify.certify(...) decides it with a kernel-checked certificate; raise "
                "max_updates, or see pla.Pocket")
    bound = separator_update_bound(dataset)
    if bound is None:
        return ("the data may not be linearly separable (see pla.Pocket), or need a larger "
                "budget: verify.certify(...) decides it with a kernel-checked certificate")
    return (f"the data are linearly separable, and PLA is proven to halt within {bound:,} "
            f"(≈ {bound:.1e}) updates (Novikoff's bound, from a separator checked exactly); "
            "raise max_updates to reach it (verify.certify(...) gives the max-margin bound, "
            "verify.CheckedPerceptron checks the run), or see pla.Pocket")


class Pocket(_ExactLinearClassifier):
    """The Pocket algorithm as a scikit-learn classifier: ``fit`` runs :func:`pla.pocket.pocket`.

    ``max_updates`` is the budget of PLA updates (the homework's 50 or 100); the pocket keeps
    the weights with the fewest training mistakes met so far.  ``order`` defaults to
    ``random-cycle`` (one seeded permutation, then cyclic), as ``pla pocket`` does.
    ``compare`` (``pocket`` or the literal ``previous`` variant) and ``keep`` (``pocket``, or
    ``last`` for the last wₜ of the walk) are those of ``pla pocket``.  Stopping at the budget
    is how Pocket ends, so it gives no warning; ``converged_`` says whether some wₜ made no
    training mistake.  ``random_state`` is read as for :class:`Perceptron`.

    Fitted as :class:`Perceptron`, plus ``mistakes_`` (training mistakes of the returned
    weights), ``training_error_`` (exact), ``pocket_t_`` (the update that produced the pocket);
    ``n_iter_`` equals ``n_updates_`` (one iteration of Pocket is one update).

    >>> clf = Pocket(max_updates=20, order="cyclic").fit([[0], [1], [2], [3]], [0, 1, 0, 1])
    >>> clf.mistakes_, clf.training_error_, clf.w_
    (1, Fraction(1, 4), (Fraction(-1, 1), Fraction(2, 1)))
    """

    def __init__(self, max_updates: int = ESTIMATOR_DEFAULTS["pocket_max_updates"], *, order: str = "random-cycle", eta: object = 1,
                 zero: str = "mistake", compare: str = "pocket", keep: str = "pocket",
                 fit_intercept: bool = True, random_state: Any = None) -> None:
        self.max_updates = max_updates
        self.order = order
        self.eta = eta
        self.zero = zero
        self.compare = compare
        self.keep = keep
        self.fit_intercept = fit_intercept
        self.random_state = random_state

    def fit(self, X: Any, y: Any) -> "Pocket":
        """Run Pocket on (X, y) exactly; returns ``self``."""
        from pla.pocket import PocketOptions

        options = PocketOptions(updates=_count(self.max_updates, "max_updates"),
                                order=self.order, eta=exact_number(self.eta), zero=self.zero,
                                compare=self.compare, keep=self.keep)  # validates them
        dataset, seed = self._validate_training_data(X, y)
        result = self._run(dataset, options, seed)
        self._store_result(seed, result, iterations=result.updates)
        self.mistakes_ = result.mistakes
        self.training_error_ = result.error
        self.pocket_t_ = result.pocket_t
        return self

    def _run(self, dataset: Dataset, options: Any, seed: int) -> Any:
        """The Pocket run behind :meth:`fit` (:class:`verify.CheckedPocket` checks it)."""
        from pla.pocket import PocketProblem

        return PocketProblem.prepare(dataset, options).run(seed)
