"""Resolve a rapid-fire attack with dice, or give its exact odds without them.

Order of the dice (and of scripted faces): for each target in request order, the to-hit 3d6; then, if
that roll is at or above Malf, the malfunction table's 3d6 (and no further targets are fired at);
otherwise, if the target dodges a hit that is not critical, its dodge 3d6.

Malfunction (B407) is read off the unmodified to-hit roll before anything else, so it takes the place
of a critical failure on the same roll.
"""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import RuleError
from rules.gurps import messages as msg
from rules.gurps.requests import AttackRequest
from rules.gurps.results import AttackResult, GurpsTarget, GurpsWeapon, Outcome, weapon_update
from rules.gurps.success import Check, judge
from rules.gurps.tables import EXPLOSION_RISK, ROUNDS_SPENT, Malfunction, malfunction_kind
from rules.gurps.volley import (
    FirePlan,
    Volley,
    dodge_score,
    dodged_hits,
    parse_rof,
    plan_attack,
    weapon_name,
)
from rules.odds import Dist, constant, dice_sum, hits_list, map_outcomes, mixture
from rules.results import Message, Odds, TargetOdds

__all__ = ["attack_odds", "attack_odds_cost", "resolve_attack"]


def _aim(request: AttackRequest, plan: FirePlan, volley: Volley) -> Message:
    return msg.AIM(
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
    """One target's attack roll that did not malfunction, and its dodge."""
    attack = judge(roll, volley.effective)
    log.append(_aim(request, plan, volley))
    if not attack.success:
        missed: Outcome = "critical miss" if attack.critical == "failure" else "miss"
        log.append(
            msg.MISS(
                target=volley.name,
                roll=attack.roll,
                effective=attack.target,
                by=-attack.margin,
                critical=attack.critical == "failure",
            )
        )
        return _target(volley, missed, attack=attack)
    scored = volley.hits(attack, plan.rcl)
    critical = attack.critical == "success"
    log.append(
        msg.HIT(
            target=volley.name,
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
        dodge = judge(dice.total(3, 6, msg.ROLL_DODGE(target=volley.name)), score)
        dodged = dodged_hits(scored, dodge, plan.dodge_step)
        log.append(
            msg.DODGE(
                target=volley.name,
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
    elif critical and volley.target.dodge is not None:
        log.append(msg.CRITICAL_NOT_DODGED(target=volley.name))
    hits = scored - dodged
    outcome: Outcome = "dodged" if hits == 0 else ("critical hit" if critical else "hit")
    return _target(volley, outcome, hits=hits, attack=attack, scored=scored, dodge=dodge, dodged=dodged)


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
        roll = dice.total(3, 6, msg.ROLL_TO_HIT(target=volley.name))
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
        msg.WEAPON_AFTER(
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


def _after_dodge(scored: int, dodge: int, step: int) -> Dist:
    """Hits that land out of ``scored`` once a target with ``dodge`` rolls against them."""
    return map_outcomes(dice_sum(3, 6), lambda face: scored - dodged_hits(scored, judge(face, dodge), step))


def _volley_odds(plan: FirePlan, volley: Volley) -> tuple[float, Dist]:
    """P(this roll malfunctions), and the hits that land on this target given it is fired at."""
    three_d6 = dice_sum(3, 6)
    malfunction = 0.0
    parts: list[tuple[float, Dist]] = []
    for roll, p in three_d6.items():
        if roll >= plan.malf:
            malfunction += p
            parts.append((p, constant(0)))
            continue
        attack = judge(roll, volley.effective)
        scored = volley.hits(attack, plan.rcl)
        score = dodge_score(volley, attack, scored)
        parts.append((p, constant(scored) if score is None else _after_dodge(scored, score, plan.dodge_step)))
    return malfunction, mixture(parts)


def attack_odds(request: AttackRequest) -> Odds:
    """Exact: each target's hits after its dodge, and the chance the weapon ends the attack jammed.

    A target is fired at only if no earlier target's roll malfunctioned, so its distribution is a
    mixture of its own and "no hits" weighted by that chance.
    """
    plan = plan_attack(request)
    reached = 1.0  # the chance no earlier roll malfunctioned
    jam = 0.0
    targets: list[TargetOdds] = []
    for volley in plan.volleys:
        malfunction, hits = _volley_odds(plan, volley)
        dist = mixture([(reached, hits), (1.0 - reached, constant(0))])
        targets.append(TargetOdds(id=volley.target.id, hits=hits_list(dist, volley.projectiles + 1)))
        jam += reached * malfunction
        reached *= 1.0 - malfunction
    return Odds(targets=targets, jam=jam)


def attack_odds_cost(request: AttackRequest) -> float:
    """About how many milliseconds :func:`attack_odds` takes (``RuleSystem.odds_cost``), read off the
    request without planning it: the estimate runs on the bridge's event loop.

    Measured on a busy two-core machine: each dodging target costs about 0.3 ms (its dodge is mixed
    into every successful to-hit roll), any target about 0.03 ms, and each projectile's entry in the
    published ``hits`` list about 0.3 microseconds. The figures err high: an estimate too high only
    sends a preview to a worker, one too low stalls every other client.
    """
    try:
        rof = parse_rof(request.weapon.rof)
    except RuleError:
        return 0.0  # refused wherever it is computed, at once
    if not 0 < request.shots <= rof.shots:
        return 0.0  # likewise
    projectiles = request.shots * rof.pellets
    dodging = sum(1 for target in request.targets if target.dodge is not None)
    return 0.05 + 0.35 * dodging + 0.03 * len(request.targets) + 0.0003 * projectiles
