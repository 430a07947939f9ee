"""Named exact runs whose numbers the pages quote and whose figures the pages show.

A page never types a number about a run: it names an example here and the build
fills the number in (see :mod:`verify.docsite.macros`).  Each data set is made by the
real ``pla make-data`` command (the same command the tutorial shows), loaded with
:func:`pla.load`, and every run is an exact :func:`pla.run`.

The reference separator w_f of the convergence proof comes from
``verify.certify`` (the exact max-margin separator) when that module exists.
Until it does, the final weights of the example's own PLA run are used as w_f
(they separate the data, so every inequality of the proof holds for them too);
:attr:`SeparatorFacts.kind` says which one a page is showing.

>>> DATA["walk"].make_data[:2]
('--n', '12')
>>> RUNS["walk"].data
'walk'
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import floor
from pathlib import Path
from typing import Any

__all__ = [
    "DATA",
    "RUNS",
    "STUDIES",
    "DataSpec",
    "RunSpec",
    "StudySpec",
    "DataFacts",
    "RunFacts",
    "SeparatorFacts",
    "OrderStudy",
    "ExampleBook",
    "UnknownExample",
    "separator_facts",
]


class UnknownExample(KeyError):
    """A page named an example that is not defined in :mod:`verify.docsite.examples`."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class DataSpec:
    """A data set made by ``pla make-data`` with these arguments (output file appended)."""

    name: str
    make_data: tuple[str, ...]
    description: str


@dataclass(frozen=True)
class RunSpec:
    """One exact PLA run on a named data set, with :func:`pla.run` options."""

    name: str
    data: str
    order: str = "cyclic"
    seed: int = 0
    eta: str = "1"
    zero: str = "mistake"
    max_updates: int = 100_000


@dataclass(frozen=True)
class StudySpec:
    """The same data run under many seeded random orders (``random-cycle``)."""

    name: str
    data: str
    seeds: int


DATA = {
    spec.name: spec
    for spec in (
        DataSpec(
            "walk",
            ("--n", "12", "--d", "2", "--margin", "1/10", "--seed", "3"),
            "12 points in the plane, separable with geometric margin at least 1/10",
        ),
        DataSpec(
            "tutorial",
            ("--n", "40", "--d", "2", "--margin", "1/20", "--seed", "1"),
            "the tutorial's data: 40 points in the plane, margin at least 1/20",
        ),
    )
}

RUNS = {
    spec.name: spec
    for spec in (
        RunSpec("walk", "walk"),
        RunSpec("walk-first", "walk", order="first"),
        RunSpec("walk-eta-half", "walk", eta="1/2"),
        RunSpec("walk-eta-3", "walk", eta="3"),
        RunSpec("walk-zero-positive", "walk", zero="positive"),
        RunSpec("walk-zero-negative", "walk", zero="negative"),
        RunSpec("walk-zero-correct", "walk", zero="correct"),
        RunSpec("tutorial", "tutorial"),
    )
}

STUDIES = {
    spec.name: spec
    for spec in (
        StudySpec("walk", "walk", seeds=200),
        StudySpec("tutorial", "tutorial", seeds=100),
    )
}


def _dot(a: tuple[Fraction, ...], b: tuple[Fraction, ...]) -> Fraction:
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


@dataclass(frozen=True)
class DataFacts:
    """What a page may say about a data set: its size and the largest squared norm R²."""

    n: int
    d: int
    dim: int
    positives: int
    negatives: int
    R2: Fraction
    fingerprint: str
    file: str


@dataclass(frozen=True)
class RunFacts:
    """What a page may say about one run; ``result`` keeps the full exact :class:`pla.Result`."""

    updates: int
    epochs: int
    halted: bool
    w: tuple[Fraction, ...]
    order: str
    eta: Fraction
    zero: str
    training_mistakes: int
    result: Any = field(repr=False, compare=False)

    @property
    def first_update_index(self) -> int:
        """1-based row number of the first point PLA corrected (0 if it made no update)."""
        return self.result.steps[0].index + 1 if self.result.steps else 0


@dataclass(frozen=True)
class SeparatorFacts:
    """The w_f of the proof and its constants: ρ = min yₙ w_f·xₙ, R² = max ‖xₙ‖², the bound.

    ``bound`` = R²‖w_f‖²/ρ² (exact); ``bound_floor`` is the largest integer T allowed.
    ``margin2`` = ρ²/‖w_f‖² is the squared geometric margin.

    >>> from fractions import Fraction as F
    >>> s = separator_facts((F(0), F(1)), [(F(1), F(2)), (F(1), F(-1))], [1, -1], "example")
    >>> s.rho, s.R2, s.bound, s.bound_floor
    (Fraction(1, 1), Fraction(5, 1), Fraction(5, 1), 5)
    """

    w: tuple[Fraction, ...]
    rho: Fraction
    R2: Fraction
    norm2: Fraction
    bound: Fraction
    bound_floor: int
    margin2: Fraction
    kind: str


def separator_facts(
    w: tuple[Fraction, ...], X: list[tuple[Fraction, ...]] | tuple, labels: Any, kind: str
) -> SeparatorFacts:
    """Compute ρ, R², ‖w‖² and the bound R²‖w‖²/ρ² exactly for a separator ``w``."""
    rho = min(y * _dot(w, x) for x, y in zip(X, labels))
    if rho <= 0:
        raise ValueError(f"w = {w} does not separate the data (min y w.x = {rho})")
    R2 = max(_dot(x, x) for x in X)
    norm2 = _dot(w, w)
    bound = R2 * norm2 / (rho * rho)
    return SeparatorFacts(
        w=tuple(w), rho=rho, R2=R2, norm2=norm2, bound=bound, bound_floor=floor(bound),
        margin2=rho * rho / norm2, kind=kind,
    )


