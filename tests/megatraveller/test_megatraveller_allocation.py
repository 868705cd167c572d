"""Splitting the pool (RCS: the primary gets at least as many as any other; a cluster each while any last)."""

from __future__ import annotations

from typing import Any

import pytest
from megatraveller_helpers import honjo, jong_wu, roll, to_hit

from rules import RuleError
from rules.megatraveller.allocation import (
    check_cluster_split,
    default_bullet_split,
    default_cluster_split,
)


def test_default_bullet_split_deals_round_the_targets_primary_first() -> None:
    assert default_bullet_split(4, 3) == [2, 1, 1]
    assert default_bullet_split(7, 2) == [4, 3]
    assert default_bullet_split(2, 3) == [1, 1, 0]


def test_default_cluster_split_spares_bystanders_and_favours_the_primary() -> None:
    assert default_cluster_split([3, 6, 6, 1], [False, False, True]) == [[1, 0], [2], [3]]
    # Fewer clusters than targets: the chosen targets first, bystanders get what is left.
    assert default_cluster_split([4, 2], [False, True, False]) == [[0], [], [1]]
    assert default_cluster_split([5], [False, True]) == [[0], []]


@pytest.mark.parametrize(
    ("allocation", "path", "words"),
    [
        ([1, 2, 1], "$.allocation[1]", "only 1 at the primary"),
        ([2, 1], "$.allocation", "2 entries for 3 targets"),
        ([2, -1, 1], "$.allocation[1]", "negative"),
        ([[2], 1, 1], "$.allocation[0]", "give a count"),
        ([3, 3, 3], "$.allocation", "rapid fire gives 3 to 8"),
        ([1, 1, 0], "$.allocation", "rapid fire gives 3 to 8"),
    ],
)
def test_explicit_bullet_splits_are_checked_before_any_die(allocation: Any, path: str, words: str) -> None:
    with pytest.raises(RuleError) as error:
        roll(jong_wu(allocation=allocation, dice=[]))  # no faces at all: nothing may be rolled
    assert error.value.path == path and words in error.value.message


def test_an_explicit_split_must_fire_the_whole_pool() -> None:
    with pytest.raises(RuleError) as error:
        roll(jong_wu(allocation=[2, 2, 1], dice=[2, *to_hit(8, 12, 3, 9)]))
    assert error.value.path == "$.allocation" and "pool is 4" in error.value.message


def test_an_explicit_split_everything_at_the_primary_is_legal() -> None:
    # Jong Wu designated three guards, so the -3 DM for three targets stands (RCS: the DM is for the
    # targets designated), even though the split gives the other two no bullet.
    result = roll(jong_wu(allocation=[4, 0, 0], dice=[2, 1, 1]))
    assert [t.bullets for t in result.targets] == [4, 0, 0]
    assert result.targets[0].dm == 7 - 2 - 3


def test_the_splitting_dm_may_count_only_the_targets_that_receive_bullets() -> None:
    # The older reading, kept as an option: one guard receives bullets, so there is no splitting DM.
    result = roll(jong_wu(allocation=[4, 0, 0], split_dm_counts="receiving", dice=[2, 1, 1]))
    assert result.targets[0].dm == 7 - 2
    designated, receiving = (
        roll(jong_wu(allocation=[3, 1, 0], split_dm_counts=counts, dice=[2, 1, 1, 2, 1]))
        for counts in ("designated", "receiving")
    )
    assert [t.dm for t in designated.targets] == [7 - 2 - 3] * 3
    assert [t.dm for t in receiving.targets] == [7 - 2 - 1] * 3


@pytest.mark.parametrize(
    ("split", "path", "words"),
    [
        ([[0], [1], [2, 3]], "$.allocation[2]", "only 1 at the primary"),
        ([[0, 1], [1], [3]], "$.allocation[1][0]", "already went"),
        ([[0, 1], [2], [7]], "$.allocation[2][0]", "no cluster 7: the pool has 4 clusters, counted from 0"),
        ([[0, 1], [2], []], "$.allocation", "3 not allocated"),
        ([[0, 1], [2, 3], []], "$.allocation[2]", "gets a cluster"),
    ],
)
def test_explicit_cluster_splits_are_checked(split: list[list[int]], path: str, words: str) -> None:
    with pytest.raises(RuleError) as error:
        check_cluster_split(split, [3, 6, 6, 1])
    assert error.value.path == path and words in error.value.message


def test_a_bad_cluster_split_in_a_request_rolls_nothing_to_hit() -> None:
    # The pool must be rolled to check indices against it, but no to-hit face is consumed: the error
    # comes before them (the request below scripts only the pool).
    with pytest.raises(RuleError) as error:
        roll(honjo(allocation=[[0, 1], [2], [9]], dice=[1, 1, 1, 5, 3, 6, 6, 1]))
    assert error.value.path == "$.allocation[2][0]"


def test_cluster_indices_for_rapid_fire_are_refused() -> None:
    with pytest.raises(RuleError) as error:
        roll(honjo(allocation=[1, 1, 1]))
    assert error.value.path == "$.allocation[0]" and "cluster indices" in error.value.message
