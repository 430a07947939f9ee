"""Certificate search for a labelled data set (untrusted): floats propose, the kernel decides.

:func:`certify` answers "is this data set linearly separable?" with a certificate that
:mod:`verify.kernel` has checked exactly:

- :class:`Separator`: a w with minₙ yₙ w·xₙ = ρ > 0 -- by default the *max-margin* w*, the
  solution of min ½‖w‖² s.t. yₙ w·xₙ ≥ 1 (the bias is an ordinary coordinate, as in the
  convergence proof), with exact KKT multipliers α; it gives the smallest possible Novikoff
  bound R²‖w‖²/ρ² over all separators;
- :class:`NonSeparable`: a Gordan certificate λ ≥ 0, λ ≠ 0, Σ λₙ yₙ xₙ = 0 (aligned with the
  rows): no separator exists and PLA never halts.

How the max-margin problem is solved.  The problem min ‖v‖ s.t. zₙ·v ≥ 1 (zₙ = yₙ·rowₙ, the
integer rows of the data) is a *least distance program*; Lawson and Hanson reduce it to the
non-negative least squares problem min ‖E u − f‖, u ≥ 0, with columns eₙ = (zₙ, 1) and
f = (0, …, 0, 1).  At the optimum either E u = f -- then λ = u is a Gordan certificate -- or
v = −r/r_last for the residual r = f − E u, with multipliers u / r_last.  A float NNLS
(:func:`scipy.optimize.nnls`, when scipy is installed) proposes the support set; the same
active-set method then runs in exact rational arithmetic from that warm start (usually one
linear solve with python-flint), so the answer is exactly right even when the floats were
not.  The kernel checks the result before it is returned.

When the exact max-margin problem would be too costly (more than :data:`MAX_EXACT_ENTRIES`
numbers in the data, or more than :data:`MAX_EXACT_ITERATIONS` exact active-set iterations),
:func:`certify` returns the near-max-margin separator (:func:`near_max_margin`, entries
rounded by :func:`shortened`) when the kernel proves that its integer bound is the max-margin
one, else a separator found by a float linear program and checked exactly (``kind == "lp"``);
:attr:`Separator.note` says why.

>>> import pla
>>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
>>> s = certify(ds)
>>> s.kind, [str(v) for v in s.w], s.rho, s.bound
('max-margin', ['-2', '1/2', '1/2'], Fraction(1, 1), Fraction(117, 1))
>>> xor = pla.Dataset.from_rows([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1])
>>> [str(v) for v in certify(xor).lam]
['1', '1', '1', '1']
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import floor, gcd, lcm
from operator import mul, neg
from typing import Any, Sequence

from verify import kernel

__all__ = [
    "Certificate", "Separator", "NonSeparable", "WeightsCheck", "CertificateNotFound", "certify",
    "separator_for", "kernel_rows", "max_margin", "near_max_margin", "near_max_margin_proposal",
    "shortened", "lp_separator",
    "check_weights", "METHODS",
    "MAX_EXACT_ENTRIES", "MAX_EXACT_ITERATIONS",
]

#: ``certify(method=...)``: the exact max-margin separator (default) or an LP separator.
METHODS = ("maxmargin", "lp")
#: Above this many numbers (n × dim) the exact max-margin search is skipped for an LP separator.
MAX_EXACT_ENTRIES = 4_000_000
#: Exact active-set iterations allowed after the float warm start before falling back to LP.
MAX_EXACT_ITERATIONS = 400


class CertificateNotFound(RuntimeError):
    """No certificate could be produced (should not happen; the message says what failed)."""


@dataclass(frozen=True)
class Certificate:
    """What :func:`certify` returns: a :class:`Separator` (``separable`` is True) or a
    :class:`NonSeparable` certificate, each checked by the kernel before it is returned.

    >>> import pla
    >>> xor = pla.Dataset.from_rows([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1])
    >>> c = certify(xor)
    >>> isinstance(c, Certificate), c.separable, c.to_json()["certificate"]["kind"]
    (True, False, 'gordan')
    """

    @property
    def separable(self) -> bool:
        raise NotImplementedError

    @property
    def support(self) -> tuple[int, ...]:
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """The ``separable``, ``certificate`` (and ``bound``) fields of ``pla certify --json``,
        every number exact (a string ``p`` or ``p/q``)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Separator(Certificate):
    """A kernel-checked separator w of a data set and the constants of Novikoff's bound.

    ``w`` separates the data (minₙ yₙ w·xₙ = ``rho`` > 0, first attained at row ``argmin``).
    ``kind`` is ``"max-margin"`` (then ``maxmargin == w`` and ``alpha`` holds the exact KKT
    multipliers, one per row, checked by :func:`verify.kernel.check_max_margin`),
    ``"near-max-margin"`` (a rounded float max-margin w; ``bound_lower`` is R² times the
    kernel-checked dual bound of :func:`verify.kernel.check_dual_bound`, below the bound of
    every separator: see :func:`near_max_margin`), ``"lp"`` (a linear-programming separator;
    ``maxmargin`` and ``alpha`` are None) or ``"given"``.
    ``R2`` = maxₙ ‖xₙ‖², ``norm2`` = ‖w‖², ``gamma2`` = ρ²/‖w‖² (the squared geometric
    margin γ²) and ``bound`` = R²‖w‖²/ρ² = (R/γ)², Novikoff's bound on the number of updates.
    """

    w: tuple[Fraction, ...]
    kind: str
    rho: Fraction
    argmin: int
    R2: Fraction
    norm2: Fraction
    gamma2: Fraction
    bound: Fraction
    maxmargin: tuple[Fraction, ...] | None = None
    alpha: tuple[Fraction, ...] | None = None
    note: str = ""
    bound_lower: Fraction | None = None

    def _repr_html_(self) -> str:
        """The certificate as a table of exact numbers in Jupyter
        (:mod:`verify.search.certificate_display`)."""
        from verify.search.certificate_display import certificate_html

        return certificate_html(self)

    @property
    def tightest_updates(self) -> int | None:
        """⌊R²‖w*‖²/ρ*²⌋, the smallest integer bound any separator gives (that of the
        max-margin w*), when this certificate proves it: ``bound`` for the max-margin w*
        itself; for a ``"near-max-margin"`` w, ``bound_updates`` when the kernel-checked
        ``bound_lower`` ≤ R²‖w*‖²/ρ*² ≤ ``bound`` have the same integer part; else None."""
        if self.kind == "max-margin":
            return self.bound_updates
        if self.bound_lower is not None and floor(self.bound_lower) == self.bound_updates:
            return self.bound_updates
        return None

    @property
    def separable(self) -> bool:
        return True

    @property
    def support(self) -> tuple[int, ...]:
        """Rows with αₙ > 0 (the support vectors), or () without multipliers."""
        return () if self.alpha is None else tuple(n for n, a in enumerate(self.alpha) if a)

    @property
    def bound_updates(self) -> int:
        """⌊R²‖w‖²/ρ²⌋: PLA from w₀ = 0 makes at most this many updates."""
        return floor(self.bound)

    def to_json(self) -> dict[str, Any]:
        """The fields of ``pla certify --json`` (exact numbers as strings).

        >>> import pla
        >>> s = certify(pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1]))
        >>> s.to_json()["bound"], s.to_json()["bound_updates"], s.to_json()["certificate"]["w"]
        ('117', 117, ['-2', '1/2', '1/2'])
        """
        body: dict[str, Any] = {"kind": self.kind, "w": [str(v) for v in self.w]}
        if self.alpha is not None:
            body["alpha"] = [str(v) for v in self.alpha]
            body["support"] = list(self.support)
        body.update(rho=str(self.rho), R2=str(self.R2), norm2=str(self.norm2),
                    gamma2=str(self.gamma2))
        if self.note:
            body["note"] = self.note
        return {"separable": True, "certificate": body, "bound": str(self.bound),
                "bound_updates": self.bound_updates}


