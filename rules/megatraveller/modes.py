"""The five ways to fire and what each costs (RCS: To-Hit, and its selector table).

Every number here is data a referee could change in one place: which selector setting a mode needs,
how many rungs it shifts the to-hit task, how many targets it may split between and the DM for
splitting, and the DMs of the shooter's action (Fast Draw, Retarget and Fire).
"""

from __future__ import annotations

import msgspec

from rules.megatraveller import messages as msg
from rules.megatraveller.requests import (
    FastDrawWeapons,
    FireMode,
    Readiness,
    Selector,
    SplitDmCount,
    Weapon,
    WeaponKind,
)
from rules.results import Message

__all__ = [
    "BRING_TO_BEAR_DM",
    "BURST_SIZES",
    "FAST_DRAW_DM",
    "FAST_DRAW_FROM",
    "FAST_DRAW_KINDS",
    "FAST_DRAW_WEAPONS",
    "FIRE_MODES",
    "MAX_TOKENS",
    "MODE_SWITCH_SHIFT",
    "MULTI_TARGET_DM",
    "SPLIT_DM_COUNTS",
    "ModeRule",
    "missing_capability",
    "selector_available",
]


class ModeRule(msgspec.Struct, frozen=True):
    """One fire mode: the selector it needs, its difficulty shift and how targets are chosen.

    ``max_targets`` of ``None`` means "up to the weapon's Auto Tgts rating"; ``clustered`` modes split
    their bullets in 1D clusters with bystanders in the danger space (automatic and controlled);
    ``strays`` modes send the bullets a natural 2 spoiled on at the nearest token in the line of fire.
    """

    selector: Selector
    shift: int
    max_targets: int | None
    split_dm: bool
    clustered: bool
    exceptional: bool
    strays: bool


#: RCS: single fire is one bullet, the only mode where exceptional success exists; rapid fire adds a
#: rung and may spread over three targets; a burst spreads likewise without the extra rung; automatic
#: fire adds a rung and takes up to Auto Tgts targets with no splitting DM. Controlled fire is
#: "otherwise exactly automatic fire", so it inherits automatic fire's rung (our reading).
FIRE_MODES: dict[FireMode, ModeRule] = {
    "single": ModeRule("single", 0, 1, split_dm=False, clustered=False, exceptional=True, strays=False),
    "rapid": ModeRule("single", 1, 3, split_dm=True, clustered=False, exceptional=False, strays=True),
    "burst": ModeRule("burst", 0, 3, split_dm=True, clustered=False, exceptional=False, strays=True),
    "auto": ModeRule("auto", 1, None, split_dm=False, clustered=True, exceptional=False, strays=False),
    "controlled": ModeRule("auto", 1, None, split_dm=False, clustered=True, exceptional=False, strays=False),
}

#: RCS: Mode Selection. Firing on a setting the selector is not on costs one rung (and moves it).
MODE_SWITCH_SHIFT = 1
#: RCS: rapid and burst fire, DM by the number of targets fired at (1, 2, 3).
MULTI_TARGET_DM: tuple[int, ...] = (0, -1, -3)
#: Which targets that DM counts. The RCS has the shooter designate one to three targets and then divide
#: the pool among them, so the DM is for the targets designated, even one the split leaves without a
#: bullet ("designated", the default). "receiving" counts only targets given at least one bullet (a
#: reading Volley used before; a request's ``split_dm_counts`` picks either).
SPLIT_DM_COUNTS: SplitDmCount = "designated"
#: RCS: Readying a Weapon. Drawing, aiming and firing in one action.
FAST_DRAW_DM = -2
#: Reading: Fast Draw draws a small weapon. The seed readies pistols with Draw a Small Weapon and rifles
#: with Unsling Rifle and Ready Rifle, and Fast Draw combines the draw with a shot, so by default
#: ("small") it takes a holstered pistol only: another kind, or a weapon already in hand, is refused. A
#: request's ``fast_draw_weapons: "any"`` keeps the looser reading Volley had before: any kind, from
#: the holster or already ready (paying the DM to lock and fire in one action).
FAST_DRAW_WEAPONS: FastDrawWeapons = "small"
#: The weapon kinds the default reading lets Fast Draw draw.
FAST_DRAW_KINDS: tuple[WeaponKind, ...] = ("pistol",)
#: Where Fast Draw may start, by reading: the holster, or (``"any"``) also a weapon already ready.
#: Slung or carried-safe weapons cannot be fast-drawn under either reading.
FAST_DRAW_FROM: dict[FastDrawWeapons, tuple[Readiness, ...]] = {
    "small": ("holstered",),
    "any": ("holstered", "ready"),
}
#: RCS: Targetting and Firing. Swinging onto a new target as you fire.
BRING_TO_BEAR_DM: dict[WeaponKind, int] = {"pistol": -1, "rifle": -2, "heavy": -4}
#: RCS: Burst fire. A burst is always 2, 3 or 4 bullets, fixed by the weapon.
BURST_SIZES: tuple[int, ...] = (2, 3, 4)
#: Not a rule, a guard: the most tokens one attack may list (chosen targets and bystanders together).
MAX_TOKENS = 24


def selector_available(weapon: Weapon, selector: Selector) -> bool:
    """Whether the weapon has this selector setting at all (every weapon has single)."""
    if selector == "burst":
        return weapon.burst is not None
    if selector == "auto":
        return weapon.auto
    return True


def missing_capability(weapon: Weapon, mode: FireMode) -> Message | None:
    """Why the weapon cannot fire in ``mode`` (a refusal), or ``None`` when it can."""
    name = weapon.name or ""
    if mode == "rapid" and not weapon.rapid:
        return msg.ERR_NO_RAPID(weapon=name)
    if mode == "burst" and weapon.burst is None:
        return msg.ERR_NO_BURST(weapon=name)
    if mode in ("auto", "controlled") and not weapon.auto:
        return msg.ERR_NO_AUTO(weapon=name)
    return None
