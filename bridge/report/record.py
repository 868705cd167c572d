"""Reading journals for the report: take what can be used, count what cannot, never raise.

``bridge.store.journal.read_session`` reads a journal strictly, for replay. The report is more forgiving:
a journal copied by hand, cut short by a crash or edited by someone may still tell most of a
session's story, so each line stands on its own. A line that is not JSON, or whose fields are not
the shape a resolved request has, is skipped and counted with its reason; a line of a kind the
report does not use (an ``undo``, say) is counted by kind; everything else becomes a ``Resolution``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from bridge.protocol import reply_pending
from bridge.store.files import MAX_LINE, LineReader, open_for_reading

__all__ = ["Resolution", "SessionRecord", "Skipped", "read_record", "read_record_bytes"]

_decoder = msgspec.json.Decoder()


@dataclass(frozen=True)
class Resolution:
    """One resolved request: what was asked, how it was rolled and what came of it.

    ``result`` is the rules' result inside the reply (hits, weapon, rolls, updates); ``pool`` is
    what the first step of a two-step attack rolled (the reply's ``pending``), or None.
    """

    session: str
    id: str
    type: str
    outcome: str
    request: dict[str, Any]
    result: dict[str, Any]
    seed: int | None
    scripted: bool
    pending_id: str | None = None
    pool: Any = None


@dataclass(frozen=True)
class Skipped:
    """A journal line the report could not use: where it was and why."""

    session: str
    line: int
    reason: str


@dataclass
class SessionRecord:
    """One journal as the report reads it."""

    name: str
    started: str | None = None
    rules_version: str | None = None
    resolutions: list[Resolution] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    other_kinds: Counter[str] = field(default_factory=Counter)


def read_record(path: Path, *, live: bool = False) -> SessionRecord:
    """Read the journal at ``path``, a line at a time (memory flat in the file's size: only what the
    report keeps grows); a file that cannot be read at all gives one skipped line."""
    record = SessionRecord(name=path.stem)
    try:
        with open_for_reading(path) as handle:
            reader = LineReader(handle)
            for number, _, line in reader:
                _take(record, number, line)
            if reader.unterminated and not live:  # a closed file's torn last line is damage
                handle.seek(reader.position)
                tail = handle.read(MAX_LINE + 1) if reader.unterminated <= MAX_LINE else None
                _take(record, reader.lines + 1, tail)
    except OSError as error:
        record.skipped.append(Skipped(path.stem, 0, f"cannot read the file: {error.strerror or error}"))
    return record


def read_record_bytes(name: str, data: bytes, *, live: bool = False) -> SessionRecord:
    """Read a journal's bytes. ``live``: the session is still being written, so an unfinished last
    line is simply not there yet rather than damage."""
    if live and not data.endswith(b"\n"):
        data = data[: data.rfind(b"\n") + 1]
    record = SessionRecord(name=name)
    for number, line in enumerate(data.split(b"\n"), start=1):
        _take(record, number, line)
    return record


def _take(record: SessionRecord, number: int, line: bytes | None) -> None:
    """One line into ``record`` (None: a line too long for any journal, skipped unread)."""
    name = record.name
    if line is None:
        record.skipped.append(Skipped(name, number, "not JSON (torn or edited line)"))
        return
    if not line.strip():
        return
    try:
        obj = _decoder.decode(line)
    except msgspec.DecodeError:
        record.skipped.append(Skipped(name, number, "not JSON (torn or edited line)"))
        return
    if not isinstance(obj, dict):
        record.skipped.append(Skipped(name, number, "not a JSON object"))
        return
    kind = obj.get("kind")
    if kind == "header":
        _read_header(record, obj)
    elif kind == "resolved":
        resolution = _resolution(name, obj)
        if isinstance(resolution, str):
            record.skipped.append(Skipped(name, number, resolution))
        else:
            record.resolutions.append(resolution)
    else:
        record.other_kinds[str(kind)] += 1


def _read_header(record: SessionRecord, obj: dict[str, Any]) -> None:
    started = obj.get("started")
    version = obj.get("rules_version")
    record.started = started if isinstance(started, str) else None
    record.rules_version = version if isinstance(version, str) else None


def _resolution(session: str, obj: dict[str, Any]) -> Resolution | str:
    """A ``Resolution``, or why the line is not one (a short reason for the page)."""
    id_ = obj.get("id")
    type_ = obj.get("type")
    outcome = obj.get("outcome")
    request = obj.get("request")
    reply = obj.get("reply")
    if not isinstance(id_, str) or not isinstance(type_, str) or not isinstance(outcome, str):
        return "a resolved line without its id, type or outcome"
    if not isinstance(request, dict):
        return f"{id_}: no request"
    if not isinstance(reply, dict) or not isinstance(reply.get("result"), dict):
        return f"{id_}: no result in the reply"
    seed = obj.get("seed")
    dice = obj.get("dice")
    if not (isinstance(seed, int) and not isinstance(seed, bool)):
        seed = None
    pending_id = obj.get("pending_id")
    return Resolution(
        session=session,
        id=id_,
        type=type_,
        outcome=outcome,
        request=request,
        result=reply["result"],
        seed=seed,
        scripted=isinstance(dice, list),
        pending_id=pending_id if isinstance(pending_id, str) else None,
        pool=reply_pending(reply),  # the reply's copy (journal format 2) or the result's own
    )
