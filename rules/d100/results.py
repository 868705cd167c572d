"""What a d100 action did: the core result shape plus the tests, degrees and state this family needs."""

from __future__ import annotations

import msgspec

from rules.d100.requests import OverwatchOrder
from rules.odds import probability
from rules.results import Message, Odds, Result, TargetOdds, TargetResult, WeaponState

__all__ = [
    "AttackerState",
    "Check",
    "D100Odds",
    "D100Result",
    "D100Target",
    "D100TargetOdds",
    "D100Weapon",
    "HitRecord",
    "Scatter",
    "Shot",
    "Suppression",
]


class Check(msgspec.Struct, kw_only=True):
    """One d100 test as rolled: the face, the target number, and its degrees of success or failure.

    ``note`` says why the verdict is not what the numbers alone would give (01 always passes, 96+ always
    misses, a jam), as a message.
    """

    roll: int
    target: int
    success: bool
    degrees: int
    note: Message | None = None


class HitRecord(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One hit on one target: where it struck and, when the request carries damage, what it did."""

    location: str
    damage: int | None = None
    armour: int | None = None
    cover: int | None = None
    cover_penetrated: bool | None = None
    wounds: int | None = None


class Suppression(msgspec.Struct, kw_only=True):
    """A suppression test: passed automatically (``reason``, a message) or rolled (``test``)."""

    modifier: int
    passed: bool
    test: Check | None = None
    reason: Message | None = None


class D100Target(TargetResult, kw_only=True):
    primary: bool = False
    locations: list[str] = msgspec.field(default_factory=list)
    hit_records: list[HitRecord] = msgspec.field(default_factory=list)
    dodge: Check | None = None
    dodge_modifier: int = 0
    dodged: int = 0
    suppression: Suppression | None = None
    suppressed: bool = False
    prone: bool = False
    must_seek_cover: bool = False
    cover_ap: int | None = None
    wounds: int | None = None


class D100Weapon(WeaponState, kw_only=True):
    spoiled: int = 0
    braced: bool = False
    reserve: int | None = None


class AttackerState(msgspec.Struct, kw_only=True):
    """The shooter's own state after the action (suppression, posture, standing order)."""

    id: str
    suppressed: bool = False
    prone: bool = False
    overwatch: OverwatchOrder | None = None
    action_points: int | None = None
    bs_modifier: int = 0


class Scatter(msgspec.Struct, kw_only=True):
    """Where a missed blast lands: d10 metres toward a d8 compass point (1 is up the map)."""

    metres: int
    direction: str
    east: float
    north: float
    radius: float | None = None


class Shot(msgspec.Struct, kw_only=True):
    """One attack roll of a multi-shot action (single-shot overwatch fires one per target)."""

    target: str
    test: Check
    hits: int
    jammed: bool = False


class D100Result(Result, kw_only=True):
    targets: list[D100Target] = msgspec.field(default_factory=list)  # type: ignore[assignment]
    weapon: D100Weapon | None = None
    mode: str | None = None
    action_cost: str | None = None
    test: Check | None = None
    shots: list[Shot] = msgspec.field(default_factory=list)
    spent: int = 0
    spoiled: int = 0
    recovered: int = 0
    scatter: list[Scatter] = msgspec.field(default_factory=list)
    attacker: AttackerState | None = None
    enclosed: bool = False
    grenade_at_feet: bool = False
    thrower_in_blast: bool = False
    blast_radius: float | None = None
    concussive: int | None = None


class D100TargetOdds(TargetOdds, kw_only=True):
    """Hit odds plus the chance this fire leaves the target suppressed, and prone."""

    suppressed: float = 0.0
    prone: float = 0.0

    def __post_init__(self) -> None:
        super().__post_init__()
        self.suppressed = probability(self.suppressed)
        self.prone = probability(self.prone)


class D100Odds(Odds, kw_only=True):
    targets: list[D100TargetOdds]  # type: ignore[assignment]
    success: float = 0.0

    def __post_init__(self) -> None:
        super().__post_init__()
        self.success = probability(self.success)
