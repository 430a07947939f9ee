"""A certificate (:class:`verify.search.certificates.Separator` or ``NonSeparable``) in Jupyter:
its kernel-checked numbers as a table, exact (long ones folded).  Imported on first display by
the certificate's ``_repr_html_``; it only shows the fields the kernel checked.

>>> from fractions import Fraction
>>> from verify.search.certificates import NonSeparable
>>> "Gordan" in certificate_html(NonSeparable((Fraction(1), Fraction(1))))
True
"""

from __future__ import annotations

import html
from typing import Any

from pla.notebook import notebook_block, number_html, table_html, vector_html

__all__ = ["certificate_html"]


def certificate_html(certificate: Any) -> str:
    """A :class:`verify.search.certificates.Separator` or ``NonSeparable`` as a table."""
    if not certificate.separable:
        rows = [("λ (Gordan multipliers)", vector_html(certificate.lam)),
                ("rows with λ<sub>n</sub> > 0", html.escape(", ".join(
                    str(n + 1) for n in certificate.support)))]
        head = '<p><span class="pla-badge pla-badge-bad">not separable</span></p>'
        return notebook_block(head + table_html(
            "Gordan certificate (checked by the kernel): Σ λₙ yₙ xₙ = 0, λ ≥ 0, λ ≠ 0", rows))
    rows = [("w (bias first)", vector_html(certificate.w)),
            ("kind", html.escape(certificate.kind)),
            ("ρ = min y<sub>n</sub> w·x<sub>n</sub>", number_html(certificate.rho)
             + f" (row {certificate.argmin + 1})"),
            ("R² = max ‖x<sub>n</sub>‖²", number_html(certificate.R2)),
            ("‖w‖²", number_html(certificate.norm2)),
            ("γ² = ρ²/‖w‖²", number_html(certificate.gamma2)),
            ("bound R²‖w‖²/ρ²", number_html(certificate.bound)
             + f", so PLA makes at most <code>{certificate.bound_updates}</code> updates")]
    if certificate.alpha is not None:
        rows.append(("α (KKT multipliers)", vector_html(certificate.alpha)))
    if certificate.note:
        rows.append(("note", html.escape(certificate.note)))
    head = '<p><span class="pla-badge pla-badge-good">separable</span></p>'
    return notebook_block(head + table_html("Separator (checked by the kernel)", rows))
