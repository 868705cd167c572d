"""What a MegaTraveller result carries beyond the common shape.

Every result reports the shooter's state after the action (``readiness``, ``selector``, ``target``
lock, rounds ``loaded``) as fields and as one absolute :class:`~rules.results.TokenUpdate`. A firing
result adds the pool, the split and every to-hit roll per target; a two-step first half returns only
the pool as ``pending``.
"""

from __future__ import annotations

import msgspec

from rules.megatraveller.requests import FireMode, Pool, Readiness, Selector
from rules.megatraveller.to_hit import ToHit
from rules.results import Result, TargetResult, WeaponState

__all__ = ["MegaTravellerResult", "MegaTravellerTarget", "MegaTravellerWeapon", "StrayVolley"]


class StrayVolley(msgspec.Struct, kw_only=True):
    """Bullets a natural 2 sent past ``source`` into this token, resolved as an attack of their own."""

    source: str
    bullets: int
    hits: int
    needed: int
    to_hit: list[ToHit] = msgspec.field(default_factory=list)


class MegaTravellerTarget(TargetResult, kw_only=True):
    """One token's share of the attack.

    ``bullets`` aimed at it (``clusters`` sizes in automatic fire), the task it was rolled against
    (``difficulty``, ``needed``, ``dm`` before the bullet DM), each roll in ``to_hit``, bullets a
    natural 2 sent on (``wild``, to ``wild_to``), and stray volleys it took from other lines of fire.
    ``exceptional`` and ``exceptional_failure`` only ever appear in single fire.
    """

    bullets: int = 0
    clusters: list[int] = msgspec.field(default_factory=list)
    bystander: bool = False
    difficulty: str | None = None
    needed: int | None = None
    dm: int | None = None
    to_hit: list[ToHit] = msgspec.field(default_factory=list)
    wild: int = 0
    wild_to: str | None = None
    strays: list[StrayVolley] = msgspec.field(default_factory=list)
    exceptional: bool = False
    exceptional_failure: bool = False


class MegaTravellerWeapon(WeaponState, kw_only=True):
    """The weapon after the action; MegaTraveller weapons never jam under the RCS."""

    name: str | None = None
    fired: int = 0
    capacity: int | None = None


class MegaTravellerResult(Result, kw_only=True):
    """A MegaTraveller action's outcome."""

    targets: list[MegaTravellerTarget] = msgspec.field(default_factory=list)  # type: ignore[assignment]
    weapon: MegaTravellerWeapon | None = None
    shooter: str
    mode: FireMode | None = None
    readiness: Readiness
    selector: Selector
    target: str | None = None
    pending: Pool | None = None
    pool: Pool | None = None
    allocation: list[int | list[int]] | None = None
