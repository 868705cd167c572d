"""Bad input never half-works: a field no request type declares is refused, its path named (issue 18).

Before, msgspec skipped unknown fields, so a referee's typo (``"distnce": 30``, ``"sjots": 5``) resolved
with the default instead. Old journals still replay: they are decoded leniently (``lenient=True``),
dropping what the table's bridge ignored then.
"""

from __future__ import annotations

import copy
import json
import typing
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest
from clikit import run_volley

import rules
from bridge.i18n import Catalogue
from bridge.protocol import ClientMessage, ProtocolError, decode_client

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = {
    path.parent.name + "/" + path.stem: path for path in (ROOT / "docs" / "examples").glob("*/*.json")
}


def example(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(EXAMPLES[name].read_text())
    return loaded


def _set(request: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``request`` with ``value`` at ``path`` (``targets.0.distnce``)."""
    out = copy.deepcopy(request)
    *parents, last = path.split(".")
    here: Any = out
    for step in parents:
        here = here[int(step)] if isinstance(here, list) else here[step]
    here[last] = value
    return out


#: (example, where the typo goes, the path the refusal names): a top-level and a nested typo per system.
TYPOS = [
    ("gurps/mp5_burst", "sjots", "$.sjots"),
    ("gurps/saw_two_targets", "targets.1.modifer", "$.targets[1].modifer"),
    ("gurps/mp5_burst", "weapon.rcoil", "$.weapon.rcoil"),
    ("megatraveller/burst_two_targets", "empty_magazin", "$.empty_magazin"),
    ("megatraveller/burst_two_targets", "targets.1.dm_", "$.targets[1].dm_"),
    ("megatraveller/burst_two_targets", "attacker.skil", "$.attacker.skil"),
    ("d100/wide_burst_cover", "targets.0.distnce", "$.targets[0].distnce"),
    ("d100/long_burst", "modifer", "$.modifer"),
    ("d100/overwatch_fire", "attacker.overwatch.trigerr", "$.attacker.overwatch.trigerr"),
]


@pytest.mark.parametrize(("name", "where", "path"), TYPOS, ids=[f"{n}:{w}" for n, w, _ in TYPOS])
def test_a_typo_is_refused_with_its_path_and_field(name: str, where: str, path: str) -> None:
    request = _set(example(name), where, 30)
    with pytest.raises(rules.RuleError) as refused:
        rules.decode_request(request)
    field = where.rsplit(".", 1)[-1]
    error = refused.value
    assert (error.path, error.code) == (path, "invalid")
    assert error.message == f"Object contains unknown field `{field}`"
    assert error.msg is not None
    assert (error.msg.key, error.msg.values) == ("common.error.unknown_field", {"field": field})
    assert Catalogue.load("ru").render(error.msg) == f"неизвестное поле `{field}`"
    # ...and the same request without the typo is fine.
    rules.decode_request(example(name))


@pytest.mark.parametrize(("name", "where", "path"), TYPOS[::3], ids=[f"{n}:{w}" for n, w, _ in TYPOS[::3]])
def test_volley_roll_refuses_a_typo_with_exit_2(
    name: str, where: str, path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    field = where.rsplit(".", 1)[-1]
    request = json.dumps(_set(example(name), where, 5))
    code, out, err = run_volley(["roll", "--lang", "en"], capsys, request)
    assert (code, out, err) == (2, "", f"volley roll: {path}: Object contains unknown field `{field}`\n")
    code, out, err = run_volley(["roll", "--lang", "ru"], capsys, request)
    assert (code, out, err) == (2, "", f"volley roll: {path}: неизвестное поле `{field}`\n")


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_still_rolls(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_volley(["roll", "--seed", "3"], capsys, EXAMPLES[name].read_text())
    assert code == 0, err


def _structs(info: Any, seen: dict[type, bool]) -> None:
    """Every Struct a request type can hold, with whether it refuses unknown fields."""
    if isinstance(info, mi.StructType):
        if info.cls in seen:
            return
        seen[info.cls] = bool(info.forbid_unknown_fields)
        for field in info.fields:
            _structs(field.type, seen)
    elif isinstance(info, mi.UnionType):
        for option in info.types:
            _structs(option, seen)
    elif isinstance(info, (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType)):
        _structs(info.item_type, seen)
    elif isinstance(info, mi.DictType):
        _structs(info.value_type, seen)
    elif isinstance(info, mi.TupleType):
        for item in info.item_types:
            _structs(item, seen)
    elif isinstance(info, mi.Metadata):
        _structs(info.type, seen)


@pytest.mark.parametrize("system", sorted(rules.SYSTEMS))
def test_every_request_side_struct_refuses_unknown_fields(system: str) -> None:
    """A Struct added to a request later (a new nested target kind) must refuse typos too."""
    seen: dict[type, bool] = {}
    _structs(mi.type_info(rules.SYSTEMS[system].request_type), seen)
    assert len(seen) >= 8
    assert [cls.__qualname__ for cls, strict in seen.items() if not strict] == []


def test_every_client_frame_refuses_unknown_fields() -> None:
    seen: dict[type, bool] = {}
    _structs(mi.type_info(ClientMessage), seen)
    assert len(seen) == len(typing.get_args(ClientMessage)) >= 9  # every message, cancel and applied too
    assert [cls.__qualname__ for cls, strict in seen.items() if not strict] == []


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "hello", "token": "t", "tokn": "x"},
        {"type": "attack", "id": "a", "request": {}, "usr": "u"},
        {"type": "action", "id": "a", "request": {}, "usr": "u"},
        {"type": "odds", "id": "a", "request": {}, "usr": "u"},
        {"type": "allocate", "id": "a", "pending_id": "p", "allocation": [1], "alocation": [2]},
        {"type": "undo", "id": "a", "target_id": "b", "usr": "u"},
        {"type": "ping", "id": "a", "usr": "u"},
    ],
    ids=lambda frame: frame["type"],
)
def test_a_client_frame_with_an_unknown_field_is_refused(frame: dict[str, Any]) -> None:
    typo = next(name for name in frame if name in ("tokn", "usr", "alocation"))
    with pytest.raises(ProtocolError) as refused:
        decode_client(msgspec.json.encode(frame))
    assert (refused.value.code, refused.value.path) == ("invalid", f"$.{typo}")
    assert refused.value.msg is not None and refused.value.msg.values == {"field": typo}


def test_gurps_reload_and_unjam_take_the_firing_weapon_object() -> None:
    """One weapon object serves all three GURPS actions: reload and unjam accept ``rof``/``rcl``."""
    weapon = example("gurps/mp5_burst")["weapon"]
    attacker = {"id": "a1"}
    reload = {"system": "gurps", "action": "reload", "attacker": attacker, "weapon": weapon}
    assert rules.decode_request(reload).weapon.rof == weapon["rof"]
    with pytest.raises(rules.RuleError) as refused:
        rules.decode_request({**reload, "weapon": {**weapon, "rof_": 3}})
    assert refused.value.path == "$.weapon.rof_"


def test_lenient_decoding_drops_only_unknown_fields_and_leaves_the_request_alone() -> None:
    request = _set(_set(example("d100/wide_burst_cover"), "targets.0.distnce", 30), "legacy_flag", True)
    before = copy.deepcopy(request)
    cleaned, dropped = rules.drop_unknown_fields(request)
    assert request == before  # the caller's request (a journal line) is never changed
    assert sorted(dropped) == ["$.legacy_flag", "$.targets[0].distnce"]
    assert rules.decode_request(request, lenient=True) == rules.decode_request(cleaned)
    assert rules.decode_request(cleaned) == rules.decode_request(example("d100/wide_burst_cover"))
    # Anything else wrong is still refused, lenient or not.
    with pytest.raises(rules.RuleError) as refused:
        rules.decode_request(_set(request, "modifier", "ten"), lenient=True)
    assert refused.value.path == "$.modifier"
