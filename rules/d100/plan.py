"""Everything about an attack that is known before a die is rolled, checked once.

Both the dice (``salvo.fire``) and the exact odds (``odds``) start from the same ``FirePlan``, so the
preview and the roll cannot disagree. Building a plan is where every bad input becomes a ``RuleError``:
nothing is rolled, spent or changed before it succeeds.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from rules import errors
from rules.d100 import messages as msg
from rules.d100.blast import RoomEffect, cover_multiplier, room_effect
from rules.d100.damage import DamageRoll, check_locations, parse_damage
from rules.d100.handling import braced_after, class_modifiers, dodge_modifier_in_melee, may_fire
from rules.d100.modes import MODES, FireMode, mode_rof, mode_word, suppressing_mode
from rules.d100.ranges import band_of, range_modifier, range_needs, weapon_range
from rules.d100.reliability import jam_threshold
from rules.d100.requests import Attacker, Target, Weapon
from rules.d100.rof import parse_rof
from rules.d100.suppression import SuppressionTest
from rules.d100.tables import (
    DODGE_MODIFIER_WIDE_BURST,
    FIRE_AT_FEET_MODIFIER,
    LOCATIONS,
    RANGE_MODIFIERS,
    SECONDARY_REACH_METRES,
    SUPPRESSING_TEST_MODIFIERS,
    SUPPRESSION_TEST_BANDS,
)
from rules.errors import RuleError
from rules.results import Message

#: Characteristics, skills and summed modifiers beyond this are typing mistakes, not heroes.
CHARACTERISTIC_MAX = 200
#: A blast radius beyond this is a typing mistake (and would overflow the enclosed-room arithmetic).
MAX_BLAST_METRES = 1000.0
#: Rounds loaded, carried or spoiled beyond this are typing mistakes (a VTT shows them as numbers).
MAX_ROUNDS = 100_000
#: A weapon's Rng beyond this many metres is a typing mistake.
MAX_RANGE_METRES = 100_000.0

__all__ = [
    "CHARACTERISTIC_MAX",
    "MAX_ROUNDS",
    "FirePlan",
    "check_modifier",
    "check_target",
    "check_weapon",
    "keeps_brace",
    "plan_fire",
]


class FirePlan(msgspec.Struct, frozen=True):
    """One attack roll's worth of fire: its mode, its target number and who it can touch."""

    attacker: Attacker
    weapon: Weapon
    targets: tuple[Target, ...]
    paths: tuple[str, ...]
    mode: FireMode
    rounds: int
    cap: int
    modifiers: tuple[tuple[Message, int], ...]
    jam_at: int | None
    shares: tuple[int, ...]
    random_targets: bool
    dodge_modifier: int
    suppression: tuple[SuppressionTest | None, ...]
    damage: DamageRoll | None
    cover_multiplier: int
    room: RoomEffect
    fire_at_feet: bool = False

    @property
    def target_number(self) -> int:
        return self.attacker.bs + sum(value for _, value in self.modifiers)

    @property
    def thrown(self) -> bool:
        return self.weapon.weapon_class in ("thrown", "grenade")

    @property
    def weapon_name(self) -> str:
        return self.weapon.name or "the weapon"


def check_weapon(weapon: Weapon) -> None:
    """Shape checks on the weapon's state that apply to every action."""
    for name, count in (
        ("loaded", weapon.loaded),
        ("capacity", weapon.capacity),
        ("spoiled", weapon.spoiled),
        ("reserve", weapon.reserve),
    ):
        if count is not None and not 0 <= count <= MAX_ROUNDS:
            refusal = msg.ERR_ROUNDS_RANGE(field=name, count=count, most=MAX_ROUNDS)
            raise RuleError(f"$.weapon.{name}", refusal, code="invalid")
    if weapon.capacity is not None and weapon.loaded > weapon.capacity:
        raise RuleError("$.weapon.loaded", msg.ERR_OVERLOADED(loaded=weapon.loaded, capacity=weapon.capacity))
    if weapon.range is not None and not 0 < weapon.range <= MAX_RANGE_METRES:
        refusal = msg.ERR_WEAPON_RANGE(most=MAX_RANGE_METRES, range=weapon.range)
        raise RuleError("$.weapon.range", refusal, code="invalid")
    if weapon.concussive is not None and weapon.concussive < 0:
        raise RuleError("$.weapon.concussive", msg.ERR_CONCUSSIVE(), code="invalid")
    if weapon.jam_at is not None and not 1 <= weapon.jam_at <= 101:
        raise RuleError("$.weapon.jam_at", msg.ERR_JAM_AT(), code="invalid")
    if weapon.pen < 0:
        raise RuleError("$.weapon.pen", msg.ERR_PEN(), code="invalid")
    if weapon.blast is not None and not 0 < weapon.blast <= MAX_BLAST_METRES:
        raise RuleError("$.weapon.blast", msg.ERR_BLAST(most=MAX_BLAST_METRES), code="invalid")
    jam_threshold(weapon)  # names a bad reliability property