@dataclass(frozen=True)
class NonSeparable(Certificate):
    """A kernel-checked Gordan certificate: ``lam`` ≥ 0, ≠ 0, Σ λₙ yₙ xₙ = 0 (aligned with rows).

    Any w would give Σ λₙ yₙ w·xₙ = 0, so some yₙ w·xₙ ≤ 0 among the rows with λₙ > 0:
    no separator exists and PLA never halts on these data.
    """

    lam: tuple[Fraction, ...]

    def _repr_html_(self) -> str:
        """The certificate as a table of exact numbers in Jupyter
        (:mod:`verify.search.certificate_display`)."""
        from verify.search.certificate_display import certificate_html

        return certificate_html(self)

    @property
    def separable(self) -> bool:
        return False

    @property
    def support(self) -> tuple[int, ...]:
        """Rows with λₙ > 0."""
        return tuple(n for n, v in enumerate(self.lam) if v)

    def to_json(self) -> dict[str, Any]:
        """The fields of ``pla certify --json`` (λ exact, as strings)."""
        return {"separable": False,
                "certificate": {"kind": "gordan", "lambda": [str(v) for v in self.lam],
                                "support": list(self.support)}}


@dataclass(frozen=True)
class WeightsCheck:
    """The exact verdict on given weights: ``separates``; then ``margin`` = minₙ yₙ w·xₙ at
    ``row``; otherwise ``row`` is the first row with yₙ w·xₙ ≤ 0 and ``margin`` its value."""

    w: tuple[Fraction, ...]
    separates: bool
    row: int
    margin: Fraction
    separator: Separator | None = None


