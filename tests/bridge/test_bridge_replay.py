"""Replay: recorded sessions re-resolve identically; a tampered one fails with a field-by-field diff."""

from __future__ import annotations

import asyncio
import io
import json
import shutil
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
import skirmish
from aiohttp.test_utils import TestClient
from bridgekit import GURPS_MP5, TOKEN, Start, open_session

import rules
from bridge.cli import main
from bridge.cli.differences import TEXT_FIELDS, differences
from bridge.cli.progress import LONG_LOG, ProgressBar, want_progress
from bridge.cli.replay import replay_session
from bridge.server.app import BridgeSettings

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = sorted((ROOT / "tests" / "replays").glob("*.jsonl"))
EXAMPLES = ROOT / "docs" / "examples"
#: The actions the examples do not show, one request each (recorded after the examples).
REQUESTS = ROOT / "tests" / "replays" / "requests"


def test_there_are_recorded_sessions() -> None:
    assert REPLAYS, "tests/replays/ is empty: run .venv/bin/python scripts/record_replays.py"


def test_every_system_with_examples_has_a_recorded_session() -> None:
    with_examples = {path.parent.name for path in EXAMPLES.glob("*/*.json")}
    recorded = {path.stem for path in REPLAYS}
    missing = sorted(with_examples - recorded)
    assert not missing, f"record them: .venv/bin/python scripts/record_replays.py {' '.join(missing)}"


def test_every_example_is_in_its_recording() -> None:
    """A new example joins the recording (re-record), so its outcome is guarded from then on."""
    recorded = set()
    for path in REPLAYS:
        recorded |= {json.loads(line).get("id") for line in path.read_text().splitlines()}
    wanted = [f"{path.parent.name}/{path.stem}" for path in EXAMPLES.glob("*/*.json")]
    wanted += [f"{path.parent.name}/requests/{path.stem}" for path in REQUESTS.glob("*/*.json")]
    missing = sorted(id for id in wanted if id not in recorded)
    systems = sorted({name.split("/")[0] for name in missing})
    assert not missing, f"{missing}: run .venv/bin/python scripts/record_replays.py {' '.join(systems)}"


def _actions(system: rules.RuleSystem) -> set[str]:
    kinds = typing.get_args(system.request_type) or (system.request_type,)
    return {str(kind.__struct_config__.tag) for kind in kinds}


@pytest.mark.parametrize("recording", REPLAYS, ids=lambda path: path.stem)
def test_every_action_of_the_system_is_in_its_recording(recording: Path) -> None:
    """reload, unjam, ready, retarget, recover...: each is replayed, so none can change unnoticed."""
    system = rules.SYSTEMS[recording.stem]
    recorded = {
        record["request"].get("action", system.default_action)
        for record in map(json.loads, recording.read_text().splitlines())
        if record["kind"] == "resolved"
    }
    missing = sorted(_actions(system) - recorded)
    assert not missing, (
        f"{recording.stem} actions never recorded: {missing}; add a request for each to "
        f"tests/replays/requests/{recording.stem}/ and run .venv/bin/python scripts/record_replays.py "
        f"{recording.stem}"
    )


#: The same sessions recorded by the bridge before protocol 3 (journal format 2): replies that carried
#: copies (the card's log and pending, the reply's updates and pending).
FORMAT2 = sorted((ROOT / "tests" / "replays" / "format2").glob("*.jsonl"))


