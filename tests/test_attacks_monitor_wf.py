"""Attacks on the monitor's integer w_f (commit 9047141): a w_f whose entries are all builtin
ints skips the Fractions (F = the ints, D_f = 1), and ``Monitor.wf`` builds F / D_f when first
read; the checked run's near-max-margin w_f now reaches the monitor as integers.

What must hold: for every w_f the monitor accepts, its verdicts (a ProofViolation where w_f
does not separate, ρ, ‖w_f‖², the bound, ``report.wf``) are those of the same w_f given as
Fractions; the monitor keeps builtin ints only (never the caller's objects, whose arithmetic
the caller writes) and never reads the caller's sequence again; the checked run's report shows
the w_f it showed before the change.

The hole found (fixed here, in ``Monitor.__init__``): the integer test was
``set(map(type, wf)) <= {int}``, which compares the entries' *types* with their metaclass's
``__eq__``/``__hash__``; a type whose metaclass claims to equal ``int`` passed, and the caller's
objects became F: the monitor's own products (‖w_f‖², w_f·w_t) ran the caller's ``__mul__``,
and the kernel's row facts (whose bulk type test has the same weakness) took an ``__abs__``
that chose the int64 path for products that wrap around.  A w_f that does not separate was
reported as a separator with ρ = 2⁶².  A second way in, older than 9047141: a Fraction built
from an int subclass whose ``numerator`` is such an object.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import floor, lcm

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pla
from pla.generate import separable_data
from tests.cli_runner import pla_here
from tests.strategies import datasets, separable_datasets
from verify.checks import checked_run
from verify.checks.monitor import Monitor, ProofViolation
from verify.kernel import CertificateError
from verify.search import certificates as search
from verify.search.certificates import Separator, certify, near_max_margin

TRIANGLE = pla.Dataset.from_rows([[3, 3], [4, 3], [1, 1]], [1, 1, -1])
FIRST = pla.RunOptions(order="first")
REFUSED = (ProofViolation, CertificateError, TypeError, ValueError)


# ----------------------------------------------------------------------------- the liars
class ClaimsInt(type):
    """A metaclass whose classes say they are ``int`` to ``==`` and ``hash`` (so a set of
    types holding one of them is ``<= {int}``)."""

    def __eq__(cls, other: object) -> bool:
        return other is int or type.__eq__(cls, other)

    def __hash__(cls) -> int:
        return hash(int)


def wrapped(v: int) -> int:
    """``v`` as an int64 product would give it (modulo 2⁶⁴)."""
    return (v + 2**63) % 2**64 - 2**63


class Wrapping(int, metaclass=ClaimsInt):
    """An int that claims its type is int, whose |.| is 0 (so a bound on Σ|Fᵢ| sends it to
    int64 products) and whose products with plain ints wrap around as int64 ones do."""

    def __abs__(self) -> int:
        return 0

    def __mul__(self, other: object) -> int:
        if type(other) is int and other == 1:
            return self                  # (survives F = numerator * (D_f // denominator))
        p = int(self) * int(other)       # type: ignore[call-overload]
        return p if type(other) is Wrapping else wrapped(p)

    __rmul__ = __mul__


class Inflating(int, metaclass=ClaimsInt):
    """Claims its type is int; its products with itself (‖w_f‖²) are a million times too big."""

    def __mul__(self, other: object) -> int:
        p = int(self) * int(other)       # type: ignore[call-overload]
        return 10**6 * p if type(other) is Inflating else p

    __rmul__ = __mul__


class CarriesWrapping(int):
    """An honest-looking int subclass whose ``numerator`` (which ``Fraction()`` reads) is a
    :class:`Wrapping`."""

    @property
    def numerator(self) -> Wrapping:  # type: ignore[override]
        return Wrapping(int(self))


class LyingInt(int):
    """An int subclass whose ==, hash and * lie (its type does not)."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0

    def __mul__(self, other: object) -> int:
        return 7

    __rmul__ = __mul__


