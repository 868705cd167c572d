"""Result types every system shares: the shape the CLI, the bridge and the VTT rely on.

A result is a frozen record of what happened (Avrae's lesson: resolve first, render afterwards). Systems
subclass these with their own fields; the common core is::

    {"system", "action", "targets": [{"id", "hits", ...}], "weapon": {"loaded", "jammed", ...},
     "rolls": [{"die", "face", "for"}], "updates": [...], "log": [...]}

``updates`` carry new absolute values for tokens, never deltas, so applying one twice is harmless.

Nothing here is a sentence. What the rules say (each ``log`` entry, what each die was rolled ``for``) is
a :class:`Message`: a key and the values to fill in. Presentation picks the words, in the table's
language (docs/i18n.md); the keys a system may use are declared in its ``messages`` module.
"""

from __future__ import annotations

from typing import Any

import msgspec

from rules.odds import probability

__all__ = ["Message", "Odds", "Result", "Roll", "TargetOdds", "TargetResult", "TokenUpdate", "WeaponState"]


#: Requests, results and everything in them are trees: decoded from JSON or built by the rules and
#: encoded to JSON whole (a cycle could be neither), so their structs say ``gc=False`` and the cycle
#: collector never tracks them. An attack makes dozens of them, all gone by refcount once its line is
#: written; tracked, they counted towards every young collection and were walked by it (issue 18).
class Message(msgspec.Struct, frozen=True, gc=False):
    """Something the rules say, as a catalogue ``key`` and the ``values`` its text is filled with.

    Values are plain JSON: strings (names the table typed), numbers, booleans, null, lists, or other
    messages (a fire mode, a hit location), which presentation renders in the same language.
    """

    key: str
    values: dict[str, Any] = msgspec.field(default_factory=dict)

    def __str__(self) -> str:
        """``key(name=value, ...)``: how a message reads where there is no catalogue (error texts, logs)."""
        if not self.values:
            return self.key
        return f"{self.key}({', '.join(f'{name}={value}' for name, value in self.values.items())})"


class Roll(msgspec.Struct, frozen=True, gc=False):
    """One die as it fell: its size, its face and what it was rolled for."""

    die: int
    face: int
    purpose: Message = msgspec.field(name="for")


class TargetResult(msgspec.Struct, kw_only=True, gc=False):
    """What one attack did to one target. ``hits`` counts hits that land after any defence."""

    id: str
    hits: int
    name: str | None = None


class WeaponState(msgspec.Struct, kw_only=True, gc=False):
    """The weapon after the action, as absolute values."""

    loaded: int
    jammed: bool = False


class TokenUpdate(msgspec.Struct, kw_only=True, omit_defaults=True, gc=False):
    """New absolute state for one token, for the VTT to apply.

    ``state`` keys are flag names under the module's namespace (``weapon.loaded``, ``readiness``...);
    statuses are VTT status ids (``suppressed``, ``prone``).
    """

    token: str
    state: dict[str, Any] = msgspec.field(default_factory=dict)
    statuses_add: list[str] = msgspec.field(default_factory=list)
    statuses_remove: list[str] = msgspec.field(default_factory=list)


class Result(msgspec.Struct, kw_only=True, gc=False):
    """The outcome of one request. Systems subclass it and narrow ``targets``/``weapon``."""

    system: str
    action: str
    targets: list[TargetResult] = msgspec.field(default_factory=list)
    weapon: WeaponState | None = None
    rolls: list[Roll] = msgspec.field(default_factory=list)
    updates: list[TokenUpdate] = msgspec.field(default_factory=list)
    log: list[Message] = msgspec.field(default_factory=list)


class TargetOdds(msgspec.Struct, kw_only=True):
    """``hits[k]`` is the exact probability that exactly k hits land on this target."""

    id: str
    hits: list[float]

    def __post_init__(self) -> None:
        # Exact sums in floats may land a few ulps past 1 (or below 0); none is ever published so.
        self.hits = [probability(p) for p in self.hits]


class Odds(msgspec.Struct, kw_only=True):
    """Exact outcome probabilities of an attack, for the dialog's live preview and for tests."""

    targets: list[TargetOdds]
    jam: float = 0.0

    def __post_init__(self) -> None:
        self.jam = probability(self.jam)
