"""Overwatch (seed 004, "Overwatch"): a standing order, kept as token state, and the fire it triggers.

* ``overwatch`` (a full action) sets the order: a sector of at most 45 degrees, a trigger and the mode
  to answer it with; ``clear`` lifts it. The order lives in the ``overwatch`` flag until it fires or
  the shooter's next turn begins.
* ``overwatch_fire``: the trigger is met; it needs the standing order. The shooter fires a single
  shot, a short burst or a long burst. Single shots may go to several targets, one shot each: at most
  half the BS bonus (rounded down, but never fewer than one), and no more than the weapon's highest
  RoF; each is its own attack roll. Every target shot at
  tests suppression at +20 straight after its shot. A jam ends the volley: later targets are not shot.
  Firing uses the order up.
"""

from __future__ import annotations

import msgspec

from rules.d100 import messages as msg
from rules.d100.attack import attacker_state, finish
from rules.d100.handling import may_fire
from rules.d100.magazine import Magazine
from rules.d100.modes import MODES, mode_rof
from rules.d100.plan import FirePlan, check_weapon, plan_fire
from rules.d100.requests import Attack, Overwatch, OverwatchFire, OverwatchOrder, Target, attack_range
from rules.d100.results import AttackerState, D100Result, D100Target, Shot
from rules.d100.rof import parse_rof
from rules.d100.salvo import Salvo, fire
from rules.d100.tables import OVERWATCH_ACTION, OVERWATCH_SUPPRESSION_MODIFIER, SECTOR_MAX_DEGREES
from rules.dice import Dice
from rules.errors import RuleError
from rules.results import Message, TokenUpdate

__all__ = [
    "as_overwatch_order",
    "max_single_shots",
    "plan_overwatch",
    "resolve_overwatch_fire",
    "set_overwatch",
]

MAX_ARC = SECTOR_MAX_DEGREES
#: Single-shot overwatch fires at least this many shots, whatever half the BS bonus comes to.
MIN_SINGLE_SHOTS = 1


def set_overwatch(request: Overwatch) -> D100Result:
    log: list[Message] = []
    if request.clear:
        if request.order is not None:
            raise RuleError("$.order", msg.ERR_CLEAR_WITH_ORDER())
        order = None
        log.append(msg.OVERWATCH_LIFTED())
    else:
        order = request.order or OverwatchOrder()
        if not 0 < order.arc <= MAX_ARC:
            raise RuleError("$.order.arc", msg.ERR_OVERWATCH_ARC(most=MAX_ARC))
        if request.weapon is not None:
            check_weapon(request.weapon)
            may_fire(request.attacker, request.weapon)
            try:
                mode_rof(MODES[order.mode], parse_rof(request.weapon.rof), request.weapon.name or "")
            except RuleError as error:
                raise RuleError("$.order.mode", error.msg or error.message) from None
        log.append(
            msg.OVERWATCH_SET(
                cost=msg.COST[OVERWATCH_ACTION](),
                mode=MODES[order.mode].message,
                arc=order.arc,
                facing=order.facing,
                trigger=order.trigger,
            )
        )
    value = None if order is None else msgspec.to_builtins(order)
    return D100Result(
        system="d100",
        action="overwatch",
        action_cost=None if order is None else OVERWATCH_ACTION,
        attacker=AttackerState(
            id=request.attacker.id,
            suppressed=request.attacker.suppressed,
            prone=request.attacker.prone,
            overwatch=order,
        ),
        updates=[TokenUpdate(token=request.attacker.id, state={"overwatch": value})],
        log=log,
    )


def as_overwatch_order(request: Attack) -> Overwatch:
    """An ``attack`` in mode ``overwatch`` is the ``overwatch`` action under another name."""
    return Overwatch(system="d100", attacker=request.attacker, weapon=request.weapon, order=request.order)


