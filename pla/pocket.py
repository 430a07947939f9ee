"""The Pocket algorithm, exact: PLA updates, and in the pocket the best weights seen so far.

The walk is PLA's (the same visiting order, the same updates as :func:`pla.run` with the same
options and seed).  After every update the new wₜ₊₁'s training mistakes are counted exactly and
compared with the pocket's; the pocket takes wₜ₊₁ only when it makes **strictly fewer** mistakes
(a tie keeps the older vector).  The pocket starts as w₀ (0 by default) with w₀'s own mistake
count.  After ``updates`` updates -- or earlier, when some wₜ makes no training mistake at all,
so that PLA has nothing left to update -- the pocket is returned (or, with ``keep="last"``, the
final wₜ, for comparison).

Decisions (documented on the Pocket page of the site):

- an *update* is a visit that finds a mistake (under the ``random`` order, a visit to a point
  that is classified correctly is not an update and does not count);
- a *mistake* uses the run's sign(0) convention (default: y·w·x ≤ 0), on training and test data;
- an *error* is mistakes / N as an exact Fraction;
- ``pocket_updates`` counts how many times the pocket was replaced;
- ``compare="previous"`` is the variant one of the notes literally writes: wₜ₊₁ goes into the
  pocket when it makes fewer mistakes than the wₜ it came from (not than the pocket).

>>> from pla.dataset import Dataset
>>> ds = Dataset.from_rows([[0], [1], [2], [3]], [-1, 1, -1, 1])   # not separable
>>> r = pocket(ds, updates=20, order="cyclic")
>>> r.mistakes, str(r.error), r.updates, r.pocket_updates
(1, '1/4', 20, 2)
>>> [str(v) for v in r.w]
['-1', '2']

Mistake counts use numpy ``int64`` matrix products only when a bound proves that no product or
sum can overflow (‖W‖∞·max|x|·dim < 2⁶³ for every weight vector the walk can reach); otherwise
the same code runs on Python integers (numpy ``object`` arrays).  Never a silent wrap-around.
"""

from __future__ import annotations

import inspect
import random
import sys
import types
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Any, Sequence

import numpy as np

from pla.dataset import Dataset
from pla.defaults import POCKET_DEFAULTS
from pla.exact import to_fraction
from pla.perceptron import ORDERS, OptionError, RunOptions, is_mistake, visiting_order
from pla.runs import exact_texts

__all__ = [
    "COMPARES", "KEEPS", "INT64_LIMIT", "PocketOptions", "PocketResult", "PocketProblem",
    "PocketInvariantViolation", "MistakeCounter", "pocket", "count_mistakes", "error_rate",
    "integer_weights",
]

#: What a new wₜ₊₁ is compared with: the pocket (the real algorithm) or the previous wₜ.
COMPARES: tuple[str, ...] = ("pocket", "previous")
#: Which vector a run returns: the pocket, or the last wₜ of the walk.
KEEPS: tuple[str, ...] = ("pocket", "last")
#: Every |value| in an int64 computation must stay below this.
INT64_LIMIT = 2**63


class PocketInvariantViolation(RuntimeError):
    """A checked property of the Pocket run failed (names the property, the step and the values).

    >>> str(PocketInvariantViolation("pocket mistakes increased", 3, "7 > 5"))
    'pocket invariant violated at update 3: pocket mistakes increased (7 > 5)'
    """

    def __init__(self, what: str, step: int, values: str) -> None:
        super().__init__(f"pocket invariant violated at update {step}: {what} ({values})")
        self.what = what
        self.step = step
        self.values = values

    def __reduce__(self) -> tuple[Any, tuple[str, int, str]]:  # survives worker processes
        return (type(self), (self.what, self.step, self.values))


