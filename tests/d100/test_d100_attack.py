"""Attack modes, ammunition, jams, weapon classes, range, cover and blasts: scripted dice, the book's numbers.

Vex (BS 45) and her Autogun (S/3/10, 30 rounds) from the issue fire at a Heretic unless a test says
otherwise. With no range given, a long burst tests BS 45 - 10 = 35.
"""

from __future__ import annotations

import math
from itertools import product

import msgspec
import pytest
from d100_helpers import VEX, lines, merged, refused, roll, vex

from rules import RuleError, decode_request
from rules.d100.allocation import allocate
from rules.results import Message


def test_long_burst_lands_a_hit_per_degree() -> None:
    """12 against 35: 1 + 3 - 1 = 3 degrees, 3 hits; each hit on the primary rolls its location."""
    result = roll(VEX, [12, 5, 50, 90])
    [target] = result.targets
    assert target.hits == 3
    assert target.locations == ["head", "body", "left_leg"]
    assert result.weapon is not None and result.weapon.loaded == 20
    assert result.spent == 10
    test = next(message for message in result.log if message.key == "d100.attack.test")
    assert test.values == {
        "bs": 45,
        "roll": 12,
        "need": 35,
        "success": True,
        "degrees": 3,
        "note": None,
        "hits": 3,
    }
    assert "attack (BS 45) d100 = 12 vs 35: success, 3 degrees → 3 hits" in lines(result)
    assert "атака (BS 45) d100 = 12 против 35: Успех, 3 Успеха → 3 попадания" in lines(result, "ru")
    assert "места попаданий, Heretic: голова, торс, левая нога" in lines(result, "ru")
    assert [u.state for u in result.updates] == [{"weapon.loaded": 20}]
    long_burst = Message("d100.mode.long_burst")
    assert [r.purpose for r in result.rolls] == [Message("d100.roll.attack", {"mode": long_burst})] + [
        Message("d100.roll.location", {"target": "Heretic"})
    ] * 3


def test_long_burst_is_capped_by_its_rof() -> None:
    """BS 95 - 10 = 85, roll 03: nine degrees, but RoF 4 lets only four rounds hit."""
    request = vex(attacker={"bs": 95}, weapon={"rof": "S/3/4"})
    result = roll(request, [3, 31, 32, 33, 34])
    assert result.targets[0].hits == 4
    assert result.weapon is not None and result.weapon.loaded == 26


@pytest.mark.parametrize(("face", "hits"), [(5, 3), (15, 2), (25, 2), (35, 1), (45, 1), (46, 0)])
def test_short_burst_lands_a_hit_per_odd_degree(face: int, hits: int) -> None:
    """BS 45 +0: 05 is 5 degrees (1st, 3rd, 5th: 3 hits), 15 is 4 (2 hits), 35 is 2 (1 hit)."""
    result = roll(vex(mode="short_burst"), [face] + [50] * hits)
    assert result.targets[0].hits == hits
    assert result.weapon is not None and result.weapon.loaded == 27


def test_short_burst_is_capped_by_its_rof() -> None:
    result = roll(vex(mode="short_burst", attacker={"bs": 90}, weapon={"rof": "S/2/-"}), [1, 50, 50])
    assert result.test is not None and result.test.degrees == 10
    assert result.targets[0].hits == 2


def test_single_shot_is_plus_ten_and_one_hit() -> None:
    result = roll(vex(mode="single"), [55, 75])
    assert result.test is not None and result.test.target == 55
    assert result.targets[0].hits == 1 and result.targets[0].locations == ["right_leg"]
    assert result.weapon is not None and result.weapon.loaded == 29
    missed = roll(vex(mode="single"), [56])
    assert missed.targets[0].hits == 0 and missed.weapon is not None and missed.weapon.loaded == 29


def test_single_shot_has_one_target() -> None:
    request = vex(mode="single", targets=[{"id": "t1"}, {"id": "t2", "to_primary": 1}])
    refused(request, "$.targets", "single shot has one target")


