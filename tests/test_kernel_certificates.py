"""The trusted kernel's certificate checks accept good certificates and reject every corruption."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

import pla
from tests.strategies import datasets, separable_datasets
from verify import kernel
from verify.search.certificates import NonSeparable, Separator, certify

XOR = pla.Dataset.from_rows([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1])
LINE = pla.Dataset.from_rows([[-3], [-2], [2], [5]], [-1, -1, 1, 1])   # w* = (0, 1/2)


def _args(ds):
    return ds.rows, ds.scale, ds.labels


def test_separator_accepted_with_exact_margin():
    facts = kernel.check_separator(*_args(LINE), [0, Fraction(1, 2)])
    assert facts == kernel.MarginFacts(Fraction(1), 1)


def test_separator_failing_one_point_is_rejected_and_named():
    # w = (-2, 1): rows 0 and 1 get 5 and 4, row 2 (x = 2, y = +1) gets exactly 0.
    with pytest.raises(kernel.CertificateError) as caught:
        kernel.check_separator(*_args(LINE), [-2, 1])
    assert caught.value.index == 2 and "y w.x = 0" in str(caught.value)


def test_kernel_refuses_floats_and_bools():
    with pytest.raises(kernel.CertificateError, match="only ints and Fractions"):
        kernel.check_separator(*_args(LINE), [0, 0.5])
    with pytest.raises(kernel.CertificateError):
        kernel.check_gordan(*_args(XOR), [True, 1, 1, 1])


def test_max_margin_hand_computed():
    alpha = [0, Fraction(1, 8), Fraction(1, 8), 0]
    assert kernel.check_max_margin(*_args(LINE), [0, Fraction(1, 2)], alpha) == Fraction(1, 4)


@pytest.mark.parametrize("corrupt, message", [
    (lambda w, a: (w, [a[0], -a[1], a[2], a[3]]), "dual feasibility"),
    (lambda w, a: (w, [a[0], a[1] + 1, a[2], a[3]]), "stationarity"),       # alpha off by one unit
    (lambda w, a: ([w[0] + 1, w[1]], a), "stationarity"),                     # w off by one unit
    (lambda w, a: ([w[0], w[1] - Fraction(1, 8)], [0, Fraction(3, 32), Fraction(3, 32), 0]),
     "primal feasibility"),                                                   # KKT of a shrunk w
    (lambda w, a: ([w[0], 2 * w[1]], [0, Fraction(1, 4), Fraction(1, 4), 0]),
     "complementary slackness"),
])
def test_max_margin_corruptions_are_rejected(corrupt, message):
    w, alpha = corrupt([Fraction(0), Fraction(1, 2)], [0, Fraction(1, 8), Fraction(1, 8), 0])
    with pytest.raises(kernel.CertificateError, match=message):
        kernel.check_max_margin(*_args(LINE), w, alpha)


def test_gordan_accepts_xor_and_rejects_corruptions():
    kernel.check_gordan(*_args(XOR), [1, 1, 1, 1])
    kernel.check_gordan(*_args(XOR), [Fraction(1, 4)] * 4)
    for bad, message in [([1, 1, 1, 2], "!= 0"), ([0, 0, 0, 0], "lambda = 0"),
                         ([1, 1, -1, 1], "< 0"), ([1, 1, 1], "entries")]:
        with pytest.raises(kernel.CertificateError, match=message):
            kernel.check_gordan(*_args(XOR), bad)


@settings(max_examples=25, deadline=None)
@given(datasets(max_n=6, max_d=2), st.data())
def test_every_perturbed_certificate_is_rejected(ds, data):
    """certify's certificate passes the kernel; changing any one entry by any amount fails it."""
    certificate = certify(ds)
    if isinstance(certificate, NonSeparable):
        lam = list(certificate.lam)
        kernel.check_gordan(*_args(ds), lam)
        j = data.draw(st.integers(0, ds.n - 1))
        delta = data.draw(st.fractions(min_value=-3, max_value=3).filter(bool))
        lam[j] += delta
        if any(ds.rows[j]):   # a zero row contributes nothing: changing its lambda is harmless
            with pytest.raises(kernel.CertificateError):
                kernel.check_gordan(*_args(ds), lam)
    else:
        assert isinstance(certificate, Separator)
        w, alpha = list(certificate.w), list(certificate.alpha)
        kernel.check_max_margin(*_args(ds), w, alpha)
        delta = data.draw(st.fractions(min_value=-3, max_value=3).filter(bool))
        if data.draw(st.booleans()):
            w[data.draw(st.integers(0, ds.dim - 1))] += delta
        else:
            alpha[data.draw(st.integers(0, ds.n - 1))] += delta
        with pytest.raises(kernel.CertificateError):
            kernel.check_max_margin(*_args(ds), w, alpha)


@settings(max_examples=20, deadline=None)
@given(separable_datasets(max_n=7, max_d=2), st.data())
def test_separator_rejected_when_one_point_fails(ds, data):
    """Tilting the max-margin w* so that one chosen point gets y w.x <= 0 is always caught."""
    s = certify(ds)
    n = data.draw(st.integers(0, ds.n - 1))
    x, y = ds.X[n], ds.labels[n]
    # w' = w* - c y x with c = (y w*.x) / ||x||^2 makes y w'.x = 0 exactly
    c = y * sum(a * b for a, b in zip(s.w, x)) / sum(v * v for v in x)
    w = [a - c * y * b for a, b in zip(s.w, x)]
    with pytest.raises(kernel.CertificateError) as caught:
        kernel.check_separator(*_args(ds), w)
    assert caught.value.index is not None
    assert ds.labels[caught.value.index] * sum(
        a * b for a, b in zip(w, ds.X[caught.value.index])) <= 0
