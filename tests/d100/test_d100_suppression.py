"""Suppression as real token state: suppressing fire, overwatch, recovery and melee (seed 004)."""

from __future__ import annotations

from typing import Any

from d100_helpers import chances, lines, merged, refused, roll

from rules.results import Message

#: Gunner Harl (BS 40) sweeps a sector with a braced, unreliable heavy stubber (-/-/10, Rng 100 m).
HARL: dict[str, Any] = {
    "system": "d100",
    "mode": "suppressing",
    "rate": "full",
    "attacker": {"id": "g1", "name": "Harl", "bs": 40},
    "weapon": {
        "name": "Heavy stubber",
        "class": "heavy",
        "rof": "-/-/10",
        "loaded": 100,
        "capacity": 100,
        "reliability": "Unreliable",
        "braced": True,
        "range": 100,
    },
    "targets": [
        {"id": "c1", "wp": 25, "in_cover": True, "distance": 40},
        {"id": "c2", "wp": 25, "in_cover": False, "can_reach_cover": False, "distance": 45},
        {"id": "c3", "wp": 40, "distance": 60},
        {"id": "c4", "wp": 20, "distance": 180},
    ],
}


def test_suppressing_fire_tests_everyone_at_short_and_combat_range() -> None:
    """Attack 40 - 20 = 20, rolled 05: three degrees, two hits (1st and 3rd) to random targets (d4: 2, 4).

    Willpower -20 tests: c1 (5) rolls 30 and is suppressed in cover; c2 (5) rolls 03 and holds; c3 (20)
    rolls 21 and must run for cover; c4 at 180 m is at long range and does not test.
    """
    result = roll(HARL, [5, 2, 4, 30, 3, 21])
    assert result.test is not None and result.test.target == 20
    assert [t.hits for t in result.targets] == [0, 1, 0, 1]
    assert result.targets[1].locations == ["body"] and result.targets[3].locations == ["body"]
    assert [t.suppression.modifier if t.suppression else None for t in result.targets] == [
        -20,
        -20,
        -20,
        None,
    ]
    assert [t.suppressed for t in result.targets] == [True, False, True, False]
    assert [t.must_seek_cover for t in result.targets] == [False, False, True, False]
    assert result.weapon is not None and result.weapon.loaded == 90
    assert [(u.token, u.statuses_add) for u in result.updates] == [
        ("g1", []),
        ("c1", ["suppressed"]),
        ("c3", ["suppressed"]),
    ]
    assert all(not t.primary for t in result.targets)
    assert "c1 is suppressed: 1 action point a turn, -20 BS" in lines(result)
    assert "c3 is suppressed: out of cover, it must spend its actions reaching cover" in lines(result)
    assert "c1 — под Подавлением: 1 ОД в Ход, BS -20" in lines(result, "ru")


def test_suppressed_out_of_cover_with_nowhere_to_go_goes_prone() -> None:
    result = roll(HARL, [50, 30, 30, 30])
    assert [t.suppressed for t in result.targets] == [True, True, True, False]
    assert [t.prone for t in result.targets] == [False, True, False, False]
    assert result.updates[2].token == "c2" and result.updates[2].statuses_add == ["suppressed", "prone"]
    assert "c2 is suppressed and cannot reach cover: goes prone" in lines(result)
    assert "c2 — под Подавлением, до укрытия не добраться: Залегает" in lines(result, "ru")


def test_semi_automatic_suppression_is_minus_ten_and_spends_the_short_rof() -> None:
    request = merged(HARL, {"rate": "semi", "weapon": {"rof": "S/3/-", "class": "rifle"}})
    result = roll(request, [50, 14, 16, 30])  # WP 25 - 10 = 15: 14 holds, 16 breaks; c3 (30) holds
    assert [t.suppression.modifier if t.suppression else None for t in result.targets] == [
        -10,
        -10,
        -10,
        None,
    ]
    assert [t.suppressed for t in result.targets] == [False, True, False, False]
    assert result.weapon is not None and result.weapon.loaded == 97


