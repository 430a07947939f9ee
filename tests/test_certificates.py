"""Certificate search: exact max-margin separators, Gordan certificates, fallbacks, optimality."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

import pla
import verify
import verify.search.certificates as certificates
from pla.generate import separable_data
from tests.strategies import datasets
from verify import kernel
from verify.search.certificates import NonSeparable, Separator, certify, check_weights, separator_for


def _dot(u, v):
    return sum((a * b for a, b in zip(u, v)), Fraction(0))


def test_hand_computed_max_margin():
    ds = pla.Dataset.from_rows([[-3], [-2], [2], [5]], [-1, -1, 1, 1])
    s = verify.certify(ds)
    assert s.kind == "max-margin" and s.w == (0, Fraction(1, 2)) == s.maxmargin
    assert s.alpha == (0, Fraction(1, 8), Fraction(1, 8), 0) and s.support == (1, 2)
    assert (s.rho, s.R2, s.norm2, s.gamma2, s.bound) == (1, 26, Fraction(1, 4), 4, Fraction(13, 2))
    assert s.bound_updates == 6


@st.composite
def data_with_known_separator(draw):
    """Points with y u.x >= 1 for a known integer u (bias included): a margin known in advance."""
    d = draw(st.integers(1, 3))
    u = draw(st.lists(st.integers(-3, 3), min_size=d + 1, max_size=d + 1).filter(any))
    rows, labels = [], []
    for _ in range(draw(st.integers(1, 8))):
        x = draw(st.lists(st.integers(-4, 4), min_size=d, max_size=d))
        s = _dot(u, [1] + x)
        if s != 0:
            rows.append(x)
            labels.append(1 if s > 0 else -1)
    if not rows:
        rows, labels = [[0] * d], [1 if u[0] > 0 else -1] if u[0] else [1]
        if u[0] == 0:
            u = [1] + u[1:]
    return pla.Dataset.from_rows(rows, labels), tuple(Fraction(v) for v in u)


@settings(max_examples=30, deadline=None)
@given(data_with_known_separator())
def test_max_margin_on_data_with_a_known_margin(case):
    ds, u = case
    s = certify(ds)
    assert isinstance(s, Separator) and s.kind == "max-margin" and s.rho == 1
    kernel.check_max_margin(ds.rows, ds.scale, ds.labels, s.w, s.alpha)
    rho_u = min(y * _dot(u, x) for x, y in zip(ds.X, ds.labels))
    # u / rho_u is feasible for min ||w||^2 s.t. y w.x >= 1, so the optimum is no larger
    assert s.norm2 <= _dot(u, u) / rho_u**2
    assert s.gamma2 >= rho_u**2 / _dot(u, u)


def test_generated_data_certificate():
    rows, labels = separable_data(60, 3, "1/10", seed=7)
    ds = pla.Dataset.from_rows(rows, labels)
    s = certify(ds)
    assert s.kind == "max-margin" and 1 <= len(s.support) <= ds.dim + 1
    assert pla.run(ds, keep_steps=False).updates <= s.bound


@pytest.mark.parametrize("X, y", [
    ([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1]),        # XOR
    ([[2, -1], [2, -1]], [1, -1]),                              # one point with both labels
    ([[0], [1], [2]], [1, -1, 1]),                              # 1-d sandwich
])
def test_non_separable_by_construction(X, y):
    ds = pla.Dataset.from_rows(X, y)
    c = certify(ds)
    assert isinstance(c, NonSeparable) and not c.separable and len(c.lam) == ds.n
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, c.lam)
    assert all(v >= 0 for v in c.lam) and any(c.lam)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_non_separable_cloud(seed):
    """A random cloud plus the midpoint of two positive points labelled negative."""
    rng = random.Random(seed)
    X = [[Fraction(rng.randint(-100, 100), 10) for _ in range(3)] for _ in range(40)]
    y = [rng.choice([1, -1]) for _ in X]
    y[0] = y[1] = 1
    X.append([(a + b) / 2 for a, b in zip(X[0], X[1])])
    y.append(-1)
    ds = pla.Dataset.from_rows(X, y)
    c = certify(ds)
    assert isinstance(c, NonSeparable)
    kernel.check_gordan(ds.rows, ds.scale, ds.labels, c.lam)


def test_max_margin_bound_is_the_optimum_against_random_separators():
    rows, labels = separable_data(40, 2, "1/5", seed=3)
    ds = pla.Dataset.from_rows(rows, labels)
    best = certify(ds)
    rng = random.Random(0)
    tried = 0
    for _ in range(3000):
        w = best.w if rng.random() < 0.5 else (0, 0, 0)
        w = [a + Fraction(rng.randint(-200, 200), 100) for a in w]
        try:
            other = separator_for(ds, w)
        except kernel.CertificateError:
            continue
        tried += 1
        assert other.bound >= best.bound
        assert other.gamma2 <= best.gamma2
    assert tried > 100
    lp = certify(ds, method="lp")
    assert lp.kind == "lp" and lp.bound >= best.bound


@settings(max_examples=20, deadline=None)
@given(datasets(max_n=6, max_d=2), st.randoms(use_true_random=False))
def test_exact_search_corrects_any_float_proposal(ds, rng):
    """Whatever support the floats propose (none, wrong, all), the exact answer is the same."""
    reference = certificates.max_margin(ds)
    proposals = [[], list(range(ds.n)), rng.sample(range(ds.n), rng.randint(0, ds.n))]
    original = certificates._propose_support
    try:
        for proposal in proposals:
            certificates._propose_support = lambda Z, p=proposal: list(p)
            got = certificates.max_margin(ds)
            assert type(got) is type(reference)
            if isinstance(got, Separator):
                assert got.w == reference.w   # the max-margin w* is unique
            else:
                kernel.check_gordan(ds.rows, ds.scale, ds.labels, got.lam)
    finally:
        certificates._propose_support = original


def test_fallback_when_max_margin_is_too_costly(monkeypatch):
    rows, labels = separable_data(30, 2, "1/10", seed=2)
    ds = pla.Dataset.from_rows(rows, labels)
    exact = certify(ds)
    monkeypatch.setattr(certificates, "MAX_EXACT_ENTRIES", 10)
    # the near-max-margin w when the kernel proves its integer bound is w*'s: the same N
    s = certify(ds)
    assert s.kind == "near-max-margin" and "max-margin skipped" in s.note
    assert s.tightest_updates == s.bound_updates == exact.bound_updates
    # else an LP separator
    monkeypatch.setattr(certificates, "near_max_margin", lambda dataset: None)
    s = certify(ds)
    assert s.kind == "lp" and "max-margin skipped" in s.note and s.alpha is None and s.rho == 1
    monkeypatch.setattr(certificates, "MAX_EXACT_ENTRIES", 10**9)
    monkeypatch.setattr(certificates, "MAX_EXACT_ITERATIONS", 0)
    monkeypatch.setattr(certificates, "_propose_support", lambda Z: [])
    s = certify(ds)
    assert s.kind == "lp" and "iterations" in s.note


def test_check_weights_reports_margin_or_first_misclassified_row():
    ds = pla.Dataset.from_rows([[-3], [-2], [2], [5]], [-1, -1, 1, 1])
    good = check_weights(ds, ["0.1", "0.25"])
    assert good.separates and good.margin == Fraction(2, 5) and good.row == 1
    bad = check_weights(ds, ["1", "0.25"])
    assert not bad.separates and bad.row == 0 and bad.margin == Fraction(-1, 4)
    with pytest.raises(ValueError):
        check_weights(ds, ["1"])


def test_certify_rejects_unknown_method():
    with pytest.raises(ValueError):
        certify(pla.Dataset.from_rows([[1]], [1]), method="magic")
