"""Reply frames the scribe (``bridge.scribe``) builds from what it already has: the ``error`` frame for
a request that failed, and the applied record's answers (issue #31), all from journalled bytes without
resolving anything again.
"""

from __future__ import annotations

import logging
from typing import Any

import msgspec

from bridge.protocol import Applied, Error, ErrorCode, ProtocolError, encode
from bridge.store.journal import JournalError
from bridge.store.ledger import LedgerUnavailable

__all__ = ["APPLIED_PREFIX", "applied_envelope", "applied_id", "refusal", "repeated_mark", "reply_kind"]

log = logging.getLogger("volley.bridge")

#: The prefix of the bridge's own id for the applied mark of a key: one line per key, found by its id.
APPLIED_PREFIX = "applied:"


def applied_id(target: str) -> str:
    """The journal id of the mark that ``target``'s updates were applied."""
    return APPLIED_PREFIX + target


def reply_kind(reply: bytes | None) -> str | None:
    """The ``type`` of a journalled reply, or None."""
    if reply is None:
        return None
    try:
        decoded = msgspec.json.decode(reply)
    except msgspec.DecodeError:
        return None
    kind = decoded.get("type") if isinstance(decoded, dict) else None
    return kind if isinstance(kind, str) else None


def refusal(error: BaseException, id: str | None) -> bytes:
    """The ``error`` frame for a request that failed: its ProtocolError, ``journal_failed`` when its
    line could not be written (nothing was acknowledged), ``journal_unreadable`` when whether it was
    answered before cannot be read just now (retryable), or ``internal`` for a bug."""
    if isinstance(error, ProtocolError):
        return encode(error.reply())
    if isinstance(error, JournalError):
        log.error("%s", error)
        return encode(Error(id=id, code=ErrorCode.JOURNAL_FAILED, message=str(error), path=None))
    if isinstance(error, LedgerUnavailable):
        return encode(Error(id=id, code=ErrorCode.JOURNAL_UNREADABLE, message=str(error), path=None))
    # A bug in a rules system must not take the connection down.
    log.error("request %s failed", id, exc_info=error)
    return encode(Error(id=id, code=ErrorCode.INTERNAL, message="internal error; see the server log"))


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
