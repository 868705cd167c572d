"""Two-step play: roll the pool, let the shooter split it, then resolve with the same dice.

Step one is the request with ``"allocation": "defer"``; step two is the same request with an explicit
split, resolved from the same seed (or the step-one faces followed by the to-hit faces). The pool
dice come first, so step two rolls the very same pool before its to-hit rolls.
"""

from __future__ import annotations

import pytest
from megatraveller_helpers import honjo, jong_wu, roll, to_hit

from rules import RuleError, decode_request, odds
from rules.megatraveller.to_hit import hits_only


def test_step_one_rolls_only_the_pool_and_changes_nothing() -> None:
    pending = roll(jong_wu(allocation="defer", dice=[2]))
    assert pending.pending is not None and pending.pending.bullets == 4
    assert all(t.to_hit == [] and t.hits == 0 for t in pending.targets)
    assert pending.updates == []
    assert pending.weapon is not None and pending.weapon.loaded == 15
    assert (pending.readiness, pending.target) == ("holstered", None)
    assert len(pending.rolls) == 1


def test_step_two_with_the_step_one_faces_then_the_to_hit_faces() -> None:
    result = roll(jong_wu(allocation=[2, 1, 1], dice=[2, *to_hit(8, 12, 3, 9)]))
    assert [t.hits for t in result.targets] == [2, 0, 1]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_the_same_seed_gives_the_same_pool_in_both_steps(seed: int) -> None:
    pending = roll(honjo(allocation="defer"), seed=seed).pending
    assert pending is not None and pending.clusters is not None
    clusters = pending.clusters
    # The shooter puts everything but one smallest cluster on the main bird; the ally gets that one.
    smallest = min(range(len(clusters)), key=lambda i: (clusters[i], i))
    rest = [i for i in range(len(clusters)) if i != smallest]
    if len(clusters) >= 3:
        split = [rest[:-1], rest[-1:], [smallest]]
    else:
        split = [[i] for i in range(len(clusters))] + [[]] * (3 - len(clusters))
    result = roll(honjo(allocation=split, pool=pending), seed=seed)
    assert result.pool == pending
    assert result.allocation == split
    assert [t.bullets for t in result.targets] == [sum(clusters[i] for i in part) for part in split]


def test_step_two_is_checked_against_the_pool_it_rolls() -> None:
    pending = roll(jong_wu(allocation="defer"), seed=11).pending
    assert pending is not None and pending.bullets is not None
    wrong = [pending.bullets + 1, 0, 0] if pending.bullets < 8 else [pending.bullets - 1, 0, 0]
    with pytest.raises(RuleError) as error:
        roll(jong_wu(allocation=wrong), seed=11)
    assert error.value.path == "$.allocation" and f"pool is {pending.bullets}" in error.value.message


def test_a_pool_that_the_dice_do_not_reproduce_is_refused() -> None:
    with pytest.raises(RuleError) as error:
        roll(
            honjo(
                allocation=[[0, 1], [2], [3]], pool={"clusters": [6, 6, 3, 1]}, dice=[1, 1, 1, 5, 3, 6, 6, 1]
            )
        )
    assert error.value.path == "$.pool" and "not the same dice" in error.value.message


def test_odds_of_a_split_pool_are_the_odds_of_its_volleys() -> None:
    request = honjo(allocation=[[0, 1], [2], [3]], pool={"rounds": 20, "lost": 4, "clusters": [3, 6, 6, 1]})
    result = odds(decode_request(request))
    by_id = {t.id: t.hits for t in result.targets}
    for target, bullets in (("bird1", 9), ("bird2", 6), ("ally", 1)):
        exact = hits_only(bullets, 11, 2)
        assert by_id[target] == pytest.approx([exact.get(k, 0.0) for k in range(len(by_id[target]))])


def test_odds_can_replay_the_pool_from_scripted_dice() -> None:
    with_pool = odds(decode_request(honjo(allocation=[[0, 1], [2], [3]], pool={"clusters": [3, 6, 6, 1]})))
    replayed = odds(decode_request(honjo(allocation=[[0, 1], [2], [3]], dice=[1, 1, 1, 5, 3, 6, 6, 1])))
    assert replayed == with_pool


def test_odds_of_cluster_indices_need_a_pool() -> None:
    with pytest.raises(RuleError) as error:
        odds(decode_request(honjo(allocation=[[0, 1], [2], [3]])))
    assert error.value.path == "$.allocation" and "pool" in error.value.message
