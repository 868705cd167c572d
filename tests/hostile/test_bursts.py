"""Bursts and floods: a client reading its replies is never cut off; one player cannot starve a table."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import math
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from hostilekit import bridge, message, raw_websocket, settings_for

from bridge.server.ratelimit import RATE
from devkit.serve import GURPS_MP5

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("frames", [257, 1000])
async def test_a_burst_in_one_write_read_at_once_is_rate_limited_never_cut_off(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, frames: int
) -> None:
    caplog.set_level(logging.INFO, logger="volley.bridge")
    async with bridge(settings_for(tmp_path)) as served:
        raw = await raw_websocket(served.port)
        started = time.monotonic()
        await raw.send(*(message("ping", id=f"p{k}") for k in range(frames)))
        replies = [await raw.reply() for _ in range(frames)]
        refilled = refill(started)
        kinds = Counter(reply["type"] if reply["type"] == "pong" else reply["code"] for reply in replies)
        assert set(kinds) == {"pong", "rate_limited"}
        assert 40 <= kinds["pong"] <= 40 + refilled  # the burst, and what refilled while they were read
        assert [reply["id"] for reply in replies] == [f"p{k}" for k in range(frames)]
        # Still connected and served once the rate allows.
        await asyncio.sleep(0.2)
        await raw.send(message("ping", id="after"))
        assert await raw.reply() == {"type": "pong", "id": "after"}
        raw.close()
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len([line for line in warnings if "rate limit" in line]) == 1, warnings
    assert not any("too slow" in line or "not reading" in line for line in warnings), warnings


#: Seconds a reply may take before the test calls it a hang (not a speed limit: the machine may be busy).
HANG = 60.0


def refill(started: float) -> int:
    """Tokens a bucket (``RATE`` a second) can have regained since ``started``: on a busy machine the
    frames are read more slowly and more refill; the bound follows, it is not a speed limit."""
    return math.ceil((time.monotonic() - started) * RATE) + 1


class Table:
    """One socket, as the elected GM's browser holds it: replies matched to requests by id."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.ids = itertools.count()
        self.reading = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for frame in self.ws:
            reply = json.loads(frame.data)
            self.waiting.pop(reply["id"]).set_result(reply)

    async def ask(self, kind: str, **fields: Any) -> dict[str, Any]:
        id = f"{kind}-{next(self.ids)}"
        future = self.waiting[id] = asyncio.get_running_loop().create_future()
        await self.ws.send_str(json.dumps({"type": kind, "id": id, **fields}))
        return await asyncio.wait_for(future, HANG)


async def test_six_players_previewing_and_the_referee_firing_are_never_refused(tmp_path: Path) -> None:
    """Each player's dialog sends a paced preview with never more than one in flight (issue 8).

    Counted by requests and replies, never by a time window: every request sent is answered, and none
    is refused. The first previews of all six players go out together, as when a table opens the
    dialog at once: that alone is past one connection's old limit (a burst of 40), however slow the
    machine.
    """
    settings = settings_for(tmp_path)
    previews, shots = 30, 8
    async with bridge(settings) as served, aiohttp.ClientSession() as session:
        ws = await session.ws_connect(f"http://127.0.0.1:{served.port}/ws")
        await ws.send_str(json.dumps({"type": "hello", "token": settings.token}))
        assert json.loads((await ws.receive()).data)["type"] == "welcome"
        table = Table(ws)
        answers: list[dict[str, Any]] = []

        async def player(user: str) -> None:
            opening = [table.ask("odds", request=GURPS_MP5, user=user) for _ in range(20)]
            answers.extend(await asyncio.gather(*opening))
            for _ in range(previews - len(opening)):
                answers.append(await table.ask("odds", request=GURPS_MP5, user=user))
                await asyncio.sleep(0.08)  # the dialog's pacing (60 ms and more): not a wait for anything

        async def referee() -> None:
            for _ in range(shots):
                answers.append(await table.ask("attack", request=GURPS_MP5, user="gm"))
                await asyncio.sleep(0.25)

        await asyncio.gather(*(player(f"player{k}") for k in range(6)), referee())
        kinds = Counter(answer["type"] for answer in answers)
        assert set(kinds) == {"odds", "result"}, [a for a in answers if a["type"] == "error"][:3]
        assert kinds == {"odds": 6 * previews, "result": shots}  # every request answered, none refused
        table.reading.cancel()
        await ws.close()


async def test_one_flooding_player_is_limited_without_starving_the_others(tmp_path: Path) -> None:
    async with bridge(settings_for(tmp_path)) as served:
        raw = await raw_websocket(served.port)
        flood = [message("odds", id=f"f{k}", request=GURPS_MP5, user="flooder") for k in range(300)]
        others = [message("odds", id=f"o{k}", request=GURPS_MP5, user=f"player{k}") for k in range(5)]
        others.append(message("ping", id="gm"))
        started = time.monotonic()
        await raw.send(*flood, *others)
        replies = {reply["id"]: reply for reply in [await raw.reply() for _ in range(306)]}
        served_flood = sum(replies[f"f{k}"]["type"] == "odds" for k in range(300))
        assert 40 <= served_flood <= 40 + refill(started)
        refused = {replies[f"f{k}"].get("code") for k in range(300)} - {None}
        assert refused == {"rate_limited"}
        assert "user 'flooder'" in replies["f299"]["message"]
        assert all(replies[f"o{k}"]["type"] == "odds" for k in range(5))
        assert replies["gm"]["type"] == "pong"
        raw.close()


async def test_a_client_inventing_a_user_per_message_still_meets_the_connection_cap(tmp_path: Path) -> None:
    async with bridge(
        settings_for(tmp_path, rate=20, burst=2, connection_rate=0.001, connection_burst=30)
    ) as served:
        raw = await raw_websocket(served.port)
        fake = [message("odds", id=f"u{k}", request=GURPS_MP5, user=f"u{k}") for k in range(100)]
        await raw.send(*fake)
        replies = [await raw.reply() for _ in range(100)]
        assert sum(reply["type"] == "odds" for reply in replies) == 30
        refusals = [reply for reply in replies if reply["type"] == "error"]
        assert {refusal["code"] for refusal in refusals} == {"rate_limited"}
        assert all("this connection" in refusal["message"] for refusal in refusals)
        raw.close()


async def test_a_user_longer_than_64_characters_is_refused_by_name(tmp_path: Path) -> None:
    async with bridge(settings_for(tmp_path)) as served:
        raw = await raw_websocket(served.port)
        await raw.send(message("odds", id="long", request=GURPS_MP5, user="u" * 65))
        error = await raw.reply()
        assert (error["code"], error["path"], error["id"]) == ("invalid", "$.user", "long")
        raw.close()