# --------------------------------------------------------------------------- helpers
def fractions_of(wf):
    return [Fraction(int(v)) if isinstance(v, (int, np.integer)) else Fraction(v) for v in wf]


def verdict(ds, options, wf, **kwargs):
    """What the monitor decides about ``wf`` before the run: the refusal's text, or the
    constants (ρ, ‖w_f‖², the bound, w_f, D_f·w_f = F scaled to lowest terms)."""
    try:
        m = Monitor(ds, options, wf, **kwargs)
    except ProofViolation as violation:
        return ("refused", str(violation))
    return ("accepted", m.rho, m.norm2, m.bound, m.bound_updates, m.wf, m.classical)


def checked(ds, options, wf, hook="on_step", **kwargs):
    """A run of ``options`` checked by a monitor of ``wf``: (report, wf before the run)."""
    m = Monitor(ds, options, wf, **kwargs)
    before = m.wf
    if hook == "on_step":
        result = pla.run(ds, options=options, on_step=m)
    else:
        with m.deferred_checks() as on_update:
            result = pla.run(ds, options=options, on_update=on_update)
    return m.finish(result), before, m


def integer_separator(ds):
    """An integer separator of ``ds`` (the exact max-margin w times its denominators)."""
    s = certify(ds)
    assert isinstance(s, Separator)
    scale = lcm(*(v.denominator for v in s.w))
    return [int(v * scale) for v in s.w], s


# --------------------------------------------------------------------------- the hole
def test_a_type_claiming_to_be_int_cannot_make_a_non_separator_separate():
    """The row (1, -3) with label +1 and w_f = (0, 2⁶²): y w_f·x = -3·2⁶² < 0, which an int64
    product wraps to +2⁶².  Before the fix the monitor accepted w_f with ρ = 2⁶² and the
    checked run reported it; now it is refused as the same w_f given as Fractions is."""
    ds = pla.Dataset.from_rows([[-3]], [1])
    with pytest.raises(ProofViolation, match="w_f is a separator") as reference:
        Monitor(ds, FIRST, [Fraction(0), Fraction(2**62)])
    with pytest.raises(ProofViolation, match="w_f is a separator") as attack:
        Monitor(ds, FIRST, [Wrapping(0), Wrapping(2**62)])
    assert str(attack.value) == str(reference.value)


def test_a_fraction_whose_numerator_claims_to_be_int_is_refused():
    """The way in that is older than 9047141: ``Fraction(CarriesWrapping(v))`` has a
    :class:`Wrapping` numerator, and F = numerator·(D_f // denominator) kept it."""
    ds = pla.Dataset.from_rows([[-3]], [1])
    with pytest.raises(REFUSED):
        Monitor(ds, FIRST, [CarriesWrapping(0), CarriesWrapping(2**62)])
    with pytest.raises(REFUSED):
        Monitor(ds, FIRST, (Fraction(CarriesWrapping(0)), Fraction(CarriesWrapping(2**62))))


def test_a_type_claiming_to_be_int_cannot_change_the_bound():
    """‖w_f‖² is the monitor's own product: with the caller's ``__mul__`` it was 11·10⁶ for
    w_f = (-3, 1, 1) and the bound 286·10⁶; it must be the Fraction path's 11 and 286."""
    attack = [Inflating(-3), Inflating(1), Inflating(1)]
    reference = [Fraction(-3), Fraction(1), Fraction(1)]
    assert verdict(TRIANGLE, FIRST, attack) == verdict(TRIANGLE, FIRST, reference)
    report, _, m = checked(TRIANGLE, FIRST, attack)
    expected, _, _ = checked(TRIANGLE, FIRST, reference)
    assert report == expected and report.norm2 == 11 and report.bound_updates == 286
    assert {type(v) for v in m.F} == {int} and type(m.Df) is int


