"""Dice fairness: Pearson's chi-square per die size (with bands when rolls are few), KS on luck."""

from __future__ import annotations

import random

import pytest

from bridge.report.fairness import ALERT_P, Calibration, calibration, die_test, overall


def test_chi_square_matches_a_worked_value() -> None:
    # 70 rolls of a d6: expected 70/6 each; chi2 = 5 * (5/3)^2 / (35/3) + (25/3)^2 / (35/3) = 50/7
    test = die_test(6, [10, 10, 10, 10, 10, 20])
    assert test.chi2 == pytest.approx(50 / 7)
    assert test.p == pytest.approx(0.2102, abs=1e-4)  # 5 degrees of freedom (tables: 7.29 -> 0.20)
    assert test.bands == 6
    assert test.hot == (6, 6, pytest.approx(20 / (70 / 6)))
    assert test.verdict == "fair"


def test_a_loaded_die_is_called_loaded() -> None:
    test = die_test(6, [150, 150, 150, 150, 150, 300])
    assert test.p is not None and test.p < ALERT_P
    assert test.verdict == "alert"
    assert test.hot is not None and test.hot[:2] == (6, 6)


def test_few_rolls_group_faces_into_bands_then_give_up() -> None:
    assert die_test(100, [1] * 100).bands == 20  # 100 rolls: five a band
    assert die_test(100, [1] * 50 + [0] * 50).bands == 10
    assert die_test(6, [1, 1, 1, 1, 1, 5]).bands == 2  # 10 rolls: halves
    too_few = die_test(6, [1, 0, 1, 0, 1, 0])
    assert too_few.verdict == "too_few" and too_few.p is None


def test_calibration_of_uniform_percentiles_is_fair() -> None:
    rng = random.Random(3)
    found = calibration([rng.random() for _ in range(500)])
    assert found.verdict == "fair"
    assert sum(found.histogram) == 500 and len(found.histogram) == 10
    assert found.mean == pytest.approx(0.5, abs=0.05)


def test_calibration_flags_percentiles_that_bunch_up() -> None:
    rng = random.Random(3)
    found = calibration([rng.random() ** 2 for _ in range(500)])
    assert found.verdict == "alert"


def test_calibration_needs_enough_attacks() -> None:
    found = calibration([0.1, 0.9])
    assert found == Calibration(2, (0, 1, 0, 0, 0, 0, 0, 0, 0, 1), None, None, "too_few", 0.5)


def test_the_worst_verdict_wins() -> None:
    assert overall(["fair", "too_few", "watch"]) == "watch"
    assert overall(["fair", "alert", "watch"]) == "alert"
    assert overall(["too_few"]) == "too_few"
    assert overall([]) == "too_few"