@pytest.mark.parametrize(
    ("mode", "rof", "named"),
    [
        ("single", "-/-/6", "single-shot"),
        ("short_burst", "S/-/10", "short-burst"),
        ("long_burst", "S/3/-", "long-burst"),
    ],
)
def test_a_missing_rof_position_is_an_error_naming_it(mode: str, rof: str, named: str) -> None:
    error = refused(vex(mode=mode, weapon={"rof": rof}), "$.mode", named)
    assert rof in error.message


def test_wide_short_burst_loses_two_rof_but_spends_it_all() -> None:
    """05 is five degrees, three odd ones, but RoF 3 - 2 = 1 caps it; all three rounds are spent."""
    result = roll(vex(mode="wide_short_burst"), [5, 40])
    assert result.targets[0].hits == 1
    assert result.targets[0].dodge_modifier == -20
    assert result.weapon is not None and result.weapon.loaded == 27


def test_wide_long_burst_tests_at_minus_ten() -> None:
    result = roll(vex(mode="wide_long_burst"), [5, 40, 40, 40, 40])
    assert result.test is not None and result.test.target == 35
    assert result.targets[0].hits == 4
    assert result.weapon is not None and result.weapon.loaded == 20


def test_wide_burst_may_also_be_spelt_with_its_base() -> None:
    result = roll(vex(mode="wide_burst", base="long_burst"), [5, 40, 40, 40, 40])
    assert result.mode == "wide_long_burst" and result.targets[0].hits == 4
    refused(vex(mode="wide_burst"), "$.base", "short_burst or a long_burst")


def test_wide_burst_needs_rof_three() -> None:
    refused(vex(mode="wide_short_burst", weapon={"rof": "S/2/-"}), "$.mode", "at least 3")


def test_dodges_against_a_wide_burst_take_minus_twenty() -> None:
    """Four hits; the Heretic's Dodge 45 - 20 = 25, rolled 05: three degrees negate three hits."""
    request = vex(mode="wide_long_burst", targets=[{"id": "t1", "name": "Heretic", "dodge": 45}])
    result = roll(request, [5, 5, 50])
    target = result.targets[0]
    assert target.dodge is not None and target.dodge.target == 25 and target.dodge.degrees == 3
    assert (target.dodged, target.hits) == (3, 1)
    assert target.locations == ["body"]


def test_extra_hits_spread_to_secondaries_no_one_above_the_primary() -> None:
    """BS 95 long burst (85), roll 45: five hits; two secondaries each ask for two: 2 / 2 / 1."""
    request = vex(
        attacker={"bs": 95},
        targets=[
            {"id": "t1", "name": "Heretic"},
            {"id": "t2", "to_primary": 1, "share": 2},
            {"id": "t3", "to_primary": 2, "share": 2},
        ],
    )
    result = roll(request, [45, 10, 60])
    assert [t.hits for t in result.targets] == [2, 2, 1]
    assert result.targets[0].locations == ["head", "body"]
    assert result.targets[1].locations == ["body", "body"], "secondaries are always hit in the body"
    assert [t.primary for t in result.targets] == [True, False, False]


def test_a_greedy_secondary_never_outscores_the_primary() -> None:
    request = vex(attacker={"bs": 95}, targets=[{"id": "t1"}, {"id": "t2", "share": 5}])
    result = roll(request, [65, 50, 50])  # 3 degrees, 3 hits
    assert [t.hits for t in result.targets] == [2, 1]


def test_without_shares_every_hit_goes_to_the_primary() -> None:
    request = vex(attacker={"bs": 95}, targets=[{"id": "t1"}, {"id": "t2", "to_primary": 1}])
    result = roll(request, [65, 50, 50, 50])
    assert [t.hits for t in result.targets] == [3, 0]


def test_secondaries_must_be_within_two_metres() -> None:
    request = vex(targets=[{"id": "t1"}, {"id": "t2", "to_primary": 3, "share": 1}])
    refused(request, "$.targets[1].to_primary", "2 m")
    allowed = roll(dict(request, gm_allows_wider=True), [12, 50, 50])  # 3 hits, the GM allows 3 m
    assert [t.hits for t in allowed.targets] == [2, 1]


