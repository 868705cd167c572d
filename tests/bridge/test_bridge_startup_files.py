"""Odd files in the data directory at start: nothing that ends in a newline is cut, nothing is fatal.

Reproductions of issue 10, items 2 and 3: a notes file or a newer journal was cut as if torn; a line
nested 100,000 deep made ``serve``, ``show`` and ``replay`` die with a RecursionError; a read-only old
journal with a torn tail made ``serve`` exit with "Permission denied".
"""

from __future__ import annotations

import builtins
import errno
import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from bridgekit import GURPS_MP5, HEADER, Start, open_session

from bridge.server.app import BridgeSettings
from bridge.store.lines import FORMAT_VERSION, Entry, Header

ROOT = Path(__file__).resolve().parents[2]
#: JSON nested this deep breaks any recursive reader (msgspec, json, the comparison in replay).
DEEP = 100_000


def resolved(id: str, reply: bytes | None = None) -> bytes:
    """One journal line answering ``id`` (a GURPS attack with a small made-up reply)."""
    entry = Entry(
        id=id,
        type="attack",
        at="2026-11-29T20:00:01.000Z",
        outcome="result",
        request=GURPS_MP5,
        seed=7,
        reply=msgspec.Raw(reply or json.dumps({"type": "result", "id": id}).encode()),
    )
    return msgspec.json.encode(entry) + b"\n"


def journal(*lines: bytes, header: Header = HEADER) -> bytes:
    return msgspec.json.encode(header) + b"\n" + b"".join(lines)


def deep_line(id: str) -> bytes:
    """A line whose request is nested DEEP objects deep (still valid JSON, ending in a newline)."""
    nested = b'{"x":' * DEEP + b"{}" + b"}" * DEEP
    return b'{"kind":"resolved","id":"' + id.encode() + b'","request":' + nested + b',"reply":{}}\n'


def sessions(settings: BridgeSettings) -> Path:
    path = settings.data_dir / "sessions"
    path.mkdir(parents=True, exist_ok=True)
    return path


def warnings_naming(caplog: pytest.LogCaptureFixture, name: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and name in r.getMessage()]


async def start_and_stop(start_bridge: Start) -> None:
    client = await start_bridge()
    await client.close()


@pytest.mark.asyncio
async def test_a_notes_file_is_left_byte_for_byte_and_reported_once(
    start_bridge: Start, settings: BridgeSettings, caplog: pytest.LogCaptureFixture
) -> None:
    notes = sessions(settings) / "my_notes.jsonl"
    text = b'{"todo": "buy dice"}\n{"todo": "ask the GM about cover"}\n'
    notes.write_bytes(text)
    with caplog.at_level(logging.WARNING, logger="volley.bridge"):
        await start_and_stop(start_bridge)
    assert notes.read_bytes() == text
    (warning,) = warnings_naming(caplog, "my_notes.jsonl")
    assert "not a Volley journal" in warning and "left as it is" in warning


@pytest.mark.asyncio
@pytest.mark.parametrize("ending", [b"\n", b""], ids=["ends in a newline", "no final newline"])
async def test_a_journal_of_a_newer_format_is_left_as_it_is_and_reported_once(
    start_bridge: Start, settings: BridgeSettings, caplog: pytest.LogCaptureFixture, ending: bytes
) -> None:
    newer = sessions(settings) / "20261129T190000.000000Z-aaaaaa.jsonl"
    future = msgspec.structs.replace(HEADER, format=FORMAT_VERSION + 1)
    data = journal(
        resolved("old-1"), b'{"kind": "teleport", "id": "t1", "reply": {}}' + ending, header=future
    )
    newer.write_bytes(data)
    with caplog.at_level(logging.WARNING, logger="volley.bridge"):
        await start_and_stop(start_bridge)
    assert newer.read_bytes() == data
    (warning,) = warnings_naming(caplog, newer.name)
    assert f"format {FORMAT_VERSION + 1}" in warning and "left as it is" in warning


@pytest.mark.asyncio
async def test_a_complete_last_line_of_an_unknown_kind_is_not_cut(
    start_bridge: Start, settings: BridgeSettings
) -> None:
    """Only a last line without its newline can be torn; another branch adds ``undo`` lines."""
    path = sessions(settings) / "20261129T190000.000000Z-bbbbbb.jsonl"
    data = journal(resolved("old-1"), b'{"kind": "undo", "id": "u1", "target_id": "old-1", "reply": {}}\n')
    path.write_bytes(data)
    await start_and_stop(start_bridge)
    assert path.read_bytes() == data


