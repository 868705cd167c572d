"""Undo: the referee takes a request back at the table, and the journal says so.

The bridge holds no table state (the VTT does: rounds, jams, statuses), so putting things back is the
module's work, from the values it kept on the chat card. The bridge's part is the record: an ``undo``
line in the session journal naming the request, written before ``undone`` is answered, so that
``volley show`` tells the session as the table lived it, while ``volley replay`` (which re-resolves
requests to check the rules) leaves it out.

Like every journalled message, an undo id is answered once: a retried undo id gets the very bytes it
got the first time. A request can be undone once (``already_undone`` names the undo that did it); an
id the journal does not know is ``unknown_target``, and the first step of a two-step attack, which
changed nothing yet, is ``not_undoable``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from bridge.protocol import ErrorCode, ProtocolError, Undo, Undone, encode
from bridge.store.journal import UndoLine, line_time

if TYPE_CHECKING:
    from bridge.referee import Referee

__all__ = ["answer_undo"]


def _reply_type(reply: bytes) -> str | None:
    try:
        decoded = msgspec.json.decode(reply)
    except msgspec.DecodeError:
        return None
    kind = decoded.get("type") if isinstance(decoded, dict) else None
    return kind if isinstance(kind, str) else None


async def answer_undo(referee: Referee, message: Undo) -> bytes:
    """Journal the undo of ``message.target_id`` and return the ``undone`` reply bytes.

    Called by the referee once per undo id (retries are answered from the ledger before this).
    """
    target = message.target_id
    ledger = referee.ledger
    path = "$.target_id"
    earlier = ledger.undone_by(target)
    if earlier is not None or target in referee.undoing:
        by = f"by {earlier!r}" if earlier else "by another undo, still in flight"
        refusal = f"request {target!r} was already undone ({by})"
        raise ProtocolError(ErrorCode.ALREADY_UNDONE, refusal, path, message.id)
    reply = ledger.reply(target)
    if reply is None:
        refusal = f"no resolved request with id {target!r} to undo"
        raise ProtocolError(ErrorCode.UNKNOWN_TARGET, refusal, path, message.id)
    kind = _reply_type(reply)
    if kind != "result":
        what = f"a {kind} reply"
        if kind == "pending":
            what = "the first step of a two-step attack changed nothing"
        refusal = f"request {target!r} cannot be undone: {what}"
        raise ProtocolError(ErrorCode.NOT_UNDOABLE, refusal, path, message.id)
    referee.undoing.add(target)
    try:
        answer = encode(Undone(id=message.id, target_id=target))
        line = UndoLine(
            id=message.id, target_id=target, at=line_time(), user=message.user, reply=msgspec.Raw(answer)
        )
        await referee.journal.append(line)  # a JournalError is the referee's to answer (journal_failed)
        return answer  # the journal told the ledger of the line before this resumed
    finally:
        referee.undoing.discard(target)
