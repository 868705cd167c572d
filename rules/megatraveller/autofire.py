"""How much an automatic weapon puts downrange (RCS: Automatic fire, Controlled fire).

A full-automatic burst empties 3D+20 rounds (never more than the magazine holds, and the whole
magazine if the shooter chooses when the roll comes within 10 of it); a controlled pulse is 1D+4. A
chart then says how many rounds are wasted, and what is left is broken into clusters of 1D bullets
that the shooter hands out between targets. This module rolls that pool and gives its exact
distribution for the odds.
"""

from __future__ import annotations

from functools import lru_cache
from math import factorial

import msgspec

from rules.dice import Dice
from rules.megatraveller import messages as msg
from rules.odds import Dist, dice_sum, mixture
from rules.results import Message

__all__ = [
    "AUTO_ROUNDS",
    "CLUSTER_DIE",
    "CONTROLLED_ROUNDS",
    "EMPTY_WITHIN",
    "LOST_CHART",
    "AutoPool",
    "LostRow",
    "cluster_multisets",
    "fired_dist",
    "lost_dist",
    "lost_row",
    "roll_auto_pool",
    "rounds_roll_is_moot",
]


class LostRow(msgspec.Struct, frozen=True):
    """One row of the lost-rounds chart: from ``fired_from`` rounds fired, ``dice``D + ``modifier``."""

    fired_from: int
    dice: int
    modifier: int

    def describe(self) -> str:
        """The row's roll in dice notation ("1D-3", "2D+2"), the same in every language."""
        sign = "+" if self.modifier >= 0 else "-"
        return f"{self.dice}D{sign}{abs(self.modifier)}"


#: RCS: Automatic fire, the lost-rounds chart. The seed prints overlapping rows "12-16" and "16-20";
#: our reading gives 16 to the later row, so 12-15 lose 1D-2 and 16-20 lose 1D-1 (the worked example
#: fires 20 and rolls 1D-1). A result never goes below 0 or above the rounds fired.
LOST_CHART: tuple[LostRow, ...] = (
    LostRow(0, 1, -3),
    LostRow(12, 1, -2),
    LostRow(16, 1, -1),
    LostRow(21, 1, 1),
    LostRow(24, 1, 3),
    LostRow(27, 2, 2),
    LostRow(31, 2, 4),
    LostRow(34, 3, 3),
)
#: RCS: Automatic fire empties 3D+20 rounds; controlled fire 1D+4.
AUTO_ROUNDS = (3, 20)
CONTROLLED_ROUNDS = (1, 4)
#: RCS: the shooter may empty the magazine when the roll is within this many rounds of it.
EMPTY_WITHIN = 10
#: RCS: the bullet pool is broken into clusters of 1D; the last cluster is whatever is left.
CLUSTER_DIE = 6


def lost_row(fired: int) -> LostRow:
    row = LOST_CHART[0]
    for candidate in LOST_CHART:
        if fired >= candidate.fired_from:
            row = candidate
    return row


class AutoPool(msgspec.Struct, frozen=True):
    """The pool of one automatic or controlled discharge: what the dice said, step by step."""

    rolled: int
    fired: int
    lost: int
    clusters: tuple[int, ...]
    log: tuple[Message, ...]


def _fired(rolled: int, loaded: int, empty_magazine: bool) -> int:
    if empty_magazine and rolled < loaded and loaded - rolled <= EMPTY_WITHIN:
        return loaded
    return min(rolled, loaded)


def rounds_roll_is_moot(*, loaded: int, controlled: bool, empty_magazine: bool) -> bool:
    """Whether the magazine is emptied whatever the rounds roll shows (Honjo's 20-round autorifle)."""
    count, base = CONTROLLED_ROUNDS if controlled else AUTO_ROUNDS
    least = count + base
    return loaded <= least or (not controlled and empty_magazine and loaded <= least + EMPTY_WITHIN)


