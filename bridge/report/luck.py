"""How lucky an attack was, on a scale that means the same for every weapon, mode and rule system.

An attack's exact odds give the whole distribution of the hits it can score. Where the hits it did
score fall in that distribution is its **luck percentile**: near 0 for a miserable result, near 1
for a splendid one. With discrete outcomes a plain percentile is lumpy (a single shot can only hit or
miss), so ties are split at random: the percentile is ``P(X < k) + U * P(X = k)`` for ``k`` hits, with
``U`` uniform on [0, 1) (the randomised probability integral transform). Under fair dice that value is
exactly uniform on [0, 1), whatever the attack, which is what lets percentiles from a shotgun blast
and a machine-gun burst be added up, and lets the dice be checked against the uniform distribution.

``U`` comes from a hash of the entry's seed and id, never from a clock or a global generator, so a
report of the same journal says the same thing every time it is written.

A shooter's luck is Stouffer's combination of their percentiles: each becomes a standard normal score
``z_i = Phi^-1(u_i)`` and ``z = sum(z_i) / sqrt(n)`` is standard normal again under fair dice, so its
two-sided p-value says how surprising the whole evening's luck was.

**Corrected verdicts.** Each shooter is one more look: with seven shooters at 0.05 each, about a third
of fair evenings would name somebody lucky or unlucky. ``judge_luck`` adjusts the p-values of all the
shooters on the page together (Holm), and the verdict comes from the adjusted value, so a fair evening
names somebody lucky or unlucky at most one time in twenty, "remarkably" one time in a hundred. The
luck figure shown is still the shooter's own, uncorrected standing. A campaign report pools each
shooter's attacks over every session first, so it makes one look per shooter, not one per session.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from statistics import NormalDist

from bridge.report.correction import holm

__all__ = [
    "LUCK_ALERT_P",
    "LUCK_NOTE_P",
    "MIN_PERCENTILES",
    "Luck",
    "LuckSum",
    "combine",
    "expected_hits",
    "judge_luck",
    "luck_percentile",
    "main_target",
    "tie_breaker",
]

#: A shooter's luck is called "remarkable" below this two-sided p-value...
LUCK_ALERT_P = 0.01
#: ...and "noticeable" below this one. Above it, luck is ordinary.
LUCK_NOTE_P = 0.05
#: Fewer attacks than this say nothing about a shooter's luck.
MIN_PERCENTILES = 3

_NORMAL = NormalDist()
#: Percentiles are kept this far inside (0, 1) so that Phi^-1 stays finite.
_EDGE = 1e-12
#: Probabilities this small count as zero (float sums of exact odds are exact to about 1e-15).
_NEGLIGIBLE = 1e-12


def tie_breaker(seed: int | None, entry_id: str, target: str) -> float:
    """``U`` for one attack: uniform on [0, 1), reproducible from the journal alone.

    BLAKE2b of the seed, the request id and the target, so two attacks never share a ``U`` and the
    value has nothing to do with the faces the seed rolled.
    """
    digest = hashlib.blake2b(
        f"{seed}\x1f{entry_id}\x1f{target}".encode(), digest_size=8, person=b"volley-luck"
    ).digest()
    return (int.from_bytes(digest, "big") >> 11) * 2.0**-53


def luck_percentile(hits: Sequence[float], scored: int, u: float) -> float | None:
    """``P(X < scored) + u * P(X = scored)`` for the distribution ``hits`` (``hits[k] = P(X = k)``).

    None when the odds say ``scored`` hits could not happen (odds and result disagree: a journal from
    another rules version, or an edited one); such an attack has no place on the uniform scale.
    """
    total = math.fsum(hits)
    if scored < 0 or scored >= len(hits) or total <= 0.0:
        return None
    at = hits[scored]
    if at <= _NEGLIGIBLE:
        return None
    below = math.fsum(hits[:scored])
    value = (below + u * at) / total
    return min(max(value, _EDGE), 1.0 - _EDGE)


def main_target(targets: Sequence[tuple[str, Sequence[float]]]) -> int | None:
    """Which target's hits measure an attack's luck: the one it was mostly aimed at.

    The odds give each target's distribution but not their joint one (a burst split between two
    targets ties their hits together), and adding dependent percentiles would break their uniformity.
    So each attack contributes one percentile, for the target with the most hits expected (the first
    on ties). The choice depends on the odds alone, never on the dice, so the percentile stays exactly
    uniform. Targets whose hits are certain (nothing to be lucky about) and tokens listed twice (their
    entries are parts of one total) are passed over; None when nothing is left.
    """
    seen = Counter(token for token, _ in targets)
    best: int | None = None
    best_mean = -1.0
    for index, (token, hits) in enumerate(targets):
        if seen[token] > 1 or _certain(hits):
            continue
        mean = expected_hits(hits)
        if mean > best_mean + _NEGLIGIBLE:
            best, best_mean = index, mean
    return best


def expected_hits(hits: Sequence[float]) -> float:
    """The mean of a hits distribution (``hits[k] = P(k hits)``)."""
    return math.fsum(k * p for k, p in enumerate(hits))


def _certain(hits: Sequence[float]) -> bool:
    return sum(1 for p in hits if p > _NEGLIGIBLE) <= 1


@dataclass(frozen=True)
class Luck:
    """A shooter's luck over ``count`` attacks.

    ``z`` is Stouffer's score (negative: unlucky), ``p`` its two-sided p-value and ``standing`` the
    share of fair-dice evenings that would have gone worse (``Phi(z)``): 0.04 reads "luckier than only
    4% of evenings". ``adjusted`` is ``p`` corrected for the other shooters on the page (``judge_luck``)
    and, when set, is what the verdict reads.
    """

    count: int
    z: float
    p: float
    standing: float
    adjusted: float | None = None

    @property
    def verdict(self) -> str:
        """``too_few``, ``ordinary``, or ``lucky``/``unlucky`` with ``very_`` when remarkable."""
        if self.count < MIN_PERCENTILES:
            return "too_few"
        p = self.p if self.adjusted is None else self.adjusted
        if p >= LUCK_NOTE_P:
            return "ordinary"
        side = "lucky" if self.z > 0 else "unlucky"
        return f"very_{side}" if p < LUCK_ALERT_P else side


@dataclass
class LuckSum:
    """Stouffer's combination kept as it goes: how many percentiles, and the sum of their normal
    scores (compensated, so a hundred thousand attacks add up as exactly as ten)."""

    count: int = 0
    z_sum: float = 0.0
    _carry: float = 0.0

    def add(self, u: float) -> None:
        self._add(_NORMAL.inv_cdf(min(max(u, _EDGE), 1.0 - _EDGE)))
        self.count += 1

    def merge(self, other: LuckSum) -> None:
        self._add(other.z_sum)
        self._add(other._carry)
        self.count += other.count

    def _add(self, value: float) -> None:
        # Neumaier's compensated summation
        total = self.z_sum + value
        if abs(self.z_sum) >= abs(value):
            self._carry += (self.z_sum - total) + value
        else:
            self._carry += (value - total) + self.z_sum
        self.z_sum = total

    def luck(self) -> Luck:
        """The shooter's ``Luck``: Stouffer's z and its two-sided p-value."""
        if self.count == 0:
            return Luck(count=0, z=0.0, p=1.0, standing=0.5)
        z = (self.z_sum + self._carry) / math.sqrt(self.count)
        p = min(1.0, 2.0 * _NORMAL.cdf(-abs(z)))
        return Luck(count=self.count, z=z, p=p, standing=_NORMAL.cdf(z))


def combine(percentiles: Sequence[float]) -> Luck:
    """Stouffer's z of the percentiles, with its two-sided p-value."""
    together = LuckSum()
    for u in percentiles:
        together.add(u)
    return together.luck()


def judge_luck(lucks: Mapping[str, Luck]) -> dict[str, Luck]:
    """Every shooter's luck with its p-value corrected for the others judged on the page (Holm).

    Shooters with too few attacks get no verdict and are not counted among the looks.
    """
    judged = [name for name, luck in lucks.items() if luck.count >= MIN_PERCENTILES]
    adjusted = dict(zip(judged, holm([lucks[name].p for name in judged]), strict=True))
    return {name: replace(luck, adjusted=adjusted.get(name)) for name, luck in lucks.items()}
