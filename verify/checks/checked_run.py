"""A PLA run checked against the convergence proof: choose w_f, hook the monitor, report.

``wf`` chooses the reference separator w_f of the proof:

- ``maxmargin`` (default): a w_f with the smallest integer bound ⌊R²‖w_f‖²/ρ²⌋ of all
  separators, that of the max-margin w*.  On data of at most :data:`EXACT_WF_ENTRIES` numbers
  it is w* itself (:func:`verify.certify`, KKT certificate checked by the kernel).  On larger
  data it is the rounded float max-margin w of
  :func:`verify.search.certificates.near_max_margin`, used when the kernel-checked dual
  bound proves that its integer bound is w*'s (the exact w* costs an exact QP: 2,000-digit
  fractions on 400 × 1000 data); otherwise w*.  When even w* is too costly it falls back to an
  LP separator (the report's ``wf_kind`` says so and why); on data with no separator (Gordan
  certificate checked) only the inequalities that do not involve w_f are checked;
- ``maxmargin-exact``: the exact max-margin w* whatever the size of the data;
- ``lp``: a separator from a linear program, made exact and checked by the kernel;
- ``final``: the run's own final w (the run is made, then replayed with the checks; it must
  have halted);
- a file name: weights, one exact number per line, bias first.

>>> import pla
>>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> checked = checked_run(ds, order="first")
>>> checked.result.updates, checked.report.wf_kind, checked.report.bound, checked.report.violations
(7, 'max-margin', Fraction(117, 1), 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from pla.defaults import RUN_DEFAULTS

from pla.exact import format_count, format_vector
from verify.present.numbers import bound_text, equals_text
from verify.checks.monitor import Monitor, MonitorReport, ProofViolation

__all__ = ["WF_CHOICES", "EXACT_WF_ENTRIES", "WfError", "reference_separator", "prepare_monitor", "checked_run", "CheckedRun", "read_weights",
           "report_lines", "report_json"]

#: The named choices of ``--wf`` (anything else is a weights file).
WF_CHOICES = ("maxmargin", "maxmargin-exact", "lp", "final")
#: Above this many numbers (n × dim), ``--wf maxmargin`` tries a near-max-margin w_f with a
#: proved max-margin integer bound before the exact max-margin w* (see the module doc).
EXACT_WF_ENTRIES = 20_000


class WfError(ValueError):
    """A w_f that cannot be used (``final`` of a run that did not halt, ...)."""


def read_weights(path: str, dim: int | None = None) -> tuple[Fraction, ...]:
    """Weights from a text file: one exact number per line (blank lines and ``#`` comments are
    skipped; decimals such as a float library prints are read exactly).

    Raises :class:`pla.DataError` (``FILE:LINE: what is wrong``) on bad input.
    """
    from pla.dataset import DataError
    from pla.exact import NumberError, parse_fraction
    from pla.formats import read_text

    lines = read_text(path).split("\n")
    values: list[Fraction] = []
    last = 0
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            values.append(parse_fraction(text))
        except NumberError as exc:
            raise DataError(path, number, str(exc)) from None
        last = number
    if not values:
        raise DataError(path, max(1, len(lines)), "no weights found (one number per line)")
    if dim is not None and len(values) != dim:
        raise DataError(path, last, f"{len(values)} weights, but the examples have {dim} "
                                    "coordinates (bias first)")
    return tuple(values)


def reference_separator(dataset: Any, wf: str = "maxmargin") -> Any:
    """The certificate behind ``--wf maxmargin``, ``maxmargin-exact`` or ``lp`` (a
    :class:`~verify.search.certificates.Separator` or a
    :class:`~verify.search.certificates.NonSeparable`), every one checked by the kernel.

    >>> import pla
    >>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    >>> reference_separator(ds).kind
    'max-margin'
    """
    from verify.search.certificates import certify, near_max_margin

    if wf == "maxmargin" and dataset.n * dataset.dim > EXACT_WF_ENTRIES:
        near = near_max_margin(dataset)
        if near is not None and near.tightest_updates is not None:
            return near
    return certify(dataset, method="lp" if wf == "lp" else "maxmargin")


def _decimal(value: Fraction, rounding: str, digits: int = 12) -> str:
    """``value`` to ``digits`` significant digits, rounded in the direction ``rounding``
    (a :mod:`decimal` rounding mode), so that a shown interval contains the exact one.

    >>> _decimal(Fraction(2, 3), "ROUND_FLOOR", 4), _decimal(Fraction(2, 3), "ROUND_CEILING", 4)
    ('0.6666', '0.6667')
    """
    import decimal

    context = decimal.Context(prec=digits, rounding=getattr(decimal, rounding))
    return str(context.divide(decimal.Decimal(value.numerator), decimal.Decimal(value.denominator)))


def _wf_kind(certificate: Any) -> str:
    """How the report names the w_f of ``certificate`` (a Separator)."""
    kind = certificate.kind
    if certificate.kind == "near-max-margin":
        kind = _near_kind(certificate.bound_lower, certificate.bound,
                          certificate.tightest_updates)
    if certificate.note:
        kind += f" ({certificate.note})"
    return kind


def _near_kind(bound_lower: Fraction, bound: Fraction, updates: Any) -> str:
    """How the report names a near-max-margin w_f whose bound ``bound`` and dual bound
    ``bound_lower`` bracket the max-margin bound, of integer part ``updates``."""
    return (f"near-max-margin: the max-margin bound R^2||w*||^2/rho*^2 lies in "
            f"[{_decimal(bound_lower, 'ROUND_FLOOR')}, {_decimal(bound, 'ROUND_CEILING')}]"
            f" (the kernel checked this w_f and dual multipliers), so this w_f gives the "
            f"max-margin integer bound, {updates}")


def _near_max_margin_monitor(dataset: Any, options: Any, paranoid: bool) -> Monitor | None:
    """The monitor of ``--wf maxmargin`` on large data with the near-max-margin w_f, or None
    when it does not prove the max-margin integer bound (then w* is computed instead).

    The floats only propose w and multipliers α (:func:`~verify.search.certificates.
    near_max_margin_proposal`); everything is decided here, once: the monitor's own kernel
    margins prove that w separates and scale it to ρ = 1 (w_f = w/ρ, the w_f of
    :func:`~verify.search.certificates.near_max_margin`), its kernel norms give R², and one
    kernel dual bound of α must have the integer part of w_f's bound R²‖w_f‖².
    """
    from math import floor

    from verify import kernel
    from verify.search.certificates import near_max_margin_proposal

    proposal = near_max_margin_proposal(dataset)
    if proposal is None:
        return None
    w, alpha = proposal
    try:
        monitor = Monitor(dataset, options, w, paranoid=paranoid, unit_margin=True)
        lower = monitor.R2 * kernel.check_dual_bound(monitor.kernel_rows, dataset.scale,
                                                     dataset.labels, alpha)
    except (ProofViolation, kernel.CertificateError,   # w does not separate, or α is 0
            ValueError, TypeError, ArithmeticError):      # w is not dim exact numbers (nan, ...)
        return None
    bound = monitor.R2 * monitor.norm2               # R²‖w_f‖²/ρ² with ρ = 1
    if floor(lower) != floor(bound):
        return None
    monitor.wf_kind = _near_kind(lower, bound, floor(bound))
    return monitor


def prepare_monitor(dataset: Any, options: Any, wf: str = "maxmargin", *, paranoid: bool = False,
                    engine: str = "default", separator: Any = None) -> Monitor:
    """A :class:`Monitor` for a run of ``options`` on ``dataset`` with w_f chosen by ``wf``.

    ``separator``: the certificate :func:`reference_separator` returns for ``dataset`` and
    ``wf``, when the caller already has it (many runs on the same data share one).
    """
    import pla
    from verify.search.certificates import NonSeparable, certify, kernel_rows, separator_for

    if wf in ("maxmargin", "maxmargin-exact", "lp"):
        if separator is None and wf == "maxmargin" and \
                dataset.n * dataset.dim > EXACT_WF_ENTRIES:
            near = _near_max_margin_monitor(dataset, options, paranoid)
            if near is not None:
                return near
            separator = certify(dataset)       # (what reference_separator gives then)
        certificate = separator if separator is not None else reference_separator(dataset, wf)
        if isinstance(certificate, NonSeparable):
            return Monitor(dataset, options, None, paranoid=paranoid,
                           wf_kind="none: the data are not linearly separable (Gordan "
                                   "certificate checked by the kernel)")
        monitor = Monitor(dataset, options, certificate.w, rho=certificate.rho,
                          R2=certificate.R2, paranoid=paranoid, wf_kind=_wf_kind(certificate))
        if certificate.kind == "near-max-margin" and monitor.classical:
            # decided here, not taken from the record: the kernel's dual bound of the record's
            # multipliers and the monitor's own bound must have the same integer part
            from math import floor

            from verify import kernel

            try:
                lower = None if certificate.alpha is None else monitor.R2 * \
                    kernel.check_dual_bound(kernel_rows(dataset), dataset.scale, dataset.labels,
                                            certificate.alpha)
            except kernel.CertificateError:
                lower = None
            if lower is None or floor(lower) != monitor.bound_updates or \
                    monitor.bound_updates != certificate.tightest_updates:
                raise ProofViolation("the near-max-margin w_f's bound is the max-margin integer "
                                     "bound", None, monitor.bound_updates, "=",
                                     "no checked dual bound" if lower is None else floor(lower))
        return monitor
    if wf == "final":
        first = pla.run(dataset, options=options, engine=engine, keep_steps=False)
        if not first.halted:
            raise WfError(f"--wf final needs a run that halts (its final w must separate the "
                          f"data); this run stopped after {format_count(first.updates, 'update')}")
        from verify.kernel import CertificateError
        try:
            separator_for(dataset, first.w)
        except CertificateError as exc:
            raise WfError(f"--wf final: the final w does not separate the data ({exc})") from None
        return Monitor(dataset, options, first.w, paranoid=paranoid,
                       wf_kind="final (the run's own final w, replayed)")
    weights = read_weights(wf, dataset.dim)
    return Monitor(dataset, options, weights, paranoid=paranoid, wf_kind=f"file {wf}")


@dataclass(frozen=True)
class CheckedRun:
    """A PLA run checked against the convergence proof: the run's :class:`pla.Result` and the
    monitor's :class:`~verify.checks.monitor.MonitorReport` (w_f, ρ, R², the bound, the number
    of inequalities checked; a violation raises instead)."""

    result: Any
    report: MonitorReport

    def to_json(self) -> dict[str, Any]:
        """The run's and the report's fields, as ``pla run --check --json`` prints them.

        >>> import pla
        >>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
        >>> fields = checked_run(ds, order="first").to_json()
        >>> fields["updates"], fields["bound"], fields["violations"]
        (7, '117', 0)
        """
        return {**self.result.to_json(), **report_json(self.report)}


def checked_run(dataset: Any, *, order: str = RUN_DEFAULTS["order"],
                seed: int = RUN_DEFAULTS["seed"], eta: object = RUN_DEFAULTS["eta"],
                w0: Any = RUN_DEFAULTS["w0"], zero: str = RUN_DEFAULTS["zero"],
                max_updates: int = RUN_DEFAULTS["max_updates"],
                engine: str = RUN_DEFAULTS["engine"], wf: str = "maxmargin",
                paranoid: bool = False, on_step: Callable[[Any], None] | None = None,
                options: Any = None) -> CheckedRun:
    """Run PLA with every inequality of the convergence proof checked exactly at every update;
    raises :class:`ProofViolation` when one fails.

    The keyword arguments and defaults are :func:`pla.run`'s (``options``, a
    :class:`pla.runs.RunOptions`, replaces ``order`` ... ``max_updates``), plus ``wf`` (the
    reference separator w_f, see the module doc) and ``paranoid`` (compare every vector of
    every update too).

    >>> import pla
    >>> checked = checked_run(pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1]))
    >>> checked.result.updates, checked.report.bound_updates, checked.report.checks
    (7, 117, 67)
    """
    import pla
    from pla.runs import RunOptions

    if options is None:
        options = RunOptions(order=order, seed=seed, eta=eta, w0=w0, zero=zero,
                             max_updates=max_updates)
    monitor = prepare_monitor(dataset, options, wf, paranoid=paranoid, engine=engine)
    if paranoid or on_step is not None:
        def both(step: Any) -> None:
            monitor(step)
            if on_step is not None:
                on_step(step)
        result = pla.run(dataset, options=options, engine=engine, keep_steps=False, on_step=both)
    else:
        with monitor.deferred_checks():
            result = pla.run(dataset, options=options, engine=engine, keep_steps=False,
                             on_scaled_update=monitor.on_scaled_update_deferred)
    return CheckedRun(result, monitor.finish(result))


def report_lines(report: MonitorReport) -> list[str]:
    """The human-readable lines of a checked run's report."""
    lines = []
    if report.wf is None:
        lines.append(f"proof    w_f: {report.wf_kind}")
        lines.append(f"         no w separates the data (what that means for halting under "
                     f"each --zero: `pla certify`); checked the w_f-free inequalities with "
                     f"R^2 = max ||x_n||^2 {equals_text(report.R2)}")
    else:
        lines.append(f"proof    w_f = {format_vector(report.wf)}: {report.wf_kind}")
        lines.append(f"         rho = min y_n w_f.x_n {equals_text(report.rho)}, "
                     f"R^2 = max ||x_n||^2 {equals_text(report.R2)}, "
                     f"||w_f||^2 {equals_text(report.norm2)}, "
                     f"gamma^2 = rho^2/||w_f||^2 {equals_text(report.gamma2)}")
        if report.classical:
            lines.append(f"         bound    T <= R^2 ||w_f||^2 / rho^2 = (R/gamma)^2 "
                         f"{equals_text(report.bound)}, so T ≤ "
                         f"{bound_text(report.bound_updates)} updates; this run: "
                         f"{report.updates:,}")
        else:
            lines.append(f"         w0 != 0: the classical bound R^2 ||w_f||^2 / rho^2 "
                         f"{equals_text(report.classical_bound)} does NOT apply")
            lines.append(f"         generalised bound (w_f.w_t >= w_f.w_0 + t eta rho, "
                         f"||w_t||^2 <= ||w_0||^2 + t eta^2 R^2): T ≤ "
                         f"{bound_text(report.bound_updates)}; this run: {report.updates:,}")
    lines.append(f"checks   {format_count(report.checks, 'inequality', 'inequalities')} checked "
                 f"exactly at {format_count(report.updates, 'update')}, "
                 f"{format_count(report.violations, 'violation')}")
    lines.append(f"         {report.hypothesis}")
    return lines


def report_json(report: MonitorReport) -> dict[str, Any]:
    """The fields ``pla run --check --json`` adds (exact numbers as strings)."""
    def exact(v: Any) -> Any:
        return None if v is None else str(v)
    return {
        "wf": None if report.wf is None else [str(v) for v in report.wf],
        "wf_kind": report.wf_kind,
        "rho": exact(report.rho),
        "R2": exact(report.R2),
        "norm2_wf": exact(report.norm2),
        "gamma2": exact(report.gamma2),
        "bound": exact(report.bound),
        "bound_updates": report.bound_updates,
        "classical_bound_applies": report.classical,
        "classical_bound": exact(report.classical_bound),
        "checks": report.checks,
        "violations": report.violations,
        "hypothesis": report.hypothesis,
    }
