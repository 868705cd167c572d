"""Reload (to capacity, no dice) and unjam (B407: one roll to clear the malfunction)."""

from __future__ import annotations

from typing import Any

import pytest
from gurps_helpers import purposes, roll

from rules import RuleError, decode_request, odds
from rules.odds import at_most, dice_sum


def _reload(**weapon: Any) -> dict[str, Any]:
    return {
        "system": "gurps",
        "action": "reload",
        "attacker": {"id": "a1", "name": "Kane", "skill": 12},
        "weapon": {"name": "MP5", "rof": 13, "rcl": 2, "loaded": 4, "capacity": 30, **weapon},
    }


def _unjam(kind: str | None, *, skill: int = 11, **top: Any) -> dict[str, Any]:
    weapon: dict[str, Any] = {"name": "MP5", "loaded": 20, "capacity": 30, "jammed": True}
    if kind is not None:
        weapon["malfunction"] = kind
    return {
        "system": "gurps",
        "action": "unjam",
        "attacker": {"id": "a1", "name": "Kane"},
        "weapon": weapon,
        "skill": skill,
        **top,
    }


def test_reload_fills_to_capacity_without_dice() -> None:
    result = roll(_reload())
    assert (result.action, result.added, result.rolls) == ("reload", 26, [])
    assert (result.weapon.loaded, result.weapon.jammed) == (30, False)
    assert result.updates[0].state == {
        "weapon.loaded": 30,
        "weapon.jammed": False,
        "weapon.malfunction": None,
    }
    assert odds(decode_request(_reload())).jam == 0.0


def test_reload_leaves_a_jam_alone() -> None:
    result = roll(_reload(jammed=True, malfunction="stoppage"))
    assert (result.weapon.loaded, result.weapon.jammed, result.weapon.malfunction) == (30, True, "stoppage")
    assert odds(decode_request(_reload(jammed=True, malfunction="stoppage"))).jam == 1.0


def test_a_destroyed_weapon_is_not_reloaded() -> None:
    with pytest.raises(RuleError) as caught:
        roll(_reload(jammed=True, malfunction="destroyed"))
    assert caught.value.path == "$.weapon.malfunction"


def test_reload_needs_capacity() -> None:
    data = _reload()
    del data["weapon"]["capacity"]
    with pytest.raises(RuleError) as caught:
        roll(data)
    assert caught.value.path == "$.weapon.capacity"


@pytest.mark.parametrize(
    ("kind", "using", "to_roll", "time"),
    [
        ("misfire", "armoury", 13, "ready"),  # Armoury 11 + 2, a Ready maneuver
        ("stoppage", "armoury", 13, "three_ready"),
        ("misfire", "weapon", 11, "ready"),  # IQ-based weapon skill: no +2
        ("mechanical", "armoury", 11, "hour"),  # an hour's work
    ],
)
def test_unjam_target_and_success(kind: str, using: str, to_roll: int, time: str) -> None:
    result = roll(_unjam(kind, using=using), to_roll)
    attempt = result.unjam
    assert (attempt.fixing, attempt.using, attempt.time.key) == (kind, using, f"gurps.fix_time.{time}")
    assert (attempt.check.target, attempt.check.margin, attempt.check.success) == (to_roll, 0, True)
    assert (result.weapon.jammed, result.weapon.malfunction, result.weapon.loaded) == (False, None, 20)
    assert result.updates[0].state == {
        "weapon.loaded": 20,
        "weapon.jammed": False,
        "weapon.malfunction": None,
    }
    assert purposes(result) == ["unjam"] * 3
    (said,) = result.log
    assert (said.key, said.values["need"], said.values["success"]) == ("gurps.unjam", to_roll, True)


def test_unjam_failure_keeps_the_jam() -> None:
    result = roll(_unjam("stoppage"), 14)
    assert (result.weapon.jammed, result.weapon.malfunction) == (True, "stoppage")


@pytest.mark.parametrize(
    ("kind", "becomes"), [("misfire", "mechanical"), ("stoppage", "mechanical"), ("mechanical", "destroyed")]
)
def test_unjam_critical_failure_makes_it_worse(kind: str, becomes: str) -> None:
    result = roll(_unjam(kind), 18)
    assert result.unjam.check.critical == "failure"
    assert (result.weapon.jammed, result.weapon.malfunction) == (True, becomes)


def test_unjam_modifier() -> None:
    assert roll(_unjam("mechanical", modifier=-3), 8).unjam.check.target == 8


def test_unjam_odds_is_the_chance_of_failing() -> None:
    target = 13
    assert odds(decode_request(_unjam("misfire"))).jam == pytest.approx(1 - at_most(dice_sum(3, 6), target))


@pytest.mark.parametrize(
    ("data", "path", "words"),
    [
        ({**_unjam("misfire"), "weapon": {"loaded": 3}}, "$.weapon.jammed", "is not jammed"),
        (_unjam(None), "$.weapon.malfunction", "misfire, stoppage or mechanical"),
        (_unjam("destroyed"), "$.weapon.malfunction", "destroyed"),
        (_unjam("mechanical", using="weapon"), "$.using", "needs an Armoury roll"),
    ],
)
def test_unjam_refusals(data: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(RuleError) as caught:
        roll(data)
    assert caught.value.path == path
    assert words in caught.value.message


def test_jam_then_unjam_then_fire() -> None:
    """The weapon state a result returns is what the next request sends."""
    from gurps_helpers import request

    jammed = roll(request(), 17, 10).weapon  # stoppage, 1 round
    unjam = _unjam(jammed.malfunction)
    unjam["weapon"].update(loaded=jammed.loaded, jammed=jammed.jammed)
    cleared = roll(unjam, 9).weapon
    assert (cleared.jammed, cleared.loaded) == (False, 29)
    again = roll(request(weapon={"loaded": cleared.loaded, "jammed": cleared.jammed}), 16)
    assert again.weapon.loaded == 19
