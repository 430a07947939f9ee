"""Rich display in Jupyter (and VS Code, JupyterLab): a run as the site's step player.

:meth:`pla.Result._repr_html_` calls :func:`result_html`, imported on first display only, so
``import pla`` stays as fast as before.  A run of PLA from w₀ = 0 with η = 1 on data with two
features, whose steps were kept and which halted, is shown as the step player of
:mod:`pla.step_player` (the same one as the lecture pages: SVG with the data embedded, the
proof's gauges as exact fractions, its script and stylesheet inline — no CDN, no network).
The proof's w_f is the run's own final w, checked exactly to separate the data.  Any other run
is shown as a table of its exact numbers, long ones folded (:func:`folded_number_html`), with
a line saying why there is no player.

>>> import pla
>>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> page = result_html(pla.run(ds, order="first"))
>>> 'class="pla-player"' in page and "pla-player-data" in page and "http" not in page
True
"""

from __future__ import annotations

import html
import itertools
from fractions import Fraction
from math import floor
from typing import Any, Sequence

from pla.exact import format_number
from pla.step_player import (
    PlayerError, _dot, _vector_text, exact_text, pla_states, player_assets, player_html,
)

__all__ = ["MAX_PLAYER_STATES", "MAX_PLAYER_POINTS", "result_html", "folded_number_html",
           "vector_html", "number_html", "table_html", "notebook_block", "player_refusal"]

#: A run with more states than this is shown as a table (every state is one SVG frame).
MAX_PLAYER_STATES = 400
#: Data with more rows than this are shown as a table (every point is drawn).
MAX_PLAYER_POINTS = 2000

_PLAYER_NUMBERS = itertools.count(1)

#: The site theme's colours the stylesheet uses, for a notebook that has no such theme.
_THEME_VARIABLES = (
    ".pla-nb { --md-default-fg-color: currentColor; --md-default-bg-color: transparent; "
    "--md-default-fg-color--lighter: rgba(127, 127, 127, 0.6); "
    "--md-default-fg-color--lightest: rgba(127, 127, 127, 0.3); --md-accent-fg-color: #526cfe; }"
    ".pla-nb table.pla-exact td, .pla-nb table.pla-exact th { text-align: left; "
    "padding: 0.15em 0.6em; vertical-align: top; }"
    ".pla-nb .pla-badge { display: inline-block; padding: 0.1em 0.6em; border-radius: 0.8em; "
    "color: #fff; font-weight: 600; }"
    ".pla-nb .pla-badge-good { background: #2e7d32; } .pla-nb .pla-badge-bad { background: #c62828; }"
    ".pla-nb .pla-badge-open { background: #ef6c00; }"
)


def folded_number_html(value: Fraction | int, limit: int = 40) -> str:
    """An exact number as HTML: the whole text when short, else folded (``<details>``) behind
    the abbreviation of :func:`pla.exact.format_number`; the exact text is always there.

    >>> folded_number_html(Fraction(3, 2))
    '<code>3/2</code>'
    >>> folded = folded_number_html(10**50)
    >>> folded.startswith("<details>") and str(10**50) in folded
    True
    """
    text = str(Fraction(value))
    if len(text) <= limit:
        return f"<code>{text}</code>"
    return (f"<details><summary><code>{html.escape(format_number(value, limit))}</code></summary>"
            f'<code style="overflow-wrap:anywhere">{text}</code></details>')


def vector_html(values: Sequence[Any] | None) -> str:
    """``(a, b, c)`` with every entry exact (:func:`folded_number_html`), or ``none``.

    >>> vector_html([Fraction(1, 2), 3])
    '(<code>1/2</code>, <code>3</code>)'
    """
    if values is None:
        return "none"
    return "(" + ", ".join(folded_number_html(v) for v in values) + ")"


def number_html(value: Fraction | int | None) -> str:
    """An exact number (:func:`folded_number_html`), or ``none``."""
    return "none" if value is None else folded_number_html(value)


def table_html(caption: str, rows: Sequence[tuple[str, str]]) -> str:
    """A two-column table of (name, HTML value) rows under ``caption`` (escaped)."""
    body = "".join(f"<tr><th>{name}</th><td>{value}</td></tr>" for name, value in rows)
    return (f'<table class="pla-exact"><caption>{html.escape(caption)}</caption>'
            f"{body}</table>")


