"""The bridge's referee: answers each request once, writes it down, and repeats itself on retries.

For every ``attack``, ``action`` and ``allocate`` the referee

1. returns the journaled reply, byte for byte, if the id was already resolved (in any session: the
   ledger finds its line in the journals);
2. waits for the first copy if the same id is being resolved right now (a retry racing the original);
3. otherwise checks the server's limits, decodes, draws a seed, resolves, journals (fsync) and only
   then hands back the reply bytes.

Nothing here knows a game system; mechanics live in ``rules``. Errors are ``ProtocolError``s that the
connection turns into ``error`` messages.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

import msgspec

import rules
from bridge.expiry import PENDING_EXPIRY, describe_seconds
from bridge.protocol import (
    Action,
    Allocate,
    Applied,
    Attack,
    Cancel,
    Error,
    ErrorCode,
    OddsRequest,
    ProtocolError,
    Undo,
    encode,
)
from bridge.resolution import (
    SeedSource,
    check_limits,
    decode,
    decode_for_odds,
    dice_for,
    is_pending,
    journaled,
    odds_of,
    plain,
    reply_for,
    resolve,
)
from bridge.store.journal import Journal, JournalError
from bridge.store.ledger import Ledger, LedgerUnavailable, PendingAttack, Settled
from bridge.store.lines import Entry, line_time
from bridge.undo import (
    answer_applied,
    answer_cancel,
    answer_undo,
    applied_envelope,
    applied_id,
    repeated_mark,
)
from bridge.workers import OFFLOAD_MS, Outcome, RulesWorkers
from rules import errors

__all__ = ["Deliver", "Referee"]

log = logging.getLogger("volley.bridge")

#: Called once with the reply frame of a request.
Deliver = Callable[[bytes], None]

#: Every message the referee answers (the connection keeps hello and ping for itself).
Served = Attack | Action | Allocate | OddsRequest | Undo | Cancel | Applied

#: What a pending two-step attack holds: its system, its attacker's id and its weapon's name.
HoldKey = tuple[str, str, str]


def hold_key(request: Any) -> HoldKey | None:
    """The weapon a request names, as the request's shared fields say it (``system``, ``attacker.id``,
    ``weapon.name``: every system's firing and handling requests carry them), or None."""
    if not isinstance(request, dict):
        return None
    attacker, weapon, system = request.get("attacker"), request.get("weapon"), request.get("system")
    if not isinstance(attacker, dict) or not isinstance(weapon, dict) or not isinstance(system, str):
        return None
    who, name = attacker.get("id"), weapon.get("name")
    return (system, who, name) if isinstance(who, str) and isinstance(name, str) else None


def _odds_cost(request: Any) -> float:
    """The rules' estimate; a request the estimate cannot read is cheap (``odds`` will refuse it)."""
    try:
        return rules.odds_cost(request)
    except rules.RuleError:
        return 0.0


