"""The d100 request shapes: one tagged Struct per action, decoded in one typed pass.

The VTT is the source of truth for token state, so each request carries what the rule needs (rounds
loaded, a jam, suppression, a standing overwatch order) and the result hands back new absolute values.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from rules.request import RequestBase

__all__ = [
    "MAX_DISTANCE_METRES",
    "MAX_ROOM_METRES",
    "MOST_POINTS",
    "Attack",
    "Attacker",
    "Brace",
    "D100Request",
    "EnterMelee",
    "Overwatch",
    "OverwatchFire",
    "OverwatchOrder",
    "RangeBand",
    "Recover",
    "RecoverAmmo",
    "Reload",
    "SuppressionTestRequest",
    "Target",
    "Unjam",
    "Weapon",
    "WeaponClass",
    "attack_range",
]

#: Metres beyond this are typing slips: extreme range of the longest Rng (``plan.MAX_RANGE_METRES``)
#: is a few hundred kilometres. Without a bound, a distance of 1e308 reached the message formatter.
MAX_DISTANCE_METRES = 1_000_000.0
#: A room larger than this is no longer enclosed (``room_size`` only matters up to 4x a blast radius).
MAX_ROOM_METRES = 10_000.0
#: Armour, Toughness bonus, cover armour, penetration, Concussive rating, a share of hits and a range
#: modifier beyond this are typing slips (``plan.CHARACTERISTIC_MAX``, the same figure).
MOST_POINTS = 200

Metres = Annotated[float, msgspec.Meta(le=MAX_DISTANCE_METRES)]
Points = Annotated[int, msgspec.Meta(le=MOST_POINTS)]
Degrees = Annotated[float, msgspec.Meta(ge=-360.0, le=360.0)]
#: A token's id: the VTT writes the result's updates to it, so an empty one is refused (#31).
TokenId = Annotated[str, msgspec.Meta(min_length=1)]

WeaponClass = Literal["pistol", "rifle", "long_rifle", "heavy", "thrown", "grenade"]
RangeBand = Literal["point_blank", "short", "combat", "long", "extreme"]
AttackMode = Literal[
    "single",
    "short_burst",
    "long_burst",
    "wide_short_burst",
    "wide_long_burst",
    "wide_burst",
    "suppressing",
    "overwatch",
]
OverwatchMode = Literal["single", "short_burst", "long_burst"]
DamageType = Literal["I", "R", "X", "E", "X(Fr)"]
Reliability = int | str | list[int | str]


class OverwatchOrder(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True):
    """A standing overwatch order (seed 004, "Overwatch"): a sector, a trigger and the mode to fire."""

    mode: OverwatchMode = "single"
    trigger: str = ""
    facing: Degrees = 0.0
    arc: Degrees = 45.0


class Attacker(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True):
    id: TokenId
    name: str | None = None
    bs: int
    moved: bool = False
    in_melee: bool = False
    suppressed: bool = False
    prone: bool = False
    sb: int | None = None
    overwatch: OverwatchOrder | None = None


class Weapon(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True):
    name: str | None = None
    weapon_class: WeaponClass = msgspec.field(default="rifle", name="class")
    rof: str = "S/-/-"
    loaded: int
    capacity: int | None = None
    reserve: int | None = None
    reliability: Reliability = 0
    jam_at: int | None = None
    jammed: bool = False
    spoiled: int = 0
    braced: bool = False
    range: float | None = None
    damage: str | None = None
    pen: Points = 0
    damage_type: DamageType = "I"
    blast: float | None = None
    concussive: Points | None = None


class Target(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True):
    id: TokenId
    name: str | None = None
    wp: int | None = None
    in_cover: bool = False
    can_reach_cover: bool = True
    in_melee: bool = False
    unharmable: bool = False
    suppressed: bool = False
    prone: bool = False
    distance: Metres | None = None
    band: RangeBand | None = None
    to_primary: Metres | None = None
    share: Points = 0
    dodge: int | None = None
    armour: Points | dict[str, Points] | None = None
    tb: Points = 0
    cover_ap: Points = 0
    covered: list[str] | None = None


class Attack(RequestBase, tag="attack", kw_only=True, frozen=True):
    """Fire one attack in ``mode`` (seed 004: single, short/long/wide burst, suppressing fire).

    ``wide_burst`` with ``base`` is another spelling of ``wide_short_burst``/``wide_long_burst``;
    ``overwatch`` sets up the standing ``order`` (the ``overwatch`` action does the same).
    """

    system: Literal["d100"]
    mode: AttackMode = "single"
    attacker: Attacker
    weapon: Weapon
    targets: list[Target] = msgspec.field(default_factory=list)
    modifier: int = 0
    rate: Literal["semi", "full"] | None = None
    arc: Degrees | None = None
    base: Literal["short_burst", "long_burst"] | None = None
    order: OverwatchOrder | None = None
    range_modifiers: dict[str, Annotated[int, msgspec.Meta(ge=-MOST_POINTS, le=MOST_POINTS)]] | None = None
    gm_allows_wider: bool = False
    fire_at_feet: bool = False
    room_size: Annotated[float, msgspec.Meta(le=MAX_ROOM_METRES)] | None = None
    band: RangeBand | None = None
    distance: Metres | None = None
    range_band: RangeBand | None = None


class OverwatchFire(RequestBase, tag="overwatch_fire", kw_only=True, frozen=True):
    """The trigger of a standing order fires: the order's mode at the targets that met it."""

    system: Literal["d100"]
    attacker: Attacker
    weapon: Weapon
    targets: list[Target]
    modifier: int = 0
    mode: OverwatchMode | None = None
    range_modifiers: dict[str, Annotated[int, msgspec.Meta(ge=-MOST_POINTS, le=MOST_POINTS)]] | None = None
    gm_allows_wider: bool = False
    room_size: Annotated[float, msgspec.Meta(le=MAX_ROOM_METRES)] | None = None
    band: RangeBand | None = None
    distance: Metres | None = None
    range_band: RangeBand | None = None


