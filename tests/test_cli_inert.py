"""Issue 18, items 6 and 7: what the CLI prints from requests and journals is inert, and no number in
a journal is too big to print.

A target named ``"\\x1b]0;pwned\\x07"`` retitled the terminal window when ``volley show`` printed it,
``"\\x1b[2J"`` cleared the screen, U+202E turned the rest of the line around; the undo's user went
through the same way. Now ``show``, ``sessions``, ``replay`` and ``roll --text`` print every C0 and C1
control and every bidi control escaped (``\\x1b``, ``\\u202e``) and keep everything else as it is.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from clikit import run_volley

from bridge.cli.inert import inert, inert_catalogue
from bridge.i18n import Catalogue

ROOT = Path(__file__).resolve().parent.parent
GURPS_SESSION = ROOT / "tests" / "replays" / "gurps.jsonl"
MP5 = ROOT / "docs" / "examples" / "gurps" / "mp5_burst.json"

TITLE = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
REVERSED = "\u202eevil"
#: Anything a terminal would act on: C0 but the newline, DEL, C1, the bidi controls.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escaped_json(text: str) -> str:
    """``text`` as it sits inside a JSON string (without the quotes)."""
    return json.dumps(text)[1:-1]


def hostile_journal(tmp_path: Path, name: str = "hostile.jsonl") -> Path:
    """The GURPS recording with its first entry's target, shooter and weapon renamed with control
    sequences (in the request and in the reply the table saw), and an undo by a hostile user."""
    header, first, *rest = GURPS_SESSION.read_text().splitlines()
    first = (
        first.replace("Ganger", _escaped_json(TITLE))
        .replace("Kane", _escaped_json(CLEAR))
        .replace('"MP5"', json.dumps("MP5" + REVERSED))
    )
    undo = {
        "kind": "undo",
        "id": "undo-1",
        "target_id": json.loads(first)["id"],
        "at": "2026-11-30T17:00:00Z",
        "user": TITLE + "\n  - forged line",
        "reply": {},
    }
    path = tmp_path / name
    path.write_text("\n".join([header, first, json.dumps(undo), *rest]) + "\n")
    return path


def assert_inert(text: str) -> None:
    found = RAW.findall(text)
    assert found == [], f"raw controls reached the terminal: {found!r}"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_show_prints_names_and_the_undos_user_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str
) -> None:
    code, out, err = run_volley(["show", str(hostile_journal(tmp_path)), "--lang", language], capsys)
    assert code == 0, err
    assert_inert(out + err)
    assert "\\x1b]0;pwned\\x07" in out  # the target, in the log and on its row
    assert "\\x1b[2J" in out  # the shooter
    assert "MP5\\u202eevil" in out  # the weapon
    undo = next(line for line in out.splitlines() if "undo-1" in line)
    assert "\\x1b]0;pwned\\x07\\n  - forged line" in undo  # the user, on its own line as one value
    assert "\n  - forged line" not in out


def test_show_in_a_real_terminal_process_writes_no_escape_byte(tmp_path: Path) -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "bridge.cli", "show", str(hostile_journal(tmp_path)), "--lang", "en"],
        check=False,
        capture_output=True,
        cwd=ROOT,
    )
    assert shown.returncode == 0, shown.stderr
    assert b"\x1b" not in shown.stdout + shown.stderr and b"\x07" not in shown.stdout
    assert "\u202e".encode() not in shown.stdout


def test_sessions_lists_a_hostile_header_and_file_name_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sessions = tmp_path / "data" / "sessions"
    sessions.mkdir(parents=True)
    journal = hostile_journal(sessions, f"s{CLEAR}1.jsonl")
    lines = journal.read_text().splitlines()
    header = json.loads(lines[0])
    header["started"] = TITLE + "\u202e"
    entry = json.loads(lines[1])
    entry["request"]["system"] = "gurps" + CLEAR
    journal.write_text("\n".join([json.dumps(header), json.dumps(entry), *lines[2:]]) + "\n")
    code, out, err = run_volley(["sessions", "--data-dir", str(tmp_path / "data")], capsys)
    assert code == 0, err
    assert_inert(out + err)
    assert "s\\x1b[2J1" in out and "\\x1b]0;pwned\\x07\\u202e" in out and "gurps\\x1b[2J" in out


def test_replay_reports_a_hostile_request_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = hostile_journal(tmp_path)
    lines = journal.read_text().splitlines()
    entry = json.loads(lines[1])
    entry["id"] = "id" + TITLE
    entry["request"]["system"] = "dnd" + CLEAR  # refused on replay: the refusal quotes it
    journal.write_text("\n".join([lines[0], json.dumps(entry), *lines[2:]]) + "\n")
    code, out, err = run_volley(["replay", str(journal)], capsys)
    assert code != 0
    assert_inert(out + err)
    assert "dnd\\x1b[2J" in out


def test_roll_text_prints_the_requests_names_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    request = json.loads(MP5.read_text())
    request["attacker"]["name"] = CLEAR
    request["targets"][0]["name"] = TITLE
    request["weapon"]["name"] = "MP5" + REVERSED
    code, out, err = run_volley(
        ["roll", "--text", "--seed", "3", "--lang", "en"], capsys, json.dumps(request)
    )
    assert code == 0, err
    assert_inert(out + err)
    assert "\\x1b]0;pwned\\x07" in out and "\\x1b[2J" in out and "MP5\\u202eevil" in out


def test_what_is_not_a_control_is_shown_as_it_is() -> None:
    assert inert("Гангер 日本 é 🎯 tab\there") == "Гангер 日本 é 🎯 tab\\there"
    catalogue = inert_catalogue(Catalogue.load("en"))
    assert catalogue.render("plain \x9b31m text") == "plain \\x9b31m text"


def test_show_of_a_huge_number_in_a_journal_prints_it_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 7: 1e308 in a log value once ended ``volley show`` in Decimal's InvalidOperation."""
    header, first, *rest = GURPS_SESSION.read_text().splitlines()
    assert '"effective":12' in first
    path = tmp_path / "huge.jsonl"
    path.write_text("\n".join([header, first.replace('"effective":12', '"effective":1e308'), *rest]) + "\n")
    code, out, err = run_volley(["show", str(path), "--lang", "ru"], capsys)
    assert (code, err) == (0, "")
    assert "= 1e+308" in out
