"""Seed 001 (B373): the rapid-fire bonus, hits from margin over Rcl, and the shotgun's pellets."""

from __future__ import annotations

import pytest
from gurps_helpers import MP5_REQUEST, lines, purposes, request, roll

from rules import RuleError, decode_request, resolve
from rules.dice import ScriptedDice
from rules.gurps.tables import rapid_fire_bonus


@pytest.mark.parametrize(
    ("shots", "bonus"),
    [
        (1, 0),
        (2, 0),
        (4, 0),
        (5, 1),
        (8, 1),
        (9, 2),
        (12, 2),
        (13, 3),
        (16, 3),
        (17, 4),
        (24, 4),
        (25, 5),
        (49, 5),
        (50, 6),
        (99, 6),
        # each doubling past 99: 100-199 +7, 200-399 +8, 400-799 +9, 800-1599 +10
        (100, 7),
        (199, 7),
        (200, 8),
        (399, 8),
        (400, 9),
        (799, 9),
        (800, 10),
        (1599, 10),
        (1600, 11),
    ],
)
def test_rapid_fire_bonus_table(shots: int, bonus: int) -> None:
    assert rapid_fire_bonus(shots) == bonus


@pytest.mark.parametrize(
    ("to_hit", "margin", "hits"),
    [(12, 0, 1), (11, 1, 1), (10, 2, 2), (9, 3, 2), (8, 4, 3), (7, 5, 3), (6, 6, 4), (5, 7, 4)],
)
def test_seed_rcl_2_example(to_hit: int, margin: int, hits: int) -> None:
    """Success by 0-1: one hit; 2-3: two; 4-5: three; 6-7: four (Rcl 2)."""
    # skill 12, +2 for 10 shots, -2 modifier: effective 12. No dodge, so only the to-hit roll.
    result = roll(request(target={"dodge": None}), to_hit)
    target = result.targets[0]
    assert target.effective == 12
    assert target.attack.margin == margin
    assert (target.hits, target.scored, target.outcome) == (hits, hits, "hit")


def test_hits_never_exceed_shots_fired() -> None:
    # 3 shots at effective 20 (skill 22, +0, -2): a roll of 6 is a margin of 14, seven Rcl 2 multiples.
    result = roll(request(shots=3, attacker={"skill": 22}, target={"dodge": None}), 6)
    assert result.targets[0].hits == 3


def test_rcl_1_and_rcl_3() -> None:
    assert roll(request(weapon={"rcl": 1}, target={"dodge": None}), 9).targets[0].hits == 4  # margin 3
    assert roll(request(weapon={"rcl": 3}, target={"dodge": None}), 6).targets[0].hits == 3  # margin 6


def test_a_miss_spends_the_shots() -> None:
    result = roll(request(), 13)
    assert result.targets[0].outcome == "miss"
    assert result.targets[0].hits == 0
    assert (result.weapon.loaded, result.weapon.spent, result.weapon.jammed) == (20, 10, False)
    assert result.updates[0].token == "a1"
    assert result.updates[0].state == {
        "weapon.loaded": 20,
        "weapon.jammed": False,
        "weapon.malfunction": None,
    }


def test_shotgun_counts_pellets_for_bonus_and_cap_and_shots_for_ammo() -> None:
    # 3 shots of 9 pellets: 27 projectiles, +5; skill 10 -2 +5 = 13. Rcl 1, roll 3 is a critical,
    # margin 10: 11 hits, within the 27-pellet cap (more than the 3 shots).
    shotgun = {"name": "Shotgun", "rof": "3x9", "rcl": 1, "loaded": 5, "capacity": 5}
    result = roll(request(shots=3, weapon=shotgun, attacker={"skill": 10}), 3)
    target = result.targets[0]
    assert (target.shots, target.projectiles, target.bonus, target.effective) == (3, 27, 5, 13)
    assert target.hits == 11
    assert (result.weapon.loaded, result.weapon.spent) == (2, 3)


