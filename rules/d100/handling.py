"""Weapon classes (seed 004, "Types of ranged weapon") and the shooter's own condition.

* pistol: one hand, fires in melee without penalty;
* rifle: two hands, may fire in melee but dodges against it there gain +30;
* long rifle and heavy: cannot fire in melee at all;
* heavy: -30 unless braced, and -10 more when the bearer moved this turn (moving loses the brace, so a
  heavy weapon fired after moving is always unbraced: -40);
* thrown weapons and grenades: one hand, spent with each throw, reach Strength bonus x3 m; thrown weapons
  add the Strength bonus to damage and never jam; a fumbled grenade falls at the thrower's feet;
* a suppressed shooter takes -20 on BS (not in melee, where suppression does not apply).
"""

from __future__ import annotations

from rules.d100 import messages as msg
from rules.d100.requests import Attacker, Weapon
from rules.d100.tables import (
    DODGE_MODIFIER_RIFLE_IN_MELEE,
    HEAVY_MOVED_MODIFIER,
    HEAVY_UNBRACED_MODIFIER,
    SUPPRESSED_BS_MODIFIER,
)
from rules.errors import RuleError
from rules.results import Message

__all__ = ["braced_after", "class_modifiers", "dodge_modifier_in_melee", "may_fire"]

_NO_MELEE = msg.WEAPON_CLASS_WORD


def may_fire(attacker: Attacker, weapon: Weapon) -> None:
    if weapon.jammed:
        raise RuleError("$.weapon.jammed", msg.ERR_JAMMED())
    if attacker.in_melee and weapon.weapon_class in _NO_MELEE:
        raise RuleError(
            "$.attacker.in_melee", msg.ERR_NO_MELEE(weapon_class=_NO_MELEE[weapon.weapon_class]())
        )


def braced_after(attacker: Attacker, weapon: Weapon) -> bool:
    """Moving breaks a brace."""
    return weapon.braced and not attacker.moved


def class_modifiers(attacker: Attacker, weapon: Weapon) -> list[tuple[Message, int]]:
    """Test modifiers from the weapon class and the shooter's state, labelled for the log."""
    out: list[tuple[Message, int]] = []
    if weapon.weapon_class == "heavy" and not braced_after(attacker, weapon):
        out.append((msg.HEAVY_UNBRACED(), HEAVY_UNBRACED_MODIFIER))
        if attacker.moved:
            out.append((msg.HEAVY_MOVED(), HEAVY_MOVED_MODIFIER))
    if attacker.suppressed and not attacker.in_melee:
        out.append((msg.SUPPRESSED(), SUPPRESSED_BS_MODIFIER))
    return out


def dodge_modifier_in_melee(attacker: Attacker, weapon: Weapon) -> int:
    if attacker.in_melee and weapon.weapon_class == "rifle":
        return DODGE_MODIFIER_RIFLE_IN_MELEE
    return 0
