"""The wire protocol between the VTT module and the bridge: every message a tagged ``msgspec.Struct``.

Following msgspec's ``asyncio-kv`` example, each message is a Struct tagged on ``type``; the client's
messages form one union decoded by a single ``Decoder`` built once, and the server dispatches with
``match``. A field of the wrong shape, or one a message does not declare (a typo such as ``usr``), comes
back as an ``error`` message naming its JSON path.

Rules requests travel as plain JSON objects inside ``request``: the bridge does not know any system's
fields. The frame's decoder keeps them as their raw bytes (``msgspec.Raw``: skipped, not built), and
``rules.decode_request`` decodes those bytes once, straight into the system's typed request
(``bridge.resolution``).
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Annotated, Any

import msgspec

from rules.errors import split_validation, validation_message
from rules.results import Message

__all__ = [
    "MAX_ECHOED_CHARS",
    "MAX_FRAME_BYTES",
    "MAX_ID_CHARS",
    "MAX_REPLY_BYTES",
    "MAX_TARGETS",
    "MAX_USER_CHARS",
    "PROTOCOL_VERSION",
    "Action",
    "Allocate",
    "Attack",
    "ClientMessage",
    "Error",
    "ErrorCode",
    "Hello",
    "OddsReply",
    "OddsRequest",
    "Pending",
    "Ping",
    "Pong",
    "ProtocolError",
    "ResultReply",
    "ServerMessage",
    "SystemInfo",
    "Undo",
    "Undone",
    "Welcome",
    "current_shape",
    "decode_client",
    "encode",
    "loose_id",
    "protocol_schema",
    "reply_pending",
    "reply_updates",
]

#: Bumped when a message changes shape in a way an older module would misread. 2: what the rules say
#: (a result's ``log``, each roll's ``for``, a card's ``title`` and ``system_title``, a system's
#: ``title`` in ``welcome``) travels as message objects ``{"key", "values"}``, not English text.
#: 3: each thing once: a ``result``'s updates and log, and a ``pending``'s pool, are only in its
#: ``result`` (``ResultReply``); a retry may still return a reply journaled in the older shape.
PROTOCOL_VERSION = 3
#: Largest text frame the bridge reads; larger ones get a ``too_large`` error.
MAX_FRAME_BYTES = 64 * 1024
#: A request naming more targets than this is refused before the rules see it.
MAX_TARGETS = 32
#: Largest reply the bridge sends (a connection's whole outbox, docs/protocol.md "Limits"): a preview
#: that would be larger is refused with ``too_large`` instead.
MAX_REPLY_BYTES = 1 << 20

#: Longest request id; a longer one is refused and never echoed back (it could be megabytes).
MAX_ID_CHARS = 128
#: Most changes made outside Volley one ``applied`` mark may record (a card lists them all).
MAX_OUTSIDE = 64
#: Longest ``user`` (a Foundry user id is 16 characters; the slack is for other VTTs).
MAX_USER_CHARS = 64

#: Request ids are the idempotency key: short, non-empty strings chosen by the client.
RequestId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_ID_CHARS)]
#: A Foundry user id: the player the elected GM's browser relays a request for (protocol 2). The
#: bridge limits each one's rate separately, so one player dragging a slider cannot use up the table's.
UserId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_USER_CHARS)]


class ErrorCode:
    """The ``code`` values an ``error`` message can carry (see docs/protocol.md)."""

    BAD_JSON = "bad_json"
    UNKNOWN_TYPE = "unknown_type"
    INVALID = "invalid"
    RULE = "rule"
    DICE = "dice"
    SCRIPTED_DICE_REFUSED = "scripted_dice_refused"
    TOO_LARGE = "too_large"
    TOO_MANY_TARGETS = "too_many_targets"
    RATE_LIMITED = "rate_limited"
    UNKNOWN_PENDING = "unknown_pending"
    ALREADY_ALLOCATED = "already_allocated"
    PENDING_EXPIRED = "pending_expired"
    UNKNOWN_TARGET = "unknown_target"
    NOT_UNDOABLE = "not_undoable"
    ALREADY_UNDONE = "already_undone"
    #: the key's updates were applied at the table already (an ``applied`` mark is journalled)
    ALREADY_APPLIED = "already_applied"
    #: the attacker's weapon waits for the allocation of a two-step attack (allocate or cancel it)
    PENDING_OPEN = "pending_open"
    UNAUTHORIZED = "unauthorized"
    BUSY = "busy"
    JOURNAL_FAILED = "journal_failed"
    #: whether the id was answered cannot be read just now (``bridge.store.ledger``); retryable
    JOURNAL_UNREADABLE = "journal_unreadable"
    SHUTTING_DOWN = "shutting_down"
    INTERNAL = "internal"


class ProtocolError(Exception):
    """A message the bridge refuses; becomes an ``error`` reply, never a disconnect.

    ``msg`` is the refusal as a message (a rule's ``RuleError.msg``, or one of msgspec's validation
    errors), which a client renders in its user's language; ``message`` is the English.
    """

    def __init__(
        self,
        code: str,
        message: str,
        path: str | None = None,
        id: str | None = None,
        *,
        msg: Message | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path
        self.id = id
        self.msg = msg

    def reply(self) -> Error:
        """The ``error`` reply that says this refusal. What it echoes of the request (a field's name
        in the message, the path and the ``msg``) is cut at ``MAX_ECHOED_CHARS``: a 60 kB field name
        is named by its start, not sent back three times over."""
        return Error(
            id=self.id,
            code=self.code,
            message=_clipped(self.message),
            path=None if self.path is None else _clipped(self.path),
            msg=msgspec.UNSET if self.msg is None else _clipped_message(self.msg),
        )


#: The most of any one text an error echoes back (a field name, a path, a value); longer is cut, "...".
MAX_ECHOED_CHARS = 200


def _clipped(text: str) -> str:
    return text if len(text) <= MAX_ECHOED_CHARS else text[: MAX_ECHOED_CHARS - 3] + "..."


def _clipped_value(value: Any) -> Any:
    if isinstance(value, str):
        return _clipped(value)
    if isinstance(value, Message):
        return _clipped_message(value)
    if isinstance(value, list):
        return [_clipped_value(item) for item in value]
    return value


def _clipped_message(message: Message) -> Message:
    values = {name: _clipped_value(value) for name, value in message.values.items()}
    return message if values == message.values else Message(message.key, values)


# --- client -> bridge ---------------------------------------------------------------------------


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True):
    """First message on every socket: proves the client holds the access token."""

    token: str
    client: str | None = None


class Attack(msgspec.Struct, tag="attack", forbid_unknown_fields=True, gc=False):
    """Fire a weapon: a rules request whose action is a firing action (usually the default)."""

    id: RequestId
    #: the rules request's own JSON bytes (an object; ``bridge.resolution.plain`` reads it)
    request: msgspec.Raw
    user: UserId | None = None


class Action(msgspec.Struct, tag="action", forbid_unknown_fields=True):
    """Any other rules action (reload, unjam, ready, recover...); resolved exactly like ``attack``."""

    id: RequestId
    #: the rules request's own JSON bytes (an object; ``bridge.resolution.plain`` reads it)
    request: msgspec.Raw
    user: UserId | None = None


class OddsRequest(msgspec.Struct, tag="odds", forbid_unknown_fields=True):
    """Exact outcome probabilities for the attack dialog's preview; nothing is rolled or logged."""

    id: RequestId
    #: the rules request's own JSON bytes (an object; ``bridge.resolution.plain`` reads it)
    request: msgspec.Raw
    user: UserId | None = None


