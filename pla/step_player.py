"""The step player: a PLA run (or a Pocket run) replayed step by step, as one self-contained
HTML block: the site's lecture pages and Jupyter (:meth:`pla.Result._repr_html_`) show the same.

- an SVG drawing of every state of the run (the data, the boundary of wₜ with its positive
  side shaded, the normal vectors of wₜ and w_f, the mistake about to be corrected), one
  ``<g class="pla-frame">`` per state, drawn here in Python;
- the exact numbers of every state, embedded as JSON in a ``<script type="application/json">``
  block (a page opened from disk cannot ``fetch()`` a local file): the proof's quantities
  w_f·wₜ against tρ, ‖wₜ‖² against tR² and the cosine against its lower bound for PLA, the two
  error counts for Pocket, each as an exact fraction and, for reading, a decimal;
- the controls (first, back, play/pause, forward, last, speed), which
  ``pla/assets/step-player.js`` wires up; the script only shows one frame and copies the
  precomputed texts, it computes nothing (no network, no framework);
- a static fallback for readers without JavaScript: the states as a sequence of small SVG
  pictures with their numbers (inside ``<noscript>``).

Every value shown is recomputed exactly from the steps and checked against the proof's
inequalities (a violated one raises :class:`PlayerError`).  Floats appear only as drawing
coordinates and in the decimal renderings of exact fractions.  The site's build
(``docs/hooks/sitebuild/step_player.py``) feeds it traces of ``pla run``; :mod:`pla.notebook`
feeds it a :class:`pla.Result`.

>>> from fractions import Fraction as F
>>> exact_text(F(7, 3))
'7/3'
>>> decimal_text(F(7, 3))
'2.33333'
>>> decimal_text(F(-1, 8), digits=2)
'-0.12'
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

__all__ = [
    "PlayerError",
    "exact_text",
    "decimal_text",
    "sqrt_decimal_text",
    "pla_states",
    "player_html",
    "player_assets",
]


class PlayerError(ValueError):
    """A step player cannot be built: unknown run, a trace that does not match, a failed check."""



def exact_text(value: Fraction | int) -> str:
    """An exact number as text: ``p/q`` or ``p``.

    >>> exact_text(Fraction(-6, 4)), exact_text(3)
    ('-3/2', '3')
    """
    return str(Fraction(value))


def decimal_text(value: Fraction | int, digits: int = 5) -> str:
    """``value`` rounded to ``digits`` decimal places (half even), for reading only.

    >>> decimal_text(Fraction(1, 3), digits=3), decimal_text(2)
    ('0.333', '2.00000')
    """
    value = Fraction(value)
    with localcontext() as context:
        context.prec = 60
        number = Decimal(value.numerator) / Decimal(value.denominator)
        return str(number.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN))


def sqrt_decimal_text(square: Fraction, digits: int = 5) -> str:
    """The decimal of √square (square ≥ 0), for reading only.

    >>> sqrt_decimal_text(Fraction(1, 4)), sqrt_decimal_text(Fraction(2), digits=3)
    ('0.50000', '1.414')
    """
    if square < 0:
        raise ValueError(f"square root of the negative number {square}")
    with localcontext() as context:
        context.prec = 60
        root = (Decimal(square.numerator) / Decimal(square.denominator)).sqrt()
        return str(root.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN))


def _dot(a: Sequence[Fraction], b: Sequence[Fraction]) -> Fraction:
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


def _number(value: Fraction | int) -> dict[str, str]:
    return {"exact": exact_text(value), "decimal": decimal_text(value)}


def _vector_text(w: Sequence[Fraction]) -> str:
    return "(" + ", ".join(exact_text(v) for v in w) + ")"


def pla_states(steps: Sequence[dict[str, Any]], summary: dict[str, Any],
               X: Sequence[tuple[Fraction, ...]], labels: Sequence[int], sep: Any,
               name: str) -> tuple[list[tuple[Fraction, ...]], list[dict[str, Any]]]:
    """The weights w₀..w_T and the states of the player, from the step lines of a trace.

    Each step must be wₜ₊₁ = wₜ + y x of the data (x and y taken from the data, not the
    trace), and every state must satisfy the proof's inequalities for ``sep`` (an object with the
    exact ``w``, ``rho``, ``R2`` and ``norm2`` of a separator); otherwise :class:`PlayerError`.
    """
    weights = [tuple(Fraction(0) for _ in X[0])]
    for k, step in enumerate(steps):
        before = tuple(Fraction(v) for v in step["w_before"])
        after = tuple(Fraction(v) for v in step["w_after"])
        if not 0 <= step["index"] < len(X) or step["y"] != labels[step["index"]]:
            raise PlayerError(f"{name}: step {k} corrects no point of the data")
        x = X[step["index"]]
        if step["t"] != k or before != weights[-1] or \
                after != tuple(b + step["y"] * xi for b, xi in zip(before, x)):
            raise PlayerError(f"{name}: step {k} is not w_t + y x of the data from w_0 = 0")
        if step["y"] * _dot(before, x) > 0 or Fraction(step["score"]) != _dot(before, x):
            raise PlayerError(f"{name}: step {k} corrects a point that is not a mistake")
        weights.append(after)
    final = weights[-1]
    if tuple(Fraction(v) for v in summary["w"]) != final or \
            any(y * _dot(final, x) <= 0 for x, y in zip(X, labels)):
        raise PlayerError(f"{name}: the trace does not end at a w without mistakes")
    states = []
    for k, w in enumerate(weights):
        inner = _dot(sep.w, w)
        norm2 = _dot(w, w)
        inner_bound = k * sep.rho
        norm_bound = k * sep.R2
        if inner < inner_bound:
            raise PlayerError(f"{name}: w_f.w_t >= t rho fails at t = {k}: {inner} < {inner_bound}")
        if norm2 > norm_bound:
            raise PlayerError(f"{name}: ||w_t||^2 <= t R^2 fails at t = {k}: {norm2} > {norm_bound}")
        state: dict[str, Any] = {
            "t": k,
            "w": _vector_text(w),
            "inner": _number(inner), "inner_bound": _number(inner_bound),
            "norm2": _number(norm2), "norm_bound": _number(norm_bound),
        }
        if k >= 1:
            cos2 = inner * inner / (sep.norm2 * norm2)
            cos2_bound = k * sep.rho * sep.rho / (sep.R2 * sep.norm2)
            if cos2 < cos2_bound:
                raise PlayerError(f"{name}: cosine bound fails at t = {k}: {cos2} < {cos2_bound}")
            state["cos2"] = exact_text(cos2)
            state["cos"] = {"decimal": sqrt_decimal_text(cos2)}
            state["cos2_bound"] = exact_text(cos2_bound)
            state["cos_bound"] = {"decimal": sqrt_decimal_text(cos2_bound)}
            cosine_bars = [round(float(cos2) ** 0.5, 4), round(float(cos2_bound) ** 0.5, 4)]
        else:
            state["cos2"] = state["cos2_bound"] = "undefined at t = 0"
            state["cos"] = {"text": "undefined (w₀ = 0)"}
            state["cos_bound"] = {"exact": "0"}
            cosine_bars = [0.0, 0.0]
        state["bars"] = {"inner": [inner, inner_bound], "norm": [norm2, norm_bound],
                         "cos": cosine_bars}
        if k < len(steps):
            step = steps[k]
            state["mistake"] = {"n": step["index"] + 1, "y": step["y"],
                                "score": exact_text(Fraction(step["score"]))}
        states.append(state)
    _scale_bars(states)
    return weights, states


def _scale_bars(states: list[dict[str, Any]], absolute: Sequence[str] = ("cos",)) -> None:
    """Turn each gauge's [value, bound] into fractions of the gauge's largest value (for drawing);
    the gauges named in ``absolute`` are already on a 0..1 scale (a cosine).

    >>> states = [{"bars": {"g": [Fraction(1), Fraction(2)]}}, {"bars": {"g": [Fraction(4), 0]}}]
    >>> _scale_bars(states); states[0]["bars"]["g"], states[1]["bars"]["g"]
    ([0.25, 0.5], [1.0, 0.0])
    """
    names = {name for state in states for name in state["bars"]} - set(absolute)
    for name in names:
        largest = max((float(v) for state in states for v in state["bars"][name]), default=0.0)
        for state in states:
            state["bars"][name] = [round(float(v) / largest, 4) if largest > 0 else 0.0
                                   for v in state["bars"][name]]


# -- drawing ----------------------------------------------------------------------------------

_SIZE = 320.0
_PAD = 12.0


@dataclass(frozen=True)
class _View:
    """The data window: [lo, hi] in both coordinates, mapped onto the square picture."""

    lo: float
    hi: float

    def px(self, x: float) -> float:
        return _PAD + (x - self.lo) / (self.hi - self.lo) * (_SIZE - 2 * _PAD)

    def py(self, y: float) -> float:
        return _SIZE - self.px(y)

    def box(self) -> list[tuple[float, float]]:
        lo, hi = self.lo, self.hi
        return [(lo, lo), (hi, lo), (hi, hi), (lo, hi)]


def _view(points: Sequence[tuple[Sequence[Fraction], int]]) -> _View:
    coords = [float(c) for x, _ in points for c in x[1:3]]
    span = max(max(abs(c) for c in coords), 1e-9) * 1.15
    return _View(-span, span)


def _half_plane(view: _View, w: Sequence[Fraction]) -> list[tuple[float, float]]:
    """The part of the window where w·(1, x, y) ≥ 0 (a polygon, maybe empty)."""
    b, a1, a2 = (float(v) for v in w[:3])

    def value(p: tuple[float, float]) -> float:
        return b + a1 * p[0] + a2 * p[1]

    box = view.box()
    out: list[tuple[float, float]] = []
    for i, p in enumerate(box):
        q = box[(i + 1) % len(box)]
        vp, vq = value(p), value(q)
        if vp >= 0:
            out.append(p)
        if (vp >= 0) != (vq >= 0):
            s = vp / (vp - vq)
            out.append((p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])))
    return out


def _boundary(view: _View, w: Sequence[Fraction]) -> tuple[tuple[float, float], ...] | None:
    """The segment of the line w·(1, x, y) = 0 inside the window (None if it misses it)."""
    b, a1, a2 = (float(v) for v in w[:3])
    box = view.box()
    hits = []
    for i, p in enumerate(box):
        q = box[(i + 1) % len(box)]
        vp, vq = b + a1 * p[0] + a2 * p[1], b + a1 * q[0] + a2 * q[1]
        if (vp > 0) != (vq > 0) and vp != vq:
            s = vp / (vp - vq)
            hits.append((p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])))
    return (hits[0], hits[1]) if len(hits) >= 2 else None


def _line_svg(view: _View, w: Sequence[Fraction], css: str) -> str:
    segment = _boundary(view, w)
    if segment is None:
        return ""
    (x1, y1), (x2, y2) = segment
    return (f'<line class="{css}" x1="{view.px(x1):.2f}" y1="{view.py(y1):.2f}" '
            f'x2="{view.px(x2):.2f}" y2="{view.py(y2):.2f}"/>')


def _arrow_svg(view: _View, w: Sequence[Fraction], css: str, label: str) -> str:
    """The normal vector (w₁, w₂), drawn from the centre with a fixed length."""
    a1, a2 = float(w[1]), float(w[2])
    length = (a1 * a1 + a2 * a2) ** 0.5
    if length == 0:
        return ""
    cx, cy = _SIZE / 2, _SIZE / 2
    scale = _SIZE * 0.22 / length
    ex, ey = cx + a1 * scale, cy - a2 * scale
    return (f'<line class="{css}" x1="{cx:.2f}" y1="{cy:.2f}" x2="{ex:.2f}" y2="{ey:.2f}" '
            f'marker-end="url(#{css}-head)"/>'
            f'<text class="{css}-label" x="{ex + 4:.2f}" y="{ey - 4:.2f}">w<tspan '
            f'class="pla-sub" dy="3">{label}</tspan></text>')


def _points_svg(view: _View, points: Sequence[tuple[Sequence[Fraction], int]]) -> str:
    parts = []
    for n, (x, y) in enumerate(points, start=1):
        px, py = view.px(float(x[1])), view.py(float(x[2]))
        if y > 0:
            parts.append(f'<circle class="pla-pos" cx="{px:.2f}" cy="{py:.2f}" r="5"><title>'
                         f'x{n} = ({exact_text(x[1])}, {exact_text(x[2])}), y = +1</title></circle>')
        else:
            parts.append(f'<rect class="pla-neg" x="{px - 4.5:.2f}" y="{py - 4.5:.2f}" width="9" '
                         f'height="9"><title>x{n} = ({exact_text(x[1])}, {exact_text(x[2])}), '
                         f'y = -1</title></rect>')
        if len(points) <= 24:
            parts.append(f'<text class="pla-index" x="{px + 6:.2f}" y="{py + 12:.2f}">{n}</text>')
    return "".join(parts)


def _polygon_svg(view: _View, polygon: list[tuple[float, float]], css: str) -> str:
    if len(polygon) < 3:
        return ""
    coords = " ".join(f"{view.px(x):.2f},{view.py(y):.2f}" for x, y in polygon)
    return f'<polygon class="{css}" points="{coords}"/>'


def _frame_svg(view: _View, data: dict[str, Any], k: int) -> str:
    """The drawing of state k: shading, boundaries, normals, the next mistake."""
    state = data["states"][k]
    w = data["weights"][k]
    parts = []
    if any(w[1:3]):
        parts.append(_polygon_svg(view, _half_plane(view, w), "pla-side"))
    if data["kind"] == "pocket":
        pocket_w = data["weights"][state["pocket_t"]]
        parts.append(_line_svg(view, pocket_w, "pla-pocket"))
        parts.append(_line_svg(view, w, "pla-wt"))
        parts.append(_arrow_svg(view, w, "pla-wt", "t"))
    else:
        parts.append(_line_svg(view, w, "pla-wt"))
        parts.append(_arrow_svg(view, w, "pla-wt", "t"))
    if "mistake" in state:
        x, _ = data["points"][state["mistake"]["n"] - 1]
        parts.append(f'<circle class="pla-mistake" cx="{view.px(float(x[1])):.2f}" '
                     f'cy="{view.py(float(x[2])):.2f}" r="10"/>')
    return "".join(parts)


def _defs_svg() -> str:
    return ("<defs>"
            + "".join(f'<marker id="{css}-head" viewBox="0 0 10 10" refX="9" refY="5" '
                      f'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
                      f'<path class="{css}-headpath" d="M0,0 L10,5 L0,10 z"/></marker>'
                      for css in ("pla-wt", "pla-wf"))
            + "</defs>")


def _static_svg(view: _View, data: dict[str, Any]) -> str:
    """What does not change from state to state: w_f (for PLA) and the data."""
    parts = []
    if data["kind"] == "pla":
        parts.append(_line_svg(view, data["wf"], "pla-wf"))
        parts.append(_arrow_svg(view, data["wf"], "pla-wf", "f"))
    return "".join(parts)


def _svg(view: _View, data: dict[str, Any], frames: Sequence[int], css: str, label: str) -> str:
    body = "".join(
        f'<g class="pla-frame" data-frame="{k}"{"" if i == 0 or css != "pla-stage" else " hidden"}>'
        f"{_frame_svg(view, data, k)}</g>" for i, k in enumerate(frames))
    return (f'<svg class="{css}" viewBox="0 0 {_SIZE:.0f} {_SIZE:.0f}" role="img" '
            f'aria-label="{html.escape(label)}">{_defs_svg()}'
            f'<rect class="pla-window" x="0" y="0" width="{_SIZE:.0f}" height="{_SIZE:.0f}"/>'
            f"{body}{_static_svg(view, data)}{_points_svg(view, data['points'])}</svg>")


# -- texts ------------------------------------------------------------------------------------

def _state_text(data: dict[str, Any], state: dict[str, Any]) -> str:
    """One line describing a state, for the static fallback."""
    t = state["t"]
    if data["kind"] == "pocket":
        text = (f"t = {t}: w_{t} = {state['w']} makes {state['walk_mistakes']} mistakes; the pocket "
                f"w_{state['pocket_t']} makes {state['pocket_mistakes']}.")
    else:
        text = (f"t = {t}: w_{t} = {state['w']}; w_f·w_{t} = {state['inner']['exact']} ≥ tρ = "
                f"{state['inner_bound']['exact']}; ‖w_{t}‖² = {state['norm2']['exact']} ≤ tR² = "
                f"{state['norm_bound']['exact']}.")
    if "mistake" in state:
        m = state["mistake"]
        text += f" Next mistake: x{m['n']} (y = {m['y']:+d}, score {m['score']})."
    else:
        text += " No mistake left." if data["kind"] == "pla" else ""
    return text


def _gauge(name: str, value: str, bound: str, label: str, relation: str) -> str:
    """A gauge: a bar for the value, a mark for the bound, and both numbers exactly."""
    return (f'<div class="pla-gauge" data-gauge="{name}">'
            f'<div class="pla-gauge-label">{label}</div>'
            f'<div class="pla-bar"><div class="pla-bar-value"></div><div class="pla-bar-bound"></div></div>'
            f'<div class="pla-gauge-numbers"><span data-field="{value}"></span> '
            f'<span class="pla-rel">{relation}</span> <span data-field="{bound}"></span></div>'
            f"</div>")


def _gauges_html(data: dict[str, Any]) -> str:
    if data["kind"] == "pocket":
        return ('<div class="pla-gauges">'
                + '<table class="pla-side-by-side"><thead><tr><th></th><th>w<sub>t</sub> (the walk)</th>'
                  '<th>the pocket</th></tr></thead><tbody>'
                  '<tr><th>vector</th><td data-field="w_name"></td><td data-field="pocket_name"></td></tr>'
                  '<tr><th>weights</th><td data-field="w"></td><td data-field="pocket_w"></td></tr>'
                  '<tr><th>training mistakes</th><td data-field="walk_mistakes"></td>'
                  '<td data-field="pocket_mistakes"></td></tr>'
                  '<tr><th>training error</th><td data-field="walk_error"></td>'
                  '<td data-field="pocket_error"></td></tr></tbody></table>'
                + _gauge("errors", "walk_error", "pocket_error",
                         "training error of w<sub>t</sub> (bar) and of the pocket (mark)", "vs")
                + '<p class="pla-note">The pocket is replaced only by a w<sub>t</sub> with strictly '
                  'fewer mistakes, so its error never goes up. Errors are exact (mistakes / N).</p>'
                  "</div>")
    c = data["constants"]
    return ('<div class="pla-gauges">'
            + _gauge("inner", "inner", "inner_bound",
                     "w<sub>f</sub>·w<sub>t</sub> (bar) against tρ (mark)", "≥")
            + _gauge("norm", "norm2", "norm_bound",
                     "‖w<sub>t</sub>‖² (bar) against tR² (mark)", "≤")
            + _gauge("cos", "cos", "cos_bound",
                     "cos θ<sub>t</sub> (bar) against √t ρ / (R‖w<sub>f</sub>‖) (mark)", "≥")
            + f'<p class="pla-note">w<sub>f</sub> = {html.escape(c["wf"])} ({html.escape(c["wf_kind"])}), '
              f'ρ = {c["rho"]}, R² = {c["R2"]}, ‖w<sub>f</sub>‖² = {c["wf_norm2"]}; '
              f'bound T ≤ R²‖w<sub>f</sub>‖²/ρ² = {c["bound"]}, so at most {c["bound_floor"]} '
              f'updates; this run: {c["updates"]}. Exact fractions, decimals rounded for reading; '
              f'the cosine is compared through its square: cos²θ<sub>t</sub> = '
              f'<span data-field="cos2"></span> ≥ tρ²/(R²‖w<sub>f</sub>‖²) = '
              f'<span data-field="cos2_bound"></span>.</p>'
              "</div>")


def _controls_html(last: int) -> str:
    return ('<div class="pla-controls">'
            '<button type="button" data-action="first" title="first state">|◀ first</button>'
            '<button type="button" data-action="back" title="one step back">◀ back</button>'
            '<button type="button" data-action="play" title="play / pause">▶ play</button>'
            '<button type="button" data-action="forward" title="one step forward">forward ▶</button>'
            '<button type="button" data-action="last" title="last state">last ▶|</button>'
            f'<input type="range" class="pla-scrub" min="0" max="{last}" value="0" '
            'aria-label="step">'
            '<label class="pla-speed">speed <select data-action="speed">'
            '<option value="2000">slow</option><option value="1000" selected>normal</option>'
            '<option value="400">fast</option><option value="120">very fast</option>'
            "</select></label>"
            '<span class="pla-status" aria-live="polite"></span>'
            "</div>")


def _fallback_frames(count: int, limit: int = 16) -> list[int]:
    """All states when there are few, else ``limit`` evenly spaced ones (first and last kept).

    >>> _fallback_frames(5), _fallback_frames(201, limit=5)
    ([0, 1, 2, 3, 4], [0, 50, 100, 150, 200])
    """
    if count <= limit:
        return list(range(count))
    return sorted({round(i * (count - 1) / (limit - 1)) for i in range(limit)})


def _json_for_page(data: dict[str, Any]) -> str:
    payload = {"kind": data["kind"], "states": data["states"], "constants": data["constants"]}
    # "</" must not appear inside a <script> element.
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def player_html(data: dict[str, Any]) -> str:
    """The whole player (one HTML block without blank lines, safe inside Markdown)."""
    view = _view(data["points"])
    states = data["states"]
    last = len(states) - 1
    label = data["caption"]
    stage = _svg(view, data, range(len(states)), "pla-stage", label)
    legend = ('<p class="pla-legend"><span class="pla-key pla-key-pos"></span> y = +1 '
              '<span class="pla-key pla-key-neg"></span> y = −1 '
              '<span class="pla-key pla-key-wt"></span> boundary of w<sub>t</sub> (shaded: its + side) ')
    if data["kind"] == "pla":
        legend += '<span class="pla-key pla-key-wf"></span> w<sub>f</sub> '
    else:
        legend += '<span class="pla-key pla-key-pocket"></span> the pocket '
    legend += '<span class="pla-key pla-key-mistake"></span> the mistake corrected next</p>'
    fallback_items = "".join(
        f'<figure class="pla-still">{_svg(view, data, [k], "pla-still-svg", f"state {k}")}'
        f"<figcaption>{html.escape(_state_text(data, states[k]))}</figcaption></figure>"
        for k in _fallback_frames(len(states)))
    source = data.get("trace")
    source_line = (f'<p class="pla-source">Built from the trace of <code>{html.escape(source)}</code>.'
                   "</p>" if source else "")
    return (f'<div class="pla-player" id="player-{data["name"]}" data-kind="{data["kind"]}">'
            f'<p class="pla-caption">{html.escape(data["caption"])}</p>'
            f'<div class="pla-live" hidden>'
            f"{_controls_html(last)}"
            f'<div class="pla-panel"><div class="pla-drawing">{stage}{legend}</div>'
            f'<div class="pla-readout"><p class="pla-state"></p>{_gauges_html(data)}</div></div>'
            "</div>"
            f'<noscript><div class="pla-stills">{fallback_items}</div></noscript>'
            f'<script type="application/json" class="pla-player-data">{_json_for_page(data)}</script>'
            f"{source_line}</div>")


def player_assets() -> tuple[str, str]:
    """The player's stylesheet and script (``pla/assets/``), for a page that embeds them.

    >>> css, script = player_assets()
    >>> ".pla-player" in css and "pla-player-data" in script
    True
    """
    assets = Path(__file__).with_name("assets")
    return ((assets / "step-player.css").read_text(encoding="utf-8"),
            (assets / "step-player.js").read_text(encoding="utf-8"))
