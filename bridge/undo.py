"""Undo, cancel and the applied record: what happens at the table around a request, journalled.

Undo: the referee takes a request back at the table, and the journal says so.

The bridge holds no table state (the VTT does: rounds, jams, statuses), so putting things back is the
module's work, from the values it kept on the chat card. The bridge's part is the record: an ``undo``
line in the session journal naming the request, written before ``undone`` is answered, so that
``volley show`` tells the session as the table lived it, while ``volley replay`` (which re-resolves
requests to check the rules) leaves it out.

Like every journalled message, an undo id is answered once: a retried undo id gets the very bytes it
got the first time. A request can be undone once (``already_undone`` names the undo that did it); an
id the journal does not know is ``unknown_target``, and the first step of a two-step attack, which
changed nothing yet, is ``not_undoable``.

Cancel (issue #31): the first step of a two-step attack holds its weapon (rounds and selector) until it
is allocated or cancelled; a ``cancel`` is journalled like an undo and settles the attack for good.

The applied record (issue #31): the VTT marks each key whose updates it has applied, once. The mark is
a journal line of its own whose id the bridge derives from the key (``applied:<key>``), so whether a key
was applied is a ledger lookup, kept where no player can delete it, across restarts. The key asked
again is answered with its journalled reply inside an ``applied`` envelope, and the VTT changes nothing;
a second mark of the key is ``already_applied``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from bridge.protocol import Applied, Cancel, Cancelled, ErrorCode, Marked, ProtocolError, Undo, Undone, encode
from bridge.store.ledger import Settled
from bridge.store.lines import AppliedLine, CancelLine, UndoLine, line_time

if TYPE_CHECKING:
    from bridge.referee import Referee

__all__ = [
    "APPLIED_PREFIX",
    "answer_applied",
    "answer_cancel",
    "answer_undo",
    "applied_envelope",
    "applied_id",
    "repeated_mark",
]


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


# --- cancel and the applied record (issue #31) ------------------------------------------------------

#: The prefix of the bridge's own id for the applied mark of a key: one line per key, found by its id.
APPLIED_PREFIX = "applied:"


def applied_id(target: str) -> str:
    """The journal id of the mark that ``target``'s updates were applied."""
    return APPLIED_PREFIX + target


async def answer_cancel(referee: Referee, message: Cancel) -> bytes:
    """Journal that two-step attack ``message.pending_id`` was cancelled; return the ``cancelled`` bytes.

    Called once per cancel id (a retried id is answered from the ledger before this). The line's
    ``pending_id`` settles the attack for the ledger as an ``allocate`` would, so it can no longer be
    allocated (``already_allocated``, saying it was cancelled), nor cancelled again.
    """
    pending_id = message.pending_id
    path = "$.pending_id"
    found = referee.ledger.pending(pending_id)
    if isinstance(found, Settled) or pending_id in referee.claimed:
        by = f"by {found.by!r}" if isinstance(found, Settled) else "by a request still in flight"
        refusal = f"attack {pending_id!r} was already settled ({by}); there is nothing left to cancel"
        raise ProtocolError(ErrorCode.ALREADY_ALLOCATED, refusal, path, message.id)
    if found is None:
        refusal = f"no pending attack with id {pending_id!r}"
        raise ProtocolError(ErrorCode.UNKNOWN_PENDING, refusal, path, message.id)
    referee.claimed.add(pending_id)
    try:
        answer = encode(Cancelled(id=message.id, pending_id=pending_id))
        line = CancelLine(
            id=message.id, pending_id=pending_id, at=line_time(), user=message.user, reply=msgspec.Raw(answer)
        )
        await referee.journal.append(line)
        referee.release(pending_id, found.request)
        return answer
    finally:
        referee.claimed.discard(pending_id)


async def answer_applied(referee: Referee, message: Applied) -> bytes:
    """Journal the mark that ``message.target_id``'s updates were applied; return the ``marked`` bytes.

    The referee calls this only when no mark of the key is journalled nor in flight. The key must be a
    journalled request with a ``result`` or ``pending`` reply (the first step of a two-step attack
    changes the weapon's hold at the table, so it is marked too).
    """
    target = message.target_id
    reply = referee.ledger.reply(target)
    if reply is None:
        refusal = f"no resolved request with id {target!r} to mark as applied"
        raise ProtocolError(ErrorCode.UNKNOWN_TARGET, refusal, "$.target_id", message.id)
    kind = _reply_type(reply)
    if kind not in ("result", "pending"):
        refusal = f"request {target!r} has a {kind} reply: nothing was applied"
        raise ProtocolError(ErrorCode.UNKNOWN_TARGET, refusal, "$.target_id", message.id)
    answer = encode(Marked(id=message.id, target_id=target))
    line = AppliedLine(
        id=applied_id(target),
        target_id=target,
        mark=message.id,
        at=line_time(),
        user=message.user,
        outside=list(message.outside),
        reply=msgspec.Raw(answer),
    )
    await referee.journal.append(line)
    return answer


def repeated_mark(message: Applied, journalled: bytes) -> bytes:
    """The answer to a mark of a key that already has one: its own bytes again when it is the same
    mark retried, else ``already_applied`` naming the mark that was journalled."""
    try:
        first: Any = msgspec.json.decode(journalled)
    except msgspec.DecodeError:
        first = None
    mark = first.get("id") if isinstance(first, dict) else None
    if mark == message.id:
        return journalled
    refusal = f"the updates of {message.target_id!r} were applied already (mark {mark!r}): nothing changes"
    raise ProtocolError(ErrorCode.ALREADY_APPLIED, refusal, "$.target_id", message.id)


def applied_envelope(key: str, mark: bytes, reply: bytes) -> bytes:
    """The answer to a key asked again whose updates the table marked applied: ``{"type": "applied",
    "id": key, "mark": <the mark's id>, "reply": <the journalled reply, verbatim>}``."""
    try:
        marked: Any = msgspec.json.decode(mark)
    except msgspec.DecodeError:
        marked = None
    mark_id = marked.get("id") if isinstance(marked, dict) else None
    return b"".join(
        (
            b'{"type":"applied","id":',
            msgspec.json.encode(key),
            b',"mark":',
            msgspec.json.encode(mark_id if isinstance(mark_id, str) else None),
            b',"reply":',
            reply,
            b"}",
        )
    )
