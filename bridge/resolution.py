"""From a client's JSON request to the reply bytes: the one path both the server and replay take.

The bridge knows no game mechanics. It checks the limits that protect the server (target count,
scripted dice), hands the request to ``rules``, and wraps the result in a reply with a chat card.
Replay calls the same functions, so a recorded reply and a re-resolved one are built identically.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import msgspec

import rules
from bridge.card import build_card
from bridge.protocol import (
    MAX_REPLY_BYTES,
    MAX_TARGETS,
    ErrorCode,
    OddsReply,
    Pending,
    ProtocolError,
    ResultReply,
    encode,
)
from bridge.store.lines import FORMAT_VERSION, LAST_COPYING_FORMAT
from rules import errors
from rules.dice import Dice
from rules.errors import split_validation, validation_message

__all__ = [
    "SeedSource",
    "check_limits",
    "decode",
    "decode_for_odds",
    "dice_for",
    "is_pending",
    "journaled",
    "odds_of",
    "odds_reply",
    "plain",
    "reply_for",
    "resolve",
    "under",
]


class SeedSource:
    """A fresh unpredictable seed per request, or ``base, base+1, ...`` when recording replays.

    Fresh seeds come from the operating system's CSPRNG (``os.urandom``), fetched a few kilobytes at
    a time rather than one system call per request.
    """

    #: Seeds fetched from the operating system at once.
    BATCH = 512

    def __init__(self, base: int | None = None) -> None:
        self._next = base
        self._fresh: list[int] = []

    def draw(self) -> int:
        if self._next is None:
            if not self._fresh:
                raw = os.urandom(8 * self.BATCH)
                self._fresh = [int.from_bytes(raw[k : k + 8], "little") >> 1 for k in range(0, len(raw), 8)]
            return self._fresh.pop()
        seed = self._next
        self._next += 1
        return seed


def under(prefix: str, path: str, keep: tuple[str, ...] = ()) -> str:
    """Re-root a JSON path from the rules request into the message (``$.x`` -> ``$.request.x``).

    Paths under a ``keep`` root already point into the message (an ``allocate``'s ``$.allocation``).
    """
    for root in keep:
        if path == root or path.startswith((root + ".", root + "[")):
            return path
    if path == "$":
        return prefix
    if path.startswith("$"):
        return prefix + path[1:]
    return path


def check_limits(request: Mapping[str, Any], *, allow_scripted_dice: bool, id: str | None) -> None:
    """Refuse what the server will not do, before the rules see the request."""
    targets = request.get("targets")
    if isinstance(targets, list) and len(targets) > MAX_TARGETS:
        raise ProtocolError(
            ErrorCode.TOO_MANY_TARGETS,
            f"{len(targets)} targets > {MAX_TARGETS}, the most one request may name",
            "$.request.targets",
            id,
        )
    if request.get("dice") is not None and not allow_scripted_dice:
        raise ProtocolError(
            ErrorCode.SCRIPTED_DICE_REFUSED,
            "scripted dice are refused: this server rolls its own (start it with --allow-scripted-dice "
            "for tests and replays)",
            "$.request.dice",
            id,
        )


#: A request as it came: the JSON bytes of a client's frame, or a dict (a journaled request).
Sent = Mapping[str, Any] | msgspec.Raw | bytes

_plain = msgspec.json.Decoder(dict[str, Any])


def plain(request: Sent, *, id: str | None) -> dict[str, Any]:
    """A request's JSON object as a plain dict: what the bridge's generic readers look at (the limits,
    the card's names, a held weapon, the table rules), never the rules. A request that is not an
    object is refused as the frame's decoder refused it when it built the dict itself."""
    if type(request) is dict:
        return request
    if type(request) is not msgspec.Raw and isinstance(request, Mapping):  # the ABC check: not for
        return dict(request)  # a client's bytes (every attack), which it would have to refuse
    try:
        return _plain.decode(request)
    except msgspec.ValidationError as error:
        message, path = split_validation(error)
        refusal = validation_message(message)
        raise ProtocolError(ErrorCode.INVALID, message, under("$.request", path), id, msg=refusal) from None


def journaled(request: Sent, view: dict[str, Any]) -> Any:
    """What a journal line holds of a request: its own bytes, verbatim, when they are a client's
    one-line JSON (no re-encoding), else the dict (a line may hold no line break)."""
    if isinstance(request, msgspec.Raw):
        data = bytes(request)
        if b"\n" not in data and b"\r" not in data:
            return request
    return view


def decode(
    request: Sent,
    *,
    id: str | None,
    keep: tuple[str, ...] = (),
    lenient: bool = False,
    view: Mapping[str, Any] | None = None,
) -> Any:
    """``rules.decode_request`` with its error paths pointing into the client's message (``lenient``
    only for a journaled request: a field no longer declared is dropped, as it was ignored then).
    A client's bytes are decoded once, straight into the typed request."""
    try:
        return rules.decode_request(request, lenient=lenient, view=view)
    except rules.RuleError as error:
        raise _refused(error, id, keep) from None


def _refused(error: rules.RuleError, id: str | None, keep: tuple[str, ...] = ()) -> ProtocolError:
    """A rule the request breaks, as the error the client gets: its code, and its path re-rooted into
    the message (``under``)."""
    code = {"json": ErrorCode.BAD_JSON, "invalid": ErrorCode.INVALID, "dice": ErrorCode.DICE}.get(
        error.code, ErrorCode.RULE
    )
    return ProtocolError(code, error.message, under("$.request", error.path, keep), id, msg=error.msg)


def dice_for(decoded: Any, seed: int | None) -> Dice:
    """Scripted dice when the request carries them, otherwise seeded dice."""
    return rules.dice_for(decoded, seed if seed is not None else 0)


def resolve(decoded: Any, dice: Dice, *, id: str | None, keep: tuple[str, ...] = ()) -> Any:
    """``rules.resolve``; a rule the request breaks becomes a ``ProtocolError`` with a message path."""
    try:
        return rules.resolve(decoded, dice)
    except rules.RuleError as error:
        raise _refused(error, id, keep) from None


def odds_of(id: str, decoded: Any) -> bytes:
    """The ``odds`` reply to a decoded request; a rule it breaks becomes a ``ProtocolError``."""
    try:
        odds = rules.odds(decoded)
    except rules.RuleError as error:
        raise _refused(error, id) from None
    reply = encode(OddsReply(id=id, odds=odds))
    if len(reply) > MAX_REPLY_BYTES:  # every system's bounds keep previews far below this
        refusal = errors.PREVIEW_TOO_LARGE(size=len(reply), most=MAX_REPLY_BYTES)
        raise ProtocolError(ErrorCode.TOO_LARGE, errors.english(refusal), "$.request", id, msg=refusal)
    return reply


def decode_for_odds(id: str, request: Sent) -> Any:
    """A request for ``odds``, checked and decoded. Odds roll nothing, so scripted dice are harmless
    here (and ignored); only the size limit applies.

    A client's bytes are decoded once, into the typed request, and its targets counted there; a
    request that fails either is checked and decoded the long way (the limits first, on its dict),
    so it is refused as before, in the same words. (A preview is the loop's work per keystroke, and a
    big one names dozens of targets: no dict of it is built on the way.)"""
    if isinstance(request, (msgspec.Raw, bytes)):
        try:
            typed = rules.decode_request(request)
        except rules.RuleError:
            typed = None
        targets = getattr(typed, "targets", None)
        if typed is not None and (not isinstance(targets, list) or len(targets) <= MAX_TARGETS):
            return typed
    check_limits(plain(request, id=id), allow_scripted_dice=True, id=id)
    return decode(request, id=id)


def odds_reply(id: str, request: Sent) -> bytes:
    """The ``odds`` reply to a request as the client sent it (what a rules worker computes)."""
    return odds_of(id, decode_for_odds(id, request))


def is_pending(result: Any) -> bool:
    """A two-step attack's first step: the pool is rolled and allocation deferred (generic check)."""
    return getattr(result, "pending", None) is not None


def reply_for(
    id: str, request: Mapping[str, Any], result: Any, *, format: int = FORMAT_VERSION
) -> tuple[str, bytes]:
    """(outcome, bytes) of the reply to a resolved request: ``result``, or ``pending`` if deferred.

    ``format``: the journal format the reply is for. This one's replies carry each thing once; a
    format-2 journal's carried copies (``LAST_COPYING_FORMAT``), and replay rebuilds them so."""
    system = rules.SYSTEMS.get(str(getattr(result, "system", "")))
    copies = format <= LAST_COPYING_FORMAT
    card = build_card(
        request, result, default_action=system.default_action if system else "", standalone=copies
    )
    if is_pending(result):
        if copies:
            return "pending", encode(Pending(id=id, pending=result.pending, card=card, result=result))
        return "pending", encode(Pending(id=id, card=card, result=result))
    if copies:
        updates = list(getattr(result, "updates", None) or [])
        return "result", encode(ResultReply(id=id, result=result, card=card, updates=updates))
    return "result", encode(ResultReply(id=id, result=result, card=card))