def test_not_enough_rounds_is_an_error_and_nothing_is_spent() -> None:
    error = refused(vex(weapon={"loaded": 2}), "$.mode", "magazine has 2 rounds, long burst needs 10")
    assert error.message == "magazine has 2 rounds, long burst needs 10"


def test_a_critical_failure_jams_and_spoils_twice_the_rof() -> None:
    """97 with reliability 0: a jam. Ten rounds fired, twenty of the twenty left spoiled."""
    result = roll(VEX, [97])
    assert result.test is not None and not result.test.success
    assert result.weapon is not None
    assert (result.weapon.loaded, result.weapon.jammed, result.weapon.spoiled) == (0, True, 20)
    assert result.updates[0].state == {"weapon.loaded": 0, "weapon.jammed": True, "weapon.spoiled": 20}
    assert any(line.startswith("JAM: 20 rounds spoiled") for line in lines(result))
    assert result.test.note == Message("d100.note.jams", {"at": 96})
    assert (
        "КЛИН: испорчено 20 патронов; Расклин — Tech-Use или Trade(Weaponsmith)+0, Полное действие"
        in lines(result, "ru")
    )


def test_spoilage_stops_at_an_empty_magazine() -> None:
    result = roll(vex(weapon={"loaded": 15}), [99])
    assert result.weapon is not None and (result.weapon.loaded, result.weapon.spoiled) == (0, 5)
    assert result.spoiled == 5


def test_a_single_shot_jam_spoils_two_and_adds_to_earlier_spoilage() -> None:
    result = roll(vex(mode="single", weapon={"reliability": -2, "spoiled": 4}), [91])
    assert result.weapon is not None
    assert (result.weapon.loaded, result.weapon.spoiled, result.weapon.jammed) == (27, 6, True)


def test_an_unreliable_weapon_jams_at_94_even_under_the_target() -> None:
    request = vex(mode="single", attacker={"bs": 95}, weapon={"reliability": "Unreliable"})
    jammed = roll(request, [94])
    assert jammed.test is not None and jammed.test.target == 105 and not jammed.test.success
    assert jammed.targets[0].hits == 0 and jammed.weapon is not None and jammed.weapon.jammed
    assert roll(request, [93, 50]).targets[0].hits == 1


def test_a_reliable_weapon_still_misses_on_96_but_never_jams() -> None:
    result = roll(vex(mode="single", attacker={"bs": 120}, weapon={"reliability": "Reliable"}), [99])
    assert result.targets[0].hits == 0
    assert result.weapon is not None and not result.weapon.jammed and result.weapon.loaded == 29


def test_a_jammed_weapon_cannot_fire() -> None:
    refused(vex(weapon={"jammed": True}), "$.weapon.jammed", "weapon is jammed; clear it first (unjam)")


def _heavy(**changes: object) -> dict[str, object]:
    return vex(weapon={"name": "Heavy stubber", "class": "heavy", "rof": "-/-/10", **changes})


def test_heavy_weapons_take_minus_thirty_unbraced_and_ten_more_after_moving() -> None:
    assert roll(_heavy(), [50]).test.target == 5  # type: ignore[union-attr]
    assert roll(_heavy(braced=True), [50]).test.target == 35  # type: ignore[union-attr]
    moved = roll({**_heavy(braced=True), "attacker": {**VEX["attacker"], "moved": True}}, [50])
    assert moved.test is not None and moved.test.target == -5
    assert "modifier: heavy, moved this turn -10" in lines(moved)
    assert moved.weapon is not None and not moved.weapon.braced, "moving loses the brace"
    assert moved.updates[0].state["weapon.braced"] is False


@pytest.mark.parametrize(
    ("weapon_class", "named"), [("heavy", "a heavy weapon"), ("long_rifle", "a long rifle")]
)
def test_heavy_weapons_and_long_rifles_cannot_fire_in_melee(weapon_class: str, named: str) -> None:
    request = vex(attacker={"in_melee": True}, weapon={"class": weapon_class})
    refused(request, "$.attacker.in_melee", f"{named} cannot fire in melee")


