"""One rapid-fire attack, planned and judged: the rules both ``resolve`` and ``odds`` go through.

Seed 001 (B373): fire 1..RoF shots, never more than are loaded; the number of shots gives a bonus to
hit; success scores one hit plus one per full multiple of Rcl in the margin, never more than shots
fired. A shotgun's ``"3x9"`` fires 3 shots of 9 pellets: pellets count for the bonus and the hit cap,
shots for ammunition (B409).

Several targets (B373-374): each gets the number of shots the request gives it and its own attack roll,
with the bonus for its own shots. Targets are fired at in request order.

Dodging rapid fire (B375): a success avoids one hit plus one per point of margin; a critical success
avoids them all; a critical hit cannot be dodged.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import msgspec

from rules import errors
from rules.errors import RuleError
from rules.gurps import messages as msg
from rules.gurps.requests import AttackRequest, Target, WeaponStatus
from rules.gurps.success import Check
from rules.gurps.tables import DODGE_STEP, rapid_fire_bonus
from rules.results import Message

__all__ = [
    "MAX_PELLETS",
    "MAX_ROF",
    "FirePlan",
    "RateOfFire",
    "Volley",
    "check_can_fire",
    "check_magazine",
    "dodge_score",
    "dodged_hits",
    "label",
    "parse_rof",
    "plan_attack",
    "weapon_name",
]

#: Shots one attack may fire: ten times a minigun's RoF 100, the fastest small arm the books list. A RoF
#: above it is a typing slip, and its preview (one probability per projectile) would be megabytes.
MAX_ROF = 1000
#: Pellets per shot: a flechette load is about 20 (buckshot 9); more is a typing slip.
MAX_PELLETS = 100

_ROF_PATTERN = r"^\s*(?P<shots>\d+)\s*(?:[xX×*]\s*(?P<pellets>\d+))?\s*$"


@functools.cache
def _rof_text() -> re.Pattern[str]:
    """The RoF-as-text pattern, compiled the first time a RoF comes as text (most are numbers, and
    compiling it costs a millisecond of ``volley odds``'s start-up)."""
    return re.compile(_ROF_PATTERN)


class RateOfFire(msgspec.Struct, frozen=True, gc=False):
    """``shots`` per attack at most, each of ``pellets`` projectiles (1 for anything but a shotgun)."""

    shots: int
    pellets: int = 1

    def __str__(self) -> str:
        return f"{self.shots}x{self.pellets}" if self.pellets > 1 else str(self.shots)


def parse_rof(value: int | str) -> RateOfFire:
    """``13`` or ``"13"`` is RoF 13; ``"3x9"`` (or ``3×9``) is 3 shots of 9 pellets."""
    if isinstance(value, str) and len(value) > 32:  # never a real RoF: read it, keep nothing
        return _read_rof.__wrapped__(value)
    return _read_rof(value)


# A table fires the same few weapons all evening: each RoF is read once (a regex match was ~2 µs of
# every attack). ``RateOfFire`` is frozen, so one instance is safely shared; a refusal is not cached.
@functools.lru_cache(maxsize=256, typed=True)
def _read_rof(value: int | str) -> RateOfFire:
    if isinstance(value, int):
        rof = RateOfFire(value)
    else:
        match = _rof_text().match(value)
        if match is None:
            raise RuleError("$.weapon.rof", msg.ERR_ROF_UNREADABLE(rof=repr(value)))
        rof = RateOfFire(int(match["shots"]), int(match["pellets"] or 1))
    if rof.shots < 1 or rof.pellets < 1:
        raise RuleError("$.weapon.rof", msg.ERR_ROF_EMPTY(rof=repr(value)))
    if rof.shots > MAX_ROF or rof.pellets > MAX_PELLETS:
        refusal = msg.ERR_ROF_TOO_HIGH(rof=repr(value), most=MAX_ROF, pellets=MAX_PELLETS)
        raise RuleError("$.weapon.rof", refusal, code="invalid")
    return rof


def label(weapon: WeaponStatus) -> str:
    """The weapon as a refusal names it: its name, empty for an unnamed one (the texts then say "the
    weapon" in their own language)."""
    return weapon.name or ""


def jammed_by(weapon: WeaponStatus) -> dict[str, Any]:
    """What jammed the weapon, as a refusal carries it: the English word and the message."""
    kind = weapon.malfunction
    return {"malfunction": kind or "", "fault": msg.FAULT[kind]() if kind else None}


def weapon_name(weapon: WeaponStatus) -> str | Message:
    """The weapon as the log names it: its name, or the catalogue's word for an unnamed one."""
    return weapon.name or msg.UNNAMED_WEAPON()


def check_can_fire(weapon: WeaponStatus) -> None:
    """A jammed weapon fires nothing until an unjam action clears it."""
    if weapon.malfunction == "destroyed":
        raise RuleError("$.weapon.malfunction", msg.ERR_DESTROYED(weapon=label(weapon)))
    if weapon.jammed:
        raise RuleError("$.weapon.jammed", msg.ERR_JAMMED(weapon=label(weapon), **jammed_by(weapon)))


def check_magazine(weapon: WeaponStatus) -> None:
    if weapon.capacity is not None and weapon.loaded > weapon.capacity:
        raise RuleError("$.weapon.loaded", msg.ERR_OVERLOADED(loaded=weapon.loaded, capacity=weapon.capacity))


class Volley(msgspec.Struct, frozen=True, gc=False):
    """One target's share of the attack: its shots, its bonus, the skill it is rolled against."""

    index: int
    target: Target
    shots: int
    projectiles: int
    bonus: int
    effective: int

    @property
    def name(self) -> str:
        return self.target.name or self.target.id

    def hits(self, attack: Check, rcl: int) -> int:
        """Hits scored before any defence: one, plus one per full Rcl of margin, capped at projectiles."""
        if not attack.success:
            return 0
        return min(self.projectiles, 1 + max(attack.margin, 0) // rcl)


class FirePlan(msgspec.Struct, frozen=True, gc=False):
    rof: RateOfFire
    rcl: int
    malf: int
    volleys: tuple[Volley, ...]
    #: Margin points per extra hit a successful dodge avoids (``tables.DODGE_STEP`` resolved).
    dodge_step: int = 1


def _shares(request: AttackRequest) -> list[int]:
    """Shots per target: all of them for a lone target, else what each target says, summing to shots."""
    targets = request.targets
    if not targets:
        raise RuleError("$.targets", errors.NO_TARGET())
    if len(targets) == 1:  # most attacks: a lone target is never listed twice
        given = targets[0].shots
        if given is not None and given != request.shots:
            raise RuleError("$.targets[0].shots", msg.ERR_TARGET_SHOTS(given=given, shots=request.shots))
        return [request.shots]
    seen: set[str] = set()
    for index, target in enumerate(targets):
        if target.id in seen:
            refusal = msg.ERR_LISTED_TWICE(target=target.name or target.id)
            raise RuleError(f"$.targets[{index}].id", refusal, code="invalid")
        seen.add(target.id)
    shares: list[int] = []
    for index, target in enumerate(targets):
        path = f"$.targets[{index}].shots"
        if target.shots is None:
            raise RuleError(path, msg.ERR_SHARES_NEEDED())
        if target.shots < 1:
            raise RuleError(path, msg.ERR_SHARE_EMPTY(shots=target.shots))
        shares.append(target.shots)
    if sum(shares) != request.shots:
        raise RuleError("$.targets", msg.ERR_SHARES_SUM(total=sum(shares), shots=request.shots))
    return shares


def plan_attack(request: AttackRequest) -> FirePlan:
    """Check the request against the rules and work out every target's roll; nothing is rolled."""
    weapon = request.weapon
    check_can_fire(weapon)
    check_magazine(weapon)
    rof = parse_rof(weapon.rof)
    shots = request.shots
    if shots < 1:
        raise RuleError("$.shots", msg.ERR_NO_SHOTS(shots=shots))
    if shots > rof.shots:
        raise RuleError("$.shots", msg.ERR_SHOTS_OVER_ROF(shots=shots, rof=rof.shots))
    if shots > weapon.loaded:
        raise RuleError("$.shots", msg.ERR_SHOTS_OVER_LOADED(shots=shots, loaded=weapon.loaded))
    volleys: list[Volley] = []
    for index, (target, share) in enumerate(zip(request.targets, _shares(request), strict=True)):
        projectiles = share * rof.pellets
        bonus = rapid_fire_bonus(projectiles)
        effective = request.attacker.skill + bonus + target.modifier
        volleys.append(Volley(index, target, share, projectiles, bonus, effective))
    step = request.dodge_step if request.dodge_step is not None else DODGE_STEP
    return FirePlan(
        rof=rof,
        rcl=weapon.rcl,
        malf=weapon.malf,
        volleys=tuple(volleys),
        dodge_step=weapon.rcl if step == "rcl" else step,
    )


def dodge_score(volley: Volley, attack: Check, scored: int) -> int | None:
    """The Dodge the target rolls against the hits scored, or None when it makes no roll: it has no
    dodge, nothing hit, or the hit was critical."""
    if scored == 0 or attack.critical == "success":
        return None
    return volley.target.dodge


def dodged_hits(scored: int, dodge: Check, step: int = 1) -> int:
    """Hits a dodge avoids: one plus one per ``step`` points of margin; all on a critical success."""
    if not dodge.success:
        return 0
    if dodge.critical == "success":
        return scored
    return min(scored, 1 + max(dodge.margin, 0) // step)
