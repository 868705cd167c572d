"""Luck percentiles: the randomised probability integral transform, its tie-breaker, Stouffer's sum."""

from __future__ import annotations

import math
import random
from statistics import NormalDist

import pytest
from scipy import stats

from bridge.report.luck import Luck, combine, luck_percentile, main_target, tie_breaker

# Two shots at 50%: P(0) = 1/4, P(1) = 1/2, P(2) = 1/4.
TWO_SHOTS = [0.25, 0.5, 0.25]


def test_percentile_splits_the_tie_at_u() -> None:
    assert luck_percentile(TWO_SHOTS, 0, 0.0) == pytest.approx(0.0, abs=1e-9)
    assert luck_percentile(TWO_SHOTS, 0, 0.5) == pytest.approx(0.125)
    assert luck_percentile(TWO_SHOTS, 1, 0.5) == pytest.approx(0.5)
    assert luck_percentile(TWO_SHOTS, 2, 0.999) == pytest.approx(0.75 + 0.999 * 0.25)


def test_percentile_refuses_what_the_odds_call_impossible() -> None:
    assert luck_percentile(TWO_SHOTS, 3, 0.5) is None
    assert luck_percentile(TWO_SHOTS, -1, 0.5) is None
    assert luck_percentile([0.5, 0.0, 0.5], 1, 0.5) is None
    assert luck_percentile([], 0, 0.5) is None


def test_percentile_stays_inside_the_unit_interval() -> None:
    low = luck_percentile([1.0, 0.0], 0, 0.0)
    assert low is not None and 0.0 < low < 1e-9
    assert NormalDist().inv_cdf(low) > -10  # finite for Stouffer


def test_tie_breaker_is_reproducible_and_differs_by_request_and_target() -> None:
    assert tie_breaker(7, "r1", "t1") == tie_breaker(7, "r1", "t1")
    values = {
        tie_breaker(7, "r1", "t1"),
        tie_breaker(7, "r2", "t1"),
        tie_breaker(8, "r1", "t1"),
        tie_breaker(7, "r1", "t2"),
    }
    assert len(values) == 4
    assert all(0.0 <= u < 1.0 for u in values)


def test_tie_breakers_are_uniform() -> None:
    draws = [tie_breaker(seed, f"r{seed}", "t") for seed in range(4000)]
    assert stats.kstest(draws, "uniform").pvalue > 0.01


@pytest.mark.parametrize("distribution", [[0.25, 0.5, 0.25], [0.9, 0.1], [0.2, 0.3, 0.1, 0.4]])
def test_randomised_percentiles_of_fair_outcomes_are_uniform(distribution: list[float]) -> None:
    """The property the whole report leans on, for lumpy distributions where plain percentiles fail."""
    rng = random.Random(5)
    outcomes = rng.choices(range(len(distribution)), weights=distribution, k=4000)
    percentiles = [luck_percentile(distribution, k, tie_breaker(i, "r", "t")) for i, k in enumerate(outcomes)]
    assert stats.kstest(percentiles, "uniform").pvalue > 0.01
    plain = [sum(distribution[: k + 1]) for k in outcomes]  # P(X <= k): what an unrandomised report would use
    assert stats.kstest(plain, "uniform").pvalue < 1e-6


def test_main_target_is_the_one_with_most_hits_expected() -> None:
    targets = [("bystander", [0.99, 0.01]), ("raider", [0.2, 0.3, 0.5]), ("leader", [0.5, 0.5])]
    assert main_target(targets) == 1


def test_main_target_passes_over_certain_outcomes_and_split_tokens() -> None:
    assert main_target([("a", [1.0]), ("b", [0.0, 1.0])]) is None
    assert main_target([("a", [0.5, 0.5]), ("a", [0.5, 0.5]), ("b", [0.9, 0.1])]) == 2
    assert main_target([("a", [0.5, 0.5]), ("b", [0.5, 0.5])]) == 0  # a tie goes to the first


def test_stouffer_matches_a_worked_value() -> None:
    # z = (Phi^-1(0.1) + Phi^-1(0.2) + Phi^-1(0.3)) / sqrt(3)
    #   = (-1.28155 - 0.84162 - 0.52440) / 1.73205 = -1.52858
    luck = combine([0.1, 0.2, 0.3])
    assert luck.z == pytest.approx(-1.52858, abs=1e-4)
    assert luck.p == pytest.approx(2 * NormalDist().cdf(-1.52858), abs=1e-4)
    assert luck.standing == pytest.approx(NormalDist().cdf(luck.z))
    assert luck.verdict == "ordinary"


@pytest.mark.parametrize(
    ("z", "verdict"),
    [(-3.0, "very_unlucky"), (-2.2, "unlucky"), (0.3, "ordinary"), (2.2, "lucky"), (3.0, "very_lucky")],
)
def test_luck_verdicts(z: float, verdict: str) -> None:
    p = 2 * NormalDist().cdf(-abs(z))
    assert Luck(count=20, z=z, p=p, standing=NormalDist().cdf(z)).verdict == verdict


def test_few_attacks_say_nothing() -> None:
    assert combine([0.001, 0.002]).verdict == "too_few"
    assert combine([]).count == 0 and math.isclose(combine([]).p, 1.0)
