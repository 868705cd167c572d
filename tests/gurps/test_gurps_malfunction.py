"""B407 malfunctions: the unmodified to-hit roll at or above Malf, then the 3d6 kind table."""

from __future__ import annotations

import pytest
from gurps_helpers import purposes, request, roll

from rules import RuleError, decode_request, odds
from rules.gurps.tables import malfunction_kind
from rules.results import Message


@pytest.mark.parametrize(
    ("table_roll", "kind"),
    [
        (3, "mechanical"),
        (4, "mechanical"),
        (5, "misfire"),
        (8, "misfire"),
        (9, "stoppage"),
        (11, "stoppage"),
        (12, "misfire"),
        (14, "misfire"),
        (15, "mechanical"),
        (18, "mechanical"),
    ],
)
def test_malfunction_table(table_roll: int, kind: str) -> None:
    assert malfunction_kind(table_roll) == kind


@pytest.mark.parametrize(
    ("table_roll", "kind", "spent", "explosion_risk"),
    [
        (6, "misfire", 0, False),
        (10, "stoppage", 1, False),
        (4, "mechanical", 0, False),
        (16, "mechanical", 0, True),
    ],
)
def test_malfunction_jams_and_spends_by_kind(
    table_roll: int, kind: str, spent: int, explosion_risk: bool
) -> None:
    result = roll(request(), 17, table_roll)  # 17 >= Malf 17: a malfunction, not a critical miss
    target = result.targets[0]
    assert (target.outcome, target.hits, target.attack, target.dodge) == ("malfunction", 0, None, None)
    weapon = result.weapon
    assert (weapon.jammed, weapon.malfunction, weapon.spent, weapon.loaded) == (True, kind, spent, 30 - spent)
    assert weapon.explosion_risk is explosion_risk
    assert result.updates[0].state == {
        "weapon.loaded": 30 - spent,
        "weapon.jammed": True,
        "weapon.malfunction": kind,
    }
    assert purposes(result) == ["to_hit"] * 3 + ["malfunction"] * 3
    said = result.log[1]
    assert said.key == "gurps.attack.malfunction"
    assert said.values == {
        "target": "Ganger",
        "roll": 17,
        "malf": 17,
        "weapon": "MP5",
        "table_roll": table_roll,
        "fault": Message(f"gurps.fault.{kind}"),
        "rounds": spent,
    }
    assert (result.log[2].key == "gurps.attack.explosion_risk") is explosion_risk


def test_malfunction_comes_before_a_hit() -> None:
    # Malf 14, effective 22: a 15 would hit by 7, but the weapon malfunctions instead.
    result = roll(request(weapon={"malf": 14}, attacker={"skill": 22}), 15, 10)
    assert result.targets[0].outcome == "malfunction"
    assert result.weapon.malfunction == "stoppage"


def test_below_malf_fires_normally() -> None:
    result = roll(request(weapon={"malf": 14}, attacker={"skill": 22}), 13, 18)
    assert result.targets[0].outcome == "hit"
    assert result.weapon.jammed is False


def test_18_malfunctions_before_it_is_a_critical_miss() -> None:
    result = roll(request(), 18, 12)
    assert result.targets[0].outcome == "malfunction"
    assert result.weapon.malfunction == "misfire"


def test_a_malfunction_stops_fire_at_later_targets() -> None:
    data = request(
        targets=[
            {"id": "t1", "modifier": -2, "shots": 4, "dodge": 9},
            {"id": "t2", "modifier": -2, "shots": 6},
        ]
    )
    # first target: to-hit 17, stoppage (one round fired); the second is not fired at: no dice
    result = roll(data, 17, 10)
    assert [t.outcome for t in result.targets] == ["malfunction", "not fired"]
    assert (result.weapon.spent, result.weapon.loaded) == (1, 29)
    # first target fired (4 rounds, miss), second malfunctions (misfire: nothing more spent)
    result = roll(data, 16, 17, 5)
    assert [t.outcome for t in result.targets] == ["miss", "malfunction"]
    assert (result.weapon.spent, result.weapon.loaded, result.weapon.malfunction) == (4, 26, "misfire")


def test_a_jammed_weapon_cannot_fire() -> None:
    for data in (
        request(weapon={"jammed": True, "malfunction": "stoppage"}),
        request(weapon={"jammed": True}),
    ):
        for attempt in (roll, lambda d: odds(decode_request(d))):
            with pytest.raises(RuleError) as caught:
                attempt(data)
            assert caught.value.path == "$.weapon.jammed"
            assert "MP5 is jammed" in caught.value.message
            assert "unjam it first" in caught.value.message


def test_a_destroyed_weapon_cannot_fire() -> None:
    with pytest.raises(RuleError) as caught:
        roll(request(weapon={"jammed": True, "malfunction": "destroyed"}))
    assert caught.value.path == "$.weapon.malfunction"
    assert "destroyed" in caught.value.message