def test_a_rifle_in_melee_gives_dodges_plus_thirty_and_ignores_point_blank() -> None:
    """Single shot in melee: +10, combat-range +0 (not point blank). Dodge 20 + 30 = 50, rolled 30."""
    request = vex(
        mode="single",
        attacker={"in_melee": True},
        weapon={"range": 90},
        targets=[{"id": "t1", "distance": 1, "dodge": 20}],
    )
    result = roll(request, [50, 30])
    assert result.test is not None and result.test.target == 55
    target = result.targets[0]
    assert target.dodge_modifier == 30 and target.dodge is not None and target.dodge.target == 50
    assert (target.dodged, target.hits) == (1, 0)


def test_a_pistol_fires_in_melee_without_penalty() -> None:
    request = vex(mode="single", attacker={"in_melee": True}, weapon={"class": "pistol"})
    result = roll(request, [50, 50])
    assert result.targets[0].dodge_modifier == 0 and result.targets[0].hits == 1


def test_a_suppressed_shooter_takes_minus_twenty_shown_on_the_card() -> None:
    result = roll(vex(attacker={"suppressed": True}), [50])
    assert result.test is not None and result.test.target == 15
    assert "modifier: suppressed -20" in lines(result)
    assert result.attacker is not None
    assert (result.attacker.action_points, result.attacker.bs_modifier) == (1, -20)
    in_melee = roll(vex(mode="single", attacker={"suppressed": True, "in_melee": True}), [50, 50])
    assert in_melee.test is not None and in_melee.test.target == 55, "melee lifts suppression"


@pytest.mark.parametrize(
    ("distance", "band", "target"),
    [(1, "point_blank", 85), (30, "short", 65), (60, "combat", 55), (150, "long", 45), (250, "extreme", 25)],
)
def test_range_bands_from_distance_and_rng(distance: float, band: str, target: int) -> None:
    request = vex(mode="single", weapon={"range": 90}, targets=[{"id": "t1", "distance": distance}])
    result = roll(request, [99])
    assert result.test is not None and result.test.target == target
    label = Message("d100.label.range", {"band": Message(f"d100.band.{band}")})
    assert any(m.key == "d100.attack.modifier" and m.values["label"] == label for m in result.log)


def test_range_band_given_outright_and_overridden() -> None:
    request = vex(mode="single", targets=[{"id": "t1", "band": "long"}])
    assert roll(request, [99]).test.target == 45  # type: ignore[union-attr]
    custom = dict(request, range_modifiers={"long": -20})
    assert roll(custom, [99]).test.target == 35  # type: ignore[union-attr]


def test_range_errors() -> None:
    far = vex(mode="single", weapon={"range": 90}, targets=[{"id": "t1", "distance": 300}])
    refused(far, "$.targets[0].distance", "beyond extreme range")
    no_rng = vex(mode="single", targets=[{"id": "t1", "distance": 30}])
    refused(no_rng, "$.targets[0].distance", "weapon's range")
    refused(dict(vex(), range_modifiers={"far": -50}), "$.range_modifiers.far", "unknown range band")


def _knife(**attacker: object) -> dict[str, object]:
    return vex(
        mode="single",
        attacker={"sb": 3, **attacker},
        weapon={"name": "Throwing knife", "class": "thrown", "rof": "S/-/-", "loaded": 3, "damage": "1d5"},
        targets=[{"id": "t1", "distance": 8}],
    )


def test_thrown_weapons_reach_sb_times_three_add_sb_and_are_spent() -> None:
    """SB 3: Rng 9 m, so 8 m is combat range (+0); 1d5 rolled 4, +3 = 7 damage."""
    result = roll(_knife(), [30, 50, 4])
    assert result.test is not None and result.test.target == 55
    assert result.targets[0].hit_records[0].damage == 7
    assert result.weapon is not None and result.weapon.loaded == 2


def test_thrown_weapons_do_not_jam() -> None:
    result = roll(_knife(), [99])
    assert result.weapon is not None and not result.weapon.jammed and result.weapon.loaded == 2
    refused(dict(_knife(), mode="long_burst"), "$.mode", "thrown one at a time")


def _grenade(**changes: object) -> dict[str, object]:
    return vex(
        mode="single",
        attacker={"sb": 4, **changes},
        weapon={
            "name": "Frag grenade",
            "class": "grenade",
            "rof": "S/-/-",
            "loaded": 2,
            "blast": 3,
            "damage_type": "X",
            "damage": "2d10",
        },
        targets=[{"id": "t1", "distance": 10}],
    )


