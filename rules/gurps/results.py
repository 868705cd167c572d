"""What a GURPS request comes back as: enough for the chat card without recomputing anything."""

from __future__ import annotations

from typing import Literal

import msgspec

from rules.gurps.success import Check
from rules.gurps.tables import Malfunction, WeaponFault
from rules.results import Message, Result, TargetResult, TokenUpdate, WeaponState

__all__ = [
    "AttackResult",
    "GurpsTarget",
    "GurpsWeapon",
    "Outcome",
    "ReloadResult",
    "UnjamAttempt",
    "UnjamResult",
    "weapon_update",
]

#: What the attack did to one target, in a word for the card.
Outcome = Literal["hit", "critical hit", "dodged", "miss", "critical miss", "malfunction", "not fired"]


class GurpsTarget(TargetResult, kw_only=True):
    """One target's attack roll. ``hits`` land; ``scored`` is before the dodge, ``dodged`` avoided.

    ``shots`` are the rounds aimed at it, ``projectiles`` the shots times pellets (the count behind the
    bonus and the hit cap), ``effective`` the skill rolled against (skill + ``bonus`` + modifier).
    ``attack`` is absent when the weapon malfunctioned or jammed before this target's roll.
    """

    outcome: Outcome
    shots: int
    projectiles: int
    bonus: int
    effective: int
    attack: Check | None = None
    scored: int = 0
    dodge: Check | None = None
    dodged: int = 0


class GurpsWeapon(WeaponState, kw_only=True):
    """The weapon afterwards. ``spent`` is rounds this action used up; ``explosion_risk`` flags a
    mechanical malfunction that B407 says may also be an explosion (the referee decides)."""

    name: str | None = None
    capacity: int | None = None
    malfunction: WeaponFault | None = None
    spent: int = 0
    explosion_risk: bool = False


class AttackResult(Result, kw_only=True):
    targets: list[GurpsTarget] = msgspec.field(default_factory=list)  # type: ignore[assignment]
    weapon: GurpsWeapon | None = None


class ReloadResult(Result, kw_only=True):
    weapon: GurpsWeapon | None = None
    added: int = 0


class UnjamAttempt(msgspec.Struct, kw_only=True):
    """The roll to clear ``fixing``: against Armoury or IQ-based weapon skill, taking ``time`` (a message:
    a Ready maneuver, three of them, or an hour's work)."""

    fixing: Malfunction
    using: Literal["armoury", "weapon"]
    time: Message
    check: Check


class UnjamResult(Result, kw_only=True):
    weapon: GurpsWeapon | None = None
    unjam: UnjamAttempt | None = None


def weapon_update(token: str, weapon: GurpsWeapon) -> TokenUpdate:
    """New absolute weapon flags for the shooter's token."""
    return TokenUpdate(
        token=token,
        state={
            "weapon.loaded": weapon.loaded,
            "weapon.jammed": weapon.jammed,
            "weapon.malfunction": weapon.malfunction,
        },
    )