def _check_attacker(attacker: Attacker) -> None:
    if not 0 <= attacker.bs <= CHARACTERISTIC_MAX:
        raise RuleError("$.attacker.bs", msg.ERR_BS(bs=attacker.bs, most=CHARACTERISTIC_MAX), code="invalid")
    if attacker.sb is not None and not 0 <= attacker.sb <= CHARACTERISTIC_MAX // 10:
        refusal = msg.ERR_SB(sb=attacker.sb, most=CHARACTERISTIC_MAX // 10)
        raise RuleError("$.attacker.sb", refusal, code="invalid")


def check_modifier(modifier: int, path: str = "$.modifier") -> None:
    if abs(modifier) > CHARACTERISTIC_MAX:
        raise RuleError(path, msg.ERR_MODIFIER(modifier=modifier, most=CHARACTERISTIC_MAX), code="invalid")


def check_target(target: Target, path: str) -> None:
    for name, value in (("wp", target.wp), ("dodge", target.dodge)):
        if value is not None and not 0 <= value <= CHARACTERISTIC_MAX:
            refusal = msg.ERR_CHARACTERISTIC(field=name, value=value, most=CHARACTERISTIC_MAX)
            raise RuleError(f"{path}.{name}", refusal, code="invalid")
    if target.share < 0:
        raise RuleError(f"{path}.share", msg.ERR_SHARE(), code="invalid")
    if target.cover_ap < 0:
        raise RuleError(f"{path}.cover_ap", msg.ERR_COVER_AP(), code="invalid")
    if target.tb < 0:
        raise RuleError(f"{path}.tb", msg.ERR_TB(), code="invalid")
    if target.to_primary is not None and target.to_primary < 0:
        raise RuleError(f"{path}.to_primary", msg.ERR_DISTANCE(), code="invalid")
    worn = target.armour.items() if isinstance(target.armour, dict) else [("", target.armour or 0)]
    for location, armour in worn:
        if armour < 0:
            where = f"{path}.armour.{location}" if location else f"{path}.armour"
            raise RuleError(where, msg.ERR_ARMOUR(armour=armour), code="invalid")
    check_locations(target.covered, f"{path}.covered")
    if isinstance(target.armour, dict):
        for location in target.armour:
            if location not in LOCATIONS:
                refusal = msg.ERR_LOCATION(location=repr(location), known=list(LOCATIONS))
                raise RuleError(f"{path}.armour.{location}", refusal)


def _mode_and_rate(mode_name: str, rate: str | None, weapon: Weapon) -> tuple[FireMode, str | None]:
    if mode_name != "suppressing":
        return MODES[mode_name], None
    rof = parse_rof(weapon.rof)
    chosen = rate or ("full" if rof.long is not None else "semi")
    return suppressing_mode(chosen), chosen


def plan_fire(
    *,
    mode_name: str,
    attacker: Attacker,
    weapon: Weapon,
    targets: Sequence[Target],
    paths: Sequence[str],
    modifier: int,
    rate: str | None = None,
    range_modifiers: dict[str, int] | None = None,
    gm_allows_wider: bool = False,
    fire_at_feet: bool = False,
    room_size: float | None = None,
    suppression_modifier: int | None = None,
    attack_range: Target | None = None,
) -> FirePlan:
    """Validate an attack and fix everything the dice will not decide."""
    _check_attacker(attacker)
    check_modifier(modifier)
    check_weapon(weapon)
    if not targets:
        raise RuleError("$.targets", errors.NO_TARGET())
    ids = [t.id for t in targets]
    if len(set(ids)) != len(ids):
        raise RuleError("$.targets", msg.ERR_LISTED_TWICE(), code="invalid")
    for target, path in zip(targets, paths, strict=True):
        check_target(target, path)
    may_fire(attacker, weapon)
    for band_name in range_modifiers or {}:
        if band_name not in RANGE_MODIFIERS:
            raise RuleError(f"$.range_modifiers.{band_name}", msg.ERR_BAND(known=list(RANGE_MODIFIERS)))

    mode, rate_used = _mode_and_rate(mode_name, rate, weapon)
    rof = parse_rof(weapon.rof)
    thrown = weapon.weapon_class in ("thrown", "grenade")
    if thrown and mode.name != "single":
        raise RuleError("$.mode", msg.ERR_THROWN_SINGLE(weapon_class=weapon.weapon_class))
    rounds, cap = (1, 1) if thrown else mode_rof(mode, rof, weapon.name or "")
    if mode.name == "single" and len(targets) > 1:
        raise RuleError("$.targets", msg.ERR_SINGLE_TARGET())
    if weapon.loaded < rounds:
        refusal = msg.ERR_SHORT_MAGAZINE(loaded=weapon.loaded, mode=mode_word(mode), rounds=rounds)
        raise RuleError("$.mode", refusal)

    rng = weapon_range(weapon, attacker)
    needs = range_needs(weapon)
    fallback = None if attack_range is None else band_of(attack_range, rng, "$", needs)
    bands = [band_of(t, rng, p, needs) or fallback for t, p in zip(targets, paths, strict=True)]
    modifiers: list[tuple[Message, int]] = [(mode.message, mode.modifier)]
    if mode.name != "suppressing":
        if attacker.in_melee:
            modifiers.append((msg.MELEE_RANGE(), 0))
        elif bands[0] is not None:
            modifiers.append(
                (msg.RANGE(band=msg.BAND[bands[0]]()), range_modifier(bands[0], range_modifiers))
            )
    modifiers.extend(class_modifiers(attacker, weapon))
    if fire_at_feet:
        if weapon.blast is None:
            raise RuleError("$.fire_at_feet", msg.ERR_FIRE_AT_FEET())
        modifiers.append((msg.FIRE_AT_FEET(), FIRE_AT_FEET_MODIFIER))
    if modifier:
        modifiers.append((msg.OTHER_MODIFIERS(), modifier))

    shares: tuple[int, ...] = ()
    random_targets = mode.name == "suppressing"
    for index, (target, path) in enumerate(zip(targets, paths, strict=True)):
        # A share or a distance to the primary that nothing would read is refused, not dropped.
        if target.share and (random_targets or index == 0):
            refusal = msg.ERR_SHARE_RANDOM() if random_targets else msg.ERR_SHARE_PRIMARY()
            raise RuleError(f"{path}.share", refusal)
        if target.to_primary is not None and (random_targets or index == 0):
            raise RuleError(f"{path}.to_primary", msg.ERR_TO_PRIMARY_HERE())
    if not random_targets:
        for target, path in list(zip(targets, paths, strict=True))[1:]:
            reach = target.to_primary
            if reach is not None and reach > SECONDARY_REACH_METRES and not gm_allows_wider:
                refusal = msg.ERR_SECONDARY_REACH(reach=reach, most=SECONDARY_REACH_METRES)
                raise RuleError(f"{path}.to_primary", refusal)
        shares = tuple(t.share for t in targets[1:])

    dodge = DODGE_MODIFIER_WIDE_BURST if mode.wide else 0
    dodge += dodge_modifier_in_melee(attacker, weapon)

    tests: list[SuppressionTest | None] = []
    if mode.name == "suppressing":
        assert rate_used is not None
        suppression_modifier = SUPPRESSING_TEST_MODIFIERS[rate_used]
    for target, path, band in zip(targets, paths, bands, strict=True):
        in_reach = mode.name != "suppressing" or band is None or band in SUPPRESSION_TEST_BANDS
        if suppression_modifier is None or not in_reach:
            tests.append(None)
            continue
        test = SuppressionTest(target, suppression_modifier, path)
        test.check()
        tests.append(test)

    if room_size is not None and room_size <= 0:
        raise RuleError("$.room_size", msg.ERR_ROOM_SIZE(), code="invalid")
    damage = None
    if weapon.damage is not None:
        base = parse_damage(weapon.damage)
        bonus = base.bonus
        if weapon.weapon_class == "thrown":
            if attacker.sb is None:
                raise RuleError("$.attacker.sb", msg.ERR_THROWER_SB())
            bonus += attacker.sb
        room = room_effect(weapon, room_size)
        damage = DamageRoll(base.count, base.sides, bonus, room.extra_d10, room.tearing)

    return FirePlan(
        attacker=attacker,
        weapon=weapon,
        targets=tuple(targets),
        paths=tuple(paths),
        mode=mode,
        rounds=rounds,
        cap=cap,
        modifiers=tuple(modifiers),
        jam_at=jam_threshold(weapon),
        shares=shares,
        random_targets=random_targets,
        dodge_modifier=dodge,
        suppression=tuple(tests),
        damage=damage,
        cover_multiplier=cover_multiplier(weapon),
        room=room_effect(weapon, room_size),
        fire_at_feet=fire_at_feet,
    )


def keeps_brace(plan: FirePlan) -> bool:
    return braced_after(plan.attacker, plan.weapon)
