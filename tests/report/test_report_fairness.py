"""Dice fairness: Pearson's chi-square per die size (with bands when rolls are few), the exact
one-face test, KS on luck, Holm's correction over the page, and the power behind "fair"."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from scipy import stats

from bridge.report.correction import holm
from bridge.report.distributions import max_face_p, repeats_p
from bridge.report.fairness import (
    ALERT_P,
    WATCH_P,
    Calibration,
    admitted,
    calibration,
    die_test,
    judge,
    least_p,
    order_test,
    order_tests,
    overall,
)
from bridge.report.power import JUDGE_POWER, STICKY, order_power, power, rolls_needed


def test_chi_square_matches_a_worked_value() -> None:
    # 70 rolls of a d6: expected 70/6 each; chi2 = 5 * (5/3)^2 / (35/3) + (25/3)^2 / (35/3) = 50/7
    test = die_test(6, [10, 10, 10, 10, 10, 20])
    assert test.chi2 == pytest.approx(50 / 7)
    assert test.p == pytest.approx(0.2102, abs=1e-4)  # 5 degrees of freedom (tables: 7.29 -> 0.20)
    assert test.bands == 6
    assert test.hot == (6, 6, 20, pytest.approx(70 / 6))
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


def test_calibration_of_uniform_percentiles_is_fair_once_it_could_tell() -> None:
    """The luck chart is judged as a d10: "fair" only with the power to catch a loaded one."""
    rng = random.Random(3)
    found = calibration([rng.random() for _ in range(5000)])
    assert found.verdict == "fair" and found.test.power >= JUDGE_POWER
    assert sum(found.histogram) == 5000 and len(found.histogram) == 10
    assert found.mean == pytest.approx(0.5, abs=0.05)
    few = calibration([rng.random() for _ in range(10)])  # the chip the old page showed green
    assert few.verdict == "too_few" and few.test.power < JUDGE_POWER
    assert few.test.needed == rolls_needed(10, WATCH_P)


def test_calibration_flags_percentiles_that_bunch_up() -> None:
    rng = random.Random(3)
    found = calibration([rng.random() ** 2 for _ in range(500)])
    assert found.verdict == "alert"


def test_calibration_needs_enough_attacks() -> None:
    found = calibration([0.1, 0.9])
    assert found.histogram == (0, 1, 0, 0, 0, 0, 0, 0, 0, 1) and found.mean == pytest.approx(0.5)
    assert found.verdict == "too_few" and found.test.chi2 is None and found.p == pytest.approx(1.0)


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
    assert test.hot == (1, 1, 10, pytest.approx(0.1))


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
    judged, luck, _ = judge([d6, borderline], luck)
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
    band = Calibration((count,) + (0,) * 9, 0.5, die_test(10, [count] + [0] * 9)).band
    bars = np.random.default_rng(11).multinomial(count, [0.1] * 10, size=sessions)
    inside = ((bars >= band[0]) & (bars <= band[1])).all(axis=1).mean()
    assert 0.95 <= inside <= 0.99
    per_bar = 1.96 * math.sqrt(count * 0.1 * 0.9)  # the old per-bar band: far too narrow for all ten
    old = ((np.abs(bars - count / 10) <= per_bar).all(axis=1)).mean()
    assert old < 0.8


# --- the face that departs most, in either direction ---------------------------------------------


def test_the_face_that_never_comes_up_is_the_one_named() -> None:
    """A d6 that never rolls 1 in 437 rolls: the cell that departs most is the 1, not the busiest face."""
    test = die_test(6, [0, 93, 87, 86, 85, 86])
    assert test.verdict == "alert"
    assert test.hot == (1, 1, 0, pytest.approx(437 / 6))


def test_a_band_short_of_its_share_is_named_when_it_departs_most() -> None:
    faces = [0] * 10 + [3] * 90  # 270 rolls of a d100, none from 01-10
    test = die_test(100, faces)
    assert test.bands == 20 and test.hot is not None
    low, high, count, expected = test.hot
    assert (low, high, count) in {(1, 5, 0), (6, 10, 0)} and expected == pytest.approx(270 / 20)


# --- order: the repeats test -----------------------------------------------------------------------


@pytest.mark.parametrize(("die", "pairs"), [(6, 50), (6, 1999), (100, 300), (2, 40), (20, 500)])
def test_the_repeats_p_is_scipys_exact_binomial_test(die: int, pairs: int) -> None:
    for repeats in range(0, pairs + 1, max(1, pairs // 25)):
        expected = stats.binomtest(repeats, pairs, 1 / die).pvalue
        assert repeats_p(die, pairs, repeats) == pytest.approx(expected, rel=1e-9)


def test_fair_repeats_are_binomial_whatever_the_faces() -> None:
    """The reason the test is exact: each pair repeats with chance 1/die, independently."""
    rng = np.random.default_rng(8)
    rolls = rng.integers(1, 7, size=(4000, 200))
    repeats = (rolls[:, 1:] == rolls[:, :-1]).sum(axis=1)
    observed = np.bincount(repeats, minlength=200)[:60]
    expected = stats.binom.pmf(np.arange(60), 199, 1 / 6) * 4000
    keep = expected > 5
    statistic = ((observed[keep] - expected[keep]) ** 2 / expected[keep]).sum()
    assert stats.chi2.sf(statistic, keep.sum() - 1) > 0.001


@pytest.mark.parametrize(
    ("die", "pairs", "level"), [(6, 80, 0.003), (2, 300, 0.0025), (100, 20, 0.005), (4, 129, 0.005)]
)
def test_order_power_is_the_sticky_dies_exact_catch_rate(die: int, pairs: int, level: float) -> None:
    """Roll the sticky die for real (it shows its last face again one time in five) and count how
    often the repeats test flags it: the same as ``order_power`` says."""
    rng = np.random.default_rng(die * 1000 + pairs)
    draws = 20_000
    fresh = rng.integers(1, die + 1, size=(draws, pairs + 1))
    stick = rng.random((draws, pairs + 1)) < STICKY
    faces = fresh.copy()
    for i in range(1, pairs + 1):
        faces[:, i] = np.where(stick[:, i], faces[:, i - 1], fresh[:, i])
    repeats = (faces[:, 1:] == faces[:, :-1]).sum(axis=1)
    p_of = {k: repeats_p(die, pairs, k) for k in np.unique(repeats)}
    caught = sum(1 for k in repeats if p_of[k] < level) / draws
    assert caught == pytest.approx(order_power(die, pairs, level), abs=4 * math.sqrt(0.25 / draws))


def test_a_sticky_d6_is_caught_by_its_order_and_not_its_counts() -> None:
    rng = np.random.default_rng(4)
    faces = [int(rng.integers(1, 7))]
    for _ in range(1999):
        faces.append(faces[-1] if rng.random() < STICKY else int(rng.integers(1, 7)))
    counts = [faces.count(face) for face in range(1, 7)]
    repeats = sum(a == b for a, b in itertools.pairwise(faces))
    assert die_test(6, counts, family=2).verdict in ("fair", "too_few")  # the counts see nothing
    order = order_test(6, 1999, repeats, family=2)
    assert order.verdict == "alert" and order.repeats > 1.6 * order.expected


# --- Tarone: tests that could never flag anything stay out of the correction -----------------------


def test_four_d2_rolls_do_not_enter_the_correction() -> None:
    """Four d2 rolls cannot reach p < 0.01 however they fall (at best 2/16): they cost nobody power."""
    assert least_p(2, 4) == pytest.approx(0.125)
    d6 = die_test(6, [100] * 6)
    d2 = die_test(2, [4, 0])
    luck = calibration([i / 300 for i in range(300)])
    judged, luck, orders = judge([d6, d2], luck, order_tests({6: 599, 2: 3}, {6: 100, 2: 3}))
    by_die = {test.die: test for test in judged}
    assert not by_die[2].tested and by_die[2].adjusted is None and by_die[2].verdict == "too_few"
    assert by_die[6].tested and by_die[6].family == 3  # d6 counts, d6 order, luck chart
    assert [o.tested for o in orders] == [False, True]  # the d2's 3 pairs could never flag either
    assert admitted([0.125, 1e-9, 0.3]) == [False, True, False]
    assert admitted([0.004, 0.004]) == [True, True]  # two looks at 0.005 each: both can flag
    assert admitted([0.004, 0.004, 0.004]) == [False, False, False]  # three at 0.0033: none can


def test_a_one_faced_die_from_an_edited_journal_is_judged_too_few_not_a_crash() -> None:
    """A d1 cannot be loaded: no power, no rolls needed, never in the correction."""
    test = die_test(1, [50])
    assert test.verdict == "too_few" and test.power == 0.0 and test.needed is None
    judged, _, _ = judge([test, die_test(6, [100] * 6)], calibration([]))
    assert not judged[0].tested and judged[1].tested
