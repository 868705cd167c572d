"""The five fire modes, one rule at a time (RCS: To-Hit)."""

from __future__ import annotations

from typing import Any

import pytest
from megatraveller_helpers import roll, to_hit

from bridge.i18n import Catalogue
from rules import RuleError, decode_request, resolve
from rules.dice import SeededDice
from rules.megatraveller.autofire import lost_row
from rules.megatraveller.tasks import difficulty_name, target_number
from rules.results import Message


def shooter(**attacker: Any) -> dict[str, Any]:
    return {
        "id": "s",
        "name": "Sam",
        "skill": 2,
        "dex": 8,
        "readiness": "ready",
        "selector": "single",
        **attacker,
    }


def rifle(**weapon: Any) -> dict[str, Any]:
    return {"name": "ACR", "kind": "rifle", "rapid": True, "burst": 4, "auto": True, "auto_targets": 3,
            "loaded": 30, "capacity": 30, **weapon}  # fmt: skip


def fire(mode: str, targets: list[dict[str, Any]] | None = None, **top: Any) -> dict[str, Any]:
    return {
        "system": "megatraveller",
        "mode": mode,
        "attacker": shooter(target="t1"),
        "weapon": rifle(),
        "targets": targets or [{"id": "t1", "difficulty": "routine"}],
        **top,
    }


def test_the_difficulty_ladder_climbs_by_four_past_impossible() -> None:
    assert [target_number(level) for level in range(7)] == [3, 7, 11, 15, 19, 23, 27]
    assert difficulty_name(1) == "Routine" and difficulty_name(4) == "Impossible"
    assert difficulty_name(6) == "Impossible+2"


def test_single_fire_one_bullet_against_routine() -> None:
    # skill 2 + Dex 8 (+1) = +3 against 7+: a 4 hits, a 3 misses.
    hit = roll(fire("single", dice=to_hit(4)))
    assert (hit.targets[0].hits, hit.targets[0].needed, hit.targets[0].dm) == (1, 7, 3)
    miss = roll(fire("single", dice=to_hit(3)))
    assert miss.targets[0].hits == 0
    assert hit.weapon is not None and hit.weapon.loaded == 29


def test_single_fire_exceptional_success_is_beating_the_next_rung() -> None:
    # +3 against 7+: an 8 makes 11, exactly the next rung (Difficult): exceptional. A 7 (10) is not.
    assert roll(fire("single", dice=to_hit(8))).targets[0].exceptional
    assert not roll(fire("single", dice=to_hit(7))).targets[0].exceptional
    # The margin is a named default a request can override.
    assert not roll(fire("single", dice=to_hit(8), exceptional_margin=5)).targets[0].exceptional


def test_single_fire_exceptional_failure_when_short_by_two_or_a_natural_two() -> None:
    assert roll(fire("single", dice=to_hit(2))).targets[0].exceptional_failure
    assert roll(fire("single", dice=to_hit(2), attacker=shooter(skill=20))).targets[0].exceptional_failure
    assert not roll(fire("single", dice=to_hit(3))).targets[0].exceptional_failure  # 6 vs 7: short by 1


def test_a_natural_two_misses_whatever_the_dms() -> None:
    result = roll(fire("single", attacker=shooter(skill=20, target="t1"), dice=[1, 1]))
    assert result.targets[0].hits == 0 and result.targets[0].to_hit[0].natural_two


def test_no_exceptional_success_outside_single_fire() -> None:
    request = fire(
        "burst", attacker=shooter(selector="burst", skill=9, target="t1"), dice=to_hit(12, 12, 12, 12)
    )
    result = roll(request)
    assert result.targets[0].hits == 4 and not result.targets[0].exceptional


def test_rapid_fire_bullets_are_1d_plus_dex_dm_capped_by_the_magazine() -> None:
    # Dex 8 gives +1: a 6 on the die is 7 bullets, but only 3 are loaded.
    result = roll(fire("rapid", weapon=rifle(loaded=3), dice=[6, *to_hit(3)]))
    assert result.pool is not None and result.pool.bullets == 3
    assert result.weapon is not None and result.weapon.loaded == 0


def test_rapid_fire_only_spends_what_it_rolled() -> None:
    result = roll(fire("rapid", dice=[2, *to_hit(3)]))  # 1D+1 = 3 bullets; the first roll misses
    assert result.weapon is not None and (result.weapon.fired, result.weapon.loaded) == (3, 27)