def test_a_fumbled_grenade_drops_at_the_throwers_feet() -> None:
    result = roll(_grenade(), [97])
    assert result.grenade_at_feet and result.scatter == []
    assert result.weapon is not None and result.weapon.loaded == 1 and not result.weapon.jammed


@pytest.mark.parametrize(
    ("face", "direction", "east", "north"), [(3, "E", 7.0, 0.0), (2, "NE", 4.95, 4.95), (5, "S", 0.0, -7.0)]
)
def test_a_missed_blast_scatters_d10_metres_by_the_d8_compass(
    face: int, direction: str, east: float, north: float
) -> None:
    result = roll(_grenade(), [80, 7, face])
    [spot] = result.scatter
    assert (spot.metres, spot.direction, spot.east, spot.north) == (7, direction, east, north)
    assert math.isclose(math.hypot(spot.east, spot.north), 7.0, abs_tol=0.01)


def test_a_grenade_that_misses_in_melee_is_not_spent() -> None:
    result = roll(_grenade(in_melee=True), [80])
    assert result.weapon is not None and result.weapon.loaded == 2 and result.updates == []
    safe = roll(_grenade(in_melee=True), [20, 50, 5, 5])  # 55 vs 20: 4 degrees
    assert any("clear of the blast" in line for line in lines(safe))


def test_blasts_in_an_enclosed_room() -> None:
    """A 3 m X blast in a 10 m room (<= 4 x 3): radius 5 (4.5 up), +1d10 damage: 4 + 5 + 6 = 15."""
    result = roll(dict(_grenade(), room_size=10), [30, 50, 4, 5, 6])
    assert result.enclosed and result.blast_radius == 5
    assert result.targets[0].hit_records[0].damage == 15
    open_air = roll(dict(_grenade(), room_size=13), [30, 50, 4, 5])
    assert not open_air.enclosed and open_air.blast_radius == 3


def test_e_blasts_tear_and_concussion_grows_in_a_room() -> None:
    request = vex(
        mode="single",
        weapon={
            "class": "pistol",
            "rof": "S/-/-",
            "blast": 2,
            "damage_type": "E",
            "damage": "1d10",
            "concussive": 1,
        },
        room_size=8,
    )
    result = roll(request, [30, 50, 3, 9])  # Tearing: two dice, the 3 dropped
    assert result.targets[0].hit_records[0].damage == 9
    assert result.concussive == 2


def _covered(**target: object) -> dict[str, object]:
    return vex(
        mode="single",
        weapon={"damage": "1d10+3"},
        targets=[{"id": "t1", "in_cover": True, "cover_ap": 4, "armour": {"body": 2}, "tb": 4, **target}],
    )


def test_a_hit_through_cover_wears_one_ap_off_it() -> None:
    """Body hit for 8 + 3 = 11 against cover 4: through; 11 - (4 + 2) - TB 4 = 1 wound; cover now 3."""
    result = roll(_covered(), [30, 50, 8])
    record = result.targets[0].hit_records[0]
    assert (record.cover, record.cover_penetrated, record.wounds) == (4, True, 1)
    assert result.targets[0].cover_ap == 3
    assert result.updates[-1].token == "t1" and result.updates[-1].state == {"cover.ap": 3}


def test_cover_that_holds_keeps_its_armour_and_the_head_is_exposed() -> None:
    held = roll(_covered(), [30, 50, 1])  # 4 damage does not beat cover 4
    assert held.targets[0].hit_records[0].cover_penetrated is False and held.targets[0].cover_ap == 4
    head = roll(_covered(), [30, 5, 8])  # head is out of cover: 11 - 0 - 4
    record = head.targets[0].hit_records[0]
    assert record.cover is None and record.wounds == 7


def test_cover_counts_triple_against_x_blasts() -> None:
    request = dict(_grenade(), targets=[{"id": "t1", "distance": 10, "in_cover": True, "cover_ap": 4}])
    result = roll(request, [30, 50, 6, 6])
    assert result.targets[0].hit_records[0].cover == 12


