"""Rich display in Jupyter of what :mod:`verify` established: a checked run's report and a
claim's verdict (a certificate's is :mod:`verify.search.certificate_display`).

Each object's ``_repr_html_`` imports this module on first display and calls one function
here; the plain ``repr`` is unchanged.  Every number is the exact one (long ones folded behind
their abbreviation by :func:`pla.notebook.folded_number_html`); nothing here decides anything.

>>> from verify.claims.checker import check_claim_text
>>> "pla-badge-good" in verdict_html(check_claim_text("2 + 2 == 4"))
True
"""

from __future__ import annotations

import html
from typing import Any

from pla.notebook import notebook_block, number_html, table_html, vector_html

__all__ = ["report_html", "verdict_html"]

#: The badge colour of a claim without its expected verdict: bad, or open (nothing decided).
_BADGE = {"refuted": "bad", "invalid": "bad", "vacuous": "open", "unproved": "open"}


def report_html(report: Any) -> str:
    """A :class:`verify.checks.monitor.MonitorReport` as a table of its exact numbers."""
    rows = [("w<sub>f</sub>", vector_html(report.wf) + f" — {html.escape(report.wf_kind)}"),
            ("ρ = min y<sub>n</sub> w<sub>f</sub>·x<sub>n</sub>", number_html(report.rho)),
            ("R² = max ‖x<sub>n</sub>‖²", number_html(report.R2)),
            ("‖w<sub>f</sub>‖²", number_html(report.norm2)),
            ("γ² = ρ²/‖w<sub>f</sub>‖²", number_html(report.gamma2))]
    if report.classical:
        rows.append(("bound R²‖w<sub>f</sub>‖²/ρ²", number_html(report.bound)
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
    return notebook_block(head + table_html("A run checked against Novikoff's proof", rows))


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
        if status == "proved" and getattr(verdict, "statement", ""):
            lines.append(f"The kernel checked: {verdict.statement}.")
        statement = "".join(f"<p>{html.escape(line)}</p>" for line in lines)
    title = {"proved": "Certificate (checked by the kernel)",
             "refuted": "Counterexample"}.get(status, "Why")
    detail = (f"<details><summary>{title}</summary>"
              f'<pre style="white-space:pre-wrap">{html.escape(verdict.explain())}</pre></details>')
    return notebook_block(head + statement + detail)
