"""What a GURPS request looks like: one tagged union of attack, reload and unjam.

The VTT sends the weapon's whole state with every request (rounds loaded, jammed, which malfunction),
and may send the same attacker and weapon objects for all three actions (reload and unjam accept the
attacker's ``skill`` and the weapon's ``rof`` and ``rcl``, and do not use them). A field no GURPS
request declares is refused (``common.error.unknown_field``, its path named), so a typo such as
``sjots`` never resolves with the default instead.

Every number has a sane range (docs/rules/gurps.md, "Bounds"): a value outside it is a typing slip, and
is refused as ``invalid`` with its field named rather than half-working or making a preview that
stalls the bridge. The RoF's own bound is checked where it is read (``plan.parse_rof``).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from rules.gurps.tables import WeaponFault
from rules.request import RequestBase

__all__ = [
    "MAX_ROUNDS",
    "MAX_TARGETS",
    "MODIFIER_RANGE",
    "SCORE_RANGE",
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

#: Rounds loaded or held beyond this are typing slips (a belt of a thousand is a hundredth of it).
MAX_ROUNDS = 100_000
#: A skill, Dodge or unjam roll's score outside this range is a typing slip: 3d6 cannot tell 40 from 100
#: apart except through the margin, and no character has skill 500.
SCORE_RANGE = (-50, 100)
#: A summed modifier (range, size, cover...) outside this range is a typing slip.
MODIFIER_RANGE = (-100, 100)
#: Recoil and Malf beyond this are typing slips (Malf above 18 already means "never").
MAX_RATING = 100
#: Targets one attack may name: a VTT selection larger than this is a mistake (the bridge allows fewer).
MAX_TARGETS = 100

Rounds = Annotated[int, msgspec.Meta(ge=0, le=MAX_ROUNDS)]
Capacity = Annotated[int, msgspec.Meta(ge=1, le=MAX_ROUNDS)]
Score = Annotated[int, msgspec.Meta(ge=SCORE_RANGE[0], le=SCORE_RANGE[1])]
Modifier = Annotated[int, msgspec.Meta(ge=MODIFIER_RANGE[0], le=MODIFIER_RANGE[1])]
Rating = Annotated[int, msgspec.Meta(ge=1, le=MAX_RATING)]
#: A token's id: the VTT writes the result's updates to it, so an empty one is refused (#31).
TokenId = Annotated[str, msgspec.Meta(min_length=1)]


class Shooter(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True, gc=False):
    """The token acting; ``id`` is the token the result's updates go to.

    ``skill`` is accepted (and checked) but not used by reload and unjam (an unjam roll's skill is the
    request's own ``skill``), so the attack's attacker object serves all three actions.
    """

    id: TokenId
    name: str | None = None
    skill: Score | None = None


class Attacker(Shooter, kw_only=True, frozen=True):
    """``skill`` is the effective weapon skill before the rapid-fire bonus and the target's modifier."""

    skill: Score


class WeaponStatus(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True, gc=False):
    """The weapon's state as the VTT holds it. ``jammed`` decides; ``malfunction`` says why.

    ``rof`` and ``rcl`` are accepted (and checked) but not used by reload and unjam, so one weapon
    object serves all three actions; any other field is refused.
    """

    name: str | None = None
    loaded: Rounds
    capacity: Capacity | None = None
    malf: Annotated[int, msgspec.Meta(ge=3, le=MAX_RATING)] = 17
    jammed: bool = False
    malfunction: WeaponFault | None = None
    rof: int | str | None = None
    rcl: Rating | None = None


class Weapon(WeaponStatus, kw_only=True, frozen=True):
    """A weapon that fires: ``rof`` is an int, or ``"NxM"`` for N shots of M pellets (a shotgun's 3x9)."""

    rof: int | str
    rcl: Rating


class Target(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True, gc=False):
    """One target. ``modifier`` sums range, size, cover...; ``dodge`` present means it dodges.

    ``shots`` says how many of the attack's shots go to this target; required when there are several
    targets, optional (all of them) when there is one.
    """

    id: TokenId
    name: str | None = None
    modifier: Modifier = 0
    dodge: Score | None = None
    shots: int | None = None


class AttackRequest(RequestBase, kw_only=True, frozen=True, tag="attack"):
    """A rapid-fire attack (B373). ``dodge_step`` overrides ``tables.DODGE_STEP``, the margin per extra
    hit a successful dodge avoids: B375 is one per point (1, the default); ``"rcl"`` is a house rule."""

    system: Literal["gurps"] = "gurps"
    attacker: Attacker
    weapon: Weapon
    shots: int
    targets: Annotated[list[Target], msgspec.Meta(max_length=MAX_TARGETS)]
    dodge_step: Annotated[
        Rating | Literal["rcl"] | None,
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
    skill: Score
    using: Literal["armoury", "weapon"] = "armoury"
    modifier: Modifier = 0


GurpsRequest = AttackRequest | ReloadRequest | UnjamRequest
