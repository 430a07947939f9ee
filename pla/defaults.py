"""The one table of defaults: ``pla run`` and :func:`pla.run`, ``pla pocket`` and :func:`pla.pocket`.

The command line (``verify/cli/run.py``, ``verify/cli/pocket.py``), the Python functions
(:func:`pla.run`, :func:`pla.pocket`, :func:`pla.repeat`) and the option records
(:class:`pla.runs.RunOptions`, :class:`pla.pocket.PocketOptions`) all take their defaults from
here, so that ``pla run DATA`` and ``pla.run(pla.load(DATA))`` are the same run;
``tests/test_api.py`` checks it through the argument parser and the signatures.

>>> RUN_DEFAULTS["order"], RUN_DEFAULTS["max_updates"], POCKET_DEFAULTS["order"]
('cyclic', 1000000, 'random-cycle')
>>> REPEAT_DEFAULTS["jobs"]
1

The scikit-learn estimators keep smaller budgets on purpose (:data:`ESTIMATOR_DEFAULTS`):
``fit`` runs inside cross-validation and grid searches, many times over, and warns with a
``ConvergenceWarning`` when its budget stops a run.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

__all__ = ["RUN_DEFAULTS", "POCKET_DEFAULTS", "REPEAT_DEFAULTS", "ESTIMATOR_DEFAULTS"]

#: ``pla run`` / :func:`pla.run`: visiting order, seed of the random orders, learning rate η,
#: initial weights w₀ (None: zero), sign(0) convention, update budget, time budget (seconds;
#: None: none), engine.
RUN_DEFAULTS: Mapping[str, Any] = MappingProxyType({
    "order": "cyclic",
    "seed": 0,
    "eta": 1,
    "w0": None,
    "zero": "mistake",
    "max_updates": 1_000_000,
    "timeout": None,
    "engine": "default",
})

#: ``pla pocket`` / :func:`pla.pocket` (the number of updates has no default: it is the
#: algorithm's budget N and always given).
POCKET_DEFAULTS: Mapping[str, Any] = MappingProxyType({
    "order": "random-cycle",
    "seed": 0,
    "eta": 1,
    "w0": None,
    "zero": "mistake",
    "compare": "pocket",
    "keep": "pocket",
    "engine": "default",
})

#: ``--runs K --jobs J`` / :func:`pla.repeat`: worker processes (1: none; 0: one per CPU).
REPEAT_DEFAULTS: Mapping[str, Any] = MappingProxyType({"jobs": 1})

#: :class:`pla.Perceptron` and :class:`pla.Pocket`: their ``max_updates``.
ESTIMATOR_DEFAULTS: Mapping[str, Any] = MappingProxyType({
    "perceptron_max_updates": 100_000,
    "pocket_max_updates": 50,
})
