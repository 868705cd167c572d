"""How the default split shares out a random pool of clusters, exactly (RCS: Automatic fire).

With sizes sorted largest first, the default split (:func:`~rules.megatraveller.allocation.
default_cluster_split`) gives target ``r`` (chosen targets first, then bystanders) cluster ``r`` when
there are fewer clusters than targets; otherwise each bystander one of the smallest clusters and the
chosen targets the rest, dealt round them largest first. So a target's bullets are one order statistic
of the sorted sizes (rank ``r`` from the top, or ``y`` from the bottom), except for a chosen target
dealt two clusters or more, whose bullets are a strided sum of them.

The odds of every multiset of sizes are known (:func:`~rules.megatraveller.autofire.cluster_multisets`),
but summing over all of them for every target is slow: a 48-round burst can break into 7,760 multisets.
So, once per number of bullets, this module tabulates the order statistics by cluster count (the
:class:`Ranks` tables), and a split then costs a few table lookups per target; only the targets dealt
several clusters walk the multisets, and only the multisets with enough clusters to deal them several.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from itertools import accumulate

from rules.megatraveller.autofire import CLUSTER_DIE, cluster_multisets
from rules.odds import Dist

__all__ = [
    "Ranks",
    "is_cached",
    "mixed_shares",
    "multiset_count",
    "ranks",
    "share_of_bullets",
    "split_cost",
]

_SIZES = CLUSTER_DIE + 1  # a cluster holds 1..6 bullets; index 0 stands for "no cluster"

Multiset = tuple[tuple[int, ...], float]


class Ranks:
    """Order statistics of the sorted cluster sizes of ``bullets`` bullets, by cluster count.

    ``by_count[c]`` lists the multisets of ``c`` clusters. ``top(r, c)[v]`` is the probability that
    there are at most ``c`` clusters, more than ``r`` of them, and the one of rank ``r`` (from the
    largest, counting from 0) holds ``v`` bullets; ``bottom(y, c)[v]`` the same for at least ``c``
    clusters and rank ``y`` counted from the smallest. ``fewer(c)`` is the probability of at most ``c``
    clusters.
    """

    def __init__(self, bullets: int) -> None:
        self.bullets = bullets
        most = max(bullets, 1)
        self.by_count: list[list[Multiset]] = [[] for _ in range(most + 1)]
        # counts[c][r][v]: P(c clusters and rank r holds v) -- ranks from the top
        counts = [[[0.0] * _SIZES for _ in range(c)] for c in range(most + 1)]
        mass = [0.0] * (most + 1)
        for sizes, p in cluster_multisets(bullets):
            count = len(sizes)
            self.by_count[count].append((sizes, p))
            mass[count] += p
            table = counts[count]
            for rank, size in enumerate(sizes):
                table[rank][size] += p
        self._fewer = list(accumulate(mass))
        self.sizes_by_count = [[sizes for sizes, _ in group] for group in self.by_count]
        # How many multisets have c clusters or more, and the same weighted by their cluster count
        # (``dealt``: one subtraction instead of a walk over the counts, for ``split_cost``).
        self._from = list(accumulate((len(group) for group in reversed(self.by_count)), initial=0))[::-1]
        weighted = (c * len(self.by_count[c]) for c in reversed(range(most + 1)))
        self._weighted_from = list(accumulate(weighted, initial=0))[::-1]
        self.odds_by_count = [[p for _, p in group] for group in self.by_count]
        # Cumulative over the count: from the fewest clusters up (ranks from the top), from the most
        # down (ranks from the bottom), so that a range of counts is one subtraction.
        counted = range(most + 1)
        self._top = [_running(counts[c][r] if r < c else None for c in counted) for r in range(most)]
        self._bottom = [
            _running(counts[c][c - 1 - y] if y < c else None for c in reversed(counted))[::-1]
            for y in range(most)
        ]

    def dealt(self, targets: int, chosen: int) -> int:
        """Clusters the walk of a split deals to chosen targets: over the multisets of more clusters
        than ``targets``, each gives ``min(chosen, clusters - targets)``; counted from two running
        sums instead of walking the counts (this runs on the bridge's loop for every preview)."""
        end = len(self.by_count)
        first = min(targets + 1, end)  # fewer clusters than that deal nothing
        whole = min(max(targets + chosen, first), end)  # from here on, each deals ``chosen``
        partly = (self._weighted_from[first] - self._weighted_from[whole]) - targets * (
            self._from[first] - self._from[whole]
        )
        return partly + chosen * self._from[whole]

    def fewer(self, count: int) -> float:
        """P(at most ``count`` clusters)."""
        if count < 0:
            return 0.0
        return self._fewer[min(count, len(self._fewer) - 1)]

    def top(self, rank: int, low: int, high: int) -> list[float]:
        """P(count in low..high, rank ``rank`` from the top holds v), for each v."""
        if rank >= len(self._top):
            return [0.0] * _SIZES
        table = self._top[rank]
        high = min(high, len(table) - 1)
        if high < low:
            return [0.0] * _SIZES
        upper = table[high]
        if low <= 0:
            return upper
        lower = table[low - 1]
        return [a - b for a, b in zip(upper, lower, strict=True)]

    def bottom(self, rank: int, low: int) -> list[float]:
        """P(count at least ``low``, rank ``rank`` from the bottom holds v), for each v."""
        if rank >= len(self._bottom):
            return [0.0] * _SIZES
        table = self._bottom[rank]
        if low >= len(table):
            return [0.0] * _SIZES
        return table[max(low, 0)]


_ranks: dict[int, Ranks] = {}


def ranks(bullets: int) -> Ranks:
    """The order-statistic tables of ``bullets`` bullets (memoised; ``warm_up`` fills them)."""
    table = _ranks.get(bullets)
    if table is None:
        table = _ranks[bullets] = Ranks(bullets)
    return table


@cache
def multiset_count(bullets: int) -> int:
    """How many multisets of cluster sizes ``bullets`` can break into (partitions into parts <= 6)."""
    ways = [1] + [0] * max(bullets, 0)
    for size in range(1, CLUSTER_DIE + 1):
        for total in range(size, bullets + 1):
            ways[total] += ways[total - size]
    return ways[bullets] if bullets >= 0 else 0


Shares = tuple[tuple[tuple[int, float], ...], ...]
#: Splits remembered; past this many the oldest are forgotten (each is a few hundred floats).
SPLITS_KEPT = 4096
_splits: dict[tuple[int, int, int], Shares] = {}


def is_cached(remaining: int, chosen: int, caught: int) -> bool:
    """Whether :func:`share_of_bullets` has this split at hand (or needs no work for it)."""
    return chosen + caught == 1 or remaining <= 0 or (remaining, chosen, caught) in _splits


#: Rough CPU cost on this kind of machine, in milliseconds: building a bullet count's tables, per
#: multiset; dealing one multiset's clusters to one target; one target's table lookups.
_TABLE_MS_PER_MULTISET = 0.004
_DEAL_MS = 0.0004
_LOOKUP_MS = 0.006


def split_cost(remaining: int, chosen: int, caught: int) -> float:
    """About how many milliseconds :func:`share_of_bullets` would take now (0 when it is cached)."""
    if is_cached(remaining, chosen, caught):
        return 0.0
    targets = chosen + caught
    table = _ranks.get(remaining)
    if table is None:  # the tables first, then the walk over about every multiset
        return multiset_count(remaining) * (_TABLE_MS_PER_MULTISET + _DEAL_MS * min(chosen, 4))
    return targets * _LOOKUP_MS + table.dealt(targets, chosen) * _DEAL_MS


def share_of_bullets(remaining: int, chosen: int, caught: int) -> Shares:
    """Exact distribution of the bullets the default split gives each target from ``remaining``.

    Targets are numbered as the default split sees them: the ``chosen`` targets (primary first), then
    the ``caught`` bystanders. Memoised.
    """
    key = (remaining, chosen, caught)
    shares = _splits.get(key)
    if shares is None:
        shares = _split(remaining, chosen, caught)
        if len(_splits) >= SPLITS_KEPT:
            del _splits[next(iter(_splits))]
        _splits[key] = shares
    return shares


def _split(remaining: int, chosen: int, caught: int) -> Shares:
    targets = chosen + caught
    if targets == 1 or remaining <= 0:
        return tuple(((remaining if k == 0 else 0, 1.0),) for k in range(targets))
    table = ranks(remaining)
    # Only a chosen target dealt several clusters can get more bullets than one cluster holds.
    several = len(table.by_count) > targets + 1
    padding = [0.0] * max(remaining + 1 - _SIZES, 0) if several else []
    shares: list[list[float]] = []
    # Chosen target k gets rank k while there are at most k + targets clusters: fewer than targets
    # (ranks dealt in order), or enough for one each with k + chosen beyond the bystanders' share.
    for k in range(chosen):
        row = table.top(k, 0, k + targets) + padding  # index 0 holds no size: it is 0.0
        row[0] = table.fewer(k)
        shares.append(row)
    # Bystander y is rank chosen + y while there are fewer clusters than targets, and gets rank y
    # from the bottom once there are enough for everyone.
    for y in range(caught):
        fewer, enough = table.top(chosen + y, 0, targets - 1), table.bottom(y, targets)
        row = [a + b for a, b in zip(fewer, enough, strict=True)]
        row[0] = table.fewer(chosen + y)
        shares.append(row)
    # With more clusters still, chosen target k is dealt ranks k, k + chosen, ...: several clusters.
    for count in range(targets + 1, len(table.by_count)):
        dealt = count - caught
        multisets, odds = table.sizes_by_count[count], table.odds_by_count[count]
        for k in range(min(chosen, count - targets)):
            row = shares[k]
            for bullets, p in zip(_dealt(multisets, range(k, dealt, chosen)), odds, strict=True):
                row[bullets] += p
    return tuple(tuple([(b, p) for b, p in enumerate(row) if p]) for row in shares)


def _dealt(multisets: list[tuple[int, ...]], ranks: range) -> list[int]:
    """Bullets in the clusters of the given ranks, for each multiset (two or three ranks spelt out:
    the usual case, and the hot loop of a cold split)."""
    if len(ranks) == 2:
        a, b = ranks
        return [m[a] + m[b] for m in multisets]
    if len(ranks) == 3:
        a, b, c = ranks
        return [m[a] + m[b] + m[c] for m in multisets]
    return [sum(m[ranks.start : ranks.stop : ranks.step]) for m in multisets]


def _running(rows: Iterable[list[float] | None]) -> list[list[float]]:
    """Running sums of ``rows`` (None adds nothing; the previous sum is shared, not copied)."""
    out: list[list[float]] = []
    running = [0.0] * _SIZES
    for row in rows:
        if row is not None:
            running = [a + b for a, b in zip(running, row, strict=True)]
        out.append(running)
    return out


def mixed_shares(left: Mapping[int, float], bystanders: tuple[bool, ...]) -> list[Dist]:
    """Each target's bullets (in request order) over every number of bullets ``left`` may leave.

    The mixture over the pool's sizes is summed straight into one array per target: this runs for
    every automatic-fire preview, cold or not.
    """
    chosen = [k for k, by in enumerate(bystanders) if not by]
    caught = [k for k, by in enumerate(bystanders) if by]
    order = chosen + caught
    acc = [[0.0] * (max(left, default=0) + 1) for _ in bystanders]
    for remaining, weight in left.items():
        table = share_of_bullets(remaining, len(chosen), len(caught))
        for rank, k in enumerate(order):
            row = acc[k]
            for bullets, p in table[rank]:
                row[bullets] += weight * p
    return [{bullets: p for bullets, p in enumerate(row) if p} for row in acc]
