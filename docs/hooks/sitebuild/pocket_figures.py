"""The figures of the Pocket page (docs/pocket.md), drawn at build time from exact runs.

The data are the page's own: :data:`POCKET_DATA` holds the arguments of the ``pla make-data``
command the page shows, and :func:`pocket_data` makes the same files through the same code
(:func:`pla.noise.noisy_data`, :func:`pla.generate.write_dat`, :func:`pla.load`).  The series are
computed exactly by :mod:`pla.experiments` (:func:`~pla.experiments.error_series`,
:func:`~pla.experiments.distribution_of_test_errors`); floats appear only as pixel positions.
``docs/hooks/pocket.py`` adds the files to the site as ``figures/pocket-*.png``.

>>> POCKET_DATA["seed"], sorted(POCKET_FIGURES)
(6, ['pocket-run-errors.png', 'pocket-test-errors.png'])
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from pla.experiments import distribution_of_test_errors, error_series, repeat_pocket
from pla.pocket import PocketOptions, pocket

__all__ = ["POCKET_DATA", "POCKET_RUNS", "POCKET_UPDATES", "POCKET_FIGURES", "pocket_data",
           "run_errors_figure", "test_errors_figure", "draw_pocket_figures"]

#: ``pla make-data --n 500 --d 4 --margin 0 --flip 1/10 --seed 6 --test-out test.dat train.dat``
POCKET_DATA = {"n": 500, "d": 4, "margin": "0", "flip": "1/10", "seed": 6, "test_n": 500}
#: The page's experiment: ``pla pocket train.dat --test test.dat --updates 50 --runs 1000``.
POCKET_RUNS = 1000
POCKET_UPDATES = 50


def pocket_data(directory: Path) -> tuple[Any, Any]:
    """Write ``train.dat`` and ``test.dat`` as the page's ``pla make-data`` does; load them."""
    import pla
    from pla.generate import write_dat
    from pla.noise import noisy_data

    directory.mkdir(parents=True, exist_ok=True)
    spec = POCKET_DATA
    rows, labels, test_rows, test_labels = noisy_data(
        spec["n"], spec["d"], Fraction(spec["margin"]), Fraction(spec["flip"]), spec["seed"],
        spec["test_n"])
    write_dat(str(directory / "train.dat"), rows, labels)
    write_dat(str(directory / "test.dat"), test_rows, test_labels)
    return pla.load(str(directory / "train.dat")), pla.load(str(directory / "test.dat"))


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 110, "font.size": 10,
                         "axes.grid": True, "grid.alpha": 0.3})
    return plt


def run_errors_figure(train: Any, test: Any) -> Any:
    """Training error over updates of one run (seed 0): wₜ, the pocket, the literal variant."""
    plt = _pyplot()
    real = pocket(train, POCKET_UPDATES, seed=0, test=test)
    literal = pocket(train, POCKET_UPDATES, seed=0, test=test, compare="previous")
    walk, kept = error_series(real)
    _, literal_kept = error_series(literal)
    ts = list(range(len(walk)))
    fig, ax = plt.subplots(figsize=(7.2, 4.0))
    ax.plot(ts, [float(e) for e in walk], color="#bbbbbb", linewidth=1.0, marker=".",
            label="w_t of the PLA walk")
    ax.step(ts, [float(e) for e in literal_kept], where="post", color="#ff7f0e",
            linestyle="--", linewidth=1.6, label="--compare previous (literal variant)")
    ax.step(ts, [float(e) for e in kept], where="post", color="#1f77b4", linewidth=2.2,
            label=f"pocket: w_{real.pocket_t}, error {real.error}")
    ax.set_xlabel("t (updates)")
    ax.set_ylabel("training error (mistakes / N)")
    ax.set_ylim(0, max(float(e) for e in walk) * 1.1)
    ax.legend(fontsize=8, loc="upper right")
    ax.set_title(f"one run (seed 0, random-cycle) on {train.n} points with 10% flipped labels",
                 fontsize=9)
    fig.tight_layout()
    return fig


def test_errors_figure(train: Any, test: Any) -> Any:
    """Distribution of the test error over the page's runs: the pocket against the last wₜ."""
    plt = _pyplot()
    studies = {
        keep: repeat_pocket(train, PocketOptions(updates=POCKET_UPDATES, keep=keep), POCKET_RUNS,
                            test=test)
        for keep in ("pocket", "last")
    }
    fig, ax = plt.subplots(figsize=(7.2, 4.0))
    for keep, color, label in (("last", "#bbbbbb", "last w_t (--last)"),
                               ("pocket", "#1f77b4", "pocket")):
        study = studies[keep]
        distribution = distribution_of_test_errors(study)
        mean = study.mean_test_error
        ax.bar([float(e) for e, _ in distribution], [k for _, k in distribution],
               width=0.0016, color=color, alpha=0.85,
               label=f"{label}: mean {float(mean):.4f} (exact {mean})" if mean is not None
               else label)
    ax.set_xlabel(f"test error on {test.n} points (mistakes / N, exact; one bar per value)")
    ax.set_ylabel("runs")
    ax.legend(fontsize=8)
    ax.set_title(f"{POCKET_RUNS} runs x {POCKET_UPDATES} updates, seeds 0 + 1000003 k", fontsize=9)
    fig.tight_layout()
    return fig


POCKET_FIGURES: dict[str, Callable[[Any, Any], Any]] = {
    "pocket-run-errors.png": run_errors_figure,
    "pocket-test-errors.png": test_errors_figure,
}


def draw_pocket_figures(directory: Path) -> list[Path]:
    """Draw every figure of :data:`POCKET_FIGURES` into ``directory``; returns the files."""
    plt = _pyplot()
    train, test = pocket_data(directory / "data")
    written = []
    for file_name, draw in POCKET_FIGURES.items():
        fig = draw(train, test)
        path = directory / file_name
        fig.savefig(path, metadata={"Software": None})
        plt.close(fig)
        written.append(path)
    return written
