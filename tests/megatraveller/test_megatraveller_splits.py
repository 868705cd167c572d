"""The default split's odds from order statistics equal summing the split over every cluster multiset."""

from __future__ import annotations

import pytest

from rules.megatraveller.allocation import cluster_bullets, default_cluster_split
from rules.megatraveller.autofire import cluster_multisets
from rules.megatraveller.splits import Ranks, is_cached, multiset_count, share_of_bullets


def walked(remaining: int, chosen: int, caught: int) -> list[dict[int, float]]:
    """Apply the default split to every multiset of sizes (the slow, obviously right way)."""
    bystanders = [False] * chosen + [True] * caught
    shares: list[dict[int, float]] = [{} for _ in bystanders]
    for sizes, p in cluster_multisets(remaining):
        split = default_cluster_split(sizes, bystanders)
        for share, bullets in zip(shares, cluster_bullets(sizes, split), strict=True):
            share[bullets] = share.get(bullets, 0.0) + p
    return shares


SHAPES = [(r, k, t - k) for r in (1, 2, 5, 6, 7, 12, 19) for t in range(1, 9) for k in range(1, t + 1)]
SHAPES += [(r, k, 24 - k) for r in (26, 48) for k in (1, 2, 5, 12, 23, 24)]
SHAPES += [(48, 3, 1), (48, 4, 4), (40, 8, 0)]


@pytest.mark.parametrize(("remaining", "chosen", "caught"), SHAPES)
def test_the_split_from_order_statistics_equals_walking_every_multiset(
    remaining: int, chosen: int, caught: int
) -> None:
    fast = share_of_bullets(remaining, chosen, caught)
    slow = walked(remaining, chosen, caught)
    assert len(fast) == len(slow) == chosen + caught
    for got, want in zip(fast, slow, strict=True):
        got_dist = dict(got)
        assert set(got_dist) == {b for b, p in want.items() if p > 0}
        for bullets, p in want.items():
            assert got_dist[bullets] == pytest.approx(p, abs=1e-13)
    assert is_cached(remaining, chosen, caught)


def test_multiset_count_counts_every_multiset() -> None:
    assert [multiset_count(r) for r in range(49)] == [len(cluster_multisets(r)) for r in range(49)]


def test_the_clusters_a_split_deals_are_counted_as_walking_every_count_counts_them() -> None:
    """``Ranks.dealt`` (what ``split_cost`` estimates a cold split by, on the bridge's loop for every
    preview) from two running sums equals the walk over every cluster count it replaced."""
    for remaining in range(49):
        table = Ranks(remaining)
        for targets in range(1, 34):
            for chosen in range(targets + 1):
                walked = sum(
                    len(table.by_count[count]) * min(chosen, count - targets)
                    for count in range(targets + 1, len(table.by_count))
                )
                assert table.dealt(targets, chosen) == walked, (remaining, targets, chosen)
