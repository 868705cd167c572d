"""A typo in a request reaches the client as an ``invalid`` error naming its path; old journals whose
requests carry a field no type declares any more still replay identically (issue 18)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import skirmish
from aiohttp.test_utils import TestClient
from bridgekit import GURPS_MP5, TOKEN, Start, entries, journal_bytes, open_session

from bridge.cli import main
from bridge.i18n import Catalogue
from bridge.server.app import BridgeSettings

ROOT = Path(__file__).resolve().parents[2]
D100_BURST = json.loads((ROOT / "docs" / "examples" / "d100" / "wide_burst_cover.json").read_text())


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["attack", "odds"])
async def test_a_typo_in_a_nested_target_is_refused_with_its_path(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings, kind: str
) -> None:
    request = json.loads(json.dumps(D100_BURST))
    request["targets"][0]["distnce"] = 30
    session = await open_session(bridge_client)
    error = await session.ask({"type": kind, "id": "typo", "request": request})
    assert error["type"] == "error", error
    assert (error["id"], error["code"], error["path"]) == ("typo", "invalid", "$.request.targets[0].distnce")
    assert error["msg"] == {"key": "common.error.unknown_field", "values": {"field": "distnce"}}
    assert Catalogue.load("ru").render(error["msg"]) == "неизвестное поле `distnce`"
    assert entries(settings.data_dir) == []  # nothing rolled, nothing journaled
    # The corrected request goes through under the same id.
    reply = await session.ask({"type": kind, "id": "typo", "request": D100_BURST})
    assert reply["type"] in ("result", "odds"), reply


@pytest.mark.asyncio
async def test_a_typo_in_a_top_level_gurps_field_is_refused(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    error = await session.ask({"type": "attack", "id": "g", "request": {**GURPS_MP5, "sjots": 5}})
    assert (error["code"], error["path"]) == ("invalid", "$.request.sjots"), error


@pytest.mark.asyncio
async def test_a_typo_in_a_frame_is_refused_and_the_connection_stays(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    error = await session.ask({"type": "attack", "id": "f", "request": GURPS_MP5, "usr": "someone"})
    assert (error["id"], error["code"], error["path"]) == ("f", "invalid", "$.usr"), error
    assert error["msg"] == {"key": "common.error.unknown_field", "values": {"field": "usr"}}
    assert entries(settings.data_dir) == []
    assert (await session.ask({"type": "attack", "id": "f", "request": GURPS_MP5}))["type"] == "result"


def _with_legacy_fields(source: Path, target: Path) -> int:
    """Copy a journal, giving every recorded request (and its first target) a field no type declares,
    as a journal written before unknown fields were refused may hold; returns how many were changed."""
    lines = source.read_text().splitlines()
    changed = 0
    for number, line in enumerate(lines):
        record = json.loads(line)
        if record.get("kind") != "resolved":
            continue
        record["request"]["legacy_hint"] = "ignored then"
        targets = record["request"].get("targets")
        if isinstance(targets, list) and targets and isinstance(targets[0], dict):
            targets[0]["distnce"] = 30
        lines[number] = json.dumps(record)
        changed += 1
    target.write_text("\n".join(lines) + "\n")
    return changed


@pytest.mark.parametrize("system", ["gurps", "megatraveller", "d100"])
def test_an_old_journal_with_undeclared_fields_replays_identically(
    tmp_path: Path, system: str, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / f"{system}.jsonl"
    changed = _with_legacy_fields(ROOT / "tests" / "replays" / f"{system}.jsonl", old)
    assert changed >= 5
    code = main(["replay", str(old), "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert f"{changed}/{changed} requests replayed identically" in out


@pytest.mark.asyncio
async def test_an_old_journal_with_undeclared_fields_replays_against_a_strict_server(
    start_bridge: Start, settings: BridgeSettings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
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
    recording.write_bytes(journal_bytes(journal))
    await recorder.close()
    old = tmp_path / "old.jsonl"
    assert _with_legacy_fields(recording, old) == 3

    live = await start_bridge(allow_scripted_dice=True, data_dir=tmp_path / "other")
    url = str(live.make_url("/ws")).replace("http://", "ws://")
    code = await asyncio.to_thread(
        main, ["replay", str(old), "--against", url, "--token", TOKEN, "--no-progress"]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "3/3 requests replayed identically" in out


@pytest.mark.asyncio
@pytest.mark.parametrize("where", ["request", "frame"])
async def test_a_60_kb_field_name_is_named_by_its_start_not_echoed_three_times(
    bridge_client: TestClient[Any, Any], where: str
) -> None:
    """Issue 33: a 60 kB unknown field name came back in the message, the path and the ``msg``: a
    180 kB error frame for a 60 kB request. Each echo is cut at 200 characters."""
    name = "q" * 60_000
    message: dict[str, Any] = {"type": "attack", "id": "wide", "request": GURPS_MP5}
    if where == "request":
        message["request"] = {**GURPS_MP5, name: 1}
    else:
        message[name] = 1
    session = await open_session(bridge_client)
    await session.send(message)
    frame = await session.raw_reply()
    assert len(frame) < 1500, len(frame)
    error = json.loads(frame)
    assert (error["id"], error["code"]) == ("wide", "invalid")
    prefix = "$.request." if where == "request" else "$."
    assert error["path"].startswith(prefix + "qqq") and error["path"].endswith("...")
    assert error["msg"]["key"] == "common.error.unknown_field"
    assert error["msg"]["values"]["field"] == "q" * 197 + "..."