class OverwatchReadings(
    msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True, omit_defaults=True
):
    """The VTT module's own overwatch reading the table changed (docs/rules/d100.md, "Overwatch"), as
    the referee's browser reports it: the module, not the rules, lifts an order at its shooter's next
    turn. The rules never read it; the card, ``volley show`` and the report list it
    (``rules.table_rules.changed``), and the journal keeps it with the request."""

    overwatch_ends_on_turn: bool | None = None


class Overwatch(RequestBase, tag="overwatch", kw_only=True, frozen=True):
    """Set (or with ``clear`` lift) a standing overwatch order: a full action."""

    system: Literal["d100"]
    attacker: Attacker
    weapon: Weapon | None = None
    order: OverwatchOrder | None = None
    clear: bool = False
    #: The module's readings the table changed, for the record only (``OverwatchReadings``).
    module_readings: OverwatchReadings | None = None


def attack_range(request: Attack | OverwatchFire) -> Target | None:
    """The request-wide range (``band``/``range_band`` or ``distance``) for targets that give none."""
    if request.band is not None and request.range_band is not None and request.band != request.range_band:
        from rules.d100 import messages as msg
        from rules.errors import RuleError

        raise RuleError("$.range_band", msg.ERR_TWO_BANDS())
    band = request.band or request.range_band
    if band is None and request.distance is None:
        return None
    return Target(id="$", band=band, distance=request.distance)


class Reload(RequestBase, tag="reload", kw_only=True, frozen=True):
    system: Literal["d100"]
    attacker: Attacker
    weapon: Weapon


class Unjam(RequestBase, tag="unjam", kw_only=True, frozen=True):
    """Clear a jam: Tech-Use or Trade (Weaponsmith) +0 against ``skill``, a full action."""

    system: Literal["d100"]
    attacker: Attacker
    weapon: Weapon
    skill: int
    modifier: int = 0


class RecoverAmmo(RequestBase, tag="recover_ammo", kw_only=True, frozen=True):
    """Win back rounds a jam spoiled: Trade (Weaponsmith) +10 against ``skill``."""

    system: Literal["d100"]
    attacker: Attacker
    weapon: Weapon
    skill: int
    modifier: int = 0


class Brace(RequestBase, tag="brace", kw_only=True, frozen=True):
    """Brace a heavy weapon (half action); ``release`` lifts it (the bearer moved or turned)."""

    system: Literal["d100"]
    attacker: Attacker
    weapon: Weapon
    release: bool = False


class SuppressionTestRequest(RequestBase, tag="suppression_test", kw_only=True, frozen=True):
    """A suppression test the GM calls for (massed fire, a sniper): Willpower at ``modifier``."""

    system: Literal["d100"]
    targets: list[Target]
    modifier: int = 0


class Recover(RequestBase, tag="recover", kw_only=True, frozen=True):
    """End-of-turn Willpower test to shake off suppression; +30 when ``quiet``."""

    system: Literal["d100"]
    targets: list[Target]
    quiet: bool = False
    modifier: int = 0


class EnterMelee(RequestBase, tag="enter_melee", kw_only=True, frozen=True):
    """Characters locked in melee are not subject to suppression: entering melee ends it."""

    system: Literal["d100"]
    targets: list[Target]


D100Request = (
    Attack
    | OverwatchFire
    | Overwatch
    | Reload
    | Unjam
    | RecoverAmmo
    | Brace
    | SuppressionTestRequest
    | Recover
    | EnterMelee
)
