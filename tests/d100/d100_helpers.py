"""Shared by the d100 tests: the issue's example request, a scripted-dice roller, the log in words."""

from __future__ import annotations

import copy
from typing import Any

import msgspec
import pytest

from bridge.i18n import Catalogue
from rules import RuleError, decode_request, odds, resolve
from rules.d100.results import D100Odds, D100Result
from rules.dice import ScriptedDice

#: The request from the issue, word for word.
VEX: dict[str, Any] = {
    "system": "d100",
    "mode": "long_burst",
    "attacker": {"id": "a1", "name": "Vex", "bs": 45, "moved": False, "in_melee": False},
    "weapon": {
        "name": "Autogun",
        "class": "rifle",
        "rof": "S/3/10",
        "loaded": 30,
        "capacity": 30,
        "reliability": 0,
        "braced": False,
    },
    "modifier": 0,
    "targets": [{"id": "t1", "name": "Heretic", "wp": 35, "in_cover": False, "can_reach_cover": True}],
}


def merged(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``changes`` laid over it; nested dicts merge, lists and values replace."""
    out = copy.deepcopy(base)
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def vex(**changes: Any) -> dict[str, Any]:
    return merged(VEX, changes)


def roll(request: dict[str, Any], faces: list[int]) -> D100Result:
    """Resolve with exactly these faces; unused or missing faces fail the test."""
    decoded = decode_request(msgspec.json.encode(request))
    result = resolve(decoded, ScriptedDice(faces))
    assert isinstance(result, D100Result)
    return result


def lines(result: D100Result, language: str = "en") -> list[str]:
    """The result's log as the table reads it, in ``language``."""
    catalogue = Catalogue.load(language)
    return [catalogue.render(message) for message in result.log]


def chances(request: dict[str, Any]) -> D100Odds:
    result = odds(decode_request(msgspec.json.encode(request)))
    assert isinstance(result, D100Odds)
    return result


def refused(request: dict[str, Any], path: str, fragment: str, faces: list[int] | None = None) -> RuleError:
    """The request is refused by both roll and odds, naming ``path``, before any die is used."""
    decoded = decode_request(msgspec.json.encode(request))
    before = msgspec.json.encode(decoded)
    dice = ScriptedDice(faces or [50] * 5)
    with pytest.raises(RuleError) as caught:
        resolve(decoded, dice)
    assert dice.rolls == [], "validation must come before any die"
    assert caught.value.path == path, caught.value
    assert fragment in caught.value.message, caught.value.message
    with pytest.raises(RuleError) as again:
        odds(decoded)
    assert again.value.path == path
    assert msgspec.json.encode(decoded) == before
    return caught.value
