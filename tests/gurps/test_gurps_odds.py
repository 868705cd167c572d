"""``odds`` is exact: it sums to one, matches hand counts, and agrees with 20,000 seeded rolls.

The agreement is a chi-square goodness-of-fit test at the 0.1% level. To show the bound is not so
loose that anything passes, the same rolls are also tested against the odds of slightly wrong rules
(skill off by one, Rcl 3 for 2, dodge off by one) and must fail.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Mapping
from typing import Any

import pytest
from gurps_helpers import MP5_REQUEST, request

from rules import decode_request, odds, resolve
from rules.dice import SeededDice
from rules.odds import at_most, dice_sum

ROLLS = 20_000
Z_999 = 3.0902  # one-sided 0.1% point of the standard normal


def chi_square_bound(df: int) -> float:
    """Wilson-Hilferty approximation to the chi-square 99.9th percentile."""
    h = 2.0 / (9.0 * df)
    return df * (1.0 - h + Z_999 * math.sqrt(h)) ** 3


def chi_square(
    observed: Mapping[Hashable, int], expected: Mapping[Hashable, float], n: int
) -> tuple[float, int]:
    """Statistic and degrees of freedom, pooling categories expected fewer than 5 times.

    An outcome seen that the odds call impossible is an infinite statistic: no bound passes it.
    """
    assert math.isclose(sum(expected.values()), 1.0, abs_tol=1e-9)
    if any(expected.get(key, 0.0) == 0.0 for key, count in observed.items() if count):
        return math.inf, 1
    bins: list[tuple[float, int]] = []
    pooled_e, pooled_o = 0.0, 0
    for key, p in expected.items():
        if n * p >= 5.0:
            bins.append((n * p, observed.get(key, 0)))
        else:
            pooled_e += n * p
            pooled_o += observed.get(key, 0)
    if pooled_e > 0.0:
        bins.append((pooled_e, pooled_o))
    stat = sum((o - e) ** 2 / e for e, o in bins)
    return stat, len(bins) - 1


def simulate(data: dict[str, Any], seed: int) -> tuple[list[Counter[int]], Counter[bool]]:
    """Per-target hit counts and end-jammed counts over ROLLS seeded resolutions."""
    decoded = decode_request(data)
    per_target: list[Counter[int]] = [Counter() for _ in data["targets"]]
    jammed: Counter[bool] = Counter()
    for i in range(ROLLS):
        result = resolve(decoded, SeededDice(seed * 1_000_003 + i))
        for counter, target in zip(per_target, result.targets, strict=True):
            counter[target.hits] += 1
        jammed[result.weapon.jammed] += 1
    return per_target, jammed


def _fits(observed: Counter[int], hits: list[float]) -> tuple[float, float]:
    stat, df = chi_square(observed, dict(enumerate(hits)), ROLLS)
    return stat, chi_square_bound(df)


SHOTGUN = request(
    shots=3,
    attacker={"skill": 11},
    weapon={"name": "Shotgun", "rof": "3x9", "rcl": 1, "loaded": 6, "capacity": 6, "malf": 16},
    target={"dodge": 10, "modifier": -4},
)
TWO_TARGETS = request(
    shots=12,
    weapon={"malf": 15},
    targets=[
        {"id": "t1", "modifier": -1, "shots": 9, "dodge": 8},
        {"id": "t2", "modifier": -3, "shots": 3},
    ],
)
SCENARIOS = {"mp5": MP5_REQUEST, "shotgun": SHOTGUN, "two targets": TWO_TARGETS}


@pytest.fixture(scope="module")
def simulated() -> dict[str, tuple[list[Counter[int]], Counter[bool]]]:
    return {name: simulate(data, seed) for seed, (name, data) in enumerate(SCENARIOS.items(), start=1)}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_odds_agree_with_seeded_rolls(name: str, simulated: dict[str, Any]) -> None:
    per_target, jammed = simulated[name]
    exact = odds(decode_request(SCENARIOS[name]))
    for observed, target in zip(per_target, exact.targets, strict=True):
        stat, bound = _fits(observed, target.hits)
        assert stat < bound, f"{name} {target.id}: chi-square {stat:.1f} >= {bound:.1f}"
    stat, df = chi_square(jammed, {True: exact.jam, False: 1.0 - exact.jam}, ROLLS)
    assert stat < chi_square_bound(df), f"{name} jam: chi-square {stat:.1f}"


@pytest.mark.parametrize(
    ("name", "mistake"),
    [
        ("mp5", {"attacker": {"skill": 11}}),
        ("mp5", {"weapon": {"rcl": 3}}),
        ("mp5", {"target": {"dodge": 8}}),
        ("shotgun", {"attacker": {"skill": 12}}),
        ("two targets", {"weapon": {"malf": 16}}),
    ],
)
def test_the_bound_catches_a_real_mistake(
    name: str, mistake: dict[str, Any], simulated: dict[str, Any]
) -> None:
    per_target, jammed = simulated[name]
    data = dict(SCENARIOS[name])
    for part, changes in mistake.items():
        if part == "target":
            data["targets"] = [{**data["targets"][0], **changes}, *data["targets"][1:]]
        else:
            data[part] = {**data[part], **changes}
    wrong = odds(decode_request(data))
    caught = [_fits(observed, t.hits) for observed, t in zip(per_target, wrong.targets, strict=True)]
    caught.append(_chi_jam(jammed, wrong.jam))
    assert any(stat >= bound for stat, bound in caught), f"{name} {mistake}: passed a wrong model"


def _chi_jam(jammed: Counter[bool], jam: float) -> tuple[float, float]:
    stat, df = chi_square(jammed, {True: jam, False: 1.0 - jam}, ROLLS)
    return stat, chi_square_bound(df)


def test_odds_by_hand_without_dodge() -> None:
    """Effective 12, Rcl 2, 10 shots, Malf 17: count the 3d6 faces directly."""
    three = dice_sum(3, 6)
    exact = odds(decode_request(request(target={"dodge": None}))).targets[0].hits

    def p(*rolls: int) -> float:
        return sum(three[r] for r in rolls)

    # 17-18 malfunction, 13-16 miss
    assert exact[0] == pytest.approx(p(13, 14, 15, 16, 17, 18))
    assert exact[1] == pytest.approx(p(11, 12))
    assert exact[2] == pytest.approx(p(9, 10))
    assert exact[3] == pytest.approx(p(7, 8))
    assert exact[4] == pytest.approx(p(5, 6))
    assert exact[5] == pytest.approx(p(3, 4))  # margins 8-9, critical
    assert exact[6:] == [0.0] * 5
    assert len(exact) == 11  # P(0..10 hits): one entry per possible hit


def test_jam_is_the_chance_of_rolling_malf() -> None:
    three = dice_sum(3, 6)
    assert odds(decode_request(MP5_REQUEST)).jam == pytest.approx(three[17] + three[18])
    assert odds(decode_request(request(weapon={"malf": 19}))).jam == 0.0
    # two targets: jammed if either roll malfunctions (the second is only rolled if the first did not)
    q = 1 - at_most(three, 14)
    assert odds(decode_request(TWO_TARGETS)).jam == pytest.approx(1 - (1 - q) ** 2)


def test_every_distribution_sums_to_one() -> None:
    for data in SCENARIOS.values():
        for target in odds(decode_request(data)).targets:
            assert sum(target.hits) == pytest.approx(1.0, abs=1e-12)
