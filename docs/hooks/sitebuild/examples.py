"""Named exact runs whose numbers the pages quote and whose figures the pages show.

A page never types a number about a run: it names an example here and the build
fills the number in (see :mod:`sitebuild.macros`).  Each data set is made by the
real ``pla make-data`` command (the same command the tutorial shows), loaded with
:func:`pla.load`, and every run is an exact :func:`pla.run`.

The reference separator w_f of the convergence proof comes from
``verify.certify`` (the exact, kernel-checked max-margin separator).  Should that
module be missing, the final weights of the example's own PLA run are used as w_f
(they separate the data, so every inequality of the proof holds for them too);
:attr:`SeparatorFacts.kind` says which one a page is showing.

>>> DATA["walk"].make_data[:2]
('--n', '16')
>>> RUNS["walk"].data
'walk'
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from fractions import Fraction
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
    "ProofFacts",
    "PocketFacts",
    "PocketSpec",
    "POCKETS",
    "ExampleBook",
    "UnknownExample",
    "ExampleMismatch",
    "check_page_examples",
    "referenced_data",
    "separator_facts",
]


class UnknownExample(KeyError):
    """A page named an example that is not defined in :mod:`sitebuild.examples`."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class DataSpec:
    """A data set: made by ``pla make-data`` with ``make_data`` arguments (output file
    appended), or, when ``text`` is given, that exact file content (``dat`` format)."""

    name: str
    make_data: tuple[str, ...]
    description: str
    text: str | None = None


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
class PocketSpec:
    """One exact Pocket run (:func:`pla.pocket.pocket`) on a named data set."""

    name: str
    data: str
    updates: int
    order: str = "random"
    seed: int = 0
    compare: str = "pocket"


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
            ("--n", "16", "--d", "2", "--margin", "1/20", "--seed", "4"),
            "16 points in the plane, separable with geometric margin at least 1/20",
        ),
        DataSpec(
            "textbook",
            (),
            "the classic three-point walk-through: x1 = (3, 3), x2 = (4, 3) positive, x3 = (1, 1) negative",
            text="3 3 +1\n4 3 +1\n1 1 -1\n",
        ),
        DataSpec(
            "xor",
            (),
            "XOR: four points that no line separates",
            text="0 0 -1\n1 1 -1\n0 1 +1\n1 0 +1\n",
        ),
        DataSpec(
            "noisy",
            (),
            "24 points labelled by a line, three of them flipped (noise): not separable",
            text=(
                "0.03 0.87 +1\n"
                "0.25 0.85 +1\n"
                "0.70 0.05 -1\n"
                "0.85 0.30 +1\n"
                "-0.51 -0.52 -1\n"
                "0.75 0.15 +1\n"
                "0.07 0.39 +1\n"
                "0.36 0.72 +1\n"
                "-0.52 -0.71 -1\n"
                "0.01 -0.28 +1\n"
                "-0.61 -0.71 -1\n"
                "0.20 0.76 +1\n"
                "0.52 0.40 +1\n"
                "-0.81 0.32 -1\n"
                "-0.09 0.03 -1\n"
                "0.44 0.61 +1\n"
                "0.36 0.43 +1\n"
                "-0.87 0.80 -1\n"
                "0.18 -0.77 -1\n"
                "-0.78 -0.83 -1\n"
                "-0.51 -0.41 -1\n"
                "0.33 -0.84 -1\n"
                "0.69 0.05 +1\n"
                "-0.23 0.00 -1\n"
            ),
        ),
        DataSpec(
            "tutorial",
            ("--n", "40", "--d", "2", "--margin", "1/20", "--seed", "6"),
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
        RunSpec("textbook", "textbook"),
        RunSpec("textbook-first", "textbook", order="first"),
        RunSpec("tutorial", "tutorial"),
    )
}