def test_rapid_fire_shifts_difficulty_and_splits_at_minus_one_and_minus_three() -> None:
    two = [{"id": "t1"}, {"id": "t2"}]
    result = roll(fire("rapid", two, dice=[3, *to_hit(3, 3)]))  # 4 bullets: 2/2
    assert result.targets[0].needed == 11 and result.targets[0].dm == 3 - 1
    three = [{"id": "t1"}, {"id": "t2"}, {"id": "t3"}]
    result = roll(fire("rapid", three, dice=[1, *to_hit(3, 3)]))  # 2 bullets: only two targets get one
    assert result.allocation == [1, 1, 0]
    assert result.targets[0].dm == 3 - 3  # three targets designated: -3, bullet or not
    assert result.targets[2].to_hit == []
    fewer = roll(fire("rapid", three, split_dm_counts="receiving", dice=[1, *to_hit(3, 3)]))
    assert fewer.targets[0].dm == 3 - 1  # the other reading: only the two that receive a bullet


def test_burst_fires_its_fixed_size_without_a_shift() -> None:
    request = fire("burst", attacker=shooter(selector="burst", target="t1"), dice=to_hit(5, 4, 3))
    result = roll(request)
    target = result.targets[0]
    # 4 bullets against Routine 7+ (no shift): 5 + 3 + 3 = 11 hits, 4 + 3 + 1 = 8 hits, 3 + 3 + 0 misses.
    assert target.needed == 7 and target.bullets == 4
    assert [r.bullet_dm for r in target.to_hit] == [3, 1, 0]
    assert target.hits == 2
    assert result.weapon is not None and result.weapon.loaded == 26


def test_burst_bullet_dm_halves_after_every_roll() -> None:
    request = fire("burst", attacker=shooter(selector="burst", target="t1"), dice=to_hit(3, 4, 4, 4))
    target = roll(request).targets[0]
    assert [r.bullet_dm for r in target.to_hit] == [3, 1, 0, 0]
    assert [r.hit for r in target.to_hit] == [True, True, True, True]
    assert target.hits == 4


def test_a_volley_stops_at_the_first_miss() -> None:
    request = fire("burst", attacker=shooter(selector="burst", target="t1"), dice=to_hit(12, 2))
    target = roll(request).targets[0]
    assert target.hits == 1 and len(target.to_hit) == 2


def test_burst_needs_the_whole_burst_in_the_magazine() -> None:
    request = fire("burst", attacker=shooter(selector="burst", target="t1"), weapon=rifle(loaded=2))
    with pytest.raises(RuleError) as error:
        roll(request)
    assert error.value.path == "$.mode" and "magazine has 2 rounds" in error.value.message


@pytest.mark.parametrize(
    ("mode", "weapon", "why"),
    [
        ("rapid", {"rapid": False}, "no /R"),
        ("burst", {"burst": None}, "no burst setting"),
        ("auto", {"auto": False}, "not capable of automatic fire"),
        ("controlled", {"auto": False}, "not capable of automatic fire"),
    ],
)
def test_a_mode_the_weapon_lacks_is_refused(mode: str, weapon: dict[str, Any], why: str) -> None:
    with pytest.raises(RuleError) as error:
        roll(fire(mode, weapon=rifle(**weapon)))
    assert error.value.path == "$.mode" and why in error.value.message


def test_firing_off_the_selector_costs_a_rung_and_moves_it() -> None:
    # Selector on burst, fire rapid: +1 for rapid fire, +1 for the switch: Routine -> Formidable 15+.
    request = fire("rapid", attacker=shooter(selector="burst", target="t1"), dice=[1, *to_hit(3)])
    result = roll(request)
    assert result.targets[0].needed == 15
    assert result.selector == "single"
    assert result.updates[0].state["selector"] == "single"


def test_fast_draw_cannot_move_the_selector() -> None:
    pistol = rifle(name="Autopistol", kind="pistol")
    request = fire(
        "burst", action="fast_draw", attacker=shooter(readiness="holstered", selector="single"), weapon=pistol
    )
    with pytest.raises(RuleError) as error:
        roll(request)
    assert error.value.path == "$.mode" and "Fast Draw cannot change" in error.value.message


