"""Splitting the pool between targets (RCS: Rapid-fire, Burst-fire, Automatic-fire).

The shooter splits at will within two rules: the primary target (the one locked on) gets at least as
many bullets (clusters, in automatic fire) as any other single target, and in automatic fire every
target, chosen or caught in the danger space, gets a cluster while any are left. When a request gives
no split, the default policy below makes one; when it gives one, it is checked against these rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.errors import RuleError
from rules.megatraveller import messages as msg

__all__ = [
    "check_bullet_split",
    "check_cluster_split",
    "check_primary_leads",
    "cluster_bullets",
    "default_bullet_split",
    "default_cluster_split",
]


def default_bullet_split(bullets: int, targets: int) -> list[int]:
    """Default for rapid and burst fire: deal bullets one at a time, primary first, round the targets.

    Every target gets a share as long as bullets last and the primary is never behind (Jong Wu's four
    bullets at three guards come out 2/1/1, as in the book).
    """
    split = [0] * targets
    for k in range(bullets):
        split[k % targets] += 1
    return split


def default_cluster_split(clusters: Sequence[int], bystanders: Sequence[bool]) -> list[list[int]]:
    """Default for automatic fire: the fewest bullets to bystanders, the most to the primary.

    Clusters are ranked largest first (ties by roll order). When there are enough for everyone, each
    bystander gets one of the smallest and the rest are dealt round the chosen targets, largest first,
    primary first; otherwise the largest go to the chosen targets in request order and bystanders get
    what is left. Honjo Boram's 3, 6, 6, 1 at two birds and an ally come out 6+3 / 6 / 1, as he chose.
    """
    order = sorted(range(len(clusters)), key=lambda i: (-clusters[i], i))
    chosen = [t for t, by in enumerate(bystanders) if not by]
    caught = [t for t, by in enumerate(bystanders) if by]
    split: list[list[int]] = [[] for _ in bystanders]
    if len(order) >= len(bystanders):
        smallest = order[len(order) - len(caught) :][::-1]
        for target, index in zip(caught, smallest, strict=True):
            split[target].append(index)
        for k, index in enumerate(order[: len(order) - len(caught)]):
            split[chosen[k % len(chosen)]].append(index)
    else:
        for target, index in zip(chosen + caught, order, strict=False):
            split[target].append(index)
    return split


def cluster_bullets(clusters: Sequence[int], split: Sequence[Sequence[int]]) -> list[int]:
    """Bullets each target receives from its clusters."""
    return [sum(clusters[i] for i in indices) for indices in split]


def check_primary_leads(counts: Sequence[int], noun: str, path: str = "$.allocation") -> None:
    """RCS: the primary target (index 0) gets at least as many bullets or clusters as any other."""
    for k, count in enumerate(counts[1:], start=1):
        if count > counts[0]:
            refusal = msg.ERR_PRIMARY_LEADS(count=count, clusters=noun == "clusters", primary=counts[0])
            raise RuleError(f"{path}[{k}]", refusal)


def check_bullet_split(split: Sequence[int], bullets: int, path: str = "$.allocation") -> None:
    """An explicit rapid/burst split: one count per target, the whole pool, primary not behind."""
    fired = sum(split)
    if fired != bullets:
        raise RuleError(path, msg.ERR_POOL_MISMATCH(fired=fired, bullets=bullets))
    check_primary_leads(split, "bullets", path)


def check_cluster_split(
    split: Sequence[Sequence[int]], clusters: Sequence[int], path: str = "$.allocation"
) -> None:
    """An explicit automatic split: each cluster used once, the primary not behind, a cluster each
    while any remain (so nobody may hold two while someone has none)."""
    seen: dict[int, int] = {}
    for t, indices in enumerate(split):
        for k, index in enumerate(indices):
            if not 0 <= index < len(clusters):
                raise RuleError(f"{path}[{t}][{k}]", msg.ERR_NO_CLUSTER(index=index, rolled=len(clusters)))
            if index in seen:
                raise RuleError(f"{path}[{t}][{k}]", msg.ERR_CLUSTER_TWICE(index=index, target=seen[index]))
            seen[index] = t
    unused = [i for i in range(len(clusters)) if i not in seen]
    if unused:
        raise RuleError(path, msg.ERR_CLUSTERS_UNUSED(unused=unused))
    counts = [len(indices) for indices in split]
    check_primary_leads(counts, "clusters", path)
    if 0 in counts and max(counts) > 1:
        empty = counts.index(0)
        raise RuleError(f"{path}[{empty}]", msg.ERR_CLUSTER_EACH())
