"""B347-348 criticals, read against the final effective skill, and what they do to an attack."""

from __future__ import annotations

import pytest
from gurps_helpers import lines, request, roll

from rules.gurps.success import judge
from rules.results import Message


@pytest.mark.parametrize(
    ("roll_", "target", "success", "critical"),
    [
        # 3 and 4 always succeed critically, however low the skill
        (3, 3, True, "success"),
        (4, 3, True, "success"),
        (4, -6, True, "success"),  # 10 over, but 3-4 wins
        (3, 20, True, "success"),
        # 5 is critical at 15+, 6 at 16+
        (5, 14, True, None),
        (5, 15, True, "success"),
        (6, 15, True, None),
        (6, 16, True, "success"),
        # 18 always a critical failure; 17 critical at 15 or less, a plain failure above
        (18, 25, False, "failure"),
        (17, 15, False, "failure"),
        (17, 16, False, None),
        (17, 25, False, None),
        # 10 or more over the target is a critical failure
        (15, 5, False, "failure"),
        (14, 5, False, None),
        (13, 3, False, "failure"),
        # plain success and failure
        (12, 12, True, None),
        (13, 12, False, None),
        (16, 16, True, None),
    ],
)
def test_success_roll(roll_: int, target: int, success: bool, critical: str | None) -> None:
    check = judge(roll_, target)
    assert (check.success, check.critical, check.margin) == (success, critical, target - roll_)


def test_critical_hit_cannot_be_dodged() -> None:
    # effective 12, roll 4: critical success, margin 8, 5 hits; the target's dodge is not rolled.
    result = roll(request(), 4)
    target = result.targets[0]
    assert (target.outcome, target.hits, target.dodge, target.dodged) == ("critical hit", 5, None, 0)
    assert target.attack.critical == "success"
    assert result.log[2] == Message("gurps.dodge.critical_hit", {"target": "Ganger"})
    assert lines(result)[1:3] == [
        "rolled 4: critical success, 5 critical hits (Rcl 2)",
        "Ganger cannot dodge a critical hit",
    ]
    assert lines(result, "ru")[1] == "выпало 4: критический успех, 5 критических попаданий (Отд 2)"


def test_critical_thresholds_use_the_effective_skill() -> None:
    # skill 13, +2 for 10 shots, +0: effective 15, so a 5 is critical (skill alone, 13, would not be).
    result = roll(request(attacker={"skill": 13}, target={"modifier": 0}), 5)
    assert result.targets[0].outcome == "critical hit"
    # ... and with a -1 modifier, effective 14: a plain hit, which the target may dodge (18: fails).
    result = roll(request(attacker={"skill": 13}, target={"modifier": -1}), 5, 18)
    assert result.targets[0].outcome == "hit"
    assert result.targets[0].dodge.critical == "failure"


def test_critical_hit_with_a_negative_margin_scores_one_hit() -> None:
    # skill -4 +2 -2 = -4: a 4 still hits (critically), margin -8, one hit.
    result = roll(request(attacker={"skill": -4}), 4)
    assert (result.targets[0].outcome, result.targets[0].hits) == ("critical hit", 1)


def test_critical_miss_at_17_when_effective_skill_is_15_or_less() -> None:
    # malf 18 so the 17 is read as an attack roll; effective 12.
    result = roll(request(weapon={"malf": 18}), 17)
    assert (result.targets[0].outcome, result.targets[0].hits) == ("critical miss", 0)
    assert result.weapon.spent == 10  # a critical miss still fires


def test_17_is_a_plain_miss_at_effective_16() -> None:
    result = roll(request(weapon={"malf": 18}, attacker={"skill": 16}, target={"modifier": -2}), 17)
    assert result.targets[0].effective == 16
    assert result.targets[0].outcome == "miss"


def test_critical_miss_ten_over() -> None:
    # skill 1 +2 -2 = 1: an 11 is 10 over.
    result = roll(request(attacker={"skill": 1}), 11)
    assert result.targets[0].outcome == "critical miss"
    assert roll(request(attacker={"skill": 1}), 10).targets[0].outcome == "miss"


def test_18_is_a_critical_miss_with_malf_above_18() -> None:
    result = roll(request(weapon={"malf": 19}, attacker={"skill": 30}), 18)
    assert result.targets[0].outcome == "critical miss"
    assert result.weapon.jammed is False
