"""Hit locations: a d100 per hit on the primary target; secondary targets are always hit in the body.

The seed names the rule for secondaries but prints no location table; ``tables.HIT_LOCATIONS`` is the
family's usual table read straight off the die (no digit reversal).
"""

from __future__ import annotations

from rules.d100 import messages as msg
from rules.d100.tables import HIT_LOCATIONS
from rules.dice import Dice

__all__ = ["location_of", "roll_locations"]


def location_of(face: int) -> str:
    for highest, name in HIT_LOCATIONS:
        if face <= highest:
            return name
    return HIT_LOCATIONS[-1][1]


def roll_locations(dice: Dice, count: int, who: str) -> list[str]:
    return [location_of(dice.d(100, msg.ROLL_LOCATION(target=who))) for _ in range(count)]