@pytest.mark.parametrize("wf", [
    [Wrapping(-3), Wrapping(1), Wrapping(1)], [Inflating(-3), Inflating(1), Inflating(1)],
    [LyingInt(-3), LyingInt(1), LyingInt(1)], [True, -3, True], (-3, 1, True),
    [np.int64(-3), np.int64(1), np.int64(1)], [-3, Fraction(1), 1], (-3.0, 1, "1"),
])
def test_the_monitor_keeps_builtin_ints_only(wf):
    """Whatever the entries, the monitor either refuses them or keeps F and D_f as builtin
    ints with the values of the Fraction path (so no caller's method runs after the set-up)."""
    try:
        m = Monitor(TRIANGLE, FIRST, wf)
    except REFUSED:
        return
    assert all(type(v) is int for v in m.F) and type(m.Df) is int
    assert all(type(v) is Fraction and type(v.numerator) is int for v in m.wf)
    assert verdict(TRIANGLE, FIRST, wf) == verdict(TRIANGLE, FIRST, fractions_of(wf))


@pytest.mark.parametrize("wf", [
    [LyingInt(-3), LyingInt(1), LyingInt(1)], [-3, True, True], [-3, Fraction(1), 1],
    (Fraction(-3), 1, 1), [-3.0, 1, 1],
])
def test_entries_that_are_not_builtin_ints_give_the_fraction_verdict(wf):
    """int subclasses with lying ``==``/``hash``/``*``, bools, a mix of ints and Fractions,
    floats: the Fraction path, whose verdict is that of the exact values."""
    report, before, _ = checked(TRIANGLE, FIRST, wf)
    expected, _, _ = checked(TRIANGLE, FIRST, [Fraction(-3), Fraction(1), Fraction(1)])
    assert report == expected and before == expected.wf
    assert report.bound_updates == 286 and report.rho == 1 and report.norm2 == 11


def test_numpy_integers_are_refused_or_exact():
    """numpy int64 entries are not builtin ints: refused (the kernel takes builtin ints only),
    or, if accepted, with the Fraction path's numbers."""
    wf = [np.int64(-3), np.int64(1), np.int64(1)]
    try:
        got = verdict(TRIANGLE, FIRST, wf)
    except (CertificateError, TypeError):
        return
    assert got == verdict(TRIANGLE, FIRST, fractions_of(wf))


# ------------------------------------------------------------- the caller's sequence
@pytest.mark.parametrize("hook", ["on_step", "deferred"])
@pytest.mark.parametrize("unit_margin", [False, True])
def test_the_callers_list_is_read_once(hook, unit_margin):
    """The caller's list is changed after the monitor is made and again during the run: the
    checks, the bound and ``report.wf`` are those of the original w_f."""
    wf = [-3, 1, 1]
    expected, _, _ = checked(TRIANGLE, FIRST, list(wf), unit_margin=unit_margin)
    m = Monitor(TRIANGLE, FIRST, wf, unit_margin=unit_margin)
    wf[:] = [3, -1, -1]                          # not a separator (nor a w_f of this run)

    def mutate(step):
        wf[:] = [0, 0, 0]
        m(step)

    if hook == "on_step":
        result = pla.run(TRIANGLE, options=FIRST, on_step=mutate)
    else:
        def mutate_update(t, index, y, score):
            wf[:] = [10**30, 0, 0]
            on_update(t, index, y, score)
        with m.deferred_checks() as on_update:
            result = pla.run(TRIANGLE, options=FIRST, on_update=mutate_update)
    assert m.finish(result) == expected
    assert m.wf == expected.wf == (tuple(Fraction(v) for v in (-3, 1, 1)) if not unit_margin
                                   else (Fraction(-3), Fraction(1), Fraction(1)))


