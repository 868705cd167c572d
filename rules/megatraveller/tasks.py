"""The MegaTraveller task roll every shot is built on (Player's Manual task system, as the RCS uses it).

A task is 2D plus DMs against a difficulty's target number. The ladder starts at Simple 3+ and every
step up adds 4 (Routine 7+, Difficult 11+, Formidable 15+, Impossible 19+); the RCS moves a shot up the
ladder ("difficulty shifts") for rapid or automatic fire and for flipping the selector while firing, and
past Impossible the ladder simply keeps climbing by 4. A characteristic counts as its value divided by
five (fractions dropped); a skill level counts as it is. Two ones on the dice miss whatever the DMs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

__all__ = [
    "DIFFICULTIES",
    "DIFFICULTY_STEP",
    "EXCEPTIONAL_FAILURE_MARGIN",
    "EXCEPTIONAL_SUCCESS_MARGIN",
    "NATURAL_MISS",
    "SIMPLE_TARGET",
    "Difficulty",
    "Task",
    "chance",
    "characteristic_dm",
    "difficulty_name",
    "target_number",
]

Difficulty = Literal["simple", "routine", "difficult", "formidable", "impossible"]

#: The named rungs of the ladder, easiest first; the index is the number of shifts above Simple.
DIFFICULTIES: tuple[Difficulty, ...] = ("simple", "routine", "difficult", "formidable", "impossible")
#: Simple's target number, and how much each rung adds.
SIMPLE_TARGET = 3
DIFFICULTY_STEP = 4
#: A natural 2 (both dice showing one) always misses.
NATURAL_MISS = 2

#: Reading (the Player's Manual p.71 text is not in the seed): a single-fire hit is an exceptional
#: success when its total would also have beaten the next rung up, i.e. it clears the target by 4+.
#: A request may override it with ``exceptional_margin``.
EXCEPTIONAL_SUCCESS_MARGIN = DIFFICULTY_STEP
#: Reading (Referee's Manual, as commonly quoted): a miss short of the target by 2 or more, or a
#: natural 2, is an exceptional failure. Reported for single fire only; the RCS ignores mishaps
#: in every multi-bullet mode.
EXCEPTIONAL_FAILURE_MARGIN = 2


def characteristic_dm(value: int) -> int:
    """A characteristic's DM: the value divided by five, rounded down (Dex 13 gives +2)."""
    return value // 5


def target_number(level: int) -> int:
    """Target number of the rung ``level`` shifts above Simple (0 -> 3+, 1 -> 7+, 5 -> 23+)."""
    return SIMPLE_TARGET + DIFFICULTY_STEP * level


def difficulty_name(level: int) -> str:
    """``Difficult`` for a named rung, ``Impossible+2`` beyond the top of the ladder."""
    top = len(DIFFICULTIES) - 1
    if level <= top:
        return DIFFICULTIES[max(level, 0)].capitalize()
    return f"{DIFFICULTIES[top].capitalize()}+{level - top}"


@dataclass(frozen=True, slots=True)
class Task:
    """One to-hit task: the rung it stands on and every DM except the volley's bullet DM."""

    level: int
    dm: int

    @property
    def needed(self) -> int:
        return target_number(self.level)

    def succeeds(self, roll: int, extra_dm: int = 0) -> bool:
        """Whether a 2D ``roll`` (natural, before DMs) hits with ``extra_dm`` on top."""
        return roll != NATURAL_MISS and roll + self.dm + extra_dm >= self.needed


# P(2D = s) * 36 for s = 2..12.
_TWO_DICE_WAYS = {s: 6 - abs(s - 7) for s in range(2, 13)}


@lru_cache(maxsize=1024)
def chance(needed: int, dm: int) -> float:
    """Probability a 2D roll plus ``dm`` reaches ``needed`` without being a natural 2 (memoised: the
    odds of a long volley ask it at every bullet)."""
    ways = sum(w for s, w in _TWO_DICE_WAYS.items() if s != NATURAL_MISS and s + dm >= needed)
    return ways / 36.0
