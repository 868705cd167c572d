"""What a MegaTraveller request looks like: one tagged union of firing and weapon-handling actions.

The VTT holds the shooter's state (readiness, fire selector, target lock, rounds loaded) and sends it
with every request; each result hands the new values back. Firing actions (``fire``, ``fast_draw``,
``retarget_and_fire``) share :class:`FireFields`; the rest change the shooter's state without dice.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from rules.megatraveller.tasks import EXCEPTIONAL_SUCCESS_MARGIN, Difficulty
from rules.request import RequestBase

__all__ = [
    "Attacker",
    "DrawRequest",
    "FastDrawRequest",
    "FastDrawWeapons",
    "FireFields",
    "FireMode",
    "FireRequest",
    "HandlingFields",
    "MegaTravellerRequest",
    "Pool",
    "Readiness",
    "ReadyRequest",
    "ReloadRequest",
    "RetargetAndFireRequest",
    "RetargetRequest",
    "SelectModeRequest",
    "Selector",
    "SplitDmCount",
    "Target",
    "UnslingRequest",
    "Weapon",
    "WeaponKind",
    "action_of",
]

SYSTEM_NAME: Literal["megatraveller"] = "megatraveller"

#: RCS: Entering Combat. Holstered pistols, slung rifles, rifles carried with the safety on, or ready.
Readiness = Literal["holstered", "slung", "carried", "ready"]
#: RCS: Mode Selection. Where the weapon's selector sits.
Selector = Literal["single", "burst", "auto"]
#: RCS: To-Hit. The five ways to fire.
FireMode = Literal["single", "rapid", "burst", "auto", "controlled"]
#: RCS: Retarget and Fire. The bring-to-bear penalty depends on the kind of weapon.
WeaponKind = Literal["pistol", "rifle", "heavy"]
#: RCS: Rapid-fire, Burst fire. Whose number the splitting DM counts: the targets designated, or only
#: those the split gives a bullet (``modes.SPLIT_DM_COUNTS``).
SplitDmCount = Literal["designated", "receiving"]
#: Which weapons Fast Draw may draw: "small" (the seed's reading: a holstered pistol, the default) or
#: "any" (any kind, holstered or already ready: what Volley allowed before; see docs/rules/megatraveller.md).
FastDrawWeapons = Literal["small", "any"]

#: Rounds loaded or held beyond this are typing slips (docs/rules/megatraveller.md, "Bounds").
MAX_ROUNDS = 100_000
#: An Auto Tgts rating beyond this is a typing slip: the RCS's largest is a handful, and a fire
#: request names at most ``modes.MAX_TOKENS`` tokens anyway.
MAX_AUTO_TARGETS = 24

Rounds = Annotated[int, msgspec.Meta(ge=0, le=MAX_ROUNDS)]
Capacity = Annotated[int, msgspec.Meta(ge=1, le=MAX_ROUNDS)]
Modifier = Annotated[int, msgspec.Meta(ge=-50, le=50)]
Characteristic = Annotated[int, msgspec.Meta(ge=0, le=30)]
SkillLevel = Annotated[int, msgspec.Meta(ge=-10, le=30)]
#: A token id as the VTT sends it: never empty, so every log line and update names someone.
TokenId = Annotated[str, msgspec.Meta(min_length=1)]
#: A token's name as the table typed it, said in the log instead of its id.
TokenName = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class Attacker(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True):
    """The shooter: skill level with the weapon, Dexterity, and the state the VTT keeps for them.

    ``target`` is the current lock (a token id); ``None`` means no lock has been recorded, which a
    plain ``fire`` treats as already locked on the primary target (see docs/rules/megatraveller.md).
    ``target_name`` is the locked token's name as the table reads it, for the log and refusals (the id
    when it is left out).
    """

    id: TokenId
    name: str | None = None
    skill: SkillLevel = 0
    dex: Characteristic = 7
    readiness: Readiness = "ready"
    selector: Selector = "single"
    target: TokenId | None = None
    target_name: TokenName | None = None


class Weapon(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True):
    """The weapon's statistics and magazine.

    ``rapid`` is a trailing "/R" on its Recoil, ``burst`` its fixed burst size (2, 3 or 4) if it has a
    burst setting, ``auto`` whether it fires full-automatic and ``auto_targets`` its Auto Tgts rating.
    """

    name: str | None = None
    kind: WeaponKind = "rifle"
    rapid: bool = False
    burst: int | None = None
    auto: bool = False
    auto_targets: Annotated[int, msgspec.Meta(ge=0, le=MAX_AUTO_TARGETS)] = 1
    loaded: Rounds
    capacity: Capacity | None = None


class Target(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True):
    """One token fired at. ``targets[0]`` of a request is the primary target.

    ``difficulty`` is the to-hit task before the RCS shifts it (Close-range fire is Routine), ``shift``
    any further rungs other rules add, ``dm`` every other DM (range, cover, aim). ``closer`` lists the
    tokens nearer the shooter in this target's line of fire, nearest first: after a natural 2 in rapid
    or burst fire the rest of the volley goes on at the first of them. ``bystander`` marks a token
    caught in an automatic weapon's danger space rather than chosen (allies included).
    """

    id: TokenId
    name: str | None = None
    difficulty: Difficulty = "routine"
    shift: Annotated[int, msgspec.Meta(ge=-4, le=10)] = 0
    dm: Modifier = 0
    closer: list[TokenId] = msgspec.field(default_factory=list)
    bystander: bool = False


class Pool(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The rolled pool of a firing action, before it is split between targets.

    ``bullets`` for single, rapid and burst fire; ``rounds`` fired, ``lost`` and ``clusters`` for
    automatic and controlled fire. A two-step result returns it as ``pending``; a request may carry it
    back as ``pool`` so that ``odds`` can preview a split and ``roll`` can check the dice agree.
    """

    bullets: int | None = None
    rounds: int | None = None
    lost: int | None = None
    clusters: list[int] | None = None


