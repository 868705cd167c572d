"""Bad input is refused with the field and the rule, before any die, and nothing crashes on the way."""

from __future__ import annotations

from typing import Any

import pytest
from megatraveller_helpers import honjo, jong_wu, roll, with_changes

from rules import RuleError, decode_request, odds


def refused(request: dict[str, Any], *, with_odds: bool = True) -> list[RuleError]:
    """The RuleErrors of ``roll`` (with no dice at all: nothing may be rolled) and of ``odds``."""
    errors = []
    with pytest.raises(RuleError) as rolled:
        roll({**request, "dice": []})
    errors.append(rolled.value)
    if with_odds:
        with pytest.raises(RuleError) as previewed:
            odds(decode_request(request))
        errors.append(previewed.value)
    return errors


@pytest.mark.parametrize(
    ("where", "path"),
    [
        ("attacker", "$.attacker.id"),
        ("target", "$.targets[0].id"),
        ("closer", "$.targets[1].closer[0]"),
    ],
)
def test_token_ids_are_never_empty(where: str, path: str) -> None:
    request = jong_wu()
    if where == "attacker":
        request["attacker"]["id"] = ""
    elif where == "target":
        request["targets"][0]["id"] = ""
    else:
        request["targets"][1]["closer"] = [""]
    for error in refused(request):
        assert error.path == path and "length >= 1" in error.message


@pytest.mark.parametrize("size", [1, 5, 0])
def test_a_burst_size_outside_2_to_4_is_refused_whatever_the_action(size: int) -> None:
    fire = with_changes(jong_wu(), weapon={"burst": size})
    # A reload takes the same attacker and weapon; the firing fields would be unknown to it.
    reload = {
        "system": "megatraveller",
        "action": "reload",
        "attacker": fire["attacker"],
        "weapon": fire["weapon"],
    }
    for request in (fire, reload):  # rapid fire: burst never used
        error = refused(request, with_odds=False)[0]
        assert error.path == "$.weapon.burst"
        assert error.message.startswith(f"a burst is always 2, 3 or 4 bullets, not {size}")


def test_fast_draw_from_a_slung_rifle_says_what_comes_first() -> None:
    error = refused(jong_wu(attacker={"id": "jw", "readiness": "slung"}))[0]
    assert error.path == "$.attacker.readiness"
    assert error.message == (
        "Fast Draw draws a holstered pistol; "
        "the weapon is slung: Unsling Rifle (unsling) first, then Ready Rifle (ready)"
    )
    looser = refused(jong_wu(attacker={"id": "jw", "readiness": "slung"}, fast_draw_weapons="any"))[0]
    assert looser.message == (
        "Fast Draw needs a holstered (or already ready) weapon; "
        "the weapon is slung: Unsling Rifle (unsling) first, then Ready Rifle (ready)"
    )


@pytest.mark.parametrize(
    ("pool", "path", "message"),
    [
        (
            {"clusters": [6, 6, 6, 6]},
            "$.pool.clusters",
            "clusters hold 24 bullets; auto fire from 20 loaded leaves 15 to 20 after the lost rounds",
        ),
        (
            {"rounds": 21, "lost": 4, "clusters": [3, 6, 6, 1]},
            "$.pool.rounds",
            "auto fire from 20 loaded fires exactly 20 rounds, not 21",
        ),
        (
            {"rounds": 20, "lost": 9, "clusters": [3, 6, 6, 1]},
            "$.pool.lost",
            "20 rounds fired lose 1D-1: 0 to 5, not 9",
        ),
        (
            {"rounds": 20, "lost": 3, "clusters": [3, 6, 6, 1]},
            "$.pool.clusters",
            "clusters hold 16 bullets, but 20 fired - 3 lost leaves 17",
        ),
    ],
)
def test_a_pool_carried_back_must_be_one_the_dice_can_roll(
    pool: dict[str, Any], path: str, message: str
) -> None:
    request = honjo(pool=pool, allocation=[[0, 1], [2], [3]])
    for error in refused(request):
        assert (error.path, error.message) == (path, message)


def test_an_enormous_pool_is_refused_not_a_recursion_error() -> None:
    # Once crashed odds (a 2,000-bullet volley walked roll by roll): 3D+20 never fires that many.
    request = honjo(
        weapon={"auto": True, "auto_targets": 2, "loaded": 3000, "capacity": 3000},
        targets=[{"id": "bird1"}],
        pool={"clusters": [1] * 2000},
        allocation=[list(range(2000))],
    )
    for error in refused(request):
        assert error.path == "$.pool.clusters" and "leaves 13 to 32" in error.message


