"""Table rules: each system's declared readings (rules.table_rules), what a card says about them, and
the module's generated copy of the declaration (docs/rules/*.md, "table rule")."""

from __future__ import annotations

import json
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import msgspec
import pytest

import rules
from bridge.cli.card_text import card_lines
from bridge.i18n import Catalogue
from bridge.resolution import reply_for
from rules.table_rules import MODULE_READINGS, changed, export, readings_of

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

RAPID = {
    "system": "megatraveller",
    "mode": "rapid",
    "attacker": {"id": "s", "name": "Sam", "skill": 2, "dex": 8},
    "weapon": {"name": "SMG", "rapid": True, "loaded": 10},
    "targets": [{"id": "t1", "name": "A"}, {"id": "t2", "name": "B"}],
}


def _struct_fields(system: str, action: str) -> dict[str, Any]:
    union = rules.SYSTEMS[system].request_type
    for member in typing.get_args(union) or (union,):
        if member.__struct_config__.tag == action:
            info = msgspec.inspect.type_info(member)
            assert isinstance(info, msgspec.inspect.StructType)
            return {field.encode_name: field for field in info.fields}
    raise AssertionError(f"{system} has no action {action}")


@pytest.mark.parametrize("system", sorted(rules.SYSTEMS))
def test_every_rules_reading_is_a_field_of_each_action_it_names(system: str) -> None:
    declared = readings_of(system)
    assert declared, f"{system} declares no table rules"
    for reading in declared:
        assert reading.actions, reading.field
        for action in reading.actions:
            fields = _struct_fields(system, action)
            if reading.owner == "module":
                # Reported inside the request's module_readings, a struct that names each of them.
                reported = fields[MODULE_READINGS].type
                inner = reported.types[0] if isinstance(reported, msgspec.inspect.UnionType) else reported
                assert isinstance(inner, msgspec.inspect.StructType), (system, action)
                assert reading.field in {f.encode_name for f in inner.fields}, (system, action, reading.field)
            else:
                assert reading.field in fields, (system, action, reading.field)


@pytest.mark.parametrize("system", sorted(rules.SYSTEMS))
def test_the_default_changes_nothing_and_every_documented_alternative_is_accepted(system: str) -> None:
    for reading in readings_of(system):
        assert not reading.differs(None)
        assert not reading.differs(reading.default)
        assert changed({"system": system, reading.field: reading.default}) == []


def test_a_changed_reading_is_listed_only_for_actions_that_carry_it() -> None:
    assert [m.key for m in changed({**RAPID, "split_dm_counts": "receiving"})] == [
        "megatraveller.table_rule.split_dm_counts"
    ]
    # Reload carries no splitting DM: the table's choice says nothing there.
    assert changed({"system": "megatraveller", "action": "reload", "split_dm_counts": "receiving"}) == []
    assert changed({"system": "d100", "action": "attack", "range_modifiers": {"long": -10}}) == []
    moved = changed({"system": "d100", "action": "attack", "range_modifiers": {"long": -20, "short": 10}})
    assert [(m.key, m.values["modifier"], m.values["volley"]) for m in moved] == [
        ("d100.table_rule.range_modifier", -20, -10)
    ]
    # The module's own readings, as the referee's browser reports them in module_readings.
    danger = changed({**RAPID, "module_readings": {"danger_space_half_width": 3, "danger_space_beyond": 2}})
    assert [(m.key, m.values["squares"], m.values["volley"]) for m in danger] == [
        ("megatraveller.table_rule.danger_space_half_width", 3, 1)
    ]
    assert changed({**RAPID, "danger_space_half_width": 3}) == []
    stands = {"system": "d100", "action": "overwatch", "module_readings": {"overwatch_ends_on_turn": False}}
    assert [m.key for m in changed(stands)] == ["d100.table_rule.overwatch_stands"]
    assert changed({**stands, "action": "attack"}) == []
    # A value of the wrong shape says nothing here: the rules refuse the request before any card.
    assert changed({"system": "d100", "action": "attack", "range_modifiers": ["long"]}) == []
    assert changed({"system": "nowhere", "dodge_step": 3}) == []


def _changed_one_by_one(request: dict[str, Any]) -> list[Any]:
    """``changed`` as it was first written: every reading of the system looked at, one by one."""
    found = rules.SYSTEMS[request["system"]]
    action = request.get("action") or found.default_action
    module = request.get(MODULE_READINGS) or {}
    out: list[Any] = []
    for reading in found.table_rules:
        if action not in reading.actions:
            continue
        value = request.get(reading.field) if reading.owner == "rules" else module.get(reading.field)
        if reading.differs(value):
            out.extend(reading.says(value))
    return out