@dataclass(frozen=True)
class PocketOptions:
    """Everything that determines a Pocket run besides the data and the seed.

    ``updates`` is the number of PLA updates (the budget N).  The other fields mean what they
    mean for :func:`pla.run`; ``compare`` and ``keep`` are described in the module docstring.

    >>> PocketOptions(updates=50).order
    'random-cycle'
    >>> PocketOptions(updates=5, compare="wt")
    Traceback (most recent call last):
    ...
    pla.runs.OptionError: unknown pocket comparison 'wt' (choose from pocket, previous)
    """

    updates: int
    order: str = POCKET_DEFAULTS["order"]
    eta: Fraction = Fraction(POCKET_DEFAULTS["eta"])
    w0: tuple[Fraction, ...] | None = POCKET_DEFAULTS["w0"]
    zero: str = POCKET_DEFAULTS["zero"]
    compare: str = POCKET_DEFAULTS["compare"]
    keep: str = POCKET_DEFAULTS["keep"]

    def __post_init__(self) -> None:
        if not isinstance(self.updates, int) or isinstance(self.updates, bool) or self.updates < 0:
            raise OptionError("the number of updates must be a non-negative integer")
        if self.compare not in COMPARES:
            raise OptionError(f"unknown pocket comparison {self.compare!r} "
                              f"(choose from {', '.join(COMPARES)})")
        if self.keep not in KEEPS:
            raise OptionError(f"unknown pocket result {self.keep!r} (choose from {', '.join(KEEPS)})")
        checked = self.run_options(0)  # validates order, eta, w0, zero like pla.run does
        object.__setattr__(self, "eta", checked.eta)
        object.__setattr__(self, "w0", checked.w0)

    def to_json(self) -> dict[str, Any]:
        """The options as JSON-ready values (exact numbers as strings).

        >>> PocketOptions(updates=5, eta="1/2").to_json()["eta"]
        '1/2'
        """
        return {"updates": self.updates, "order": self.order, "eta": str(self.eta),
                "w0": exact_texts(self.w0), "zero": self.zero, "compare": self.compare,
                "keep": self.keep}

    def run_options(self, seed: int, max_updates: int | None = None) -> RunOptions:
        """The :class:`pla.RunOptions` of the PLA walk underneath (for replaying it with pla.run)."""
        return RunOptions(order=self.order, seed=seed, eta=self.eta, w0=self.w0, zero=self.zero,
                          max_updates=self.updates if max_updates is None else max_updates)


@dataclass(frozen=True)
class PocketResult:
    """The outcome of one Pocket run.

    ``w``/``mistakes`` are the returned vector's (the pocket's, or the last wₜ's with
    ``keep="last"``).  The pocket is ``w_{pocket_t}`` of the walk; ``walk_mistakes[t]`` is the
    number of training mistakes of wₜ (t = 0..updates) and ``pocket_mistakes[t]`` the pocket's
    after t updates.  ``halted``: the last wₜ makes no training mistake (PLA stopped early or
    just in time).  ``test_mistakes``/``test_n`` are set when test data were given; they are
    the returned vector's.
    """

    seed: int
    w: tuple[Fraction, ...]
    mistakes: int
    n: int
    pocket_w: tuple[Fraction, ...]
    pocket_t: int
    pocket_updates: int
    last_w: tuple[Fraction, ...]
    updates: int
    halted: bool
    walk_mistakes: tuple[int, ...]
    pocket_mistakes: tuple[int, ...]
    options: PocketOptions
    test_mistakes: int | None = None
    test_n: int | None = None

    @property
    def error(self) -> Fraction:
        """Training error of ``w``: mistakes / N, exact."""
        return Fraction(self.mistakes, self.n)

    @property
    def test_error(self) -> Fraction | None:
        """Test error of ``w`` (None without test data), exact."""
        if self.test_mistakes is None or self.test_n is None:
            return None
        return Fraction(self.test_mistakes, self.test_n)

    @property
    def last_mistakes(self) -> int:
        """Training mistakes of the last wₜ."""
        return self.walk_mistakes[-1]

    def to_json(self) -> dict[str, Any]:
        """The run as JSON-ready values (the ``runs`` entries of ``pla pocket --json``): exact
        errors as strings; the per-update mistake series are left out.

        >>> from pla.dataset import Dataset
        >>> r = pocket(Dataset.from_rows([[0], [1], [2], [3]], [-1, 1, -1, 1]), 20, order="cyclic")
        >>> r.to_json()["train_error"], r.to_json()["w"]
        ('1/4', ['-1', '2'])
        """
        test_error = self.test_error
        return {
            "seed": self.seed,
            "train_error": str(self.error),
            "test_error": None if test_error is None else str(test_error),
            "train_mistakes": self.mistakes,
            "test_mistakes": self.test_mistakes,
            "pocket_updates": self.pocket_updates,
            "pocket_t": self.pocket_t,
            "updates": self.updates,
            "halted": self.halted,
            "last_train_error": str(Fraction(self.last_mistakes, self.n)),
            "w": exact_texts(self.w),
        }


