"""Label noise for example data: the non-separable sets the Pocket algorithm is for.

Points come from :func:`pla.generate.separable_data` (one random hyperplane, a margin); then a
fraction of the labels is flipped -- exactly round(fraction·N) of them, chosen by the seed.  A
training set and a test set drawn together share the hyperplane, and each gets its own exact
share of flipped labels.

>>> labels = [1, 1, -1, -1, 1, -1, 1, -1, 1, 1]
>>> flipped = flip_labels(labels, "1/5", seed=1)
>>> sum(a != b for a, b in zip(labels, flipped))
2
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Sequence

from pla.exact import to_fraction
from pla.generate import separable_data

__all__ = ["flip_labels", "noisy_data"]


def flip_labels(labels: Sequence[int], fraction: object, seed: int = 0) -> list[int]:
    """``labels`` with exactly round(fraction·N) of them negated (positions chosen by ``seed``).

    >>> flip_labels([1, 1, 1, 1], "1/2", seed=0).count(-1)
    2
    >>> flip_labels([1, -1], 0)
    [1, -1]
    """
    share = to_fraction(fraction)
    if not 0 <= share <= 1:
        raise ValueError(f"the fraction of flipped labels must be in [0, 1], not {share}")
    count = round(share * len(labels))
    chosen = set(random.Random(f"pla-verify-flip/{seed}").sample(range(len(labels)), count))
    return [-y if i in chosen else y for i, y in enumerate(labels)]


def noisy_data(n: int, d: int, margin: object, flip: object, seed: int = 0, test_n: int = 0
               ) -> tuple[list[tuple[Fraction, ...]], list[int], list[tuple[Fraction, ...]],
                          list[int]]:
    """Training (n points) and test (test_n points) data from one hyperplane, labels flipped.

    >>> train, y, test, y_test = noisy_data(20, 2, "1/20", "1/10", seed=3, test_n=10)
    >>> len(train), len(test), len(y), len(y_test)
    (20, 10, 20, 10)
    """
    rows, labels = separable_data(n + test_n, d, margin, seed)
    train_labels = flip_labels(labels[:n], flip, seed)
    test_labels = flip_labels(labels[n:], flip, seed + 1)
    return rows[:n], train_labels, rows[n:], test_labels
