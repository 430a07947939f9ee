"""pla: the Perceptron Learning Algorithm in exact arithmetic, every step recorded.

Role: computes (data, engines, Pocket, traces); never imports :mod:`verify`, never sympy.

The public surface is small (``pla.__all__``): read data (:func:`load`, :func:`loads`,
:class:`Dataset`), run (:func:`run`, :func:`pocket`, :func:`repeat`, with the keyword arguments
and the defaults of ``pla run`` and ``pla pocket``: :mod:`pla.defaults`), and the results
(:class:`Result`, :class:`PocketResult`, :class:`PlaExperiment`, :class:`PocketExperiment`:
frozen dataclasses with ``to_json()``), the scikit-learn estimators :class:`Perceptron` and
:class:`Pocket`, and the two errors.  Everything else lives in submodules (``pla.formats``,
``pla.fast_engine``, ...).

>>> import pla
>>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> r = pla.run(ds, order="first")
>>> r.updates, [str(v) for v in r.w]
(7, ['-3', '1', '1'])
>>> pla.pocket(pla.Dataset.from_rows([[0], [1], [2], [3]], [-1, 1, -1, 1]), 20).mistakes
2

This package never imports :mod:`verify` and never imports sympy.  :func:`pocket`,
:func:`repeat` and the estimators are loaded on first use, so that ``import pla`` imports
neither numpy nor scikit-learn.
"""

from pla.dataset import DataError, Dataset
from pla.formats import load, loads
from pla.perceptron import run
from pla.runs import OptionError, Result

# Kept for the project's older callers (``pla.RunOptions(...)``, ``pla.ORDERS``, ...); not part
# of the public surface below.
from pla.exact import format_fraction, parse_fraction, parse_number
from pla.formats import FORMATS
from pla.runs import (DEFAULT_MAX_UPDATES, ENGINES, ORDERS, ZERO_CONVENTIONS, RunOptions, Step,
                      is_mistake)

__all__ = [
    "load", "loads", "Dataset", "run", "pocket", "repeat", "Result", "PocketResult",
    "PlaExperiment", "PocketExperiment", "Perceptron", "Pocket", "DataError", "OptionError",
]
__version__ = "0.1.0"

#: Names served lazily from their modules (PEP 562): numpy and scikit-learn load on first use.
_LAZY = {
    "pocket": "pla.pocket", "PocketResult": "pla.pocket", "repeat": "pla.experiments",
    "PlaExperiment": "pla.experiments", "PocketExperiment": "pla.experiments",
    "Perceptron": "pla.estimators", "Pocket": "pla.estimators",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pla' has no attribute {name!r}")
    import importlib

    loaded = importlib.import_module(module)
    if name == "pocket":  # the module pla.pocket is itself callable: pla.pocket(dataset, updates)
        return loaded
    return getattr(loaded, name)


def __dir__() -> list[str]:
    return sorted(__all__)