class ModuleReadings(
    msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True, omit_defaults=True
):
    """The VTT module's own readings the table changed (docs/rules/megatraveller.md, "The VTT module's
    readings"), as the referee's browser reports them: they shaped the danger space the dialog drew
    before the request existed. The rules never read them; the card, ``volley show`` and the report
    list them (``rules.table_rules.changed``), and the journal keeps them with the request."""

    danger_space_half_width: Annotated[int, msgspec.Meta(ge=0, le=10)] | None = None
    danger_space_beyond: Annotated[int, msgspec.Meta(ge=0, le=20)] | None = None


#: ``allocation`` is bullets per target (single, rapid, burst), cluster indices per target (automatic,
#: controlled), ``"defer"`` to roll only the pool, or absent for the default split.
Allocation = list[int | list[int]] | Literal["defer"] | None


class FireFields(RequestBase, kw_only=True, frozen=True):
    """Everything a firing action needs (RCS: To-Hit)."""

    system: Literal["megatraveller"] = SYSTEM_NAME
    mode: FireMode = "single"
    attacker: Attacker
    weapon: Weapon
    targets: list[Target]
    allocation: Allocation = None
    #: RCS: Automatic fire. Empty the whole magazine when the 3D+20 roll falls within 10 of it.
    empty_magazine: bool = False
    pool: Pool | None = None
    exceptional_margin: Annotated[int, msgspec.Meta(ge=0, le=30)] = EXCEPTIONAL_SUCCESS_MARGIN
    split_dm_counts: Annotated[
        SplitDmCount | None,
        msgspec.Meta(
            description=(
                "Rapid and burst fire: the splitting DM (-1 for two targets, -3 for three) counts every "
                'target designated, as the RCS has it ("designated", the default), or only the targets '
                'the split gives at least one bullet ("receiving").'
            )
        ),
    ] = None
    #: The module's readings the table changed, for the record only (``ModuleReadings``).
    module_readings: ModuleReadings | None = None


class FireRequest(FireFields, kw_only=True, frozen=True, tag="fire"):
    """Fire at the locked target (and others, in the multi-target modes)."""


class FastDrawRequest(FireFields, kw_only=True, frozen=True, tag="fast_draw"):
    """Draw a holstered pistol, lock ``targets[0]`` and fire at -2 DM, on the selector as it is."""

    fast_draw_weapons: Annotated[
        FastDrawWeapons | None,
        msgspec.Meta(
            description=(
                'Which weapons Fast Draw may draw: "small" (a holstered pistol, the default: drawing is for '
                'small weapons, rifles are unslung and readied) or "any" (any kind, holstered or already '
                "ready, as Volley allowed before)."
            )
        ),
    ] = None


class RetargetAndFireRequest(FireFields, kw_only=True, frozen=True, tag="retarget_and_fire"):
    """Swing onto ``targets[0]`` and fire at once, paying the bring-to-bear DM."""


class HandlingFields(RequestBase, kw_only=True, frozen=True):
    system: Literal["megatraveller"] = SYSTEM_NAME
    attacker: Attacker
    weapon: Weapon


class DrawRequest(HandlingFields, kw_only=True, frozen=True, tag="draw"):
    """Draw a Small Weapon: holstered to ready; a target and a selector setting come free."""

    target: TokenId | None = None
    #: the target's name, for the log (its id when left out)
    target_name: TokenName | None = None
    selector: Selector | None = None
    fast_draw_weapons: Annotated[
        FastDrawWeapons | None,
        msgspec.Meta(
            description=(
                'Which weapons Draw a Small Weapon may draw, the table\'s Fast Draw reading: "small" (a '
                'pistol, the default) or "any" (any kind).'
            )
        ),
    ] = None


class UnslingRequest(HandlingFields, kw_only=True, frozen=True, tag="unsling"):
    """Unsling Rifle: slung to carried (safety still on)."""


class ReadyRequest(HandlingFields, kw_only=True, frozen=True, tag="ready"):
    """Ready Rifle: carried to ready; a target and a selector setting come free."""

    target: TokenId | None = None
    #: the target's name, for the log (its id when left out)
    target_name: TokenName | None = None
    selector: Selector | None = None


class SelectModeRequest(HandlingFields, kw_only=True, frozen=True, tag="select_mode"):
    """Select Fire Mode: move the selector without firing and without any penalty."""

    selector: Selector


class RetargetRequest(HandlingFields, kw_only=True, frozen=True, tag="retarget"):
    """Retarget: lock onto ``target`` without firing (no bring-to-bear DM)."""

    target: TokenId
    #: the target's name, for the log (its id when left out)
    target_name: TokenName | None = None


class ReloadRequest(HandlingFields, kw_only=True, frozen=True, tag="reload"):
    """Fill the magazine: to ``rounds`` if given, else to the weapon's capacity."""

    rounds: Rounds | None = None


def action_of(request: RequestBase) -> str:
    """The ``action`` tag a request was decoded from (``fire``, ``fast_draw``...)."""
    return str(type(request).__struct_config__.tag)


MegaTravellerRequest = (
    FireRequest
    | FastDrawRequest
    | RetargetAndFireRequest
    | DrawRequest
    | UnslingRequest
    | ReadyRequest
    | SelectModeRequest
    | RetargetRequest
    | ReloadRequest
)