@pytest.mark.asyncio
async def test_a_line_nested_100000_deep_is_skipped_and_the_rest_remembered(
    start_bridge: Start, settings: BridgeSettings, caplog: pytest.LogCaptureFixture
) -> None:
    path = sessions(settings) / "20261129T190000.000000Z-cccccc.jsonl"
    reply = json.dumps({"type": "result", "id": "old-2", "note": "from an earlier session"}).encode()
    data = journal(resolved("old-1"), deep_line("deep-1"), resolved("old-2", reply), deep_line("deep-2"))
    path.write_bytes(data)
    with caplog.at_level(logging.WARNING, logger="volley.bridge"):
        client = await start_bridge()
    session = await open_session(client)
    await session.send({"type": "attack", "id": "old-2", "request": GURPS_MP5})
    assert (await session.raw_reply()).encode() == reply  # remembered past the deep line
    await client.close()
    assert path.read_bytes() == data  # the deep last line ends in a newline: not torn, not cut
    problems = warnings_naming(caplog, path.name)
    assert len(problems) == 2 and all("unreadable line skipped" in p for p in problems)


@pytest.mark.parametrize("command", ["show", "replay"])
def test_show_and_replay_report_a_deeply_nested_line_without_a_traceback(
    tmp_path: Path, command: str
) -> None:
    path = tmp_path / "20261129T190000.000000Z-dddddd.jsonl"
    path.write_bytes(journal(resolved("old-1"), deep_line("deep-1")))
    done = subprocess.run(
        [sys.executable, "-m", "bridge.cli", command, str(path), "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr, done.stderr
    assert done.returncode in (0, 1)
    assert ":3: unreadable line skipped" in done.stdout + done.stderr


def refuse_writes_to(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Make ``path`` read-only even for root (who may write to a 0444 file): opening it to write fails."""
    path.chmod(0o444)
    real_os_open, real_open = os.open, builtins.open

    def refused(file: Any) -> PermissionError:
        return PermissionError(errno.EACCES, "Permission denied", str(file))

    def guarded_os_open(file: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if isinstance(file, (str, Path)) and Path(file) == path and flags & (os.O_WRONLY | os.O_RDWR):
            raise refused(file)
        return real_os_open(file, flags, *args, **kwargs)

    def guarded_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, (str, Path)) and Path(file) == path and set(mode) & set("wax+"):
            raise refused(file)
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_os_open)
    monkeypatch.setattr(builtins, "open", guarded_open)


@pytest.mark.asyncio
async def test_a_read_only_journal_with_a_torn_tail_is_still_the_record(
    start_bridge: Start,
    settings: BridgeSettings,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 33, item 3: a killed journal whose tail cannot be cut (read-only, immutable) once had its
    ids forgotten, and a retry was rolled again. It is read as every reader reads it, up to its first
    zero byte, and its ids get their journaled replies."""
    directory = sessions(settings)
    stuck = directory / "20261129T180000.000000Z-eeeeee.jsonl"
    stuck_reply = json.dumps({"type": "result", "id": "stuck-1", "note": "journaled"}).encode()
    # What a SIGKILL leaves: a line torn over the zeros the journal laid ahead, then the zeros.
    stuck_data = journal(resolved("stuck-1", stuck_reply), b'{"kind":"resolved","id":"torn-') + bytes(4096)
    stuck.write_bytes(stuck_data)
    fine = directory / "20261129T190000.000000Z-ffffff.jsonl"
    fine_reply = json.dumps({"type": "result", "id": "fine-1", "note": "kept"}).encode()
    fine.write_bytes(journal(resolved("fine-1", fine_reply)))
    refuse_writes_to(monkeypatch, stuck)
    with caplog.at_level(logging.WARNING, logger="volley.bridge"):
        client = await start_bridge()
    session = await open_session(client)
    assert (await session.ask({"type": "attack", "id": "fine-1", "request": GURPS_MP5})) == json.loads(
        fine_reply
    )
    again = await session.ask({"type": "attack", "id": "stuck-1", "request": GURPS_MP5})
    assert again == json.loads(stuck_reply)  # it was resolved afresh: rolled a second time
    await client.close()
    assert stuck.read_bytes() == stuck_data
    (warning,) = warnings_naming(caplog, stuck.name)
    assert "Permission denied" in warning and "cannot be cut" in warning and "answered" in warning