class Allocate(msgspec.Struct, tag="allocate", forbid_unknown_fields=True):
    """Second step of a two-step attack: how the pooled bullets of ``pending_id`` are shared out.

    ``dice`` (scripted faces for the whole resolution, pool first) is only accepted when the server
    allows scripted dice, as for any request.
    """

    id: RequestId
    pending_id: RequestId
    allocation: Any
    dice: list[int] | None = None
    user: UserId | None = None


class Undo(msgspec.Struct, tag="undo", forbid_unknown_fields=True):
    """The referee took back request ``target_id`` at the table (``bridge/scribe.py``).

    The VTT restores its own state; the bridge journals the undo (``volley show`` shows it, replay
    ignores it) and answers ``undone``. ``user`` names the referee who asked.
    """

    id: RequestId
    target_id: RequestId
    user: UserId | None = None


class Cancel(msgspec.Struct, tag="cancel", forbid_unknown_fields=True):
    """The table cancelled the two-step attack ``pending_id`` before allocating it (issue #31,
    ``bridge/scribe.py``): nothing is spent; the bridge journals it, and the attack can no longer be
    allocated. ``user`` names who asked."""

    id: RequestId
    pending_id: RequestId
    user: UserId | None = None


class Applied(msgspec.Struct, tag="applied", forbid_unknown_fields=True):
    """The VTT applies the updates of request ``target_id`` (issue #31, ``bridge/scribe.py``): the
    bridge journals the mark, once per key, and answers any later mark of the same key with
    ``already_applied``, so a repeated key changes nothing, whatever happened to the chat card.

    ``outside`` lists what changed outside Volley since the weapon's last card (docs/protocol.md,
    "The applied record"); it is journalled with the mark, for the session report.
    """

    id: RequestId
    target_id: RequestId
    user: UserId | None = None
    outside: Annotated[list[dict[str, Any]], msgspec.Meta(max_length=MAX_OUTSIDE)] = msgspec.field(
        default_factory=list
    )


