"""Weapon upkeep between shots: reload, clear a jam, win back spoiled rounds, brace (seed 004)."""

from __future__ import annotations

from typing import Any

from d100_helpers import VEX, chances, lines, refused, roll


def _action(action: str, weapon: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "system": "d100",
        "action": action,
        "attacker": {"id": "a1", "bs": 45},
        "weapon": {**VEX["weapon"], **weapon},
        **extra,
    }


def test_reload_fills_the_magazine_from_the_reserve() -> None:
    result = roll(_action("reload", {"loaded": 3, "reserve": 40}), [])
    assert result.weapon is not None and (result.weapon.loaded, result.weapon.reserve) == (30, 13)
    assert result.updates[0].state == {"weapon.loaded": 30, "weapon.reserve": 13}
    short = roll(_action("reload", {"loaded": 3, "reserve": 5}), [])
    assert short.weapon is not None and (short.weapon.loaded, short.weapon.reserve) == (8, 0)
    untracked = roll(_action("reload", {"loaded": 0}), [])
    assert untracked.weapon is not None and untracked.weapon.loaded == 30


def test_reload_refusals() -> None:
    refused(_action("reload", {"loaded": 0, "jammed": True}), "$.weapon.jammed", "unjam")
    refused(_action("reload", {"loaded": 0, "capacity": None}), "$.weapon.capacity", "capacity")
    refused(_action("reload", {"loaded": 0, "reserve": 0}), "$.weapon.reserve", "no rounds")
    refused(_action("reload", {"loaded": 31}), "$.weapon.loaded", "capacity 30")


def test_clearing_a_jam_is_tech_use_plus_zero() -> None:
    request = _action("unjam", {"jammed": True, "loaded": 0, "spoiled": 20}, skill=40)
    cleared = roll(request, [40])
    assert cleared.weapon is not None and not cleared.weapon.jammed
    assert cleared.updates[0].state == {"weapon.jammed": False}
    stuck = roll(request, [41])
    assert stuck.weapon is not None and stuck.weapon.jammed and stuck.updates == []
    odds = chances(request)
    assert abs(odds.jam - 0.60) < 1e-12 and abs(odds.success - 0.40) < 1e-12
    refused(_action("unjam", {}, skill=40), "$.weapon.jammed", "not jammed")


def test_spoiled_rounds_come_back_on_trade_weaponsmith_plus_ten() -> None:
    request = _action("recover_ammo", {"loaded": 0, "spoiled": 20, "reserve": 10}, skill=40)
    won = roll(request, [50])
    assert won.recovered == 20
    assert won.weapon is not None and (won.weapon.spoiled, won.weapon.reserve) == (0, 30)
    assert won.updates[0].state == {"weapon.spoiled": 0, "weapon.reserve": 30}
    lost = roll(request, [51])
    assert lost.recovered == 0 and lost.updates == []
    assert abs(chances(request).success - 0.5) < 1e-12
    refused(_action("recover_ammo", {"spoiled": 0}, skill=40), "$.weapon.spoiled", "no spoiled rounds")


def test_bracing_is_state_until_released() -> None:
    heavy = {"class": "heavy", "rof": "-/-/10"}
    braced = roll(_action("brace", heavy), [])
    assert braced.updates[0].state == {"weapon.braced": True}
    released = roll(_action("brace", {**heavy, "braced": True}, release=True), [])
    assert released.updates[0].state == {"weapon.braced": False}
    in_melee = _action("brace", heavy)
    in_melee["attacker"]["in_melee"] = True
    refused(in_melee, "$.attacker.in_melee", "melee")


def test_a_jam_lasts_from_the_shot_to_the_clearing_and_the_rounds_come_back() -> None:
    """The whole cycle, carried by the updates alone: jam, clear, recover the spoiled rounds, reload."""
    weapon: dict[str, Any] = {**VEX["weapon"], "reserve": 30}

    def apply(result: Any) -> None:
        for key, value in result.updates[0].state.items():
            weapon[key.removeprefix("weapon.")] = value

    apply(roll({**VEX, "weapon": weapon}, [98]))
    assert (weapon["loaded"], weapon["jammed"], weapon["spoiled"]) == (0, True, 20)
    refused({**VEX, "weapon": weapon}, "$.weapon.jammed", "unjam")
    apply(roll(_action("unjam", weapon, skill=50), [12]))
    apply(roll(_action("recover_ammo", weapon, skill=50), [12]))
    apply(roll(_action("reload", weapon), []))
    assert (weapon["loaded"], weapon["jammed"], weapon["spoiled"], weapon["reserve"]) == (30, False, 0, 20)


def test_clearing_a_jam_is_a_full_action_and_bracing_a_half() -> None:
    cleared = roll(_action("unjam", {"jammed": True}, skill=40), [40])
    assert cleared.action_cost == "full" and "full action" in lines(cleared)[0]
    assert lines(cleared, "ru") == [
        "Расклин (Tech-Use или Trade(Weaponsmith)+0, Полное действие) d100 = 40 против 40: Успех, 1 Успех",
        "Клин снят",
    ]
    braced = roll(_action("brace", {"class": "heavy", "rof": "-/-/10"}), [])
    assert braced.action_cost == "half" and lines(braced)[0].startswith("braced (half action)")
    released = roll(_action("brace", {"braced": True}, release=True), [])
    assert released.action_cost is None, "lifting a brace costs nothing: the bearer moved"
