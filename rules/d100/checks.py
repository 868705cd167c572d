"""The d100 test: roll under characteristic plus modifiers, counted in degrees.

seed 004 and the issue: a test passes when the d100 is at or under the target number; its degrees
("Успехи") are one plus the difference of the tens digits. Volley's readings where the text is silent:

* the die reads 1..100 ("00" is 100, whose tens digit is 10);
* the target number is never clamped: above 100 its tens digit keeps counting (112 has 11), below 1
  only the automatic 01 passes;
* degrees of failure mirror success: one plus tens(roll) minus tens(target); either is at least one;
* a roll of 01 always passes, with one degree (``tables.AUTO_SUCCESS_AT``);
* an attack roll of 96+ always fails (``tables.ATTACK_ALWAYS_MISSES_AT``), whatever the target.
"""

from __future__ import annotations

from rules.d100 import messages as msg
from rules.d100.results import Check
from rules.d100.tables import ATTACK_ALWAYS_MISSES_AT, AUTO_SUCCESS_AT
from rules.dice import Dice
from rules.results import Message

__all__ = ["degrees", "judge", "passes", "roll_test", "tens"]


def tens(value: int) -> int:
    """The tens digit the degrees count with (floor division, so -5 has -1)."""
    return value // 10


def passes(roll: int, target: int, *, attack: bool) -> bool:
    if attack and roll >= ATTACK_ALWAYS_MISSES_AT:
        return False
    return roll <= AUTO_SUCCESS_AT or roll <= target


def degrees(roll: int, target: int, success: bool) -> int:
    """Degrees of success (``success``) or of failure, at least one either way."""
    if success:
        return max(1, 1 + tens(target) - tens(roll))
    return max(1, 1 + tens(roll) - tens(target))


def judge(roll: int, target: int, *, attack: bool = False) -> Check:
    """Judge a face already rolled; the same code serves the dice and the exact odds."""
    success = passes(roll, target, attack=attack)
    note = None
    if attack and roll >= ATTACK_ALWAYS_MISSES_AT:
        note = msg.ALWAYS_MISSES(at=ATTACK_ALWAYS_MISSES_AT)
    elif success and roll > target:
        note = msg.ALWAYS_PASSES(face=f"{AUTO_SUCCESS_AT:02d}")
    return Check(roll=roll, target=target, success=success, degrees=degrees(roll, target, success), note=note)


def roll_test(dice: Dice, target: int, purpose: Message, *, attack: bool = False) -> Check:
    """Roll one d100 (one face, 1..100) and judge it."""
    return judge(dice.d(100, purpose), target, attack=attack)
