"""Exact distributions: checked against counts a person can do by hand."""

from __future__ import annotations

import pytest

from rules.odds import (
    at_least,
    at_most,
    constant,
    dice_sum,
    die,
    hits_list,
    map_outcomes,
    mixture,
    normalise_check,
)


def test_3d6_has_the_familiar_counts() -> None:
    dist = dice_sum(3, 6)
    assert dist[3] == pytest.approx(1 / 216)
    assert dist[10] == pytest.approx(27 / 216)
    assert dist[18] == pytest.approx(1 / 216)
    assert sum(dist.values()) == pytest.approx(1.0)
    assert at_most(dist, 10) == pytest.approx(0.5)


def test_2d6_seven_or_more() -> None:
    assert at_least(dice_sum(2, 6), 7) == pytest.approx(21 / 36)


def test_dice_sum_is_a_fresh_dict() -> None:
    first = dice_sum(2, 6)
    first[7] = 0.0
    assert dice_sum(2, 6)[7] == pytest.approx(6 / 36)


def test_mixture_and_map() -> None:
    coin = {0: 0.5, 1: 0.5}
    mixed = mixture([(0.5, coin), (0.5, constant(1))])
    assert mixed == {0: 0.25, 1: 0.75}
    assert map_outcomes(die(6), lambda f: f >= 5) == pytest.approx({False: 4 / 6, True: 2 / 6})


def test_hits_list_pads_and_orders() -> None:
    assert hits_list({2: 0.5, 0: 0.5}) == [0.5, 0.0, 0.5]
    assert hits_list({0: 1.0}, length=3) == [1.0, 0.0, 0.0]


def test_normalise_check_catches_a_lost_branch() -> None:
    with pytest.raises(AssertionError):
        normalise_check({0: 0.5, 1: 0.4})