def test_automatic_fire_3d_plus_20_lost_rounds_and_clusters() -> None:
    # 40-round magazine: 3D = 3 -> 23 rounds; 23 fired loses 1D+1 (a 1 -> 2); 21 bullets in clusters.
    request = fire(
        "auto", attacker=shooter(selector="auto", target="t1"), weapon=rifle(loaded=40, capacity=40)
    )
    request["dice"] = [1, 1, 1, 1, 6, 6, 6, 3, 1, 1]
    result = roll(request)
    assert result.pool is not None
    assert (result.pool.rounds, result.pool.lost, result.pool.clusters) == (23, 2, [6, 6, 6, 3])
    assert result.targets[0].bullets == 21 and result.targets[0].needed == 11
    assert result.targets[0].to_hit[0].bullet_dm == 20
    assert result.weapon is not None and result.weapon.loaded == 17


def test_the_last_cluster_is_whatever_is_left() -> None:
    # 20 fired, 1D-1 lost = 0 (a 1), 20 bullets: 6, 6, 6, then a 5 on the die leaves only 2.
    request = fire("auto", attacker=shooter(selector="auto", target="t1"), weapon=rifle(loaded=20))
    request["dice"] = [1, 1, 1, 1, 6, 6, 6, 5, 1, 1]
    result = roll(request)
    assert result.pool is not None and result.pool.clusters == [6, 6, 6, 2]


def test_the_shooter_may_empty_the_magazine_within_ten_rounds() -> None:
    base = fire("auto", attacker=shooter(selector="auto", target="t1"), weapon=rifle(loaded=30))
    # 3D = 3 -> 23 rounds, 7 short of the 30 loaded: with empty_magazine all 30 go (lost 2D+2 = 4).
    emptied = roll({**base, "empty_magazine": True, "dice": [1, 1, 1, 1, 1, 6, 6, 6, 6, 2, 1, 1]})
    assert emptied.pool is not None and (emptied.pool.rounds, emptied.pool.lost) == (30, 4)
    assert emptied.weapon is not None and emptied.weapon.loaded == 0
    twenty_three = [1, 1, 1, 1, 6, 6, 6, 6, 1, 1]  # 23 fired, 1D+1 lost = 2, clusters 6, 6, 6, 3
    kept = roll({**base, "dice": twenty_three})
    assert kept.pool is not None and (kept.pool.rounds, kept.pool.lost) == (23, 2)
    assert kept.weapon is not None and kept.weapon.loaded == 7
    # 40 loaded is 17 more than 23: too far to empty, so the option changes nothing.
    far = roll(
        {**base, "weapon": rifle(loaded=40, capacity=40), "empty_magazine": True, "dice": twenty_three}
    )
    assert far.pool is not None and far.pool.rounds == 23


def test_lost_round_chart_rows_and_the_overlap_reading() -> None:
    assert lost_row(11).describe() == "1D-3"
    assert lost_row(12).describe() == "1D-2" and lost_row(15).describe() == "1D-2"
    assert lost_row(16).describe() == "1D-1" and lost_row(20).describe() == "1D-1"
    assert lost_row(21).describe() == "1D+1" and lost_row(26).describe() == "1D+3"
    assert lost_row(27).describe() == "2D+2" and lost_row(31).describe() == "2D+4"
    assert lost_row(34).describe() == "3D+3" and lost_row(38).describe() == "3D+3"


def test_controlled_fire_is_1d_plus_4_then_automatic_rules() -> None:
    request = fire("controlled", attacker=shooter(selector="auto", target="t1"))
    # 1D+4 = 10 rounds; under 12 loses 1D-3 (a 5 -> 2); 8 bullets: clusters 5, then 3.
    request["dice"] = [6, 5, 5, 4, 1, 1]
    result = roll(request)
    assert result.pool is not None and (result.pool.rounds, result.pool.lost, result.pool.clusters) == (
        10,
        2,
        [5, 3],
    )
    assert result.targets[0].needed == 11  # automatic fire's shift
    assert result.weapon is not None and result.weapon.loaded == 20