class Ping(msgspec.Struct, tag="ping", forbid_unknown_fields=True):
    """Keep-alive and latency probe."""

    id: str | None = None


ClientMessage = Hello | Attack | Action | OddsRequest | Allocate | Undo | Cancel | Applied | Ping


# --- bridge -> client ---------------------------------------------------------------------------


class SystemInfo(msgspec.Struct):
    """A rule system the bridge knows; ``title`` is the message naming it as players know it."""

    name: str
    title: Message
    default_action: str


class Welcome(msgspec.Struct, tag="welcome"):
    """Answer to a good ``hello``."""

    server_version: str
    protocol_version: int
    rules_version: str
    systems: list[SystemInfo]
    session: str
    scripted_dice: bool


class ResultReply(msgspec.Struct, tag="result", gc=False):
    """A resolved request: the rules' result (its ``log`` and the token ``updates`` to apply included)
    and the chat card the bridge adds to it.

    Protocol 3 carries each thing once: the card holds only what is not in the result (its title,
    rows, weapon line and table rules) and is shown with the result's ``log``. Replies journaled by an
    older bridge (journal format 2 and before, re-sent verbatim on a retry) also carry ``updates``, a
    copy of the result's, and a card with its own copy of the log and ``pending``: readers take
    either shape (``reply_updates``, ``reply_pending``).
    """

    id: str
    result: Any
    card: Any
    #: only in the older shape: a copy of ``result.updates``
    updates: list[Any] | msgspec.UnsetType = msgspec.UNSET


class Pending(msgspec.Struct, tag="pending", kw_only=True, gc=False):
    """First step of a two-step attack: the pool is rolled, nothing spent; send ``allocate`` next.

    The pool is the result's ``pending``; the older shape also copied it to the reply's ``pending``
    (and the card's)."""

    id: str
    #: only in the older shape: a copy of ``result.pending``
    pending: Any = msgspec.UNSET
    card: Any
    result: Any = None


def reply_updates(reply: Mapping[str, Any]) -> Any:
    """The token updates of a ``result`` reply, in either shape (None if it has none)."""
    if "updates" in reply:
        return reply["updates"]
    result = reply.get("result")
    return result.get("updates") if isinstance(result, Mapping) else None


def reply_pending(reply: Mapping[str, Any]) -> Any:
    """The pool of a ``pending`` reply, in either shape (None if it has none)."""
    if "pending" in reply:
        return reply["pending"]
    result = reply.get("result")
    return result.get("pending") if isinstance(result, Mapping) else None


def current_shape(reply: Any) -> Any:
    """A decoded ``result`` or ``pending`` reply in protocol 3's shape: the copies the older shape
    carried (the reply's ``updates`` and ``pending``, the card's ``log`` and ``pending``, each card
    row's statuses) left out. Anything else is returned as it is."""
    if not isinstance(reply, dict) or reply.get("type") not in ("result", "pending"):
        return reply
    if not isinstance(reply.get("result"), dict):
        return reply
    shaped = {key: value for key, value in reply.items() if key not in ("updates", "pending")}
    card = shaped.get("card")
    if isinstance(card, dict):
        card = {key: value for key, value in card.items() if key not in ("log", "pending")}
        if isinstance(card.get("rows"), list):
            card["rows"] = [
                {key: value for key, value in row.items() if key not in _ROW_COPIES}
                if isinstance(row, dict)
                else row
                for row in card["rows"]
            ]
        shaped["card"] = card
    return shaped


