"""Exact odds: small cases by hand, and ~20,000 seeded attacks against the distribution (chi-square)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from megatraveller_helpers import honjo, jong_wu

from rules import RuleError, decode_request, odds, resolve
from rules.dice import SeededDice
from rules.megatraveller.allocation import default_cluster_split
from rules.megatraveller.autofire import cluster_multisets, remaining_dist
from rules.megatraveller.tasks import chance
from rules.megatraveller.to_hit import hits_only


def one_target(mode: str, **top: Any) -> dict[str, Any]:
    return {
        "system": "megatraveller",
        "mode": mode,
        "attacker": {"id": "s", "skill": 2, "dex": 8, "selector": "burst" if mode == "burst" else "single"},
        "weapon": {"kind": "rifle", "rapid": True, "burst": 2, "loaded": 30},
        "targets": [{"id": "t1", "difficulty": "routine"}],
        **top,
    }


def test_single_fire_odds_are_the_2d_table() -> None:
    result = odds(decode_request(one_target("single")))
    # +3 against 7+: 4 or more on 2D, 33 ways in 36.
    assert result.targets[0].hits == pytest.approx([3 / 36, 33 / 36])
    assert result.jam == 0.0


def test_two_bullet_burst_by_hand() -> None:
    first, second = chance(7, 3 + 1), chance(7, 3)  # +1 bullet DM, then halved to 0
    result = odds(decode_request(one_target("burst")))
    assert result.targets[0].hits == pytest.approx([1 - first, first * (1 - second), first * second])


def test_every_distribution_sums_to_one() -> None:
    for request in (jong_wu(), honjo(), one_target("rapid"), one_target("burst")):
        for target in odds(decode_request(request)).targets:
            assert sum(target.hits) == pytest.approx(1.0, abs=1e-12)


def test_deferred_requests_preview_the_default_split() -> None:
    assert odds(decode_request(jong_wu(allocation="defer"))) == odds(decode_request(jong_wu()))


def test_a_token_down_the_line_of_fire_appears_in_the_odds() -> None:
    request = jong_wu()
    request["targets"][1]["closer"] = ["bystander"]
    ids = [t.id for t in odds(decode_request(request)).targets]
    assert ids == ["g2", "g1", "g3", "bystander"]


def chi_square(request: dict[str, Any], rolls: int, seed: int) -> dict[str, tuple[float, int]]:
    """Per token: chi-square of ``rolls`` seeded attacks against the exact odds, and its degrees of freedom.

    Cells with fewer than 5 expected are merged into their neighbour from the top down.
    """
    decoded = decode_request(request)
    exact = {t.id: t.hits for t in odds(decoded).targets}
    seen: dict[str, Counter[int]] = {token: Counter() for token in exact}
    for k in range(rolls):
        hits = {target.id: target.hits for target in resolve(decoded, SeededDice(seed + k)).targets}
        for token in exact:
            # A token down the line of fire is only listed when a stray reached it.
            seen[token][hits.get(token, 0)] += 1
    out = {}
    for token, probabilities in exact.items():
        cells: list[tuple[float, int]] = []
        expected, observed = 0.0, 0
        for hits in range(len(probabilities) - 1, -1, -1):
            expected += probabilities[hits] * rolls
            observed += seen[token][hits]
            if expected >= 5.0:
                cells.append((expected, observed))
                expected, observed = 0.0, 0
        if expected or observed:
            if cells:
                last_e, last_o = cells.pop()
                cells.append((last_e + expected, last_o + observed))
            else:
                cells.append((expected, observed))
        assert sum(seen[token].values()) == rolls
        statistic = sum((o - e) ** 2 / e for e, o in cells if e > 0)
        out[token] = (statistic, max(len(cells) - 1, 1))
    return out


def within_bound(statistic: float, dof: int) -> bool:
    """Generous: the 1-in-a-million tail is about dof + 7 * sqrt(2 dof) for the sizes here."""
    return statistic < dof + 7.0 * (2.0 * dof) ** 0.5 + 10.0


@pytest.mark.parametrize(
    ("name", "request_", "rolls"),
    [
        ("rapid fire with strays down the line", "rapid", 20_000),
        ("automatic fire with a bystander", "auto", 20_000),
    ],
)
def test_seeded_attacks_match_the_exact_odds(name: str, request_: str, rolls: int) -> None:
    if request_ == "rapid":
        request = jong_wu()
        request["attacker"]["skill"] = 2  # keep the chains long and the misses common
        request["targets"][0]["closer"] = ["g1"]
        request["targets"][2]["closer"] = ["ally"]
    else:
        request = honjo()
        request["attacker"]["skill"] = 0
    results = chi_square(request, rolls, seed=20_261_129)
    for token, (statistic, dof) in results.items():
        assert within_bound(statistic, dof), f"{name}: {token} chi-square {statistic:.1f} on {dof} dof"


def brute_force_clusters(bullets: int) -> dict[tuple[int, ...], float]:
    """Every sequence of 1D cluster rolls, walked one by one (the slow way), as sorted multisets."""
    out: dict[tuple[int, ...], float] = {}

    def walk(left: int, sizes: tuple[int, ...], p: float) -> None:
        if left == 0:
            key = tuple(sorted(sizes, reverse=True))
            out[key] = out.get(key, 0.0) + p
            return
        for face in range(1, 7):
            walk(left - min(face, left), (*sizes, min(face, left)), p / 6.0)

    walk(bullets, (), 1.0)
    return out


@pytest.mark.parametrize("bullets", [1, 2, 5, 7, 10, 13])
def test_cluster_multiset_formula_matches_walking_every_sequence(bullets: int) -> None:
    exact = dict(cluster_multisets(bullets))
    slow = brute_force_clusters(bullets)
    assert set(exact) == set(slow)
    for sizes, p in slow.items():
        assert exact[sizes] == pytest.approx(p, rel=1e-12)


def test_rounds_and_lost_distributions_are_complete() -> None:
    for loaded in (1, 9, 20, 30, 40, 60):
        for controlled in (False, True):
            left = remaining_dist(loaded=loaded, controlled=controlled, empty_magazine=True)
            assert sum(left.values()) == pytest.approx(1.0)
            assert min(left) >= 0 and max(left) <= loaded


def brute_force_controlled_odds(request: dict[str, Any]) -> dict[str, dict[int, float]]:
    """Controlled fire the slow way: every 1D+4, every lost-rounds die, every cluster sequence."""
    loaded = request["weapon"]["loaded"]
    bystanders = [bool(t.get("bystander")) for t in request["targets"]]
    tasks = [(t["needed"], t["dm"]) for t in request["expected_tasks"]]
    out: dict[str, dict[int, float]] = {t["id"]: {} for t in request["targets"]}

    def clusters(left: int, sizes: tuple[int, ...], p: float) -> None:
        if left == 0:
            split = default_cluster_split(sizes, bystanders)
            for target, indices, (needed, dm) in zip(request["targets"], split, tasks, strict=True):
                share = out[target["id"]]
                for hits, q in hits_only(sum(sizes[i] for i in indices), needed, dm).items():
                    share[hits] = share.get(hits, 0.0) + p * q
            return
        for face in range(1, 7):
            clusters(left - min(face, left), (*sizes, min(face, left)), p / 6.0)

    for rounds in range(1, 7):
        fired = min(rounds + 4, loaded)
        for lost_face in range(1, 7):  # under 12 fired: 1D-3 lost, never below 0
            clusters(fired - max(lost_face - 3, 0), (), 1.0 / 36.0)
    return out


def test_controlled_fire_odds_equal_walking_every_roll_with_bystanders_between_targets() -> None:
    # Bystanders listed between the chosen targets: the default split must still reach each token
    # in request order. Skill 1 + Dex 8 (+1) = +2; controlled fire shifts Routine to Difficult 11+.
    request: dict[str, Any] = {
        "system": "megatraveller",
        "mode": "controlled",
        "attacker": {"id": "s", "skill": 1, "dex": 8, "selector": "auto", "target": "t1"},
        "weapon": {"auto": True, "auto_targets": 2, "loaded": 9},
        "targets": [
            {"id": "t1"},
            {"id": "a", "bystander": True},
            {"id": "t2", "dm": -2},
            {"id": "b", "bystander": True, "difficulty": "simple"},
        ],
    }
    expected_tasks = [{"needed": 11, "dm": 2}, {"needed": 11, "dm": 2}, {"needed": 11, "dm": 0},
                      {"needed": 7, "dm": 2}]  # fmt: skip
    slow = brute_force_controlled_odds({**request, "expected_tasks": expected_tasks})
    fast = {t.id: t.hits for t in odds(decode_request(request)).targets}
    assert list(fast) == ["t1", "a", "t2", "b"]
    for token, dist in slow.items():
        assert fast[token] == pytest.approx([dist.get(k, 0.0) for k in range(len(fast[token]))], abs=1e-12)
        assert len(fast[token]) == max(k for k, p in dist.items() if p > 0) + 1


def test_a_natural_two_misses_in_the_odds_whatever_the_dms() -> None:
    # Skill 20: every roll but two ones hits, so each roll hits 35 times in 36.
    ace = {"id": "s", "skill": 20, "dex": 8, "selector": "burst"}
    hit, two = 35 / 36, 1 / 36
    single = odds(decode_request(one_target("single", attacker={**ace, "selector": "single"})))
    assert single.targets[0].hits == pytest.approx([two, hit])
    # A 2-round burst at t1 with a bystander x nearer in the line of fire: a natural 2 on the first
    # roll sends both bullets on at x (a 2-bullet volley of its own), on the second roll just one.
    request = one_target("burst", attacker=ace, targets=[{"id": "t1", "closer": ["x"]}])
    by_id = {t.id: t.hits for t in odds(decode_request(request)).targets}
    assert by_id["t1"] == pytest.approx([two, hit * two, hit * hit])
    two_at_x = [two, hit * two, hit * hit]
    one_at_x = [two, hit]
    assert by_id["x"] == pytest.approx(
        [
            (1 - two - hit * two) + two * two_at_x[0] + hit * two * one_at_x[0],
            two * two_at_x[1] + hit * two * one_at_x[1],
            two * two_at_x[2],
        ]
    )


def jong_wu_volleys(split: list[int], counted: int = 3) -> list[list[float]]:
    """Exact hits per guard for Jong Wu's split: Difficult 11+, DM +5, minus the splitting DM for
    ``counted`` targets (all three designated, unless only those receiving bullets are counted)."""
    dm = 5 + (0, -1, -3)[counted - 1]
    out = []
    for bullets in split:
        dist = hits_only(bullets, 11, dm) if bullets else {0: 1.0}
        out.append([dist.get(k, 0.0) for k in range(max(dist) + 1)])
    return out


def test_odds_of_an_explicit_rapid_split_are_for_the_pool_it_fires() -> None:
    # [3, 1, 0]: the pool was 4; three guards designated (-3 DM), though only two get bullets.
    result = odds(decode_request(jong_wu(allocation=[3, 1, 0])))
    expected = jong_wu_volleys([3, 1, 0])
    for target, exact in zip(result.targets, expected, strict=True):
        assert target.hits == pytest.approx(exact)
    # Counting only the guards that receive bullets: -1 DM.
    result = odds(decode_request(jong_wu(allocation=[3, 1, 0], split_dm_counts="receiving")))
    for target, exact in zip(result.targets, jong_wu_volleys([3, 1, 0], counted=2), strict=True):
        assert target.hits == pytest.approx(exact)


def test_odds_with_a_carried_back_pool_preview_its_default_split() -> None:
    # Step one rolled 4 bullets: the preview is the default 2/1/1 on exactly those 4.
    result = odds(decode_request(jong_wu(allocation="defer", pool={"bullets": 4})))
    for target, exact in zip(result.targets, jong_wu_volleys([2, 1, 1]), strict=True):
        assert target.hits == pytest.approx(exact)


def test_odds_check_an_explicit_cluster_split_against_the_pool() -> None:
    request = honjo(allocation=[[0, 1], [1], [3]], pool={"clusters": [3, 6, 6, 1]})
    with pytest.raises(RuleError) as error:
        odds(decode_request(request))
    assert error.value.path == "$.allocation[1][0]" and "already went to target 0" in error.value.message