# ----------------------------------------------------------------------------- mistake counting
def integer_weights(w: Sequence[Fraction]) -> tuple[int, ...]:
    """Integers W with W = c·w for some c > 0 (so every sign of w·x is the sign of W·x).

    >>> integer_weights([Fraction(1, 2), Fraction(-1, 3), Fraction(0)])
    (3, -2, 0)
    """
    fractions = [to_fraction(v) for v in w]
    denominator = lcm(1, *(v.denominator for v in fractions))
    return tuple(v.numerator * (denominator // v.denominator) for v in fractions)


def _mistake_mask(scores: Any, positive_label: Any, zero: str) -> Any:
    """Boolean numpy mask of mistakes from integer scores (any sign(0) convention)."""
    above = scores > 0
    below = scores < 0
    negative_label = ~positive_label
    if zero == "mistake":
        return (positive_label & ~above) | (negative_label & ~below)
    if zero == "positive":
        return (positive_label & below) | (negative_label & ~below)
    if zero == "negative":
        return (positive_label & ~above) | (negative_label & above)
    if zero == "correct":
        return (positive_label & below) | (negative_label & above)
    raise OptionError(f"unknown zero convention {zero!r}")


class MistakeCounter:
    """Exact mistake counts of weight vectors on one data set, fast when int64 provably suffices.

    Weights are given as integers W (any positive multiple of w, see :func:`integer_weights`):
    the sign of W·row is the sign of w·x since rows are x times the positive scale.  When
    max|W|·max|row|·dim < 2⁶³ the scores are int64 products (no overflow is possible); otherwise
    Python integers are used.

    >>> ds = Dataset.from_rows([[1], [2], [3]], [1, -1, 1])
    >>> counter = MistakeCounter(ds)
    >>> counter.count((0, 1)), counter.count((-5, 2)), counter.count((10**40, 1))
    (1, 1, 1)
    """

    def __init__(self, dataset: Dataset, zero: str = "mistake") -> None:
        if zero not in ("mistake", "positive", "negative", "correct"):
            raise OptionError(f"unknown zero convention {zero!r}")
        self.dataset = dataset
        self.zero = zero
        self.n = dataset.n
        self.dim = dataset.dim
        self.max_row = max(abs(v) for row in dataset.rows for v in row)
        self.positive_label = np.array([y > 0 for y in dataset.labels], dtype=bool)
        self._rows_int64 = (np.array(dataset.rows, dtype=np.int64)
                            if self.max_row < INT64_LIMIT else None)
        self._rows_object: Any = None

    def fits_int64(self, max_weight: int) -> bool:
        """Whether every score W·row with max|W| ≤ ``max_weight`` is computed exactly in int64.

        Each product is at most max_weight·max_row and a score sums ``dim`` of them, so the
        bound dim·max_weight·max_row < 2⁶³ covers every partial sum as well.
        """
        return self._rows_int64 is not None and self.dim * max_weight * self.max_row < INT64_LIMIT

    def rows(self, int64: bool) -> Any:
        """The integer rows as an int64 or an object (Python int) array."""
        if int64:
            if self._rows_int64 is None:
                raise OverflowError("rows do not fit int64")
            return self._rows_int64
        if self._rows_object is None:
            self._rows_object = np.array([list(r) for r in self.dataset.rows], dtype=object)
        return self._rows_object

    def mask(self, W: Sequence[int]) -> Any:
        """Boolean numpy array: which examples W gets wrong."""
        int64 = self.fits_int64(max((abs(v) for v in W), default=0))
        vector = np.array(list(W), dtype=np.int64 if int64 else object)
        return _mistake_mask(self.rows(int64) @ vector, self.positive_label, self.zero)

    def count(self, W: Sequence[int]) -> int:
        """Number of examples W gets wrong (exact)."""
        return int(self.mask(W).sum())


def count_mistakes(dataset: Dataset, w: Sequence[object], zero: str = "mistake") -> int:
    """Exact number of examples of ``dataset`` that ``w`` (bias first, any exact numbers) gets wrong.

    >>> ds = Dataset.from_rows([[1], [2], [3]], [1, -1, 1])
    >>> count_mistakes(ds, ["-1/2", "1/3"]), count_mistakes(ds, [0, 0], zero="correct")
    (2, 0)
    """
    W = integer_weights([to_fraction(v) for v in w])
    if len(W) != dataset.dim:
        raise OptionError(f"w has {len(W)} entries but the examples have {dataset.dim} (bias first)")
    return MistakeCounter(dataset, zero).count(W)


def error_rate(dataset: Dataset, w: Sequence[object], zero: str = "mistake") -> Fraction:
    """Exact error rate (mistakes / N) of ``w`` on ``dataset``.

    >>> error_rate(Dataset.from_rows([[1], [2], [3]], [1, -1, 1]), [0, 1])
    Fraction(1, 3)
    """
    return Fraction(count_mistakes(dataset, w, zero), dataset.n)


# ----------------------------------------------------------------------------- the prepared problem
@dataclass(frozen=True, eq=False)
class PocketProblem:
    """A training set (and optional test set) prepared once for many seeded Pocket runs.

    Weights are kept as integers W = D·w (D fixed by η, w₀ and the data's scale), updates add
    k·y·row with k = D·η/scale.  The int64 decision is made once per problem from the largest
    weight any walk of ``options.updates`` updates can reach; a :class:`PocketProblem` pickles
    (numpy arrays and tuples), so worker processes receive it ready to run.

    >>> ds = Dataset.from_rows([[0], [1], [2], [3]], [-1, 1, -1, 1])
    >>> problem = PocketProblem.prepare(ds, PocketOptions(updates=10, order="random"))
    >>> problem.int64
    True
    >>> [problem.run(seed).mistakes for seed in (0, 1, 2)]
    [1, 1, 2]
    """

    train: Dataset
    test: Dataset | None
    options: PocketOptions
    denominator: int            # D: w = W / D
    step_multiplier: int        # k: w + η·y·x  ==  (W + k·y·row) / D
    initial: tuple[int, ...]    # W₀
    int64: bool
    rows: Any = field(repr=False)
    step_rows: Any = field(repr=False)   # k·y·row for every example
    positive_label: Any = field(repr=False)
    test_counter: MistakeCounter | None = field(default=None, repr=False)

    @classmethod
    def prepare(cls, train: Dataset, options: PocketOptions, test: Dataset | None = None
                ) -> "PocketProblem":
        """Check the options against the data and build the integer arrays."""
        run_options = options.run_options(0)
        w0 = run_options.initial_weights(train.dim)
        if test is not None and (test.dim != train.dim or test.bias != train.bias):
            raise OptionError(f"the test data have {test.d} features"
                              f"{' (+ bias)' if test.bias else ''} but the training data have "
                              f"{train.d}{' (+ bias)' if train.bias else ''}")
        eta, L = run_options.eta, train.scale
        D = lcm(eta.denominator * L, *(v.denominator for v in w0))
        k = D * eta.numerator // (eta.denominator * L)
        W0 = tuple(int(v * D) for v in w0)
        counter = MistakeCounter(train, options.zero)
        reachable = max((abs(v) for v in W0), default=0) + options.updates * k * counter.max_row
        int64 = counter.fits_int64(reachable)
        rows = counter.rows(int64)
        signed = np.array([k * y for y in train.labels], dtype=np.int64 if int64 else object)
        step_rows = rows * signed[:, None]
        return cls(train=train, test=test, options=options, denominator=D, step_multiplier=k,
                   initial=W0, int64=int64, rows=rows, step_rows=step_rows,
                   positive_label=counter.positive_label,
                   test_counter=None if test is None else MistakeCounter(test, options.zero))

    def weights(self, W: Sequence[int]) -> tuple[Fraction, ...]:
        """w = W / D as exact Fractions."""
        D = self.denominator
        return tuple(Fraction(int(v), D) for v in W)

    def run(self, seed: int = 0) -> PocketResult:
        """One Pocket run with this seed (the seed drives the random orders only)."""
        o = self.options
        N = self.train.n
        rows, step_rows, zero = self.rows, self.step_rows, o.zero
        positive = self.positive_label
        W = np.array(self.initial, dtype=np.int64 if self.int64 else object)

        def mistakes_of(vector: Any) -> Any:
            return _mistake_mask(rows @ vector, positive, zero)

        mask = mistakes_of(W)
        current = int(mask.sum())
        pocket_W, pocket_count, pocket_t, replaced = W.copy(), current, 0, 0
        walk = [current]
        pocket_history = [current]

        cyclic = o.order in ("cyclic", "random-cycle")
        permutation = np.array(visiting_order(N, o.run_options(seed)), dtype=np.intp) if cyclic \
            else None
        rng = random.Random(seed) if o.order == "random" else None
        visit = 0  # cyclic orders: absolute visit counter (position = visit % N)
        t = 0
        while t < o.updates and current > 0:
            if permutation is not None:
                positions = np.flatnonzero(mask[permutation])
                start = visit % N
                j = int(np.searchsorted(positions, start))
                if j < len(positions):
                    visit += int(positions[j]) - start
                else:
                    visit += N - start + int(positions[0])
                i = int(permutation[visit % N])
                visit += 1
            elif rng is not None:
                randrange = rng.randrange
                i = randrange(N)
                while not mask[i]:
                    i = randrange(N)
            else:  # first: the first mistake from the top
                i = int(np.argmax(mask))
            W = W + step_rows[i]
            t += 1
            mask = mistakes_of(W)
            new = int(mask.sum())
            better = new < (pocket_count if o.compare == "pocket" else current)
            if better:
                pocket_W, pocket_count, pocket_t = W.copy(), new, t
                replaced += 1
            if o.compare == "pocket" and pocket_count > pocket_history[-1]:
                raise PocketInvariantViolation("the pocket's mistake count increased", t,
                                               f"{pocket_count} > {pocket_history[-1]}")
            current = new
            walk.append(new)
            pocket_history.append(pocket_count)

        if pocket_t >= len(walk) or walk[pocket_t] != pocket_count:
            raise PocketInvariantViolation("the pocket is not the visited w_t it claims to be",
                                           t, f"pocket_t = {pocket_t}, pocket mistakes "
                                              f"{pocket_count}, walk {walk[pocket_t:pocket_t + 1]}")
        pocket_w = self.weights(pocket_W)
        last_w = self.weights(W)
        keep_last = o.keep == "last"
        chosen_W = W if keep_last else pocket_W
        test_mistakes = test_n = None
        if self.test_counter is not None:
            test_mistakes = self.test_counter.count([int(v) for v in chosen_W])
            test_n = self.test_counter.n
        return PocketResult(
            seed=seed, w=last_w if keep_last else pocket_w,
            mistakes=current if keep_last else pocket_count, n=N,
            pocket_w=pocket_w, pocket_t=pocket_t, pocket_updates=replaced, last_w=last_w,
            updates=t, halted=current == 0, walk_mistakes=tuple(walk),
            pocket_mistakes=tuple(pocket_history), options=o,
            test_mistakes=test_mistakes, test_n=test_n,
        )


def pocket(
    dataset: Dataset,
    updates: int,
    *,
    order: str = POCKET_DEFAULTS["order"],
    seed: int = POCKET_DEFAULTS["seed"],
    eta: object = POCKET_DEFAULTS["eta"],
    w0: Sequence[object] | None = POCKET_DEFAULTS["w0"],
    zero: str = POCKET_DEFAULTS["zero"],
    compare: str = POCKET_DEFAULTS["compare"],
    keep: str = POCKET_DEFAULTS["keep"],
    test: Dataset | None = None,
    engine: str = POCKET_DEFAULTS["engine"],
) -> PocketResult:
    """Run the Pocket algorithm for ``updates`` PLA updates; see the module docstring.

    ``engine="reference"`` uses plain Fractions and :func:`pla.is_mistake` everywhere (slow,
    obviously right); the default engine uses integer arrays and gives the same result.

    >>> from pla.dataset import Dataset
    >>> ds = Dataset.from_rows([[0], [1], [2], [3]], [-1, 1, -1, 1])
    >>> a = pocket(ds, 30, order="random", seed=7)
    >>> b = pocket(ds, 30, order="random", seed=7, engine="reference")
    >>> a == b, a.pocket_mistakes[-1] <= a.walk_mistakes[-1]
    (True, True)
    """
    options = PocketOptions(updates=updates, order=order, eta=to_fraction(eta),
                            w0=w0,
                            zero=zero, compare=compare, keep=keep)
    if engine == "reference":
        return reference_pocket(dataset, options, seed, test)
    if engine != "default":
        raise OptionError(f"unknown engine {engine!r} (choose from default, reference)")
    return PocketProblem.prepare(dataset, options, test).run(seed)


# ----------------------------------------------------------------------------- reference engine
def reference_pocket(dataset: Dataset, options: PocketOptions, seed: int = 0,
                     test: Dataset | None = None) -> PocketResult:
    """The Pocket algorithm with Fractions only, every mistake count recomputed from scratch."""
    X, Y, N = dataset.X, dataset.labels, dataset.n
    o = options
    if o.order not in ORDERS:
        raise OptionError(f"unknown order {o.order!r}")
    run_options = o.run_options(seed)
    w = list(run_options.initial_weights(dataset.dim))
    eta, zero = run_options.eta, o.zero

    def score(vector: Sequence[Fraction], x: Sequence[Fraction]) -> Fraction:
        return sum((a * b for a, b in zip(vector, x)), Fraction(0))

    def count(vector: Sequence[Fraction], data: Dataset) -> int:
        return sum(1 for x, y in zip(data.X, data.labels) if is_mistake(score(vector, x), y, zero))

    current = count(w, dataset)
    pocket_w, pocket_count, pocket_t, replaced = tuple(w), current, 0, 0
    walk, history = [current], [current]
    order = visiting_order(N, run_options)
    rng = random.Random(seed)
    position = 0
    t = 0
    while t < o.updates and current > 0:
        if o.order in ("cyclic", "random-cycle"):
            while not is_mistake(score(w, X[order[position % N]]), Y[order[position % N]], zero):
                position += 1
            i = order[position % N]
            position += 1
        elif o.order == "random":
            i = rng.randrange(N)
            while not is_mistake(score(w, X[i]), Y[i], zero):
                i = rng.randrange(N)
        else:
            i = next(i for i in range(N) if is_mistake(score(w, X[i]), Y[i], zero))
        w = [a + eta * Y[i] * b for a, b in zip(w, X[i])]
        t += 1
        new = count(w, dataset)
        if new < (pocket_count if o.compare == "pocket" else current):
            pocket_w, pocket_count, pocket_t = tuple(w), new, t
            replaced += 1
        current = new
        walk.append(new)
        history.append(pocket_count)
    last_w = tuple(w)
    chosen = last_w if o.keep == "last" else pocket_w
    return PocketResult(
        seed=seed, w=chosen, mistakes=current if o.keep == "last" else pocket_count, n=N,
        pocket_w=pocket_w, pocket_t=pocket_t, pocket_updates=replaced, last_w=last_w,
        updates=t, halted=current == 0, walk_mistakes=tuple(walk), pocket_mistakes=tuple(history),
        options=o, test_mistakes=None if test is None else count(chosen, test),
        test_n=None if test is None else test.n,
    )


# ----------------------------------------------------------------------------- pla.pocket(...)
class _PocketModule(types.ModuleType):
    """This module, callable: ``pla.pocket(dataset, updates, ...)`` is :func:`pocket`.

    ``pla.pocket`` names both the public function and this module (``from pla.pocket import
    PocketOptions``); Python binds a package attribute to its submodule once the submodule is
    imported, so the module itself answers the call, with the function's signature.
    """

    def __call__(self, dataset: Dataset, updates: int, **options: Any) -> PocketResult:
        return pocket(dataset, updates, **options)


sys.modules[__name__].__class__ = _PocketModule
__signature__ = inspect.signature(pocket)