def test_shotgun_hit_cap_is_pellets() -> None:
    # One shot of 9 pellets (+2), skill 30 -2 +2 = 30, Rcl 1, roll 7: margin 23, capped at 9 hits.
    shotgun = {"rof": "3x9", "rcl": 1}
    result = roll(request(shots=1, weapon=shotgun, attacker={"skill": 30}, target={"dodge": None}), 7)
    assert (result.targets[0].bonus, result.targets[0].hits, result.weapon.spent) == (2, 9, 1)


@pytest.mark.parametrize("rof", ["3x9", "3X9", "3×9", " 3 x 9 "])
def test_shotgun_rof_spellings(rof: str) -> None:
    result = roll(request(shots=2, weapon={"rof": rof}, target={"dodge": None}), 16)
    assert result.targets[0].projectiles == 18


def test_the_issue_request_resolves_as_given() -> None:
    # to-hit 7 (margin 5: 3 hits), dodge 8 against 9 (margin 1: avoids 2): 1 hit lands.
    result = roll(MP5_REQUEST, 7, 8)
    target = result.targets[0]
    assert (target.id, target.name, target.scored, target.dodged, target.hits) == ("t1", "Ganger", 3, 2, 1)
    assert purposes(result) == ["to_hit"] * 3 + ["dodge"] * 3
    assert result.weapon.loaded == 20
    # The card's lines: every number is a value of the message, the words come from the catalogue.
    assert [message.key for message in result.log] == [
        "gurps.attack.aim",
        "gurps.attack.hit",
        "gurps.dodge.roll",
        "gurps.weapon.after",
    ]
    assert result.log[1].values == {
        "target": "Ganger",
        "roll": 7,
        "effective": 12,
        "by": 5,
        "critical": False,
        "hits": 3,
        "rcl": 2,
    }
    assert lines(result) == [
        "Kane fires 10 shots from MP5 at Ganger: skill 12 +2 rapid fire -2 modifiers = 12",
        "rolled 7 vs 12, made it by 5: 3 hits (Rcl 2)",
        "Ganger dodges (9): rolled 8, made it by 1; avoids 2, 1 of 3 hits land",
        "MP5: 20 loaded",
    ]
    assert lines(result, "ru") == [
        "Kane, MP5 → Ganger: 10 выстрелов; навык 12 +2 за быструю стрельбу, модификаторы -2 = 12",
        "выпало 7 против 12, успех на 5: 3 попадания (Отд 2)",
        "Ganger, уклонение 9: выпало 8, успех на 1; отменено 2, проходит 1 из 3",
        "MP5: заряжено 20",
    ]


def test_scripted_dice_in_the_request() -> None:
    from rules import dice_for

    data = {**MP5_REQUEST, "dice": [1, 2, 4, 6, 6, 6]}  # to-hit 7, dodge 18
    decoded = decode_request(data)
    result = resolve(decoded, dice_for(decoded, seed=0))
    assert result.targets[0].hits == 3
    assert result.targets[0].dodge.critical == "failure"


def test_several_targets_each_roll_with_their_own_bonus() -> None:
    # 10 shots: 8 at the first (+1), 2 at the second (+0); each its own roll, in request order.
    data = request(
        targets=[
            {"id": "t1", "name": "Ganger", "modifier": -2, "shots": 8},
            {"id": "t2", "name": "Lookout", "modifier": -4, "shots": 2, "dodge": 8},
        ]
    )
    result = roll(data, 7, 6, 8)  # t1: 11, margin 4; t2: 8, margin 2; t2 dodges 8: by 0
    first, second = result.targets
    assert (first.bonus, first.effective, first.hits) == (1, 11, 3)
    assert (second.bonus, second.effective, second.scored, second.dodged, second.hits) == (0, 8, 2, 1, 1)
    assert purposes(result) == ["to_hit"] * 6 + ["dodge"] * 3
    assert [r.purpose.values["target"] for r in result.rolls] == ["Ganger"] * 3 + ["Lookout"] * 6
    assert (result.weapon.loaded, result.weapon.spent) == (20, 10)


def test_a_miss_rolls_no_dodge() -> None:
    # A 16 misses effective 12: a dodge face scripted after it is left over, and refused.
    with pytest.raises(RuleError, match="left unused") as caught:
        resolve(decode_request(MP5_REQUEST), ScriptedDice([6, 6, 4, 1, 1, 1]))
    assert caught.value.code == "dice"
