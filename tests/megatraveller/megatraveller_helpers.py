"""Shared builders for the MegaTraveller tests: requests as the VTT would send them, dice as faces."""

from __future__ import annotations

import copy
from typing import Any

from bridge.i18n import Catalogue
from rules import decode_request, resolve
from rules.dice import ScriptedDice, SeededDice
from rules.megatraveller.results import MegaTravellerResult


def two_dice(total: int) -> list[int]:
    """Two faces that sum to ``total`` (8 -> [6, 2], 2 -> [1, 1])."""
    high = min(6, total - 1)
    return [high, total - high]


def to_hit(*totals: int) -> list[int]:
    """The faces of several 2D to-hit rolls, in order."""
    return [face for total in totals for face in two_dice(total)]


def roll(request: dict[str, Any], *, seed: int = 1) -> MegaTravellerResult:
    """Decode and resolve like the CLI does; scripted ``dice`` win over the seed."""
    decoded = decode_request(request)
    faces = request.get("dice")
    dice = ScriptedDice(faces) if faces is not None else SeededDice(seed)
    result = resolve(decoded, dice)
    assert isinstance(result, MegaTravellerResult)
    return result


def jong_wu(**top: Any) -> dict[str, Any]:
    """RCS rapid-fire example: Pistol-5, Dex 13, Fast Draw at three guards at Close range (Routine)."""
    request: dict[str, Any] = {
        "system": "megatraveller",
        "action": "fast_draw",
        "mode": "rapid",
        "attacker": {
            "id": "jw",
            "name": "Jong Wu",
            "skill": 5,
            "dex": 13,
            "readiness": "holstered",
            "selector": "single",
        },
        "weapon": {"name": "Autopistol", "kind": "pistol", "rapid": True, "loaded": 15, "capacity": 15},
        "targets": [
            {"id": "g2", "name": "central guard", "difficulty": "routine"},
            {"id": "g1", "name": "left guard", "difficulty": "routine"},
            {"id": "g3", "name": "right guard", "difficulty": "routine"},
        ],
    }
    request.update(top)
    return request


def honjo(**top: Any) -> dict[str, Any]:
    """RCS automatic-fire example: Autorifle-3, Dex 9, Retarget and Fire at two birds, an ally caught."""
    request: dict[str, Any] = {
        "system": "megatraveller",
        "action": "retarget_and_fire",
        "mode": "auto",
        "attacker": {
            "id": "hb",
            "name": "Honjo Boram",
            "skill": 3,
            "dex": 9,
            "readiness": "ready",
            "selector": "auto",
            "target": "bird0",
        },
        "weapon": {
            "name": "Autorifle",
            "kind": "rifle",
            "auto": True,
            "auto_targets": 2,
            "loaded": 20,
            "capacity": 20,
        },
        "targets": [
            {"id": "bird1", "difficulty": "routine"},
            {"id": "bird2", "difficulty": "routine"},
            {"id": "ally", "difficulty": "routine", "bystander": True},
        ],
    }
    request.update(top)
    return request


def with_changes(request: dict[str, Any], **parts: dict[str, Any]) -> dict[str, Any]:
    """A deep copy with ``attacker``/``weapon`` fields changed: ``with_changes(r, weapon={"loaded": 3})``."""
    out = copy.deepcopy(request)
    for key, fields in parts.items():
        out[key] = {**out[key], **fields}
    return out


def lines(result: MegaTravellerResult, language: str = "en") -> list[str]:
    """The result's log as the table reads it, in ``language``."""
    catalogue = Catalogue.load(language)
    return [catalogue.render(message) for message in result.log]
