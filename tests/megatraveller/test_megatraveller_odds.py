"""Exact odds: small cases by hand, and ~20,000 seeded attacks against the distribution (chi-square)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from megatraveller_helpers import honjo, jong_wu

from rules import decode_request, odds, resolve
from rules.dice import SeededDice
from rules.megatraveller.autofire import cluster_multisets, remaining_dist
from rules.megatraveller.tasks import chance


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
