"""Dice fairness: Pearson's chi-square per die size (with bands when rolls are few), the exact
one-face test, KS on luck, Holm's correction over the page, and the power behind "fair"."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from scipy import stats

from bridge.report.correction import holm
from bridge.report.fairness import (
    ALERT_P,
    JUDGE_POWER,
    WATCH_P,
    Calibration,
    calibration,
    die_test,
    judge,
    max_face_p,
    overall,
    power,
    rolls_needed,
)


def test_chi_square_matches_a_worked_value() -> None:
    # 70 rolls of a d6: expected 70/6 each; chi2 = 5 * (5/3)^2 / (35/3) + (25/3)^2 / (35/3) = 50/7
    test = die_test(6, [10, 10, 10, 10, 10, 20])
    assert test.chi2 == pytest.approx(50 / 7)
    assert test.p == pytest.approx(0.2102, abs=1e-4)  # 5 degrees of freedom (tables: 7.29 -> 0.20)
    assert test.bands == 6
    assert test.hot == (6, 6, pytest.approx(20 / (70 / 6)))
    assert test.face_p is None  # every face stands alone: no exact test needed
    # 70 rolls could not have caught a die showing one face half again as often: not "fair"
    assert test.power < JUDGE_POWER and test.verdict == "too_few"
    assert test.needed is not None and test.needed > 70


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
    assert too_few.verdict == "too_few" and too_few.chi2 is None
    assert too_few.p == pytest.approx(1.0)  # the exact test still runs: three different faces
    assert die_test(6, [0] * 6).p is None and die_test(6, [0] * 6).verdict == "too_few"


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


def test_the_worst_verdict_wins_and_too_few_outranks_fair() -> None:
    assert overall(["fair", "too_few", "watch"]) == "watch"
    assert overall(["fair", "alert", "watch"]) == "alert"
    assert overall(["too_few"]) == "too_few"
    assert overall(["fair", "too_few"]) == "too_few"  # one die judged fair does not vouch for the other
    assert overall(["fair", "fair"]) == "fair"
    assert overall([]) == "too_few"


# --- the exact one-face test ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "rolls", "most", "exact"),
    [
        (6, 2, 2, 1 / 6),  # the second roll matches the first
        (6, 3, 2, 1 - (6 * 5 * 4) / 6**3),  # not all three different
        (6, 3, 3, 6 / 6**3),  # all three the same
        (100, 10, 10, 100 / 100**10),  # ten of one face in ten d100 rolls
        (6, 10, 10, 6 / 6**10),
        (6, 4, 1, 1.0),
        (6, 4, 5, 0.0),
    ],
)
def test_max_face_p_matches_worked_values(die: int, rolls: int, most: int, exact: float) -> None:
    assert max_face_p(die, rolls, most) == pytest.approx(exact, rel=1e-9, abs=1e-15)


@pytest.mark.parametrize(("die", "rolls", "most"), [(100, 235, 6), (100, 235, 7), (20, 60, 8), (10, 30, 7)])
def test_max_face_p_matches_a_simulation(die: int, rolls: int, most: int) -> None:
    draws = 40_000
    maxima = np.random.default_rng(7).multinomial(rolls, [1 / die] * die, size=draws).max(axis=1)
    seen = int((maxima >= most).sum())
    low, high = stats.binom.interval(0.999, draws, max_face_p(die, rolls, most))
    assert low <= seen <= high


def test_ten_01s_in_ten_d100_rolls_look_loaded() -> None:
    """The case bands hid: all ten in one band of two is merely unusual; one face ten times is not."""
    test = die_test(100, [10] + [0] * 99)
    assert test.bands == 2 and test.chi2_p is not None and test.chi2_p > ALERT_P  # what the bands saw
    assert test.face_p == pytest.approx(1e-18, rel=1e-6)
    assert test.p is not None and test.p < 1e-17
    assert test.verdict == "alert"
    assert test.hot == (1, 1, pytest.approx(100.0))


def test_ten_sixes_in_ten_d6_rolls_look_loaded() -> None:
    test = die_test(6, [0, 0, 0, 0, 0, 10])
    assert test.face_p == pytest.approx(6 / 6**10, rel=1e-9)
    assert test.verdict == "alert" and test.hot is not None and test.hot[:2] == (6, 6)


def test_a_few_repeats_on_a_d100_are_not_called_loaded() -> None:
    # Three 42s and a pair of 7s among 30 rolls: a fair d100 does that often (birthday problem).
    faces = [0] * 100
    for face in [42, 42, 42, 7, 7, *range(3, 100, 4)]:
        faces[face - 1] += 1
    test = die_test(100, faces)
    assert test.face_p is not None and test.face_p > 0.05
    assert test.verdict == "too_few"  # and never "fair" on thirty rolls


# --- Holm's correction and power -----------------------------------------------------------------


def test_holm_matches_a_worked_example() -> None:
    # sorted 0.01, 0.02, 0.04, 0.5 -> 4*0.01, 3*0.02, 2*0.04, 1*0.5; each never below the one before
    assert holm([0.04, 0.5, 0.01, 0.02]) == pytest.approx([0.08, 0.5, 0.04, 0.06])
    assert holm([0.3, 0.3]) == pytest.approx([0.6, 0.6])
    assert holm([0.9, 0.8]) == pytest.approx([1.0, 1.0])  # 2 * 0.8 capped at one; 0.9 never below it
    assert holm([]) == []


def test_judge_corrects_the_dice_and_the_luck_chart_together() -> None:
    # p = 0.004 on its own would be "worth watching"; among three tests it is 0.012: nothing seen
    d6 = die_test(6, [180, 180, 180, 180, 180, 180])
    borderline = die_test(6, [10] * 6)
    object.__setattr__(borderline, "p", 0.004)
    luck = calibration([i / 500 for i in range(500)])
    judged, luck = judge([d6, borderline], luck)
    assert judged[1].adjusted == pytest.approx(0.012) and judged[1].family == 3
    assert judged[1].verdict == "too_few"  # sixty rolls: too few to call fair either
    assert judged[0].verdict == "fair" and judged[0].power >= JUDGE_POWER
    assert luck.adjusted is not None and luck.adjusted >= luck.p


def test_power_grows_with_rolls_and_the_needed_rolls_reach_it() -> None:
    level = WATCH_P / 3
    assert power(6, 100, level) < power(6, 300, level) < power(6, 1000, level)
    for die in (6, 10, 20, 100):
        needed = rolls_needed(die, level)
        assert needed is not None and power(die, needed, level) >= JUDGE_POWER
    assert power(6, 1, level) == 0.0


def test_the_luck_band_holds_every_bar_at_once() -> None:
    """The shaded band: all ten bars of a fair session inside it at least 95% of the time."""
    count, sessions = 300, 4000
    band = Calibration(count, (0,) * 10, None, None, "fair", 0.5).band
    bars = np.random.default_rng(11).multinomial(count, [0.1] * 10, size=sessions)
    inside = ((bars >= band[0]) & (bars <= band[1])).all(axis=1).mean()
    assert 0.95 <= inside <= 0.99
    per_bar = 1.96 * math.sqrt(count * 0.1 * 0.9)  # the old per-bar band: far too narrow for all ten
    old = ((np.abs(bars - count / 10) <= per_bar).all(axis=1)).mean()
    assert old < 0.8
