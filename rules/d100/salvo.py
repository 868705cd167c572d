"""One attack roll and everything that follows from it, in the order the dice are rolled.

Dice order (scripted dice follow it exactly):

1. the attack d100 (one face 1..100; "00" is 100);
2. suppressing fire only: a d``n`` per hit picking its target among the ``n`` in the sector (none when
   ``n`` is 1);
3. dodges, targets in request order, for each target with a ``dodge`` that took at least one hit;
4. hit locations, a d100 per hit that landed on the primary (secondaries are hit in the body);
5. suppression tests, targets in request order (none for targets that pass automatically);
6. a missed blast: d10 metres of scatter, then the d8 compass;
7. damage, when the weapon has a damage roll: per target in request order, per hit in order.
"""

from __future__ import annotations

import msgspec

from rules.d100 import messages as msg
from rules.d100.allocation import allocate
from rules.d100.blast import scatter
from rules.d100.checks import degrees, judge, roll_test
from rules.d100.damage import strike
from rules.d100.locations import roll_locations
from rules.d100.magazine import Magazine
from rules.d100.modes import hits_for_degrees
from rules.d100.plan import FirePlan
from rules.d100.requests import Target
from rules.d100.results import Check, D100Target, HitRecord, Scatter, Suppression
from rules.d100.suppression import aftermath, aftermath_lines
from rules.d100.tables import ATTACK_ALWAYS_MISSES_AT, GRENADE_SAFE_DEGREES, UNJAM_ACTION, UNJAM_MODIFIER
from rules.dice import Dice
from rules.results import Message

__all__ = ["Salvo", "attack_outcome", "fire"]


class Salvo(msgspec.Struct):
    test: Check
    hits: int
    jammed: bool
    magazine: Magazine
    spent: int
    spoiled: int
    targets: list[D100Target]
    scatter: list[Scatter] = msgspec.field(default_factory=list)
    grenade_at_feet: bool = False
    thrower_in_blast: bool = False


class Landing(msgspec.Struct, frozen=True):
    """Where a thrown or blast attack ends up, beyond the hits it scores."""

    scatter: list[Scatter] = msgspec.field(default_factory=list)
    at_feet: bool = False
    thrower_caught: bool = False


def attack_outcome(plan: FirePlan, face: int) -> tuple[Check, bool, int]:
    """(the judged test, whether it jams, hits before dodges) for one attack face.

    A roll at or past the jam threshold is a critical failure: it misses even under the target number.
    """
    target_number = plan.target_number
    check = judge(face, target_number, attack=True)
    jams = plan.jam_at is not None and face >= plan.jam_at
    if jams:
        check = Check(
            roll=face,
            target=target_number,
            success=False,
            degrees=degrees(face, target_number, False),
            note=msg.JAMS(at=plan.jam_at),
        )
    hits = hits_for_degrees(plan.mode.hit_rule, check.degrees, plan.cap) if check.success else 0
    return check, jams, hits


def _name(target: Target) -> str:
    return target.name or target.id


def _counts(plan: FirePlan, hits: int, dice: Dice, log: list[Message]) -> list[int]:
    if not plan.random_targets:
        return allocate(hits, plan.shares)
    counts = [0] * len(plan.targets)
    for _ in range(hits):
        pick = dice.d(len(plan.targets), msg.ROLL_RANDOM_TARGET()) - 1 if len(plan.targets) > 1 else 0
        counts[pick] += 1
    if hits:
        spread = [
            msg.TARGET_SHARE(target=_name(t), hits=c) for t, c in zip(plan.targets, counts, strict=True)
        ]
        log.append(msg.RANDOM_HITS(spread=spread))
    return counts


def _dodges(
    plan: FirePlan, counts: list[int], dice: Dice, log: list[Message]
) -> tuple[list[Check | None], list[int]]:
    """Each target with a Dodge that took a hit tries it: a pass negates a hit per degree."""
    dodges: list[Check | None] = []
    dodged: list[int] = []
    for target, count in zip(plan.targets, counts, strict=True):
        if count == 0 or target.dodge is None:
            dodges.append(None)
            dodged.append(0)
            continue
        record = roll_test(dice, target.dodge + plan.dodge_modifier, msg.ROLL_DODGE(target=_name(target)))
        negated = min(count, record.degrees) if record.success else 0
        log.append(
            msg.DODGE(
                target=_name(target),
                modifier=plan.dodge_modifier,
                roll=record.roll,
                need=record.target,
                success=record.success,
                degrees=record.degrees,
                negated=negated,
            )
        )
        dodges.append(record)
        dodged.append(negated)
    return dodges, dodged


def _locations(plan: FirePlan, landed: list[int], dice: Dice, log: list[Message]) -> list[list[str]]:
    """The primary's hits roll their locations; everyone else is hit in the body."""
    locations: list[list[str]] = []
    for index, (target, count) in enumerate(zip(plan.targets, landed, strict=True)):
        if index == 0 and not plan.random_targets:
            rolled = roll_locations(dice, count, _name(target))
            if rolled:
                where = [msg.LOCATION[name]() for name in rolled]
                log.append(msg.HIT_LOCATIONS(target=_name(target), locations=where))
            locations.append(rolled)
        else:
            locations.append(["body"] * count)
    return locations