@dataclass(frozen=True)
class OrderStudy:
    """Update counts of one data set over ``runs`` seeded random visiting orders."""

    runs: int
    counts: tuple[int, ...]
    min: int
    max: int
    median: Fraction
    mean: Fraction
    bound: Fraction
    bound_floor: int
    all_within_bound: bool


class ExampleBook:
    """Computes the named examples on first use and keeps them for one site build.

    ``workdir`` receives the data files made by ``pla make-data``.
    """

    def __init__(self, workdir: Path) -> None:
        self.workdir = Path(workdir)
        self._datasets: dict[str, Any] = {}
        self._runs: dict[str, RunFacts] = {}
        self._separators: dict[str, SeparatorFacts] = {}
        self._studies: dict[str, OrderStudy] = {}

    # -- data ---------------------------------------------------------------
    def data_path(self, name: str) -> Path:
        """The file holding data set ``name`` (made on first use)."""
        if name not in DATA:
            raise UnknownExample(f"no data set named {name!r} (known: {', '.join(DATA)})")
        path = self.workdir / f"{name}.dat"
        if not path.exists():
            from verify.docsite.commands import CommandFailed, run_command

            self.workdir.mkdir(parents=True, exist_ok=True)
            argv = ["pla", "make-data", *DATA[name].make_data, path.name]
            made = run_command(argv, self.workdir)
            if made.status != 0:
                raise CommandFailed(made.display, made.status, 0, made.output)
        return path

    def dataset(self, name: str) -> Any:
        """The exact :class:`pla.Dataset` of data set ``name``."""
        if name not in self._datasets:
            import pla

            self._datasets[name] = pla.load(str(self.data_path(name)))
        return self._datasets[name]

    def data(self, name: str) -> DataFacts:
        """Facts about data set ``name``."""
        ds = self.dataset(name)
        return DataFacts(
            n=ds.n, d=ds.d, dim=ds.dim,
            positives=sum(1 for y in ds.labels if y > 0),
            negatives=sum(1 for y in ds.labels if y < 0),
            R2=max(_dot(x, x) for x in ds.X),
            fingerprint=ds.fingerprint,
            file=self.data_path(name).name,
        )

    # -- runs ---------------------------------------------------------------
    def run(self, name: str) -> RunFacts:
        """Facts about run ``name`` (an exact :func:`pla.run`)."""
        if name not in RUNS:
            raise UnknownExample(f"no run named {name!r} (known: {', '.join(RUNS)})")
        if name not in self._runs:
            import pla

            spec = RUNS[name]
            ds = self.dataset(spec.data)
            result = pla.run(ds, spec.order, seed=spec.seed, eta=spec.eta, zero=spec.zero,
                             max_updates=spec.max_updates)
            mistakes = sum(
                1 for x, y in zip(ds.X, ds.labels) if pla.is_mistake(_dot(result.w, x), y, spec.zero)
            )
            self._runs[name] = RunFacts(
                updates=result.updates, epochs=result.epochs, halted=result.halted,
                w=tuple(result.w), order=spec.order, eta=Fraction(spec.eta), zero=spec.zero,
                training_mistakes=mistakes, result=result,
            )
        return self._runs[name]

    # -- the proof's constants ---------------------------------------------------
    def separator(self, name: str) -> SeparatorFacts:
        """w_f and its constants for data set ``name`` (max-margin when ``verify.certify`` exists)."""
        if name not in self._separators:
            ds = self.dataset(name)
            certified = _certified_separator(ds)
            if certified is not None:
                facts = separator_facts(certified, ds.X, ds.labels, "max-margin")
            else:
                # TODO(lead): remove this fallback once verify.certify lands; it is only
                # used while the certificate module is missing.
                final = self.run(name).w if name in RUNS else _final_weights(ds)
                facts = separator_facts(tuple(final), ds.X, ds.labels, "final PLA weights")
            self._separators[name] = facts
        return self._separators[name]

    # -- many orders ----------------------------------------------------------------
    def orders(self, name: str) -> OrderStudy:
        """Update counts over the seeded ``random-cycle`` orders of study ``name``."""
        if name not in STUDIES:
            raise UnknownExample(f"no order study named {name!r} (known: {', '.join(STUDIES)})")
        if name not in self._studies:
            import pla

            spec = STUDIES[name]
            ds = self.dataset(spec.data)
            counts = tuple(
                pla.run(ds, "random-cycle", seed=seed, keep_steps=False).updates
                for seed in range(spec.seeds)
            )
            bound = self.separator(spec.data).bound
            self._studies[name] = OrderStudy(
                runs=len(counts), counts=counts, min=min(counts), max=max(counts),
                median=Fraction(statistics.median_low(counts)),
                mean=Fraction(sum(counts), len(counts)),
                bound=bound, bound_floor=floor(bound),
                all_within_bound=all(c <= bound for c in counts),
            )
        return self._studies[name]


def _final_weights(ds: Any) -> tuple[Fraction, ...]:
    import pla

    return tuple(pla.run(ds, keep_steps=False).w)


def _certified_separator(ds: Any) -> tuple[Fraction, ...] | None:
    """The exact max-margin w of ``verify.certify`` or None while that module is missing."""
    try:
        from verify import certify  # type: ignore[attr-defined]
    except ImportError:
        return None
    result = certify(ds)
    w = getattr(result, "w", None)
    if w is None:
        raise ValueError(f"verify.certify returned {type(result).__name__} without .w for an example "
                         "that should be separable")
    return tuple(Fraction(v) for v in w)
