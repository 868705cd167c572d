"""Blast weapons (seed 004, "Blasts" and "Blasts and surroundings").

* A missed blast scatters d10 metres toward a d8 compass point (1 is straight up the map, clockwise).
  Volley scatters one template per missed attack, from the aim point.
* Cover armour counts double against blasts, triple against X damage and four times against X(Fr).
* In a room no larger than 4x the blast radius: X blasts gain +1d10 damage and half again their radius
  (rounded up), E blasts gain Tearing, and Concussive ratings rise by 1.
"""

from __future__ import annotations

import math

import msgspec

from rules.d100 import messages as msg
from rules.d100.requests import Weapon
from rules.d100.results import Scatter
from rules.d100.tables import BLAST_COVER_MULTIPLIER, COMPASS, ENCLOSED_RADIUS_FACTOR, ENCLOSED_ROOM_RADII
from rules.dice import Dice

__all__ = ["RoomEffect", "cover_multiplier", "room_effect", "scatter"]


def cover_multiplier(weapon: Weapon) -> int:
    """How many times a cover's armour counts against this weapon's hits."""
    if weapon.blast is None:
        return 1
    return BLAST_COVER_MULTIPLIER.get(weapon.damage_type, BLAST_COVER_MULTIPLIER["blast"])


class RoomEffect(msgspec.Struct, frozen=True):
    enclosed: bool
    radius: float | None
    extra_d10: int = 0
    tearing: bool = False
    concussive: int | None = None


def room_effect(weapon: Weapon, room_size: float | None) -> RoomEffect:
    """The enclosed-room rule: each clause follows its own property, so a Concussive X blast gets all."""
    radius = weapon.blast
    if radius is None or room_size is None or room_size > ENCLOSED_ROOM_RADII * radius:
        return RoomEffect(False, radius, concussive=weapon.concussive)
    explosive = weapon.damage_type in ("X", "X(Fr)")
    return RoomEffect(
        enclosed=True,
        radius=float(math.ceil(radius * ENCLOSED_RADIUS_FACTOR)) if explosive else radius,
        extra_d10=1 if explosive else 0,
        tearing=weapon.damage_type == "E",
        concussive=None if weapon.concussive is None else weapon.concussive + 1,
    )


def scatter(dice: Dice, radius: float | None) -> Scatter:
    metres = dice.d(10, msg.ROLL_SCATTER_DISTANCE())
    face = dice.d(8, msg.ROLL_SCATTER_DIRECTION())
    name, east, north = COMPASS[face]
    step = metres / math.hypot(east, north)
    return Scatter(
        metres=metres, direction=name, east=round(east * step, 2), north=round(north * step, 2), radius=radius
    )
