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
from time import monotonic
from typing import Callable, Literal

from pla.exact import to_fraction

__all__ = [
    "ORDERS", "ZERO_CONVENTIONS", "ENGINES", "DEFAULT_MAX_UPDATES", "StepCallback",
    "RunOptions", "Step", "Result", "Budget", "is_mistake", "visiting_order", "OptionError",
]


Order = Literal["cyclic", "first", "random-cycle", "random"]
Zero = Literal["mistake", "positive", "negative", "correct"]
ORDERS: tuple[str, ...] = ("cyclic", "first", "random-cycle", "random")
ZERO_CONVENTIONS: tuple[str, ...] = ("mistake", "positive", "negative", "correct")
ENGINES: tuple[str, ...] = ("default", "reference")
DEFAULT_MAX_UPDATES = 1_000_000


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

    order: str = "cyclic"
    seed: int = 0
    eta: Fraction = Fraction(1)
    w0: tuple[Fraction, ...] | None = None
    zero: str = "mistake"
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
        if self.w0 is not None:
            object.__setattr__(self, "w0", tuple(to_fraction(v) for v in self.w0))
        if not isinstance(self.max_updates, int) or self.max_updates < 0:
            raise OptionError("max_updates must be a non-negative integer")
        if not isinstance(self.seed, int):
            raise OptionError("seed must be an integer")

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
    """The outcome of a run: final ``w`` (bias first), counts, and the recorded steps."""

    w: tuple[Fraction, ...]
    updates: int
    epochs: int
    halted: bool
    options: RunOptions
    steps: tuple[Step, ...] = field(default=(), repr=False)
    #: Why a run that did not halt stopped: ``"max-updates"``, ``"timeout"`` or
    #: ``"max-trace-bytes"`` (None if halted).
    stopped_by: str | None = None


StepCallback = Callable[[Step], None]


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