def test_fire_at_feet_is_for_blast_weapons() -> None:
    refused(dict(vex(), fire_at_feet=True), "$.fire_at_feet", "blast weapon")
    result = roll(dict(_grenade(), fire_at_feet=True), [40, 6, 1])
    assert result.test is not None and result.test.target == 35 and result.scatter[0].direction == "N"


def test_each_target_once() -> None:
    refused(vex(targets=[{"id": "t1"}, {"id": "t1"}]), "$.targets", "once")


def test_unknown_modes_are_refused_at_decode() -> None:
    with pytest.raises(RuleError) as caught:
        decode_request(msgspec.json.encode(vex(mode="burst")))
    assert caught.value.path == "$.mode"


def test_the_request_is_the_default_action() -> None:
    decoded = decode_request(msgspec.json.encode(VEX))
    assert type(decoded).__name__ == "Attack"


def test_a_request_wide_range_serves_targets_that_give_none() -> None:
    by_distance = vex(mode="single", weapon={"range": 90}, distance=30)
    assert roll(by_distance, [99]).test.target == 65  # type: ignore[union-attr]
    by_band = vex(mode="single", band="extreme")
    assert roll(by_band, [99]).test.target == 25  # type: ignore[union-attr]
    own = vex(mode="single", band="extreme", targets=[{"id": "t1", "band": "short"}])
    assert roll(own, [99]).test.target == 65, "the target's own band wins"  # type: ignore[union-attr]
    refused(vex(mode="single", weapon={"range": 10}, distance=31), "$.distance", "beyond extreme range")


def test_absurd_numbers_are_refused_not_crashed_on() -> None:
    huge = merged(_grenade(), {"weapon": {"blast": 1e308}})
    refused(dict(huge, room_size=10), "$.weapon.blast", "blast radius")
    with pytest.raises(RuleError) as room:  # out of its range before any rule reads it
        decode_request(msgspec.json.encode(dict(huge, room_size=1e308)))
    assert (room.value.path, room.value.code) == ("$.room_size", "invalid")
    refused(vex(attacker={"bs": 500}), "$.attacker.bs", "0..200")
    refused(vex(modifier=-1000), "$.modifier", "beyond")
    refused(vex(weapon={"rof": "S/3/1000"}), "$.weapon.rof", "1..100")


def test_a_concussive_x_blast_in_a_room_gets_every_clause() -> None:
    """A stun grenade (X damage, Concussive 2, 3 m) in a 10 m room: radius 5, +1d10, Concussive 3."""
    stun = merged(_grenade(), {"weapon": {"concussive": 2, "damage": "1d5"}})
    result = roll(dict(stun, room_size=10), [30, 50, 2, 7])
    assert (result.enclosed, result.blast_radius, result.concussive) == (True, 5, 3)
    assert result.targets[0].hit_records[0].damage == 9
    outdoors = roll(stun, [30, 50, 2])
    assert (outdoors.enclosed, outdoors.blast_radius, outdoors.concussive) == (False, 3, 2)


@pytest.mark.parametrize(("damage_type", "cover"), [("I", 8), ("E", 8), ("X", 12), ("X(Fr)", 16)])
def test_cover_multiplies_against_blasts_by_damage_type(damage_type: str, cover: int) -> None:
    """Cover AP 4 counts x2 against any blast, x3 against X and x4 against X(Fr); 1d10 rolled 10."""
    request = merged(_grenade(), {"weapon": {"damage_type": damage_type, "damage": "1d10"}})
    request["targets"] = [{"id": "t1", "distance": 10, "in_cover": True, "cover_ap": 4}]
    record = roll(request, [30, 50, 10]).targets[0].hit_records[0]
    assert record.cover == cover
    assert record.cover_penetrated is (cover < 10)
    plain = roll(merged(_covered(), {"weapon": {"damage": "1d10"}}), [30, 50, 10])
    assert plain.targets[0].hit_records[0].cover == 4, "no multiplier without a blast"


