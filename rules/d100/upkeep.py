"""Looking after the weapon (seed 004, "Reload", "Clearing a jam", "Bracing", "Jams and reliability").

* ``reload``: fill the magazine to capacity, from ``reserve`` when the request tracks one; a jammed
  weapon must be cleared first (Volley's reading).
* ``unjam``: a full action, Tech-Use or Trade (Weaponsmith) +0 against ``skill``; success clears it.
* ``recover_ammo``: Trade (Weaponsmith) +10; success returns every spoiled round to the reserve.
* ``brace``: a half action that braces the weapon until its bearer moves; ``release`` lifts it.
"""

from __future__ import annotations

from rules.d100 import messages as msg
from rules.d100.checks import roll_test
from rules.d100.plan import CHARACTERISTIC_MAX, check_modifier, check_weapon
from rules.d100.requests import Brace, RecoverAmmo, Reload, Unjam, Weapon
from rules.d100.results import D100Result, D100Weapon
from rules.d100.tables import BRACE_ACTION, RECOVER_AMMO_MODIFIER, UNJAM_ACTION, UNJAM_MODIFIER
from rules.d100.updates import token_update, weapon_changes
from rules.dice import Dice
from rules.errors import RuleError
from rules.results import Message

__all__ = ["ammo_recovery_target", "brace", "recover_ammo", "reload", "unjam", "unjam_target"]


def _state(weapon: Weapon, **changes: object) -> D100Weapon:
    values: dict[str, object] = {
        "loaded": weapon.loaded,
        "jammed": weapon.jammed,
        "spoiled": weapon.spoiled,
        "braced": weapon.braced,
        "reserve": weapon.reserve,
    }
    values.update(changes)
    return D100Weapon(**values)  # type: ignore[arg-type]


def _result(
    action: str,
    token: str,
    before: Weapon,
    after: D100Weapon,
    log: list[Message],
    *,
    cost: str | None = None,
    **extra: int,
) -> D100Result:
    update = token_update(token, weapon_changes(before, after), [], [])
    return D100Result(
        system="d100",
        action=action,
        action_cost=cost,
        weapon=after,
        updates=[update] if update else [],
        log=log,
        **extra,  # type: ignore[arg-type]
    )


def _check_skill(skill: int, modifier: int) -> None:
    if not 0 <= skill <= CHARACTERISTIC_MAX:
        raise RuleError("$.skill", msg.ERR_SKILL(skill=skill, most=CHARACTERISTIC_MAX), code="invalid")
    check_modifier(modifier)


def reload(request: Reload, dice: Dice) -> D100Result:
    weapon = request.weapon
    check_weapon(weapon)
    if weapon.jammed:
        raise RuleError("$.weapon.jammed", msg.ERR_JAMMED())
    if weapon.capacity is None:
        raise RuleError("$.weapon.capacity", msg.ERR_RELOAD_CAPACITY())
    wanted = weapon.capacity - weapon.loaded
    taken = wanted if weapon.reserve is None else min(wanted, weapon.reserve)
    reserve = None if weapon.reserve is None else weapon.reserve - taken
    if wanted > 0 and taken == 0:
        raise RuleError("$.weapon.reserve", msg.ERR_NO_RESERVE())
    after = _state(weapon, loaded=weapon.loaded + taken, reserve=reserve)
    log = [msg.RELOADED(rounds=taken, loaded=after.loaded, capacity=weapon.capacity)]
    return _result("reload", request.attacker.id, weapon, after, log, spent=0)


def unjam_target(request: Unjam) -> int:
    """Validate a jam-clearing attempt and give its target number."""
    check_weapon(request.weapon)
    _check_skill(request.skill, request.modifier)
    if not request.weapon.jammed:
        raise RuleError("$.weapon.jammed", msg.ERR_NOT_JAMMED())
    return request.skill + UNJAM_MODIFIER + request.modifier


def unjam(request: Unjam, dice: Dice) -> D100Result:
    weapon = request.weapon
    record = roll_test(dice, unjam_target(request), msg.ROLL_UNJAM())
    log = [
        msg.UNJAM_TEST(
            cost=msg.COST[UNJAM_ACTION](),
            modifier=UNJAM_MODIFIER + request.modifier,
            roll=record.roll,
            need=record.target,
            success=record.success,
            degrees=record.degrees,
        ),
        msg.JAM_CLEARED() if record.success else msg.STILL_JAMMED(),
    ]
    after = _state(weapon, jammed=not record.success)
    result = _result("unjam", request.attacker.id, weapon, after, log, cost=UNJAM_ACTION)
    result.test = record
    return result


def ammo_recovery_target(request: RecoverAmmo) -> int:
    """Validate an attempt to win back spoiled rounds and give its target number."""
    check_weapon(request.weapon)
    _check_skill(request.skill, request.modifier)
    if request.weapon.spoiled == 0:
        raise RuleError("$.weapon.spoiled", msg.ERR_NO_SPOILED())
    return request.skill + RECOVER_AMMO_MODIFIER + request.modifier


def recover_ammo(request: RecoverAmmo, dice: Dice) -> D100Result:
    weapon = request.weapon
    record = roll_test(dice, ammo_recovery_target(request), msg.ROLL_RECOVER_AMMO())
    log = [
        msg.RECOVER_AMMO_TEST(
            modifier=RECOVER_AMMO_MODIFIER + request.modifier,
            roll=record.roll,
            need=record.target,
            success=record.success,
            degrees=record.degrees,
        )
    ]
    if not record.success:
        log.append(msg.ROUNDS_STAY_SPOILED(rounds=weapon.spoiled))
        result = _result("recover_ammo", request.attacker.id, weapon, _state(weapon), log)
    else:
        reserve = None if weapon.reserve is None else weapon.reserve + weapon.spoiled
        log.append(msg.ROUNDS_RECOVERED(rounds=weapon.spoiled))
        after = _state(weapon, spoiled=0, reserve=reserve)
        result = _result("recover_ammo", request.attacker.id, weapon, after, log, recovered=weapon.spoiled)
    result.test = record
    return result


def brace(request: Brace, dice: Dice) -> D100Result:
    weapon = request.weapon
    check_weapon(weapon)
    if request.release:
        log = [msg.BRACE_RELEASED()]
        after = _state(weapon, braced=False)
    else:
        if request.attacker.in_melee:
            raise RuleError("$.attacker.in_melee", msg.ERR_BRACE_IN_MELEE())
        log = [msg.BRACED(cost=msg.COST[BRACE_ACTION]())]
        after = _state(weapon, braced=True)
        return _result("brace", request.attacker.id, weapon, after, log, cost=BRACE_ACTION)
    return _result("brace", request.attacker.id, weapon, after, log)