def test_automatic_fire_takes_up_to_auto_tgts_chosen_targets_bystanders_aside() -> None:
    targets = [{"id": "t1"}, {"id": "t2"}, {"id": "a1", "bystander": True}, {"id": "a2", "bystander": True}]
    request = fire(
        "auto", targets, attacker=shooter(selector="auto", target="t1"), weapon=rifle(auto_targets=2)
    )
    allowed = roll(request)  # two chosen targets and two bystanders: allowed, no splitting DM
    assert [t.bystander for t in allowed.targets] == [False, False, True, True]
    assert all(t.clusters for t in allowed.targets)  # 3D+20 from 30 makes plenty: a cluster each
    assert {t.dm for t in allowed.targets} == {3}
    too_many = fire(
        "auto", [{"id": "t1"}, {"id": "t2"}, {"id": "t3"}], attacker=shooter(selector="auto", target="t1")
    )
    too_many["weapon"] = rifle(auto_targets=2)
    with pytest.raises(RuleError) as error:
        roll(too_many)
    assert error.value.path == "$.targets" and "Auto Tgts 2" in error.value.message


def test_automatic_fire_has_no_splitting_dm() -> None:
    targets = [{"id": "t1"}, {"id": "t2"}, {"id": "t3"}]
    request = fire("auto", targets, attacker=shooter(selector="auto", target="t1"), weapon=rifle(loaded=20))
    request["dice"] = [1, 1, 1, 1, 6, 6, 6, 2, 1, 1, 1, 1, 1, 1]
    result = roll(request)
    assert {t.dm for t in result.targets} == {3}


def test_a_natural_two_sends_the_rest_of_a_rapid_volley_at_the_nearest_token() -> None:
    # 1D+1 = 5 bullets all at t1; the first roll is a natural 2, so all 5 fly on at the bystander b1,
    # who is not a target: rolled with the shooter's own DMs (+3) against t1's rung, Difficult 11+.
    request = fire("rapid", [{"id": "t1", "closer": ["b1", "b2"], "dm": -2}], dice=[4, 1, 1, *to_hit(4, 3)])
    result = roll(request)
    t1, b1 = result.targets
    assert (t1.hits, t1.wild, t1.wild_to) == (0, 5, "b1")
    assert b1.id == "b1" and b1.hits == 1
    stray = b1.strays[0]
    assert (stray.source, stray.bullets, stray.needed) == ("t1", 5, 11)
    assert [r.dm for r in stray.to_hit] == [3 + 4, 3 + 2]  # the stray volley's own bullet DM: +4, then +2
    assert result.weapon is not None and result.weapon.loaded == 25


def test_strays_into_a_listed_target_use_its_own_task_and_do_not_cascade() -> None:
    targets = [{"id": "t1", "closer": ["t2"]}, {"id": "t2", "closer": ["x"], "dm": 1}]
    request = fire("burst", targets, attacker=shooter(selector="burst", target="t1"))
    # burst 4 split 2/2; t1 rolls a natural 2 (2 bullets go on at t2); t2's own volley: natural 2 too,
    # which sends its 2 on at x; x's stray volley rolls another natural 2 and that is the end of it.
    request["dice"] = [1, 1, *to_hit(12, 12), 1, 1, 1, 1]
    result = roll(request)
    t1, t2, x = result.targets
    assert t2.hits == 2 and t2.strays[0].source == "t1" and t2.strays[0].needed == 7
    assert [r.dm for r in t2.strays[0].to_hit] == [3 + 1 + 1, 3 + 1]  # t2's own dm +1, no split DM
    assert x.id == "x" and x.hits == 0 and len(x.strays[0].to_hit) == 1
    assert t1.hits == 0


def test_single_and_automatic_fire_send_nothing_down_the_line() -> None:
    result = roll(fire("single", [{"id": "t1", "closer": ["b1"]}], dice=[1, 1]))
    assert [t.id for t in result.targets] == ["t1"] and result.targets[0].wild == 1


def test_bullet_dm_halves_down_a_long_volley() -> None:
    # 9 bullets: +8, +4, +2, +1, +0 ...
    request = fire("auto", attacker=shooter(selector="auto", target="t1", skill=9), weapon=rifle(loaded=9))
    request["mode"] = "controlled"
    request["dice"] = [5, 1, 6, 3, *to_hit(12, 12, 12, 12, 12, 12, 12, 12, 12)]  # 9 fired, 0 lost: 6 + 3
    result = roll(request)
    assert [r.bullet_dm for r in result.targets[0].to_hit] == [8, 4, 2, 1, 0, 0, 0, 0, 0]
    assert result.targets[0].hits == 9