def _where_it_lands(plan: FirePlan, check: Check, dice: Dice, log: list[Message]) -> Landing:
    """Grenade fumbles, melee grenades and missed blasts: scatter, and whether the thrower is caught."""
    grenade = plan.weapon.weapon_class == "grenade"
    in_melee = grenade and plan.attacker.in_melee
    if grenade and check.roll >= ATTACK_ALWAYS_MISSES_AT:
        log.append(msg.FUMBLE())
        return Landing(at_feet=True, thrower_caught=plan.weapon.blast is not None)
    if in_melee and not check.success:
        log.append(msg.MISSED_IN_MELEE())
        return Landing()
    if in_melee and plan.weapon.blast is not None:
        if check.degrees >= GRENADE_SAFE_DEGREES:
            log.append(msg.THROWER_CLEAR(degrees=GRENADE_SAFE_DEGREES))
            return Landing()
        log.append(msg.THROWER_CAUGHT(degrees=GRENADE_SAFE_DEGREES))
        return Landing(thrower_caught=True)
    if plan.weapon.blast is None or check.success:
        return Landing()
    landed_at = scatter(dice, plan.room.radius)
    log.append(
        msg.SCATTER(metres=landed_at.metres, direction=msg.COMPASS_POINT[landed_at.direction.lower()]())
    )
    return Landing(scatter=[landed_at])


def _damage(
    plan: FirePlan, locations: list[list[str]], cover_aps: list[int], dice: Dice, log: list[Message]
) -> list[list[HitRecord]]:
    """Roll each hit's damage through cover and armour; cover that lets a hit through loses 1 AP."""
    records: list[list[HitRecord]] = []
    for index, target in enumerate(plan.targets):
        records.append([])
        for location in locations[index]:
            if plan.damage is None:
                records[index].append(HitRecord(location=location))
                continue
            amount = plan.damage.roll(dice, _name(target))
            hit = strike(
                amount,
                target,
                location,
                cover_ap=cover_aps[index],
                multiplier=plan.cover_multiplier,
                pen=plan.weapon.pen,
            )
            if hit.cover_penetrated:
                cover_aps[index] = max(0, cover_aps[index] - 1)
            records[index].append(hit)
            log.append(_damage_line(target, hit))
    return records


def fire(plan: FirePlan, dice: Dice, magazine: Magazine, cover_aps: list[int], log: list[Message]) -> Salvo:
    """Roll one attack of ``plan`` in the documented dice order; ``cover_aps`` is worn down in place."""
    for label, value in plan.modifiers:
        log.append(msg.MODIFIER(label=label, value=value))
    check, jams, hits = attack_outcome(plan, dice.d(100, msg.ROLL_ATTACK(mode=plan.mode.message)))
    log.append(
        msg.ATTACK_TEST(
            bs=plan.attacker.bs,
            roll=check.roll,
            need=check.target,
            success=check.success,
            degrees=check.degrees,
            note=check.note,
            hits=hits,
        )
    )

    counts = _counts(plan, hits, dice, log)
    dodges, dodged = _dodges(plan, counts, dice, log)
    landed = [count - gone for count, gone in zip(counts, dodged, strict=True)]
    locations = _locations(plan, landed, dice, log)
    outcomes: list[Suppression | None] = [test.roll(dice, log) if test else None for test in plan.suppression]
    landing = _where_it_lands(plan, check, dice, log)
    records = _damage(plan, locations, cover_aps, dice, log)

    kept = plan.weapon.weapon_class == "grenade" and plan.attacker.in_melee and not check.success
    spent = 0 if kept and not landing.at_feet else plan.rounds
    after, spoiled = magazine.fire(spent, jams=jams)
    if jams:
        log.append(msg.JAM(spoiled=spoiled, modifier=UNJAM_MODIFIER, cost=msg.COST[UNJAM_ACTION]()))

    results: list[D100Target] = []
    for index, target in enumerate(plan.targets):
        state = aftermath(target, outcomes[index])
        log.extend(aftermath_lines(target, state))
        results.append(
            D100Target(
                id=target.id,
                name=target.name,
                hits=landed[index],
                primary=index == 0 and not plan.random_targets,
                locations=locations[index],
                hit_records=records[index] if plan.damage is not None else [],
                dodge=dodges[index],
                dodge_modifier=plan.dodge_modifier,
                dodged=dodged[index],
                suppression=outcomes[index],
                suppressed=state.suppressed,
                prone=state.prone,
                must_seek_cover=state.must_seek_cover,
                cover_ap=cover_aps[index] if target.in_cover else None,
                wounds=sum(r.wounds or 0 for r in records[index]) if plan.damage is not None else None,
            )
        )
    return Salvo(
        check,
        hits,
        jams,
        after,
        spent,
        spoiled,
        results,
        landing.scatter,
        landing.at_feet,
        landing.thrower_caught,
    )


def _damage_line(target: Target, record: HitRecord) -> Message:
    return msg.DAMAGE(
        target=_name(target),
        location=msg.LOCATION[record.location](),
        damage=record.damage,
        armour=record.armour,
        covered=record.cover is not None,
        cover=record.cover,
        through=bool(record.cover_penetrated),
        tb=target.tb,
        wounds=record.wounds,
    )