def test_the_callers_list_changed_before_the_first_read_of_wf():
    """``Monitor.wf`` is built when first read: from the monitor's own F, not the caller's list."""
    wf = [-6, 2, 2]
    m = Monitor(TRIANGLE, FIRST, wf)
    wf[:] = [1, 1, 1]
    assert m.wf == (Fraction(-6), Fraction(2), Fraction(2))
    assert m.rho == 2 and m.norm2 == 44 and m.bound_updates == 286


# ------------------------------------------------------------------------ shapes, sizes
@pytest.mark.parametrize("wf", [[-3, 1], [-3, 1, 1, 0], (), [Fraction(-3), 1]])
def test_a_w_f_of_the_wrong_length_is_refused_on_both_paths(wf):
    with pytest.raises(ValueError, match="w_f has"):
        Monitor(TRIANGLE, FIRST, wf)
    with pytest.raises(ValueError, match="w_f has"):
        Monitor(TRIANGLE, FIRST, fractions_of(wf))


@pytest.mark.parametrize("wf", [[0, 0, 0], [3, -1, -1], [0, 1, 0], [-3, 1, 0]])
def test_zero_and_non_separating_vectors_are_refused_as_fractions_are(wf):
    with pytest.raises(ProofViolation) as got:
        Monitor(TRIANGLE, FIRST, wf)
    with pytest.raises(ProofViolation) as expected:
        Monitor(TRIANGLE, FIRST, fractions_of(wf))
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("scale", [1, 2**62, 2**63 - 1, 2**64 + 1, 2**300, -(2**300)])
@pytest.mark.parametrize("unit_margin", [False, True])
def test_huge_integer_w_f(scale, unit_margin):
    """w_f = scale·(-3, 1, 1): int64 products would wrap; the verdict is the Fraction path's
    (a refusal for the negative scale), and with ``unit_margin`` w_f is (-3, 1, 1)."""
    wf = [-3 * scale, scale, scale]
    assert verdict(TRIANGLE, FIRST, wf, unit_margin=unit_margin) == \
        verdict(TRIANGLE, FIRST, fractions_of(wf), unit_margin=unit_margin)
    if scale > 0:
        report, before, _ = checked(TRIANGLE, FIRST, wf, unit_margin=unit_margin)
        assert report.bound_updates == 286 and report.wf == before
        assert report.wf == (tuple(map(Fraction, wf)) if not unit_margin
                             else (Fraction(-3), Fraction(1), Fraction(1)))


# ------------------------------------------------------------------ generated data
@st.composite
def data_and_w_f(draw):
    """Separable data, run options and an integer w_f: a separator times a positive factor,
    perturbed or not (then it may not separate), or any small integer vector."""
    ds = draw(separable_datasets(max_n=6, max_d=3))
    w, _ = integer_separator(ds)
    kind = draw(st.sampled_from(["separator", "perturbed", "any"]))
    if kind == "any":
        wf = draw(st.lists(st.integers(-5, 5), min_size=ds.dim, max_size=ds.dim))
    else:
        factor = draw(st.sampled_from([1, 3, 2**40, 2**70]))
        wf = [v * factor for v in w]
        if kind == "perturbed":
            i = draw(st.integers(0, ds.dim - 1))
            wf[i] += draw(st.integers(-3, 3)) * factor
    options = pla.RunOptions(order=draw(st.sampled_from(["first", "cyclic", "random"])),
                             seed=draw(st.integers(0, 99)),
                             eta=draw(st.sampled_from([1, 2, Fraction(1, 3)])),
                             w0=draw(st.none() | st.just((1,) * ds.dim)),
                             zero=draw(st.sampled_from(pla.ZERO_CONVENTIONS)),
                             max_updates=200)
    return ds, options, wf