def test_every_attack_says_what_it_costs() -> None:
    """Single shots and bursts are half actions; suppressing fire is a full action (seed 004)."""
    burst = roll(VEX, [99])
    assert burst.action_cost == "half" and lines(burst)[0] == "long burst: half action"
    assert lines(burst, "ru")[0] == "Длинная Очередь: Полудействие"
    suppressing = roll(vex(mode="suppressing", rate="full"), [99, 50])
    assert suppressing.action_cost == "full"
    assert lines(suppressing)[0] == "suppressing fire (full auto): full action"
    assert lines(suppressing, "ru")[0] == "Стрельба на Подавление (автоматическая RoF): Полное действие"


def test_suppressing_fire_takes_a_sector_of_at_most_45_degrees() -> None:
    assert roll(vex(mode="suppressing", arc=30), [99, 50]).weapon is not None
    refused(vex(mode="suppressing", arc=60), "$.arc", "at most 45 degrees")
    refused(vex(mode="suppressing", arc=0), "$.arc", "at most 45 degrees")


def test_a_thrown_distance_without_strength_bonus_says_so() -> None:
    request = merged(_grenade(), {"attacker": {"sb": None}})
    refused(request, "$.targets[0].distance", "Strength bonus ($.attacker.sb")


@pytest.mark.parametrize(
    ("changes", "path", "fragment"),
    [
        ({"weapon": {"range": -5}, "targets": [{"id": "t1", "distance": 10}]}, "$.weapon.range", "range"),
        ({"weapon": {"capacity": -1, "loaded": 0}}, "$.weapon.capacity", "outside 0..100000"),
        ({"weapon": {"capacity": 10**19, "loaded": 30}}, "$.weapon.capacity", "outside 0..100000"),
        ({"weapon": {"damage": "1d10+99999999"}}, "$.weapon.damage", "bonus"),
        ({"weapon": {"concussive": -1}}, "$.weapon.concussive", "negative"),
        ({"attacker": {"sb": -3}}, "$.attacker.sb", "Strength bonus"),
        ({"targets": [{"id": "t1", "armour": -5}]}, "$.targets[0].armour", "negative"),
        ({"targets": [{"id": "t1", "armour": {"body": -1}}]}, "$.targets[0].armour.body", "negative"),
        ({"targets": [{"id": "t1", "armour": {"tail": 3}}]}, "$.targets[0].armour.tail", "unknown location"),
        ({"targets": [{"id": "t1"}, {"id": "t2", "to_primary": -4}]}, "$.targets[1].to_primary", "negative"),
    ],
)
def test_bad_numbers_name_their_field(changes: dict[str, object], path: str, fragment: str) -> None:
    refused(vex(**changes), path, fragment)


def test_who_a_grenade_catches_besides_its_target() -> None:
    """In melee (55): 20 is four degrees, the thrower is clear; 45 is two, the thrower is in the blast too."""
    clear = roll(_grenade(in_melee=True), [20, 50, 5, 5])
    assert not clear.thrower_in_blast
    assert "3+ degrees in melee: the thrower is clear of the blast" in lines(clear)
    assert "3+ Успехов в рукопашной: бросившего не задело" in lines(clear, "ru")
    caught = roll(_grenade(in_melee=True), [45, 50, 5, 5])
    assert caught.thrower_in_blast and caught.targets[0].hits == 1
    assert "under 3 degrees in melee: the thrower is inside the blast too" in lines(caught)
    fumbled = roll(_grenade(), [96])
    assert fumbled.grenade_at_feet and fumbled.thrower_in_blast
    thrown = roll(_grenade(), [30, 50, 5, 5])
    assert not thrown.thrower_in_blast, "thrown from range, the thrower is well away"


def test_allocation_keeps_every_hit_and_no_secondary_outscores_the_primary() -> None:
    """Every total up to 12 against every pair of wishes up to 6: the split is whole and lawful."""
    for hits, first, second in product(range(13), range(7), range(7)):
        counts = allocate(hits, [first, second])
        assert sum(counts) == hits, (hits, first, second, counts)
        primary, *secondaries = counts
        assert all(0 <= count <= primary for count in secondaries), counts
        assert secondaries[0] <= first and secondaries[1] <= second, counts
        if hits and first + second == 0:
            assert counts == [hits, 0, 0]