POCKETS = {
    spec.name: spec
    for spec in (
        PocketSpec("noisy", "noisy", updates=200),
        PocketSpec("noisy-previous", "noisy", updates=200, compare="previous"),
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
    """What a page may say about one run; ``result`` keeps the full exact :class:`pla.Result`.

    ``training_mistakes`` counts mistakes of the final w under the run's own sign(0) rule,
    ``misclassified`` the points with yₙ w·xₙ ≤ 0 (on the line counts as wrong),
    ``min_signed_score`` is minₙ yₙ w·xₙ for the final w (positive iff it separates).
    """

    updates: int
    epochs: int
    halted: bool
    w: tuple[Fraction, ...]
    order: str
    eta: Fraction
    zero: str
    training_mistakes: int
    misclassified: int
    min_signed_score: Fraction
    result: Any = field(repr=False, compare=False)

    @property
    def still_wrong_after_update(self) -> int:
        """Updates after which the corrected point was still a mistake (one update need not fix it)."""
        import pla

        return sum(1 for s in self.result.steps if pla.is_mistake(_dot(s.w_after, s.x), s.y, self.zero))

    @property
    def score_gain_is_eta_norm2(self) -> bool:
        """Whether every update raised yₙ·w·xₙ by exactly η‖xₙ‖² (checked exactly on each step)."""
        return all(
            s.y * _dot(s.w_after, s.x) - s.y * s.score == self.eta * _dot(s.x, s.x)
            for s in self.result.steps
        )

    @property
    def distinct_points_updated(self) -> int:
        """How many different points PLA corrected."""
        return len({s.index for s in self.result.steps})

    @property
    def longest_streak(self) -> int:
        """The most consecutive updates that corrected the same point."""
        best = run = 0
        previous = None
        for step in self.result.steps:
            run = run + 1 if step.index == previous else 1
            previous = step.index
            best = max(best, run)
        return best

    @property
    def longest_streak_point(self) -> int:
        """1-based row of the point of :attr:`longest_streak` (0 when there was no update)."""
        best = run = 0
        previous, point = None, 0
        for step in self.result.steps:
            run = run + 1 if step.index == previous else 1
            previous = step.index
            if run > best:
                best, point = run, step.index + 1
        return point

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

    @property
    def description(self) -> str:
        """A phrase naming which separator this is, for prose ("with w_f the ...")."""
        return {
            "max-margin": "exact max-margin separator (checked by the kernel)",
            "lp": "exact linear-programming separator (checked by the kernel)",
            "given": "given separator",
        }.get(self.kind, "final weights of the PLA run")


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
class ProofFacts:
    """The proof's inequalities checked exactly at every step of one run (η = 1, w₀ = 0).

    ``inner_holds``: w_f·wₜ ≥ tρ for every t; ``norm_holds``: ‖wₜ‖² ≤ tR² for every t;
    ``bound_holds``: T ≤ R²‖w_f‖²/ρ².  ``inner_min_excess`` is min over t ≥ 1 of
    w_f·wₜ − tρ and ``norm_min_room`` min over t ≥ 1 of tR² − ‖wₜ‖² (both ≥ 0 when the
    inequalities hold).  ``final_inner`` and ``final_norm2`` are w_f·w_T and ‖w_T‖².
    """

    updates: int
    inner_holds: bool
    norm_holds: bool
    bound_holds: bool
    inner_min_excess: Fraction
    norm_min_room: Fraction
    final_inner: Fraction
    final_norm2: Fraction
    separator: SeparatorFacts


@dataclass(frozen=True)
class PocketFacts:
    """What a page may say about one Pocket run; ``result`` keeps the :class:`PocketResult`.

    ``mistakes``/``error`` are the returned (pocket) vector's, ``last_mistakes`` the last wₜ's,
    ``best_walk_mistakes`` the fewest mistakes of any wₜ the walk visited.
    """

    updates: int
    n: int
    mistakes: int
    error: Fraction
    pocket_t: int
    pocket_updates: int
    last_mistakes: int
    best_walk_mistakes: int
    w: tuple[Fraction, ...]
    compare: str
    result: Any = field(repr=False, compare=False)


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

    @property
    def last_seed(self) -> int:
        """Seeds 0 .. ``last_seed`` were run."""
        return self.runs - 1


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
        self._pockets: dict[str, PocketFacts] = {}

    # -- data ---------------------------------------------------------------
    def data_path(self, name: str) -> Path:
        """The file holding data set ``name`` (made on first use)."""
        if name not in DATA:
            raise UnknownExample(f"no data set named {name!r} (known: {', '.join(DATA)})")
        path = self.workdir / f"{name}.dat"
        if not path.exists():
            from sitebuild.commands import CommandFailed, run_command

            self.workdir.mkdir(parents=True, exist_ok=True)
            if DATA[name].text is not None:
                path.write_text(DATA[name].text, encoding="utf-8")
                return path
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
                training_mistakes=mistakes,
                misclassified=sum(1 for x, y in zip(ds.X, ds.labels) if y * _dot(result.w, x) <= 0),
                min_signed_score=min(y * _dot(result.w, x) for x, y in zip(ds.X, ds.labels)),
                result=result,
            )
        return self._runs[name]

    # -- the proof's constants ---------------------------------------------------
    def separator(self, name: str) -> SeparatorFacts:
        """w_f and its constants for data set ``name`` (max-margin when ``verify.certify`` exists)."""
        if name not in self._separators:
            ds = self.dataset(name)
            certified = _certified_separator(ds)
            if certified is not None:
                facts = separator_facts(certified[0], ds.X, ds.labels, certified[1])
            else:
                # Only used when verify.search.certificates is absent (e.g. a partial checkout).
                final = self.run(name).w if name in RUNS else _final_weights(ds)
                facts = separator_facts(tuple(final), ds.X, ds.labels, "final PLA weights")
            self._separators[name] = facts
        return self._separators[name]

    # -- the proof along a run --------------------------------------------------
    def proof(self, name: str) -> ProofFacts:
        """Check the two growth inequalities and the bound exactly along run ``name``."""
        facts = self.run(name)
        if facts.eta != 1 or facts.result.options.w0 is not None:
            raise ValueError(f"run {name!r}: the page's proof facts assume eta = 1 and w0 = 0")
        sep = self.separator(RUNS[name].data)
        weights = [s.w_after for s in facts.result.steps]
        inner = [_dot(sep.w, w) for w in weights]
        norm2 = [_dot(w, w) for w in weights]
        excess = [value - (t + 1) * sep.rho for t, value in enumerate(inner)]
        room = [(t + 1) * sep.R2 - value for t, value in enumerate(norm2)]
        return ProofFacts(
            updates=facts.updates,
            inner_holds=all(e >= 0 for e in excess),
            norm_holds=all(r >= 0 for r in room),
            bound_holds=facts.updates <= sep.bound,
            inner_min_excess=min(excess, default=Fraction(0)),
            norm_min_room=min(room, default=Fraction(0)),
            final_inner=inner[-1] if inner else Fraction(0),
            final_norm2=norm2[-1] if norm2 else Fraction(0),
            separator=sep,
        )

    # -- Pocket ---------------------------------------------------------------------
    def pocket(self, name: str) -> PocketFacts:
        """Facts about the Pocket run ``name``."""
        if name not in POCKETS:
            raise UnknownExample(f"no pocket run named {name!r} (known: {', '.join(POCKETS)})")
        if name not in self._pockets:
            from pla.pocket import pocket

            spec = POCKETS[name]
            result = pocket(self.dataset(spec.data), spec.updates, order=spec.order,
                            seed=spec.seed, compare=spec.compare)
            self._pockets[name] = PocketFacts(
                updates=result.updates, n=result.n, mistakes=result.mistakes, error=result.error,
                pocket_t=result.pocket_t, pocket_updates=result.pocket_updates,
                last_mistakes=result.last_mistakes, best_walk_mistakes=min(result.walk_mistakes),
                w=tuple(result.w), compare=spec.compare, result=result,
            )
        return self._pockets[name]

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


def _certified_separator(ds: Any) -> tuple[tuple[Fraction, ...], str] | None:
    """The kernel-checked separator of ``verify.certify`` and its kind, or None while that
    module is missing."""
    try:
        from verify.search.certificates import certify
    except ImportError:
        return None
    result = certify(ds)
    if not result.separable:
        raise ValueError("verify.certify found a Gordan certificate for an example that the "
                         "pages treat as separable")
    return tuple(Fraction(v) for v in result.w), result.kind


class ExampleMismatch(ValueError):
    """A page makes an example's data file with other arguments (or text) than the example."""


def referenced_data(markdown: str) -> set[str]:
    """The data sets whose numbers a page quotes through ``{{ KIND('NAME')... }}`` macros.

    >>> sorted(referenced_data("{{ run('walk-first').updates }} {{ pocket('noisy').error }}"))
    ['noisy', 'walk']
    """
    import re

    tables: dict[str, dict[str, Any]] = {"run": RUNS, "proof": RUNS, "pocket": POCKETS,
                                         "orders": STUDIES}
    names = set()
    for kind, name in re.findall(r"""\{\{\s*([a-z]+)\(\s*['"]([\w.-]+)['"]""", markdown):
        spec = tables.get(kind, {}).get(name)
        names.add(spec.data if spec is not None else name)
    return names


def check_page_examples(markdown: str) -> None:
    """Check that a page which quotes numbers of example ``NAME`` and makes ``NAME.dat`` itself
    (a ``pla make-data ... NAME.dat`` line or a ``pla-file NAME.dat`` block) makes exactly the
    example's data, so the numbers quoted describe the data the page's own commands made.

    >>> page = "{{ run('walk').updates }}\\n$ pla make-data --n 16 --d 2 --margin 1/20 --seed 4 walk.dat"
    >>> check_page_examples(page)
    >>> check_page_examples(page.replace("--seed 4", "--seed 5"))
    Traceback (most recent call last):
    ...
    sitebuild.examples.ExampleMismatch: walk.dat is made with --n 16 --d 2 --margin 1/20 --seed 5 but example 'walk' uses --n 16 --d 2 --margin 1/20 --seed 4
    >>> check_page_examples("$ pla make-data --n 3 walk.dat")  # quotes nothing: not checked
    """
    import re
    import shlex

    quoted = referenced_data(markdown)
    for line in markdown.splitlines():
        if not line.startswith("$ pla make-data "):
            continue
        argv = shlex.split(line[2:])
        stem = Path(argv[-1]).stem
        if stem in quoted and stem in DATA and DATA[stem].text is None \
                and tuple(argv[2:-1]) != DATA[stem].make_data:
            raise ExampleMismatch(
                f"{argv[-1]} is made with {' '.join(argv[2:-1])} but example {stem!r} uses "
                f"{' '.join(DATA[stem].make_data)}"
            )
    for match in re.finditer(r"^```pla-file (\S+)\n(.*?)^```", markdown, re.MULTILINE | re.DOTALL):
        stem = Path(match.group(1)).stem
        if stem in quoted and stem in DATA and DATA[stem].text is not None \
                and match.group(2) != DATA[stem].text:
            raise ExampleMismatch(
                f"pla-file {match.group(1)} differs from the text of example {stem!r}"
            )
