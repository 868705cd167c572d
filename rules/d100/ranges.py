"""Range bands and their modifiers. The seed's range table is missing; this is Volley's reading.

A request gives each target a ``band`` outright, or a ``distance`` in metres that the weapon's Rng turns
into a band (``tables.RANGE_BANDS``); the attack takes the primary target's band. Thrown weapons and
grenades reach the thrower's Strength bonus times 3 metres. Shooting in melee counts as point blank
but takes the combat-range modifier (seed 004, "Range").
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.d100 import messages as msg
from rules.d100.requests import Attacker, Target, Weapon
from rules.d100.tables import POINT_BLANK_METRES, RANGE_BANDS, RANGE_MODIFIERS, THROWN_RANGE_PER_SB
from rules.errors import RuleError
from rules.results import Message

__all__ = ["band_of", "range_modifier", "range_needs", "weapon_range"]


def weapon_range(weapon: Weapon, attacker: Attacker) -> float | None:
    """The weapon's Rng in metres: given, or Strength bonus x3 for thrown weapons and grenades."""
    if weapon.weapon_class in ("thrown", "grenade") and attacker.sb is not None:
        return float(attacker.sb * THROWN_RANGE_PER_SB)
    return weapon.range


def range_needs(weapon: Weapon) -> Message:
    """What a distance needs to become a band, for the error when it is missing."""
    if weapon.weapon_class in ("thrown", "grenade"):
        return msg.NEEDS_SB(per_sb=THROWN_RANGE_PER_SB)
    return msg.NEEDS_RANGE()


def band_of(target: Target, rng: float | None, path: str, needs: Message | None = None) -> str | None:
    """The target's range band, or None when the request says neither band nor distance.

    Both may be given only when they agree: a band that contradicts the distance is a slip one way or
    the other, and taking either silently would half-ignore the request.
    """
    if target.band is not None:
        if target.distance is not None:
            derived = _band_at(target.distance, rng, path, needs)
            if derived != target.band:
                refusal = msg.ERR_BAND_DISTANCE(
                    band=msg.BAND_WORD[target.band](),
                    distance=target.distance,
                    derived=msg.BAND_WORD[derived](),
                )
                raise RuleError(f"{path}.band", refusal)
        return target.band
    if target.distance is None:
        return None
    return _band_at(target.distance, rng, path, needs)


def _band_at(distance: float, rng: float | None, path: str, needs: Message | None) -> str:
    """The band ``distance`` metres fall in for a weapon of Rng ``rng``."""
    if distance < 0:
        raise RuleError(f"{path}.distance", msg.ERR_NEGATIVE_DISTANCE(distance=distance), code="invalid")
    if distance <= POINT_BLANK_METRES:
        return "point_blank"
    if rng is None or rng <= 0:
        raise RuleError(f"{path}.distance", msg.ERR_NO_BAND(needs=needs or msg.NEEDS_RANGE()))
    for band, multiple in RANGE_BANDS:
        if distance <= rng * multiple:
            return band
    outer = RANGE_BANDS[-1][1]
    raise RuleError(f"{path}.distance", msg.ERR_BEYOND_EXTREME(distance=distance, outer=outer, range=rng))


def range_modifier(band: str | None, overrides: Mapping[str, int] | None) -> int:
    if band is None:
        return 0
    table = {**RANGE_MODIFIERS, **(overrides or {})}
    return table.get(band, 0)
