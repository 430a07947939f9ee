"""The step players of the lecture pages: a PLA run (or a Pocket run) replayed step by step.

A page writes ``<!-- pla: step-player NAME -->`` (NAME a run of :data:`PLAYERS`) or
``<!-- pla: pocket-player NAME -->`` (a Pocket run of :data:`sitebuild.examples.POCKETS`); the
build replaces the marker by the player of :mod:`pla.step_player` (the same one Jupyter shows
for a :class:`pla.Result`), whose script and stylesheet are ``pla/assets/step-player.{js,css}``
(``docs/javascripts`` and ``docs/stylesheets`` link to them).

The PLA player reads the trace that the real ``pla run DATA --trace FILE`` writes; every value
it shows is recomputed exactly from that trace and checked against the proof's inequality
(a violated one stops the build).

>>> from fractions import Fraction as F
>>> exact_text(F(7, 3))
'7/3'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from pla.step_player import (  # noqa: F401  (re-exported for the site and its tests)
    PlayerError, _dot, _number, _scale_bars, _vector_text, decimal_text, exact_text, player_html,
    pla_states, sqrt_decimal_text,
)

__all__ = [
    "PLAYERS",
    "PlayerSpec",
    "PlayerError",
    "exact_text",
    "decimal_text",
    "sqrt_decimal_text",
    "pla_player_data",
    "pla_states",
    "pocket_player_data",
    "player_html",
    "expand_player_markers",
]

# A marker stands alone on its line (so one quoted in code or a table is left alone).
MARKER = re.compile(r"^<!--\s*pla:\s*(step-player|pocket-player)\s+([A-Za-z0-9_-]+)\s*-->[ \t]*$",
                    re.MULTILINE)


@dataclass(frozen=True)
class PlayerSpec:
    """A PLA step player: the run ``run`` of :data:`sitebuild.examples.RUNS`, replayed from
    the trace of ``pla run`` with the same data and order."""

    name: str
    run: str
    caption: str


PLAYERS = {
    spec.name: spec
    for spec in (
        PlayerSpec("textbook-first", "textbook-first",
                   "The textbook walk-through (order first), replayed from its trace."),
        PlayerSpec("walk", "walk", "The walk in the plane (cyclic order), replayed from its trace."),
    )
}


# -- the PLA player: data ---------------------------------------------------------------------

def read_trace(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """The header, the step lines and the summary of a ``pla run --trace`` file."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    if not lines or lines[0].get("kind") != "header" or lines[-1].get("kind") != "summary":
        raise PlayerError(f"{path.name}: not a complete pla trace (header ... summary)")
    steps = [line for line in lines[1:-1] if line.get("kind") == "step"]
    return lines[0], steps, lines[-1]


def pla_player_data(book: Any, spec: PlayerSpec, workdir: Path) -> dict[str, Any]:
    """Every state of run ``spec.run``, from the trace of the real ``pla run --trace``.

    States k = 0..T: wₖ, the mistake corrected next (none at the end), and the proof's three
    quantities for wₖ, each checked exactly: w_f·wₖ ≥ kρ, ‖wₖ‖² ≤ kR², and (k ≥ 1)
    cos²θₖ = (w_f·wₖ)²/(‖w_f‖²‖wₖ‖²) ≥ kρ²/(R²‖w_f‖²), the squared cosine bound.
    """
    from sitebuild.commands import CommandFailed, run_command
    from sitebuild.examples import RUNS

    run = RUNS[spec.run]
    if run.eta != "1" or run.zero != "mistake":
        raise PlayerError(f"player {spec.name!r}: the gauges assume eta = 1 and w0 = 0")
    data_path = book.data_path(run.data)
    dataset = book.dataset(run.data)
    workdir.mkdir(parents=True, exist_ok=True)
    trace = workdir / f"{spec.name}.jsonl"
    argv = ["pla", "run", str(data_path), "--order", run.order, "--seed", str(run.seed),
            "--trace", trace.name]
    made = run_command(argv, workdir)
    if made.status != 0:
        raise CommandFailed(made.display, made.status, 0, made.output)
    header, steps, summary = read_trace(trace)
    if header["data_sha256"] != dataset.fingerprint and \
            not dataset.fingerprint.startswith(header["data_sha256"][:16]):
        raise PlayerError(f"{trace.name}: trace of other data ({header['data_sha256'][:16]})")
    if not summary.get("halted"):
        raise PlayerError(f"{trace.name}: the run did not halt")
    sep = book.separator(run.data)
    X = [tuple(Fraction(v) for v in x) for x in dataset.X]
    labels = list(dataset.labels)
    weights, states = pla_states(steps, summary, X, labels, sep, spec.name)
    return {
        "kind": "pla",
        "name": spec.name,
        "points": [(x, y) for x, y in zip(X, labels)],
        "wf": sep.w,
        "weights": weights,
        "states": states,
        "constants": {"rho": exact_text(sep.rho), "R2": exact_text(sep.R2),
                      "wf_norm2": exact_text(sep.norm2), "wf": _vector_text(sep.w),
                      "wf_kind": sep.description, "updates": len(steps),
                      "bound": exact_text(sep.bound), "bound_floor": sep.bound_floor},
        "caption": spec.caption,
        "trace": f"pla run {run.data}.dat --order {run.order} --trace {trace.name}",
    }


