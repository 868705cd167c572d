"""Which function resolves which d100 action."""

from __future__ import annotations

from rules.d100.attack import check_mode_fields, resolve_attack
from rules.d100.morale import enter_melee, resolve_recover, resolve_suppression_test
from rules.d100.overwatch import as_overwatch_order, resolve_overwatch_fire, set_overwatch
from rules.d100.requests import (
    Attack,
    Brace,
    D100Request,
    EnterMelee,
    Overwatch,
    OverwatchFire,
    Recover,
    RecoverAmmo,
    Reload,
    SuppressionTestRequest,
    Unjam,
)
from rules.d100.results import D100Result
from rules.d100.upkeep import brace, recover_ammo, reload, unjam
from rules.dice import Dice

__all__ = ["resolve"]


def resolve(request: D100Request, dice: Dice) -> D100Result:
    """Dispatch one decoded request to its action."""
    match request:
        case Attack(mode="overwatch"):
            check_mode_fields(request)
            return set_overwatch(as_overwatch_order(request))
        case Attack():
            return resolve_attack(request, dice)
        case OverwatchFire():
            return resolve_overwatch_fire(request, dice)
        case Overwatch():
            return set_overwatch(request)
        case Reload():
            return reload(request, dice)
        case Unjam():
            return unjam(request, dice)
        case RecoverAmmo():
            return recover_ammo(request, dice)
        case Brace():
            return brace(request, dice)
        case SuppressionTestRequest():
            return resolve_suppression_test(request, dice)
        case Recover():
            return resolve_recover(request, dice)
        case EnterMelee():
            return enter_melee(request, dice)
    raise TypeError(f"not a d100 request: {type(request).__name__}")
