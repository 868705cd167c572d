"""``undo``: the referee takes a request back at the table; the bridge journals it and answers ``undone``.

The journal line is its own kind (``undo``, with the undo's ``id`` and its ``reply``); a retried undo id
gets the same bytes, a request is undone once, and replay leaves undos out while ``volley show`` tells
them where they happened.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
import skirmish
from aiohttp.test_utils import TestClient
from bridgekit import GURPS_MP5, Start, journal_lines, open_session

from bridge.cli.replay import replay_session
from bridge.cli.sessions import print_session
from bridge.i18n import Catalogue
from bridge.server.app import BridgeSettings
from bridge.store.files import session_files
from bridge.store.reader import read_session

pytestmark = pytest.mark.asyncio


def _undo(id: str, target: str, **extra: Any) -> dict[str, Any]:
    return {"type": "undo", "id": id, "target_id": target, **extra}


async def test_undo_is_journalled_and_answered_undone(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    fired = await session.ask({"type": "attack", "id": "a1", "request": GURPS_MP5})
    assert fired["type"] == "result"
    reply = await session.ask(_undo("u1", "a1", user="gm0000000000000a"))
    assert reply == {"type": "undone", "id": "u1", "target_id": "a1"}
    resolved, undo = journal_lines(settings.data_dir)[1:]
    assert resolved["kind"] == "resolved" and resolved["id"] == "a1"
    assert undo["kind"] == "undo"
    assert (undo["id"], undo["target_id"], undo["user"]) == ("u1", "a1", "gm0000000000000a")
    assert undo["reply"] == reply


async def test_a_retried_undo_gets_the_same_bytes_and_a_second_undo_is_refused(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    await session.ask({"type": "attack", "id": "a1", "request": GURPS_MP5})
    await session.send(_undo("u1", "a1"))
    first = await session.raw_reply()
    await session.send(_undo("u1", "a1"))
    assert await session.raw_reply() == first
    again = await session.ask(_undo("u2", "a1"))
    assert again["type"] == "error" and again["code"] == "already_undone"
    assert again["path"] == "$.target_id" and "'u1'" in again["message"]
    assert [line["kind"] for line in journal_lines(settings.data_dir)].count("undo") == 1


async def test_undo_refuses_what_cannot_be_undone(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    unknown = await session.ask(_undo("u1", "nobody"))
    assert (unknown["code"], unknown["path"]) == ("unknown_target", "$.target_id")
    pending = await session.ask(
        {"type": "attack", "id": "p1", "request": skirmish.fire(allocation="defer", shots=6)}
    )
    assert pending["type"] == "pending"
    refused = await session.ask(_undo("u2", "p1"))
    assert refused["code"] == "not_undoable" and "changed nothing" in refused["message"]
    bad = await session.ask({"type": "undo", "id": "u3"})
    assert (bad["code"], bad["path"]) == ("invalid", "$.target_id")
    long_user = await session.ask(_undo("u4", "p1", user="u" * 65))
    assert long_user["code"] == "invalid" and long_user["path"] == "$.user"


async def test_an_undo_survives_a_restart(start_bridge: Start, settings: BridgeSettings) -> None:
    first = await start_bridge()
    session = await open_session(first)
    await session.ask({"type": "attack", "id": "a1", "request": GURPS_MP5})
    answer = await session.ask(_undo("u1", "a1"))
    await first.close()
    second = await start_bridge()
    session = await open_session(second)
    assert await session.ask(_undo("u1", "a1")) == answer, "the retried id, answered from the journal"
    refused = await session.ask(_undo("u9", "a1"))
    assert refused["code"] == "already_undone"


async def test_replay_leaves_undos_out_and_show_tells_them(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    await session.ask({"type": "attack", "id": "a1", "request": GURPS_MP5})
    await session.ask(_undo("u1", "a1", user="gm01"))
    await session.ask({"type": "attack", "id": "a2", "request": GURPS_MP5})
    await bridge_client.close()
    (path,) = session_files(settings.data_dir / "sessions")
    report = replay_session(path, progress=False)
    assert report.ok and (report.total, report.matched) == (2, 2)
    log = read_session(path)
    assert [undo.target_id for undo in log.undos] == ["a1"] and log.problems == []
    out = io.StringIO()
    print_session(log, out, Catalogue.load("en"))
    text = out.getvalue()
    assert "u1  undo by gm01: a1 taken back at the table" in text
    assert text.index("a1  attack") < text.index("undo by gm01") < text.index("a2  attack")
    russian = io.StringIO()
    print_session(log, russian, Catalogue.load("ru"))
    assert "u1  отмена (gm01): a1 отменён за столом" in russian.getvalue()


async def test_the_schema_names_undo_and_undone(bridge_client: TestClient[Any, Any]) -> None:
    schema: dict[str, Any] = await (await bridge_client.get("/schema")).json()
    names = set(schema["protocol"]["$defs"])
    assert {"Undo", "Undone"} <= names