#: What a card row of the older shape copied from the result's updates for its token.
_ROW_COPIES = ("statuses_add", "statuses_remove")


class OddsReply(msgspec.Struct, tag="odds"):
    id: str
    odds: Any


class Error(msgspec.Struct, tag="error"):
    """A refused message; the connection stays open.

    ``msg`` (protocol 2, optional) is the refusal as a message, for a client to show in its user's
    language; absent when the refusal has none (``message`` is then the only text).
    """

    id: str | None
    code: str
    message: str
    path: str | None = None
    msg: Message | msgspec.UnsetType = msgspec.UNSET


class Pong(msgspec.Struct, tag="pong"):
    id: str | None = None


class Undone(msgspec.Struct, tag="undone"):
    """Answer to ``undo``: the undo of ``target_id`` is in the journal."""

    id: str
    target_id: str


class Cancelled(msgspec.Struct, tag="cancelled"):
    """Answer to ``cancel``: the cancelling of two-step attack ``pending_id`` is in the journal."""

    id: str
    pending_id: str


class Marked(msgspec.Struct, tag="marked"):
    """Answer to ``applied``: the mark that ``target_id``'s updates were applied is in the journal."""

    id: str
    target_id: str


ServerMessage = Welcome | ResultReply | Pending | OddsReply | Error | Pong | Undone | Cancelled | Marked

_decoder = msgspec.json.Decoder(ClientMessage)
_encoder = msgspec.json.Encoder()


def encode(message: Any) -> bytes:
    """One JSON text frame."""
    return _encoder.encode(message)


class _IdOnly(msgspec.Struct):
    """What ``loose_id`` reads of a frame: the id alone; every other field is skipped unbuilt."""

    id: RequestId | None = None


_id_decoder = msgspec.json.Decoder(_IdOnly)


def loose_id(frame: bytes) -> str | None:
    """The ``id`` of a message that failed to decode, so its error can still be matched to it.

    Only an id the protocol accepts (a string of 1 to ``MAX_ID_CHARS`` characters) is returned: an
    error never echoes a megabyte id back, so a client cannot make the bridge hold its replies' weight.
    """
    try:
        return _id_decoder.decode(frame).id
    except (msgspec.DecodeError, RecursionError):  # ValidationError is a DecodeError
        return None


def decode_client(frame: bytes) -> ClientMessage:
    """Decode one client frame; a ``ProtocolError`` names what was wrong and where."""
    try:
        return _decoder.decode(frame)
    except msgspec.ValidationError as error:
        message, path = split_validation(error)
        id = loose_id(frame)
        if message.startswith("Object missing required field `type`"):
            raise ProtocolError(ErrorCode.UNKNOWN_TYPE, "a message needs a 'type'", path, id) from None
        if path == "$.type":
            expected = ", ".join(_CLIENT_TAGS)
            raise ProtocolError(
                ErrorCode.UNKNOWN_TYPE, f"unknown message type; expected one of {expected}", path, id
            ) from None
        raise ProtocolError(ErrorCode.INVALID, message, path, id, msg=validation_message(message)) from None
    except msgspec.DecodeError as error:
        raise ProtocolError(ErrorCode.BAD_JSON, f"not valid JSON: {error}", "$") from None
    except RecursionError:
        raise ProtocolError(ErrorCode.INVALID, "JSON nested too deeply", "$", loose_id(frame)) from None


#: The ``type`` of every client message, in the union's order (for the error naming them).
_CLIENT_TAGS: tuple[str, ...] = tuple(
    str(kind.__struct_config__.tag) for kind in typing.get_args(ClientMessage)
)


def protocol_schema() -> dict[str, Any]:
    """JSON Schema of every message in both directions (served at ``GET /schema``)."""
    (client, server), components = msgspec.json.schema_components(
        [ClientMessage, ServerMessage], ref_template="#/$defs/{name}"
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Volley bridge protocol",
        "protocol_version": PROTOCOL_VERSION,
        "client_message": client,
        "server_message": server,
        "$defs": components,
    }
