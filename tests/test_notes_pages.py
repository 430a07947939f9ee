"""The lecture-notes pages (docs/notes/) say what their own runs and the audit show.

Each test recomputes the fact a sentence of a page rests on, and checks that the sentence that
used to contradict it is gone.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pla
from verify import kernel
from sitebuild.examples import ExampleBook
from sitebuild.figures import growth_series
from sitebuild.mathml import latex_to_mathml

ROOT = Path(__file__).resolve().parents[1]
NOTES = ROOT / "docs" / "notes"


def page(name: str) -> str:
    return (NOTES / name).read_text(encoding="utf-8")


def test_convergence_page_cosine_falls_but_stays_above_its_rising_bound(tmp_path):
    book = ExampleBook(tmp_path)
    result = book.run("walk").result
    sep = book.separator("walk")
    inner, norm2 = growth_series(result, sep.w)
    # sign(cos)·cos² is ordered like the cosine and exact
    cos2 = [i * abs(i) / (n * sep.norm2) for i, n in zip(inner[1:], norm2[1:])]
    falls = [t + 1 for t in range(1, len(cos2)) if cos2[t] < cos2[t - 1]]
    assert falls, "the page says the cosine is not monotone on this run"
    lower2 = [t * sep.rho ** 2 / (sep.R2 * sep.norm2) for t in range(1, len(cos2) + 1)]
    assert all(c >= low for c, low in zip(cos2, lower2))
    assert all(b > a for a, b in zip(lower2, lower2[1:]))
    text = page("convergence.md")
    assert "climbs" not in text and "*not* monotone" in text


def test_conventions_page_agrees_with_the_audit_on_the_strict_bound():
    text = page("conventions.md")
    assert "ends, correctly, with a bound" not in text
    assert "t < (R/\\gamma)^2" in text and "that is false" in text
    # the audit's reason: on tight.dat the bound (R/gamma)^2 is attained
    ds = pla.load(str(ROOT / "docs" / "data" / "audit" / "tight.dat"))
    R2 = max(sum(v * v for v in x) for x in ds.X)
    gamma = min(y * x[1] for x, y in zip(ds.X, ds.labels))       # W_opt = (0, 1), norm 1
    assert pla.run(ds).updates == R2 / gamma ** 2


def test_conventions_page_sign_plus_one_can_halt_at_a_non_separator():
    text = page("conventions.md")
    assert "**not** a separator" in text and "pla run two-points.dat --zero positive" in text
    block = re.search(r"```pla-file two-points.dat\n(.*?)```", text, re.S).group(1)
    rows = [line.split() for line in block.strip().splitlines()]
    ds = pla.Dataset.from_rows([[r[0]] for r in rows], [int(r[1]) for r in rows])
    r = pla.run(ds, zero="positive")
    assert r.halted and r.updates == 1 and r.w == (-1, 1)
    assert min(y * sum(a * b for a, b in zip(r.w, x)) for x, y in zip(ds.X, ds.labels)) == 0


def test_separability_page_distinguishes_sign_separable_from_positive_margin():
    text = page("separability.md")
    assert "without having to decide what" not in text
    assert "not quite the same" in text and "Without a bias they differ" in text
    # the page's example: opposite vectors, same label, no bias
    ds = pla.Dataset.from_rows([[1, 0], [-1, 0], [0, -1]], [1, 1, -1], bias=False)
    assert all((1 if x[1] >= 0 else -1) == y for x, y in zip(ds.X, ds.labels))  # W = (0, 1)
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, [1, 1, 0])
    # with a bias, the threshold shift of the page repairs a sign-separator with zero margin
    ds = pla.Dataset.from_rows([[1], [-1]], [1, -1])
    w = (Fraction(0), Fraction(1))
    assert min(y * (w[0] + w[1] * x[1]) for x, y in zip(ds.X, ds.labels)) > 0


def test_pocket_arg_min_renders_without_a_star():
    text = page("pocket.md")
    assert "\\operatorname*" not in text
    (formula,) = [b for b in re.findall(r"\$\$(.*?)\$\$", text, re.S) if "argmin" in b]
    mathml = latex_to_mathml(formula.strip(), display=True)
    assert "<mo>*</mo>" not in mathml and "<mo><mrow>" not in mathml
    assert "<mo>argmin</mo>" in mathml
    for md in (ROOT / "docs").rglob("*.md"):
        assert "\\operatorname*" not in md.read_text(encoding="utf-8"), md
