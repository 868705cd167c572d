"""Unjam: one attempt to clear the weapon's malfunction (B407), a 3d6 roll on the ``FIXES`` table.

A misfire or a stoppage yields to Armoury+2 or IQ-based weapon skill; a mechanical problem only to
Armoury, an hour per attempt. Success clears the jam; a critical failure makes it worse (a misfire or
stoppage becomes a mechanical problem, a mechanical problem destroys the weapon); any other failure
leaves it as it was, to be tried again.
"""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import RuleError
from rules.gurps import messages as msg
from rules.gurps.plan import check_magazine, label, weapon_name
from rules.gurps.requests import UnjamRequest
from rules.gurps.results import GurpsWeapon, UnjamAttempt, UnjamResult, weapon_update
from rules.gurps.success import judge
from rules.gurps.tables import FIXES, Fix, Malfunction, WeaponFault
from rules.odds import dice_sum
from rules.results import Odds

__all__ = ["resolve_unjam", "unjam_odds"]


def _plan(request: UnjamRequest) -> tuple[Malfunction, Fix, int]:
    """The malfunction being fixed, how, and the number to roll against."""
    weapon = request.weapon
    check_magazine(weapon)
    if not weapon.jammed:
        raise RuleError("$.weapon.jammed", msg.ERR_NOT_JAMMED(weapon=label(weapon)))
    kind = weapon.malfunction
    if kind is None:
        raise RuleError("$.weapon.malfunction", msg.ERR_WHICH_FAULT(weapon=label(weapon)))
    if kind == "destroyed":
        raise RuleError("$.weapon.malfunction", msg.ERR_DESTROYED(weapon=label(weapon)))
    fix = FIXES[kind]
    if request.using == "weapon" and not fix.weapon_skill:
        raise RuleError("$.using", msg.ERR_ARMOURY_ONLY(malfunction=kind, fault=msg.FAULT[kind]()))
    bonus = fix.armoury_bonus if request.using == "armoury" else 0
    return kind, fix, request.skill + request.modifier + bonus


def resolve_unjam(request: UnjamRequest, dice: Dice) -> UnjamResult:
    kind, fix, target = _plan(request)
    weapon = request.weapon
    check = judge(dice.total(3, 6, msg.ROLL_UNJAM(weapon=weapon_name(weapon))), target)
    fault: WeaponFault | None = None if check.success else kind
    if check.critical == "failure":
        fault = fix.botch
    jammed = fault is not None
    state = GurpsWeapon(
        name=weapon.name,
        loaded=weapon.loaded,
        capacity=weapon.capacity,
        jammed=jammed,
        malfunction=fault,
    )
    time = msg.FIX_TIME[fix.time]()
    return UnjamResult(
        system="gurps",
        action="unjam",
        weapon=state,
        unjam=UnjamAttempt(fixing=kind, using=request.using, time=time, check=check),
        updates=[weapon_update(request.attacker.id, state)],
        log=[
            msg.UNJAM(
                shooter=request.attacker.name or request.attacker.id,
                weapon=weapon_name(weapon),
                fault=msg.FAULT[kind](),
                time=time,
                skill=msg.SKILL[request.using](),
                need=target,
                roll=check.roll,
                success=check.success,
                critical=check.critical is not None,
                now=msg.FAULT[fault]() if fault is not None else None,
            )
        ],
    )


def unjam_odds(request: UnjamRequest) -> Odds:
    """``jam`` is the chance the weapon is still (or worse) jammed after this attempt."""
    _, _, target = _plan(request)
    failing = sum(p for roll, p in dice_sum(3, 6).items() if not judge(roll, target).success)
    return Odds(targets=[], jam=failing)
