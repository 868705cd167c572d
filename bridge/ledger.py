"""What the bridge remembers between requests: every reply by request id, and open two-step attacks.

Request ids are the VTT's idempotency keys and are global across the whole data directory, not per
session file: a retry after a restart lands in a new session, and must still get the old reply, byte
for byte, without rolling again. On start the ledger is rebuilt by reading every journal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bridge.journal import Entry, UndoLine, read_session, repair, session_files

__all__ = ["Ledger", "PendingAttack"]


@dataclass(frozen=True)
class PendingAttack:
    """The first step of a two-step attack, kept until its ``allocate`` arrives.

    The second step re-resolves ``request`` (plus the allocation) with the same ``seed`` or ``dice``,
    so the pool comes out exactly as it was shown to the player.
    """

    id: str
    request: dict[str, Any]
    seed: int | None
    dice: list[int] | None


@dataclass
class Ledger:
    replies: dict[str, bytes] = field(default_factory=dict)
    pending: dict[str, PendingAttack] = field(default_factory=dict)
    #: pending id -> the id of the ``allocate`` that settled it
    allocated: dict[str, str] = field(default_factory=dict)
    #: request id -> the id of the ``undo`` that took it back
    undone: dict[str, str] = field(default_factory=dict)

    def record(self, entry: Entry) -> None:
        """Remember one journaled entry (called after its line is on disk)."""
        self.replies[entry.id] = bytes(entry.reply)
        if entry.pending_id is not None:
            self.pending.pop(entry.pending_id, None)
            self.allocated[entry.pending_id] = entry.id
        if entry.outcome == "pending" and entry.id not in self.allocated:  # order-proof rebuild
            self.pending[entry.id] = PendingAttack(entry.id, entry.request, entry.seed, entry.dice)

    def record_undo(self, line: UndoLine) -> None:
        """Remember one journaled undo: its reply for a retried undo id, and that its target is undone."""
        self.replies[line.id] = bytes(line.reply)
        self.undone[line.target_id] = line.id

    @classmethod
    def rebuild(cls, directory: Path, warn: Callable[[str], None]) -> Ledger:
        """Read every session in ``directory``, repairing torn tails first (each repair is warned)."""
        ledger = cls()
        for path in session_files(directory):
            warning = repair(path)
            if warning:
                warn(warning)
            log = read_session(path)
            for problem in log.problems:
                warn(problem)
            for entry in log.entries:
                ledger.record(entry)
            for undo in log.undos:
                ledger.record_undo(undo)
        return ledger
