"""The journal's line format: what each kind of line holds, how one is decoded, and how every reader
says that one was skipped.

A session file is JSON lines. Line 1 is a ``Header`` (format version, rules and bridge versions,
start time, systems); every later line records one resolved request (``Entry``: the request as the
client sent it, the seed or scripted dice it was rolled with, and the exact reply bytes sent back) or
something that happened at the table around the requests (``TableLine``: an undo, a cancelled first
step, updates applied). The writer is ``bridge.store.journal``, the readers ``bridge.store.reader``
(and replay, the report and the ledger's index, which decode only what they need).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import msgspec

__all__ = [
    "FORMAT_VERSION",
    "LAST_COPYING_FORMAT",
    "LINE_DECODER",
    "AppliedLine",
    "CancelLine",
    "Entry",
    "Header",
    "JournalLine",
    "TableLine",
    "UndoLine",
    "decode_line",
    "encode_line",
    "line_time",
    "read_line",
    "too_long",
]

#: Version of the line format below; a reader refuses files from a newer format. 2: the replies inside
#: carry protocol-2 message objects (log lines, roll purposes, card titles) instead of English text;
#: replay compares a format-1 file's text fields leniently (``bridge.cli.differences``). 3: the replies are
#: protocol 3's, each thing once (``bridge.protocol.ResultReply``); replay re-resolves a format-2 file
#: into the older shape, so its bytes still compare.
FORMAT_VERSION = 3
#: The last format whose replies carried copies (the card's log and pending, the reply's updates).
LAST_COPYING_FORMAT = 2


class Header(msgspec.Struct, kw_only=True, tag="header", tag_field="kind"):
    """First line of a session file."""

    format: int
    session: str
    started: str
    rules_version: str
    bridge_version: str
    systems: dict[str, str] = msgspec.field(default_factory=dict)


class Entry(msgspec.Struct, kw_only=True, tag="resolved", tag_field="kind", gc=False):
    """One resolved request.

    ``type`` is the client message type (attack, action, allocate); ``outcome`` the reply type
    (``result``, or ``pending`` for the first step of a two-step attack). Exactly one of ``seed`` and
    ``dice`` is set. ``reply`` holds the bytes that were sent, verbatim. ``request`` is read back as a
    dict; the server may write it as the client's own JSON bytes (a ``msgspec.Raw`` of one line,
    ``bridge.resolution.journaled``), which read back as the same dict.
    """

    id: str
    type: str
    at: str
    outcome: str
    request: dict[str, Any]
    seed: int | None = None
    dice: list[int] | None = None
    pending_id: str | None = None
    reply: msgspec.Raw


class UndoLine(msgspec.Struct, kw_only=True, tag="undo", tag_field="kind"):
    """The referee undid request ``target_id`` (``bridge/scribe.py``). Replay skips these lines: the
    request itself is replayed as it was resolved; the undo is part of the story, not of the rules.
    ``reply`` holds the ``undone`` bytes sent back, for a retried undo id."""

    id: str
    target_id: str
    at: str
    user: str | None = None
    reply: msgspec.Raw


class CancelLine(msgspec.Struct, kw_only=True, tag="cancel", tag_field="kind"):
    """The first step ``pending_id`` of a two-step attack was cancelled at the table (issue #31,
    ``bridge/scribe.py``): it spent nothing, and its ``pending_id`` settles it for the ledger as an
    allocation would. Replay skips these lines. ``reply`` holds the ``cancelled`` bytes sent back."""

    id: str
    pending_id: str
    at: str
    user: str | None = None
    reply: msgspec.Raw


class AppliedLine(msgspec.Struct, kw_only=True, tag="applied", tag_field="kind"):
    """The updates of request ``target_id`` were applied at the table (issue #31, ``bridge/scribe.py``):
    the record no player can delete that a repeat of the key must change nothing. The line's ``id`` is
    the bridge's own, ``applied:<target_id>`` (one line per key); ``mark`` is the client's id for the
    mark; ``outside`` what changed outside Volley since the weapon's last card (docs/protocol.md).
    Replay skips these lines. ``reply`` holds the ``applied`` bytes sent back."""

    id: str
    target_id: str
    mark: str
    at: str
    user: str | None = None
    outside: list[Any] = msgspec.field(default_factory=list)
    reply: msgspec.Raw


#: Lines that tell what happened at the table around the requests: replay never re-resolves them.
TableLine = UndoLine | CancelLine | AppliedLine

JournalLine = Header | Entry | UndoLine | CancelLine | AppliedLine

#: Reads one whole journal line, whatever its kind.
LINE_DECODER = msgspec.json.Decoder(JournalLine)
T = TypeVar("T")
_encoder = msgspec.json.Encoder()


def encode_line(line: Header | Entry | TableLine) -> bytes:
    """One journal line's bytes, newline included."""
    return _encoder.encode(line) + b"\n"


class _Clock:
    """UTC timestamps to the millisecond for journal lines (``2026-11-29T19:48:10.408Z``); the part
    up to the second is formatted once per second, not once per request."""

    def __init__(self) -> None:
        self._second = -1
        self._prefix = ""

    def __call__(self) -> str:
        now = time.time()
        second = int(now)
        if second != self._second:
            self._second = second
            self._prefix = datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S")
        return f"{self._prefix}.{int((now - second) * 1000):03d}Z"


#: ``line_time()``: now, as a journal line's ``at`` says it (every kind of line, the same way).
line_time = _Clock()


def decode_line(line: bytes) -> Header | Entry | TableLine:
    return LINE_DECODER.decode(line)


def read_line(
    decoder: msgspec.json.Decoder[T], line: bytes, where: str, report: Callable[[str], None]
) -> T | None:
    """``line`` decoded, or None after telling ``report`` why it was skipped.

    Every reader of journals (``read_session``, replay, the ledger's index) skips an unreadable line
    the same way and says so in the same words, naming it by ``where`` (``file:line``). "Unreadable"
    includes a line nested too deeply for any recursive reader (``RecursionError``). ``decoder`` reads
    as much of the line as its caller needs: ``LINE_DECODER`` reads whole journal lines.
    """
    try:
        return decoder.decode(line)
    except msgspec.DecodeError as error:  # a ValidationError is a DecodeError too
        report(f"{where}: unreadable line skipped ({error})")
    except RecursionError:
        report(f"{where}: unreadable line skipped (nested too deeply)")
    return None


def too_long(where: str) -> str:
    """What every reader says of a line past ``MAX_LINE`` bytes (skipped without being held)."""
    return f"{where}: unreadable line skipped (longer than any journal line)"