# ----------------------------------------------------------------------------- public API
def certify(dataset: Any, method: str = "maxmargin") -> Separator | NonSeparable:
    """A kernel-checked :class:`Certificate` for ``dataset``: a :class:`Separator` (with the
    constants of Novikoff's bound) or a :class:`NonSeparable` Gordan certificate.

    ``method="maxmargin"`` (default) gives the max-margin separator unless that is too costly
    (then an LP separator with a ``note``); ``method="lp"`` asks for an LP separator directly.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (choose from {', '.join(METHODS)})")
    if method == "lp":
        found = lp_separator(dataset)
        if found is not None:
            return found
        return max_margin(dataset)
    if dataset.n * dataset.dim > MAX_EXACT_ENTRIES:
        return _without_exact_max_margin(
            dataset, f"{dataset.n} x {dataset.dim} numbers exceed {MAX_EXACT_ENTRIES:,}")
    try:
        return max_margin(dataset, max_iterations=MAX_EXACT_ITERATIONS)
    except _TooCostly as exc:
        return _without_exact_max_margin(dataset, str(exc))


def _without_exact_max_margin(dataset: Any, why: str) -> Separator | NonSeparable:
    """The certificate when the exact max-margin search is too costly: the near-max-margin w
    (short entries, :func:`shortened`) when the kernel proves that its integer bound is the
    max-margin one, so that every output of ``pla certify`` (text, JSON, the Coq file) states
    that one N; else an LP separator; else the exact search after all."""
    near = near_max_margin(dataset)
    if near is not None and near.tightest_updates is not None:
        return replace(shortened(dataset, near),
                       note=f"max-margin skipped: {why}; its integer bound proved by the dual "
                            "bound")
    found = lp_separator(dataset, note=f"max-margin skipped: {why}")
    if found is not None:
        return found
    return max_margin(dataset)


def kernel_rows(dataset: Any) -> Any:
    """The data set's rows as the kernel should read them: its int64 matrix when that is the
    data set's only copy of the data (a data set read from a file,
    :meth:`pla.Dataset.from_int64_matrix`, whose tuple of tuples is not built yet) and the
    kernel takes it (C-contiguous, every |entry| < 2³¹: see
    :func:`verify.kernel.data_checks._data_rows`, which checks it again at every call);
    else the tuple of tuples.  The checks then read the data set's own copy of its numbers,
    never a cache derived from it, and a checked run of a file never builds the tuples.

    >>> import numpy as np, pla
    >>> ds = pla.Dataset.from_int64_matrix(np.array([[1, 2]]), 1, np.array([1]), bias=True)
    >>> kernel_rows(ds).tolist(), kernel_rows(pla.Dataset.from_rows([[2]], [1]))
    ([[1, 2]], ((1, 2),))
    """
    fields = getattr(dataset, "__dict__", {})
    matrix = fields.get("int64_rows")
    if "rows" not in fields and matrix is not None and matrix.size and \
            matrix.flags.c_contiguous and _magnitude(dataset, matrix) < 2**31:
        return matrix
    return dataset.rows


def _magnitude(dataset: Any, matrix: Any) -> int:
    """The largest |entry| of ``matrix``, the data set's int64 matrix: its cached
    :attr:`pla.Dataset.int64_magnitude` when it has one (the proposals only route and scale by
    it; the kernel checks the matrix itself).

    >>> import numpy as np
    >>> _magnitude(None, np.array([[3, -9]]))
    9
    """
    cached = getattr(dataset, "int64_magnitude", None)
    return cached if cached is not None else max(int(matrix.max()), -int(matrix.min()))


def separator_for(dataset: Any, w: Sequence[Any], kind: str = "given", note: str = "",
                  alpha: Sequence[Fraction] | None = None) -> Separator:
    """The :class:`Separator` record of ``w`` after the kernel has checked it (and α, if given).

    Raises :class:`verify.kernel.CertificateError` when ``w`` does not separate the data.

    >>> import pla
    >>> ds = pla.Dataset.from_rows([[1], [-1]], [1, -1])
    >>> s = separator_for(ds, [0, 2])
    >>> s.rho, s.R2, s.gamma2, s.bound
    (Fraction(2, 1), Fraction(2, 1), Fraction(1, 1), Fraction(2, 1))
    """
    w = tuple(Fraction(v) for v in w)
    maxmargin = None
    rows = kernel_rows(dataset)
    if alpha is not None:
        alpha = tuple(alpha)
        facts, norm2 = kernel.check_max_margin_separator(rows, dataset.scale, dataset.labels, w,
                                                         alpha)
        maxmargin = w
    else:
        facts = kernel.check_separator(rows, dataset.scale, dataset.labels, w)
        norm2 = _squared_norm(w)
    R2 = kernel.squared_radius(rows, dataset.scale)
    rho = facts.rho
    return Separator(w=w, kind=kind, rho=rho, argmin=facts.argmin, R2=R2, norm2=norm2,
                     gamma2=rho * rho / norm2, bound=R2 * norm2 / (rho * rho),
                     maxmargin=maxmargin, alpha=alpha, note=note)


def check_weights(dataset: Any, w: Sequence[Any]) -> WeightsCheck:
    """Check given weights exactly: their minimum margin, or the first row they misclassify.

    >>> import pla
    >>> ds = pla.Dataset.from_rows([[1], [-1]], [1, -1])
    >>> check_weights(ds, ["0.1", "-0.5"]).separates, check_weights(ds, ["0.1", "-0.5"]).row
    (False, 0)
    """
    from pla.exact import to_fraction

    exact = tuple(to_fraction(v) for v in w)
    if len(exact) != dataset.dim:
        raise ValueError(f"{len(exact)} weights for {dataset.dim}-dimensional examples "
                         "(bias first)" if dataset.bias else
                         f"{len(exact)} weights for {dataset.dim}-dimensional examples")
    try:
        separator = separator_for(dataset, exact)
    except kernel.CertificateError as exc:
        row = exc.index if exc.index is not None else 0
        margin = dataset.labels[row] * sum((a * b for a, b in zip(exact, dataset.X[row])),
                                           Fraction(0))
        return WeightsCheck(exact, False, row, margin)
    return WeightsCheck(exact, True, separator.argmin, separator.rho, separator)


def max_margin(dataset: Any, max_iterations: int | None = None) -> Separator | NonSeparable:
    """The exact max-margin separator, or a Gordan certificate when there is none.

    Raises ``_TooCostly`` (internal) after ``max_iterations`` exact active-set iterations.
    """
    Z = [row if y > 0 else tuple(map(neg, row)) for y, row in zip(dataset.labels, dataset.rows)]
    start = _propose_support(Z)
    products = _ExactProducts(Z)
    U, Q = _exact_nnls(Z, start, max_iterations, products)
    dim = len(Z[0])
    # residual r = f - E u, scaled by Q: (-Σ Uⱼ zⱼ, Q - Σ Uⱼ)
    r_vec = [-v for v in products.combination(U)] if U else [0] * dim
    r_last = Q - sum(U.values())
    if r_last == 0 and not any(r_vec):
        lam = [0] * len(Z)
        for j, u in U.items():
            lam[j] = u
        g = gcd(*lam)
        certificate = NonSeparable(tuple(Fraction(v // g) for v in lam))
        kernel.check_gordan(kernel_rows(dataset), dataset.scale, dataset.labels,
                            certificate.lam)
        return certificate
    if r_last <= 0:
        raise CertificateNotFound("exact NNLS ended with a non-positive last residual")
    # v = -r_vec / r_last (in units where the rows are the integer rows); w* = scale · v;
    # multipliers for the integer rows uⱼ / r_last, for the exact xₙ = rowₙ / scale: scale² ×.
    s = dataset.scale
    w = _fractions([-s * ri for ri in r_vec], r_last)
    alpha = [Fraction(0)] * len(Z)
    for j, a in zip(U, _fractions([u * s * s for u in U.values()], r_last)):
        alpha[j] = a
    return separator_for(dataset, w, kind="max-margin", alpha=alpha)


def near_max_margin(dataset: Any) -> Separator | None:
    """A separator whose Novikoff bound is within a kernel-checked hair of the max-margin one,
    at the cost of one float solve and two exact matrix–vector products (no exact QP).

    The floats propose w and multipliers α ≥ 0 for min ½‖w‖² s.t. yₙ w·xₙ ≥ 1; both are
    rounded to dyadic rationals.  The kernel then checks that w separates
    (:func:`verify.kernel.check_separator`: ρ and the bound R²‖w‖²/ρ²) and turns α into a
    lower bound on the bound of *every* separator (:func:`verify.kernel.check_dual_bound`), so
    ``bound_lower`` ≤ R²‖w*‖²/ρ*² ≤ ``bound`` brackets the max-margin bound; when the two ends
    have the same integer part, :attr:`Separator.tightest_updates` is the max-margin integer
    bound, proved without computing w*.  ``w`` is scaled to ρ = 1.  None when the floats
    fail or the rounded w does not separate.

    >>> import pla
    >>> ds = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
    >>> s = near_max_margin(ds)
    >>> s.kind, s.rho, s.bound_lower < 117 < s.bound, float(s.bound - s.bound_lower) < 1e-9
    ('near-max-margin', Fraction(1, 1), True, True)

    Here the max-margin bound is exactly 117, so the bracket straddles an integer and does not
    prove it (``tightest_updates`` is None); :func:`max_margin` does.

    >>> s.tightest_updates is None
    True
    """
    proposal = near_max_margin_proposal(dataset)
    if proposal is None:
        return None
    w, support = proposal
    try:
        rows = kernel_rows(dataset)
        facts = kernel.check_separator(rows, dataset.scale, dataset.labels, w)
        lower = kernel.check_dual_bound(rows, dataset.scale, dataset.labels, support)
    except kernel.CertificateError:
        return None
    # w / ρ separates with margin exactly 1 (yₙ (w/ρ)·xₙ = yₙ w·xₙ / ρ ≥ 1, = 1 at argmin)
    rho = facts.rho
    w = tuple(v / rho for v in w)
    norm2 = _squared_norm(w)
    # α scaled as the max-margin multipliers are (Σ αₙ = ‖w*‖²: the margins on the support
    # are 1); the dual bound does not depend on the scale
    total = sum(map(Fraction, support.values()))
    alpha = _dense_fractions({n: a * norm2 / total for n, a in support.items()}, dataset.n)
    R2 = kernel.squared_radius(rows, dataset.scale)
    return Separator(w=w, kind="near-max-margin", rho=Fraction(1), argmin=facts.argmin, R2=R2,
                     norm2=norm2, gamma2=1 / norm2, bound=R2 * norm2, alpha=alpha,
                     bound_lower=R2 * lower)


def near_max_margin_proposal(dataset: Any) -> tuple[tuple[int, ...], dict[int, int]] | None:
    """What the floats of :func:`near_max_margin` propose, unchecked: w and the nonzero
    multipliers {row: αₙ}, each a float vector times a power of two, rounded to integers
    (about 50 significant bits for its largest entry: what the kernel checks does not depend
    on a positive factor, and ints cost the checks no gcd); None when the floats fail or either
    is 0.  Nothing here is checked: the kernel decides what they prove (:func:`near_max_margin`,
    :func:`verify.checks.checked_run.prepare_monitor`).

    >>> import pla
    >>> w, alpha = near_max_margin_proposal(pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]],
    ...                                                           [1, 1, -1]))
    >>> len(w), sorted(alpha) == [0, 2], w[1] == w[2], type(w[0]), type(alpha[0])
    (3, True, True, <class 'int'>, <class 'int'>)
    """
    import numpy as np

    A = _signed_float_matrix(dataset)
    proposal = _float_max_margin(A) if A is not None else None
    if proposal is None:
        return None
    w_float, alpha_float = proposal
    w = _dyadic_integers(w_float)
    alpha = _dyadic_integers(alpha_float, floor_at=1e-12 * float(alpha_float.max()))
    if w is None or alpha is None:
        return None
    rows = np.flatnonzero(alpha[0])
    return tuple(w[0].tolist()), dict(zip(rows.tolist(), alpha[0][rows].tolist()))


def shortened(dataset: Any, separator: Separator, bits: Sequence[int] = (12, 16, 20, 24, 32)
              ) -> Separator:
    """``separator`` (a near-max-margin one that proves ``tightest_updates``) with w and α
    rounded to as few significant bits as keep that proof: the first ``bits`` for which the
    kernel checks that the rounded w still separates with the same integer bound and the
    rounded α still give a dual bound with that integer part.  Short entries make Coq's
    computations fast; the integer bound is unchanged.  ``separator`` itself when no rounding
    keeps the proof.

    >>> import pla
    >>> ds = pla.Dataset.from_rows([[3, 3], [4, 2], [-1, -1]], [1, 1, -1])
    >>> near = near_max_margin(ds)
    >>> short = shortened(ds, near)
    >>> short.tightest_updates == near.tightest_updates, short.w[1].denominator <= 2 ** 40
    (True, True)
    """
    target = separator.tightest_updates
    if separator.kind != "near-max-margin" or target is None or separator.alpha is None:
        return separator
    rows = kernel_rows(dataset)
    for b in bits:
        w = _rounded(separator.w, b)
        alpha = _rounded(separator.alpha, b)
        if not any(w) or not any(alpha):
            continue
        try:
            facts = kernel.check_separator(rows, dataset.scale, dataset.labels, w)
            lower = separator.R2 * kernel.check_dual_bound(rows, dataset.scale, dataset.labels,
                                                           alpha)
        except kernel.CertificateError:
            continue
        norm2 = _squared_norm(w)
        bound = separator.R2 * norm2 / (facts.rho * facts.rho)
        if floor(bound) == target and floor(lower) == target:
            return Separator(w=w, kind="near-max-margin", rho=facts.rho, argmin=facts.argmin,
                             R2=separator.R2, norm2=norm2, gamma2=facts.rho ** 2 / norm2,
                             bound=bound, alpha=alpha, bound_lower=lower)
    return separator


def _rounded(values: Sequence[Fraction], bits: int) -> tuple[Fraction, ...]:
    """Each value rounded to a multiple of one power of two, the largest to ``bits`` bits."""
    biggest = max((abs(v) for v in values), default=Fraction(0))
    if not biggest:
        return tuple(Fraction(0) for _ in values)
    shift = bits - (biggest.numerator.bit_length() - biggest.denominator.bit_length())
    unit = Fraction(2) ** shift
    return tuple(Fraction(round(v * unit)) / unit for v in values)


def _signed_float_matrix(dataset: Any) -> Any:
    """:func:`_float_matrix` of the rows yₙ rowₙ, from the data set's int64 matrix when it has
    one (the same floats, without a Python row per point: xₙ / b is rounded once, and the sign
    yₙ = ±1 multiplies exactly).

    >>> import pla
    >>> _signed_float_matrix(pla.Dataset.from_rows([[2, 1], [1, 3]], [1, -1])).tolist()
    [[0.3333333333333333, 0.6666666666666666, 0.3333333333333333], [-0.3333333333333333, -0.3333333333333333, -1.0]]
    """
    matrix = getattr(dataset, "int64_rows", None)
    if matrix is not None and matrix.size:
        biggest = _magnitude(dataset, matrix)               # = max |yₙ rowₙ| (yₙ = ±1)
        if biggest <= 2**31:
            import numpy as np

            labels = getattr(dataset, "int64_labels", None)
            if labels is None:
                labels = np.array(dataset.labels, dtype=np.int64)
            A = matrix.astype(np.float64)                  # exact: |entries| ≤ 2³¹
            A /= (labels * (biggest or 1)).astype(np.float64)[:, None]   # rowₙ / (±b): once
            return A
    return _float_matrix([row if y > 0 else tuple(map(neg, row))
                          for y, row in zip(dataset.labels, dataset.rows)])


def _smallest(values: Any, count: int) -> Any:
    """The indices of the ``count`` smallest ``values``, smallest first (a partition, then a
    sort of those only: O(n + count log count) instead of a sort of all n).

    >>> import numpy as np
    >>> _smallest(np.array([5.0, 1.0, 4.0, 2.0, 3.0]), 3).tolist()
    [1, 3, 4]
    """
    import numpy as np

    if count <= 0:
        return np.zeros(0, dtype=np.intp)
    if count < len(values):
        chosen = np.argpartition(values, count - 1)[:count]
        return chosen[np.argsort(values[chosen], kind="stable")]
    return np.argsort(values, kind="stable")


def _dyadic(values: Any, floor_at: float = 0.0) -> tuple[Fraction, ...]:
    """Floats rounded to integers over one power of two (about 50 significant bits for the
    largest); entries of magnitude at most ``floor_at`` become 0.

    >>> _dyadic([0.5, -0.25, 1e-30], floor_at=1e-20)
    (Fraction(1, 2), Fraction(-1, 4), Fraction(0, 1))
    """
    return _dense_fractions(_dyadic_support(values, floor_at), len(values))


def _dense_fractions(support: dict[int, Fraction], length: int) -> tuple[Fraction, ...]:
    """The ``length`` Fractions that are 0 except at the entries of ``support`` {index: value}.

    >>> _dense_fractions({1: Fraction(1, 2)}, 3)
    (Fraction(0, 1), Fraction(1, 2), Fraction(0, 1))
    """
    out = [Fraction(0)] * length
    for j, v in support.items():
        out[j] = v
    return tuple(out)


def _dyadic_support(values: Any, floor_at: float = 0.0) -> dict[int, Fraction]:
    """The nonzero entries of :func:`_dyadic` of a float vector, as {index: value}, from
    whole arrays (one Fraction per nonzero entry).

    >>> _dyadic_support([0.5, 0.0, -0.25, 1e-30], floor_at=1e-20)
    {0: Fraction(1, 2), 2: Fraction(-1, 4)}
    """
    import numpy as np

    scaled = _dyadic_integers(values, floor_at)
    if scaled is None:
        return {}
    rounded, shift = scaled
    # k / 2^shift when shift >= 0; from 2^50 on, k itself: every entry scaled by one power of
    # two, as the per-entry _dyadic always did (w is then divided by its margin, and α's dual
    # bound is the same for every positive multiple of α)
    unit = (Fraction(2) ** shift).numerator
    nonzero = np.flatnonzero(rounded)
    return {j: Fraction(k, unit) for j, k in zip(nonzero.tolist(), rounded[nonzero].tolist())}


def _dyadic_integers(values: Any, floor_at: float = 0.0) -> tuple[Any, int] | None:
    """(k, shift): the int64 array k = rint(values · 2^shift), with the one power of two that
    brings the largest |value| to [2⁴⁹, 2⁵⁰) (below 2⁵¹ after scaling, so rint is exact and
    half-even) and the entries of magnitude at most ``floor_at`` set to 0; None when every value
    is 0 or one is not finite.

    >>> k, shift = _dyadic_integers([0.5, -0.25, 1e-30], floor_at=1e-20)
    >>> k.tolist(), shift
    ([562949953421312, -281474976710656, 0], 50)
    """
    import math

    import numpy as np

    floats = np.asarray(values, dtype=np.float64)
    biggest = float(np.abs(floats).max()) if floats.size else 0.0
    if not biggest or not math.isfinite(biggest):
        return None
    shift = 50 - math.frexp(biggest)[1]
    rounded = np.rint(np.ldexp(floats, shift))
    rounded[np.abs(floats) <= floor_at] = 0.0
    if not rounded.any():
        return None
    return rounded.astype(np.int64), shift


def lp_separator(dataset: Any, note: str = "") -> Separator | None:
    """A separator from a float linear program (min Σ|wᵢ| s.t. yₙ w·xₙ ≥ 1), made exact and
    checked by the kernel; None when scipy is missing or the LP finds none."""
    try:
        import numpy as np
        from scipy.optimize import linprog
    except ImportError:
        return None
    Z = [tuple(y * v for v in row) for y, row in zip(dataset.labels, dataset.rows)]
    A = _float_matrix(Z)
    if A is None:
        return None
    n, dim = A.shape
    c = np.ones(2 * dim)
    A_ub = -np.hstack([A, -A])
    result = linprog(c, A_ub=A_ub, b_ub=-np.ones(n), bounds=(0, None), method="highs")
    if result.status != 0:
        return None
    w_float = result.x[:dim] - result.x[dim:]
    for limit in (1, 10, 100, 10**4, 10**6, 10**9, 10**12, None):
        if limit is None:
            candidate = [Fraction(float(v)) for v in w_float]  # the float itself, exactly
        else:
            candidate = [Fraction(float(v)).limit_denominator(limit) for v in w_float]
        if not any(candidate):
            continue
        try:
            facts = kernel.check_separator(kernel_rows(dataset), dataset.scale, dataset.labels,
                                           candidate)
        except kernel.CertificateError:
            continue
        # report the multiple with minimum margin exactly 1 (like the max-margin w*)
        return separator_for(dataset, [v / facts.rho for v in candidate], kind="lp", note=note)
    return None


# ----------------------------------------------------------------------------- internals
def _common_denominator(values: Sequence[Fraction]) -> int:
    """The least common denominator of exact numbers (a division test first: much cheaper than
    a gcd when, as here, the denominators share one big multiple).

    >>> _common_denominator([Fraction(1, 6), Fraction(1, 4), Fraction(2)])
    12
    """
    D = 1
    for v in values:
        if D % v.denominator:
            D = lcm(D, v.denominator)
    return D


def _squared_norm(w: Sequence[Fraction]) -> Fraction:
    """‖w‖², summed over one common denominator (exact, and cheaper than adding Fractions).

    >>> _squared_norm([Fraction(1, 2), Fraction(1, 3)])
    Fraction(13, 36)
    """
    common = _common_denominator(w)
    return Fraction(sum((v.numerator * (common // v.denominator)) ** 2 for v in w),
                    common * common)


def _fractions(numerators: list[int], denominator: int) -> tuple[Fraction, ...]:
    """(p / denominator for p in numerators) in lowest terms; FLINT's gcd (much faster than
    CPython's on numbers of thousands of digits) reduces them, and the Fractions are built from
    the coprime pairs without a second gcd where Python allows it.

    >>> _fractions([2, -3, 0], 6)
    (Fraction(1, 3), Fraction(-1, 2), Fraction(0, 1))
    """
    if denominator.bit_length() <= _PYTHON_GCD_BITS:     # short numbers: no FLINT import
        return tuple(Fraction(p, denominator) for p in numerators)
    import flint

    out = []
    for p in numerators:
        reduced = flint.fmpq(p, denominator)
        out.append(_coprime_fraction(int(reduced.p), int(reduced.q)))
    return tuple(out)


def _coprime_fraction(p: int, q: int) -> Fraction:
    """Fraction(p, q) for coprime p and q > 0 (checked by FLINT's gcd above) without the gcd
    Fraction() would repeat: CPython ≥ 3.12 has ``_from_coprime_ints``, 3.11 ``_normalize``."""
    make = getattr(Fraction, "_from_coprime_ints", None)
    if make is not None:
        return make(p, q)
    try:
        return Fraction(p, q, _normalize=False)  # type: ignore[call-arg]
    except TypeError:  # pragma: no cover - other Pythons: the plain constructor
        return Fraction(p, q)


class _TooCostly(RuntimeError):
    """The exact active-set search exceeded its iteration budget."""


def _float_matrix(Z: list[tuple[int, ...]]) -> Any:
    """Z scaled into floats by one common factor, or None when numpy is missing / overflow."""
    try:
        import numpy as np
    except ImportError:
        return None
    exact = _int64_matrix(Z)
    if exact is not None:
        biggest = max(int(exact.max()), -int(exact.min())) or 1
        return exact.astype(np.float64) / float(biggest)
    biggest = max((abs(v) for row in Z for v in row), default=0) or 1
    if biggest.bit_length() < 1000:
        A = np.array(Z, dtype=float) / float(biggest)
    else:
        A = np.array([[float(Fraction(v, biggest)) for v in row] for row in Z])
    return A if np.all(np.isfinite(A)) else None


def _int64_matrix(Z: list[tuple[int, ...]]) -> Any:
    """Z as a numpy int64 matrix whose entries are at most 2³¹ in size (None otherwise)."""
    import numpy as np

    try:
        exact = np.array(Z, dtype=np.int64)
    except (OverflowError, ValueError):
        return None
    if exact.ndim != 2 or exact.size == 0 or max(int(exact.max()), -int(exact.min())) > 2**31:
        return None
    return exact


def _propose_support(Z: list[tuple[int, ...]]) -> list[int]:
    """Row indices a float solver puts in the support, largest multiplier first ([] when the
    floats fail; the exact search then starts cold)."""
    A = _float_matrix(Z)
    proposal = _float_max_margin(A) if A is not None else None
    if proposal is None:
        return []
    import numpy as np

    alpha = proposal[1]
    tolerance = 1e-9 * alpha.max()
    return [int(j) for j in np.argsort(-alpha) if alpha[j] > tolerance]


def _float_max_margin(A: Any) -> tuple[Any, Any] | None:
    """Floats (w, α) for min ½‖w‖² s.t. A w ≥ 1 (rows of A: yₙ xₙ, scaled): w = Σ αₙ Aₙ,
    α ≥ 0; None when the floats fail (no separator, iteration limits).  They only propose.

    With at most as many rows as coordinates (+ 1): a primal–dual active-set method on the
    n × n Gram form (numpy only, a few dense solves).  With more rows: working sets of rows
    that grow by the rows the last solution violates (the support has at most dim rows),
    solved in the Gram form when there are many coordinates, else (or when that stalls) by
    quadprog's dual active-set QP (Goldfarb–Idnani) in the primal; Lawson and Hanson's NNLS,
    then scipy's, when both fail.
    """
    import numpy as np

    n, dim = A.shape
    if n <= min(dim + 1, GRAM_PROPOSAL_MAX_ROWS):
        u = _gram_active_set(A)
    else:
        found = _working_set_gram(A) if dim > GRAM_WORKING_SET_MIN_DIM else None
        if found is None:
            found = _working_set_qp(A)
        if found is not None:
            return found
        u = _lawson_hanson(A, 3 * (dim + 2) + 50)
        gradient = 1.0 - (A @ (A.T @ u) + u.sum())
        if not np.all(np.isfinite(u)) or gradient.max() > 1e-9:
            u = _scipy_nnls(A)      # not converged in floats: scipy's NNLS (QR updates) instead
    if u is None or not np.all(np.isfinite(u)) or u.max() <= 0 or not u.sum() < 1:
        return None
    # NNLS form (module doc): w = Σ uₙ Aₙ / (1 − Σ u), α = u / (1 − Σ u)
    return (A.T @ u) / (1.0 - u.sum()), u / (1.0 - u.sum())


#: From this many coordinates on, the working set is first solved in the Gram form (quadprog's
#: primal active set costs O(d²) per constraint: 6 s a solve on 3,000 × 1,000 data, where
#: the Gram form takes 0.3 s); below it quadprog first (the Gram working set stalls when the
#: support fills it).
GRAM_WORKING_SET_MIN_DIM = 200


def _working_set_gram(A: Any, rounds: int = 50) -> tuple[Any, Any] | None:
    """(w, α) by the Gram-form active set on working sets of at most dim rows (where the Gram
    matrix of rows in general position is invertible): the support of the last solution plus
    the rows its w violates most.  None when it stalls (the support fills the working set) or
    fails."""
    import numpy as np

    n, dim = A.shape
    W = np.sort(_smallest(A @ A.sum(axis=0), dim))
    for _ in range(rounds):
        u = _gram_active_set(A[W])
        total = float(u.sum())
        if not np.all(np.isfinite(u)) or not total < 1:
            return None
        w = (A[W].T @ u) / (1.0 - total)
        margins = A @ w
        violated = np.flatnonzero(margins < 1 - 1e-10)
        support = W[u > 0]
        if violated.size == 0:
            alpha = np.zeros(n)
            alpha[W] = u / (1.0 - total)
            return w, alpha
        room = dim - support.size
        if room <= 0:
            return None
        W = _index_union(n, support, violated[_smallest(margins[violated], room)])
    return None


#: Rounds of :func:`_working_set_qp` whose working set is the last support and the rows of
#: smallest margin (then the working set only grows).
QP_NEAREST_ROUNDS = 20
#: :func:`_working_set_qp`'s first working set takes this many times its later ``size`` rows
#: of smallest margin under each start direction (1 before session 39).
QP_FIRST_FACTOR = 2
#: The least-squares refits of :func:`_working_set_qp`'s start direction (0 before session 40).
QP_REFITS = 2


def _working_set_qp(A: Any, rounds: int = 100, fitted_start: bool = True,
                    first_factor: int | None = None, refits: int | None = None
                    ) -> tuple[Any, Any] | None:
    """(w, α) by quadprog on working sets of rows (None without quadprog, when it fails, or
    after ``rounds`` rounds).

    Each round is a cold solve whose cost grows with the working set, so the next set is the
    last solution's support and the 2 × ``size`` rows of smallest margin under it (violated or
    not: near rows keep a dropped row from coming back); after :data:`QP_NEAREST_ROUNDS`
    rounds (a guard against cycling) the set only grows by the rows most violated.  Against
    growing from the first round, this cut quadprog's work (iterations × working-set size) by
    28–38 % on five generated sets of 3,000–20,000 rows in 30–150 coordinates (issue 29).

    The first set holds the ``first_factor`` × ``size`` rows (default
    :data:`QP_FIRST_FACTOR`) of smallest margin under the mean direction Σₙ Aₙ and, with
    ``fitted_start`` and from :data:`QP_FITTED_START_MIN_DIM` coordinates on, as many rows of
    smallest margin under the least-squares fit of A w = 1
    (:func:`_fitted_margins`), a direction nearer the max-margin one on most data: on seven
    generated sets of 3,000–20,000 rows in 30–150 coordinates the two together needed as many
    cold solves as the mean direction alone or fewer (6 instead of 9 on the 10,000 × 100 set of
    ``benchmarks/scaling.py``).  Below 20 coordinates it is not used: on 100,000 × 10 it took
    one solve more, where a solve costs a few milliseconds and the fit as much (session 37;
    ``benchmarks/check_overhead.py`` times both starts).  A first set twice that size (session
    39) needed 1–3 cold solves instead of 2–7 on seven generated sets of 3,000–100,000 rows in
    10–150 coordinates (10,000 × 100: 3 instead of 6) and was 1.03–1.51 times as fast
    (``benchmarks/check_overhead.py``).

    With ``refits`` (default :data:`QP_REFITS`) the least-squares fit is refitted that many
    times, each time on the first set's number of rows of smallest margin under the last fit
    (A_S w = 1 on those rows S alone: the rows that hold the max margin are among them, and
    their fit moves towards the max-margin w), and the first set is the rows of smallest
    margin under the last fit alone (session 40).  On five generated sets of 3,000–20,000 rows
    in 30–150 coordinates, two refits made the first working set the last one: one cold solve
    instead of 2–4 (10,000 × 100: 1 instead of 3).  ``benchmarks/check_overhead.py`` times it
    against the start before (``refits=0``) on seven sets: 1.6–2.8 times as fast on the five
    of 50–150 coordinates (10,000 × 100: 65 → 24 ms); 0.92 times on 3,000 × 30 (3 → 4 ms)
    and 1.07 on 100,000 × 10 (below :data:`QP_FITTED_START_MIN_DIM` no fit is used: noise).
    """
    try:
        import numpy as np
        import quadprog
    except ImportError:
        return None
    n, dim = A.shape
    size = min(n, max(2 * dim, 200))
    first = min(n, (QP_FIRST_FACTOR if first_factor is None else first_factor) * size)
    column_sums = A.sum(axis=0)                          # Aᵀ1: the mean direction, times n
    W = np.sort(_smallest(A @ column_sums, first))      # smallest margins of a rough direction
    fitted = _fitted_margins(A, column_sums) if fitted_start and first < n and \
        dim >= QP_FITTED_START_MIN_DIM else None
    refitted = 0
    while fitted is not None and refitted < (QP_REFITS if refits is None else refits):
        again = _fitted_margins(A, rows=_smallest(fitted, first))
        if again is None:                 # (a singular fit: the last margins are kept)
            break
        fitted, refitted = again, refitted + 1
    if refitted:
        W = np.sort(_smallest(fitted, first))
    elif fitted is not None:
        W = _index_union(n, W, _smallest(fitted, first))
    identity, zeros = np.eye(dim), np.zeros(dim)
    for round_ in range(rounds):
        try:
            w, _value, _free, _iterations, multipliers, _active = quadprog.solve_qp(
                identity, zeros, np.ascontiguousarray(A[W].T), np.ones(len(W)))
        except ValueError:          # "constraints are inconsistent": no separator
            return None
        margins = A @ w
        violated = np.flatnonzero(margins < 1 - 1e-10)
        if violated.size == 0:
            alpha = np.zeros(n)
            alpha[W] = np.maximum(multipliers, 0.0)
            return w, alpha
        if round_ < QP_NEAREST_ROUNDS:
            W = _index_union(n, W[multipliers > 0], _smallest(margins, min(n, 2 * size)))
            continue
        worst = violated[_smallest(margins[violated], size)]
        # the working set grows (up to 10 × its first size; then only its support is kept): a
        # row dropped for a zero multiplier tends to be violated again later (27 cold solves
        # instead of 6 on 10,000 × 100 data, when only the support and the violated rows are
        # kept)
        W = _index_union(n, W if len(W) < 10 * size else W[multipliers > 0], worst)
    return None


def _fitted_margins(A: Any, column_sums: Any = None, rows: Any = None) -> Any:
    """A w for the least-squares solution w of A w = 1 (by the normal equations AᵀA w = Aᵀ1,
    ``column_sums`` being Aᵀ1 when the caller has it: a dim × dim solve), or None when AᵀA is
    singular in floats or the margins are not finite.  With ``rows``, w fits those rows of A
    alone (B w = 1 for B = A[rows]), and the margins are still those of every row.

    >>> import numpy as np
    >>> A = np.array([[1.0, 2.0], [2.0, 1.0], [1.0, 1.0]])
    >>> [round(float(m), 6) for m in _fitted_margins(A, A.sum(axis=0))]
    [1.090909, 1.090909, 0.727273]
    >>> [round(float(m), 6) for m in _fitted_margins(A, rows=[0, 1])]
    [1.0, 1.0, 0.666667]
    >>> _fitted_margins(np.array([[1.0, 1.0], [2.0, 2.0]])) is None
    True
    """
    import numpy as np

    B = A if rows is None else A[rows]
    try:
        w = np.linalg.solve(B.T @ B, B.sum(axis=0) if column_sums is None or rows is not None
                            else column_sums)
    except np.linalg.LinAlgError:
        return None
    margins = A @ w
    return margins if np.all(np.isfinite(margins)) else None


def _index_union(n: int, first: Any, second: Any) -> Any:
    """The sorted row indices in ``first`` or ``second`` (``numpy.union1d`` of indices below
    ``n``, by a mask: ``union1d`` imports ``numpy.ma``, a visible part of a checked process's
    start-up).

    >>> import numpy as np
    >>> _index_union(6, np.array([4, 1]), np.array([1, 5, 0])).tolist()
    [0, 1, 4, 5]
    """
    import numpy as np

    chosen = np.zeros(n, dtype=bool)
    chosen[first] = True
    chosen[second] = True
    return np.flatnonzero(chosen)


#: From this many coordinates on, :func:`_working_set_qp`'s first working set adds the rows of
#: smallest margin under a least-squares fit (below, its solves are cheap and the fit is not).
QP_FITTED_START_MIN_DIM = 20
#: Rows up to which the float proposal works on the n × n Gram matrix (numpy only).
GRAM_PROPOSAL_MAX_ROWS = 3000
#: The Gram active set first frees this fraction of the rows, those of smallest margin under
#: the mean direction Σₙ Aₙ, instead of all of them: the first solve with every row free is
#: the largest of all, and the support of data with more coordinates than rows is typically
#: 60–100 % of them.  On six generated sets of 200–1,000 rows in 300–1,000 coordinates this
#: start needed 17–42 % fewer factorisation flops (1,000 × 1,000: 6 rounds instead of 8),
#: more only on 200 × 1,000 (about 1 % of the flops of a 1,000-row solve; issue 29).
GRAM_FIRST_FREE_FRACTION = 0.7


def _gram_active_set(A: Any, iterations: int = 60) -> Any:
    """min ½uᵀHu − 1ᵀu over u ≥ 0 with H = AAᵀ + 11ᵀ (the NNLS of the module doc in Gram form),
    by the primal–dual active-set method: solve on the free set, free the rows whose gradient
    is negative, fix the rows whose value is not positive, until the sets repeat.  It starts
    from the rows of smallest margin (:data:`GRAM_FIRST_FREE_FRACTION`); when that start does
    not settle within ``iterations`` rounds, again from every row free (the start before issue
    29).  Floats only propose; None when it fails.

    From :data:`~verify.search.mixed_precision_gram.MIXED_PRECISION_MIN_ROWS` first free
    rows on, the rounds run in float32 with a float64 finish first
    (:mod:`verify.search.mixed_precision_gram`); here, and when that fails, each round is one
    dense float64 LU solve of the free block (numpy's Cholesky with blocked triangular solves
    measured as costly at 600 rows).

    >>> import numpy as np
    >>> A = np.array([[3.0, 3.0, 1.0], [4.0, 3.0, 1.0], [-1.0, -1.0, -1.0]]) / 4
    >>> u = _gram_active_set(A)
    >>> [round(float(v), 6) for v in u / (1 - u.sum())]     # α: rows 0 and 2 hold the margin
    [20.0, 0.0, 52.0]
    """
    import numpy as np

    from verify.search.mixed_precision_gram import (MIXED_PRECISION_MIN_ROWS,
                                                     mixed_precision_active_set)

    n = A.shape[0]
    first = np.zeros(n, dtype=bool)
    first[_smallest(A @ A.sum(axis=0), max(1, round(GRAM_FIRST_FREE_FRACTION * n)))] = True
    if first.sum() >= MIXED_PRECISION_MIN_ROWS:
        u = mixed_precision_active_set(A, first, iterations)
        if u is not None:
            return u
    H = A @ A.T               # (numpy computes AAᵀ as a symmetric rank-k update)
    H += 1.0
    u, settled = _primal_dual_active_set(H, first, iterations)
    if not settled:
        u, _ = _primal_dual_active_set(H, np.ones(n, dtype=bool), iterations)
    return u


def _primal_dual_active_set(H: Any, free: Any, iterations: int) -> tuple[Any, bool]:
    """The rounds of :func:`_gram_active_set` from the free rows ``free``: (u, whether the free
    set settled within ``iterations`` rounds).

    >>> import numpy as np
    >>> H = np.array([[2.0, 1.0], [1.0, 2.0]])
    >>> u, settled = _primal_dual_active_set(H, np.array([True, False]), 10)
    >>> [round(float(v), 6) for v in u], settled
    ([0.333333, 0.333333], True)
    """
    import numpy as np

    n = H.shape[0]
    u = np.zeros(n)
    for _ in range(iterations):
        index = np.flatnonzero(free)
        u = np.zeros(n)
        if index.size:
            block = H.take(index, axis=0).take(index, axis=1)   # (a third cheaper than ix_)
            try:
                u[index] = np.linalg.solve(block, np.ones(index.size))
            except np.linalg.LinAlgError:   # duplicate rows: least squares instead
                u[index] = np.linalg.lstsq(block, np.ones(index.size), rcond=None)[0]
        gradient = H @ u - 1.0
        new = (free & (u > 0)) | (~free & (gradient < 0))
        if np.array_equal(new, free):
            return u, True
        free = new
    return u, False


def _scipy_nnls(A: Any) -> Any:
    """scipy's NNLS on the columns (zⱼ, 1) (None without scipy or when it gives up)."""
    try:
        import numpy as np
        from scipy.optimize import nnls
    except ImportError:
        return None
    n = A.shape[0]
    E = np.vstack([A.T, np.ones(n)])
    f = np.zeros(E.shape[0])
    f[-1] = 1.0
    try:
        u, _ = nnls(E, f, maxiter=max(50, 3 * n))
    except RuntimeError:  # iteration limit: no proposal
        return None
    return u


