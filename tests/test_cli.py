"""The `volley roll` / `odds` / `schema` contract, for every system, through the real command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from clikit import run_volley

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*/*.json"))
VOLLEY = Path(sys.executable).parent / "volley"


def test_there_are_examples_for_every_system() -> None:
    import rules

    systems = {path.parent.name for path in EXAMPLES}
    assert systems == set(rules.SYSTEMS), "every registered system needs docs/examples/<system>/*.json"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_roll_prints_the_common_result_shape(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_volley(["roll", "--seed", "11"], capsys, example.read_text())
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert isinstance(result["targets"], list)
    for target in result["targets"]:
        assert isinstance(target["id"], str) and isinstance(target["hits"], int) and target["hits"] >= 0
    if result["weapon"] is not None:
        assert isinstance(result["weapon"]["loaded"], int)
        assert isinstance(result["weapon"]["jammed"], bool)
    assert all({"die", "face", "for"} <= set(roll) for roll in result["rolls"])


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_repeat_rolls_seed_after_seed(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    request = example.read_text()
    code, out, _ = run_volley(["roll", "--seed", "5", "--repeat", "3"], capsys, request)
    assert code == 0
    repeated = out.splitlines()
    singles = [run_volley(["roll", "--seed", str(5 + k)], capsys, request)[1].strip() for k in range(3)]
    assert repeated == singles


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_odds_are_distributions(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_volley(["odds"], capsys, example.read_text())
    assert code == 0, err
    odds = json.loads(out)
    assert set(odds) >= {"targets", "jam"}
    assert 0.0 <= odds["jam"] <= 1.0
    assert odds["targets"]
    for target in odds["targets"]:
        assert isinstance(target["id"], str)
        assert all(p >= 0.0 for p in target["hits"])
        assert sum(target["hits"]) == pytest.approx(1.0, abs=1e-9)


def test_schema_names_every_system(capsys: pytest.CaptureFixture[str]) -> None:
    import rules

    code, out, _ = run_volley(["schema"], capsys)
    assert code == 0
    schema = json.loads(out)
    assert set(schema["systems"]) == set(rules.SYSTEMS)
    assert "Odds" in schema["$defs"]


@pytest.mark.parametrize(
    ("stdin", "needle"),
    [
        ("{not json", "not valid JSON"),
        ("", "no request on stdin"),
        ("[1, 2]", "must be a JSON object"),
        ('{"system": "warhammer"}', "$.system: unknown system 'warhammer'"),
        (
            '{"system": "gurps", "action": "teleport"}',
            "$.action: GURPS 4e rapid fire has no action 'teleport'",
        ),
        ('{"system": "gurps", "action": "teleport"}', "expected one of attack, reload, unjam"),
        (
            '{"system": "megatraveller", "attacker": {"id": "x", "skill": 2, "dex": 7,'
            ' "readiness": "flying"}, "weapon": {"kind": "pistol", "loaded": 1}, "targets": [{"id": "t"}]}',
            "$.attacker.readiness: Invalid enum value 'flying'; "
            "expected one of carried, holstered, ready, slung",
        ),
        ('{"action": "attack"}', "$.system: a request needs a system: one of d100, gurps, megatraveller"),
        ('{"system": "gurps", "shots": 1, "targets": []}', "$.attacker: Object missing required field"),
        (
            '{"system": "gurps", "attacker": {"id": "a"}, "weapon": {"rof": 3, "rcl": 2, "loaded": 3},'
            ' "shots": 1, "targets": [{"id": "t"}]}',
            "$.attacker.skill: Object missing required field `skill`",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(stdin: str, needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_volley(["roll", "--seed", "1", "--lang", "en"], capsys, stdin)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert needle in err


GURPS_OVER_ROF = (
    '{"system": "gurps", "attacker": {"id": "a1", "skill": 12}, "weapon": {"name": "MP5", "rof": 10,'
    ' "rcl": 2, "loaded": 30}, "shots": 12, "targets": [{"id": "t1"}]}'
)


@pytest.mark.parametrize("command", [["roll", "--seed", "1"], ["odds"]])
@pytest.mark.parametrize(
    ("stdin", "line"),
    [
        (GURPS_OVER_ROF, "$.shots: 12 выстрелов — больше СС 10"),
        (
            '{"system": "warhammer"}',
            "$.system: неизвестная система 'warhammer'; возможны: d100, gurps, megatraveller",
        ),
        (
            '{"system": "gurps", "attacker": {"id": "a"}, "weapon": {"rof": 3, "rcl": 2, "loaded": 3},'
            ' "shots": 1, "targets": [{"id": "t"}]}',
            "$.attacker.skill: не хватает обязательного поля `skill`",
        ),
        (
            '{"system": "d100", "mode": "long_burst", "attacker": {"id": "a", "bs": 40},'
            ' "weapon": {"rof": "S/3/-", "loaded": 30}, "targets": [{"id": "t"}]}',
            "$.mode: Длинная Очередь: нужна позиция RoF для Длинной Очереди, а у оружия её нет (S/3/-)",
        ),
    ],
    ids=["gurps rule", "unknown system", "missing field", "d100 rule"],
)
def test_a_refusal_is_printed_in_the_language_asked_for(
    command: list[str], stdin: str, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_volley([*command, "--lang", "ru"], capsys, stdin)
    assert (code, out, err) == (2, "", f"volley {command[0]}: {line}\n")


def test_a_refusal_follows_the_locale_without_lang(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LC_ALL", "ru_RU.UTF-8")
    code, _, err = run_volley(["odds"], capsys, GURPS_OVER_ROF)
    assert (code, err) == (2, "volley odds: $.shots: 12 выстрелов — больше СС 10\n")
    monkeypatch.setenv("LC_ALL", "en_GB.UTF-8")
    code, _, err = run_volley(["odds"], capsys, GURPS_OVER_ROF)
    assert (code, err) == (2, "volley odds: $.shots: shots 12 > RoF 10\n")


def test_the_console_script_is_installed_and_speaks_the_contract() -> None:
    assert VOLLEY.exists(), "pip install -e . must install the `volley` console script"
    example = next(p for p in EXAMPLES if p.parent.name == "gurps")
    done = subprocess.run(
        [str(VOLLEY), "roll", "--seed", "3"], input=example.read_bytes(), capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["targets"]
    bad = subprocess.run([str(VOLLEY), "odds"], input=b"{", capture_output=True, check=False)
    assert bad.returncode == 2
    assert bad.stderr.decode().count("\n") == 1
