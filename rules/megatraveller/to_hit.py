"""One target's volley: the bullets aimed at it, rolled one after another until the first miss.

RCS: Rapid-fire. Each bullet beyond the first adds +1 to the first roll; every roll after that halves
the bullet DM (rounding down). A hit lets the next bullet roll; the first miss ends the volley and the
rest miss too. A natural 2 also ends it, but in rapid and burst fire the bullets it spoiled fly on at
the nearest token in the line of fire (see :mod:`rules.megatraveller.attack`).
"""

from __future__ import annotations

from functools import lru_cache

import msgspec

from rules.dice import Dice
from rules.megatraveller.tasks import NATURAL_MISS, Task, chance
from rules.results import Message

__all__ = ["ToHit", "VolleyOutcome", "bullet_dm", "roll_volley", "volley_dist"]


def bullet_dm(bullets: int) -> int:
    """The volley's opening bonus: +1 for every bullet beyond the first."""
    return max(bullets - 1, 0)


class ToHit(msgspec.Struct, kw_only=True):
    """One to-hit roll of a volley, as the log shows it."""

    dice: list[int]
    roll: int
    dm: int
    bullet_dm: int
    total: int
    needed: int
    hit: bool
    natural_two: bool = False


class VolleyOutcome(msgspec.Struct, frozen=True):
    """Hits scored, the rolls made, and the bullets a natural 2 sent on (``wild``)."""

    hits: int
    rolls: tuple[ToHit, ...]
    wild: int


def roll_volley(dice: Dice, bullets: int, task: Task, purpose: Message) -> VolleyOutcome:
    """Roll one volley of ``bullets`` against ``task`` (two faces per 2D roll, in order)."""
    hits = 0
    bonus = bullet_dm(bullets)
    rolls: list[ToHit] = []
    left = bullets
    while left > 0:
        faces = dice.roll(2, 6, purpose)
        roll = sum(faces)
        dm = task.dm + bonus
        hit = task.succeeds(roll, bonus)
        natural = roll == NATURAL_MISS
        rolls.append(
            ToHit(
                dice=faces,
                roll=roll,
                dm=dm,
                bullet_dm=bonus,
                total=roll + dm,
                needed=task.needed,
                hit=hit,
                natural_two=natural,
            )
        )
        if not hit:
            return VolleyOutcome(hits, tuple(rolls), left if natural else 0)
        hits += 1
        left -= 1
        bonus //= 2
    return VolleyOutcome(hits, tuple(rolls), 0)


@lru_cache(maxsize=4096)
def volley_dist(bullets: int, needed: int, dm: int) -> tuple[tuple[tuple[int, int], float], ...]:
    """Exact distribution of ``(hits, wild)`` for one volley, as sorted pairs.

    ``wild`` is the number of bullets a natural 2 spoiled (0 when the volley ended any other way).
    """
    out: dict[tuple[int, int], float] = {}
    p_two = 1.0 / 36.0
    if bullets <= 0:
        return (((0, 0), 1.0),)
    # Bullet by bullet while they hit: a natural 2 spoils the rest, any other miss ends the volley.
    left, bonus, hits, p = bullets, bullet_dm(bullets), 0, 1.0
    while left > 0:
        p_hit = chance(needed, dm + bonus)
        out[(hits, left)] = out.get((hits, left), 0.0) + p * p_two
        out[(hits, 0)] = out.get((hits, 0), 0.0) + p * (1.0 - p_hit - p_two)
        if p_hit <= 0.0:
            return tuple(sorted(out.items()))
        left, bonus, hits, p = left - 1, bonus // 2, hits + 1, p * p_hit
    out[(hits, 0)] = out.get((hits, 0), 0.0) + p
    return tuple(sorted(out.items()))


@lru_cache(maxsize=4096)
def hits_only(bullets: int, needed: int, dm: int) -> dict[int, float]:
    """Exact distribution of hits for one volley, ignoring where spoiled bullets go.

    Memoised (every preview of automatic fire asks it for each target's every share): callers read
    the dict, never change it.
    """
    out: dict[int, float] = {}
    for (hits, _wild), p in volley_dist(bullets, needed, dm):
        out[hits] = out.get(hits, 0.0) + p
    return out
