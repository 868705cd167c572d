"""Resolve a rapid-fire attack with dice (its exact odds without them are ``rules.gurps.odds``).

Order of the dice (and of scripted faces): for each target in request order, the to-hit 3d6; then, if
that roll is at or above Malf, the malfunction table's 3d6 (and no further targets are fired at);
otherwise, if the target dodges a hit that is not critical, its dodge 3d6.

Malfunction (B407) is read off the unmodified to-hit roll before anything else, so it takes the place
of a critical failure on the same roll.
"""

from __future__ import annotations

from rules.dice import Dice
from rules.gurps import messages as msg
from rules.gurps.plan import (
    FirePlan,
    Volley,
    dodge_score,
    dodged_hits,
    plan_attack,
    weapon_name,
)
from rules.gurps.requests import AttackRequest
from rules.gurps.results import AttackResult, GurpsTarget, GurpsWeapon, Outcome, weapon_update
from rules.gurps.success import Check, judge
from rules.gurps.tables import EXPLOSION_RISK, ROUNDS_SPENT, Malfunction, malfunction_kind
from rules.results import Message

__all__ = ["resolve_attack"]


def _aim(request: AttackRequest, plan: FirePlan, volley: Volley) -> Message:
    return msg.AIM.make(
        shooter=request.attacker.name or request.attacker.id,
        target=volley.name,
        weapon=weapon_name(request.weapon),
        shots=volley.shots,
        pellets=volley.projectiles if plan.rof.pellets > 1 else 0,
        skill=request.attacker.skill,
        bonus=volley.bonus,
        modifier=volley.target.modifier,
        effective=volley.effective,
    )


def _target(
    volley: Volley,
    outcome: Outcome,
    *,
    hits: int = 0,
    attack: Check | None = None,
    scored: int = 0,
    dodge: Check | None = None,
    dodged: int = 0,
) -> GurpsTarget:
    return GurpsTarget(
        id=volley.target.id,
        name=volley.target.name,
        hits=hits,
        outcome=outcome,
        shots=volley.shots,
        projectiles=volley.projectiles,
        bonus=volley.bonus,
        effective=volley.effective,
        attack=attack,
        scored=scored,
        dodge=dodge,
        dodged=dodged,
    )


def _fire(
    request: AttackRequest, plan: FirePlan, volley: Volley, roll: int, *, dice: Dice, log: list[Message]
) -> GurpsTarget:
    """One target's attack roll that did not malfunction, and its dodge. (Every attack comes here:
    the aim line and the target's result are written out, not built through ``_aim`` and ``_target``.)"""
    target = volley.target
    effective = volley.effective
    attack = judge(roll, effective)
    name = target.name or target.id
    attacker = request.attacker
    log.append(
        msg.AIM.make(
            shooter=attacker.name or attacker.id,
            target=name,
            weapon=weapon_name(request.weapon),
            shots=volley.shots,
            pellets=volley.projectiles if plan.rof.pellets > 1 else 0,
            skill=attacker.skill,
            bonus=volley.bonus,
            modifier=target.modifier,
            effective=effective,
        )
    )
    if not attack.success:
        missed: Outcome = "critical miss" if attack.critical == "failure" else "miss"
        log.append(
            msg.MISS.make(
                target=name,
                roll=attack.roll,
                effective=attack.target,
                by=-attack.margin,
                critical=attack.critical == "failure",
            )
        )
        return GurpsTarget(
            id=target.id,
            name=target.name,
            hits=0,
            outcome=missed,
            shots=volley.shots,
            projectiles=volley.projectiles,
            bonus=volley.bonus,
            effective=effective,
            attack=attack,
        )
    scored = volley.hits(attack, plan.rcl)
    critical = attack.critical == "success"
    log.append(
        msg.HIT.make(
            target=name,
            roll=attack.roll,
            effective=attack.target,
            by=attack.margin,
            critical=critical,
            hits=scored,
            rcl=plan.rcl,
        )
    )
    dodge: Check | None = None
    dodged = 0
    score = dodge_score(volley, attack, scored)
    if score is not None:
        dodge = judge(dice.total(3, 6, msg.ROLL_DODGE.make(target=name)), score)
        dodged = dodged_hits(scored, dodge, plan.dodge_step)
        log.append(
            msg.DODGE.make(
                target=name,
                dodge=score,
                roll=dodge.roll,
                by=dodge.margin if dodge.success else -dodge.margin,
                success=dodge.success,
                critical=dodge.critical is not None,
                dodged=dodged,
                landed=scored - dodged,
                scored=scored,
            )
        )
    elif critical and target.dodge is not None:
        log.append(msg.CRITICAL_NOT_DODGED.make(target=name))
    hits = scored - dodged
    outcome: Outcome = "dodged" if hits == 0 else ("critical hit" if critical else "hit")
    return GurpsTarget(
        id=target.id,
        name=target.name,
        hits=hits,
        outcome=outcome,
        shots=volley.shots,
        projectiles=volley.projectiles,
        bonus=volley.bonus,
        effective=effective,
        attack=attack,
        scored=scored,
        dodge=dodge,
        dodged=dodged,
    )


def resolve_attack(request: AttackRequest, dice: Dice) -> AttackResult:
    plan = plan_attack(request)
    weapon = request.weapon
    log: list[Message] = []
    targets: list[GurpsTarget] = []
    spent = 0
    fault: Malfunction | None = None
    explosion_risk = False
    for volley in plan.volleys:
        if fault is not None:
            log.append(msg.NOT_FIRED(target=volley.name, weapon=weapon_name(weapon)))
            targets.append(_target(volley, "not fired"))
            continue
        roll = dice.total(3, 6, msg.ROLL_TO_HIT.make(target=volley.name))
        if roll >= plan.malf:
            table_roll = dice.total(3, 6, msg.ROLL_MALFUNCTION(weapon=weapon_name(weapon)))
            fault = malfunction_kind(table_roll)
            explosion_risk = fault == "mechanical" and table_roll in EXPLOSION_RISK
            used = min(ROUNDS_SPENT[fault], volley.shots)
            spent += used
            log.append(_aim(request, plan, volley))
            log.append(
                msg.MALFUNCTION(
                    target=volley.name,
                    roll=roll,
                    malf=plan.malf,
                    weapon=weapon_name(weapon),
                    table_roll=table_roll,
                    fault=msg.FAULT[fault](),
                    rounds=used,
                )
            )
            if explosion_risk:
                log.append(msg.EXPLOSION_RISK())
            targets.append(_target(volley, "malfunction"))
            continue
        spent += volley.shots
        targets.append(_fire(request, plan, volley, roll, dice=dice, log=log))
    state = GurpsWeapon(
        name=weapon.name,
        loaded=weapon.loaded - spent,
        capacity=weapon.capacity,
        jammed=fault is not None,
        malfunction=fault,
        spent=spent,
        explosion_risk=explosion_risk,
    )
    log.append(
        msg.WEAPON_AFTER.make(
            weapon=weapon_name(weapon),
            loaded=state.loaded,
            jammed=state.jammed,
            fault=msg.FAULT[fault]() if fault else None,
        )
    )
    return AttackResult(
        system="gurps",
        action="attack",
        targets=targets,
        weapon=state,
        updates=[weapon_update(request.attacker.id, state)],
        log=log,
    )
