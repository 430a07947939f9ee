"""Seeded multi-run experiments (pla.experiments): seeds, parallelism, statistics, series."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

import pla
from pla.experiments import (
    SEED_STRIDE, error_series, histogram, parallel_map, repeat_pla, repeat_pocket, run_seed,
    run_seeds, distribution_of_test_errors,
)
from pla.pocket import PocketOptions, pocket
from tests.strategies import datasets, etas, separable_datasets

NOISY = pla.Dataset.from_rows(
    [[Fraction(x, 10), Fraction((7 * x) % 11, 10)] for x in range(-12, 13)],
    [1 if (x + (7 * x) % 11) % 3 else -1 for x in range(-12, 13)],
)
SEPARABLE = pla.Dataset.from_rows(
    [[Fraction(x, 10), Fraction((7 * x) % 11, 10) - Fraction(1, 2)] for x in range(-12, 13) if x != 0],
    [1 if x > 0 else -1 for x in range(-12, 13) if x != 0],
)


def _fails_on_seed(bad_seed: int, seed: int) -> int:
    if seed == bad_seed:
        raise ValueError(f"run with seed {seed} failed")
    return seed


def test_seed_derivation_is_the_documented_formula():
    assert SEED_STRIDE == 1_000_003
    assert run_seeds(42, 4) == [42, 42 + 1_000_003, 42 + 2_000_006, 42 + 3_000_009]
    assert run_seed(0, 0) == 0  # run 0 is the plain single run
    assert len(set(run_seeds(0, 2000)) | set(run_seeds(1, 2000))) == 4000
    with pytest.raises(pla.OptionError):
        run_seeds(0, 0)


def test_pocket_runs_are_identical_for_one_and_two_jobs():
    options = PocketOptions(updates=30, order="random")
    one = repeat_pocket(NOISY, options, 24, seed=5, test=SEPARABLE, jobs=1)
    two = repeat_pocket(NOISY, options, 24, seed=5, test=SEPARABLE, jobs=2)
    assert one.runs == two.runs
    assert [r.seed for r in one.runs] == run_seeds(5, 24)
    # each run is exactly the single run with its own seed
    assert one.runs[3] == pocket(NOISY, 30, order="random", seed=run_seed(5, 3), test=SEPARABLE)
    assert len({r.w for r in one.runs}) > 1  # the seeds really differ


def test_pla_runs_are_identical_for_one_and_two_jobs_and_repeatable():
    options = pla.RunOptions(order="random-cycle")
    one = repeat_pla(SEPARABLE, options, 30, seed=9, jobs=1)
    two = repeat_pla(SEPARABLE, options, 30, seed=9, jobs=2)
    again = repeat_pla(SEPARABLE, options, 30, seed=9, jobs=2)
    assert one.runs == two.runs == again.runs
    for r in one.runs[:5]:
        single = pla.run(SEPARABLE, "random-cycle", seed=r.seed)
        assert (r.updates, r.epochs, r.halted) == (single.updates, single.epochs, True)


def test_progress_reports_every_run_and_ends_at_the_total():
    seen: list[tuple[int, int]] = []
    parallel_map(abs, list(range(-10, 10)), jobs=2, on_progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (20, 20)
    assert all(t == 20 for _, t in seen) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_failing_run_raises_in_the_caller():
    from functools import partial
    with pytest.raises(ValueError, match="seed 13"):
        parallel_map(partial(_fails_on_seed, 13), list(range(40)), jobs=2)


def test_statistics_are_exact():
    study = repeat_pla(SEPARABLE, pla.RunOptions(order="random"), 7, seed=3)
    counts = [r.updates for r in study.runs]
    assert study.mean_updates == Fraction(sum(counts), 7)
    assert (study.min_updates, study.max_updates) == (min(counts), max(counts))
    pocket_study = repeat_pocket(NOISY, PocketOptions(updates=15), 6, seed=1, test=SEPARABLE)
    assert pocket_study.mean_train_error == sum((r.error for r in pocket_study.runs),
                                                Fraction(0)) / 6
    assert pocket_study.mean_test_error == sum(
        (Fraction(r.test_mistakes, SEPARABLE.n) for r in pocket_study.runs), Fraction(0)) / 6


@settings(max_examples=20)
@given(separable_datasets(max_n=7), st.lists(etas, min_size=2, max_size=3),
       st.sampled_from(["random", "random-cycle"]), st.integers(min_value=0, max_value=1000))
def test_update_counts_do_not_depend_on_eta_when_w0_is_zero(ds, learning_rates, order, seed):
    counts = {tuple(r.updates for r in
                    repeat_pla(ds, pla.RunOptions(order=order, eta=eta), 4, seed=seed).runs)
              for eta in learning_rates}
    assert len(counts) == 1


@given(st.lists(st.integers(min_value=-50, max_value=500), min_size=1, max_size=60),
       st.integers(min_value=1, max_value=25))
def test_histogram_covers_every_value_once(values, max_bins):
    bins = histogram(values, max_bins)
    assert len(bins) <= max_bins
    assert sum(count for _, _, count in bins) == len(values)
    assert bins[0][0] == min(values) and bins[-1][1] == max(values)
    for (low, high, count) in bins:
        assert count == sum(1 for v in values if low <= v <= high)
    assert all(b[0] == a[1] + 1 for a, b in zip(bins, bins[1:]))


@given(datasets(max_n=8), st.integers(min_value=0, max_value=20),
       st.integers(min_value=0, max_value=100))
def test_error_series_pocket_curve_is_the_running_minimum(ds, updates, seed):
    walk, kept = error_series(pocket(ds, updates, order="random", seed=seed))
    assert len(walk) == len(kept)
    assert kept == [min(walk[: t + 1]) for t in range(len(walk))]
    assert all(e.denominator <= ds.n or ds.n % e.denominator == 0 for e in walk)


def test_distribution_of_test_errors_counts_every_run():
    study = repeat_pocket(NOISY, PocketOptions(updates=10, order="random"), 12, test=SEPARABLE)
    distribution = distribution_of_test_errors(study)
    assert sum(k for _, k in distribution) == 12
    assert [e for e, _ in distribution] == sorted({r.test_error for r in study.runs})
    no_test = replace(study, has_test=False)
    assert sum(k for _, k in distribution_of_test_errors(no_test)) == 12