def _other_value(reading: Any) -> Any:
    if reading.kind == "choice":
        return next(choice for choice in reading.choices if choice != reading.default)
    if reading.kind == "boolean":
        return not reading.default
    if reading.kind == "bands":
        band = next(iter(reading.default))
        return {band: reading.default[band] - 5}
    return (
        reading.default + 1
        if reading.maximum is None or reading.default < reading.maximum
        else reading.default - 1
    )


@pytest.mark.parametrize("system", sorted(rules.SYSTEMS))
def test_the_quick_path_lists_what_looking_at_every_reading_lists(system: str) -> None:
    """``changed`` skips a request that names no reading's field (most of them) and keeps each action's
    readings at hand; it lists what looking at every reading one by one lists, for every reading,
    action, owner and value."""
    actions = {action for reading in readings_of(system) for action in reading.actions} | {"nothing"}
    for action in sorted(actions):
        base = {"system": system, "action": action}
        assert changed(base) == _changed_one_by_one(base) == []
        for reading in readings_of(system):
            for value in (reading.default, _other_value(reading)):
                if reading.owner == "rules":
                    request = {**base, reading.field: value}
                else:
                    request = {**base, MODULE_READINGS: {reading.field: value}}
                assert changed(request) == _changed_one_by_one(request), (action, reading.field, value)
            every = {**base, **{r.field: _other_value(r) for r in readings_of(system) if r.owner == "rules"}}
            every[MODULE_READINGS] = {
                r.field: _other_value(r) for r in readings_of(system) if r.owner == "module"
            }
            assert changed(every) == _changed_one_by_one(every)
            assert changed(every) != [] or not any(action in r.actions for r in readings_of(system))


def test_the_card_and_volley_show_list_the_changed_readings_in_each_language() -> None:
    request = {**RAPID, "split_dm_counts": "receiving", "exceptional_margin": 6}
    decoded = rules.decode_request(request)
    result = rules.resolve(decoded, rules.dice_for(decoded, 3))
    reply = msgspec.json.decode(reply_for("r1", request, result)[1])
    keys = [m["key"] for m in reply["card"]["table_rules"]]
    assert keys == ["megatraveller.table_rule.split_dm_counts", "megatraveller.table_rule.exceptional_margin"]
    english = "\n".join(card_lines(Catalogue.load("en"), reply["card"], []))
    assert "table rules differ from Volley's readings:" in english
    assert "Splitting DM counts only targets given a bullet" in english
    assert "Exceptional success beats the target number by 6 (Volley: 4)" in english
    russian = "\n".join(card_lines(Catalogue.load("ru"), reply["card"], []))
    assert "правила стола отличаются" in russian and "получившие пулю" in russian


def test_a_card_of_a_request_that_keeps_volleys_readings_has_no_table_rules_field() -> None:
    """Journals written before table rules replay unchanged: the field is absent, not empty."""
    decoded = rules.decode_request(RAPID)
    result = rules.resolve(decoded, rules.dice_for(decoded, 3))
    reply = msgspec.json.decode(reply_for("r1", RAPID, result)[1])
    assert "table_rules" not in reply["card"]


def test_the_split_dm_reading_changes_the_odds_as_the_rules_say() -> None:
    """Two targets, the split leaving the second without a bullet: designated pays -1, receiving not."""
    weapon = {"name": "SMG", "burst": 3, "loaded": 9}
    base = {**RAPID, "mode": "burst", "weapon": weapon, "allocation": [3, 0]}
    designated = rules.odds(rules.decode_request(base))
    receiving = rules.odds(rules.decode_request({**base, "split_dm_counts": "receiving"}))

    def expected(odds: Any) -> float:
        return sum(k * p for k, p in enumerate(odds.targets[0].hits))

    assert expected(designated) < expected(receiving)


def test_the_modules_copy_of_the_declaration_is_current() -> None:
    import write_table_rules

    on_disk = write_table_rules.TARGET.read_text(encoding="utf-8")
    assert on_disk == write_table_rules.module_text(), "run .venv/bin/python scripts/write_table_rules.py"
    assert json.dumps(export(), ensure_ascii=False, indent=2) in on_disk


def test_the_script_writes_the_file_it_checks(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "write_table_rules.py")],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert "readings.js" in done.stdout
