"""What would corrupt the record is refused, with its field named (issue #31, the audit's four holes).

* A MegaTraveller ``reload`` to fewer rounds than are loaded would take rounds out unseen.
* A MegaTraveller ``pool`` field the mode does not read (``lost`` or ``clusters`` on rapid fire,
  ``bullets`` beside automatic fire's clusters) was dropped silently: the record kept a number the
  dice never reproduce.
* GURPS and d100 took an empty token id for the attacker and the targets, and sent updates to token "".
* MegaTraveller's ``draw`` readied a holstered weapon of any kind; Draw a Small Weapon now follows the
  table's Fast Draw reading (``fast_draw_weapons``): a pistol by default, any kind under ``"any"``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules import RuleError, decode_request, resolve
from rules.dice import SeededDice


def resolved(request: dict[str, Any]) -> Any:
    return resolve(decode_request(request), SeededDice(1))


def refusal(request: dict[str, Any]) -> RuleError:
    with pytest.raises(RuleError) as refused:
        resolved(request)
    return refused.value


def reload(loaded: int, rounds: int | None) -> dict[str, Any]:
    request: dict[str, Any] = {
        "system": "megatraveller",
        "action": "reload",
        "attacker": {"id": "kr", "name": "Kira Rhyne", "skill": 2, "dex": 10},
        "weapon": {"name": "Autorifle", "kind": "rifle", "auto": True, "loaded": loaded, "capacity": 20},
    }
    if rounds is not None:
        request["rounds"] = rounds
    return request


def test_a_reload_never_takes_rounds_out() -> None:
    error = refusal(reload(8, 2))
    assert error.path == "$.rounds"
    assert error.message == "a reload fills the magazine: 2 rounds would leave fewer than the 8 loaded"
    assert resolved(reload(8, 8)).weapon.loaded == 8, "topping up to what is loaded changes nothing"
    assert resolved(reload(8, 15)).weapon.loaded == 15
    assert resolved(reload(8, None)).weapon.loaded == 20


def rapid(pool: dict[str, Any]) -> dict[str, Any]:
    return {
        "system": "megatraveller",
        "action": "fire",
        "mode": "rapid",
        "attacker": {"id": "jw", "skill": 5, "dex": 13, "readiness": "ready", "selector": "single"},
        "weapon": {"name": "Autopistol", "kind": "pistol", "rapid": True, "loaded": 15, "capacity": 15},
        "targets": [{"id": "g1"}, {"id": "g2"}],
        "allocation": [1, 1],
        "pool": pool,
    }


def auto(pool: dict[str, Any]) -> dict[str, Any]:
    return {
        "system": "megatraveller",
        "action": "fire",
        "mode": "auto",
        "attacker": {"id": "hb", "skill": 3, "dex": 9, "readiness": "ready", "selector": "auto"},
        "weapon": {
            "name": "Autorifle",
            "kind": "rifle",
            "auto": True,
            "auto_targets": 2,
            "loaded": 20,
            "capacity": 20,
        },
        "targets": [{"id": "b1"}, {"id": "b2"}],
        "allocation": [[0, 1], [2, 3]],
        "pool": pool,
    }


@pytest.mark.parametrize(
    ("request_", "path", "message"),
    [
        (rapid({"bullets": 2, "lost": 4}), "$.pool.lost", "rapid fire's pool has no lost"),
        (rapid({"bullets": 2, "clusters": [3, 6]}), "$.pool.clusters", "rapid fire's pool has no clusters"),
        (rapid({"bullets": 2, "rounds": 20}), "$.pool.rounds", "rapid fire's pool has no rounds"),
        (
            auto({"rounds": 20, "lost": 4, "clusters": [3, 6, 6, 1], "bullets": 99}),
            "$.pool.bullets",
            "auto fire's pool has no bullets",
        ),
    ],
)
def test_a_pool_field_the_mode_does_not_read_is_refused(
    request_: dict[str, Any], path: str, message: str
) -> None:
    error = refusal(request_)
    assert error.path == path
    assert error.message == f"{message}: nothing would read it"


GURPS = {
    "system": "gurps",
    "attacker": {"id": "a1", "name": "Kane", "skill": 12},
    "weapon": {"name": "MP5", "rof": 13, "rcl": 2, "loaded": 30, "capacity": 30, "malf": 17},
    "shots": 5,
    "targets": [{"id": "t1", "name": "Ganger"}],
}
D100 = {
    "system": "d100",
    "action": "attack",
    "mode": "single",
    "attacker": {"id": "a1", "name": "Vex", "bs": 40},
    "weapon": {
        "name": "Autogun",
        "class": "rifle",
        "rof": "S/3/10",
        "loaded": 30,
        "capacity": 30,
        "range": 90,
    },
    "targets": [{"id": "t1", "name": "Heretic", "wp": 30, "band": "short"}],
}


@pytest.mark.parametrize("base", [GURPS, D100], ids=["gurps", "d100"])
@pytest.mark.parametrize("where", ["attacker", "target"])
def test_an_empty_token_id_is_refused(base: dict[str, Any], where: str) -> None:
    request = copy.deepcopy(base)
    resolved(request)  # as given, it resolves
    if where == "attacker":
        request["attacker"]["id"] = ""
    else:
        request["targets"][0]["id"] = ""
    with pytest.raises(RuleError) as refused:
        decode_request(request)
    path = "$.attacker.id" if where == "attacker" else "$.targets[0].id"
    assert refused.value.path == path and "length >= 1" in refused.value.message


def draw(kind: str, reading: str | None = None) -> dict[str, Any]:
    request: dict[str, Any] = {
        "system": "megatraveller",
        "action": "draw",
        "attacker": {"id": "kr", "name": "Kira Rhyne", "skill": 2, "dex": 10, "readiness": "holstered"},
        "weapon": {"name": "Gauss rifle", "kind": kind, "loaded": 40, "capacity": 40},
    }
    if reading is not None:
        request["fast_draw_weapons"] = reading
    return request


@pytest.mark.parametrize("kind", ["rifle", "heavy"])
def test_draw_a_small_weapon_draws_a_pistol_unless_the_table_says_any(kind: str) -> None:
    error = refusal(draw(kind))
    assert error.path == "$.weapon.kind"
    word = {"rifle": "rifle", "heavy": "heavy weapon"}[kind]
    assert error.message.startswith(f"Draw a Small Weapon draws a pistol, and Gauss rifle is a {word}: ")
    assert resolved(draw(kind, "any")).readiness == "ready"
    assert resolved(draw("pistol")).readiness == "ready"
