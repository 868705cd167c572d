"""Exact discrete distributions, for previews and for checking the dice against the maths.

A distribution is a ``dict`` from outcome to probability. Everything here is exact enumeration
(convolution and mixtures), never sampling; floats carry the probabilities, so sums are exact to
about 1e-15, which is all a preview needs and all a chi-square test can see. A sum of a hundred
0.01s is 1.0000000000000007, though, and a probability must never print above 1: :func:`probability`
puts such a stray back in [0, 1], and every published ``Odds`` goes through it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from functools import lru_cache
from typing import Any, TypeVar

__all__ = [
    "Dist",
    "at_least",
    "at_most",
    "constant",
    "convolve",
    "dice_sum",
    "die",
    "hits_list",
    "map_outcomes",
    "mixture",
    "normalise_check",
    "probability",
    "shift",
]

K = TypeVar("K", bound=Hashable)
Dist = dict[int, float]


def probability(p: float) -> float:
    """``p`` clamped to [0, 1]: float sums stray a few units in the last place past either end."""
    return 0.0 if p < 0.0 else 1.0 if p > 1.0 else p


def constant(value: int) -> Dist:
    return {value: 1.0}


def die(sides: int) -> Dist:
    """One fair die."""
    p = 1.0 / sides
    return {face: p for face in range(1, sides + 1)}


def convolve(a: Mapping[int, float], b: Mapping[int, float]) -> Dist:
    """The distribution of the sum of two independent outcomes."""
    out: Dist = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, 0.0) + px * py
    return out


@lru_cache(maxsize=256)
def _dice_sum(count: int, sides: int) -> tuple[tuple[int, float], ...]:
    dist: Dist = constant(0)
    for _ in range(count):
        dist = convolve(dist, die(sides))
    return tuple(sorted(dist.items()))


def dice_sum(count: int, sides: int) -> Dist:
    """``count``d``sides``, e.g. ``dice_sum(3, 6)`` for 3d6. Cached; a fresh dict each call."""
    return dict(_dice_sum(count, sides))


def shift(dist: Mapping[int, float], by: int) -> Dist:
    return {k + by: p for k, p in dist.items()}


def map_outcomes(dist: Mapping[int, float], f: Callable[[int], K]) -> dict[K, float]:
    """Push a distribution through ``f``, merging outcomes that land on the same value."""
    out: dict[K, float] = {}
    for k, p in dist.items():
        key = f(k)
        out[key] = out.get(key, 0.0) + p
    return out


def mixture(parts: Iterable[tuple[float, Mapping[K, float]]]) -> dict[K, float]:
    """Weighted sum of distributions: ``sum(weight * dist)``."""
    out: dict[K, float] = {}
    for weight, dist in parts:
        if weight == 0.0:
            continue
        for k, p in dist.items():
            out[k] = out.get(k, 0.0) + weight * p
    return out


def at_least(dist: Mapping[int, float], threshold: int) -> float:
    return sum(p for k, p in dist.items() if k >= threshold)


def at_most(dist: Mapping[int, float], threshold: int) -> float:
    return sum(p for k, p in dist.items() if k <= threshold)


def hits_list(dist: Mapping[int, float], length: int | None = None) -> list[float]:
    """``[P(0), P(1), ...]`` up to the largest outcome (or ``length`` entries); ``TargetOdds`` clamps
    them when they are published."""
    top = max((k for k, p in dist.items() if p > 0.0), default=0)
    size = max(top + 1, length or 0)
    return [dist.get(k, 0.0) for k in range(size)]


def normalise_check(dist: Mapping[Any, float], *, tolerance: float = 1e-9) -> None:
    """Assert a distribution sums to one: a cheap guard against a lost branch."""
    total = sum(dist.values())
    if abs(total - 1.0) > tolerance:
        raise AssertionError(f"distribution sums to {total}, not 1")
