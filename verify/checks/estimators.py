"""Proof-checked scikit-learn estimators: :class:`CheckedPerceptron` and :class:`CheckedPocket`.

``pla`` never imports ``verify``, so the checks cannot live in :mod:`pla.estimators`.  They are
added here, from the ``verify`` side, by subclassing: :class:`pla.Perceptron` and
:class:`pla.Pocket` run their algorithm in one method, ``_run``, and the subclasses below
override it with the checked run.  Everything else (validation, labels, fitted attributes,
scikit-learn compatibility) is inherited, and ``check=False`` makes them behave exactly like
their parents.

- :class:`CheckedPerceptron` with ``check=True`` runs PLA under the proof monitor
  (:func:`verify.checks.checked_run.checked_run`: w_f is the exact max-margin separator whose KKT
  certificate the kernel checks; every inequality of Novikoff's proof is checked exactly at
  every update) and stores the monitor's report as ``certificate_``.  A violated inequality
  raises :class:`verify.ProofViolation` from ``fit``.
- :class:`CheckedPocket` with ``check=True`` checks the run independently
  (:mod:`verify.checks.pocket`: the pocket's mistakes never increase, ``pla.run`` replays the
  walk, the kernel recounts the mistakes) and stores the list of checks made as
  ``certificate_``.  A failed check raises :class:`verify.checks.pocket.PocketCheckFailed`.

>>> clf = CheckedPerceptron(order="first").fit([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> clf.n_updates_, clf.certificate_.violations, clf.certificate_.bound, clf.certificate_.wf_kind
(7, 0, Fraction(117, 1), 'max-margin')
"""

from __future__ import annotations

from typing import Any

from pla.dataset import Dataset
from pla.defaults import ESTIMATOR_DEFAULTS
from pla.estimators import Perceptron, Pocket
from pla.perceptron import OptionError, Result, RunOptions

__all__ = ["CheckedPerceptron", "CheckedPocket"]


class CheckedPerceptron(Perceptron):
    """:class:`pla.Perceptron` whose ``fit`` checks every step against the convergence proof.

    Fitted, besides :class:`pla.Perceptron`'s attributes: ``certificate_``, the
    :class:`verify.checks.monitor.MonitorReport` of the run (w_f, ρ, R², the bound, the number of
    inequalities checked, 0 violations), or None when ``check=False``.
    """

    def __init__(self, order: str = "cyclic", *, eta: object = 1, zero: str = "mistake",
                 max_updates: int = ESTIMATOR_DEFAULTS["perceptron_max_updates"], timeout: float | None = None,
                 fit_intercept: bool = True, random_state: Any = None,
                 check: bool = True) -> None:
        super().__init__(order, eta=eta, zero=zero, max_updates=max_updates, timeout=timeout,
                         fit_intercept=fit_intercept, random_state=random_state)
        self.check = check

    def _run(self, dataset: Dataset, options: RunOptions) -> Result:
        if not self.check:
            self.certificate_ = None
            return super()._run(dataset, options)
        if self.timeout is not None:
            raise OptionError("timeout cannot be combined with check=True (a checked run "
                              "always runs to its end or to max_updates)")
        from verify.checks.checked_run import checked_run

        checked = checked_run(dataset, options=options)
        self.certificate_ = checked.report
        return checked.result

    def _what_is_known(self, result: Result, dataset: Dataset) -> str:
        report = getattr(self, "certificate_", None)
        if report is None:
            return super()._what_is_known(result, dataset)
        if report.wf is None:
            return ("the data are NOT linearly separable (Gordan certificate checked by the "
                    "kernel): no budget is enough; pla.Pocket keeps the best w it meets")
        from verify.present.numbers import bound_text

        start = "w0 = 0" if report.classical else "this w0"
        return (f"the data ARE linearly separable ({report.wf_kind.split(':')[0]} certificate "
                f"checked by the kernel): from {start} PLA halts after at most "
                f"T ≤ {bound_text(report.bound_updates)} updates (Novikoff's bound), so "
                f"max_updates={report.bound_updates} is enough")


class CheckedPocket(Pocket):
    """:class:`pla.Pocket` whose ``fit`` checks the run independently (see the module doc).

    Fitted, besides :class:`pla.Pocket`'s attributes: ``certificate_``, the tuple of the
    checks the run passed, or None when ``check=False``.

    >>> clf = CheckedPocket(max_updates=10, order="cyclic").fit([[0], [1], [2], [3]], [0, 1, 0, 1])
    >>> clf.mistakes_, len(clf.certificate_)
    (1, 3)
    """

    def __init__(self, max_updates: int = ESTIMATOR_DEFAULTS["pocket_max_updates"], *, order: str = "random-cycle", eta: object = 1,
                 zero: str = "mistake", compare: str = "pocket", keep: str = "pocket",
                 fit_intercept: bool = True, random_state: Any = None,
                 check: bool = True) -> None:
        super().__init__(max_updates, order=order, eta=eta, zero=zero, compare=compare,
                         keep=keep, fit_intercept=fit_intercept, random_state=random_state)
        self.check = check

    def _run(self, dataset: Dataset, options: Any, seed: int) -> Any:
        if not self.check:
            self.certificate_ = None
            return super()._run(dataset, options, seed)
        from pla.pocket import PocketProblem
        from verify.checks.pocket import checked_pocket_run, checks_made

        result = checked_pocket_run(PocketProblem.prepare(dataset, options), seed)
        self.certificate_ = checks_made(options.compare)
        return result