def test_the_rate_follows_the_weapon_when_not_given() -> None:
    semi = dict(merged(HARL, {"weapon": {"rof": "S/3/-"}}), rate=None)
    assert roll(semi, [99, 50, 50, 50]).targets[0].suppression.modifier == -10  # type: ignore[union-attr]
    full = dict(HARL, rate=None)
    assert roll(full, [99, 50, 50, 50]).targets[0].suppression.modifier == -20  # type: ignore[union-attr]
    refused(merged(HARL, {"weapon": {"rof": "S/3/-"}}), "$.mode", "long-burst")


def test_characters_this_fire_cannot_hurt_pass_without_rolling() -> None:
    request = merged(HARL, {})
    request["targets"] = [
        {"id": "ogryn", "wp": 20, "unharmable": True},
        {"id": "brawler", "wp": 20, "in_melee": True},
        {"id": "c1", "wp": 25},
    ]
    result = roll(request, [99, 80])
    assert [t.suppression.test is None for t in result.targets if t.suppression] == [True, True, False]
    assert [t.suppressed for t in result.targets] == [False, False, True]
    reasons = [t.suppression.reason for t in result.targets if t.suppression]
    assert reasons == [Message("d100.exempt.unharmable"), Message("d100.exempt.in_melee"), None]
    assert lines(result)[3:5] == [
        "suppression ogryn: this fire cannot hurt it: passes automatically",
        "suppression brawler: in melee: not subject to suppression",
    ]


def test_a_suppression_test_needs_willpower() -> None:
    request = merged(HARL, {})
    request["targets"] = [{"id": "c1"}]
    refused(request, "$.targets[0].wp", "Willpower")


def test_end_of_turn_recovery_gains_thirty_when_quiet() -> None:
    request = {
        "system": "d100",
        "action": "recover",
        "quiet": True,
        "targets": [{"id": "c1", "wp": 35, "suppressed": True}],
    }
    recovered = roll(request, [60])
    assert recovered.targets[0].suppression is not None and recovered.targets[0].suppression.test.target == 65  # type: ignore[union-attr]
    assert not recovered.targets[0].suppressed
    assert recovered.updates[0].statuses_remove == ["suppressed"]
    assert lines(recovered) == [
        "recovery c1 (WP 35, quiet +30) d100 = 60 vs 65: success, 1 degree",
        "c1 shakes off suppression",
    ]
    assert lines(recovered, "ru") == [
        "преодоление Подавления c1 (W 35, без обстрела +30) d100 = 60 против 65: Успех, 1 Успех",
        "c1 преодолевает Подавление",
    ]
    still = roll(dict(request, quiet=False), [60])
    assert still.targets[0].suppressed and still.updates == []
    assert lines(still)[-1] == "c1 stays suppressed: 1 action point a turn, -20 BS"
    assert chances(dict(request, quiet=False)).targets[0].suppressed == 0.65


def test_recovery_skips_the_unsuppressed_and_melee_ends_it() -> None:
    request = {
        "system": "d100",
        "action": "recover",
        "targets": [
            {"id": "calm", "wp": 30},
            {"id": "brawler", "wp": 30, "suppressed": True, "in_melee": True},
        ],
    }
    result = roll(request, [])
    assert [t.suppressed for t in result.targets] == [False, False]
    assert [(u.token, u.statuses_remove) for u in result.updates] == [("brawler", ["suppressed"])]


def test_entering_melee_clears_suppression() -> None:
    request = {
        "system": "d100",
        "action": "enter_melee",
        "targets": [{"id": "c1", "suppressed": True, "prone": True}],
    }
    result = roll(request, [])
    assert not result.targets[0].suppressed and result.targets[0].prone
    assert result.updates[0].statuses_remove == ["suppressed"]


def test_a_suppression_test_the_gm_calls_for() -> None:
    request = {
        "system": "d100",
        "action": "suppression_test",
        "modifier": -10,
        "targets": [{"id": "c1", "wp": 40, "in_cover": True}],
    }
    result = roll(request, [31])
    assert result.targets[0].suppressed and result.updates[0].statuses_add == ["suppressed"]
    assert roll(request, [30]).updates == []
    assert chances(request).targets[0].suppressed == 0.7