def test_the_request_is_never_modified() -> None:
    request = fire("rapid", [{"id": "t1"}, {"id": "t2"}])
    before = repr(request)
    decoded = decode_request(request)
    snapshot = repr(decoded)
    resolve(decoded, SeededDice(3))
    assert repr(decoded) == snapshot and repr(request) == before


def test_emptying_the_magazine_is_allowed_exactly_ten_rounds_short_and_no_further() -> None:
    # 3D = 3 -> 23 rounds. 33 loaded is exactly 10 more: all 33 go (31-33 lose 2D+4 = 6 on 1, 1).
    base = fire("auto", attacker=shooter(selector="auto", target="t1"), empty_magazine=True)
    ten = roll({**base, "weapon": rifle(loaded=33, capacity=40), "dice": [1, 1, 1, 1, 1, *[6] * 5, 3, 1, 1]})
    assert ten.pool is not None and (ten.pool.rounds, ten.pool.lost) == (33, 6)
    assert ten.weapon is not None and ten.weapon.loaded == 0
    # 34 loaded is 11 more: too far, so 23 rounds go (1D+1 lost = 2 on a 1) and 11 stay.
    eleven = roll({**base, "weapon": rifle(loaded=34, capacity=40), "dice": [1, 1, 1, 1, 6, 6, 6, 3, 1, 1]})
    assert eleven.pool is not None and (eleven.pool.rounds, eleven.pool.lost) == (23, 2)
    assert eleven.weapon is not None and eleven.weapon.loaded == 11


def test_lost_rounds_never_exceed_the_rounds_fired() -> None:
    # Controlled fire with 2 rounds left: 1D+4 fires both; 1D-3 on a 6 is 3, taken as 2; nothing flies.
    request = fire("controlled", attacker=shooter(selector="auto", target="t1"), weapon=rifle(loaded=2))
    result = roll({**request, "dice": [4, 6]})
    assert result.pool is not None and (result.pool.rounds, result.pool.lost, result.pool.clusters) == (
        2,
        2,
        [],
    )
    assert result.targets[0].hits == 0 and result.targets[0].to_hit == []
    assert result.weapon is not None and result.weapon.loaded == 0
    lost = Message("megatraveller.pool.lost", {"chart": "1D-3", "rolled": 3, "lost": 2, "clamped": True})
    assert lost in result.log
    assert Catalogue.load("en").render(lost) == "rounds lost 1D-3 = 3 (taken as 2)"
    assert Catalogue.load("ru").render(lost) == "потеряно патронов 1D-3 = 3 (берём 2)"


def test_single_fire_exceptional_failure_starts_two_short() -> None:
    # Skill 0, Dex 5 (+1), target dm -2: DM -1 against 7+. A 6 makes 5, two short: exceptional
    # failure; a 7 makes 6, one short: a plain miss.
    attacker = shooter(skill=0, dex=5, target="t1")
    two_short = roll(fire("single", [{"id": "t1", "dm": -2}], attacker=attacker, dice=to_hit(6)))
    assert two_short.targets[0].to_hit[0].total == 5 and two_short.targets[0].exceptional_failure
    one_short = roll(fire("single", [{"id": "t1", "dm": -2}], attacker=attacker, dice=to_hit(7)))
    assert one_short.targets[0].to_hit[0].total == 6 and not one_short.targets[0].exceptional_failure


@pytest.mark.parametrize(
    ("mode", "count", "words"),
    [
        ("single", 2, "single fire takes at most 1 target(s), got 2"),
        ("rapid", 4, "rapid fire takes at most 3 target(s), got 4"),
        ("burst", 4, "burst fire takes at most 3 target(s), got 4"),
    ],
)
def test_too_many_targets_for_the_mode_are_refused(mode: str, count: int, words: str) -> None:
    selector = "burst" if mode == "burst" else "single"
    targets = [{"id": f"t{k}"} for k in range(1, count + 1)]
    with pytest.raises(RuleError) as error:
        roll(fire(mode, targets, attacker=shooter(selector=selector, target="t1"), dice=[]))
    assert (error.value.path, error.value.message) == ("$.targets", words)
