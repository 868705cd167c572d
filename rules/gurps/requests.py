"""What a GURPS request looks like: one tagged union of attack, reload and unjam.

The VTT sends the weapon's whole state with every request (rounds loaded, jammed, which malfunction),
and may send the same weapon object for all three actions: fields an action does not need are ignored.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from rules.gurps.tables import WeaponFault
from rules.request import RequestBase

__all__ = [
    "AttackRequest",
    "Attacker",
    "GurpsRequest",
    "ReloadRequest",
    "Shooter",
    "Target",
    "UnjamRequest",
    "Weapon",
    "WeaponStatus",
]

NonNegative = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]


class Shooter(msgspec.Struct, kw_only=True, frozen=True):
    """The token acting; ``id`` is the token the result's updates go to."""

    id: str
    name: str | None = None


class Attacker(Shooter, kw_only=True, frozen=True):
    """``skill`` is the effective weapon skill before the rapid-fire bonus and the target's modifier."""

    skill: int


class WeaponStatus(msgspec.Struct, kw_only=True, frozen=True):
    """The weapon's state as the VTT holds it. ``jammed`` decides; ``malfunction`` says why."""

    name: str | None = None
    loaded: NonNegative
    capacity: Positive | None = None
    malf: Annotated[int, msgspec.Meta(ge=3)] = 17
    jammed: bool = False
    malfunction: WeaponFault | None = None


class Weapon(WeaponStatus, kw_only=True, frozen=True):
    """A weapon that fires: ``rof`` is an int, or ``"NxM"`` for N shots of M pellets (a shotgun's 3x9)."""

    rof: int | str
    rcl: Positive


class Target(msgspec.Struct, kw_only=True, frozen=True):
    """One target. ``modifier`` sums range, size, cover...; ``dodge`` present means it dodges.

    ``shots`` says how many of the attack's shots go to this target; required when there are several
    targets, optional (all of them) when there is one.
    """

    id: str
    name: str | None = None
    modifier: int = 0
    dodge: int | None = None
    shots: int | None = None


class AttackRequest(RequestBase, kw_only=True, frozen=True, tag="attack"):
    """A rapid-fire attack (B373). ``dodge_step`` overrides ``tables.DODGE_STEP``, the margin per extra
    hit a successful dodge avoids: B375 is one per point (1, the default); ``"rcl"`` is a house rule."""

    system: Literal["gurps"] = "gurps"
    attacker: Attacker
    weapon: Weapon
    shots: int
    targets: list[Target]
    dodge_step: Annotated[
        Positive | Literal["rcl"] | None,
        msgspec.Meta(
            description=(
                "Margin points per extra hit a successful dodge avoids. Default 1, the Basic Set's rule "
                '(B375: one more hit per point of margin). A larger number, or the house rule "rcl" '
                "(one more per full multiple of the weapon's Rcl), makes rapid fire harder to dodge."
            )
        ),
    ] = None


class ReloadRequest(RequestBase, kw_only=True, frozen=True, tag="reload"):
    """Fill the weapon to ``capacity``. No dice."""

    system: Literal["gurps"] = "gurps"
    attacker: Shooter
    weapon: WeaponStatus


class UnjamRequest(RequestBase, kw_only=True, frozen=True, tag="unjam"):
    """One attempt to clear ``weapon.malfunction``: a 3d6 roll against ``skill`` + ``modifier``.

    ``using`` says what ``skill`` is: Armoury (which gets +2 against a misfire or a stoppage) or the
    IQ-based weapon skill (misfires and stoppages only).
    """

    system: Literal["gurps"] = "gurps"
    attacker: Shooter
    weapon: WeaponStatus
    skill: int
    using: Literal["armoury", "weapon"] = "armoury"
    modifier: int = 0


GurpsRequest = AttackRequest | ReloadRequest | UnjamRequest
