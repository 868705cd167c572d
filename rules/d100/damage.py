"""Damage through cover and armour, when the request carries a damage roll and the target's armour.

Seed 004, "Cover" and "Damage to cover": cover gives no penalty to hit; it adds its armour to the
locations behind it, and every hit that gets through it wears 1 AP off it. Volley's readings:

* penetration applies once, to cover and worn armour together; a hit gets through the cover when its
  damage exceeds the cover's armour (times the blast multiplier) less penetration;
* wounds are damage less (cover + armour - penetration, not below 0) less Toughness bonus, not below 0;
* enclosed X blasts add 1d10; Tearing rolls one extra damage die and drops the lowest; thrown weapons
  add the thrower's Strength bonus.
"""

from __future__ import annotations

import re

import msgspec

from rules.d100 import messages as msg
from rules.d100.requests import Target
from rules.d100.results import HitRecord
from rules.d100.tables import COVERED_WHEN_SHOOTING, LOCATIONS
from rules.dice import Dice
from rules.errors import RuleError

__all__ = ["DamageRoll", "armour_at", "check_locations", "covered", "parse_damage", "strike"]

#: A damage bonus beyond this is a typing mistake.
MAX_DAMAGE_BONUS = 1000
_DAMAGE = re.compile(r"^\s*(\d+)\s*[dDкК]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


class DamageRoll(msgspec.Struct, frozen=True):
    count: int
    sides: int
    bonus: int
    extra_d10: int = 0
    tearing: bool = False

    def roll(self, dice: Dice, who: str) -> int:
        faces = dice.roll(self.count + (1 if self.tearing else 0), self.sides, msg.ROLL_DAMAGE(target=who))
        if self.tearing:
            faces.remove(min(faces))
        extra = dice.total(self.extra_d10, 10, msg.ROLL_ROOM_DAMAGE(target=who)) if self.extra_d10 else 0
        return sum(faces) + extra + self.bonus


def parse_damage(text: str, path: str = "$.weapon.damage") -> DamageRoll:
    match = _DAMAGE.match(text)
    if match is None:
        raise RuleError(path, msg.ERR_DAMAGE_NOTATION(damage=repr(text)), code="invalid")
    count, sides = int(match.group(1)), int(match.group(2))
    if not 1 <= count <= 20 or not 2 <= sides <= 100:
        raise RuleError(path, msg.ERR_DAMAGE_DICE(damage=repr(text)), code="invalid")
    bonus = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
    if abs(bonus) > MAX_DAMAGE_BONUS:
        refusal = msg.ERR_DAMAGE_BONUS(damage=repr(text), most=MAX_DAMAGE_BONUS)
        raise RuleError(path, refusal, code="invalid")
    return DamageRoll(count, sides, bonus)


def armour_at(target: Target, location: str) -> int:
    if target.armour is None:
        return 0
    if isinstance(target.armour, int):
        return target.armour
    return target.armour.get(location, 0)


def covered(target: Target, location: str) -> bool:
    if not target.in_cover:
        return False
    return location in (COVERED_WHEN_SHOOTING if target.covered is None else set(target.covered))


def strike(
    damage: int, target: Target, location: str, *, cover_ap: int, multiplier: int, pen: int
) -> HitRecord:
    """Apply one hit's damage; ``cover`` on the record is the cover's AP this hit met."""
    worn = armour_at(target, location)
    if not covered(target, location):
        wounds = max(0, damage - max(0, worn - pen) - target.tb)
        return HitRecord(location=location, damage=damage, armour=worn, wounds=wounds)
    cover = cover_ap * multiplier
    through = damage > max(0, cover - pen)
    wounds = max(0, damage - max(0, cover + worn - pen) - target.tb)
    return HitRecord(
        location=location, damage=damage, armour=worn, cover=cover, cover_penetrated=through, wounds=wounds
    )


def check_locations(names: list[str] | None, path: str) -> None:
    for i, name in enumerate(names or []):
        if name not in LOCATIONS:
            raise RuleError(f"{path}[{i}]", msg.ERR_LOCATION(location=repr(name), known=list(LOCATIONS)))