SCOUT: dict[str, Any] = {
    "system": "d100",
    "action": "overwatch_fire",
    "attacker": {
        "id": "s1",
        "name": "Ide",
        "bs": 48,
        "overwatch": {"mode": "single", "trigger": "anyone crosses the bridge", "facing": 90, "arc": 45},
    },
    "weapon": {
        "name": "Autogun",
        "class": "rifle",
        "rof": "S/3/10",
        "loaded": 12,
        "capacity": 30,
        "reliability": -1,
        "range": 90,
    },
    "targets": [{"id": "h1", "wp": 30, "distance": 40}, {"id": "h2", "wp": 30, "distance": 70}],
}


def test_setting_an_overwatch_order_is_token_state() -> None:
    request = {
        "system": "d100",
        "action": "overwatch",
        "attacker": {"id": "s1", "bs": 48},
        "weapon": SCOUT["weapon"],
        "order": {"mode": "short_burst", "trigger": "door opens", "arc": 30},
    }
    result = roll(request, [])
    assert result.updates[0].state == {
        "overwatch": {"mode": "short_burst", "trigger": "door opens", "facing": 0.0, "arc": 30.0}
    }
    cleared = roll({**request, "clear": True, "order": None}, [])  # an order with clear is refused
    assert cleared.updates[0].state == {"overwatch": None}
    refused(merged(request, {"order": {"arc": 60}}), "$.order.arc", "45")
    refused(merged(request, {"weapon": {"rof": "-/-/6"}}), "$.order.mode", "short-burst")


def test_an_attack_in_mode_overwatch_sets_the_order() -> None:
    request = {
        "system": "d100",
        "mode": "overwatch",
        "attacker": {"id": "s1", "bs": 48},
        "weapon": SCOUT["weapon"],
        "order": {"mode": "long_burst", "trigger": "movement", "arc": 45},
    }
    result = roll(request, [])
    assert result.action == "overwatch"
    assert result.updates[0].state["overwatch"]["mode"] == "long_burst"
    assert chances(request).jam == 0.0


def test_single_shot_overwatch_fires_once_at_each_target_each_tests_at_plus_twenty() -> None:
    """BS 48: half the bonus 4 is 2 shots. h1 at short range (68), h2 at combat range (58)."""
    result = roll(SCOUT, [66, 15, 91, 36, 50, 49])
    assert [s.target for s in result.shots] == ["h1", "h2"]
    assert [t.hits for t in result.targets] == [1, 1]
    assert result.targets[0].locations == ["right_arm"]
    assert [t.suppression.modifier for t in result.targets] == [20, 20]  # type: ignore[union-attr]
    assert [t.suppressed for t in result.targets] == [True, False]
    assert result.weapon is not None and result.weapon.loaded == 10
    assert result.updates[0].state == {"weapon.loaded": 10, "overwatch": None}, "firing uses the order up"


def test_a_jam_ends_single_shot_overwatch() -> None:
    result = roll(SCOUT, [95, 60])
    assert result.targets[0].suppressed and result.targets[1].suppression is None
    assert result.weapon is not None and (
        result.weapon.loaded,
        result.weapon.spoiled,
        result.weapon.jammed,
    ) == (9, 2, True)
    assert len(result.shots) == 1 and result.shots[0].jammed


def test_single_shot_overwatch_is_capped_by_bs_and_rof() -> None:
    three = merged(SCOUT, {})
    three["targets"] = [*SCOUT["targets"], {"id": "h3", "wp": 30}]
    refused(three, "$.targets", "allows 2 shot(s)")
    refused(merged(SCOUT, {"weapon": {"rof": "S/-/-"}}), "$.targets", "allows 1 shot(s)")
    refused(
        merged(SCOUT, {"attacker": {"overwatch": None}}),
        "$.attacker.overwatch",
        "no standing overwatch order",
    )


def test_burst_overwatch_suppresses_every_target_shot() -> None:
    request = merged(SCOUT, {"mode": "short_burst"})
    request["targets"] = [
        {"id": "h1", "wp": 30, "distance": 40},
        {"id": "h2", "wp": 30, "to_primary": 1, "share": 1},
    ]
    result = roll(request, [5, 50, 50, 60, 10])
    assert [t.hits for t in result.targets] == [2, 1]
    assert [t.suppressed for t in result.targets] == [True, False]
    assert result.weapon is not None and result.weapon.loaded == 9


