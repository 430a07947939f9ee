"""Figures of the site, drawn with matplotlib (Agg) from exact runs at build time.

Every quantity is computed exactly (Fractions) from the runs in
:mod:`sitebuild.examples`; floats appear only at the last moment, as pixel
positions handed to matplotlib.  The figures are written to the build's scratch
directory and added to the site by ``docs/hooks/site.py``; none is committed.

``FIGURES`` maps each published file name (``figures/NAME.png``) to the function
that draws it from an :class:`~sitebuild.examples.ExampleBook`.

>>> sorted(FIGURES)[:2]
['cosine-bound.png', 'growth-bounds.png']
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

__all__ = ["FIGURES", "draw_all", "pla_walk", "growth_bounds", "cosine_bound", "update_counts",
           "pocket_errors", "growth_series"]

_POSITIVE = "#1f77b4"
_NEGATIVE = "#d62728"


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 110, "font.size": 10,
                         "svg.hashsalt": "pla-verify", "axes.grid": True, "grid.alpha": 0.3})
    return plt


def _dot(a: tuple[Fraction, ...], b: tuple[Fraction, ...]) -> Fraction:
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


def growth_series(result: Any, w_f: tuple[Fraction, ...]) -> tuple[list[Fraction], list[Fraction]]:
    """Exact w_f·w_t and ‖w_t‖² for t = 0..T along a run (w_0 first).

    >>> from types import SimpleNamespace as NS
    >>> F = Fraction
    >>> step = NS(w_before=(F(0), F(0)), w_after=(F(1), F(2)))
    >>> growth_series(NS(steps=(step,)), (F(1), F(1)))
    ([Fraction(0, 1), Fraction(3, 1)], [Fraction(0, 1), Fraction(5, 1)])
    """
    weights = [result.steps[0].w_before] + [s.w_after for s in result.steps] if result.steps else []
    return [_dot(w_f, w) for w in weights], [_dot(w, w) for w in weights]


def _line_points(w: tuple[Fraction, ...], xlim: tuple[float, float], ylim: tuple[float, float]
                 ) -> tuple[list[float], list[float]] | None:
    """Two points of the line w0 + w1 x1 + w2 x2 = 0 inside the box, or None if w = 0."""
    w0, w1, w2 = (float(v) for v in w)
    if w1 == 0 and w2 == 0:
        return None
    if abs(w2) >= abs(w1):
        xs = list(xlim)
        return xs, [-(w0 + w1 * x) / w2 for x in xs]
    ys = list(ylim)
    return [-(w0 + w2 * y) / w1 for y in ys], ys


def pla_walk(book: Any, name: str = "walk") -> Any:
    """The PLA walk on 2-D data: points, the line of each wₜ, the final and the reference separator."""
    plt = _pyplot()
    facts = book.run(name)
    ds = book.dataset(book_run_data(name))
    separator = book.separator(book_run_data(name))
    fig, ax = plt.subplots(figsize=(8.4, 5.6))
    xlim, ylim = (-1.1, 1.1), (-1.1, 1.1)
    for x, y in zip(ds.X, ds.labels):
        ax.scatter(float(x[1]), float(x[2]), marker="o" if y > 0 else "x", s=46,
                   color=_POSITIVE if y > 0 else _NEGATIVE, zorder=3,
                   facecolors="none" if y > 0 else None, linewidths=1.6)
    steps = facts.result.steps
    updates_at: dict[int, list[int]] = {}
    for step in steps:
        updates_at.setdefault(step.index, []).append(step.t + 1)
    for index, numbers in updates_at.items():
        x = ds.X[index]
        ax.annotate(",".join(map(str, numbers)), (float(x[1]), float(x[2])),
                    textcoords="offset points", xytext=(5, 5), fontsize=8, color="#333333")
    count = len(steps)
    for k, step in enumerate(steps[:-1]):
        line = _line_points(step.w_after, xlim, ylim)
        if line is not None:
            shade = 0.85 - 0.55 * (k + 1) / max(count, 1)
            ax.plot(*line, color=str(shade), linewidth=1.0, zorder=1,
                    label="w_t after each update" if k == 0 else None)
    final = _line_points(facts.w, xlim, ylim)
    if final is not None:
        ax.plot(*final, color="black", linewidth=2.2, zorder=2,
                label=f"final w (after {facts.updates} updates)")
    reference = _line_points(separator.w, xlim, ylim)
    if reference is not None and separator.kind == "max-margin":
        ax.plot(*reference, color="#2ca02c", linestyle="--", linewidth=2.0, zorder=2,
                label="max-margin separator w_f")
    ax.scatter([], [], marker="o", facecolors="none", color=_POSITIVE, label="y = +1")
    ax.scatter([], [], marker="x", color=_NEGATIVE, label="y = -1")
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal")
    ax.set_xlabel("x1")
    ax.set_ylabel("x2")
    ax.set_title(f"PLA ({facts.order} order) on {ds.n} points; a label t means update t used the point",
                 fontsize=9)
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, framealpha=0.9)
    fig.tight_layout()
    return fig


def book_run_data(run_name: str) -> str:
    """The data set a named run uses."""
    from sitebuild.examples import RUNS

    return RUNS[run_name].data


def growth_bounds(book: Any, name: str = "walk") -> Any:
    """The two growth curves of the proof against their bounds: w_f·wₜ ≥ tρ and ‖wₜ‖² ≤ tR²."""
    plt = _pyplot()
    facts = book.run(name)
    separator = book.separator(book_run_data(name))
    inner, norm2 = growth_series(facts.result, separator.w)
    ts = list(range(len(inner)))
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.6, 4.0))
    left.plot(ts, [float(v) for v in inner], "o-", color=_POSITIVE, label="w_f · w_t (exact run)")
    left.plot(ts, [float(t * separator.rho) for t in ts], "--", color="black", label="t ρ (lower bound)")
    left.set_xlabel("t (updates)")
    left.set_title("the inner product grows at least linearly")
    left.legend(fontsize=8)
    right.plot(ts, [float(v) for v in norm2], "o-", color=_NEGATIVE, label="‖w_t‖² (exact run)")
    right.plot(ts, [float(t * separator.R2) for t in ts], "--", color="black", label="t R² (upper bound)")
    right.set_xlabel("t (updates)")
    right.set_title("the squared length grows at most linearly")
    right.legend(fontsize=8)
    fig.suptitle(f"w_f: {separator.kind}", fontsize=9)
    fig.tight_layout()
    return fig


def cosine_bound(book: Any, name: str = "walk") -> Any:
    """cos∠(w_f, wₜ) along the run against its lower bound √t·ρ/(R‖w_f‖) and the ceiling 1."""
    plt = _pyplot()
    facts = book.run(name)
    separator = book.separator(book_run_data(name))
    inner, norm2 = growth_series(facts.result, separator.w)
    ts = list(range(1, len(inner)))
    cosines = [float(inner[t]) / math.sqrt(float(norm2[t] * separator.norm2)) for t in ts]
    horizon = max(math.floor(separator.bound), len(ts))
    bound_ts = [k * horizon / 200 for k in range(1, 201)]
    lower = [math.sqrt(t * float(separator.rho ** 2 / (separator.R2 * separator.norm2)))
             for t in bound_ts]
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    ax.plot(ts, cosines, "o-", color=_POSITIVE, label="cos(w_f, w_t) (run)")
    ax.plot(bound_ts, lower, "--", color="black", label="√t ρ / (R ‖w_f‖) (lower bound)")
    ax.axhline(1.0, color="#888888", linewidth=1.0, label="1 (no cosine exceeds it)")
    ax.axvline(float(separator.bound), color="#2ca02c", linestyle=":",
               label="T = R²‖w_f‖²/ρ² (where the bound reaches 1)")
    ax.set_xlabel("t (updates)")
    ax.set_xlim(0, max(float(separator.bound), len(ts)) * 1.05 + 1)
    ax.set_ylim(0, 1.08)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title("cos(w_f, w_t) stays above its lower bound, which would pass 1 after T updates",
                 fontsize=9)
    fig.tight_layout()
    return fig


def update_counts(book: Any, name: str = "walk") -> Any:
    """The distribution of update counts over seeded random orders, against the bound."""
    plt = _pyplot()
    study = book.orders(name)
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    low, high = study.min, study.max
    bins = [b - 0.5 for b in range(low, high + 2)]
    ax.hist(study.counts, bins=bins, color=_POSITIVE, edgecolor="white",
            label=f"{study.runs} random visiting orders")
    ax.axvline(float(study.bound), color="black", linestyle="--",
               label="bound R²‖w_f‖²/ρ²")
    ax.set_xlabel("number of updates until PLA halts")
    ax.set_ylabel("runs")
    if float(study.bound) > 8 * high:
        # The bound is far to the right of every count: a log axis shows both.
        ax.set_xscale("log")
        ax.set_xlim(max(low - 0.5, 0.5), float(study.bound) * 1.6)
    else:
        ax.set_xlim(0, float(study.bound) * 1.08 + 1)
    ax.legend(fontsize=8)
    within = "all below" if study.all_within_bound else "NOT all below"
    ax.set_title(f"updates over {study.runs} random orders: {low}..{high}, {within} the bound "
                 f"({study.bound_floor})\nw_f: {book.separator(study_data(name)).kind}", fontsize=9)
    fig.tight_layout()
    return fig


def pocket_errors(book: Any, name: str = "noisy") -> Any:
    """Training error of each wₜ of a Pocket walk, of the pocket, and of the literal variant
    that compares wₜ₊₁ with wₜ instead of with the pocket."""
    plt = _pyplot()
    real = book.pocket(name)
    literal = book.pocket(f"{name}-previous")
    n = real.n
    ts = list(range(len(real.result.walk_mistakes)))
    fig, ax = plt.subplots(figsize=(7.2, 4.0))
    ax.plot(ts, [float(Fraction(m, n)) for m in real.result.walk_mistakes], color="#bbbbbb",
            linewidth=0.9, label="w_t of the PLA walk")
    ax.step(ts, [float(Fraction(m, n)) for m in literal.result.pocket_mistakes], where="post",
            color="#ff7f0e", linestyle="--", linewidth=1.6,
            label="'pocket' compared with the previous w_t (literal variant)")
    ax.step(ts, [float(Fraction(m, n)) for m in real.result.pocket_mistakes], where="post",
            color=_POSITIVE, linewidth=2.2, label="pocket (compared with the pocket)")
    ax.set_xlabel("t (updates)")
    ax.set_ylabel("training error (mistakes / N)")
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=8, loc="upper right")
    ax.set_title(f"Pocket on {n} noisy points: the pocket's error never goes up", fontsize=9)
    fig.tight_layout()
    return fig


def study_data(name: str) -> str:
    """The data set a named order study uses."""
    from sitebuild.examples import STUDIES

    return STUDIES[name].data


FIGURES: dict[str, Callable[[Any], Any]] = {
    "pla-walk.png": pla_walk,
    "growth-bounds.png": growth_bounds,
    "cosine-bound.png": cosine_bound,
    "update-counts.png": update_counts,
    "pocket-errors.png": pocket_errors,
}


def draw_all(book: Any, directory: Path) -> list[Path]:
    """Draw every figure of :data:`FIGURES` into ``directory``; returns the files written."""
    plt = _pyplot()
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for file_name, draw in FIGURES.items():
        fig = draw(book)
        path = directory / file_name
        fig.savefig(path, metadata={"Software": None})
        plt.close(fig)
        written.append(path)
    return written
