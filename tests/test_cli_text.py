"""``volley roll --text`` and ``volley show`` speak the reader's language, and ``show`` survives a damaged
journal: each bad field is named, the rest is shown, the exit code is 1, and there is no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from clikit import run_volley

ROOT = Path(__file__).resolve().parent.parent
JONG_WU = ROOT / "docs" / "examples" / "megatraveller" / "jong_wu_fast_draw_rapid.json"
GURPS_SESSION = ROOT / "tests" / "replays" / "gurps.jsonl"
OLD_GURPS_SESSION = ROOT / "tests" / "replays" / "format1" / "gurps.jsonl"


def test_roll_text_tells_the_books_example_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_volley(["roll", "--text", "--lang", "en"], capsys, JONG_WU.read_text())
    assert code == 0, err
    assert out.splitlines() == [
        "Jong Wu: Fast Draw (Autopistol)  [MegaTraveller — RCS fire rules]",
        "  Jong Wu: Fast Draw, locked on central guard, DM -2",
        "  DMs: skill +5, Dex 13 +2, action -2 = +5",
        "  difficulty +1 level: Routine → Difficult",
        "  bullets 1D+2 = 4",
        "  split 2, 1, 1 among 3 designated targets: DM -3",
        "  central guard bullet 1/2: 2D 8 +3 (bullets +1) = 11 vs 11+: hit",
        "  central guard bullet 2/2: 2D 12 +2 (bullets +0) = 14 vs 11+: hit",
        "  left guard bullet 1/1: 2D 3 +2 (bullets +0) = 5 vs 11+: miss",
        "  right guard bullet 1/1: 2D 9 +2 (bullets +0) = 11 vs 11+: hit",
        "  4 rounds fired, 11 left; central guard 2 hits, left guard 0 hits, right guard 1 hit",
        "- central guard: 2 hits",
        "- left guard: 0 hits",
        "- right guard: 1 hit",
        "weapon Autopistol: 11 loaded, ready",
        "dice:",
        "  1×d6 rapid fire bullets 1D+2: 2",
        "  4×d6 to-hit central guard: 4, 4, 6, 6",
        "  2×d6 to-hit left guard: 1, 2",
        "  2×d6 to-hit right guard: 4, 5",
    ]


def test_roll_text_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_volley(["roll", "--text", "--lang", "ru"], capsys, JONG_WU.read_text())
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Jong Wu: быстрое выхватывание (Autopistol)  [MegaTraveller — правила стрельбы RCS]"
    assert "  распределение 2, 1, 1 на 3 назначенные цели: МБ -3" in lines
    assert "- central guard: 2 попадания" in lines and "- left guard: 0 попаданий" in lines
    assert "оружие Autopistol: заряжено 11, готово" in lines
    assert lines[-5:] == [
        "кубы:",
        "  1×d6 пули беглого огня 1D+2: 2",
        "  4×d6 попадание: central guard: 4, 4, 6, 6",
        "  2×d6 попадание: left guard: 1, 2",
        "  2×d6 попадание: right guard: 4, 5",
    ]


def test_statuses_on_the_card_are_said_in_the_readers_language(capsys: pytest.CaptureFixture[str]) -> None:
    """Suppressing fire with seed 7: one Cultist fails its test and, with no cover in reach, goes prone."""
    request = (ROOT / "docs" / "examples" / "d100" / "suppressing_fire.json").read_text()
    _, english, _ = run_volley(["roll", "--seed", "7", "--text", "--lang", "en"], capsys, request)
    _, russian, _ = run_volley(["roll", "--seed", "7", "--text", "--lang", "ru"], capsys, request)
    assert "- Cultist: 0 hits  +suppressed, prone" in english.splitlines()
    assert "- Cultist: 0 попаданий  +подавлен, залёг" in russian.splitlines()


def test_roll_text_repeats_one_block_per_seed(capsys: pytest.CaptureFixture[str]) -> None:
    request = (ROOT / "docs" / "examples" / "gurps" / "mp5_burst.json").read_text()
    code, out, _ = run_volley(
        ["roll", "--text", "--lang", "en", "--seed", "3", "--repeat", "3"], capsys, request
    )
    assert code == 0
    blocks = out.strip().split("\n\n")
    assert len(blocks) == 3 and all(
        block.startswith("Kane fires MP5  [GURPS 4e — rapid fire]") for block in blocks
    )
    code, json_out, _ = run_volley(["roll", "--seed", "3", "--repeat", "3"], capsys, request)
    loaded = [json.loads(line)["weapon"]["loaded"] for line in json_out.splitlines()]
    assert [f"weapon MP5: {n} loaded, ready" in block for n, block in zip(loaded, blocks, strict=True)] == [
        True
    ] * 3


def test_roll_text_refuses_a_bad_request_like_json_does(capsys: pytest.CaptureFixture[str]) -> None:
    request = json.loads((ROOT / "docs" / "examples" / "gurps" / "mp5_burst.json").read_text())
    request["shots"] = 14
    code, out, err = run_volley(["roll", "--text"], capsys, json.dumps(request))
    assert (code, out) == (2, "")
    assert err.strip() == "volley roll: $.shots: shots 14 > RoF 13"


@pytest.mark.parametrize(
    ("environment", "first_word"), [("ru_RU.UTF-8", "Сессия"), ("en_GB.UTF-8", "Session")]
)
def test_the_language_follows_the_locale(environment: str, first_word: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    env["LANG"] = environment
    shown = subprocess.run(
        [sys.executable, "-m", "bridge.cli", "show", str(GURPS_SESSION)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    assert shown.stdout.startswith(first_word + " ")


def test_show_reads_an_old_journal_as_it_was_written(capsys: pytest.CaptureFixture[str]) -> None:
    """Format 1 holds English text: it is shown as it is, around the reader's own words."""
    code, out, _ = run_volley(["show", str(OLD_GURPS_SESSION), "--lang", "ru"], capsys)
    assert code == 0
    assert "  Kane fires MP5  [GURPS 4e rapid fire]" in out
    assert "    MP5: 20 loaded." in out
    assert "  оружие MP5: заряжено 20, готово" in out


