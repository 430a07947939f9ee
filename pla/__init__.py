"""pla: the Perceptron Learning Algorithm in exact arithmetic, every step recorded.

Role: computes (data, engines, Pocket, traces); never imports :mod:`verify`, never sympy.

>>> import pla
>>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> r = pla.run(ds, order="first")
>>> r.updates, [str(v) for v in r.w]
(7, ['-3', '1', '1'])

This package never imports :mod:`verify` and never imports sympy.
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
    Perceptron,
    Result,
    RunOptions,
    Step,
    is_mistake,
    run,
)

__all__ = [
    "DataError", "Dataset", "format_fraction", "parse_fraction", "parse_number", "FORMATS",
    "load", "loads", "DEFAULT_MAX_UPDATES", "ENGINES", "ORDERS", "ZERO_CONVENTIONS",
    "OptionError", "Perceptron", "Result", "RunOptions", "Step", "is_mistake", "run",
]
__version__ = "0.1.0"
