"""Reload: fill the weapon to its capacity. No dice; a jam is left as it is (reloading clears nothing)."""

from __future__ import annotations

from rules.dice import Dice
from rules.errors import RuleError
from rules.gurps import messages as msg
from rules.gurps.plan import check_magazine, label, weapon_name
from rules.gurps.requests import ReloadRequest
from rules.gurps.results import GurpsWeapon, ReloadResult, weapon_update
from rules.results import Odds

__all__ = ["reload_odds", "resolve_reload"]


def _capacity(request: ReloadRequest) -> int:
    weapon = request.weapon
    check_magazine(weapon)
    if weapon.capacity is None:
        raise RuleError("$.weapon.capacity", msg.ERR_RELOAD_CAPACITY(weapon=label(weapon)))
    if weapon.malfunction == "destroyed":
        raise RuleError("$.weapon.malfunction", msg.ERR_DESTROYED(weapon=label(weapon)))
    return weapon.capacity


def resolve_reload(request: ReloadRequest, dice: Dice) -> ReloadResult:
    capacity = _capacity(request)
    weapon = request.weapon
    added = capacity - weapon.loaded
    state = GurpsWeapon(
        name=weapon.name,
        loaded=capacity,
        capacity=capacity,
        jammed=weapon.jammed,
        malfunction=weapon.malfunction if weapon.jammed else None,
    )
    line = msg.RELOAD(
        shooter=request.attacker.name or request.attacker.id,
        weapon=weapon_name(weapon),
        before=weapon.loaded,
        loaded=capacity,
        added=added,
        jammed=weapon.jammed,
        fault=msg.FAULT[weapon.malfunction or "unknown"]() if weapon.jammed else None,
    )
    return ReloadResult(
        system="gurps",
        action="reload",
        weapon=state,
        added=added,
        updates=[weapon_update(request.attacker.id, state)],
        log=[line],
    )


def reload_odds(request: ReloadRequest) -> Odds:
    """Nothing is left to chance: the weapon ends jammed exactly when it started jammed."""
    _capacity(request)
    return Odds(targets=[], jam=1.0 if request.weapon.jammed else 0.0)