@settings(max_examples=60, deadline=None)
@given(data_and_w_f(), st.booleans(), st.sampled_from(["on_step", "deferred"]))
def test_integer_and_fraction_w_f_give_the_same_verdicts(case, unit_margin, hook):
    ds, options, wf = case
    got = verdict(ds, options, wf, unit_margin=unit_margin)
    assert got == verdict(ds, options, fractions_of(wf), unit_margin=unit_margin)
    if got[0] == "refused":
        return
    report, before, m = checked(ds, options, list(wf), hook, unit_margin=unit_margin)
    expected, _, _ = checked(ds, options, fractions_of(wf), hook, unit_margin=unit_margin)
    assert report == expected and before == report.wf == m.wf
    # w_f exactly: as given, or divided by its margin min y_n w_f.x_n (ρ = 1)
    margin = min(y * sum(map(lambda a, b: a * b, map(Fraction, wf), x))
                 for x, y in zip(ds.X, ds.labels))
    assert report.wf == tuple(Fraction(v) / (margin if unit_margin else 1) for v in wf)


@settings(max_examples=40, deadline=None)
@given(datasets(max_n=6, max_d=3), st.data())
def test_any_integer_vector_on_any_data(ds, data):
    """Data with or without a separator, any integer w_f: the same verdict as Fractions."""
    wf = data.draw(st.lists(st.integers(-2**65, 2**65) | st.integers(-4, 4),
                            min_size=ds.dim, max_size=ds.dim))
    unit_margin = data.draw(st.booleans())
    assert verdict(ds, FIRST, wf, unit_margin=unit_margin) == \
        verdict(ds, FIRST, fractions_of(wf), unit_margin=unit_margin)


# ------------------------------------------------------- the checked run's report of w_f
def _large():
    rows, labels = separable_data(60, 3, "1/50", seed=3)
    return pla.Dataset.from_rows(rows, labels), rows, labels


def test_the_checked_runs_near_max_margin_w_f_is_the_fraction_paths(monkeypatch):
    """The near-max-margin w_f reaches the monitor as integers: its report's w_f, ρ, ‖w_f‖²
    and bound are those of :func:`near_max_margin` (the proposal divided by its margin, in
    Fractions), and of a monitor given the proposal as Fractions."""
    ds, _, _ = _large()
    monkeypatch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
    w, _ = search.near_max_margin_proposal(ds)
    assert {type(v) for v in w} == {int}
    near = near_max_margin(ds)
    assert near is not None and near.tightest_updates is not None
    run = checked_run.checked_run(ds)
    report = run.report
    assert report.wf_kind.startswith("near-max-margin")
    assert report.wf == near.w and report.rho == 1 and report.norm2 == near.norm2
    assert report.bound_updates == near.tightest_updates
    fraction_monitor = Monitor(ds, pla.RunOptions(), [Fraction(v) for v in w], unit_margin=True)
    assert fraction_monitor.wf == report.wf and fraction_monitor.norm2 == report.norm2
    fields = run.to_json()
    assert fields["wf"] == [str(v) for v in near.w]
    assert fields["norm2_wf"] == str(near.norm2) and fields["rho"] == "1"
    text = "\n".join(checked_run.report_lines(report))
    assert f"w_f = {checked_run.format_vector(near.w)}" in text


def test_the_cli_json_shows_the_fraction_paths_w_f(tmp_path, monkeypatch, capsys):
    """``pla run --check --json`` on the same data: the w_f it prints is near_max_margin's."""
    ds, rows, labels = _large()
    data = tmp_path / "d.dat"
    data.write_text("".join(" ".join(map(str, x)) + f" {y:+d}\n" for x, y in zip(rows, labels)))
    monkeypatch.setattr(checked_run, "EXACT_WF_ENTRIES", 0)
    done = pla_here(capsys, "run", str(data), "--check", "--json")
    assert done.code == 0, done.err
    fields = json.loads(done.out)
    near = near_max_margin(ds)
    assert fields["wf_kind"].startswith("near-max-margin")
    assert fields["wf"] == [str(v) for v in near.w]
    assert fields["norm2_wf"] == str(near.norm2)
    assert int(fields["bound_updates"]) == near.tightest_updates == floor(near.bound)
