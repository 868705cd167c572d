"""Reading journals back for people: ``volley sessions`` lists them, ``volley show`` prints one.

``show`` prints what the table saw: for each request its time, id and kind, then the chat card's
title, the rules engine's log lines, one line per target and the weapon's state afterwards.

``sessions`` reads only what its table shows (the header, and each line's kind and system): the
rest of every line is skipped unread, so listing years of sessions stays quick.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import msgspec

from bridge.journal import SessionLog, session_files

__all__ = ["SessionSummary", "find_session", "list_sessions", "print_session", "print_sessions"]


@dataclass(frozen=True)
class SessionSummary:
    name: str
    started: str
    requests: int
    systems: tuple[str, ...]
    path: Path


def summarise(log: SessionLog) -> SessionSummary:
    systems = sorted({str(entry.request.get("system", "?")) for entry in log.entries})
    started = log.header.started if log.header else "?"
    return SessionSummary(log.name, started, len(log.entries), tuple(systems), log.path)


class _System(msgspec.Struct):
    system: Any = "?"


class _Listed(msgspec.Struct):
    """What the listing needs of a journal line; everything else is skipped without being built."""

    kind: Any = None
    started: Any = None
    request: _System | None = None


_listed = msgspec.json.Decoder(_Listed)


def summarise_file(path: Path) -> SessionSummary:
    """A session's row in the listing, counted from its lines (resolved requests only)."""
    started = "?"
    requests = 0
    systems: set[str] = set()
    try:
        with open(path, "rb") as handle:
            for number, line in enumerate(handle, start=1):
                try:
                    listed = _listed.decode(line)
                except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
                    continue  # unreadable lines are for ``show`` to report
                if number == 1 and listed.kind == "header" and isinstance(listed.started, str):
                    started = listed.started
                elif listed.kind == "resolved":
                    requests += 1
                    system = listed.request.system if listed.request is not None else "?"
                    systems.add(str(system))
    except OSError:
        pass
    return SessionSummary(path.stem, started, requests, tuple(sorted(systems)), path)


def list_sessions(directory: Path) -> list[SessionSummary]:
    return [summarise_file(path) for path in session_files(directory)]


def print_sessions(summaries: list[SessionSummary], out: TextIO) -> None:
    if not summaries:
        print("no sessions yet", file=out)
        return
    width = max(len(summary.name) for summary in summaries)
    print(f"{'SESSION':<{width}}  {'STARTED':<20}  {'REQUESTS':>8}  SYSTEMS", file=out)
    for summary in summaries:
        systems = ", ".join(summary.systems) or "-"
        print(f"{summary.name:<{width}}  {summary.started:<20}  {summary.requests:>8}  {systems}", file=out)


def find_session(name: str, directory: Path) -> Path:
    """A path, a session name, or an unambiguous prefix of one."""
    given = Path(name)
    if given.is_file():
        return given
    candidates = [
        path for path in session_files(directory) if path.stem.startswith(name.removesuffix(".jsonl"))
    ]
    exact = [path for path in candidates if path.stem == name.removesuffix(".jsonl")]
    if exact:
        return exact[0]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise LookupError(f"no session {name!r} in {directory}")
    raise LookupError(f"{name!r} matches {len(candidates)} sessions; give more of the name")


def print_session(log: SessionLog, out: TextIO) -> None:
    header = log.header
    if header is not None:
        print(
            f"Session {header.session}  started {header.started}  "
            f"(rules {header.rules_version}, bridge {header.bridge_version}, format {header.format})",
            file=out,
        )
    else:
        print(f"Session {log.name} (no header)", file=out)
    for problem in log.problems:
        print(f"  ! {problem}", file=out)
    for entry in log.entries:
        reply: Any = msgspec.json.decode(entry.reply)
        card = reply.get("card") or {}
        dice = f"seed {entry.seed}" if entry.seed is not None else f"dice {entry.dice}"
        extra = f" for {entry.pending_id}" if entry.pending_id else ""
        print(f"\n{entry.at}  {entry.id}  {entry.type}{extra} -> {entry.outcome}  ({dice})", file=out)
        print(
            f"  {card.get('title', '?')}  [{card.get('system_title', entry.request.get('system', '?'))}]",
            file=out,
        )
        for line in card.get("log") or []:
            print(f"    {line}", file=out)
        waiting = card.get("pending") is not None
        for row in [] if waiting else card.get("rows") or []:  # no hits yet while the pool waits
            statuses = ""
            if row.get("statuses_add"):
                statuses = "  +" + " +".join(row["statuses_add"])
            print(f"  - {row.get('name') or row.get('target')}: {row.get('hits')} hit(s){statuses}", file=out)
        weapon = card.get("weapon")
        if weapon:
            state = "JAMMED" if weapon.get("jammed") else "ready"
            print(f"  weapon {weapon.get('name') or ''}: {weapon.get('loaded')} loaded, {state}", file=out)
        if waiting:
            print(f"  waiting for allocation: {msgspec.json.encode(card['pending']).decode()}", file=out)
