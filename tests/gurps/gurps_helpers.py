"""Shared by the GURPS tests: the issue's example request, scripted 3d6 totals, and the log in words."""

from __future__ import annotations

import copy
from typing import Any

from bridge.i18n import Catalogue
from rules import decode_request, resolve
from rules.dice import ScriptedDice
from rules.results import Result

#: The request from the issue, word for word.
MP5_REQUEST: dict[str, Any] = {
    "system": "gurps",
    "attacker": {"id": "a1", "name": "Kane", "skill": 12},
    "weapon": {"name": "MP5", "rof": 13, "rcl": 2, "loaded": 30, "capacity": 30, "malf": 17},
    "shots": 10,
    "targets": [{"id": "t1", "name": "Ganger", "modifier": -2, "dodge": 9}],
}


def three_d6(total: int) -> list[int]:
    """Three faces that add up to ``total`` (3..18)."""
    assert 3 <= total <= 18
    faces = []
    rest = total
    for dice_left in (2, 1, 0):
        face = min(6, rest - dice_left)
        faces.append(face)
        rest -= face
    return faces


def request(
    *,
    attacker: dict[str, Any] | None = None,
    weapon: dict[str, Any] | None = None,
    target: dict[str, Any] | None = None,
    **top: Any,
) -> dict[str, Any]:
    """The MP5 request with fields changed: ``weapon``/``attacker``/``target`` merge into their objects,
    a ``None`` value removes the field; other keywords replace top-level fields."""
    data = copy.deepcopy(MP5_REQUEST)
    for part, changes in (("attacker", attacker), ("weapon", weapon)):
        for key, value in (changes or {}).items():
            if value is None:
                data[part].pop(key, None)
            else:
                data[part][key] = value
    for key, value in (target or {}).items():
        if value is None:
            data["targets"][0].pop(key, None)
        else:
            data["targets"][0][key] = value
    data.update(top)
    return data


def lines(result: Result, language: str = "en") -> list[str]:
    """The result's log as the table reads it, in ``language``."""
    catalogue = Catalogue.load(language)
    return [catalogue.render(message) for message in result.log]


def purposes(result: Result) -> list[str]:
    """What each die was rolled for, by message key without the ``gurps.roll.`` prefix."""
    return [roll.purpose.key.removeprefix("gurps.roll.") for roll in result.rolls]


def roll(data: dict[str, Any], *totals: int) -> Any:
    """Resolve ``data`` with each 3d6 scripted as a total; every scripted roll must be used, no more."""
    faces = [face for total in totals for face in three_d6(total)]
    result: Result = resolve(decode_request(data), ScriptedDice(faces))
    return result
