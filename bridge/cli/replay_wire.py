"""``volley replay --against``: each journaled request sent to a running bridge under a fresh id,
with its recorded faces as scripted dice (the server must allow them), and the answer compared with
the record. A field no request type declares is not sent, as the table's bridge ignored it then."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path
from typing import Any

import msgspec

import rules
from bridge.cli.differences import LAST_TEXT_FORMAT
from bridge.cli.progress import ProgressBar, count_lines, want_progress
from bridge.cli.replay_report import ReplayReport, compare
from bridge.store.lines import Entry
from bridge.store.reader import SessionLog, SessionReader

__all__ = ["replay_against"]


def _speaks_english(log: SessionLog | SessionReader) -> bool:
    """Whether the journal was written when replies carried English text (format 1)."""
    return log.header is not None and log.header.format <= LAST_TEXT_FORMAT


def _recorded_faces(entry: Entry) -> list[int]:
    reply = msgspec.json.decode(entry.reply)
    result = reply.get("result") if isinstance(reply, dict) else None
    rolls = result.get("rolls", []) if isinstance(result, dict) else []
    return [int(roll["face"]) for roll in rolls]


def _wire_message(entry: Entry, prefix: str) -> dict[str, Any]:
    """The request as it would be sent again, under a fresh id, with its recorded faces scripted."""
    faces = _recorded_faces(entry)
    if entry.type == "allocate":
        return {
            "type": "allocate",
            "id": prefix + entry.id,
            "pending_id": prefix + (entry.pending_id or ""),
            "allocation": entry.request.get("allocation"),
            "dice": faces,
        }
    request, _ = rules.drop_unknown_fields(entry.request)  # what the table's bridge ignored then
    return {"type": entry.type, "id": prefix + entry.id, "request": {**request, "dice": faces}}


def _text(message: dict[str, Any]) -> str:
    """The protocol is JSON *text* frames (``websockets`` would send bytes as a binary frame)."""
    return msgspec.json.encode(message).decode()


async def replay_against(
    path: Path, url: str, token: str, *, progress: bool | None = False, keep: int = 10
) -> ReplayReport:
    """Replay every entry of ``path`` through a running bridge at ``url`` (it needs scripted dice on)."""
    from websockets.asyncio.client import connect

    log = SessionReader(path)  # streamed: memory stays flat in the journal's size
    report = ReplayReport(session=log.name, keep=keep)
    prefix = f"replay-{uuid.uuid4().hex[:12]}-"
    maybe = progress if progress is not None else sys.stderr.isatty()
    total = max(count_lines(path) - 1, 0) if maybe and log.header is not None else 0
    bar = ProgressBar(total, enabled=maybe and want_progress(progress, total))
    try:
        async with connect(url, max_size=2**22) as socket:
            await socket.send(_text({"type": "hello", "token": token, "client": "volley replay"}))
            welcome = msgspec.json.decode(await socket.recv())
            if welcome.get("type") != "welcome":
                report.problem(f"the server refused us: {welcome.get('message')}")
                return report
            if not welcome.get("scripted_dice"):
                report.problem("the server does not allow scripted dice; start it with --allow-scripted-dice")
                return report
            english = _speaks_english(log)
            for entry in log:
                if not isinstance(entry, Entry):
                    continue
                await socket.send(_text(_wire_message(entry, prefix)))
                reply = msgspec.json.decode(await socket.recv())
                if isinstance(reply, dict) and reply.get("type") == "error":
                    compare(report, entry, None, f"server error {reply.get('code')}: {reply.get('message')}")
                else:
                    if isinstance(reply, dict):
                        reply["id"] = entry.id
                    # The server answers in its protocol's shape, the journal holds its own version's:
                    # both are compared without the copies the older shape carried.
                    compare(report, entry, reply, None, english=english, shaped=True)
                bar.advance()
    finally:
        log.close()
        report.problems[:0] = log.problems
    return report