def test_every_pool_step_one_rolls_passes_the_check_in_step_two() -> None:
    # A 35-round magazine emptied when 3D+20 comes within 10: 23 or 24 rounds fired, or all 35.
    weapon = {"auto": True, "auto_targets": 2, "loaded": 35, "capacity": 35}
    seen = set()
    for seed in range(1, 40):
        step_one = honjo(allocation="defer", empty_magazine=True, weapon=weapon)
        pending = roll(step_one, seed=seed).pending
        assert pending is not None and pending.rounds is not None
        seen.add(pending.rounds)
        step_two = roll({**step_one, "allocation": None, "pool": pending}, seed=seed)
        assert step_two.pool == pending
        previewed = odds(decode_request({**step_one, "pool": pending}))
        assert [t.id for t in previewed.targets] == ["bird1", "bird2", "ally"]
    assert 35 in seen and seen - {35}  # both an emptied magazine and a short roll came up


@pytest.mark.parametrize(
    ("request_", "pool", "message"),
    [
        ("jong_wu", {"bullets": 9}, "rapid fire gives 3 to 8 bullets, not 9"),
        ("jong_wu", {"bullets": 2}, "rapid fire gives 3 to 8 bullets, not 2"),
        ("burst", {"bullets": 3}, "burst fire always fires 4, not 3"),
    ],
)
def test_a_bullet_pool_carried_back_must_be_one_the_mode_fires(
    request_: str, pool: dict[str, Any], message: str
) -> None:
    request = jong_wu(pool=pool, allocation="defer")
    if request_ == "burst":
        request = with_changes(request, weapon={"burst": 4}, attacker={"selector": "burst"})
        request.update(mode="burst", action="fire")
        request["attacker"]["readiness"] = "ready"
    for error in refused(request):
        assert (error.path, error.message) == ("$.pool.bullets", message)


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        ({"targets": [{"id": "g2"}, {"id": "g1", "bystander": True}]}, "$.targets[1].bystander",
         "only automatic fire has a danger space; rapid fire picks its targets"),
        ({"targets": [{"id": "g2"}, {"id": "g2"}]}, "$.targets[1].id", "g2 is listed twice"),
    ],
)  # fmt: skip
def test_rapid_fire_targets_are_checked_before_any_die(change: dict[str, Any], path: str, words: str) -> None:
    for error in refused(jong_wu(**change)):
        assert (error.path, error.message) == (path, words)


def test_the_primary_target_cannot_be_a_bystander() -> None:
    request = honjo()
    request["targets"][0]["bystander"] = True
    for error in refused(request):
        assert error.path == "$.targets[0].bystander" and "not a bystander" in error.message


def test_a_cluster_split_that_shorts_the_primary_is_refused_before_the_pool_is_rolled() -> None:
    for error in refused(honjo(allocation=[[0], [1, 2], [3]])):
        assert error.path == "$.allocation[1]" and "only 1 at the primary" in error.message


@pytest.mark.parametrize("mode", ["controlled", "single", "rapid"])
def test_empty_magazine_outside_automatic_fire_is_refused_not_dropped(mode: str) -> None:
    """Issue 18: controlled fire with ``empty_magazine: true`` used to drop the flag without a word."""
    request = honjo(mode=mode, empty_magazine=True) if mode == "controlled" else jong_wu(empty_magazine=True)
    if mode != "controlled":
        request["mode"] = mode
    for error in refused(request):
        assert (error.path, error.code) == ("$.empty_magazine", "rule")
        assert error.msg is not None and error.msg.key == "megatraveller.error.empty_magazine_auto_only"
    odds(decode_request(honjo(empty_magazine=True)))


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"weapon": {"loaded": 100_001, "capacity": None}}, "$.weapon.loaded"),
        ({"weapon": {"capacity": 10**9}}, "$.weapon.capacity"),
        ({"weapon": {"auto_targets": 1000}}, "$.weapon.auto_targets"),
    ],
)
def test_magazine_numbers_have_a_sane_range(changes: dict[str, Any], path: str) -> None:
    request = with_changes(honjo(), **changes)
    request["weapon"] = {k: v for k, v in request["weapon"].items() if v is not None}
    with pytest.raises(RuleError) as caught:
        decode_request(request)
    assert (caught.value.path, caught.value.code) == (path, "invalid")
