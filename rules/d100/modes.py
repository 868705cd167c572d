"""The attack modes and how degrees of success become hits (seed 004, "Shooting").

* single shot: +10, needs S, one hit;
* short burst: +0, one hit per odd degree (1st, 3rd, 5th...) up to the short-burst RoF;
* long burst: -10, one hit per degree up to the long-burst RoF;
* wide burst: a short or long burst whose hit cap drops by 2 (the rounds spent do not), -20 to every
  dodge against it, unusable when that RoF is below 3;
* suppressing fire: -20, one hit per odd degree up to the chosen RoF, hits to random targets.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from rules.d100 import messages as msg
from rules.d100.rof import POSITION_NAMES, RateOfFire
from rules.d100.tables import MODE_ACTIONS, MODE_MODIFIERS, WIDE_BURST_MIN_ROF, WIDE_BURST_ROF_LOSS
from rules.errors import RuleError
from rules.results import Message

__all__ = ["MODES", "FireMode", "hits_for_degrees", "mode_rof", "suppressing_mode"]

HitRule = Literal["one", "odd", "each"]


class FireMode(msgspec.Struct, frozen=True):
    """One way to fire. ``message`` names it on the card (a refusal names it by :func:`mode_word`);
    ``rate`` is suppressing fire's semi or full position."""

    name: str
    position: int
    hit_rule: HitRule
    wide: bool = False
    rate: str | None = None

    @property
    def message(self) -> Message:
        if self.rate is not None:
            return msg.SUPPRESSING(rate=msg.RATE[self.rate]())
        return msg.MODE[self.name]()

    @property
    def modifier(self) -> int:
        return MODE_MODIFIERS[self.name]

    @property
    def action(self) -> str:
        """What the shot costs the shooter's turn: every mode is a half action but suppressing fire."""
        return MODE_ACTIONS[self.name]


MODES: dict[str, FireMode] = {
    "single": FireMode("single", 0, "one"),
    "short_burst": FireMode("short_burst", 1, "odd"),
    "long_burst": FireMode("long_burst", 2, "each"),
    "wide_short_burst": FireMode("wide_short_burst", 1, "odd", wide=True),
    "wide_long_burst": FireMode("wide_long_burst", 2, "each", wide=True),
}


def suppressing_mode(rate: str) -> FireMode:
    """Suppressing fire uses the semi-automatic (short) or fully automatic (long) position."""
    position = 1 if rate == "semi" else 2
    return FireMode("suppressing", position, "odd", rate=rate)


def mode_word(mode: FireMode) -> Message:
    """The mode as a refusal names it: "long burst" in English, the catalogue's word elsewhere."""
    if mode.rate is not None:
        return msg.SUPPRESSING_WORD(rate=msg.RATE_WORD[mode.rate]())
    return msg.MODE_WORD[mode.name]()


def mode_rof(mode: FireMode, rof: RateOfFire, weapon_name: str) -> tuple[int, int]:
    """(rounds spent, hit cap) for firing ``mode``; a missing position is an error that names it."""
    value = rof.position(mode.position)
    position = msg.POSITION_WORD[POSITION_NAMES[mode.position]]()
    if value is None:
        refusal = msg.ERR_NO_POSITION(
            weapon=weapon_name, position=position, rof=rof.text, mode=mode_word(mode)
        )
        raise RuleError("$.mode", refusal)
    if not mode.wide:
        return value, value
    if value < WIDE_BURST_MIN_ROF:
        refusal = msg.ERR_WIDE_NEEDS(
            mode=mode_word(mode), position=position, least=WIDE_BURST_MIN_ROF, weapon=weapon_name, value=value
        )
        raise RuleError("$.mode", refusal)
    return value, value - WIDE_BURST_ROF_LOSS


def hits_for_degrees(rule: HitRule, degrees: int, cap: int) -> int:
    """Hits a successful attack lands, before dodges."""
    if rule == "one":
        count = 1
    elif rule == "odd":
        count = (degrees + 1) // 2
    else:
        count = degrees
    return min(count, cap)
