"""Requests the rules refuse: the error names the field and the rule, and nothing is rolled or spent."""

from __future__ import annotations

from typing import Any

import pytest
from gurps_helpers import request

from rules import RuleError, decode_request, odds, resolve
from rules.dice import ScriptedDice

TWO_TARGETS = [{"id": "t1", "shots": 6}, {"id": "t2", "shots": 4}]


@pytest.mark.parametrize(
    ("data", "path", "message"),
    [
        (request(shots=14), "$.shots", "shots 14 > RoF 13"),
        (request(shots=10, weapon={"loaded": 6}), "$.shots", "shots 10 > 6 loaded"),
        (request(shots=0), "$.shots", "shots 0: an attack fires at least one shot"),
        (request(shots=-2), "$.shots", "shots -2: an attack fires at least one shot"),
        (request(shots=4, weapon={"rof": "3x9"}), "$.shots", "shots 4 > RoF 3"),
        (
            request(weapon={"jammed": True, "malfunction": "misfire"}),
            "$.weapon.jammed",
            "MP5 is jammed (misfire): unjam it first",
        ),
        (
            request(weapon={"rof": "3y9"}),
            "$.weapon.rof",
            "RoF '3y9' is neither a number nor shots x pellets like \"3x9\"",
        ),
        (
            request(weapon={"rof": "x9"}),
            "$.weapon.rof",
            "RoF 'x9' is neither a number nor shots x pellets like \"3x9\"",
        ),
        (
            request(weapon={"rof": ""}),
            "$.weapon.rof",
            "RoF '' is neither a number nor shots x pellets like \"3x9\"",
        ),
        (
            request(weapon={"rof": "0x9"}),
            "$.weapon.rof",
            "RoF '0x9' must fire at least one shot of one projectile",
        ),
        (request(weapon={"rof": 0}), "$.weapon.rof", "RoF 0 must fire at least one shot of one projectile"),
        (request(weapon={"loaded": 31}), "$.weapon.loaded", "loaded 31 > capacity 30"),
        (request(targets=[]), "$.targets", "an attack needs at least one target"),
        (request(target={"shots": 5}), "$.targets[0].shots", "target shots 5 != shots 10"),
        (
            request(targets=[{"id": "t1", "shots": 6}, {"id": "t2"}]),
            "$.targets[1].shots",
            "with several targets, say how many shots go to each",
        ),
        (
            request(targets=[{"id": "t1", "shots": 10}, {"id": "t2", "shots": 0}]),
            "$.targets[1].shots",
            "shots 0: each target takes at least one shot",
        ),
        (request(shots=9, targets=TWO_TARGETS), "$.targets", "target shots add up to 10, not shots 9"),
    ],
)
def test_refused(data: dict[str, Any], path: str, message: str) -> None:
    decoded = decode_request(data)
    dice = ScriptedDice([])
    with pytest.raises(RuleError) as caught:
        resolve(decoded, dice)
    assert (caught.value.path, caught.value.message, caught.value.code) == (path, message, "rule")
    assert dice.rolls == []
    with pytest.raises(RuleError) as caught_odds:
        odds(decoded)
    assert caught_odds.value.path == path


@pytest.mark.parametrize(
    ("data", "path"),
    [
        (request(weapon={"rof": 13.5}), "$.weapon.rof"),
        (request(weapon={"rcl": 0}), "$.weapon.rcl"),
        (request(weapon={"loaded": -1}), "$.weapon.loaded"),
        (request(weapon={"malf": 2}), "$.weapon.malf"),
        (request(weapon={"malfunction": "gremlins"}), "$.weapon.malfunction"),
        (request(attacker={"skill": "12"}), "$.attacker.skill"),
        (request(attacker={"skill": None}), "$"),
        (request(action="fire"), "$"),
    ],
)
def test_badly_shaped(data: dict[str, Any], path: str) -> None:
    with pytest.raises(RuleError) as caught:
        decode_request(data)
    assert caught.value.code == "invalid"
    assert caught.value.path.startswith(path)


def test_missing_skill_names_the_field() -> None:
    with pytest.raises(RuleError) as caught:
        decode_request(request(attacker={"skill": None}))
    assert "skill" in caught.value.message
    assert caught.value.path == "$.attacker.skill"