def test_overwatch_fire_needs_a_standing_order_even_when_it_names_a_mode() -> None:
    request = merged(SCOUT, {"mode": "long_burst", "attacker": {"overwatch": None}})
    refused(request, "$.attacker.overwatch", "no standing overwatch order")


def test_a_mode_the_order_asks_for_but_the_weapon_lacks_names_the_order() -> None:
    request = merged(SCOUT, {"attacker": {"overwatch": {"mode": "short_burst"}}, "weapon": {"rof": "S/-/10"}})
    refused(request, "$.attacker.overwatch.mode", "no short-burst RoF")
    refused(dict(request, mode="short_burst"), "$.mode", "no short-burst RoF")


def test_a_shooter_below_bs_20_still_takes_one_overwatch_shot() -> None:
    """BS 15: half the BS bonus is 0, but overwatch always allows one single shot (Volley's reading)."""
    request = merged(SCOUT, {"attacker": {"bs": 15}})
    request["targets"] = [SCOUT["targets"][0]]
    result = roll(request, [25, 50, 60])  # BS 15 + 10 single + 10 short range = 35
    assert [s.target for s in result.shots] == [] and result.targets[0].hits == 1
    assert result.test is not None and result.test.target == 35
    refused(merged(SCOUT, {"attacker": {"bs": 15}}), "$.targets", "allows 1 shot(s)")


def test_an_order_cannot_be_set_with_a_weapon_that_cannot_fire() -> None:
    request = {
        "system": "d100",
        "action": "overwatch",
        "attacker": {"id": "s1", "bs": 48},
        "weapon": {**SCOUT["weapon"], "jammed": True},
    }
    refused(request, "$.weapon.jammed", "clear it first (unjam)")
    heavy = merged(request, {"attacker": {"in_melee": True}, "weapon": {"jammed": False, "class": "heavy"}})
    refused(heavy, "$.attacker.in_melee", "a heavy weapon cannot fire in melee")


def test_setting_overwatch_is_a_full_action() -> None:
    request = {"system": "d100", "action": "overwatch", "attacker": {"id": "s1", "bs": 48}}
    result = roll(request, [])
    assert result.action_cost == "full" and lines(result)[0].startswith("overwatch (full action)")
    assert lines(result, "ru")[0] == "Караул (Полное действие): Одиночный Выстрел, сектор 45°, направление 0°"


def test_entering_melee_checks_its_characters_for_odds_too() -> None:
    refused({"system": "d100", "action": "enter_melee", "targets": []}, "$.targets", "at least one")
    refused(
        {"system": "d100", "action": "enter_melee", "targets": [{"id": "c1", "wp": -1}]},
        "$.targets[0].wp",
        "outside 0..200",
    )


def test_the_suppression_line_of_the_issue_in_both_languages() -> None:
    """A suppression test under full-auto fire: the Cultist's WP 25 -20 needs 5 and rolls 62."""
    request = {
        "system": "d100",
        "action": "suppression_test",
        "modifier": -20,
        "targets": [{"id": "c1", "name": "Cultist", "wp": 25}],
    }
    result = roll(request, [62])
    assert result.log[0] == Message(
        "d100.suppression.test",
        {
            "target": "Cultist",
            "wp": 25,
            "modifier": -20,
            "roll": 62,
            "need": 5,
            "success": False,
            "degrees": 7,
            "modifier_signed": "-20",
        },
    )
    assert lines(result)[0] == "suppression Cultist (WP 25 -20) d100 = 62 vs 5: failure, 7 degrees"
    assert lines(result, "ru")[0] == "Подавление Cultist (W 25 -20) d100 = 62 против 5: Провал, 7 Провалов"
    overwatch = roll(dict(request, modifier=20), [62])  # overwatch's +20 keeps its sign
    assert lines(overwatch)[0] == "suppression Cultist (WP 25 +20) d100 = 62 vs 45: failure, 3 degrees"