def _lawson_hanson(A: Any, iterations: int) -> Any:
    """The same problem by Lawson and Hanson's active-set NNLS in floats, adding the row of
    largest negative gradient one at a time (never forming the n × n matrix)."""
    import numpy as np

    n = A.shape[0]
    u = np.zeros(n)
    free: list[int] = []
    for _ in range(iterations):
        gradient = 1.0 - (A @ (A.T @ u) + u.sum())      # minus the gradient of the objective
        if free:
            gradient[free] = -np.inf
        j = int(np.argmax(gradient))
        if not gradient[j] > 1e-12:
            return u
        free.append(j)
        target = np.zeros(A.shape[1] + 1)
        target[-1] = 1.0
        for _ in range(iterations):
            # least squares on the columns (zⱼ, 1) themselves (not the normal equations, which
            # would square their condition number)
            E = np.vstack([A[free].T, np.ones(len(free))])
            s = np.linalg.lstsq(E, target, rcond=None)[0]
            if np.all(s > 0):
                u[:] = 0.0
                u[free] = s
                break
            current = u[free]
            down = s <= 0
            step = float(np.min(current[down] / (current[down] - s[down])))
            current = current + step * (s - current)
            u[:] = 0.0
            u[free] = current
            free = [k for k, v in zip(free, current) if v > 1e-15]
            if not free:
                break
    return u


