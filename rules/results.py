"""Result types every system shares: the shape the CLI, the bridge and the VTT rely on.

A result is a frozen record of what happened (Avrae's lesson: resolve first, render afterwards). Systems
subclass these with their own fields; the common core is::

    {"system", "action", "targets": [{"id", "hits", ...}], "weapon": {"loaded", "jammed", ...},
     "rolls": [{"die", "face", "for"}], "updates": [...], "log": [...]}

``updates`` carry new absolute values for tokens, never deltas, so applying one twice is harmless.
"""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = ["Odds", "Result", "Roll", "TargetOdds", "TargetResult", "TokenUpdate", "WeaponState"]


class Roll(msgspec.Struct, frozen=True):
    """One die as it fell: its size, its face and what it was rolled for."""

    die: int
    face: int
    purpose: str = msgspec.field(name="for")


class TargetResult(msgspec.Struct, kw_only=True):
    """What one attack did to one target. ``hits`` counts hits that land after any defence."""

    id: str
    hits: int
    name: str | None = None


class WeaponState(msgspec.Struct, kw_only=True):
    """The weapon after the action, as absolute values."""

    loaded: int
    jammed: bool = False


class TokenUpdate(msgspec.Struct, kw_only=True, omit_defaults=True):
    """New absolute state for one token, for the VTT to apply.

    ``state`` keys are flag names under the module's namespace (``weapon.loaded``, ``readiness``...);
    statuses are VTT status ids (``suppressed``, ``prone``).
    """

    token: str
    state: dict[str, Any] = msgspec.field(default_factory=dict)
    statuses_add: list[str] = msgspec.field(default_factory=list)
    statuses_remove: list[str] = msgspec.field(default_factory=list)


class Result(msgspec.Struct, kw_only=True):
    """The outcome of one request. Systems subclass it and narrow ``targets``/``weapon``."""

    system: str
    action: str
    targets: list[TargetResult] = msgspec.field(default_factory=list)
    weapon: WeaponState | None = None
    rolls: list[Roll] = msgspec.field(default_factory=list)
    updates: list[TokenUpdate] = msgspec.field(default_factory=list)
    log: list[str] = msgspec.field(default_factory=list)


class TargetOdds(msgspec.Struct, kw_only=True):
    """``hits[k]`` is the exact probability that exactly k hits land on this target."""

    id: str
    hits: list[float]


class Odds(msgspec.Struct, kw_only=True):
    """Exact outcome probabilities of an attack, for the dialog's live preview and for tests."""

    targets: list[TargetOdds]
    jam: float = 0.0
