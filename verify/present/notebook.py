"""Rich display in Jupyter of what :mod:`verify` established: a checked run's report, a
certificate, a claim's verdict.

Each object's ``_repr_html_`` imports this module on first display and calls one function
here; the plain ``repr`` is unchanged.  Every number is the exact one (long ones folded behind
their abbreviation by :func:`pla.notebook.folded_number_html`); nothing here decides anything.

>>> from fractions import Fraction
>>> from verify.search.certificates import NonSeparable
>>> "Gordan" in certificate_html(NonSeparable((Fraction(1), Fraction(1))))
True
"""

from __future__ import annotations

import html
from typing import Any, Sequence

from pla.notebook import folded_number_html, notebook_block

__all__ = ["report_html", "certificate_html", "verdict_html"]

#: The badge colour of a claim without its expected verdict: bad, or open (nothing decided).
_BADGE = {"refuted": "bad", "invalid": "bad", "vacuous": "open", "unproved": "open"}


def _vector_html(values: Sequence[Any] | None) -> str:
    if values is None:
        return "none"
    return "(" + ", ".join(folded_number_html(v) for v in values) + ")"


def _number_html(value: Any) -> str:
    return "none" if value is None else folded_number_html(value)


def _table(caption: str, rows: Sequence[tuple[str, str]]) -> str:
    body = "".join(f"<tr><th>{name}</th><td>{value}</td></tr>" for name, value in rows)
    return (f'<table class="pla-exact"><caption>{html.escape(caption)}</caption>'
            f"{body}</table>")


def report_html(report: Any) -> str:
    """A :class:`verify.checks.monitor.MonitorReport` as a table of its exact numbers."""
    rows = [("w<sub>f</sub>", _vector_html(report.wf) + f" — {html.escape(report.wf_kind)}"),
            ("ρ = min y<sub>n</sub> w<sub>f</sub>·x<sub>n</sub>", _number_html(report.rho)),
            ("R² = max ‖x<sub>n</sub>‖²", _number_html(report.R2)),
            ("‖w<sub>f</sub>‖²", _number_html(report.norm2)),
            ("γ² = ρ²/‖w<sub>f</sub>‖²", _number_html(report.gamma2))]
    if report.classical:
        rows.append(("bound R²‖w<sub>f</sub>‖²/ρ²", _number_html(report.bound)
                     + f", so at most <code>{report.bound_updates}</code> updates"))
    elif report.wf is not None:
        rows.append(("generalised bound (w₀ ≠ 0)", f"at most <code>{report.bound_updates}</code> "
                     "updates (the classical bound does not apply)"))
    rows += [("this run", f"<code>{report.updates}</code> updates"),
             ("checks", f"<code>{report.checks}</code> inequalities checked exactly, "
                        f"<code>{report.violations}</code> violations"),
             ("hypothesis", html.escape(report.hypothesis))]
    badge = "good" if report.violations == 0 else "bad"
    head = (f'<p><span class="pla-badge pla-badge-{badge}">'
            f'{"proof checked" if badge == "good" else "violated"}</span></p>')
    return notebook_block(head + _table("A run checked against Novikoff's proof", rows))


def certificate_html(certificate: Any) -> str:
    """A :class:`verify.search.certificates.Separator` or ``NonSeparable`` as a table."""
    if not certificate.separable:
        rows = [("λ (Gordan multipliers)", _vector_html(certificate.lam)),
                ("rows with λ<sub>n</sub> > 0", html.escape(", ".join(
                    str(n + 1) for n in certificate.support)))]
        head = '<p><span class="pla-badge pla-badge-bad">not separable</span></p>'
        return notebook_block(head + _table(
            "Gordan certificate (checked by the kernel): Σ λₙ yₙ xₙ = 0, λ ≥ 0, λ ≠ 0", rows))
    rows = [("w (bias first)", _vector_html(certificate.w)),
            ("kind", html.escape(certificate.kind)),
            ("ρ = min y<sub>n</sub> w·x<sub>n</sub>", _number_html(certificate.rho)
             + f" (row {certificate.argmin + 1})"),
            ("R² = max ‖x<sub>n</sub>‖²", _number_html(certificate.R2)),
            ("‖w‖²", _number_html(certificate.norm2)),
            ("γ² = ρ²/‖w‖²", _number_html(certificate.gamma2)),
            ("bound R²‖w‖²/ρ²", _number_html(certificate.bound)
             + f", so PLA makes at most <code>{certificate.bound_updates}</code> updates")]
    if certificate.alpha is not None:
        rows.append(("α (KKT multipliers)", _vector_html(certificate.alpha)))
    if certificate.note:
        rows.append(("note", html.escape(certificate.note)))
    head = '<p><span class="pla-badge pla-badge-good">separable</span></p>'
    return notebook_block(head + _table("Separator (checked by the kernel)", rows))


def verdict_html(verdict: Any) -> str:
    """A claim's :class:`verify.claims.checker.Verdict`: its badge, its statement and, folded,
    the certificate or counterexample."""
    claim = verdict.claim
    status = verdict.status
    expected = "" if claim is None or claim.expect == "proved" else f" (expected {claim.expect})"
    name = f" {claim.ident}" if claim is not None and claim.ident else ""
    badge = "good" if verdict.as_expected else ("bad" if status == "proved" else _BADGE[status])
    head = (f'<p><span class="pla-badge pla-badge-{badge}">'
            f"{html.escape(status)}</span> Claim{html.escape(name + expected)}</p>")
    statement = ""
    if claim is not None:
        lines = [f"Uses {', '.join(claim.uses)}."] if claim.uses else []
        lines += [f"Assume {r.text}." for r in claim.assumptions]
        lines += ["Then " + "; ".join(r.text for r in claim.goals) + "."]
        statement = "".join(f"<p>{html.escape(line)}</p>" for line in lines)
    title = {"proved": "Certificate (checked by the kernel)",
             "refuted": "Counterexample"}.get(status, "Why")
    detail = (f"<details><summary>{title}</summary>"
              f'<pre style="white-space:pre-wrap">{html.escape(verdict.explain())}</pre></details>')
    return notebook_block(head + statement + detail)