def notebook_block(inner: str, *, with_player: bool = False) -> str:
    """``inner`` inside a ``<div class="md-typeset pla-nb">`` with its styles inline (with the
    player's stylesheet and script when ``with_player``): one self-contained HTML output."""
    if not with_player:
        return f'<div class="md-typeset pla-nb"><style>{_THEME_VARIABLES}</style>{inner}</div>'
    css, script = player_assets()
    return (f'<div class="md-typeset pla-nb"><style>{_THEME_VARIABLES}{css}</style>{inner}'
            f"<script>{script}</script></div>")


def player_refusal(result: Any) -> str | None:
    """Why ``result`` cannot be shown as a step player, or None when it can.

    >>> import pla
    >>> ds = pla.Dataset.from_rows([[1], [-1]], [1, -1])
    >>> player_refusal(pla.run(ds))
    'the player draws data with 2 features; these have 1'
    """
    dataset, options = result.dataset, result.options
    if dataset is None:
        return "the run does not carry its data (made by pla.run, it would)"
    if not dataset.bias or dataset.d != 2:
        return f"the player draws data with 2 features; these have {dataset.d}"
    if dataset.n > MAX_PLAYER_POINTS:
        return f"more than {MAX_PLAYER_POINTS} points to draw ({dataset.n})"
    if options.eta != 1 or options.w0 is not None or options.zero != "mistake":
        return "the proof's gauges are drawn for eta = 1, w0 = 0 and --zero mistake"
    if not result.halted:
        return "the run did not halt, so its final w is no separator to measure the proof by"
    if len(result.steps) != result.updates:
        return "the run did not keep its steps (keep_steps=False)"
    if result.updates + 1 > MAX_PLAYER_STATES:
        return f"more than {MAX_PLAYER_STATES} states to draw ({result.updates + 1})"
    return None


class _FinalSeparator:
    """The run's final w as the proof's w_f, with its exact constants (checked to separate)."""

    def __init__(self, X: list[tuple[Fraction, ...]], labels: list[int],
                 w: tuple[Fraction, ...]) -> None:
        self.w = w
        self.rho = min(y * _dot(w, x) for x, y in zip(X, labels))
        if self.rho <= 0:
            raise PlayerError(f"the final w does not separate the data (min y w.x = {self.rho})")
        self.R2 = max(_dot(x, x) for x in X)
        self.norm2 = _dot(w, w)
        self.bound = self.R2 * self.norm2 / (self.rho * self.rho)
        self.description = "the run's final w, which separates the data"


def _player_data(result: Any) -> dict[str, Any]:
    dataset = result.dataset
    X = [tuple(x) for x in dataset.X]
    labels = list(dataset.labels)
    sep = _FinalSeparator(X, labels, tuple(result.w))
    steps = [{"t": s.t, "index": s.index, "y": s.y, "score": s.score,
              "w_before": s.w_before, "w_after": s.w_after} for s in result.steps]
    name = f"run-{next(_PLAYER_NUMBERS)}"
    weights, states = pla_states(steps, {"w": result.w}, X, labels, sep, name)
    options = result.options
    return {
        "kind": "pla", "name": name, "points": list(zip(X, labels)), "wf": sep.w,
        "weights": weights, "states": states,
        "constants": {"rho": exact_text(sep.rho), "R2": exact_text(sep.R2),
                      "wf_norm2": exact_text(sep.norm2), "wf": _vector_text(sep.w),
                      "wf_kind": sep.description, "updates": result.updates,
                      "bound": exact_text(sep.bound), "bound_floor": floor(sep.bound)},
        "caption": f"PLA, order {options.order}, seed {options.seed}: {result.updates} updates "
                   f"on {dataset.n} points"
                   + (f" ({dataset.source})" if dataset.source else "") + ".",
    }


def _result_table(result: Any) -> str:
    options = result.options
    rows = [("w (bias first)", vector_html(result.w)),
            ("updates", f"<code>{result.updates}</code>"),
            ("epochs", f"<code>{result.epochs}</code>"),
            ("halted", "yes" if result.halted else f"no (stopped by {result.stopped_by})"),
            ("options", html.escape(f"order {options.order}, seed {options.seed}, eta "
                                    f"{options.eta}, zero {options.zero}"))]
    return table_html("", rows)


def result_html(result: Any) -> str:
    """The HTML of a :class:`pla.Result` in a notebook: the step player when the run can be
    drawn (see :func:`player_refusal`), always followed by the table of its exact numbers."""
    refusal = player_refusal(result)
    if refusal is None:
        inner = player_html(_player_data(result)) + _result_table(result)
        return notebook_block(inner, with_player=True)
    note = f'<p class="pla-note">No step player: {html.escape(refusal)}.</p>'
    return notebook_block(_result_table(result) + note)