#: Up to this many bits, the search reduces fractions with CPython's gcd (FLINT's is much
#: faster on numbers of thousands of digits, but importing it costs a small checked run ~30 ms).
_PYTHON_GCD_BITS = 256
#: Systems of at most this many unknowns are solved in Python integers (Bareiss), larger ones
#: by python-flint.
_PYTHON_SOLVE_SIZE = 12


def _solve(matrix: list[list[int]], rhs: list[int]) -> tuple[list[int], int] | None:
    """The exact solution of a square integer system as (numerators, common denominator > 0),
    or None when the matrix is singular.

    The only place the search does exact linear algebra: small systems by Bareiss's
    fraction-free elimination in Python integers (:func:`_bareiss_solve`), larger ones by
    python-flint's fraction-free integer solver.

    >>> _solve([[2, 0], [0, 4]], [1, 1])
    ([2, 1], 4)
    >>> _solve([[1, 1], [1, 1]], [1, 1]) is None
    True
    """
    if len(rhs) <= _PYTHON_SOLVE_SIZE:
        return _bareiss_solve(matrix, rhs)
    import flint

    k = len(rhs)
    try:
        solution = flint.fmpz_mat(k, k, [v for row in matrix for v in row]).solve(
            flint.fmpz_mat(k, 1, rhs))
    except ZeroDivisionError:
        return None
    numerators, denominator = solution.numer_denom()
    sign = 1 if denominator > 0 else -1
    return [sign * int(v) for v in numerators.entries()], sign * int(denominator)


