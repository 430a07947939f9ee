"""What a PLA run is: its options, its recorded steps, its result, its budget and visiting orders.

These records are shared by both engines (:mod:`pla.fast_engine`, the reference engine in
:mod:`pla.perceptron`) and by :mod:`pla.pocket`; this module imports no engine, so the engines
never import each other.

>>> RunOptions(order="first").order
'first'
>>> is_mistake(0, 1), is_mistake(0, 1, zero="positive")
(True, False)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from time import monotonic
from typing import Any, Callable, Iterable, Literal

from pla.defaults import RUN_DEFAULTS
from pla.exact import to_fraction

__all__ = [
    "ORDERS", "ZERO_CONVENTIONS", "ENGINES", "DEFAULT_MAX_UPDATES", "StepCallback",
    "RunOptions", "Step", "Result", "Budget", "is_mistake", "visiting_order", "OptionError",
    "exact_texts",
]


Order = Literal["cyclic", "first", "random-cycle", "random"]
Zero = Literal["mistake", "positive", "negative", "correct"]
ORDERS: tuple[str, ...] = ("cyclic", "first", "random-cycle", "random")
ZERO_CONVENTIONS: tuple[str, ...] = ("mistake", "positive", "negative", "correct")
ENGINES: tuple[str, ...] = ("default", "reference")
#: The update budget of ``pla run`` and :func:`pla.run` (:data:`pla.defaults.RUN_DEFAULTS`).
DEFAULT_MAX_UPDATES: int = RUN_DEFAULTS["max_updates"]


class OptionError(ValueError):
    """An option that makes no sense (unknown order, η ≤ 0, a w₀ of the wrong length, ...)."""


def is_mistake(score: Fraction | int, y: int, zero: str = "mistake") -> bool:
    """Whether a point with label ``y`` and score ``w·x`` is a mistake under a sign(0) convention.

    ``mistake``: y·w·x ≤ 0 (a zero score is a mistake).  ``positive``: sign(0) = +1.
    ``negative``: sign(0) = −1.  ``correct``: only y·w·x < 0 (a zero score is never a mistake).

    >>> [is_mistake(0, 1, z) for z in ("mistake", "positive", "negative", "correct")]
    [True, False, True, False]
    >>> [is_mistake(0, -1, z) for z in ("mistake", "positive", "negative", "correct")]
    [True, True, False, False]
    """
    if score != 0:
        return (score > 0) != (y > 0)
    if zero == "mistake":
        return True
    if zero == "positive":
        return y < 0
    if zero == "negative":
        return y > 0
    if zero == "correct":
        return False
    raise OptionError(f"unknown zero convention {zero!r}")


@dataclass(frozen=True)
class RunOptions:
    """Everything that determines a run besides the data.

    >>> RunOptions(eta="1/2").eta
    Fraction(1, 2)
    """

    order: str = RUN_DEFAULTS["order"]
    seed: int = RUN_DEFAULTS["seed"]
    eta: Fraction = Fraction(RUN_DEFAULTS["eta"])
    w0: tuple[Fraction, ...] | None = RUN_DEFAULTS["w0"]
    zero: str = RUN_DEFAULTS["zero"]
    max_updates: int = DEFAULT_MAX_UPDATES

    def __post_init__(self) -> None:
        if self.order not in ORDERS:
            raise OptionError(f"unknown order {self.order!r} (choose from {', '.join(ORDERS)})")
        if self.zero not in ZERO_CONVENTIONS:
            raise OptionError(f"unknown zero convention {self.zero!r} "
                              f"(choose from {', '.join(ZERO_CONVENTIONS)})")
        eta = to_fraction(self.eta)
        if eta <= 0:
            raise OptionError(f"the learning rate must be positive, not {eta}")
        object.__setattr__(self, "eta", eta)
        if isinstance(self.w0, (str, bytes)):      # "123" is not the weights (1, 2, 3)
            raise OptionError(f"w0 must be a sequence of numbers, not the string {self.w0!r}")
        if self.w0 is not None:
            object.__setattr__(self, "w0", tuple(to_fraction(v) for v in self.w0))
        if not isinstance(self.max_updates, int) or isinstance(self.max_updates, bool) \
                or self.max_updates < 0:
            raise OptionError("max_updates must be a non-negative integer")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise OptionError("seed must be an integer")

    def to_json(self) -> dict[str, Any]:
        """The options as JSON-ready values (exact numbers as strings).

        >>> RunOptions(eta="1/2").to_json()["eta"]
        '1/2'
        """
        return {"order": self.order, "seed": self.seed, "eta": str(self.eta),
                "w0": exact_texts(self.w0), "zero": self.zero, "max_updates": self.max_updates}

    def initial_weights(self, dim: int) -> tuple[Fraction, ...]:
        """w₀ for vectors of length ``dim`` (zeros unless given)."""
        if self.w0 is None:
            return (Fraction(0),) * dim
        if len(self.w0) != dim:
            raise OptionError(f"w0 has {len(self.w0)} entries but the examples have {dim} "
                              "(bias first)")
        return self.w0


@dataclass(frozen=True)
class Step:
    """One update: w_after = w_before + η·y·x, made because x (row ``index``) was a mistake.

    ``t`` counts updates from 0: step ``t`` maps wₜ to wₜ₊₁.  ``score`` is wₜ·x.
    """

    t: int
    index: int
    y: int
    x: tuple[Fraction, ...]
    score: Fraction
    w_before: tuple[Fraction, ...]
    w_after: tuple[Fraction, ...]


@dataclass(frozen=True)
class Result:
    """The outcome of a run: final ``w`` (bias first), counts, and the recorded steps.

    ``dataset`` is the data the run was made on (set by :func:`pla.run`; not part of the
    ``repr`` or of equality).  In Jupyter a result shows as the step player
    (:func:`pla.notebook.result_html`).
    """

    w: tuple[Fraction, ...]
    updates: int
    epochs: int
    halted: bool
    options: RunOptions
    steps: tuple[Step, ...] = field(default=(), repr=False)
    #: Why a run that did not halt stopped: ``"max-updates"``, ``"timeout"`` or
    #: ``"max-trace-bytes"`` (None if halted).
    stopped_by: str | None = None
    dataset: Any = field(default=None, repr=False, compare=False)

    def _repr_html_(self) -> str:
        from pla.notebook import result_html

        return result_html(self)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-ready values: exact numbers as strings, the options included, the
        steps left out (a trace file records them: ``pla run --trace``).

        >>> from pla.dataset import Dataset
        >>> from pla.perceptron import run
        >>> r = run(Dataset.from_rows([[1], [-1]], [1, -1], bias=False), eta="1/2")
        >>> r.to_json()["w"], r.to_json()["halted"], r.to_json()["options"]["eta"]
        (['1/2'], True, '1/2')
        """
        return {"updates": self.updates, "epochs": self.epochs, "halted": self.halted,
                "stopped_by": self.stopped_by, "w": exact_texts(self.w),
                "options": self.options.to_json()}