def max_single_shots(bs: int, highest_rof: int) -> int:
    """Half the BS bonus (tens digit of BS), rounded down, but no more than the highest RoF.

    Never fewer than one: overwatch always allows a single shot at whoever trips it; half the BS bonus
    is how many targets a steady shooter may take on (Volley's reading for BS below 20).
    """
    return max(MIN_SINGLE_SHOTS, min((bs // 10) // 2, highest_rof))


def _order(request: OverwatchFire) -> OverwatchOrder:
    if request.attacker.overwatch is None:
        raise RuleError("$.attacker.overwatch", msg.ERR_NO_OVERWATCH())
    return request.attacker.overwatch


def plan_overwatch(request: OverwatchFire) -> list[FirePlan]:
    """One plan per attack roll: one per target for single shots, one for a burst."""
    order = _order(request)
    mode = request.mode or order.mode
    paths = [f"$.targets[{i}]" for i in range(len(request.targets))]

    def plan(mode_name: str, targets: list[Target], where: list[str]) -> FirePlan:
        try:
            return plan_fire(
                mode_name=mode_name,
                attacker=request.attacker,
                weapon=request.weapon,
                targets=targets,
                paths=where,
                modifier=request.modifier,
                range_modifiers=request.range_modifiers,
                gm_allows_wider=request.gm_allows_wider,
                room_size=request.room_size,
                attack_range=attack_range(request),
                suppression_modifier=OVERWATCH_SUPPRESSION_MODIFIER,
            )
        except RuleError as error:
            if error.path != "$.mode" or request.mode is not None:
                raise
            # The mode came from the standing order, not from a field of this request.
            raise RuleError(
                "$.attacker.overwatch.mode", error.msg or error.message, code=error.code
            ) from None

    if mode != "single":
        return [plan(mode, request.targets, paths)]
    if not request.targets:
        raise RuleError("$.targets", msg.ERR_OVERWATCH_TARGET())
    ids = [t.id for t in request.targets]
    if len(set(ids)) != len(ids):
        raise RuleError("$.targets", msg.ERR_OVERWATCH_DIFFERENT())
    check_weapon(request.weapon)
    highest = parse_rof(request.weapon.rof).highest
    limit = max_single_shots(request.attacker.bs, highest)
    if len(request.targets) > limit:
        refusal = msg.ERR_OVERWATCH_SHOTS(
            limit=limit, bonus=request.attacker.bs // 10, highest=highest, shots=len(request.targets)
        )
        raise RuleError("$.targets", refusal)
    if request.weapon.loaded < len(request.targets):
        refusal = msg.ERR_OVERWATCH_ROUNDS(loaded=request.weapon.loaded, shots=len(request.targets))
        raise RuleError("$.targets", refusal)
    return [plan("single", [target], [path]) for target, path in zip(request.targets, paths, strict=True)]


def resolve_overwatch_fire(request: OverwatchFire, dice: Dice) -> D100Result:
    plans = plan_overwatch(request)
    log: list[Message] = [msg.OVERWATCH_TRIGGERED(mode=plans[0].mode.message)]
    state = attacker_state(request.attacker, log, overwatch_cleared=True)
    weapon = request.weapon
    magazine = Magazine(weapon.loaded, weapon.spoiled, weapon.jammed)
    salvos: list[Salvo] = []
    targets: list[D100Target] = []
    shots: list[Shot] = []
    for plan in plans:
        if magazine.jammed:
            for target in plan.targets:
                log.append(msg.NOT_SHOT(target=target.name or target.id))
                targets.append(_unshot(target))
            continue
        salvo = fire(plan, dice, magazine, [t.cover_ap for t in plan.targets], log)
        magazine = salvo.magazine
        salvos.append(salvo)
        targets.extend(salvo.targets)
        if len(plans) > 1:
            shots.append(
                Shot(
                    target=plan.targets[0].id,
                    test=salvo.test,
                    hits=salvo.targets[0].hits,
                    jammed=salvo.jammed,
                )
            )
    result = finish(
        action="overwatch_fire",
        plan=plans[0],
        salvos=salvos,
        targets=targets,
        weapon=weapon,
        magazine=magazine,
        attacker=state,
        log=log,
        clear_overwatch=True,
        originals=list(request.targets),
    )
    return msgspec.structs.replace(result, shots=shots)


def _unshot(target: Target) -> D100Target:
    return D100Target(
        id=target.id, name=target.name, hits=0, suppressed=target.suppressed, prone=target.prone
    )