def pocket_player_data(book: Any, name: str) -> dict[str, Any]:
    """Every state of Pocket run ``name``: the walk's wₜ and the pocket, with exact mistake counts.

    The walk is replayed with :func:`pla.run` (same order, seed and number of updates); every
    mistake count is recounted here and must equal the Pocket result's, and the pocket is
    recomputed as the first wₛ (s ≤ t) with the fewest mistakes.
    """
    import pla
    from sitebuild.examples import POCKETS

    if name not in POCKETS:
        raise PlayerError(f"no pocket run named {name!r}")
    spec = POCKETS[name]
    if spec.compare != "pocket":
        raise PlayerError(f"pocket player {name!r}: only compare='pocket' is drawn")
    facts = book.pocket(name)
    result = facts.result
    dataset = book.dataset(spec.data)
    X = [tuple(Fraction(v) for v in x) for x in dataset.X]
    labels = list(dataset.labels)
    walk = pla.run(dataset, spec.order, seed=spec.seed, max_updates=spec.updates)
    weights = [tuple(Fraction(0) for _ in X[0])] + [tuple(s.w_after) for s in walk.steps]
    if len(weights) != len(result.walk_mistakes):
        raise PlayerError(f"pocket {name!r}: replayed walk has {len(weights) - 1} updates, "
                          f"the Pocket run {len(result.walk_mistakes) - 1}")

    def mistakes(w: tuple[Fraction, ...]) -> int:
        return sum(1 for x, y in zip(X, labels) if pla.is_mistake(_dot(w, x), y, "mistake"))

    states = []
    best = 0
    for t, w in enumerate(weights):
        count = mistakes(w)
        if count != result.walk_mistakes[t]:
            raise PlayerError(f"pocket {name!r}: w_{t} makes {count} mistakes, "
                              f"the Pocket run says {result.walk_mistakes[t]}")
        if count < mistakes(weights[best]):
            best = t
        pocket_count = mistakes(weights[best])
        if pocket_count != result.pocket_mistakes[t]:
            raise PlayerError(f"pocket {name!r}: pocket after {t} updates makes {pocket_count} "
                              f"mistakes, the Pocket run says {result.pocket_mistakes[t]}")
        state: dict[str, Any] = {
            "t": t, "w": _vector_text(w), "pocket_t": best, "pocket_w": _vector_text(weights[best]),
            "w_name": f"w_{t}", "pocket_name": f"w_{best}",
            "walk_mistakes": count, "walk_error": _number(Fraction(count, len(X))),
            "pocket_mistakes": pocket_count, "pocket_error": _number(Fraction(pocket_count, len(X))),
            "replaced": best == t and t > 0,
            "bars": {"errors": [Fraction(count), Fraction(pocket_count)]},
        }
        if t < len(walk.steps):
            step = walk.steps[t]
            state["mistake"] = {"n": step.index + 1, "y": step.y,
                                "score": exact_text(_dot(w, X[step.index]))}
        states.append(state)
    _scale_bars(states)
    if best != result.pocket_t:
        raise PlayerError(f"pocket {name!r}: recomputed pocket w_{best}, the run says w_{result.pocket_t}")
    return {
        "kind": "pocket",
        "name": f"pocket-{name}",
        "points": [(x, y) for x, y in zip(X, labels)],
        "weights": weights,
        "states": states,
        "constants": {"n": len(X), "updates": len(weights) - 1},
        "caption": f"Pocket on the {spec.data} data: {len(weights) - 1} updates, order "
                   f"{spec.order}, seed {spec.seed}.",
    }


def expand_player_markers(markdown: str, book: Any, workdir: Path,
                          cache: dict[str, str] | None = None) -> str:
    """Replace every player marker of a page by its player (see the module docstring)."""
    cache = {} if cache is None else cache

    def replace(match: re.Match[str]) -> str:
        kind, name = match.group(1), match.group(2)
        key = f"{kind}:{name}"
        if key not in cache:
            if kind == "step-player":
                if name not in PLAYERS:
                    raise PlayerError(f"no step player named {name!r} (known: {', '.join(PLAYERS)})")
                data = pla_player_data(book, PLAYERS[name], workdir / "players")
            else:
                data = pocket_player_data(book, name)
            cache[key] = player_html(data)
        return "\n\n" + cache[key] + "\n\n"

    return MARKER.sub(replace, markdown)