class Referee:
    """Resolves requests for every connection of one server run, and owns its journal and ledger."""

    def __init__(
        self,
        journal: Journal,
        ledger: Ledger,
        *,
        allow_scripted_dice: bool,
        seeds: SeedSource,
        pending_expiry: float = PENDING_EXPIRY,
        workers: RulesWorkers | None = None,
    ) -> None:
        self.journal = journal
        self.ledger = ledger
        self.allow_scripted_dice = allow_scripted_dice
        self.seeds = seeds
        self.pending_expiry = pending_expiry
        self.workers = workers
        self.offloaded = 0
        self.resolved = 0
        self.retries = 0
        #: who waits for each id being resolved right now (the first copy, then racing retries)
        self._in_flight: dict[str, list[Deliver]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop = asyncio.get_running_loop()
        #: pending attacks an ``allocate`` or a ``cancel`` is settling right now
        self.claimed: set[str] = set()
        #: request ids an ``undo`` is being journalled for right now (bridge/undo.py)
        self.undoing: set[str] = set()
        #: keys whose ``applied`` mark is being journalled: the mark's id and who waits for it
        self._marking: dict[str, tuple[str, list[Deliver]]] = {}
        #: weapons held by a pending two-step attack of this run (issue #31): the attack and when
        self.holds: dict[HoldKey, tuple[str, float]] = {}

    def submit(self, message: Served, deliver: Deliver) -> None:
        """Answer one request: ``deliver(reply frame)`` is called exactly once, now or later.

        What can be answered at once is (a retry, a refusal, cheap odds); an attack is resolved now and
        delivered from the journal's own callback once its line is fsynced, with no task or future in
        between. An allocate, an undo and odds sent to a worker run as a task. Never raises for a bad
        request: it becomes an ``error`` frame.
        """
        if isinstance(message, OddsRequest):
            self._odds(message, deliver)
        elif isinstance(message, Applied):
            self._mark(message, deliver)
        else:
            self._once(message, deliver)

    async def answer(self, message: Served) -> bytes:
        """The reply frame for one request (``submit``, awaited)."""
        replied: asyncio.Future[bytes] = self._loop.create_future()
        self.submit(message, replied.set_result)
        return await replied

    def _odds(self, message: OddsRequest, deliver: Deliver) -> None:
        """Odds on the loop when the rules estimate them cheap, else in a rules worker."""
        try:
            request = decode_for_odds(message.id, message.request)
            if self.workers is None or _odds_cost(request) <= OFFLOAD_MS:
                reply = odds_of(message.id, request)
            else:
                # Handed to a worker now, answered from the future's callback: no task or coroutine
                # per preview, and the hand-over counts in this frame's work (``Turns``).
                pending = self.workers.odds_soon(message.id, bytes(message.request))
                if pending is None:  # no pool: on the loop
                    reply = odds_of(message.id, request)
                else:
                    pending.add_done_callback(lambda done: self._offloaded(message.id, done, deliver))
                    return
        except Exception as error:  # every failure becomes an error frame
            reply = _refusal(error, message.id)
        deliver(reply)

    def _offloaded(self, id: str, done: asyncio.Future[Outcome], deliver: Deliver) -> None:
        """A worker's answer to a preview (``_odds``), or the workers stopped before it came."""
        assert self.workers is not None
        try:
            outcome = self.workers.outcome(done)
        except asyncio.CancelledError:  # the server is stopping: whoever waits is told so
            deliver(encode(Error(id=id, code=ErrorCode.SHUTTING_DOWN, message="the server stopped")))
            return
        except Exception as error:
            deliver(_refusal(error, id))
            return
        self.offloaded += 1
        if outcome[0] == "odds":
            reply: bytes = outcome[1]
        else:
            reply = _refusal(ProtocolError(outcome[1], outcome[2], outcome[3], id, msg=outcome[4]), id)
        deliver(reply)

    def _spawn(self, work: Coroutine[Any, Any, bytes], id: str, deliver: Deliver) -> None:
        """Run ``work`` as a task and deliver what it returns (or the error it raises)."""

        async def run() -> None:
            try:
                reply = await work
            except asyncio.CancelledError:  # the loop is going away: whoever waits is told so
                deliver(encode(Error(id=id, code=ErrorCode.SHUTTING_DOWN, message="the server stopped")))
                raise
            except Exception as error:
                reply = _refusal(error, id)
            deliver(reply)

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _once(self, message: Attack | Action | Allocate | Undo | Cancel, deliver: Deliver) -> None:
        """Idempotency: one resolution per id, whoever asks and however often."""
        id = message.id
        try:
            done = self.ledger.reply(id)
        except LedgerUnavailable as error:  # never resolved again: the client retries
            deliver(_refusal(error, id))
            return
        if done is not None:
            self.retries += 1
            deliver(self._repeated(id, done))
            return
        waiting = self._in_flight.get(id)
        if waiting is not None:  # a retry racing the first copy gets the same bytes, when they come
            self.retries += 1
            waiting.append(deliver)
            return
        self._in_flight[id] = [deliver]
        if isinstance(message, Allocate):
            self._spawn(self._allocate(message), id, self._settler(id))
            return
        if isinstance(message, Undo):
            self._spawn(answer_undo(self, message), id, self._settler(id))
            return
        if isinstance(message, Cancel):
            self._spawn(answer_cancel(self, message), id, self._settler(id))
            return
        try:
            self._resolve(message)
        except Exception as error:  # a refusal is not remembered: the id may come again
            self._settle(id, _refusal(error, id))

    def _repeated(self, id: str, done: bytes) -> bytes:
        """A key asked again: its journalled reply, inside an ``applied`` envelope when the table marked
        its updates applied (issue #31), so the VTT changes nothing, whatever became of its card."""
        try:
            mark = self.ledger.reply(applied_id(id))
        except LedgerUnavailable:  # the reply is known; the envelope only spares the VTT a check
            mark = None
        if mark is None:
            return done
        return applied_envelope(id, mark, done)

    def _mark(self, message: Applied, deliver: Deliver) -> None:
        """One applied mark per key (issue #31): the first is journalled; the same mark retried gets its
        bytes again (also while it is being written); any other mark of the key is ``already_applied``."""
        key = applied_id(message.target_id)
        try:
            done = self.ledger.reply(key)
            if done is not None:
                deliver(repeated_mark(message, done))
                return
            writing = self._marking.get(key)
            if writing is not None:
                mark, waiting = writing
                if mark != message.id:
                    refusal = f"the updates of {message.target_id!r} are being marked applied by {mark!r}"
                    raise ProtocolError(ErrorCode.ALREADY_APPLIED, refusal, "$.target_id", message.id)
                waiting.append(deliver)
                return
        except Exception as error:  # a refusal, or the ledger unreadable just now (retryable)
            deliver(_refusal(error, message.id))
            return
        self._marking[key] = (message.id, [deliver])

        def marked(reply: bytes) -> None:
            for waiting in self._marking.pop(key, (None, []))[1]:
                waiting(reply)

        self._spawn(answer_applied(self, message), message.id, marked)

    def release(self, pending_id: str, request: Any) -> None:
        """The weapon ``request`` names is no longer held by pending attack ``pending_id``."""
        held = hold_key(request)
        if held is not None and self.holds.get(held, ("", 0.0))[0] == pending_id:
            del self.holds[held]

    def _check_hold(self, message: Attack | Action, request: dict[str, Any]) -> HoldKey | None:
        """Refuse a request naming a weapon that a pending two-step attack of this run holds (issue #31):
        its rounds and selector are reserved until the attack is allocated, cancelled or expired.
        ``request``: the message's request as a plain dict (``bridge.resolution.plain``)."""
        held = hold_key(request)
        found = self.holds.get(held) if held is not None else None
        if held is None or found is None:
            return held
        pending_id, at = found
        age = time.time() - at
        if age > self.pending_expiry:  # it can no longer be allocated: the weapon is free again
            del self.holds[held]
            return held
        attacker = request.get("attacker", {})
        who = str(attacker.get("name") or held[1])
        refusal = errors.PENDING_OPEN(who=who, weapon=held[2], pending=pending_id, age=describe_seconds(age))
        raise ProtocolError(
            ErrorCode.PENDING_OPEN,
            f"{who}'s {held[2]} waits for the allocation of two-step attack {pending_id!r} (rolled "
            f"{describe_seconds(age)} ago): allocate or cancel it before anything else fires or "
            "handles that weapon",
            "$.request.weapon",
            message.id,
            msg=refusal,
        )

    def _settler(self, id: str) -> Deliver:
        return lambda reply: self._settle(id, reply)

    def _settle(self, id: str, reply: bytes) -> None:
        """Hand the reply to whoever asked for ``id`` (the first copy and any racing retry)."""
        for deliver in self._in_flight.pop(id, ()):
            deliver(reply)

    def _resolve(self, message: Attack | Action) -> None:
        view = plain(message.request, id=message.id)  # for the hold, the limits and the card
        held = self._check_hold(message, view)
        check_limits(view, allow_scripted_dice=self.allow_scripted_dice, id=message.id)
        request = decode(message.request, id=message.id)  # the client's bytes, once, into its type
        scripted = getattr(request, "dice", None)
        seed = None if scripted is not None else self.seeds.draw()
        result = resolve(request, dice_for(request, seed), id=message.id)
        entry, reply = self._entry(
            message,
            view,
            result=result,
            seed=seed,
            dice=scripted,
            pending_id=None,
            sent=journaled(message.request, view),
        )
        id = message.id

        def written(error: JournalError | None) -> None:
            if error is None:
                self.resolved += 1
                if held is not None and entry.outcome == "pending":
                    self.holds[held] = (id, time.time())
                self._settle(id, reply)
            else:
                self._settle(id, _refusal(error, id))

        self.journal.append_then(entry, written, alone=self._alone())

    async def _allocate(self, message: Allocate) -> bytes:
        """Second step of a two-step attack: same request, same seed, now with the allocation."""
        pending_id = message.pending_id
        pending = self._open_attack(message)
        if pending_id in self.claimed:
            raise ProtocolError(
                ErrorCode.ALREADY_ALLOCATED,
                f"attack {pending_id!r} was already allocated (by another allocate, still in flight)",
                "$.pending_id",
                message.id,
            )
        self.claimed.add(pending_id)
        try:
            if message.allocation is None:
                raise ProtocolError(
                    ErrorCode.INVALID,
                    f"allocation is null; say how the pool of {pending_id!r} is shared out",
                    "$.allocation",
                    message.id,
                )
            request_json: dict[str, Any] = {**pending.request, "allocation": message.allocation}
            keep: tuple[str, ...] = ("$.allocation",)
            if message.dice is not None:
                if not self.allow_scripted_dice:
                    raise ProtocolError(
                        ErrorCode.SCRIPTED_DICE_REFUSED,
                        "scripted dice are refused: this server rolls its own",
                        "$.dice",
                        message.id,
                    )
                request_json["dice"] = message.dice
                keep = ("$.allocation", "$.dice")
            elif pending.seed is None:
                raise ProtocolError(
                    ErrorCode.DICE,
                    f"attack {pending_id!r} was rolled with scripted dice, so its allocate must script "
                    "them too (pool faces first, then the rest)",
                    "$.dice",
                    message.id,
                )
            request = decode(request_json, id=message.id, keep=keep)
            scripted = getattr(request, "dice", None)
            seed = None if scripted is not None else pending.seed
            result = resolve(request, dice_for(request, seed), id=message.id, keep=keep)
            if is_pending(result):  # e.g. "defer" again: an allocate must settle the attack
                raise ProtocolError(
                    ErrorCode.INVALID,
                    f"this allocation defers {pending_id!r} again; an allocate must share out the pool",
                    "$.allocation",
                    message.id,
                )
            entry, reply = self._entry(
                message, request_json, result=result, seed=seed, dice=scripted, pending_id=pending_id
            )
            # Journal first, then answer: an acknowledged result is always on disk (and the journal
            # tells the ledger where, before this resumes). A JournalError becomes journal_failed.
            await self.journal.append(entry, alone=self._alone())
            self.resolved += 1
            self.release(pending_id, pending.request)
            return reply
        finally:
            self.claimed.discard(pending_id)

    def _open_attack(self, message: Allocate) -> PendingAttack:
        """The pending attack an ``allocate`` names, if it is still open and not expired."""
        pending_id = message.pending_id
        found = self.ledger.pending(pending_id)
        if isinstance(found, Settled):
            how = "cancelled" if _reply_kind(self.ledger.reply(found.by)) == "cancelled" else "allocated"
            raise ProtocolError(
                ErrorCode.ALREADY_ALLOCATED,
                f"attack {pending_id!r} was already {how} (by {found.by!r})",
                "$.pending_id",
                message.id,
            )
        if found is None:
            raise ProtocolError(
                ErrorCode.UNKNOWN_PENDING,
                f"no pending attack with id {pending_id!r}",
                "$.pending_id",
                message.id,
            )
        age = None if found.at is None else time.time() - found.at
        if age is None or age > self.pending_expiry:
            rolled = "at an unknown time" if age is None else f"{describe_seconds(age)} ago"
            raise ProtocolError(
                ErrorCode.PENDING_EXPIRED,
                f"attack {pending_id!r} was rolled {rolled}; pending attacks expire after "
                f"{describe_seconds(self.pending_expiry)}, so roll it again",
                "$.pending_id",
                message.id,
            )
        return found

    def _alone(self) -> bool:
        """No other request is in flight nor due to start this turn of the loop, so this line will
        have no company to share an fsync with: the journal may write it at once.

        Requests read in the same turn are tasks not yet started, visible only in the loop's queue of
        ready callbacks (``_ready``, an attribute of asyncio's own loops); on a loop without one the
        answer is always no, and lines simply wait a turn as before.
        """
        ready = getattr(self._loop, "_ready", None)
        return len(self._in_flight) == 1 and ready is not None and not ready

    def _entry(
        self,
        message: Attack | Action | Allocate,
        request_json: dict[str, Any],
        *,
        result: Any,
        seed: int | None,
        dice: list[int] | None,
        pending_id: str | None,
        sent: Any = None,
    ) -> tuple[Entry, bytes]:
        """The journal line of a resolved request and the reply bytes it holds verbatim. ``sent``: what
        the line holds of the request, if not ``request_json`` (the client's own bytes,
        ``bridge.resolution.journaled``)."""
        outcome, reply = reply_for(message.id, request_json, result)
        entry = Entry(
            id=message.id,
            type=_KIND[type(message)],
            at=line_time(),
            outcome=outcome,
            request=request_json if sent is None else sent,
            seed=seed,
            dice=list(dice) if dice is not None else None,
            pending_id=pending_id,
            reply=msgspec.Raw(reply),
        )
        return entry, reply


def _reply_kind(reply: bytes | None) -> str | None:
    """The ``type`` of a journalled reply, or None."""
    if reply is None:
        return None
    try:
        decoded = msgspec.json.decode(reply)
    except msgspec.DecodeError:
        return None
    kind = decoded.get("type") if isinstance(decoded, dict) else None
    return kind if isinstance(kind, str) else None


def _refusal(error: BaseException, id: str | None) -> bytes:
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


#: The journal's ``type`` of each journalled message: its protocol tag.
_KIND: dict[type, str] = {kind: str(kind.__struct_config__.tag) for kind in (Attack, Action, Allocate)}
