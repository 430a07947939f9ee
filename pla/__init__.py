"""pla: the Perceptron Learning Algorithm in exact arithmetic, every step recorded.

Role: computes (data, engines, Pocket, traces); never imports :mod:`verify`, never sympy.

>>> import pla
>>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> r = pla.run(ds, order="first")
>>> r.updates, [str(v) for v in r.w]
(7, ['-3', '1', '1'])

This package never imports :mod:`verify` and never imports sympy.  The scikit-learn estimators
``pla.Perceptron`` and ``pla.Pocket`` (:mod:`pla.estimators`) are loaded on first use, so that
``import pla`` does not import scikit-learn.
"""

from pla.dataset import DataError, Dataset
from pla.exact import format_fraction, parse_fraction, parse_number
from pla.formats import FORMATS, load, loads
from pla.perceptron import (
    DEFAULT_MAX_UPDATES,
    ENGINES,
    ORDERS,
    ZERO_CONVENTIONS,
    OptionError,
    Result,
    RunOptions,
    Step,
    is_mistake,
    run,
)

__all__ = [
    "DataError", "Dataset", "format_fraction", "parse_fraction", "parse_number", "FORMATS",
    "load", "loads", "DEFAULT_MAX_UPDATES", "ENGINES", "ORDERS", "ZERO_CONVENTIONS",
    "OptionError", "Perceptron", "Pocket", "Result", "RunOptions", "Step", "is_mistake", "run",
]
__version__ = "0.1.0"

#: Names served lazily from their modules (PEP 562): scikit-learn is imported on first use only.
_LAZY = {"Perceptron": "pla.estimators", "Pocket": "pla.estimators"}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pla' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
