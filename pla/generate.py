"""Exact example data: linearly separable points with a guaranteed margin.

Points have 3-decimal coordinates in [−1, 1]^d; the labels come from a random hyperplane
w·x + b = 0 (small integer w, b through a point near the centre), and only points at geometric
distance at least γ from it are kept: (w·x + b)² ≥ γ²‖w‖², checked exactly.

>>> rows, labels = separable_data(5, 2, "1/10", seed=3)
>>> len(rows), len(rows[0]), sorted(set(labels)) in ([-1, 1], [-1], [1])
(5, 2, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable

from pla.exact import to_fraction
from pla.files import SafeOutput

__all__ = ["separable_data", "separable_sample", "SeparableSample", "write_dat", "MarginTooLarge"]

_GRID = 1000  # coordinates are multiples of 1/1000


class MarginTooLarge(ValueError):
    """No points at that distance from the hyperplane fit in [−1, 1]^d often enough."""


@dataclass(frozen=True)
class SeparableSample:
    """Generated points, their labels, and the hyperplane w·x + b = 0 that labelled them."""

    rows: list[tuple[Fraction, ...]]
    labels: list[int]
    w: tuple[int, ...]
    b: Fraction
    margin: Fraction


def separable_data(n: int, d: int, margin: object, seed: int = 0
                   ) -> tuple[list[tuple[Fraction, ...]], list[int]]:
    """``n`` points in [−1, 1]^d with labels ±1 separated with geometric margin ≥ ``margin``."""
    sample = separable_sample(n, d, margin, seed)
    return sample.rows, sample.labels


def separable_sample(n: int, d: int, margin: object, seed: int = 0) -> SeparableSample:
    """Like :func:`separable_data`, also returning the labelling hyperplane.

    >>> s = separable_sample(3, 2, "1/4", seed=1)
    >>> all((sum(a * b for a, b in zip(s.w, x)) + s.b) ** 2 >= s.margin ** 2 * sum(a * a for a in s.w)
    ...     for x in s.rows)
    True
    """
    if n < 1 or d < 1:
        raise ValueError("need n >= 1 and d >= 1")
    gamma = to_fraction(margin)
    if gamma < 0:
        raise ValueError("the margin must be non-negative")
    rng = random.Random(seed)
    w = [0] * d
    while not any(w):
        w = [rng.randint(-5, 5) for _ in range(d)]
    centre = [Fraction(rng.randint(-3, 3), 10) for _ in range(d)]
    b = -sum((wi * ci for wi, ci in zip(w, centre)), Fraction(0))
    bound = gamma * gamma * sum(wi * wi for wi in w)
    rows: list[tuple[Fraction, ...]] = []
    labels: list[int] = []
    attempts = 0
    while len(rows) < n:
        attempts += 1
        if attempts > 2000 * n + 10000:
            raise MarginTooLarge(f"margin {gamma} is too large for {d}-dimensional points in "
                                 "[-1, 1]^d; try a smaller --margin")
        x = tuple(Fraction(rng.randint(-_GRID, _GRID), _GRID) for _ in range(d))
        s = sum((wi * xi for wi, xi in zip(w, x)), b)
        if s != 0 and s * s >= bound:
            rows.append(x)
            labels.append(1 if s > 0 else -1)
    return SeparableSample(rows, labels, tuple(w), b, gamma)


def _decimal(value: Fraction) -> str:
    sign = "-" if value < 0 else ""
    value = abs(value)
    whole, rest = divmod(value.numerator * _GRID // value.denominator, _GRID)
    return f"{sign}{whole}.{rest:03d}"


def write_dat(path: str, rows: list[tuple[Fraction, ...]], labels: list[int],
              others: Iterable[str | None] = ()) -> None:
    """Write rows and labels in the ``dat`` format (features, a tab, the label) through
    :class:`~pla.files.SafeOutput`: atomically, never over a directory or a device, never to a
    name in ``others`` (the command's other outputs).  Raises :class:`~pla.files.OutputRefused`.
    """
    with SafeOutput(path, others=others, prefix=".data-") as out:
        for x, y in zip(rows, labels):
            out.write(" ".join(_decimal(v) for v in x) + f"\t{y:+d}\n")
        out.commit()