def _bareiss_solve(matrix: list[list[int]], rhs: list[int]) -> tuple[list[int], int] | None:
    """:func:`_solve` in Python integers: Bareiss's fraction-free elimination of [A | b] (every
    division exact), then back substitution for the numerators over d = ±det A (Cramer's rule:
    d·x is an integer vector).  The solution as (numerators, d > 0) over the smallest common
    denominator, or None when A is singular.

    >>> _bareiss_solve([[2, 1], [1, 3]], [1, 2]), _bareiss_solve([[2, 0], [0, 4]], [1, 1])
    (([1, 3], 5), ([2, 1], 4))
    """
    k = len(rhs)
    M = [list(row) + [b] for row, b in zip(matrix, rhs)]
    previous = 1
    for i in range(k):
        pivot = next((r for r in range(i, k) if M[r][i]), None)
        if pivot is None:
            return None
        M[i], M[pivot] = M[pivot], M[i]
        for r in range(i + 1, k):
            M[r][i + 1:] = [(M[r][c] * M[i][i] - M[r][i] * M[i][c]) // previous
                            for c in range(i + 1, k + 1)]
            M[r][i] = 0
        previous = M[i][i]
    d = M[k - 1][k - 1]
    numerators = [0] * k
    for i in range(k - 1, -1, -1):
        total = M[i][k] * d - sum(M[i][j] * numerators[j] for j in range(i + 1, k))
        numerators[i] = total // M[i][i]
    common = gcd(d, *numerators) * (1 if d > 0 else -1)     # (the smallest denominator)
    return [v // common for v in numerators], d // common


def _independent(columns: list[tuple[int, ...]]) -> list[int]:
    """Positions of a maximal linearly independent subset of ``columns``, earliest first."""
    import flint

    if not columns:
        return []
    rows, k = len(columns[0]), len(columns)
    reduced, rank = flint.fmpq_mat(rows, k, [columns[c][r] for r in range(rows)
                                             for c in range(k)]).rref()
    pivots = []
    for r in range(rank):
        for c in range(k):
            if reduced[r, c] != 0:
                pivots.append(c)
                break
    return pivots


#: Up to this many numbers (rows × dim), :class:`_ExactProducts` works in Python integers.
_PYTHON_PRODUCTS = 20_000


class _ExactProducts:
    """Exact integer products with the rows zⱼ, vectorised (speed only; every result is exact).

    Gram matrices [zₐ·z_b] use numpy when a bound proves the arithmetic exact: every product
    and partial sum is at most max|z|²·dim in magnitude, so float64 (BLAS) is exact up to 2⁵²
    (all intermediate values are integers float64 represents exactly) and int64 up to 2⁶³ − 1;
    beyond that, and for products with big vectors (residuals, multipliers), python-flint's
    exact integer matrices.
    """

    def __init__(self, Z: list[tuple[int, ...]]) -> None:
        self.Z = Z
        #: few rows: combinations and scores in Python integers, no FLINT (nor its import)
        self.small = len(Z) * len(Z[0]) <= _PYTHON_PRODUCTS
        self._matrix: Any = None
        self.dense: Any = None
        try:
            import numpy as np
        except ImportError:  # pragma: no cover - numpy is a dependency
            return
        small = _int64_matrix(Z)
        biggest = max(int(small.max()), -int(small.min())) if small is not None else \
            max((abs(v) for row in Z for v in row), default=0)
        bound = biggest * biggest * len(Z[0])
        if bound <= 2**52:
            self.dense = (small if small is not None else np.array(Z, dtype=np.int64)).astype(
                np.float64)                                   # exact: integers ≤ 2⁵²
        elif bound <= 2**63 - 1:
            self.dense = small if small is not None else np.array(Z, dtype=np.int64)

    @property
    def flint(self) -> Any:
        import flint

        return flint

    @property
    def matrix(self) -> Any:
        """The rows as a python-flint ``fmpz_mat`` (built on first use)."""
        if self._matrix is None:
            Z = self.Z
            self._matrix = self.flint.fmpz_mat(len(Z), len(Z[0]), [v for row in Z for v in row])
        return self._matrix

    def gram(self, P: list[int]) -> list[list[int]]:
        """[zₐ·z_b for b in P] for a in P, exactly."""
        if self.dense is not None:
            import numpy as np

            block = self.dense[np.array(P, dtype=np.intp)]
            return [[int(v) for v in row] for row in (block @ block.T).tolist()]
        sub = self.flint.fmpz_mat([self.Z[j] for j in P])
        product = sub * sub.transpose()
        k = len(P)
        return [[int(product[a, b]) for b in range(k)] for a in range(k)]

    def combination(self, U: dict[int, int]) -> list[int]:
        """Σⱼ Uⱼ zⱼ, exactly."""
        if self.small:
            total = [0] * len(self.Z[0])
            for j, u in U.items():
                total = [t + u * z for t, z in zip(total, self.Z[j])]
            return total
        weights = self.flint.fmpz_mat(1, len(self.Z), [U.get(j, 0) for j in range(len(self.Z))])
        return [int(v) for v in (weights * self.matrix).entries()]

    def scores(self, r: list[int]) -> list[int]:
        """[zⱼ·r for every j], exactly."""
        if self.small:
            return [sum(map(mul, z, r)) for z in self.Z]
        column = self.flint.fmpz_mat(len(r), 1, r)
        return [int(v) for v in (self.matrix * column).entries()]


def _exact_nnls(Z: list[tuple[int, ...]], start: list[int], max_iterations: int | None,
                products: _ExactProducts | None = None) -> tuple[dict[int, int], int]:
    """Lawson–Hanson NNLS for columns eⱼ = (zⱼ, 1), target f = (0, …, 0, 1), exactly.

    Returns the solution u as integers over a common denominator: ({j: Uⱼ}, Q), uⱼ = Uⱼ/Q,
    with every listed Uⱼ > 0.  ``start`` is a proposed passive set (warm start).
    """
    dim = len(Z[0])
    products = products if products is not None else _ExactProducts(Z)

    def column(j: int) -> tuple[int, ...]:
        return Z[j] + (1,)

    def least_squares(P: list[int]) -> tuple[list[int], int] | None:
        G = [[v + 1 for v in row] for row in products.gram(P)]
        return _solve(G, [1] * len(P))

    # warm start: the proposal (or an independent subset of it) whose least-squares solution
    # is > 0, as integers U over a common denominator Q
    U: dict[int, int] = {}
    Q = 1
    P = list(start)
    solved = least_squares(P) if P else None
    if P and solved is None:            # dependent columns: keep an independent subset
        P = [start[k] for k in _independent([column(j) for j in start])]
        solved = least_squares(P) if P else None
    while P:
        if solved is None:  # cannot happen for independent columns; start cold
            P = []
            break
        numerators, denominator = solved
        if all(v > 0 for v in numerators):
            U, Q = dict(zip(P, numerators)), denominator
            break
        P = [j for j, v in zip(P, numerators) if v > 0]
        solved = least_squares(P) if P else None
    P = list(U)
    iterations = 0
    while True:
        r_vec = [-v for v in products.combination(U)] if U else [0] * dim
        r_last = Q - sum(U.values())
        best, best_j = 0, -1
        in_P = set(P)
        for j, zr in enumerate(products.scores(r_vec)):
            if j not in in_P:
                g = zr + r_last
                if g > best:
                    best, best_j = g, j
        if best_j < 0:
            return U, Q
        iterations += 1
        if max_iterations is not None and iterations > max_iterations:
            raise _TooCostly(f"more than {max_iterations} exact active-set iterations")
        P.append(best_j)
        u = {j: Fraction(v, Q) for j, v in U.items()}
        u[best_j] = Fraction(0)
        U, Q = {}, 1
        while True:
            solved = least_squares(P)
            if solved is None:
                raise CertificateNotFound("singular least-squares system in the exact NNLS")
            numerators, denominator = solved
            if all(v > 0 for v in numerators):
                U, Q = dict(zip(P, numerators)), denominator
                break
            s = [Fraction(v, denominator) for v in numerators]
            step = min(u[j] / (u[j] - v) for j, v in zip(P, s) if v <= 0)
            u = {j: u[j] + step * (v - u[j]) for j, v in zip(P, s)}
            P = [j for j in P if u[j] > 0]
            u = {j: u[j] for j in P}
            if not P:
                break