@pytest.mark.parametrize("recording", REPLAYS + FORMAT2, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_recorded_session_replays_identically(recording: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Byte for byte, in the shape of the journal's own format (issue 38: old journals keep replaying)."""
    code = main(["replay", str(recording), "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "all match" in out


def test_the_format_2_recordings_are_the_older_shape_of_the_same_sessions() -> None:
    """What the old-shape tests read: every reply of a format-2 recording carries the copies protocol 3
    dropped, and says what the format-3 recording of the same requests says."""
    from bridge.protocol import current_shape

    assert [path.stem for path in FORMAT2] == [path.stem for path in REPLAYS]
    for old, new in zip(FORMAT2, REPLAYS, strict=True):
        old_lines = [json.loads(line) for line in old.read_text().splitlines()]
        new_lines = [json.loads(line) for line in new.read_text().splitlines()]
        assert (old_lines[0]["format"], new_lines[0]["format"]) == (2, 3)
        for before, after in zip(old_lines[1:], new_lines[1:], strict=True):
            reply = before["reply"]
            assert "log" in reply["card"] and ("updates" in reply or "pending" in reply), before["id"]
            assert current_shape(reply) == after["reply"], before["id"]


def _tamper(source: Path, target: Path) -> tuple[str, int]:
    """Add 5 to the first target's hits in the first reply; returns (request id, the true hits)."""
    lines = source.read_text().splitlines()
    for number, line in enumerate(lines):
        record = json.loads(line)
        if record["kind"] == "resolved" and record["outcome"] == "result":
            true_hits = record["reply"]["result"]["targets"][0]["hits"]
            record["reply"]["result"]["targets"][0]["hits"] = true_hits + 5
            lines[number] = json.dumps(record)
            target.write_text("\n".join(lines) + "\n")
            return record["id"], true_hits
    raise AssertionError(f"{source} has no result to tamper with")


def test_a_tampered_session_fails_with_a_field_diff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = ROOT / "tests" / "replays" / "gurps.jsonl"
    tampered = tmp_path / "gurps-tampered.jsonl"
    id, hits = _tamper(source, tampered)
    code = main(["replay", str(tampered), "--no-progress"])
    out = capsys.readouterr().out
    assert code == 1
    assert "1 differ" in out
    assert f"request {id!r}" in out
    assert f"$.result.targets[0].hits: recorded {hits + 5}, replayed {hits}" in out


def test_a_rules_change_that_refuses_an_old_request_is_a_difference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = ROOT / "tests" / "replays" / "gurps.jsonl"
    broken = tmp_path / "broken.jsonl"
    lines = source.read_text().splitlines()
    record = json.loads(lines[1])
    record["request"]["shots"] = 999  # what the rules now say about this old request
    lines[1] = json.dumps(record)
    broken.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(broken), "--no-progress"]) == 1
    assert "now refused: rule at $.request.shots" in capsys.readouterr().out


def test_a_file_that_is_not_a_journal_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert main(["replay", str(empty), "--no-progress"]) == 1


def test_differences_walk_every_field() -> None:
    recorded = {"a": [1, 2, {"b": True}], "c": "x", "gone": 1}
    replayed = {"a": [1, 3, {"b": 1}], "c": "x", "new": 2}
    assert [(d.path, d.recorded, d.replayed) for d in differences(recorded, replayed)][:3] == [
        ("$.a[1]", 2, 3),
        ("$.a[2].b", True, 1),  # true and 1 are not the same JSON
        ("$.gone", 1, differences.__globals__["_MISSING"]),
    ]
    assert differences(recorded, recorded) == []


def test_progress_bar_draws_on_long_logs() -> None:
    stream = io.StringIO()
    bar = ProgressBar(200, enabled=True, stream=stream)
    for _ in range(200):
        bar.advance()
    text = stream.getvalue()
    assert text.endswith(f"replay [{'#' * 30}] 200/200\n")
    assert "100/200" in text
    quiet = io.StringIO()
    ProgressBar(5, enabled=False, stream=quiet).advance()
    assert quiet.getvalue() == ""


def test_progress_is_automatic_only_for_long_logs_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert want_progress(None, LONG_LOG, Terminal())
    assert not want_progress(None, LONG_LOG - 1, Terminal())
    assert not want_progress(None, 10_000, io.StringIO())  # piped: no bar
    assert want_progress(True, 1, io.StringIO()) and not want_progress(False, 10_000, Terminal())


@pytest.mark.asyncio
async def test_a_live_session_with_a_two_step_attack_replays(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    await session.ask({"type": "attack", "id": "g", "request": GURPS_MP5})
    pending = await session.ask({"type": "attack", "id": "p", "request": skirmish.fire(allocation="defer")})
    bullets = pending["result"]["pending"]["bullets"]
    await session.ask({"type": "allocate", "id": "a", "pending_id": "p", "allocation": [0, bullets]})
    await session.ask({"type": "attack", "id": "s", "request": skirmish.fire(dice=[6, 6, 1, 1, 4, 4])})
    (journal,) = (settings.data_dir / "sessions").glob("*.jsonl")
    report = replay_session(journal)
    assert (report.total, report.matched, report.ok) == (4, 4, True)


@pytest.mark.asyncio
async def test_replay_against_a_running_server(
    start_bridge: Start, settings: BridgeSettings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Record a session (seeded dice, a two-step attack) on one server...
    recorder = await start_bridge(allow_scripted_dice=False)
    session = await open_session(recorder)
    await session.ask({"type": "attack", "id": "g", "request": GURPS_MP5})
    pending = await session.ask({"type": "attack", "id": "p", "request": skirmish.fire(allocation="defer")})
    await session.ask(
        {
            "type": "allocate",
            "id": "a",
            "pending_id": "p",
            "allocation": [pending["result"]["pending"]["bullets"], 0],
        }
    )
    (journal,) = (settings.data_dir / "sessions").glob("*.jsonl")
    recording = tmp_path / "recorded.jsonl"
    shutil.copyfile(journal, recording)
    await recorder.close()

    # ...and replay it over the wire against another, which allows scripted dice.
    live = await start_bridge(allow_scripted_dice=True, data_dir=tmp_path / "other")
    url = str(live.make_url("/ws")).replace("http://", "ws://")
    code = await asyncio.to_thread(
        main, ["replay", str(recording), "--against", url, "--token", TOKEN, "--no-progress"]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "3/3 requests replayed identically" in out

    # A tampered recording fails over the wire too.
    tampered = tmp_path / "tampered.jsonl"
    _tamper(recording, tampered)
    code = await asyncio.to_thread(
        main, ["replay", str(tampered), "--against", url, "--token", TOKEN, "--no-progress"]
    )
    assert code == 1
    assert ".hits: recorded" in capsys.readouterr().out


@pytest.mark.asyncio
async def test_replay_against_a_server_without_scripted_dice_says_why(
    start_bridge: Start, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = await start_bridge(allow_scripted_dice=False)
    url = str(live.make_url("/ws")).replace("http://", "ws://")
    args = ["replay", str(REPLAYS[0]), "--against", url, "--token", TOKEN, "--no-progress"]
    assert await asyncio.to_thread(main, args) == 1
    assert "--allow-scripted-dice" in capsys.readouterr().out


@pytest.mark.asyncio
async def test_sessions_and_show(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings, capsys: pytest.CaptureFixture[str]
) -> None:
    session = await open_session(bridge_client)
    await session.ask({"type": "attack", "id": "g1", "request": GURPS_MP5})
    await session.ask({"type": "attack", "id": "s1", "request": skirmish.fire(dice=[6, 6, 1, 1, 4, 4])})
    data = str(settings.data_dir)

    assert main(["sessions", "--data-dir", data]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[0].split() == ["SESSION", "STARTED", "REQUESTS", "SYSTEMS"]
    name = session.welcome["session"]
    row = next(line for line in listing if line.startswith(name))
    assert row.split()[2:] == ["2", "gurps,", "skirmish"]

    assert main(["show", name[:12], "--data-dir", data, "--lang", "en"]) == 0
    shown = capsys.readouterr().out
    assert f"Session {name}" in shown
    assert "g1  attack → result  (seed " in shown
    assert "  Kane fires MP5  [GURPS 4e — rapid fire]" in shown
    assert "    Kane fires 10 shots from MP5 at Ganger: skill 12 +2" in shown  # the log, in words
    assert "s1  attack → result  (dice 6, 6, 1, 1, 4, 4)" in shown
    assert "    skirmish.pool(shots=4, bullets=2)" in shown  # no text for it: its key and values
    assert "  - Drone: 2 hits  +wounded" in shown
    assert "  weapon Smartgun: 6 loaded, ready" in shown

    assert main(["show", name[:12], "--data-dir", data, "--lang", "ru"]) == 0
    shown = capsys.readouterr().out
    assert f"Сессия {name}" in shown
    assert "  Kane: огонь (MP5)  [GURPS 4e — быстрая стрельба]" in shown
    assert "  - Drone: 2 попадания  +wounded" in shown
    assert "  оружие Smartgun: заряжено 6, готово" in shown

    assert main(["show", "no-such-session", "--data-dir", data]) == 2
    assert "volley show: no session 'no-such-session' in" in capsys.readouterr().err
    assert main(["show", str(ROOT / "pyproject.toml")]) == 2
    assert "pyproject.toml is not a Volley session journal (no header line)" in capsys.readouterr().err


def test_show_piped_into_head_ends_quietly(tmp_path: Path) -> None:
    """``volley show S | head``: the reader leaving early is no traceback (the log is longer than a pipe)."""
    header, *lines = (ROOT / "tests" / "replays" / "gurps.jsonl").read_text().splitlines()
    long = tmp_path / "long.jsonl"
    copies = [line.replace('"id":"', f'"id":"{k}-', 1) for k in range(100) for line in lines]
    long.write_text("\n".join([header, *copies]) + "\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "bridge.cli", "show", str(long)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().startswith(b"Session ")
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=30) == 0, err
    assert "Traceback" not in err


def long_session(target: Path, copies: int) -> list[str]:
    """Every recorded session's entries, ``copies`` times under fresh ids, in one journal; their ids."""
    header = (ROOT / "tests" / "replays" / "gurps.jsonl").read_bytes().split(b"\n", 1)[0]
    out = [header]
    ids = []
    for k in range(copies):
        for recording in REPLAYS:
            for original in recording.read_bytes().splitlines()[1:]:
                record = json.loads(original)
                old, new = record["id"], f"{k}-{record['id']}"
                line = original.replace(f'"id":"{old}"'.encode(), f'"id":"{new}"'.encode())
                if record.get("pending_id"):
                    pending = record["pending_id"]
                    line = line.replace(
                        f'"pending_id":"{pending}"'.encode(), f'"pending_id":"{k}-{pending}"'.encode()
                    )
                out.append(line)
                ids.append(new)
    target.write_bytes(b"\n".join(out) + b"\n")
    return ids


def test_a_long_session_replays_on_every_core_and_names_the_one_difference(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    ids = long_session(path, copies=20)
    assert len(ids) >= 2 * 256  # long enough to be cut into chunks for the workers
    lines = path.read_bytes().split(b"\n")
    middle = len(lines) // 2
    record = json.loads(lines[middle])
    assert record["outcome"] == "result", record
    lines[middle] = lines[middle].replace(b'"kind":"resolved"', b'"kind":"resolved","extra":1', 1)
    hits = record["reply"]["result"]["targets"][0]["hits"]
    target_hits = f'"hits":{hits}'.encode()
    lines[middle] = lines[middle][::-1].replace(target_hits[::-1], f'"hits":{hits + 5}'.encode()[::-1], 1)[
        ::-1
    ]
    path.write_bytes(b"\n".join(lines))
    done = subprocess.run(
        [sys.executable, "-m", "bridge.cli", "replay", str(path), "--no-progress"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{len(ids) - 1}/{len(ids)} requests replayed identically (1 differ)" in done.stdout
    assert f"request {record['id']!r}" in done.stdout
    assert "Traceback" not in done.stderr


def test_replay_in_one_process_and_on_every_core_agree(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    long_session(path, copies=20)
    one = replay_session(path, workers=1)
    every = replay_session(path, workers=2)
    assert (one.total, one.matched, one.problems) == (every.total, every.matched, every.problems)
    assert one.ok and one.total >= 2 * 256


# --- journals from before protocol 2 (English text) ------------------------------------------------

FORMAT1 = ROOT / "tests" / "replays" / "format1"


@pytest.mark.parametrize("system", ["gurps", "d100"])
def test_a_format_1_journal_still_replays(system: str) -> None:
    """Recorded when the rules wrote English: the text fields are not compared, everything else is."""
    journal = FORMAT1 / f"{system}.jsonl"
    assert json.loads(journal.read_text().splitlines()[0])["format"] == 1
    report = replay_session(journal)
    assert report.ok and report.matched == report.total > 0, [str(m.differences) for m in report.mismatches]


def test_a_format_1_journal_shows_a_rules_change_and_nothing_else() -> None:
    """The MegaTraveller recording predates the splitting-DM reading: the burst allocated 4/0 between
    two designated targets took no DM then and -1 now. That, and only that, is reported."""
    report = replay_session(FORMAT1 / "megatraveller.jsonl")
    (mismatch,) = report.mismatches
    assert mismatch.id == "megatraveller/burst_two_targets/defer/allocate"
    paths = {difference.path for difference in mismatch.differences}
    assert "$.result.targets[0].dm" in paths
    assert not [path for path in paths if path.rsplit(".", 1)[-1].split("[")[0] in TEXT_FIELDS]


def _edit_first_result(source: Path, target: Path, edit: typing.Callable[[dict[str, Any]], None]) -> None:
    lines = source.read_text().splitlines()
    record = json.loads(lines[1])
    edit(record["reply"])
    lines[1] = json.dumps(record)
    target.write_text("\n".join(lines) + "\n")


def test_a_format_1_journal_ignores_its_text_but_not_its_numbers(tmp_path: Path) -> None:
    reworded = tmp_path / "reworded.jsonl"
    _edit_first_result(FORMAT1 / "gurps.jsonl", reworded, lambda reply: reply["card"]["log"].append("x"))
    assert replay_session(reworded).ok
    tampered = tmp_path / "tampered.jsonl"
    _edit_first_result(
        FORMAT1 / "gurps.jsonl", tampered, lambda reply: reply["result"]["rolls"][0].update(face=6)
    )
    (mismatch,) = replay_session(tampered).mismatches
    assert [d.path for d in mismatch.differences] == ["$.result.rolls[0].face"]


def test_a_format_2_journal_compares_its_messages(tmp_path: Path) -> None:
    """Since protocol 2 the log is data like any other: a changed value is a difference."""

    def edit(reply: dict[str, Any]) -> None:
        reply["result"]["log"][1]["values"]["roll"] += 1

    tampered = tmp_path / "tampered.jsonl"
    _edit_first_result(ROOT / "tests" / "replays" / "gurps.jsonl", tampered, edit)
    (mismatch,) = replay_session(tampered).mismatches
    assert [d.path for d in mismatch.differences] == ["$.result.log[1].values.roll"]


def test_a_long_session_on_every_core_names_an_unreadable_line_by_its_number(tmp_path: Path) -> None:
    """Workers number the lines of their own piece; the report still names the file's line number."""
    from bridge.cli import replay

    recording = ROOT / "tests" / "replays" / "gurps.jsonl"
    head, *entries = recording.read_bytes().splitlines(keepends=True)
    body = b"".join(entries)
    copies = replay.PARALLEL_FROM // len(body) + 2
    ids = [json.loads(line)["id"] for line in entries]
    lines = [head] + [
        line.replace(f'"id":"{id}"'.encode(), f'"id":"{k}-{id}"'.encode())
        for k in range(copies)
        for id, line in zip(ids, entries, strict=True)
    ]
    broken = len(lines) - len(entries) // 2  # a line of the last piece
    lines[broken] = b"{not json\n"
    path = tmp_path / "long.jsonl"
    path.write_bytes(b"".join(lines))
    assert path.stat().st_size > replay.PIECE_BYTES  # more than one piece
    report = replay_session(path, progress=False, workers=2)
    (problem,) = report.problems
    assert problem.startswith(f"long:{broken + 1}: unreadable line skipped"), problem
    assert report.total == len(lines) - 2 and not report.mismatches


def test_replaying_a_short_session_loads_no_server_machinery() -> None:
    """``volley replay`` starts in well under the time of a long replay's work only if it does not
    import what a server, a report or a replay over the wire needs (asyncio alone was ~20 ms)."""
    server_only = ("asyncio", "concurrent.futures", "logging", "multiprocessing", "webbrowser", "hmac")
    probe = (
        "import sys\n"
        "from bridge.cli import main\n"
        f"code = main(['replay', {str(REPLAYS[0])!r}, '--no-progress'])\n"
        f"print(code, sorted(name for name in {server_only!r} if name in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60, check=False
    )
    assert done.stdout.strip().splitlines()[-1] == "0 []", done.stdout + done.stderr