StepCallback = Callable[[Step], None]


def exact_texts(values: Iterable[Fraction | int] | None) -> list[str] | None:
    """Exact numbers as the strings ``--json`` prints (``p`` or ``p/q``); None stays None.

    >>> exact_texts([Fraction(1, 2), 3]), exact_texts(None)
    (['1/2', '3'], None)
    """
    return None if values is None else [str(v) for v in values]


class Budget:
    """When a run must stop without halting: after ``max_updates`` updates, at a deadline, or
    when ``extra`` = (reason, test) says so (``("max-trace-bytes", writer.full)``).

    Engines ask :meth:`exhausted` before each update; ``reason`` then says which limit was hit
    (``"max-updates"``, ``"timeout"`` or the extra reason).  The deadline is a :func:`time.monotonic` instant.

    >>> b = Budget(3)
    >>> b.exhausted(2), b.exhausted(3), b.reason
    (False, True, 'max-updates')
    """

    def __init__(self, max_updates: int, deadline: float | None = None,
                 extra: "tuple[str, Callable[[], bool]] | None" = None) -> None:
        self.max_updates = max_updates
        self.deadline = deadline
        self.extra = extra
        self.reason: str | None = None

    def exhausted(self, updates: int) -> bool:
        if updates >= self.max_updates:
            self.reason = "max-updates"
            return True
        if self.deadline is not None and monotonic() >= self.deadline:
            self.reason = "timeout"
            return True
        if self.extra is not None and self.extra[1]():
            self.reason = self.extra[0]
            return True
        return False



def visiting_order(n: int, options: RunOptions) -> list[int]:
    """The cyclic visiting order: 0..n−1, or one seeded permutation for ``random-cycle``.

    >>> visiting_order(5, RunOptions(order="random-cycle", seed=1))
    [2, 3, 4, 0, 1]
    """
    order = list(range(n))
    if options.order == "random-cycle":
        random.Random(options.seed).shuffle(order)
    return order


#: ``on_update(t, index, y, score)``: a cheap per-update hook (``score`` = wₜ·xₙ, exact).
UpdateCallback = Callable[[int, int, int, Fraction], None]
#: ``on_scaled_update(t, index, y, s, unit)``: the same hook with the score as two builtin ints,
#: wₜ·xₙ = s / unit exactly (unit > 0, not reduced): no Fraction is built per update.
ScaledUpdateCallback = Callable[[int, int, int, int, int], None]


@dataclass
class EngineStats:
    """How a run was computed (for benchmarks and tests): blocks scanned on each path."""

    float_blocks: int = 0       # (filtered engine: float blocks whose signs are certified)
    int64_blocks: int = 0
    bigint_blocks: int = 0
    rows_scanned: int = 0


def integer_start(ds: "Dataset", options: "RunOptions") -> tuple[int, int, list[int]]:
    """(D, k, W): the weights' common denominator D (w = W / D), the step multiplier k
    (η·xₙ = k·rowₙ / D) and the integers W of w₀.

    >>> from pla.dataset import Dataset
    >>> integer_start(Dataset.from_rows([["1/2"]], [1]), RunOptions(eta="2/3", w0=(1, "1/4")))
    (12, 4, [12, 3])
    """
    eta, L = options.eta, ds.scale
    w0 = options.initial_weights(ds.dim)
    D = lcm(eta.denominator * L, *(v.denominator for v in w0)) if options.w0 is not None \
        else eta.denominator * L
    W = [v.numerator * (D // v.denominator) for v in w0] if options.w0 is not None \
        else [0] * ds.dim
    return D, D * eta.numerator // (eta.denominator * L), W