def roll_auto_pool(
    dice: Dice, *, loaded: int, controlled: bool, empty_magazine: bool, roll_rounds: bool = True
) -> AutoPool:
    """Roll rounds fired, rounds lost and the clusters, in that order (the order the text rolls them).

    ``roll_rounds=False`` skips a rounds roll that cannot matter (see :func:`rounds_roll_is_moot`); only
    scripted dice that leave its faces out ask for that.
    """
    log: list[Message] = []
    if not roll_rounds:
        rolled = fired = loaded
        log.append(msg.MAGAZINE_EMPTIES(loaded=loaded))
    elif controlled:
        count, base = CONTROLLED_ROUNDS
        rolled = dice.total(count, 6, msg.ROLL_CONTROLLED_ROUNDS()) + base
        fired = min(rolled, loaded)
        log.append(msg.CONTROLLED_ROUNDS(rolled=rolled, fired=fired, loaded=loaded, capped=fired < rolled))
    else:
        count, base = AUTO_ROUNDS
        rolled = dice.total(count, 6, msg.ROLL_AUTO_ROUNDS()) + base
        fired = _fired(rolled, loaded, empty_magazine)
        log.append(
            msg.AUTO_ROUNDS(
                rolled=rolled,
                fired=fired,
                loaded=loaded,
                capped=fired == loaded and rolled > loaded,
                emptied=fired == loaded and rolled < loaded,
                within=EMPTY_WITHIN,
            )
        )
    row = lost_row(fired)
    raw = dice.total(row.dice, 6, msg.ROLL_LOST(chart=row.describe())) + row.modifier
    lost = min(max(raw, 0), fired)
    log.append(msg.LOST(chart=row.describe(), rolled=raw, lost=lost, clamped=lost != raw))
    remaining = fired - lost
    clusters: list[int] = []
    while remaining > 0:
        face = dice.d(CLUSTER_DIE, msg.ROLL_CLUSTER())
        clusters.append(min(face, remaining))
        remaining -= clusters[-1]
    if clusters:
        log.append(msg.CLUSTERS(bullets=fired - lost, clusters=list(clusters)))
    else:
        log.append(msg.NO_BULLETS_LEFT())
    return AutoPool(rolled, fired, lost, tuple(clusters), tuple(log))


def fired_dist(*, loaded: int, controlled: bool, empty_magazine: bool) -> Dist:
    """Exact distribution of rounds fired."""
    out: Dist = {}
    if controlled:
        count, base = CONTROLLED_ROUNDS
        for face, p in dice_sum(count, 6).items():
            fired = min(face + base, loaded)
            out[fired] = out.get(fired, 0.0) + p
        return out
    count, base = AUTO_ROUNDS
    for total, p in dice_sum(count, 6).items():
        fired = _fired(total + base, loaded, empty_magazine)
        out[fired] = out.get(fired, 0.0) + p
    return out


def lost_dist(fired: int) -> Dist:
    """Exact distribution of rounds lost when ``fired`` rounds are fired (clamped to 0..fired)."""
    row = lost_row(fired)
    out: Dist = {}
    for total, p in dice_sum(row.dice, 6).items():
        lost = min(max(total + row.modifier, 0), fired)
        out[lost] = out.get(lost, 0.0) + p
    return out


def remaining_dist(*, loaded: int, controlled: bool, empty_magazine: bool) -> Dist:
    """Exact distribution of bullets left for the clusters."""
    parts = []
    for fired, p in fired_dist(loaded=loaded, controlled=controlled, empty_magazine=empty_magazine).items():
        parts.append((p, {fired - lost: q for lost, q in lost_dist(fired).items()}))
    return mixture(parts)


_FACTORIAL = [factorial(n) for n in range(64)]


@lru_cache(maxsize=128)
def cluster_multisets(bullets: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every multiset of cluster sizes ``bullets`` can break into, largest first, with its probability.

    Exact without walking every sequence of rolls: all clusters but the last are plain 1D faces
    (1/6 each, in any order) and the last is whatever remained, which a die reaches with probability
    (7 - size)/6. Summed over which size came last, a multiset with ``n[v]`` clusters of size ``v``
    (``C`` in all) has probability ``(C-1)! / prod(n[v]!) * sum(n[v] * (7 - v)) / 6**C``; the walk
    below builds the product and the sum size by size, largest size first.
    """
    if bullets <= 0:
        return (((), 1.0),)
    sides = CLUSTER_DIE
    out: list[tuple[tuple[int, ...], float]] = []

    def walk(size: int, left: int, prefix: tuple[int, ...], weight: float, reach: int) -> None:
        if size == 1:
            total = len(prefix) + left
            p = (
                _FACTORIAL[total - 1]
                * weight
                / _FACTORIAL[left]
                * (reach + left * sides)
                / float(sides) ** total
            )
            out.append((prefix + (1,) * left, p))
            return
        for n in range(left // size + 1):
            walk(
                size - 1,
                left - n * size,
                prefix + (size,) * n,
                weight / _FACTORIAL[n],
                reach + n * (sides + 1 - size),
            )

    walk(sides, bullets, (), 1.0, 0)
    return tuple(out)
