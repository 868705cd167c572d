"""The ``attack`` action: one attack in any mode (seed 004, "Shooting" and "Suppressing fire")."""

from __future__ import annotations

from rules.d100 import messages as msg
from rules.d100.magazine import Magazine
from rules.d100.plan import FirePlan, keeps_brace, plan_fire
from rules.d100.requests import Attack, Attacker, Target, Weapon, attack_range
from rules.d100.results import AttackerState, D100Result, D100Target, D100Weapon
from rules.d100.salvo import Salvo, fire
from rules.d100.tables import SECTOR_MAX_DEGREES, SUPPRESSED_ACTION_POINTS, SUPPRESSED_BS_MODIFIER
from rules.d100.updates import target_update, token_update, weapon_changes
from rules.dice import Dice
from rules.errors import RuleError
from rules.results import Message, TokenUpdate

__all__ = ["attacker_state", "check_mode_fields", "finish", "mode_name", "plan_attack", "resolve_attack"]


def mode_name(request: Attack) -> str:
    """The mode to plan: ``wide_burst`` needs its ``base`` burst."""
    if request.mode != "wide_burst":
        return request.mode
    if request.base is None:
        raise RuleError("$.base", msg.ERR_WIDE_BASE())
    return f"wide_{request.base}"


def check_mode_fields(request: Attack) -> None:
    """Fields that belong to one mode are refused with any other, never dropped: a referee's typo
    (``rate`` on a long burst, ``base`` on a short one) must not half-work."""
    mode = request.mode
    if mode != "suppressing":
        said = msg.MODE_WORD[mode]()
        if request.rate is not None:
            raise RuleError("$.rate", msg.ERR_RATE_NOT_SUPPRESSING(mode=said))
        if request.arc is not None:
            raise RuleError("$.arc", msg.ERR_ARC_NOT_SUPPRESSING(mode=said))
    if request.base is not None and mode != "wide_burst":
        raise RuleError("$.base", msg.ERR_BASE_NOT_WIDE())
    if request.order is not None and mode != "overwatch":
        raise RuleError("$.order", msg.ERR_ORDER_NOT_OVERWATCH())
    if mode == "overwatch":
        firing = {
            "targets": bool(request.targets),
            "modifier": request.modifier != 0,
            "band": request.band is not None,
            "range_band": request.range_band is not None,
            "distance": request.distance is not None,
            "range_modifiers": request.range_modifiers is not None,
            "fire_at_feet": request.fire_at_feet,
            "room_size": request.room_size is not None,
            "gm_allows_wider": request.gm_allows_wider,
        }
        for field, given in firing.items():
            if given:
                raise RuleError(f"$.{field}", msg.ERR_OVERWATCH_FIELD(field=field))


def plan_attack(request: Attack) -> FirePlan:
    check_mode_fields(request)
    if request.mode == "overwatch":
        raise RuleError("$.mode", msg.ERR_OVERWATCH_MODE())
    if request.arc is not None and not 0 < request.arc <= SECTOR_MAX_DEGREES:
        raise RuleError("$.arc", msg.ERR_SECTOR(most=SECTOR_MAX_DEGREES, arc=request.arc))
    return plan_fire(
        mode_name=mode_name(request),
        attacker=request.attacker,
        weapon=request.weapon,
        targets=request.targets,
        paths=[f"$.targets[{i}]" for i in range(len(request.targets))],
        modifier=request.modifier,
        rate=request.rate,
        range_modifiers=request.range_modifiers,
        gm_allows_wider=request.gm_allows_wider,
        fire_at_feet=request.fire_at_feet,
        room_size=request.room_size,
        attack_range=attack_range(request),
    )


def attacker_state(
    attacker: Attacker, log: list[Message], *, overwatch_cleared: bool = False
) -> AttackerState:
    """The shooter's card: a suppressed shooter (not in melee) has 1 AP a turn and -20 BS."""
    suppressed = attacker.suppressed and not attacker.in_melee
    if suppressed:
        log.append(msg.SHOOTER_SUPPRESSED(ap=SUPPRESSED_ACTION_POINTS, modifier=SUPPRESSED_BS_MODIFIER))
    return AttackerState(
        id=attacker.id,
        suppressed=attacker.suppressed,
        prone=attacker.prone,
        overwatch=None if overwatch_cleared else attacker.overwatch,
        action_points=SUPPRESSED_ACTION_POINTS if suppressed else None,
        bs_modifier=SUPPRESSED_BS_MODIFIER if suppressed else 0,
    )


def finish(
    *,
    action: str,
    plan: FirePlan,
    salvos: list[Salvo],
    targets: list[D100Target],
    weapon: Weapon,
    magazine: Magazine,
    attacker: AttackerState,
    log: list[Message],
    clear_overwatch: bool = False,
    originals: list[Target],
    action_cost: str | None = None,
) -> D100Result:
    """Gather the salvos into the result and its token updates."""
    after = D100Weapon(
        loaded=magazine.loaded,
        jammed=magazine.jammed,
        spoiled=magazine.spoiled,
        braced=keeps_brace(plan),
        reserve=weapon.reserve,
    )
    changes = weapon_changes(weapon, after)
    if clear_overwatch:
        changes["overwatch"] = None
    updates: list[TokenUpdate] = []
    own = token_update(plan.attacker.id, changes, [], [])
    if own is not None:
        updates.append(own)
    by_id = {t.id: t for t in originals}
    for result in targets:
        update = target_update(by_id[result.id], result)
        if update is not None:
            updates.append(update)
    return D100Result(
        system="d100",
        action=action,
        mode=plan.mode.name,
        action_cost=action_cost,
        targets=targets,
        weapon=after,
        test=salvos[0].test if len(salvos) == 1 else None,
        spent=sum(s.spent for s in salvos),
        spoiled=sum(s.spoiled for s in salvos),
        scatter=[spot for s in salvos for spot in s.scatter],
        attacker=attacker,
        enclosed=plan.room.enclosed,
        grenade_at_feet=any(s.grenade_at_feet for s in salvos),
        thrower_in_blast=any(s.thrower_in_blast for s in salvos),
        blast_radius=plan.room.radius,
        concussive=plan.room.concussive,
        updates=updates,
        log=log,
    )


def resolve_attack(request: Attack, dice: Dice) -> D100Result:
    plan = plan_attack(request)
    log: list[Message] = [msg.ATTACK_MODE(mode=plan.mode.message, cost=msg.COST[plan.mode.action]())]
    state = attacker_state(request.attacker, log)
    weapon = request.weapon
    magazine = Magazine(weapon.loaded, weapon.spoiled, weapon.jammed)
    salvo = fire(plan, dice, magazine, [t.cover_ap for t in request.targets], log)
    return finish(
        action="attack",
        plan=plan,
        salvos=[salvo],
        targets=salvo.targets,
        weapon=weapon,
        magazine=salvo.magazine,
        attacker=state,
        log=log,
        originals=list(request.targets),
        action_cost=plan.mode.action,
    )