def _damaged(tmp_path: Path, damage: dict[int, Any]) -> Path:
    """The GURPS recording with the replies of some lines (1 is the first entry) replaced or edited."""
    header, *entries = GURPS_SESSION.read_text().splitlines()
    out = [header]
    for number, line in enumerate(entries, start=1):
        record = json.loads(line)
        if number in damage:
            change = damage[number]
            record["reply"] = change(record["reply"]) if callable(change) else change
        out.append(json.dumps(record))
    path = tmp_path / "damaged.jsonl"
    path.write_text("\n".join(out) + "\n")
    return path


def _with_card(field: str, value: Any) -> Any:
    def change(reply: dict[str, Any]) -> dict[str, Any]:
        if field == "card":
            reply["card"] = value
        else:
            reply["card"][field] = value
        return reply

    return change


def test_show_names_every_bad_field_and_shows_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 10: ``"reply": 5``, ``"card": [1]``, ``"rows": [1, "x"]`` once ended in a traceback."""
    journal = _damaged(
        tmp_path,
        {1: 5, 2: _with_card("card", [1]), 3: _with_card("rows", [1, "x"]), 5: _with_card("title", 7)},
    )
    code, out, err = run_volley(["show", str(journal), "--lang", "en"], capsys)
    assert code == 1
    assert "  ! reply should be an object, not 5" in out
    assert "  ! card should be an object, not [1]" in out
    assert "  ! card.rows[0] should be an object, not 1" in out
    assert '  ! card.rows[1] should be an object, not "x"' in out
    assert "  ! card.title should be text or a message, not 7" in out
    # What could be shown is shown: the third entry's log, the fourth entry whole.
    assert "    Rosa fires 3 shots (27 pellets) from Remington 870 at Biker: skill 13 +5" in out
    assert "  Kane: Reload (MP5)  [GURPS 4e — rapid fire]" in out
    ids = ["gurps/mp5_burst", "gurps/saw_two_targets", "gurps/shotgun_3x9", "gurps/requests/unjam"]
    assert err.strip() == f"volley show: 4 entries could not be shown in full: {', '.join(ids)}"


@pytest.mark.parametrize(
    ("damage", "named"),
    [
        ({"rows": "x"}, "card.rows should be a list"),
        ({"log": {"key": "x"}}, "card.log should be a list"),
        ({"log": [{"key": 5}]}, "card.log[0] should be text or a message"),
        ({"log": [{"key": "gurps.reload", "values": "bad"}]}, "card.log[0] should be text or a message"),
        ({"log": [{"key": "a", "values": {"x": {"key": "b", "values": [1]}}}]}, "card.log[0] should be"),
        ({"weapon": [3]}, "card.weapon should be an object"),
        ({"weapon": {"name": 3, "loaded": 2}}, "card.weapon.name should be text"),
        ({"weapon": {"loaded": True}}, "card.weapon.loaded should be a whole number"),
        ({"weapon": {"loaded": 2, "jammed": "no"}}, "card.weapon.jammed should be true or false"),
        ({"rows": [{"target": "t", "hits": "2"}]}, "card.rows[0].hits should be a whole number"),
        ({"rows": [{"target": 4, "hits": 2}]}, "card.rows[0].target should be text"),
        (
            {"rows": [{"target": "t", "hits": 2, "statuses_add": "prone"}]},
            "card.rows[0].statuses_add should be a list",
        ),
        (
            {"rows": [{"target": "t", "hits": 2, "statuses_add": [1]}]},
            "card.rows[0].statuses_add[0] should be text",
        ),
        ({"system_title": ["x"]}, "card.system_title should be text or a message"),
    ],
)
def test_show_survives_each_kind_of_damage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: dict[str, Any], named: str
) -> None:
    def change(reply: dict[str, Any]) -> dict[str, Any]:
        reply["card"].update(damage)
        return reply

    code, out, err = run_volley(["show", str(_damaged(tmp_path, {2: change})), "--lang", "en"], capsys)
    assert code == 1, out
    assert f"  ! {named}" in out
    assert "Traceback" not in out + err
    assert "gurps/requests/reload" in out  # the entries after it are still shown


def test_show_without_damage_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_volley(["show", str(GURPS_SESSION), "--lang", "en"], capsys)
    assert (code, err) == (0, "")
    assert "!" not in out


def test_show_of_a_damaged_journal_in_a_real_process_has_no_traceback(tmp_path: Path) -> None:
    journal = _damaged(tmp_path, {1: 5, 2: _with_card("card", [1]), 3: _with_card("rows", [1, "x"])})
    shown = subprocess.run(
        [sys.executable, "-m", "bridge.cli", "show", str(journal), "--lang", "en"],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert shown.returncode == 1
    assert "Traceback" not in shown.stderr and "could not be shown in full" in shown.stderr
